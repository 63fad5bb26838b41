/* SPDX-License-Identifier: MIT */
/*
 * What every prio-tools command shares: the source options (--snapshot,
 * --conf, --assoc, ...), the clock (--now), output modes (-P, --csv, --json,
 * -h), the toolkit config file (libconfuse), and the one way errors are
 * printed ("tool: file:line: field: message", exit 2).
 */
#ifndef PRIO_CMD_COMMON_H
#define PRIO_CMD_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "prio/prio.h"

/* Exit statuses, like diff and grep (DESIGN §3). */
enum {
	EXIT_OK = 0,
	EXIT_NO = 1,    /* the answer is "no": mismatches found, cannot start */
	EXIT_ERROR = 2, /* usage or input error */
};

enum cmd_output {
	CMD_OUT_TEXT = 0,
	CMD_OUT_PARSABLE,  /* -p: every field followed by '|' */
	CMD_OUT_PARSABLE2, /* -P: '|' between fields */
	CMD_OUT_CSV,
	CMD_OUT_JSON,
};

/* Long-only option codes shared by all commands. */
enum cmd_common_opt {
	OPT_SNAPSHOT = 0x100,
	OPT_CONF,
	OPT_ASSOC,
	OPT_QOS,
	OPT_JOBS,
	OPT_SACCT,
	OPT_NODES,
	OPT_PARTITIONS,
	OPT_NOW,
	OPT_KEEP_GOING,
	OPT_CSV,
	OPT_JSON,
	OPT_HELP,
	OPT_VERSION,
	OPT_SET,
	OPT_WHAT_IF,
	OPT_LIVE,
	OPT_CLUSTER,
	OPT_SLURM_VERSION,
	OPT_ASSUME_COMPLETE,
	OPT_COMMON_LAST,
};

struct cmd_common {
	const char *prog;
	const char *snapshot_dir;
	bool live;                /* --live: ask the cluster (prio-snap) */
	const char *cluster;      /* --cluster / -M, for --live */
	const char *paths[PRIO_ROLE_COUNT];
	bool now_set;
	time_t now;
	bool keep_going;
	uint16_t slurm_release;   /* --slurm-version (YYMM), 0 unset */
	bool assume_complete;     /* --assume-complete: PrivateData hid nothing */
	enum cmd_output mode;
	bool noheader;
	/* Roles a command reads from a snapshot folder (1 << enum prio_role);
	 * all unless the command narrows it. */
	unsigned folder_roles;
	/* Roles without which the command has nothing to say (1 << enum
	 * prio_role): a folder with no jobs file ranks no job, which must
	 * not print as an empty queue. */
	unsigned required_roles;
	/* What-if assignments in the order given (--set, and --what-if sets
	 * expanded in place), with where each came from for messages. */
	const char **sets;
	const char **set_origins;
	unsigned set_count, set_capacity;
};

/* The long options above, to be appended to a command's own table. */
#define CMD_COMMON_LONG_OPTION_COUNT 20
extern const struct option cmd_common_long_options[CMD_COMMON_LONG_OPTION_COUNT];

/* The common long options followed by a command's own n options, ended by
 * a zero entry, for getopt_long; the array lives until exit. */
const struct option *cmd_merge_options(const struct option *own, size_t n);

/* Initialise from the environment and the config file; first, hold any
 * closed descriptor 0, 1 or 2 on /dev/null and arrange for a failed write
 * of standard output to be reported at exit (exit 2). */
void cmd_common_init(struct cmd_common *c, const char *prog);
/* Handle option `opt` (from getopt_long).  Returns 1 if it was a common
 * option, 0 if not, and exits 2 with a message on a bad value. */
int cmd_common_option(struct cmd_common *c, int opt, const char *arg);
/* Help lines for the common options. */
void cmd_common_help(FILE *out);
/* Only the sources and what-if lines (for a command without table output). */
void cmd_common_help_sources(FILE *out);

/* Load every source named by options, the folder and the config file into
 * snap, apply the what-if assignments, then finish it.  On error prints the
 * message and exits 2. */
void cmd_load_snapshot(struct cmd_common *c, struct prio_snapshot *snap);
/* What cmd_load_snapshot() prints after a load (the loader's warnings,
 * the clock's notes), for a command that loaded with
 * cmd_load_snapshot_from() and read more (tres-bill's streamed records). */
void cmd_load_warnings(const struct cmd_common *c,
		       const struct prio_snapshot *snap);
/* The same without --live, printing or exiting: the snapshot folder `dir`
 * (NULL: the --snapshot folder; with neither, the config file's sources or
 * the cluster's slurm.conf), warnings left in snap->warnings.  Returns 0,
 * or a negative status with err filled and snap freed.  For a front end
 * that reloads (prio-top keeps its last good data on an error). */
int cmd_load_snapshot_from(struct cmd_common *c, const char *dir,
			   struct prio_snapshot *snap, struct prio_error *err);
/* cmd_load_snapshot of the folder dir (--history: each of a series),
 * without --live: warnings printed, an error exits 2. */
void cmd_load_snapshot_dir(struct cmd_common *c, const char *dir,
			   struct prio_snapshot *snap);
/* The sources such a load reads: the folder `dir` (else --snapshot's) and
 * the per-role paths of the options, else the config file's, else the
 * cluster's slurm.conf.  Returns 0, or PRIO_ERR_MISSING when there are
 * none.  The strings live as long as the process. */
int cmd_sources(const struct cmd_common *c, const char *dir,
		const char **dir_out, const char *paths[PRIO_ROLE_COUNT],
		struct prio_error *err);

/* Outputs a partial snapshot cannot give (PrivateData, privacy.h): when
 * `need` is blocked, print one line naming `what` and why -- with refuse
 * "prog: WHAT: cannot be computed: WHY; ..." and exit 2, otherwise
 * "prog: warning: WHAT left blank: WHY; ..." -- and return true
 * (partial.c). */
bool cmd_partial(const struct cmd_common *c, const struct prio_snapshot *snap,
		 enum prio_needs need, const char *what, bool refuse);

/* The width prose is folded to: $COLUMNS when set, else the terminal's
 * when stdout is one; 0 (never fold) for a pipe or a file, where a line
 * is a record a script reads. */
int cmd_text_width(void);
/* Print text (lines ending in '\n') folded to width as prio-top folds its
 * detail pane; width 0 prints it as it is. */
void cmd_put_wrapped(const char *text, int width);

/* Print "prog: message" (printf-style) to stderr. */
void cmd_warn(const struct cmd_common *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Warn of the SchedulerParameters words snap sets that the forecast does
 * not model (prio_sched_params_unmodelled), if any: for a command that
 * forecasts, once. */
void cmd_warn_sched_unmodelled(const struct cmd_common *c,
			       const struct prio_snapshot *snap);
/* Print an error and exit 2. */
void cmd_die(const struct cmd_common *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void cmd_die_error(const struct cmd_common *c, const struct prio_error *err)
	__attribute__((noreturn));
/* Usage error, one line: "prog: message (try 'prog --help')", exit 2.
 * `usage` is not printed (NULL is fine): --usage and --help show it. */
void cmd_usage_error(const struct cmd_common *c, const char *usage,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
/* Standard output could not be written: "prog: standard output: why",
 * exit 2.  cmd_common_init also checks it at exit, for every path. */
void cmd_die_write(const struct cmd_common *c) __attribute__((noreturn));

/* Select the output format from an option; a second, different one is
 * refused (one line, exit 2). */
void cmd_output(struct cmd_common *c, enum cmd_output mode);
/* The writer's mode for an output option. */
enum prio_output_mode cmd_writer_mode(enum cmd_output mode);

/* Parse --now's value: epoch seconds or YYYY-MM-DDTHH:MM:SS (local). */
int cmd_parse_now(const char *arg, time_t *out);

/* A value of the config file's live section ("scontrol", "cluster",
 * "prio-snap", ...), NULL when unset. */
const char *cmd_live_setting(const char *key);
/* The live section's min-interval (seconds) for repeated captures. */
long cmd_live_min_interval(void);

/* The toolkit config file path in effect (NULL when none). */
const char *cmd_config_path(void);

/* The config file's top section (prio-top), defaults when absent.  keys
 * and colors are its free-form subsections (action = "keys", element =
 * "colours"), checked by prio-top against its own tables. */
struct cmd_top_pair {
	char *name, *value;
};
struct cmd_top_config {
	long refresh;  /* seconds between --live reads */
	double delay;  /* seconds between screen updates */
	bool color, mouse;
	struct cmd_top_pair *keys, *colors;
	unsigned nkeys, ncolors;
};
const struct cmd_top_config *cmd_top_config(void);

#endif
