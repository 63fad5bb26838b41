/* SPDX-License-Identifier: MIT */
/*
 * Putting a snapshot together: detecting each artefact's format from its
 * content, the fixed file names of a snapshot folder (DESIGN §2), and the
 * final linking pass (partitions to nodes, indices by interned name, the
 * Fair Tree user count).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prio/privacy.h"
#include "loadcache.h"
#include "prio/snapshot.h"
#include "prio/value.h"
#include "sdiag.h"

/* The first non-blank line of src (skipping nothing else). */
static void first_line(const struct prio_source *src, const char **text,
		       size_t *len)
{
	size_t i = 0, start;

	for (;;) {
		while (i < src->size && (src->data[i] == ' ' || src->data[i] == '\t'))
			i++;
		start = i;
		while (i < src->size && src->data[i] != '\n')
			i++;
		if (i > start || i >= src->size)
			break;
		i++;
	}
	*text = src->data + start;
	*len = i - start;
	if (*len && (*text)[*len - 1] == '\r')
		(*len)--;
}

static bool has_prefix(const char *text, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(text, prefix, n) == 0;
}

static bool contains(const char *text, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(text + i, needle, n) == 0)
			return true;
	return false;
}

/* "Key   = value" as scontrol show config prints it. */
static bool looks_like_scontrol_config(const char *text, size_t len)
{
	size_t i = 0;

	if (has_prefix(text, len, "Configuration data as of"))
		return true;
	while (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_' ||
			   text[i] == '/'))
		i++;
	if (i == 0 || i >= len || text[i] != ' ')
		return false;
	while (i < len && text[i] == ' ')
		i++;
	return i + 1 < len && text[i] == '=' && text[i + 1] == ' ';
}

/* The first line that is neither blank nor a '#' comment. */
static void first_content_line(const struct prio_source *src, const char **text,
			       size_t *len)
{
	struct prio_source rest = *src;

	for (;;) {
		first_line(&rest, text, len);
		if (*len == 0 || (*text)[0] != '#')
			return;
		/* skip the comment line and look again */
		size_t skip = (size_t)(*text + *len - rest.data);

		while (skip < rest.size && rest.data[skip] != '\n')
			skip++;
		if (skip >= rest.size) {
			*len = 0;
			return;
		}
		rest.data += skip + 1;
		rest.size -= skip + 1;
	}
}

/* "Cluster - 'x'", "parent  -  'a'", "USER - 'u'": the object word of a
 * sacctmgr dump line (slurm-facts §8: the text before the first '-'). */
static bool looks_like_dump_line(const char *text, size_t len)
{
	static const char *const words[] = { "cluster", "machine", "parent",
					     "account", "project", "user" };
	const char *dash = memchr(text, '-', len);
	size_t n;

	if (!dash)
		return false;
	n = (size_t)(dash - text);
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncasecmp(text, words[i], n) == 0)
			return true;
	return false;
}

/* Whether a header line (fields split on '|' or blanks) has the column
 * `name`, compared case-insensitively. */
static bool header_has(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name), i = 0;

	while (i < len) {
		size_t start;

		while (i < len && (text[i] == '|' || text[i] == ' ' || text[i] == '\t'))
			i++;
		start = i;
		while (i < len && text[i] != '|' && text[i] != ' ' && text[i] != '\t')
			i++;
		if (i - start == n && strncasecmp(text + start, name, n) == 0)
			return true;
	}
	return false;
}

/* Whether a JSON object's top level has the member `key`: tells sshare
 * --json ("shares") from squeue --json ("jobs") with a scan of strings and
 * brackets, nothing parsed. */
static bool json_top_member(const struct prio_source *src, const char *key)
{
	size_t n = strlen(key);
	int depth = 0;

	for (size_t i = 0; i < src->size; i++) {
		char c = src->data[i];

		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == '"') {
			size_t start = ++i, j;

			while (i < src->size && src->data[i] != '"')
				i += src->data[i] == '\\' ? 2 : 1;
			if (depth != 1 || i - start != n ||
			    memcmp(src->data + start, key, n) != 0)
				continue;
			for (j = i + 1; j < src->size && isspace((unsigned char)src->data[j]);
			     j++)
				;
			if (j < src->size && src->data[j] == ':')
				return true;
		}
	}
	return false;
}

int prio_detect_input(const struct prio_source *src, int hint)
{
	const char *line, *content;
	size_t len, content_len;

	first_line(src, &line, &len);
	first_content_line(src, &content, &content_len);
	switch (hint) {
	case PRIO_ROLE_CONF:
		return looks_like_scontrol_config(line, len) ? PRIO_INPUT_SCONTROL_CONFIG
							     : PRIO_INPUT_SLURMCONF;
	case PRIO_ROLE_ASSOC:
		if (has_prefix(line, len, "{"))
			return PRIO_INPUT_SSHARE_JSON;
		if (has_prefix(line, len, "#") ||
		    looks_like_dump_line(content, content_len))
			return PRIO_INPUT_ASSOC_DUMP;
		return PRIO_INPUT_SSHARE;
	case PRIO_ROLE_QOS:
		return PRIO_INPUT_QOS;
	case PRIO_ROLE_JOBS:
		return has_prefix(line, len, "{") ? PRIO_INPUT_JOBS_JSON
						  : PRIO_INPUT_JOBS_SCONTROL;
	case PRIO_ROLE_SACCT:
		return PRIO_INPUT_SACCT;
	case PRIO_ROLE_NODES:
		return PRIO_INPUT_NODES;
	case PRIO_ROLE_PARTITIONS:
		return PRIO_INPUT_PARTITIONS;
	}
	/* No hint: guess from the content alone. */
	if (has_prefix(line, len, "{"))
		return json_top_member(src, "shares") ? PRIO_INPUT_SSHARE_JSON
						      : PRIO_INPUT_JOBS_JSON;
	if (has_prefix(line, len, "JobId="))
		return PRIO_INPUT_JOBS_SCONTROL;
	if (has_prefix(line, len, "PartitionName="))
		return PRIO_INPUT_PARTITIONS;
	if (has_prefix(line, len, "NodeName=") && contains(line, len, "Arch="))
		return PRIO_INPUT_NODES;
	if (looks_like_scontrol_config(line, len))
		return PRIO_INPUT_SCONTROL_CONFIG;
	if (has_prefix(line, len, "# To edit") ||
	    looks_like_dump_line(content, content_len))
		return PRIO_INPUT_ASSOC_DUMP;
	/* sacct headers hold Account and User too: JobID decides first. */
	if (header_has(line, len, "JobID"))
		return PRIO_INPUT_SACCT;
	if (has_prefix(line, len, "CLUSTER: ") ||
	    (header_has(line, len, "Account") && header_has(line, len, "User")))
		return PRIO_INPUT_SSHARE;
	if (header_has(line, len, "Name") &&
	    (memchr(line, '|', len) || len == 4))
		return PRIO_INPUT_QOS;
	return -1;
}

const char *prio_role_option(enum prio_role role)
{
	static const char *const opts[PRIO_ROLE_COUNT] = {
		[PRIO_ROLE_CONF] = "--conf", [PRIO_ROLE_ASSOC] = "--assoc",
		[PRIO_ROLE_QOS] = "--qos", [PRIO_ROLE_JOBS] = "--jobs",
		[PRIO_ROLE_SACCT] = "--sacct", [PRIO_ROLE_NODES] = "--nodes",
		[PRIO_ROLE_PARTITIONS] = "--partitions",
	};

	return (unsigned)role < PRIO_ROLE_COUNT ? opts[role] : "?";
}

const char *const *prio_snapshot_dir_names(enum prio_role role)
{
	static const char *const conf[] = { "slurm.conf", "config.txt", NULL };
	/* The dump carries priorities and QOS, sshare the usage: a folder
	 * may hold both, loaded in this order and merged into one tree.
	 * sshare.json and sshare.txt are one artefact in two forms: the JSON,
	 * with its full-precision usage, is read when both are there. */
	static const char *const assoc[] = { "assoc.cfg", "sshare.json",
					     "sshare.txt", NULL };
	static const char *const qos[] = { "qos.txt", NULL };
	static const char *const jobs[] = { "jobs.txt", "jobs.json", NULL };
	/* accounting dumps are often kept compressed under their own names */
	static const char *const sacct[] = { "sacct.txt", "sacct.txt.gz",
					     "sacct.txt.zst", NULL };
	static const char *const nodes[] = { "nodes.txt", NULL };
	static const char *const parts[] = { "partitions.txt", NULL };
	static const char *const none[] = { NULL };

	switch (role) {
	case PRIO_ROLE_CONF: return conf;
	case PRIO_ROLE_ASSOC: return assoc;
	case PRIO_ROLE_QOS: return qos;
	case PRIO_ROLE_JOBS: return jobs;
	case PRIO_ROLE_SACCT: return sacct;
	case PRIO_ROLE_NODES: return nodes;
	case PRIO_ROLE_PARTITIONS: return parts;
	case PRIO_ROLE_COUNT: break;
	}
	return none;
}

/*
 * What each artefact must hold to count (issue 13), in one place, checked
 * for every loader by prio_load_role().  Slurm's text commands end every
 * line they print with a newline, so a text source whose last byte is not
 * one was cut while it was written (a capture killed mid-way, a copy in
 * progress).  None of them prints nothing: an empty queue is "No jobs in
 * the system", an empty sacct or sshare still has its header -- zero bytes
 * is a failed capture, never an empty cluster.  slurm.conf is written by
 * people (its last line may lack a newline), and Slurm prints its JSON
 * without a final newline; a cut JSON document fails to parse instead.
 * An empty slurm.conf is refused too: slurmctld will not start on one.
 */
struct input_rule {
	const char *what;   /* in "empty input: expected ..." */
	bool non_empty;     /* zero bytes (or only blank lines) is refused */
	bool final_newline; /* a last line without its newline is cut */
	bool multi_line;    /* scontrol: a record may span lines up to a
			       blank one (not with -o, one line each) */
};

static const struct input_rule input_rules[PRIO_INPUT_KIND_COUNT] = {
	/* an empty file also detects as the first kind its role reads */
	[PRIO_INPUT_SLURMCONF] = { "slurm.conf or scontrol show config output",
				   true, false },
	[PRIO_INPUT_SCONTROL_CONFIG] = { "scontrol show config output", true, true,
					 true },
	[PRIO_INPUT_PARTITIONS] = { "scontrol show partition output", true, true,
				    true },
	[PRIO_INPUT_NODES] = { "scontrol show node output", true, true, true },
	[PRIO_INPUT_ASSOC_DUMP] = { "sacctmgr dump output", true, true },
	[PRIO_INPUT_SSHARE] = { "sshare output with a header line or a sacctmgr "
				"dump", true, true },
	[PRIO_INPUT_QOS] = { "sacctmgr show qos output", true, true },
	[PRIO_INPUT_JOBS_SCONTROL] = { "scontrol show job output (an empty "
				       "queue is \"No jobs in the system\")",
				       true, true, true },
	[PRIO_INPUT_JOBS_JSON] = { "squeue --json output", true, false },
	[PRIO_INPUT_SACCT] = { "sacct -P output with a header line", true, true },
	[PRIO_INPUT_SSHARE_JSON] = { "sshare --json output", true, false },
};

/*
 * Check src against the rule of its kind.  A cut last line is refused, or
 * under --keep-going a counted warning and the cut line left out (src is
 * shortened to its last newline); an empty source is refused always: with
 * nothing read there is nothing to go on with.
 */
static int check_complete(struct prio_snapshot *snap, struct prio_source *src,
			  int kind, struct prio_error *err)
{
	const struct input_rule *rule;
	size_t i;

	if (kind < 0 || kind >= PRIO_INPUT_KIND_COUNT)
		return PRIO_OK;
	rule = &input_rules[kind];
	if (rule->final_newline && src->size && src->data[src->size - 1] != '\n') {
		const char *last = memrchr(src->data, '\n', src->size);
		unsigned long line = 1;
		int rc;

		/* the cut line's number: one past the complete ones */
		for (const char *p = src->data, *end = src->data + src->size;
		     (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
			line++;
		prio_error_set(err, PRIO_ERR_PARSE, src->name, line, "",
			       "the last record is cut (no final newline)");
		if ((rc = prio_snapshot_record_error(snap, err)) < 0)
			return rc;
		src->size = last ? (size_t)(last - src->data) + 1 : 0;
		/* without -o the lines before the cut belong to the cut
		 * record too: keep only up to the blank line that ends the
		 * last whole one */
		if (rule->multi_line && memmem(src->data, src->size, "\n\n", 2)) {
			size_t end = src->size;

			while (end >= 2 && !(src->data[end - 1] == '\n' &&
					     src->data[end - 2] == '\n'))
				end--;
			src->size = end >= 2 ? end : 0;
		}
	}
	if (!rule->non_empty)
		return PRIO_OK;
	for (i = 0; i < src->size; i++)
		if (!isspace((unsigned char)src->data[i]))
			return PRIO_OK;
	return prio_error_set(err, PRIO_ERR_PARSE, src->name, 1, "",
			      "empty input: expected %s", rule->what);
}

int prio_load_role(struct prio_snapshot *snap, enum prio_role role,
		   const char *path, struct prio_error *err)
{
	struct prio_source src;
	int kind, rc;

	if ((unsigned)role >= PRIO_ROLE_COUNT)
		return prio_error_set(err, PRIO_ERR_USAGE, path, 0, "",
				      "unknown input role");
	/* a large queue is read a run at a time, not whole, where it can */
	if (role == PRIO_ROLE_JOBS &&
	    (rc = lc_jobs_stream(snap, path)) != LC_LOAD_WHOLE) {
		snap->roles_loaded |= 1u << role;
		return rc;
	}
	if ((rc = prio_source_open(&src, path, err)) < 0)
		return rc;
	kind = prio_detect_input(&src, (int)role);
	if ((rc = check_complete(snap, &src, kind, err)) < 0) {
		prio_source_close(&src);
		return rc;
	}
	switch (kind) {
	case PRIO_INPUT_SLURMCONF:
		/* A real path keeps Include relative to its folder. */
		if (strcmp(path, "-") != 0) {
			prio_source_close(&src);
			rc = prio_load_slurmconf(snap, path, err);
			if (rc == 0)
				snap->roles_loaded |= 1u << role;
			return rc;
		}
		rc = prio_load_slurmconf_source(snap, &src, err);
		break;
	case PRIO_INPUT_SCONTROL_CONFIG:
		rc = prio_load_scontrol_config(snap, &src, err);
		break;
	case PRIO_INPUT_PARTITIONS:
		rc = prio_load_scontrol_partitions(snap, &src, err);
		break;
	case PRIO_INPUT_NODES:
		rc = prio_load_scontrol_nodes(snap, &src, err);
		break;
	case PRIO_INPUT_ASSOC_DUMP:
		rc = prio_load_assoc_dump(snap, &src, err);
		break;
	case PRIO_INPUT_SSHARE:
	case PRIO_INPUT_SSHARE_JSON:
		/* other users' usage hidden from the capturer: the rows are
		 * theirs alone, and fair-share is left uncomputed */
		if (prio_privacy_withhold_usage(snap, src.name)) {
			prio_source_close(&src);
			return PRIO_OK;
		}
		rc = kind == PRIO_INPUT_SSHARE
			 ? prio_load_sshare(snap, &src, err)
			 : prio_load_sshare_json(snap, &src, err);
		break;
	case PRIO_INPUT_QOS:
		rc = prio_load_qos(snap, &src, err);
		break;
	case PRIO_INPUT_JOBS_SCONTROL:
		src.once = true; /* nothing reads it after the loader */
		rc = prio_load_jobs_scontrol(snap, &src, err);
		break;
	case PRIO_INPUT_JOBS_JSON:
		rc = prio_load_jobs_squeue_json(snap, &src, err);
		break;
	case PRIO_INPUT_SACCT:
		src.once = true;
		rc = prio_load_sacct(snap, &src, err);
		break;
	default:
		rc = prio_error_set(err, PRIO_ERR_PARSE, src.name, 1, "",
				    "unrecognised format for %s",
				    prio_role_option(role));
		break;
	}
	prio_source_close(&src);
	if (rc == 0)
		snap->roles_loaded |= 1u << role;
	return rc;
}

unsigned prio_snapshot_roles_loaded(const struct prio_snapshot *snap)
{
	return snap->roles_loaded;
}

/*
 * Whether a snapshot folder holds the file `path`: 1 when it is a regular
 * file, 0 when it is absent, negative with err filled for anything else.
 * prio-snap writes regular files; a directory or a FIFO named like one of
 * them, or an entry we may not look at, is a broken folder, not a missing
 * file -- reading it as absent would load a snapshot without its jobs and
 * answer with confidence.  (A FIFO given by name, --jobs <(...), is read
 * like a pipe; only the folder's entries must be files.)
 */
static int folder_file(const char *path, struct prio_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno == ENOENT ? 0
				       : prio_error_set(err, PRIO_ERR_IO, path, 0, "",
							"cannot open: %s",
							strerror(errno));
	if (S_ISREG(st.st_mode))
		return 1;
	return prio_error_set(err, PRIO_ERR_IO, path, 0, "", "is %s, expected a file",
			      S_ISDIR(st.st_mode)    ? "a directory"
			      : S_ISFIFO(st.st_mode) ? "a FIFO"
						     : "not a regular file");
}

static int read_now_file(struct prio_snapshot *snap, const char *path,
			 struct prio_error *err)
{
	struct prio_source src;
	int64_t v;
	size_t n;
	int rc = prio_source_open(&src, path, err);

	if (rc < 0)
		return rc;
	n = src.size;
	while (n && isspace((unsigned char)src.data[n - 1]))
		n--;
	if (n && src.data[src.size - 1] != '\n') {
		/* date +%s ends with a newline: without it the number may
		 * be cut ("17956" of "1795687489"), a clock in 1970 */
		rc = prio_error_set(err, PRIO_ERR_PARSE, src.name, 1, "NOW",
				    "cut: no final newline (date +%%s prints "
				    "one), got \"%.*s\"",
				    (int)(n > 40 ? 40 : n), src.data);
	} else if (prio_parse_int64(src.data, n, &v) < 0 || v < 0) {
		rc = prio_error_set(err, PRIO_ERR_PARSE, src.name, 1, "NOW",
				    "expected Unix seconds (date +%%s), got \"%.*s\"",
				    (int)(n > 40 ? 40 : n), src.data);
	} else {
		snap->now = (time_t)v;
		snap->now_known = true;
	}
	prio_source_close(&src);
	return rc;
}

/*
 * slurmctld's priority_last_decay_ran (StateSaveLocation), copied whole by
 * prio-snap: the start of the last decay cycle, when it also computed
 * every job's priority, and the last usage reset, each packed as Slurm
 * packs a time (8 bytes, most significant first).  Checked on Slurm
 * 22.05 and 24.11 (their live clusters here): these 16 bytes and nothing
 * else.
 */
static int read_last_decay_file(struct prio_snapshot *snap, const char *path,
				struct prio_error *err)
{
	struct prio_source src;
	uint64_t ran = 0;
	int rc = prio_source_open(&src, path, err);

	if (rc < 0)
		return rc;
	if (src.size != 16) {
		rc = prio_error_set(err, PRIO_ERR_PARSE, src.name, 0, "last_ran",
				    "expected slurmctld's 16 bytes (two packed "
				    "times), got %zu", src.size);
	} else {
		for (int i = 0; i < 8; i++)
			ran = ran << 8 | (unsigned char)src.data[i];
		if (ran > (uint64_t)INT64_MAX)
			rc = prio_error_set(err, PRIO_ERR_PARSE, src.name, 0,
					    "last_ran",
					    "not a time: %llu",
					    (unsigned long long)ran);
		else
			/* 0: the cycle never ran, nothing recorded */
			snap->last_decay_ran = (time_t)ran;
	}
	prio_source_close(&src);
	return rc;
}

/* prio-snap's MANIFEST: one "version<TAB>slurm 24.11.5" line says which
 * Slurm printed the folder's files, one "zone<TAB>NAME<TAB>+HHMM" the zone
 * its local times are in.  Other lines (one per command run) are for
 * people. */
static int read_manifest_version(struct prio_snapshot *snap, const char *path,
				 bool *lists_jobs, struct prio_error *err)
{
	struct prio_source src;
	struct prio_line_reader r;
	struct prio_line line;
	int got, rc = prio_source_open(&src, path, err);

	if (rc < 0)
		return rc;
	/* prio-snap writes every line whole: an empty or cut MANIFEST is a
	 * capture that stopped, and its version and zone would be missing */
	if ((rc = prio_source_check_whole(&src, "prio-snap's MANIFEST",
					  err)) < 0) {
		prio_source_close(&src);
		return rc;
	}
	prio_line_reader_init(&r, &src);
	while ((got = prio_line_next(&r, &line, err)) > 0) {
		uint16_t release;
		const char *tab;

		if (line.len >= 5 && memcmp(line.text, "zone\t", 5) == 0) {
			const char *name = line.text + 5;
			size_t rest = line.len - 5, nlen;
			long off;

			/* every local time hangs on this line: one that does
			 * not read is refused, not skipped */
			tab = memchr(name, '\t', rest);
			nlen = tab ? (size_t)(tab - name) : 0;
			if (!tab || !nlen || nlen >= sizeof(snap->zone_name) ||
			    prio_parse_utc_offset(tab + 1, rest - nlen - 1,
						  &off) < 0) {
				rc = prio_error_set(
				    err, PRIO_ERR_PARSE, src.name, line.number,
				    "zone",
				    "expected NAME<TAB>+HHMM (the TZ name and "
				    "date +%%z at capture), got \"%.*s\"",
				    (int)(rest > 60 ? 60 : rest), name);
				break;
			}
			memcpy(snap->zone_name, name, nlen);
			snap->zone_name[nlen] = '\0';
			snap->zone_offset = off;
			snap->zone_known = true;
			snprintf(snap->zone_file, sizeof(snap->zone_file), "%s",
				 src.name);
			snap->zone_line = (unsigned)line.number;
			continue;
		}
		if (prio_privacy_manifest_line(snap, line.text, line.len))
			continue;
		if (line.len >= 9 && memcmp(line.text, "jobs.txt\t", 9) == 0)
			*lists_jobs = true;
		if (line.len < 8 || memcmp(line.text, "version\t", 8) != 0)
			continue;
		if (prio_slurm_version_parse(line.text + 8, line.len - 8,
					     &release) < 0) {
			rc = prio_error_set(
			    err, PRIO_ERR_PARSE, src.name, line.number,
			    "version",
			    "expected a Slurm release (YY.MM, as sinfo "
			    "--version prints it), got \"%.*s\"",
			    (int)(line.len - 8 > 60 ? 60 : line.len - 8),
			    line.text + 8);
			break;
		}
		prio_snapshot_note_version(snap, release, PRIO_VERSION_MANIFEST);
	}
	prio_source_close(&src);
	if (rc < 0)
		return rc;
	return got < 0 ? got : PRIO_OK;
}

/*
 * A --snapshot folder must be one: a directory we may list and enter,
 * holding at least one of the files any role reads.  Anything else is one
 * error line, as for a folder that does not exist -- an empty or foreign
 * folder would otherwise load as a cluster with nothing in it.
 */
static int check_folder(const char *dir, struct prio_error *err)
{
	char buf[4096];
	struct stat st;
	int fd, rc;

	if (stat(dir, &st) != 0)
		return prio_error_set(err, PRIO_ERR_MISSING, dir, 0, "",
				      "not a snapshot folder: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return prio_error_set(err, PRIO_ERR_MISSING, dir, 0, "",
				      "not a snapshot folder: not a directory");
	/* read and search permission both: open() checks the first,
	 * the stat() of each file below the second */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return prio_error_set(err, PRIO_ERR_IO, dir, 0, "",
				      "cannot read the snapshot folder: %s",
				      strerror(errno));
	close(fd);
	for (int role = 0; role < PRIO_ROLE_COUNT; role++)
		for (const char *const *name = prio_snapshot_dir_names(role); *name;
		     name++) {
			snprintf(buf, sizeof(buf), "%s/%s", dir, *name);
			if ((rc = folder_file(buf, err)) != 0)
				return rc < 0 ? rc : PRIO_OK;
		}
	return prio_error_set(err, PRIO_ERR_MISSING, dir, 0, "",
			      "not a snapshot folder: no slurm.conf, config.txt, "
			      "jobs.txt or other snapshot file in it");
}

int prio_snapshot_load_sources(struct prio_snapshot *snap, const char *dir,
			       const char *const paths[PRIO_ROLE_COUNT],
			       struct prio_error *err)
{
	char buf[4096];
	bool now_file = false, manifest_jobs = false;
	int rc;

	if (dir && (rc = check_folder(dir, err)) < 0)
		return rc;
	if (dir) {
		snprintf(buf, sizeof(buf), "%s/NOW", dir);
		if ((rc = folder_file(buf, err)) < 0)
			return rc;
		if (!snap->now_known && rc) {
			if ((rc = read_now_file(snap, buf, err)) < 0)
				return rc;
			now_file = true;
		}
		snprintf(buf, sizeof(buf), "%s/MANIFEST", dir);
		if ((rc = folder_file(buf, err)) < 0)
			return rc;
		if (rc && (rc = read_manifest_version(snap, buf, &manifest_jobs,
						      err)) < 0)
			return rc;
		snprintf(buf, sizeof(buf), "%s/priority_last_decay_ran", dir);
		if ((rc = folder_file(buf, err)) < 0)
			return rc;
		if (rc && (rc = read_last_decay_file(snap, buf, err)) < 0)
			return rc;
		snprintf(buf, sizeof(buf), "%s/sdiag.txt", dir);
		if ((rc = folder_file(buf, err)) < 0)
			return rc;
		if (rc && (rc = prio_load_sdiag(snap, buf, err)) < 0)
			return rc;
	}
	/* Before any file with local times: they are read in this zone.
	 * The NOW file is the capture's clock, where the recorded offset
	 * must hold; a --now may be any other day. */
	if ((rc = prio_snapshot_use_zone(snap, snap->now, now_file, err)) < 0)
		return rc;
	/* Configuration first: later loaders need its TRES list. */
	for (int role = 0; role < PRIO_ROLE_COUNT; role++) {
		const char *path = paths ? paths[role] : NULL;

		if (path) {
			if ((rc = prio_load_role(snap, role, path, err)) < 0)
				return rc;
			continue;
		}
		if (!dir || !(snap->folder_roles & (1u << role)))
			continue;
		/* The folder's partitions.txt and nodes.txt stand in for a
		 * missing slurm.conf; when the configuration already defined
		 * them they would only repeat it. */
		if ((role == PRIO_ROLE_PARTITIONS && snap->partition_count) ||
		    (role == PRIO_ROLE_NODES && snap->node_count))
			continue;
		bool have_sshare = false, found = false;

		for (const char *const *name = prio_snapshot_dir_names(role); *name;
		     name++) {
			bool sshare = strncmp(*name, "sshare.", 7) == 0;

			snprintf(buf, sizeof(buf), "%s/%s", dir, *name);
			if ((rc = folder_file(buf, err)) < 0)
				return rc;
			if (!rc || (sshare && have_sshare))
				continue;
			have_sshare |= sshare;
			found = true;
			if ((rc = prio_load_role(snap, role, buf, err)) < 0)
				return rc;
			/* Only the association role takes several files. */
			if (role != PRIO_ROLE_ASSOC)
				break;
		}
		/* prio-snap writes jobs.txt even for an empty queue ("No jobs
		 * in the system") and lists it in MANIFEST: a folder without
		 * it lost it, and would read as a queue with nobody waiting. */
		if (!found && manifest_jobs && role == PRIO_ROLE_JOBS)
			return prio_error_set(err, PRIO_ERR_MISSING, dir, 0, "",
					      "no jobs.txt in the snapshot "
					      "folder, which its MANIFEST "
					      "lists");
	}
	return PRIO_OK;
}

static uint32_t *new_index(uint32_t size)
{
	uint32_t *ix = malloc((size_t)(size ? size : 1) * sizeof(*ix));

	if (ix)
		memset(ix, 0xff, (size_t)(size ? size : 1) * sizeof(*ix));
	return ix;
}

/* Name -> index maps for nodes, QOS and partitions; a name defined twice is
 * an error at the second definition. */
static int build_indices(struct prio_snapshot *snap, struct prio_error *err)
{
	uint32_t size = snap->strings.count;

	free(snap->partition_by_name);
	free(snap->node_by_name);
	free(snap->qos_by_name);
	snap->index_size = size;
	snap->partition_by_name = new_index(size);
	snap->node_by_name = new_index(size);
	snap->qos_by_name = new_index(size);
	if (!snap->partition_by_name || !snap->node_by_name || !snap->qos_by_name)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");

	for (uint32_t i = 0; i < snap->node_count; i++) {
		struct prio_node *n = &snap->nodes[i];

		if (snap->node_by_name[n->name] != UINT32_MAX)
			return prio_error_set(err, PRIO_ERR_PARSE, n->file, n->line,
					      "NodeName", "Duplicated NodeName %s",
					      prio_snapshot_str(snap, n->name));
		snap->node_by_name[n->name] = i;
	}
	for (uint32_t i = 0; i < snap->qos_count; i++) {
		struct prio_qos *q = &snap->qos[i];

		if (snap->qos_by_name[q->name] != UINT32_MAX)
			return prio_error_set(err, PRIO_ERR_PARSE, q->file, q->line,
					      "Name", "duplicate QOS %s",
					      prio_snapshot_str(snap, q->name));
		snap->qos_by_name[q->name] = i;
	}
	for (uint32_t i = 0; i < snap->partition_count; i++) {
		struct prio_partition *p = &snap->partitions[i];

		if (snap->partition_by_name[p->name] != UINT32_MAX)
			return prio_error_set(err, PRIO_ERR_PARSE, p->file, p->line,
					      "PartitionName",
					      "duplicate entry for partition %s",
					      prio_snapshot_str(snap, p->name));
		snap->partition_by_name[p->name] = i;
	}
	return PRIO_OK;
}

int prio_snapshot_finish(struct prio_snapshot *snap, struct prio_error *err)
{
	int rc;

	/* Linking may intern new names (it never should, but the indices
	 * must cover every id), so index first and link after; each family
	 * links its own records. */
	if ((rc = build_indices(snap, err)) < 0)
		return rc;
	if ((rc = prio_config_link(snap, err)) < 0)
		return rc;
	if ((rc = prio_qos_link(snap, err)) < 0)
		return rc;
	if ((rc = prio_assoc_link(snap, err)) < 0)
		return rc;
	if ((rc = prio_jobs_link(snap, err)) < 0)
		return rc;
	if (prio_snapshot_index_jobs(snap) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	snap->finished = true;
	return PRIO_OK;
}
