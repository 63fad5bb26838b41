/* SPDX-License-Identifier: MIT */
/*
 * Options, sources and errors shared by every command.  The toolkit's own
 * config file (prio-tools.conf(5)) is read with libconfuse; its `sources`
 * section supplies inputs when the command line names none.
 */
#include "config.h"

#include <confuse.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prio/wrap.h"
#include "common.h"
#include "live.h"

const struct option cmd_common_long_options[] = {
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "conf", required_argument, NULL, OPT_CONF },
	{ "assoc", required_argument, NULL, OPT_ASSOC },
	{ "qos", required_argument, NULL, OPT_QOS },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "sacct", required_argument, NULL, OPT_SACCT },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "partitions", required_argument, NULL, OPT_PARTITIONS },
	{ "now", required_argument, NULL, OPT_NOW },
	{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "set", required_argument, NULL, OPT_SET },
	{ "what-if", required_argument, NULL, OPT_WHAT_IF },
	{ "live", no_argument, NULL, OPT_LIVE },
	{ "cluster", required_argument, NULL, OPT_CLUSTER },
	{ "slurm-version", required_argument, NULL, OPT_SLURM_VERSION },
	{ "assume-complete", no_argument, NULL, OPT_ASSUME_COMPLETE },
};

static struct option *merged_options;

static void free_merged_options(void)
{
	free(merged_options);
}

const struct option *cmd_merge_options(const struct option *own, size_t n)
{
	size_t k = CMD_COMMON_LONG_OPTION_COUNT;

	free(merged_options);
	merged_options = calloc(k + n + 1, sizeof(*merged_options));
	if (!merged_options) {
		fputs("out of memory\n", stderr);
		exit(EXIT_ERROR);
	}
	atexit(free_merged_options);
	memcpy(merged_options, cmd_common_long_options, k * sizeof(*merged_options));
	memcpy(merged_options + k, own, n * sizeof(*merged_options));
	return merged_options;
}

static char config_path_buf[4096];
static const char *config_path;

/* Sources named by the config file, used when the command line has none. */
static struct {
	char *snapshot;
	char *paths[PRIO_ROLE_COUNT];
} config_sources;

/* The config file's named what-if sets: what-if NAME { set = {...} }. */
struct whatif_set {
	char *name;
	char **sets;
	unsigned count;
};
static struct whatif_set *whatif_sets;
static unsigned whatif_count;

/* The config file's live section. */
static const char *const live_keys[] = { "scontrol", "sshare", "sacctmgr", "squeue",
					 "sacct", "sinfo", "cluster", "prio-snap" };
#define LIVE_KEY_COUNT (sizeof(live_keys) / sizeof(live_keys[0]))
static char *live_values[LIVE_KEY_COUNT];
static long live_min_interval = 30;

const char *cmd_live_setting(const char *key)
{
	for (size_t i = 0; i < LIVE_KEY_COUNT; i++)
		if (!strcmp(live_keys[i], key))
			return live_values[i];
	return NULL;
}

long cmd_live_min_interval(void)
{
	return live_min_interval;
}

/* An error line was printed on the way out: the exit handler must not add
 * a second one about standard output (issue 13: one line). */
static bool error_reported;

int cmd_text_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n > 0 && n <= 10000)
			return (int)n;
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

void cmd_put_wrapped(const char *text, int width)
{
	if (!*text) {
		putchar('\n'); /* an empty line is a line */
		return;
	}
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *line = strndup(text, len);

		if (!line || width <= 0) {
			/* as it is (and out of memory: unfolded beats lost) */
			fwrite(text, 1, len, stdout);
			putchar('\n');
		} else {
			uint32_t n = prio_wrap(line, width, NULL);
			struct prio_wrap_piece *pc = calloc(n, sizeof(*pc));

			if (!pc) {
				puts(line);
			} else {
				prio_wrap(line, width, pc);
				for (uint32_t k = 0; k < n; k++)
					printf("%*s%.*s\n", pc[k].indent, "",
					       (int)pc[k].len, pc[k].start);
			}
			free(pc);
		}
		free(line);
		text += len + (nl != NULL);
	}
}

void cmd_warn(const struct cmd_common *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cmd_warn_sched_unmodelled(const struct cmd_common *c,
			       const struct prio_snapshot *snap)
{
	char words[512];

	if (prio_sched_params_unmodelled(&snap->conf, words, sizeof(words)))
		cmd_warn(c,
			 "warning: SchedulerParameters %s: not modelled; the "
			 "forecast schedules as if unset",
			 words);
}

void cmd_die(const struct cmd_common *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	error_reported = true;
	exit(EXIT_ERROR);
}

void cmd_die_error(const struct cmd_common *c, const struct prio_error *err)
{
	char buf[1024];

	fprintf(stderr, "%s: %s\n", c->prog, prio_error_format(err, buf, sizeof(buf)));
	error_reported = true;
	exit(EXIT_ERROR);
}

/* Why standard output failed: glibc drops the buffer of a failed flush,
 * so the reason is the errno of the write that failed (`e`, 0 when it is
 * not known); a flush of what is still buffered may tell it again. */
static const char *stdout_failure(int e)
{
	errno = 0;
	if (fflush(stdout) != 0 && errno)
		e = errno;
	/* Still unknown (an automatic flush failed mid-output, and later
	 * calls reset errno): the output is broken already, so one more byte
	 * written straight to the descriptor asks the reason again. */
	if (!e && ferror(stdout) && write(STDOUT_FILENO, "\n", 1) < 0)
		e = errno;
	return e ? strerror(e) : "write error";
}

void cmd_die_write(const struct cmd_common *c)
{
	const char *why = stdout_failure(errno);

	fprintf(stderr, "%s: standard output: %s\n", c->prog, why);
	error_reported = true;
	exit(EXIT_ERROR);
}

static const char *exit_prog = "prio-tools";

/* Every output path, --help and --version included, ends here: output
 * that could not be written is an error (exit 2, one line), never a
 * silent exit 0.  _exit because exit() may not be called again from an
 * exit handler. */
static void close_stdout(void)
{
	const char *why = NULL;

	errno = 0;
	/* the flush tells why when it fails; an earlier failure that nobody
	 * reported has lost its errno */
	if (fflush(stdout) != 0 || ferror(stdout))
		why = stdout_failure(errno);
	if (fclose(stdout) != 0 && !why)
		why = errno ? strerror(errno) : "write error";
	if (!why)
		return;
	if (!error_reported)
		fprintf(stderr, "%s: standard output: %s\n", exit_prog, why);
	_exit(EXIT_ERROR);
}

/* A closed 0, 1 or 2 would be handed to the next open(), pipe() or
 * inotify_init() (prio-top would read its inotify descriptor as standard
 * input).  Each one closed is held by /dev/null opened the wrong way round,
 * so that reading standard input or writing standard output then fails
 * with EBADF and is reported, instead of reading nothing or printing into
 * the void. */
static void hold_standard_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int held;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* open() takes the lowest free descriptor: fd itself */
		held = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (held != fd)
			_exit(EXIT_ERROR); /* nowhere to say it */
	}
}

void cmd_usage_error(const struct cmd_common *c, const char *usage,
		     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* One line (issue 13): the usage line is what --usage or --help are
	 * for; `usage` stays in the signature so that callers need not change. */
	(void)usage;
	fprintf(stderr, " (try '%s --help')\n", c->prog);
	error_reported = true;
	exit(EXIT_ERROR);
}

void cmd_output(struct cmd_common *c, enum cmd_output mode)
{
	static const char *const names[] = {
		[CMD_OUT_TEXT] = "text",   [CMD_OUT_PARSABLE] = "-p",
		[CMD_OUT_PARSABLE2] = "-P", [CMD_OUT_CSV] = "--csv",
		[CMD_OUT_JSON] = "--json",
	};

	/* the last one winning would print a format the user did not ask
	 * for, exit 0 (issue 13); the same option twice is harmless */
	if (c->mode != CMD_OUT_TEXT && c->mode != mode)
		cmd_usage_error(c, NULL,
				"%s and %s conflict: give one output format",
				names[c->mode], names[mode]);
	c->mode = mode;
}

enum prio_output_mode cmd_writer_mode(enum cmd_output mode)
{
	switch (mode) {
	case CMD_OUT_PARSABLE: return PRIO_OUT_PARSABLE;
	case CMD_OUT_PARSABLE2: return PRIO_OUT_PARSABLE2;
	case CMD_OUT_CSV: return PRIO_OUT_CSV;
	case CMD_OUT_JSON: return PRIO_OUT_JSON;
	case CMD_OUT_TEXT: break;
	}
	return PRIO_OUT_TEXT;
}

/*
 * A local time the user types (--now, --at) means what the same text
 * means in the snapshot's files and in what the tools print: the zone the
 * snapshot records, when it records one, else the user's TZ.  Copying a
 * time from the output or from squeue on the cluster gives the same
 * instant wherever it is typed.  With an offset (Z, +01:00) it is
 * absolute.  The zone is known only once MANIFEST is read, so each value
 * is checked here and parsed again by cmd_load_snapshot_from().
 */
static struct {
	const char *arg;
	time_t *out;
} user_times[4];
static unsigned user_time_count;

int cmd_parse_now(const char *arg, time_t *out)
{
	int rc;
	unsigned i;

	/* "now", "now-2hours": the wall clock, read as sbatch --begin and
	 * tres-bill's windows read it; absolute, so not parsed again once
	 * the snapshot's zone is known */
	if (strncasecmp(arg, "now", 3) == 0)
		return prio_slurm_time_parse(arg, time(NULL), out) < 0 ||
		       *out <= 0 ? -1 : 0;
	rc = prio_timestamp_parse(arg, strlen(arg), out);

	/* a time our zone skips may exist in the snapshot's */
	if (rc == -2) {
		*out = 1;
		rc = 0;
	}
	if (rc < 0 || *out == 0)
		return -1;
	for (i = 0; i < user_time_count && user_times[i].out != out; i++)
		;
	if (i < sizeof(user_times) / sizeof(user_times[0])) {
		user_times[i].arg = arg;
		user_times[i].out = out;
		if (i == user_time_count)
			user_time_count++;
	}
	return 0;
}

static int reparse_user_times(const struct prio_snapshot *snap,
			      struct prio_error *err)
{
	for (unsigned i = 0; i < user_time_count; i++) {
		const char *arg = user_times[i].arg;
		char zone[128];

		if (prio_timestamp_parse(arg, strlen(arg), user_times[i].out) == 0)
			continue;
		prio_snapshot_zone_describe(snap, zone, sizeof(zone));
		*strchr(zone, ' ') = '\0';
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "\"%s\": no such local time in %s (the "
				      "clocks skipped it at a DST change): "
				      "give another, or an offset (+HH:MM)",
				      arg, zone);
	}
	return PRIO_OK;
}

const char *cmd_config_path(void)
{
	return config_path;
}

static const char *pick_config_path(void)
{
	const char *env = getenv("PRIO_TOOLS_CONF");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	struct stat st;

	if (env)
		return *env ? env : NULL;
	if (xdg && *xdg)
		snprintf(config_path_buf, sizeof(config_path_buf),
			 "%s/prio-tools/config", xdg);
	else if (home && *home)
		snprintf(config_path_buf, sizeof(config_path_buf),
			 "%s/.config/prio-tools/config", home);
	else
		config_path_buf[0] = '\0';
	if (config_path_buf[0] && stat(config_path_buf, &st) == 0)
		return config_path_buf;
	if (stat("/etc/prio-tools.conf", &st) == 0)
		return "/etc/prio-tools.conf";
	return NULL;
}

/* ---- the top section (prio-top) ---------------------------------------- */

static struct cmd_top_config top_config = {
	.refresh = 30, .delay = 3.0, .color = true, .mouse = false,
};

const struct cmd_top_config *cmd_top_config(void)
{
	return &top_config;
}

static void free_top_config(void)
{
	for (unsigned i = 0; i < top_config.nkeys; i++) {
		free(top_config.keys[i].name);
		free(top_config.keys[i].value);
	}
	for (unsigned i = 0; i < top_config.ncolors; i++) {
		free(top_config.colors[i].name);
		free(top_config.colors[i].value);
	}
	free(top_config.keys);
	free(top_config.colors);
}

/* A free-form subsection's name = "value" pairs, in file order. */
static void read_pairs(const struct cmd_common *c, cfg_t *sec,
		       struct cmd_top_pair **out, unsigned *n)
{
	unsigned count = sec ? cfg_num(sec) : 0;

	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out)
		cmd_die(c, "out of memory");
	for (unsigned i = 0; i < count; i++) {
		cfg_opt_t *opt = cfg_getnopt(sec, i);
		const char *v = opt ? cfg_opt_getstr(opt) : NULL;

		if (!opt || !v)
			continue;
		(*out)[*n].name = strdup(cfg_opt_name(opt));
		(*out)[*n].value = strdup(v);
		if (!(*out)[*n].name || !(*out)[*n].value)
			cmd_die(c, "out of memory");
		(*n)++;
	}
}

static void read_top_section(const struct cmd_common *c, cfg_t *sec)
{
	top_config.refresh = cfg_getint(sec, "refresh");
	top_config.delay = cfg_getfloat(sec, "delay");
	top_config.color = cfg_getbool(sec, "color");
	top_config.mouse = cfg_getbool(sec, "mouse");
	if (top_config.refresh < 1)
		cmd_die(c, "%s: top: refresh must be at least 1 second", config_path);
	if (!(top_config.delay > 0) || top_config.delay > 86400)
		cmd_die(c, "%s: top: delay must be above 0 and at most 86400 seconds",
			config_path);
	if (atexit(free_top_config) != 0)
		cmd_die(c, "out of memory");
	read_pairs(c, cfg_getsec(sec, "keys"), &top_config.keys, &top_config.nkeys);
	read_pairs(c, cfg_getsec(sec, "colors"), &top_config.colors,
		   &top_config.ncolors);
}

static const char *error_prog = "prio-tools";

static void confuse_error(cfg_t *cfg, const char *fmt, va_list ap)
{
	/* libconfuse 3.3 reports each new key of a free-form (KEYSTRVAL)
	 * section as unknown, then adds it all the same: not an error. */
	if (cfg && cfg->name && (!strcmp(cfg->name, "keys") || !strcmp(cfg->name, "colors")) &&
	    !strncmp(fmt, "no such option", 14))
		return;
	fprintf(stderr, "%s: %s:%d: ", error_prog,
		cfg && cfg->filename ? cfg->filename : "config",
		cfg ? cfg->line : 0);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void read_config_file(const struct cmd_common *c)
{
	static const char *const role_keys[PRIO_ROLE_COUNT] = {
		[PRIO_ROLE_CONF] = "conf", [PRIO_ROLE_ASSOC] = "assoc",
		[PRIO_ROLE_QOS] = "qos", [PRIO_ROLE_JOBS] = "jobs",
		[PRIO_ROLE_SACCT] = "sacct", [PRIO_ROLE_NODES] = "nodes",
		[PRIO_ROLE_PARTITIONS] = "partitions",
	};
	cfg_opt_t sources_opts[] = {
		CFG_STR("snapshot", NULL, CFGF_NONE),
		CFG_STR("conf", NULL, CFGF_NONE),
		CFG_STR("assoc", NULL, CFGF_NONE),
		CFG_STR("qos", NULL, CFGF_NONE),
		CFG_STR("jobs", NULL, CFGF_NONE),
		CFG_STR("sacct", NULL, CFGF_NONE),
		CFG_STR("nodes", NULL, CFGF_NONE),
		CFG_STR("partitions", NULL, CFGF_NONE),
		CFG_END()
	};
	cfg_opt_t live_opts[] = {
		CFG_STR("scontrol", NULL, CFGF_NONE),
		CFG_STR("sshare", NULL, CFGF_NONE),
		CFG_STR("sacctmgr", NULL, CFGF_NONE),
		CFG_STR("squeue", NULL, CFGF_NONE),
		CFG_STR("sacct", NULL, CFGF_NONE),
		CFG_STR("sinfo", NULL, CFGF_NONE),
		CFG_STR("cluster", NULL, CFGF_NONE),
		CFG_STR("prio-snap", NULL, CFGF_NONE),
		CFG_INT("min-interval", 30, CFGF_NONE),
		CFG_END()
	};
	cfg_opt_t whatif_opts[] = {
		CFG_STR_LIST("set", "{}", CFGF_NONE),
		CFG_END()
	};
	/* prio-top: key bindings and colours are free-form (action = keys,
	 * element = colours); the viewer checks them against its tables. */
	cfg_opt_t top_free_opts[] = { CFG_END() };
	cfg_opt_t top_opts[] = {
		CFG_INT("refresh", 30, CFGF_NONE),
		CFG_FLOAT("delay", 3.0, CFGF_NONE),
		CFG_BOOL("color", cfg_true, CFGF_NONE),
		CFG_BOOL("mouse", cfg_false, CFGF_NONE),
		CFG_SEC("keys", top_free_opts, CFGF_KEYSTRVAL),
		CFG_SEC("colors", top_free_opts, CFGF_KEYSTRVAL),
		CFG_END()
	};
	cfg_opt_t opts[] = {
		CFG_SEC("sources", sources_opts, CFGF_NONE),
		CFG_SEC("live", live_opts, CFGF_NONE),
		CFG_SEC("what-if", whatif_opts, CFGF_MULTI | CFGF_TITLE),
		CFG_SEC("top", top_opts, CFGF_NONE),
		CFG_END()
	};
	cfg_t *cfg, *sec;
	int rc;

	config_path = pick_config_path();
	if (!config_path || strcmp(config_path, "/dev/null") == 0)
		return;
	cfg = cfg_init(opts, CFGF_NONE);
	if (!cfg)
		cmd_die(c, "%s: cannot initialise the config parser", config_path);
	error_prog = c->prog;
	cfg_set_error_function(cfg, confuse_error);
	rc = cfg_parse(cfg, config_path);
	if (rc == CFG_FILE_ERROR) {
		/* An explicitly named file must exist; the defaults may not. */
		if (getenv("PRIO_TOOLS_CONF"))
			cmd_die(c, "%s: cannot read config file: %s", config_path,
				strerror(errno));
		cfg_free(cfg);
		return;
	}
	if (rc != CFG_SUCCESS) {
		cfg_free(cfg);
		error_reported = true; /* confuse_error printed file:line */
		exit(EXIT_ERROR);
	}
	whatif_count = cfg_size(cfg, "what-if");
	whatif_sets = calloc(whatif_count ? whatif_count : 1, sizeof(*whatif_sets));
	if (!whatif_sets)
		cmd_die(c, "out of memory");
	for (unsigned i = 0; i < whatif_count; i++) {
		cfg_t *w = cfg_getnsec(cfg, "what-if", i);
		struct whatif_set *ws = &whatif_sets[i];

		ws->name = strdup(cfg_title(w));
		ws->count = cfg_size(w, "set");
		ws->sets = calloc(ws->count ? ws->count : 1, sizeof(char *));
		if (!ws->name || !ws->sets)
			cmd_die(c, "out of memory");
		for (unsigned k = 0; k < ws->count; k++)
			if (!(ws->sets[k] = strdup(cfg_getnstr(w, "set", k))))
				cmd_die(c, "out of memory");
	}
	sec = cfg_getsec(cfg, "live");
	if (sec) {
		for (size_t i = 0; i < LIVE_KEY_COUNT; i++) {
			const char *v = cfg_getstr(sec, live_keys[i]);

			if (v && !(live_values[i] = strdup(v)))
				cmd_die(c, "out of memory");
		}
		live_min_interval = cfg_getint(sec, "min-interval");
		if (live_min_interval < 1)
			cmd_die(c, "%s: live: min-interval must be at least 1 second", config_path);
	}
	sec = cfg_getsec(cfg, "top");
	if (sec)
		read_top_section(c, sec);
	sec = cfg_getsec(cfg, "sources");
	if (sec) {
		const char *v = cfg_getstr(sec, "snapshot");

		if (v)
			config_sources.snapshot = strdup(v);
		for (int r = 0; r < PRIO_ROLE_COUNT; r++) {
			v = cfg_getstr(sec, role_keys[r]);
			if (v)
				config_sources.paths[r] = strdup(v);
		}
	}
	cfg_free(cfg);
}

void cmd_common_init(struct cmd_common *c, const char *prog)
{
	hold_standard_fds();
	exit_prog = prog;
	if (atexit(close_stdout) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(EXIT_ERROR);
	}
	memset(c, 0, sizeof(*c));
	c->prog = prog;
	c->mode = CMD_OUT_TEXT;
	c->folder_roles = (1u << PRIO_ROLE_COUNT) - 1;
	read_config_file(c);
}

/* The assignment lists live as long as the process, like the option
 * strings they point to; freed at exit. */
static const char **set_list, **set_origin_list;

static void free_sets(void)
{
	free(set_list);
	free(set_origin_list);
}

static void add_set(struct cmd_common *c, const char *set, const char *origin)
{
	if (c->set_count == c->set_capacity) {
		unsigned cap = c->set_capacity ? c->set_capacity * 2 : 8;
		const char **s;

		if (!set_list && atexit(free_sets) != 0)
			cmd_die(c, "out of memory");
		s = realloc(c->sets, cap * sizeof(*s));
		if (!s)
			cmd_die(c, "out of memory");
		c->sets = set_list = s;
		s = realloc(c->set_origins, cap * sizeof(*s));
		if (!s)
			cmd_die(c, "out of memory");
		c->set_origins = set_origin_list = s;
		c->set_capacity = cap;
	}
	c->sets[c->set_count] = set;
	c->set_origins[c->set_count++] = origin;
}

static void add_what_if(struct cmd_common *c, const char *name)
{
	for (unsigned i = 0; i < whatif_count; i++) {
		if (strcmp(whatif_sets[i].name, name) != 0)
			continue;
		for (unsigned k = 0; k < whatif_sets[i].count; k++)
			add_set(c, whatif_sets[i].sets[k], whatif_sets[i].name);
		return;
	}
	if (!config_path)
		cmd_die(c, "--what-if %s: no config file (see prio-tools.conf(5))", name);
	cmd_die(c, "--what-if %s: no what-if section of that name in %s", name, config_path);
}

static void set_path(struct cmd_common *c, enum prio_role role, const char *arg)
{
	if (!*arg)
		cmd_usage_error(c, NULL, "%s: expected a file name or -",
				prio_role_option(role));
	c->paths[role] = arg;
}

int cmd_common_option(struct cmd_common *c, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SNAPSHOT:
		if (!*arg)
			cmd_usage_error(c, NULL, "--snapshot: expected a folder");
		c->snapshot_dir = arg;
		return 1;
	case OPT_CONF: set_path(c, PRIO_ROLE_CONF, arg); return 1;
	case OPT_ASSOC: set_path(c, PRIO_ROLE_ASSOC, arg); return 1;
	case OPT_QOS: set_path(c, PRIO_ROLE_QOS, arg); return 1;
	case OPT_JOBS: set_path(c, PRIO_ROLE_JOBS, arg); return 1;
	case OPT_SACCT: set_path(c, PRIO_ROLE_SACCT, arg); return 1;
	case OPT_NODES: set_path(c, PRIO_ROLE_NODES, arg); return 1;
	case OPT_PARTITIONS: set_path(c, PRIO_ROLE_PARTITIONS, arg); return 1;
	case OPT_NOW:
		if (cmd_parse_now(arg, &c->now) < 0)
			cmd_usage_error(c, NULL,
					"--now: expected Unix seconds, "
					"YYYY-MM-DDTHH:MM:SS or now[-N[unit]], "
					"got \"%s\"",
					arg);
		c->now_set = true;
		return 1;
	case OPT_KEEP_GOING: c->keep_going = true; return 1;
	case OPT_SET:
		if (!strchr(arg, '='))
			cmd_usage_error(c, NULL,
					"--set: expected Key=Value or "
					"kind:NAME.Key=Value, got \"%s\"",
					arg);
		add_set(c, arg, "--set");
		return 1;
	case OPT_WHAT_IF: add_what_if(c, arg); return 1;
	case OPT_LIVE: c->live = true; return 1;
	case OPT_CLUSTER:
		if (!*arg)
			cmd_usage_error(c, NULL, "--cluster: expected a cluster name");
		c->cluster = arg;
		return 1;
	case OPT_SLURM_VERSION: {
		uint16_t release;

		if (prio_slurm_version_parse(arg, strlen(arg), &release) < 0)
			cmd_usage_error(c, NULL,
					"--slurm-version: expected a release "
					"such as 24.11, got \"%s\"",
					arg);
		if (release < PRIO_SLURM_OLDEST)
			cmd_usage_error(c, NULL,
					"--slurm-version: %s: releases before "
					"22.05 are not supported",
					arg);
		c->slurm_release = release;
		return 1;
	}
	case OPT_ASSUME_COMPLETE: c->assume_complete = true; return 1;
	case OPT_CSV: cmd_output(c, CMD_OUT_CSV); return 1;
	case OPT_JSON: cmd_output(c, CMD_OUT_JSON); return 1;
	}
	return 0;
}

void cmd_common_help_sources(FILE *out)
{
	fputs("Sources (each a path, or - for standard input):\n"
	      "      --snapshot=DIR     a snapshot folder (see prio-tools(7))\n"
	      "      --conf=FILE        slurm.conf or 'scontrol show config' output\n"
	      "      --assoc=FILE       'sacctmgr dump' file or 'sshare -a -l -P' output\n"
	      "      --qos=FILE         'sacctmgr -P show qos' output\n"
	      "      --jobs=FILE        'scontrol show job -d' or squeue's JSON output\n"
	      "      --sacct=FILE       'sacct -a -P -X' output\n"
	      "      --nodes=FILE       'scontrol show node' output\n"
	      "      --partitions=FILE  'scontrol show partition' output\n"
	      "      --live             ask the running cluster (runs prio-snap(1))\n"
	      "      --cluster=NAME     with --live, that cluster (Slurm's -M)\n"
	      "      --now=TIME         the clock: Unix seconds, YYYY-MM-DDTHH:MM:SS, now[-N[unit]]\n"
	      "      --keep-going       report malformed records as warnings and go on\n"
	      "      --slurm-version=X.Y  the Slurm release that printed the sources\n"
	      "                         (default: SLURM_VERSION, MANIFEST, the formats)\n"
	      "      --assume-complete  the sources are whole even where PrivateData\n"
	      "                         hides other users' usage or jobs from the\n"
	      "                         user who captured them\n"
	      "What if:\n"
	      "      --set=KEY=VALUE    change one value before computing (repeatable):\n"
	      "                         a slurm.conf Key=Value, partition:NAME.Key=V,\n"
	      "                         qos:NAME.Key=V, assoc:ACCT[/USER].Key=V, job:ID.Key=V\n"
	      "      --what-if=NAME     apply the named set of the config file\n",
	      out);
}

void cmd_common_help(FILE *out)
{
	cmd_common_help_sources(out);
	fputs("Output:\n"
	      "  -P, --parsable         '|'-separated fields\n"
	      "      --csv              CSV (RFC 4180), header of column ids\n"
	      "      --json             a JSON array of objects\n"
	      "  -h, --noheader         no header line\n"
	      "      --help             this help, then exit\n"
	      "      --version          the version, then exit\n",
	      out);
}

int cmd_sources(const struct cmd_common *c, const char *dir,
		const char **dir_out, const char *paths[PRIO_ROLE_COUNT],
		struct prio_error *err)
{
	bool any;
	static char default_conf[4096];

	if (!dir)
		dir = c->snapshot_dir;
	any = dir != NULL;
	for (int r = 0; r < PRIO_ROLE_COUNT; r++) {
		paths[r] = c->paths[r];
		any = any || paths[r];
	}
	if (!any) {
		/* Nothing on the command line: the config file's sources, then
		 * the cluster's own slurm.conf. */
		dir = config_sources.snapshot;
		for (int r = 0; r < PRIO_ROLE_COUNT; r++) {
			paths[r] = config_sources.paths[r];
			any = any || paths[r];
		}
		any = any || dir;
		if (!any) {
			const char *env = getenv("SLURM_CONF");
			struct stat st;

			snprintf(default_conf, sizeof(default_conf), "%s",
				 env && *env ? env : "/etc/slurm/slurm.conf");
			if (stat(default_conf, &st) != 0)
				return prio_error_set(
				    err, PRIO_ERR_MISSING, "", 0, "",
				    "no input: give --snapshot DIR or source files "
				    "(--conf, --assoc, --jobs ...); %s not found",
				    default_conf);
			paths[PRIO_ROLE_CONF] = default_conf;
		}
	}
	*dir_out = dir;
	return PRIO_OK;
}

int cmd_load_snapshot_from(struct cmd_common *c, const char *dir,
			   struct prio_snapshot *snap, struct prio_error *err)
{
	const char *paths[PRIO_ROLE_COUNT];
	int rc;

	prio_error_clear(err);
	if ((rc = cmd_sources(c, dir, &dir, paths, err)) < 0)
		return rc;
	if (prio_snapshot_init(snap) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	snap->keep_going = c->keep_going;
	snap->folder_roles = c->folder_roles;
	snap->assume_complete = c->assume_complete;
	if (c->slurm_release)
		prio_snapshot_note_version(snap, c->slurm_release,
					   PRIO_VERSION_OPTION);
	if (c->now_set) {
		snap->now = c->now;
		snap->now_known = true;
	}
	rc = prio_snapshot_load_sources(snap, dir, paths, err);
	/* the snapshot's zone is in force now: --now and --at mean it */
	if (rc >= 0 && (rc = reparse_user_times(snap, err)) >= 0 && c->now_set)
		snap->now = c->now;
	for (unsigned i = 0; rc >= 0 && i < c->set_count; i++)
		rc = prio_snapshot_set(snap, c->sets[i], c->set_origins[i], err);
	if (rc >= 0)
		rc = prio_snapshot_finish(snap, err);
	for (unsigned r = 0; rc >= 0 && r < PRIO_ROLE_COUNT; r++) {
		const char *const *names = prio_snapshot_dir_names((enum prio_role)r);
		char list[128] = "";

		if (!(c->required_roles & (1u << r)) ||
		    (snap->roles_loaded & (1u << r)))
			continue;
		for (size_t i = 0; names[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				 names[i]);
		rc = dir ? prio_error_set(err, PRIO_ERR_MISSING, dir, 0, "",
					  "no %s: the folder has no %s (give %s "
					  "FILE)", prio_role_option((enum prio_role)r) + 2,
					  list, prio_role_option((enum prio_role)r))
			 : prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
					  "no %s: give %s FILE",
					  prio_role_option((enum prio_role)r) + 2,
					  prio_role_option((enum prio_role)r));
	}
	if (rc < 0) {
		prio_snapshot_free(snap);
		return rc;
	}
	if (!snap->now_known) {
		snap->now = time(NULL);
		snap->now_known = true;
		snap->now_wall = true;
	}
	return PRIO_OK;
}

/* The loader's warnings and the clock's notes, once per load. */
static void load_warnings(const struct cmd_common *c,
			  const struct prio_snapshot *snap)
{
	for (uint32_t i = 0; i < snap->warning_count; i++) {
		char buf[1024];

		cmd_warn(c, "warning: %s",
			 prio_error_format(&snap->warnings[i].error, buf, sizeof(buf)));
	}
	/* Times read in the wrong zone are wrong everywhere: say so on every
	 * command; pending jobs after NOW only when none is left (the queue
	 * would print empty with exit 0).  --check lists all the notes. */
	{
		struct prio_clock_notes notes;

		prio_snapshot_clock_notes(snap, &notes);
		if (*notes.zone)
			cmd_warn(c, "warning: %s", notes.zone);
		if (notes.all_future)
			cmd_warn(c, "warning: %s", notes.future);
	}
}

void cmd_load_warnings(const struct cmd_common *c,
		       const struct prio_snapshot *snap)
{
	load_warnings(c, snap);
}

void cmd_load_snapshot_dir(struct cmd_common *c, const char *dir,
			   struct prio_snapshot *snap)
{
	struct prio_error err;

	if (cmd_load_snapshot_from(c, dir, snap, &err) < 0)
		cmd_die_error(c, &err);
	load_warnings(c, snap);
}

void cmd_load_snapshot(struct cmd_common *c, struct prio_snapshot *snap)
{
	struct prio_error err;
	int rc;
	const char *dir = c->snapshot_dir;
	char live_dir[4096] = "";

	if (c->live) {
		if (dir)
			cmd_die(c, "--live and --snapshot cannot be combined");
		/* explicit source files still override what the cluster says */
		cmd_live_capture(c, live_dir, sizeof(live_dir));
		dir = live_dir;
	}
	rc = cmd_load_snapshot_from(c, dir, snap, &err);
	if (*live_dir)
		cmd_live_cleanup(live_dir);
	if (rc < 0)
		cmd_die_error(c, &err);
	load_warnings(c, snap);
}
