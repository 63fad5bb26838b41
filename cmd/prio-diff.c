/* SPDX-License-Identifier: MIT */
/*
 * prio-diff: what changed between two snapshots of one cluster -- settings
 * and weights, shares and usage per association, jobs submitted, started
 * and ended, and the rank moves of jobs pending in both with the factor
 * that moved each.  The comparison is libprio's (diff.h); this file reads
 * the options, loads the two snapshots and prints the records, as text
 * sections for a person or as one record per change (-P, --csv, --json)
 * with a section field for a script.  Exit status as diff(1): 0 no
 * difference, 1 differences, 2 trouble.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"
#include "prio/diff.h"

#define USAGE                                                                  \
	"prio-diff [--section LIST] [-u LIST] [-A LIST] [-p LIST] [--all] "   \
	"[--force] [-P|--csv|--json] [-h] A (B | --live)"

enum {
	OPT_SECTION = OPT_COMMON_LAST + 1,
	OPT_ALL,
	OPT_FORCE,
};

static void help(void)
{
	printf(
	    "Usage: %s\n"
	    "What changed between two snapshot folders A (before) and B "
	    "(after) of one\ncluster, each computed at its own NOW.\n\n"
	    "      --section=LIST     sections to compare, comma-separated: "
	    "config,\n"
	    "                         assoc, jobs, ranks (default: all)\n"
	    "  -u, --user=LIST        only these users' associations and jobs\n"
	    "  -A, --account=LIST     only these accounts\n"
	    "  -p, --partition=LIST   only these partitions\n"
	    "      --all              every association and every job pending "
	    "in both,\n"
	    "                         changed or not (unchanged ones do not "
	    "count as\n"
	    "                         differences)\n"
	    "      --force            compare snapshots of different clusters\n"
	    "      --live             B is the running cluster now (runs "
	    "prio-snap(1))\n"
	    "  -M, --cluster=NAME     with --live, that cluster (Slurm's -M)\n"
	    "      --keep-going       report malformed records as warnings and "
	    "go on\n"
	    "      --slurm-version=X.Y  the Slurm release of both snapshots\n"
	    "      --assume-complete  the sources are whole even where "
	    "PrivateData hides\n"
	    "                         other users' usage or jobs\n"
	    "Output:\n"
	    "  -P, --parsable         '|'-separated records, one per change\n"
	    "      --csv              CSV (RFC 4180), header of column ids\n"
	    "      --json             a JSON array of objects, one per change\n"
	    "  -h, --noheader         no header line\n"
	    "      --help             this help, then exit\n"
	    "  -V, --version          the version, then exit\n"
	    "\nExit status: 0 no differences, 1 differences, 2 usage or input "
	    "error.\nSee prio-diff(1).\n",
	    USAGE);
}

/* --- text -------------------------------------------------------------- */

#define TCOLS 8

/* A small table of text cells, printed with the widths its cells need;
 * columns blank in every row are left out. */
struct ttable {
	const char *head[TCOLS];
	bool right[TCOLS];
	unsigned ncols;
	char (*cells)[TCOLS][96];
	unsigned rows, cap;
};

static char *trow(struct ttable *t)
{
	if (t->rows == t->cap) {
		unsigned c = t->cap ? 2 * t->cap : 32;
		void *p = realloc(t->cells, c * sizeof(*t->cells));

		if (!p) {
			fputs("prio-diff: out of memory\n", stderr);
			exit(EXIT_ERROR);
		}
		t->cells = p;
		t->cap = c;
	}
	memset(t->cells[t->rows], 0, sizeof(t->cells[0]));
	return t->cells[t->rows++][0];
}

static void tprint(const struct ttable *t, const char *title, bool header)
{
	int w[TCOLS] = {0};
	bool used[TCOLS] = {false};

	if (!t->rows)
		return;
	for (unsigned r = 0; r < t->rows; r++)
		for (unsigned k = 0; k < t->ncols; k++) {
			int n = (int)strlen(t->cells[r][k]);

			if (n) {
				used[k] = true;
				if (n > w[k])
					w[k] = n;
			}
		}
	for (unsigned k = 0; k < t->ncols; k++)
		if (used[k] && header && (int)strlen(t->head[k]) > w[k])
			w[k] = (int)strlen(t->head[k]);
	printf("\n%s:\n", title);
	for (int r = header ? -1 : 0; r < (int)t->rows; r++) {
		char line[1024];
		size_t len = 0;

		for (unsigned k = 0; k < t->ncols; k++) {
			const char *s = r < 0 ? t->head[k] : t->cells[r][k];

			if (!used[k])
				continue;
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"  %*s", t->right[k] ? w[k] : -w[k],
						s);
			if (len >= sizeof(line))
				len = sizeof(line) - 1;
		}
		while (len && line[len - 1] == ' ')
			len--;
		printf("%.*s\n", (int)len, line);
	}
}

/* A number at the precision it carries ("" for blank). */
static void num(char *buf, size_t size, double v, int decimals, bool sign)
{
	if (isnan(v))
		*buf = '\0';
	else
		snprintf(buf, size, sign ? "%+.*f" : "%.*f", decimals, v);
}

static const char *or_blank(const char *s)
{
	return s ? s : "";
}

static void print_text(const struct prio_diff *d, const char *name_a,
		       const char *name_b, const struct prio_snapshot *a,
		       const struct prio_snapshot *b, bool header)
{
	struct ttable t[PRIO_DIFF_SECTION_COUNT] = {
	    {{"SETTING", "PARTITION", "QOS", "OLD", "NEW"}, {0}, 5, NULL, 0, 0},
	    {{"ACCOUNT", "USER", "PARTITION", "FIELD", "OLD", "NEW", "DELTA"},
	     {0, 0, 0, 0, 1, 1, 1},
	     7,
	     NULL,
	     0,
	     0},
	    {{"CHANGE", "JOBID", "USER", "ACCOUNT", "PARTITION", "QOS"},
	     {0, 1},
	     6,
	     NULL,
	     0,
	     0},
	    {{"JOBID", "PARTITION", "USER", "ACCOUNT", "RANK", "PRIORITY",
	      "FACTOR"},
	     {1},
	     7,
	     NULL,
	     0,
	     0},
	};
	static const char *const titles[PRIO_DIFF_SECTION_COUNT] = {
	    "config and weights", "shares and usage", "jobs", "rank moves"};
	char ta[32], tb[32];
	struct tm tm;

	strftime(ta, sizeof(ta), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&a->now, &tm));
	strftime(tb, sizeof(tb), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&b->now, &tm));
	printf("--- %s (NOW %s)\n+++ %s (NOW %s)\n", name_a, ta, name_b, tb);
	for (uint32_t i = 0; i < d->count; i++) {
		const struct prio_diff_change *c = &d->v[i];
		char(*row)[96] = (char(*)[96])trow(&t[c->section]);
		char x[48], y[48];

		switch (c->section) {
		case PRIO_DIFF_CONFIG:
			snprintf(row[0], 96, "%s", c->key);
			snprintf(row[1], 96, "%s", or_blank(c->partition));
			snprintf(row[2], 96, "%s", or_blank(c->qos));
			snprintf(row[3], 96, "%s", c->old_text ? c->old_text : "-");
			snprintf(row[4], 96, "%s", c->new_text ? c->new_text : "-");
			break;
		case PRIO_DIFF_ASSOC:
			snprintf(row[0], 96, "%s", or_blank(c->account));
			snprintf(row[1], 96, "%s", or_blank(c->user));
			snprintf(row[2], 96, "%s", or_blank(c->partition));
			snprintf(row[3], 96, "%s", c->key);
			num(x, sizeof(x), c->old_value, c->decimals, false);
			num(y, sizeof(y), c->new_value, c->decimals, false);
			snprintf(row[4], 96, "%s", c->old_text ? c->old_text : x);
			snprintf(row[5], 96, "%s", c->new_text ? c->new_text : y);
			num(row[6], 96, c->delta, c->decimals, true);
			break;
		case PRIO_DIFF_JOBS:
			snprintf(row[0], 96, "%s", c->change);
			snprintf(row[1], 96, "%u", c->job_id);
			snprintf(row[2], 96, "%s", or_blank(c->user));
			snprintf(row[3], 96, "%s", or_blank(c->account));
			snprintf(row[4], 96, "%s", or_blank(c->partition));
			snprintf(row[5], 96, "%s", or_blank(c->qos));
			break;
		default:
			snprintf(row[0], 96, "%u", c->job_id);
			snprintf(row[1], 96, "%s", or_blank(c->partition));
			snprintf(row[2], 96, "%s", or_blank(c->user));
			snprintf(row[3], 96, "%s", or_blank(c->account));
			snprintf(row[4], 96, "%u -> %u", c->old_rank, c->new_rank);
			snprintf(row[5], 96, "%.0f -> %.0f (%+.0f)", c->old_value,
				 c->new_value, c->delta);
			if (c->factor)
				snprintf(row[6], 96, "%s %+.0f", c->factor,
					 c->factor_delta);
			break;
		}
	}
	for (int s = 0; s < PRIO_DIFF_SECTION_COUNT; s++) {
		tprint(&t[s], titles[s], header);
		free(t[s].cells);
	}
	if (!d->changed)
		puts("\nno differences");
}

/* --- records ----------------------------------------------------------- */

enum {
	C_SECTION, C_CHANGE, C_JOB_ID, C_USER, C_ACCOUNT, C_PARTITION, C_QOS,
	C_KEY, C_OLD_SETTING, C_NEW_SETTING, C_OLD, C_NEW, C_DELTA,
	C_OLD_RANK, C_NEW_RANK, C_FACTOR, C_FACTOR_DELTA, C_COUNT
};

static const struct prio_column record_cols[C_COUNT] = {
    {"section", "SECTION", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"change", "CHANGE", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"job_id", "JOBID", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"user", "USER", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"account", "ACCOUNT", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"partition", "PARTITION", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"qos", "QOS", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"key", "KEY", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"old_setting", "OLD_SETTING", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"new_setting", "NEW_SETTING", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"old", "OLD", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"new", "NEW", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"delta", "DELTA", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"old_rank", "OLD_RANK", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"new_rank", "NEW_RANK", 0, true, PRIO_NUMFMT_PLAIN, NULL},
    {"factor", "FACTOR", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    {"factor_delta", "FACTOR_DELTA", 0, true, PRIO_NUMFMT_PLAIN, NULL},
};

static struct prio_cell str_cell(const char *s)
{
	return s ? prio_cell_str(s) : prio_cell_blank();
}

/* A number: JSON gets the number (already rounded to its precision), the
 * text formats its digits as the text output prints them. */
static struct prio_cell num_cell(bool json, double v, int decimals,
				 char *buf, size_t size)
{
	if (isnan(v))
		return prio_cell_blank();
	if (json)
		/* 3401, not 3401.0: an integer stays one */
		return decimals == 0 && fabs(v) < 9e15 ? prio_cell_int((int64_t)v)
						       : prio_cell_double(v);
	num(buf, size, v, decimals, false);
	return prio_cell_str(buf);
}

static int print_records(const struct cmd_common *c,
			 const struct prio_diff *d)
{
	bool json = c->mode == CMD_OUT_JSON;
	struct prio_writer *w =
	    prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SSHARE,
			    record_cols, C_COUNT, !c->noheader, NULL);

	if (!w)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	for (uint32_t i = 0; i < d->count; i++) {
		const struct prio_diff_change *x = &d->v[i];
		struct prio_cell cells[C_COUNT];
		char b[4][48];

		cells[C_SECTION] = prio_cell_str(prio_diff_section_name(x->section));
		cells[C_CHANGE] = str_cell(x->change);
		cells[C_JOB_ID] =
		    x->job_id ? prio_cell_uint(x->job_id) : prio_cell_blank();
		cells[C_USER] = str_cell(x->user);
		cells[C_ACCOUNT] = str_cell(x->account);
		cells[C_PARTITION] = str_cell(x->partition);
		cells[C_QOS] = str_cell(x->qos);
		cells[C_KEY] = str_cell(x->key);
		cells[C_OLD_SETTING] = str_cell(x->old_text);
		cells[C_NEW_SETTING] = str_cell(x->new_text);
		cells[C_OLD] = num_cell(json, x->old_value, x->decimals, b[0], 48);
		cells[C_NEW] = num_cell(json, x->new_value, x->decimals, b[1], 48);
		cells[C_DELTA] = num_cell(json, x->delta, x->decimals, b[2], 48);
		cells[C_OLD_RANK] =
		    x->old_rank ? prio_cell_uint(x->old_rank) : prio_cell_blank();
		cells[C_NEW_RANK] =
		    x->new_rank ? prio_cell_uint(x->new_rank) : prio_cell_blank();
		cells[C_FACTOR] = str_cell(x->factor);
		cells[C_FACTOR_DELTA] = num_cell(json, x->factor_delta, 0, b[3], 48);
		if (prio_writer_row(w, cells) < 0)
			break;
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	return 0;
}

/* --- main -------------------------------------------------------------- */

static unsigned parse_sections(struct cmd_common *c, const char *list)
{
	unsigned mask = 0;

	for (const char *p = list;;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int s = prio_diff_section_parse(p, n);

		if (s < 0)
			cmd_usage_error(c, USAGE,
					"--section: expected config, assoc, "
					"jobs or ranks, got \"%.*s\"",
					(int)n, p);
		mask |= 1u << s;
		if (!e)
			return mask;
		p = e + 1;
	}
}

/* A folder that exists (a clear line before the loader's own). */
static void check_folder(struct cmd_common *c, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		cmd_die(c, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		cmd_die(c, "%s: not a snapshot folder (a folder made by "
			   "prio-snap(1))", dir);
}

/* A folder without the configuration or the jobs is not a snapshot of
 * the cluster (every job would read as submitted or ended): refused,
 * naming the files it lacks (the loader's own message would offer
 * --jobs FILE, which prio-diff does not take). */
static void whole(struct cmd_common *c, const struct prio_snapshot *snap,
		  const char *name)
{
	static const enum prio_role need[] = {PRIO_ROLE_CONF, PRIO_ROLE_JOBS};

	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		const char *const *names = prio_snapshot_dir_names(need[k]);
		char list[128] = "";

		if (snap->roles_loaded & (1u << need[k]))
			continue;
		for (size_t i = 0; names[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				 names[i]);
		cmd_die(c, "%s: not a whole snapshot: no %s", name, list);
	}
}

/* A snapshot with job records but no RawUsage: the usage Slurm would hold,
 * rebuilt as prio-calc and fstree-show rebuild it. */
static void replay(struct cmd_common *c, struct prio_snapshot *snap)
{
	struct prio_error err;

	prio_error_clear(&err);
	if (prio_usage_needs_replay(snap) &&
	    prio_usage_replay(snap, snap->now, false, NULL, &err) < 0)
		cmd_die_error(c, &err);
}

int main(int argc, char **argv)
{
	static const struct option own[] = {
	    {"section", required_argument, NULL, OPT_SECTION},
	    {"user", required_argument, NULL, 'u'},
	    {"account", required_argument, NULL, 'A'},
	    {"partition", required_argument, NULL, 'p'},
	    {"all", no_argument, NULL, OPT_ALL},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"parsable", no_argument, NULL, 'P'},
	    {"noheader", no_argument, NULL, 'h'},
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	const struct option *longopts = cmd_merge_options(own, NOWN);
	struct cmd_common c;
	struct prio_diff_options o;
	struct prio_snapshot a, b;
	struct prio_diff d;
	struct prio_error err;
	bool force = false;
	const char *name_a, *name_b;
	int opt;

	memset(&o, 0, sizeof(o));
	cmd_common_init(&c, "prio-diff");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":u:A:p:M:PhV", longopts, NULL)) !=
	       -1) {
		if (cmd_common_option(&c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_SECTION:
			o.sections |= parse_sections(&c, optarg);
			break;
		case 'u':
			o.users = optarg;
			break;
		case 'A':
			o.accounts = optarg;
			break;
		case 'p':
			o.partitions = optarg;
			break;
		case 'M':
			cmd_common_option(&c, OPT_CLUSTER, optarg);
			break;
		case OPT_ALL:
			o.all = true;
			break;
		case OPT_FORCE:
			force = true;
			break;
		case 'P':
			cmd_output(&c, CMD_OUT_PARSABLE2);
			break;
		case 'h':
			c.noheader = true;
			break;
		case OPT_HELP:
			help();
			return EXIT_OK;
		case 'V':
		case OPT_VERSION:
			printf("prio-diff (prio-tools) %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		case ':':
			cmd_usage_error(&c, USAGE, "option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(&c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	/* Two folders, each whole: per-file sources, a clock or what-if
	 * edits would not say which snapshot they belong to. */
	if (c.now_set)
		cmd_usage_error(&c, USAGE,
				"--now: each snapshot is computed at its own "
				"NOW (its NOW file)");
	if (c.set_count)
		cmd_usage_error(&c, USAGE,
				"--set and --what-if: compare two snapshots, "
				"not a what-if (see prio-calc --compare)");
	if (c.snapshot_dir)
		cmd_usage_error(&c, USAGE,
				"--snapshot: give the folders as arguments: "
				"prio-diff A B");
	for (int r = 0; r < PRIO_ROLE_COUNT; r++)
		if (c.paths[r])
			cmd_usage_error(&c, USAGE,
					"%s: prio-diff compares snapshot "
					"folders, given as arguments",
					prio_role_option((enum prio_role)r));
	if (argc - optind != (c.live ? 1 : 2))
		cmd_usage_error(&c, USAGE,
				c.live ? "expected one snapshot folder with "
					 "--live"
				       : "expected two snapshot folders, A "
					 "and B (or A and --live)");
	name_a = argv[optind];
	name_b = c.live ? "live" : argv[optind + 1];
	check_folder(&c, name_a);
	if (!c.live)
		check_folder(&c, name_b);

	c.snapshot_dir = name_a;
	c.live = false;
	cmd_load_snapshot(&c, &a);
	if (!strcmp(name_b, "live") && argc - optind == 1) {
		c.snapshot_dir = NULL;
		c.live = true;
	} else {
		c.snapshot_dir = name_b;
	}
	cmd_load_snapshot(&c, &b);
	whole(&c, &a, name_a);
	whole(&c, &b, name_b);
	replay(&c, &a);
	replay(&c, &b);

	if (!force && prio_diff_same_cluster(&a, &b, &err) < 0)
		cmd_die_error(&c, &err);
	if (prio_diff_compute(&a, &b, &o, &d, &err) < 0)
		cmd_die_error(&c, &err);
	if (c.mode == CMD_OUT_TEXT)
		print_text(&d, name_a, name_b, &a, &b, !c.noheader);
	else
		print_records(&c, &d);
	{
		int rc = d.changed ? EXIT_NO : EXIT_OK;

		prio_diff_free(&d);
		prio_snapshot_free(&a);
		prio_snapshot_free(&b);
		return rc;
	}
}
