/* SPDX-License-Identifier: MIT */
/*
 * prio-exporter: a snapshot's fairshare and priorities for Prometheus.
 * The exposition is libprio's (metrics.h); this file loads the snapshot
 * the way every command does, serves /metrics with libmicrohttpd (its own
 * TLS and basic authentication, no hand-written HTTP), reloads when the
 * folder's files change or, with --live, at most every --min-interval
 * seconds, and keeps serving the last good data when a reload fails.
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "live.h"
#include "prio/metrics.h"

#define USAGE                                                                  \
	"prio-exporter [SOURCES] --once [--max-jobs N] [--expose-private]\n"  \
	"       prio-exporter [SOURCES] [--listen ADDR:PORT] [--tls-cert FILE "   \
	"--tls-key FILE] [--basic-auth-file FILE] [--min-interval SECONDS]"

#define DEFAULT_LISTEN "127.0.0.1:9788"

enum {
	OPT_ONCE = OPT_COMMON_LAST + 1,
	OPT_LISTEN,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_BASIC_AUTH_FILE,
	OPT_MAX_JOBS,
	OPT_EXPOSE_PRIVATE,
	OPT_MIN_INTERVAL,
};

struct exporter {
	struct cmd_common c;
	struct prio_metrics_opts mo;
	struct prio_metrics_text body; /* the last good snapshot's families */
	struct prio_metrics_status st;
	char stamp[64];     /* the sources' files when last read */
	time_t last_try;    /* --live: the last capture attempt */
	long min_interval;  /* --live: seconds between captures */
	char *auth_user, *auth_pass;
	bool once;          /* --once: a failed capture ends the run */
};

/* The common sources without the what-if lines: an exporter reports what
 * Slurm does (--set and --what-if are refused). */
static void help_sources(void)
{
	char *text = NULL, *cut;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cmd_common_help_sources(f);
	if (fclose(f) != 0)
		return;
	cut = strstr(text, "What if:");
	if (cut)
		*cut = '\0';
	fputs(text, stdout);
	free(text);
}

static void help(void)
{
	printf("Usage: %s\n\n"
	       "A snapshot's fairshare and job priorities as Prometheus "
	       "metrics (OpenMetrics).\n\n"
	       "      --once             print the exposition and exit (for "
	       "node_exporter's\n"
	       "                         textfile collector)\n"
	       "      --listen=ADDR:PORT serve /metrics there (default "
	       DEFAULT_LISTEN ";\n"
	       "                         [ADDR]:PORT for IPv6, port 0: any "
	       "free port)\n"
	       "      --tls-cert=FILE    serve HTTPS with this PEM "
	       "certificate (needs --tls-key)\n"
	       "      --tls-key=FILE     the certificate's PEM private key\n"
	       "      --basic-auth-file=FILE  require the user:password of "
	       "the file's first line\n"
	       "      --max-jobs=N       per-job series for the N pending jobs "
	       "of highest\n"
	       "                         priority (default 1000; 0: none)\n"
	       "      --expose-private   per-user and per-job series even "
	       "where PrivateData\n"
	       "                         hides them from ordinary users\n"
	       "      --min-interval=SECONDS  with --live, capture at most "
	       "this often (default\n"
	       "                         the config file's live "
	       "min-interval)\n"
	       "      --help             this help, then exit\n"
	       "      --version          the version, then exit\n\n",
	       USAGE);
	help_sources();
	printf("\nExit status: 0 success, 1 the server cannot start, 2 usage "
	       "or input error.\nSee prio-exporter(1).\n");
}

/* ---- loading --------------------------------------------------------------- */

static void add_stamp(const char *path, unsigned long long *n,
		      unsigned long long *bytes, unsigned long long *newest)
{
	struct stat st;
	unsigned long long t;

	if (stat(path, &st) != 0)
		return;
	t = (unsigned long long)st.st_mtim.tv_sec * 1000000000ull +
	    (unsigned long long)st.st_mtim.tv_nsec;
	(*n)++;
	*bytes += (unsigned long long)st.st_size;
	if (t > *newest)
		*newest = t;
}

/* What the sources' files look like now: count, total size and newest
 * modification (nanoseconds) of the folder's files or the named files.
 * A change of any means a reload. */
static void stamp_of(const struct exporter *x, char *buf, size_t size)
{
	const char *dir = NULL, *paths[PRIO_ROLE_COUNT];
	struct prio_error err;
	unsigned long long n = 0, bytes = 0, newest = 0;
	char path[PATH_MAX];

	if (cmd_sources(&x->c, NULL, &dir, paths, &err) < 0) {
		snprintf(buf, size, "none");
		return;
	}
	if (dir) {
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			add_stamp(path, &n, &bytes, &newest);
		}
		if (d)
			closedir(d);
	}
	for (int r = 0; r < PRIO_ROLE_COUNT; r++) {
		if (paths[r])
			add_stamp(paths[r], &n, &bytes, &newest);
	}
	snprintf(buf, size, "%llu/%llu/%llu", n, bytes, newest);
}

/* --live: prio-snap in a child, since cmd_live_capture() exits on an
 * error and the server must outlive a failed capture (the child's
 * message goes to stderr).  0, or -1 when the capture failed. */
static int live_capture(struct exporter *x, char *dir, size_t size)
{
	int fd[2], status;
	pid_t pid;
	ssize_t got;

	if (x->once) {
		/* its one-line error and exit 2 are the run's */
		cmd_live_capture(&x->c, dir, size);
		return 0;
	}
	if (pipe(fd) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		char d[PATH_MAX];

		close(fd[0]);
		cmd_live_capture(&x->c, d, sizeof(d));
		if (write(fd[1], d, strlen(d) + 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], dir, size - 1);
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || got <= 0)
		return -1;
	dir[got] = '\0';
	return 0;
}

/* Read the sources and render them; on success the new text replaces the
 * old, on failure the old stays and the error is counted.  Returns 0 or
 * -1 with err filled. */
static int load(struct exporter *x, struct prio_error *err)
{
	struct prio_snapshot snap;
	struct prio_metrics_text text;
	char dir[PATH_MAX] = "";
	int rc;

	prio_error_clear(err);
	x->last_try = time(NULL);
	if (x->c.live && live_capture(x, dir, sizeof(dir)) < 0) {
		prio_error_set(err, PRIO_ERR_IO, "", 0, "--live",
			       "the capture failed");
		rc = -1;
	} else {
		rc = cmd_load_snapshot_from(&x->c, *dir ? dir : NULL, &snap,
					    err);
		if (rc == 0) {
			for (uint32_t i = 0; i < snap.warning_count; i++) {
				char buf[1024];

				cmd_warn(&x->c, "warning: %s",
					 prio_error_format(
					     &snap.warnings[i].error, buf,
					     sizeof(buf)));
			}
			rc = prio_metrics_render(&snap, &x->mo, &text, err);
			prio_snapshot_free(&snap);
		}
		if (*dir)
			cmd_live_cleanup(dir);
	}
	x->st.last_load_ok = rc == 0;
	if (rc < 0) {
		x->st.load_errors++;
		return -1;
	}
	prio_metrics_text_free(&x->body);
	x->body = text;
	x->st.loads++;
	x->st.last_load = time(NULL);
	return 0;
}

/* Before a scrape: reload when the files changed, or with --live when the
 * last capture is min-interval old. */
static void refresh(struct exporter *x)
{
	struct prio_error err;
	char now[sizeof(x->stamp)];

	if (x->c.live) {
		if (time(NULL) - x->last_try < x->min_interval)
			return;
	} else {
		stamp_of(x, now, sizeof(now));
		if (strcmp(now, x->stamp) == 0)
			return;
		memcpy(x->stamp, now, sizeof(now));
	}
	if (load(x, &err) < 0) {
		char msg[1024];

		cmd_warn(&x->c, "reload failed, serving the last good data: %s",
			 prio_error_format(&err, msg, sizeof(msg)));
	}
}

/* The body and the exporter's own state, in one malloc'd text. */
static char *exposition(struct exporter *x, enum prio_metrics_format fmt,
			size_t *len)
{
	struct prio_metrics_text st;
	char *buf;

	if (prio_metrics_render_status(&x->st, &st) < 0)
		return NULL;
	*len = x->body.len[fmt] + st.len[fmt];
	buf = malloc(*len + 1);
	if (buf) {
		if (x->body.len[fmt])
			memcpy(buf, x->body.text[fmt], x->body.len[fmt]);
		memcpy(buf + x->body.len[fmt], st.text[fmt], st.len[fmt] + 1);
	}
	prio_metrics_text_free(&st);
	return buf;
}

/* ---- HTTP ------------------------------------------------------------------- */

/* Equal strings, in a time that does not depend on where they differ. */
static bool same_secret(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
	return d == 0;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code,
			     const char *type, char *body, size_t len,
			     bool auth_fail)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = auth_fail ? MHD_queue_basic_auth_fail_response(
			      conn, "prio-exporter", r)
			: MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text_reply(struct MHD_Connection *conn, unsigned code,
				  const char *msg, bool auth_fail)
{
	char *body = strdup(msg);

	if (!body)
		return MHD_NO;
	return reply(conn, code, "text/plain; charset=utf-8", body,
		     strlen(body), auth_fail);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **req)
{
	struct exporter *x = cls;
	const char *accept;
	enum prio_metrics_format fmt;
	char *body;
	size_t len;

	(void)version;
	(void)upload;
	/* first call: headers only; answer on the second */
	if (!*req) {
		*req = (void *)1;
		return MHD_YES;
	}
	if (*upload_size)
		return text_reply(conn, MHD_HTTP_BAD_REQUEST, "no body\n", false);
	if (x->auth_user) {
		char *pass = NULL;
		char *user = MHD_basic_auth_get_username_password(conn, &pass);
		bool ok = user && pass && same_secret(user, x->auth_user) &&
			  same_secret(pass, x->auth_pass);

		MHD_free(user);
		MHD_free(pass);
		if (!ok)
			return text_reply(conn, MHD_HTTP_UNAUTHORIZED,
					  "authentication required\n", true);
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return text_reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "GET or HEAD only\n", false);
	if (strcmp(url, "/") == 0)
		return text_reply(conn, MHD_HTTP_OK,
				  "prio-exporter: the metrics are at /metrics\n",
				  false);
	if (strcmp(url, "/metrics") != 0)
		return text_reply(conn, MHD_HTTP_NOT_FOUND, "not found\n", false);
	/* OpenMetrics to those who ask for it (Prometheus does), the 0.0.4
	 * text format to the rest */
	accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					     MHD_HTTP_HEADER_ACCEPT);
	fmt = accept && strstr(accept, "application/openmetrics-text")
		  ? PRIO_METRICS_OPENMETRICS
		  : PRIO_METRICS_TEXT;
	/* one thread answers (MHD's internal polling thread): the data is
	 * only touched here */
	refresh(x);
	body = exposition(x, fmt, &len);
	if (!body)
		return MHD_NO;
	return reply(conn, MHD_HTTP_OK, prio_metrics_content_type(fmt), body,
		     len, false);
}

/* ---- options ---------------------------------------------------------------- */

static char *read_file(struct exporter *x, const char *opt, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		cmd_die(&x->c, "%s: %s: %s", opt, path, strerror(errno));
	do {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);

			if (!p)
				cmd_die(&x->c, "out of memory");
			buf = p;
			cap += 65536;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0 && len < 1u << 20);
	if (ferror(f))
		cmd_die(&x->c, "%s: %s: %s", opt, path, strerror(errno));
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* "user:password" on the first line. */
static void read_auth(struct exporter *x, const char *path)
{
	char *text = read_file(x, "--basic-auth-file", path);
	char *colon, *nl = strchr(text, '\n');

	if (nl)
		*nl = '\0';
	if (nl && nl > text && nl[-1] == '\r')
		nl[-1] = '\0';
	colon = strchr(text, ':');
	if (!colon || colon == text || !colon[1])
		cmd_die(&x->c,
			"%s:1: basic auth: expected user:password (both "
			"non-empty)",
			path);
	*colon = '\0';
	x->auth_user = text;
	x->auth_pass = colon + 1;
}

/* ADDR:PORT (IPv4) or [ADDR]:PORT (IPv6). */
static int parse_listen(const char *arg, struct sockaddr_storage *sa,
			bool *v6)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(arg, ':');
	char *end;
	unsigned long port;
	size_t hl;

	if (!colon || colon == arg || !colon[1])
		return -1;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end || errno || port > 65535 || colon[1] == '-' ||
	    colon[1] == '+')
		return -1;
	hl = (size_t)(colon - arg);
	if (hl >= sizeof(host))
		return -1;
	memcpy(host, arg, hl);
	host[hl] = '\0';
	memset(sa, 0, sizeof(*sa));
	*v6 = host[0] == '[';
	if (*v6) {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)sa;

		if (hl < 3 || host[hl - 1] != ']')
			return -1;
		host[hl - 1] = '\0';
		s->sin6_family = AF_INET6;
		s->sin6_port = htons((uint16_t)port);
		return inet_pton(AF_INET6, host + 1, &s->sin6_addr) == 1 ? 0 : -1;
	}
	struct sockaddr_in *s = (struct sockaddr_in *)sa;

	s->sin_family = AF_INET;
	s->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &s->sin_addr) == 1 ? 0 : -1;
}

static long parse_count(struct exporter *x, const char *opt, const char *arg,
			long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 0 || v > max)
		cmd_usage_error(&x->c, USAGE,
				"%s: expected a whole number from 0 to %ld, "
				"got \"%s\"",
				opt, max, arg);
	return v;
}

/* ---- main ------------------------------------------------------------------- */

static int serve(struct exporter *x, const char *listen, const char *cert,
		 const char *key)
{
	struct sockaddr_storage sa;
	bool v6;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	char *cert_pem = NULL, *key_pem = NULL;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	sigset_t set;
	int sig;
	struct prio_error err;
	char msg[1024];

	if (parse_listen(listen, &sa, &v6) < 0)
		cmd_usage_error(&x->c, USAGE,
				"--listen: expected ADDR:PORT or [ADDR]:PORT, "
				"got \"%s\"",
				listen);
	if ((cert != NULL) != (key != NULL))
		cmd_usage_error(&x->c, USAGE,
				"--tls-cert and --tls-key go together");
	if (cert) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
			cmd_die(&x->c, "--tls-cert: this libmicrohttpd was built "
				       "without TLS");
		cert_pem = read_file(x, "--tls-cert", cert);
		key_pem = read_file(x, "--tls-key", key);
		flags |= MHD_USE_TLS;
	}
	if (v6)
		flags |= MHD_USE_IPv6;
	/* the first load: an error here is the operator's to fix now */
	stamp_of(x, x->stamp, sizeof(x->stamp));
	if (load(x, &err) < 0)
		cmd_die_error(&x->c, &err);
	/* SIGINT and SIGTERM for sigwait(), blocked before the server's
	 * thread starts so that it inherits the mask */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d = cert ? MHD_start_daemon(flags, 0, NULL, NULL, handle, x,
				    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				    MHD_OPTION_HTTPS_MEM_CERT, cert_pem,
				    MHD_OPTION_HTTPS_MEM_KEY, key_pem,
				    MHD_OPTION_END)
		 : MHD_start_daemon(flags, 0, NULL, NULL, handle, x,
				    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				    MHD_OPTION_END);
	if (!d) {
		cmd_warn(&x->c, "cannot serve on %s%s", listen,
			 cert ? " (or the TLS certificate and key were "
				"refused)"
			      : "");
		free(cert_pem);
		free(key_pem);
		return EXIT_NO;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(msg, sizeof(msg), "%.*s", (int)(strrchr(listen, ':') - listen),
		 listen);
	cmd_warn(&x->c, "serving %s://%s:%u/metrics", cert ? "https" : "http",
		 msg, info ? (unsigned)info->port : 0u);
	sigwait(&set, &sig);
	MHD_stop_daemon(d);
	free(cert_pem);
	free(key_pem);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option own[] = {
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"listen", required_argument, NULL, OPT_LISTEN},
	    {"tls-cert", required_argument, NULL, OPT_TLS_CERT},
	    {"tls-key", required_argument, NULL, OPT_TLS_KEY},
	    {"basic-auth-file", required_argument, NULL, OPT_BASIC_AUTH_FILE},
	    {"max-jobs", required_argument, NULL, OPT_MAX_JOBS},
	    {"expose-private", no_argument, NULL, OPT_EXPOSE_PRIVATE},
	    {"min-interval", required_argument, NULL, OPT_MIN_INTERVAL},
	};
	const struct option *longopts =
	    cmd_merge_options(own, sizeof(own) / sizeof(own[0]));
	struct exporter x;
	const char *listen = DEFAULT_LISTEN, *cert = NULL, *key = NULL;
	const char *auth = NULL;
	bool once = false, interval_set = false;
	int opt, rc;

	memset(&x, 0, sizeof(x));
	cmd_common_init(&x.c, "prio-exporter");
	x.mo.max_jobs = 1000;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":V", longopts, NULL)) != -1) {
		if (cmd_common_option(&x.c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_ONCE:
			once = true;
			break;
		case OPT_LISTEN:
			listen = optarg;
			break;
		case OPT_TLS_CERT:
			cert = optarg;
			break;
		case OPT_TLS_KEY:
			key = optarg;
			break;
		case OPT_BASIC_AUTH_FILE:
			auth = optarg;
			break;
		case OPT_MAX_JOBS:
			x.mo.max_jobs = (uint32_t)parse_count(
			    &x, "--max-jobs", optarg, 10000000);
			break;
		case OPT_EXPOSE_PRIVATE:
			x.mo.expose_private = true;
			break;
		case OPT_MIN_INTERVAL:
			x.min_interval =
			    parse_count(&x, "--min-interval", optarg, 86400);
			interval_set = true;
			break;
		case OPT_HELP:
			help();
			return EXIT_OK;
		case 'V':
		case OPT_VERSION:
			printf("prio-exporter (prio-tools) %s\n",
			       PACKAGE_VERSION);
			return EXIT_OK;
		case ':':
			cmd_usage_error(&x.c, USAGE,
					"option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(&x.c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd_usage_error(&x.c, USAGE, "unexpected argument '%s'",
				argv[optind]);
	if (x.c.mode != CMD_OUT_TEXT)
		cmd_usage_error(&x.c, USAGE,
				"the exposition has one format: no -P, --csv "
				"or --json");
	if (x.c.set_count)
		cmd_usage_error(&x.c, USAGE,
				"--set and --what-if change what Slurm does: "
				"an exporter reports what it does");
	if (interval_set && !x.c.live)
		cmd_usage_error(&x.c, USAGE, "--min-interval goes with --live");
	if (once && (cert || key || auth || listen != (const char *)DEFAULT_LISTEN))
		cmd_usage_error(&x.c, USAGE,
				"--once prints to standard output: no --listen, "
				"--tls-cert, --tls-key or --basic-auth-file");
	if (x.c.live && x.c.snapshot_dir)
		cmd_usage_error(&x.c, USAGE,
				"--live and --snapshot cannot be combined");
	if (!interval_set)
		x.min_interval = cmd_live_min_interval();
	x.mo.fixed_clock = x.c.now_set;
	/* usage comes from sshare, as fstree-show and prio-calc read it:
	 * a folder's job history is left unread */
	x.c.folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	if (auth)
		read_auth(&x, auth);
	x.once = once;
	if (once) {
		struct prio_error err;
		char *text;
		size_t len;

		if (load(&x, &err) < 0)
			cmd_die_error(&x.c, &err);
		text = exposition(&x, PRIO_METRICS_OPENMETRICS, &len);
		if (!text)
			cmd_die(&x.c, "out of memory");
		if (fwrite(text, 1, len, stdout) != len)
			cmd_die_write(&x.c);
		free(text);
		rc = EXIT_OK;
	} else {
		rc = serve(&x, listen, cert, key);
	}
	prio_metrics_text_free(&x.body);
	free(x.auth_user);
	return rc;
}
