/* SPDX-License-Identifier: MIT */
/*
 * fstree-show: the fairshare tree as sshare 22.05 prints it, offline, from a
 * snapshot (DESIGN §2), plus what sshare cannot do: another algorithm
 * (--algorithm), another moment (--at, --replay), what-if shares (--set),
 * a drawing of the tree (--tree), an audit of a real sshare output
 * (--audit), and explanations (--why, --when).
 *
 * sshare's own options keep their meaning (slurm-facts §7): -a -A -e -h/-n
 * -l -m -o -p -P -u -U, the default user filter (the invoking user unless
 * -a or -u), the default column sets (LevelFS with -l under Fair Tree).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstree.h"
#include "sacct_stream.h"
#include "history.h"
#include "prio/calc_time.h"

#define USAGE                                                                  \
	"fstree-show [--snapshot DIR | --conf F --assoc F ...] [-a] [-l] "     \
	"[-m] [-U] [-A LIST] "                                                 \
	"[-u LIST] [-o LIST] [-p|-P|--csv|--json] [-h] [--algorithm NAME] "    \
	"[--at TIME "                                                          \
	"[--no-run]] [--replay] [--tree | --audit FILE | --why USER [--vs "    \
	"USER] | --when "                                                      \
	"USER --fairshare F|--level-fs X] [--account ACCT] | --history DIR " \
	"--user USER [-A ACCT] [--chart|--table] [--ascii]]"

#define MAX_FIELDS 64

enum {
	OPT_ALGORITHM = OPT_COMMON_LAST + 1,
	OPT_TREE,
	OPT_ASCII,
	OPT_AUDIT,
	OPT_WHY,
	OPT_VS,
	OPT_ACCOUNT,
	OPT_WHEN,
	OPT_FAIRSHARE,
	OPT_LEVEL_FS,
	OPT_REPLAY,
	OPT_AT,
	OPT_NO_RUN,
	OPT_NO_LAG,
	OPT_HISTORY,
	OPT_CHART,
	OPT_TABLE,
};

static void help(void)
{
	printf(
	    "Usage: %s\n\n"
	    "Show the fairshare tree as sshare prints it, from files, and "
	    "explain it.\n\n"
	    "sshare's options:\n"
	    "  -a, --all              every user, not only the invoking user\n"
	    "  -A, --accounts=LIST    only rows of these accounts "
	    "(comma-separated)\n"
	    "  -e, --helpformat       list the field names for -o, then exit\n"
	    "  -l, --long             the long column set (NormUsage, LevelFS, "
	    "TRES)\n"
	    "  -m, --partition        add the Partition column\n"
	    "  -n                     no header line (same as -h)\n"
	    "  -o, --format=LIST      columns: Name[%%WIDTH],... (prefixes "
	    "allowed)\n"
	    "  -p, --parsable         '|' after every field\n"
	    "  -P, --parsable2        '|' between fields\n"
	    "  -u, --users=LIST       these users' rows (-1: all users)\n"
	    "  -U, --Users            user rows only\n"
	    "  -V                     the version, then exit\n"
	    "Fairshare:\n"
	    "      --algorithm=NAME   fairtree, classic, depth-oblivious or "
	    "ticket\n"
	    "                         (default: from PriorityFlags)\n"
	    "      --at=TIME          evaluate at another moment (decay, "
	    "running jobs)\n"
	    "      --no-run           running jobs add no usage after the "
	    "snapshot\n"
	    "      --replay           rebuild usage from sacct records and "
	    "running jobs\n"
	    "      --no-lag           classic: account rows from current "
	    "usage, not one\n"
	    "                         cycle behind as Slurm shows them (with "
	    "--jobs)\n"
	    "Views:\n"
	    "      --tree             draw the tree: shares, usage, Level FS, "
	    "rank\n"
	    "      --ascii            draw it with ASCII characters only\n"
	    "      --audit=FILE       compare with a real 'sshare -P' or '-l' "
	    "output\n"
	    "                         (exit 1 when a cell disagrees)\n"
	    "      --why=USER         why USER has its FairShare, level by "
	    "level\n"
	    "      --vs=USER          ... compared with another user\n"
	    "      --account=ACCT     which of the user's associations (--why, "
	    "--when)\n"
	    "      --when=USER        when decay brings USER to a target, "
	    "with\n"
	    "      --fairshare=F      ... the FairShare factor F, or\n"
	    "      --level-fs=X       ... the Level FS X\n"
	    "History:\n"
	    "      --history=DIR      a user's FairShare, Level FS and rank in "
	    "each snapshot\n"
	    "                         folder of DIR (a prio-snap series), by "
	    "NOW\n"
	    "      --user=USER        ... this user (-A or --account: which "
	    "association)\n"
	    "      --chart            ... only the chart (default on a "
	    "terminal: table, chart)\n"
	    "      --table            ... only the table (default in a pipe)\n"
	    "      --ascii            ... the chart in ASCII (default without "
	    "a UTF-8 locale)\n",
	    USAGE);
	cmd_common_help(stdout);
	printf(
	    "\nExit status: 0 success, 1 the answer is no (audit differences, "
	    "target\n"
	    "never reached), 2 usage or input error.  See fstree-show(1).\n");
}

bool fstree_color(void)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(STDOUT_FILENO) && !(nc && *nc);
}

struct prio_fs_setup fstree_setup(const struct fstree *f)
{
	struct prio_fs_setup setup = {.algorithm = f->algorithm,
				      .cycle = f->at,
				      .flags = f->no_lag ? PRIO_FS_NO_LAG : 0u};

	return setup;
}

void fstree_compute(struct fstree *f)
{
	struct prio_error err;
	struct prio_fs_setup setup = fstree_setup(f);

	prio_error_clear(&err);
	if (!f->res &&
	    !(f->res = calloc(f->snap.assoc_count ? f->snap.assoc_count : 1,
			      sizeof(*f->res))))
		cmd_die(&f->c, "out of memory");
	prio_fs_lag_free(&f->lag);
	if (prio_fairshare_slurm(&f->snap, &setup, f->res, &f->lag, &err) < 0)
		cmd_die_error(&f->c, &err);
}

uint32_t fstree_find_user(struct fstree *f, const char *user,
			  const char *account, const char *option)
{
	const struct prio_snapshot *s = &f->snap;
	uint32_t found = PRIO_ASSOC_NONE, count = 0;
	char list[512];
	size_t used = 0;

	list[0] = '\0';
	for (uint32_t i = 0; i < s->assoc_count; i++) {
		const struct prio_assoc *a = &s->assocs[i];

		if (!a->is_user ||
		    strcmp(prio_snapshot_str(s, a->user), user) != 0)
			continue;
		if (account &&
		    strcasecmp(prio_snapshot_str(s, a->account), account) != 0)
			continue;
		if (used < sizeof(list))
			used +=
			    (size_t)snprintf(list + used, sizeof(list) - used,
					     "%s%s", count ? ", " : "",
					     prio_snapshot_str(s, a->account));
		if (!count++)
			found = i;
	}
	if (!count && account)
		cmd_die(&f->c,
			"%s %s: no association of user %s under account %s",
			option, user, user, account);
	if (!count)
		cmd_die(&f->c, "%s %s: no such user in the association tree",
			option, user);
	if (count > 1)
		cmd_die(&f->c,
			"%s %s: the user has %u associations (%s): pick one "
			"with --account",
			option, user, count, list);
	return found;
}

/* Split a comma list (an argv string, cut in place) onto an array. */
static const char **split_list(struct fstree *f, char *arg, size_t *n,
			       const char **old, size_t old_n)
{
	const char **out =
	    realloc(old, (old_n + strlen(arg) / 2 + 2) * sizeof(*out));
	char *save = NULL;

	if (!out)
		cmd_die(&f->c, "out of memory");
	*n = old_n;
	for (char *tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		out[(*n)++] = tok;
	return out;
}

static const char *invoking_user(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw ? pw->pw_name : "";
}

/*
 * Issue 17: the usage replayed from the sacct file as it streams, every
 * other source loaded first, so that years of accounting need no more
 * memory than a day's; fstree_set_usage() then checks as for a whole load
 * (the stream keeps the few records cmd_partial() reads) and does not
 * replay again.  Only when a replay is certain: --replay, or no usage
 * loaded to move with --at.  false: nothing done, snap empty, and the
 * whole load follows as before (no file to stream, --live, no tree, or a
 * doubt of the stream's, whose error the whole load words).
 */
struct replay_ctx {
	struct prio_usage_replay_run *run;
	struct cmd_sacct_reps reps;
};

static int replay_one(void *ctx, const struct prio_sacct_rec *rec,
		      struct prio_error *err)
{
	struct replay_ctx *x = ctx;

	(void)err;
	cmd_sacct_reps_see(&x->reps, rec);
	prio_usage_replay_add(x->run, rec);
	return 0;
}

static bool replay_stream(struct fstree *f, bool replay, time_t at,
			  bool at_set)
{
	struct prio_snapshot *s = &f->snap;
	struct prio_error err;
	struct replay_ctx x;
	const char *path;
	char buf[4096];
	bool usage = false;
	int rc;

	if (f->c.live || !(path = cmd_sacct_stream_path(&f->c, buf, sizeof(buf))) ||
	    cmd_load_but_sacct(&f->c, s) < 0)
		return false;
	for (uint32_t i = 0; i < s->assoc_count && !usage; i++)
		usage = s->assocs[i].usage_known;
	if ((!replay && usage) ||
	    !(x.run = prio_usage_replay_begin(s, at_set ? at : s->now,
					      f->no_run, &err))) {
		prio_snapshot_free(s);
		return false;
	}
	cmd_sacct_reps_init(&x.reps);
	rc = prio_sacct_stream(s, path, ~(uint32_t)PRIO_SACCT_NODELIST,
			       replay_one, &x, &err);
	prio_usage_replay_end(x.run, NULL);
	if (rc < 0)
		cmd_die_error(&f->c, &err);
	if (rc == PRIO_SACCT_LOAD_WHOLE) {
		prio_snapshot_free(s);
		return false;
	}
	cmd_sacct_reps_store(&f->c, s, &x.reps);
	cmd_load_warnings(&f->c, s);
	f->streamed = true;
	return true;
}

/* sshare's RawUsage is what Slurm's last priority calculation stored:
 * when the pending jobs' stored priorities pin that instant (as prio-calc
 * finds its clock), --at moves usage from it rather than from NOW.  Not
 * pinned (no pending jobs, no age weight...) or --now given: from NOW. */
static void usage_from_last_calc(struct fstree *f)
{
	struct prio_calc_time ct;
	struct prio_error err;

	if (f->c.now_set || !f->snap.job_count)
		return;
	prio_error_clear(&err);
	if (prio_calc_time_find_snapshot(&f->snap, &ct, &err) < 0) {
		if (err.status == PRIO_ERR_NOMEM)
			cmd_die_error(&f->c, &err);
		return; /* no engine for this snapshot: nothing pinned */
	}
	if (ct.status == PRIO_CALC_TIME_FOUND)
		f->calc_at = ct.at;
	prio_snapshot_at_calc_time(&f->snap, &ct);
	prio_calc_time_free(&ct);
}

/* Apply --replay / --at to the loaded usage. */
void fstree_set_usage(struct fstree *f, bool replay)
{
	struct prio_error err;
	struct prio_snapshot *s = &f->snap;
	bool usage = false;

	prio_error_clear(&err);
	for (uint32_t i = 0; i < s->assoc_count && !usage; i++)
		usage = s->assocs[i].usage_known;
	if (prio_usage_needs_replay(s) || f->streamed)
		replay = true;
	if (replay) {
		if (!s->sacct_count && !s->job_count)
			cmd_die(&f->c, "--replay: no job records (give --sacct "
				       "and --jobs)");
		cmd_partial(&f->c, s, PRIO_NEEDS_REPLAY,
			    "usage replayed from job records", true);
		if (!f->streamed &&
		    prio_usage_replay(s, f->at, f->no_run, NULL, &err) < 0)
			cmd_die_error(&f->c, &err);
		f->replayed = true;
	} else if (!usage) {
		cmd_die(
		    &f->c,
		    "no usage: give sshare output (--assoc sshare.txt) or job "
		    "records to replay (--sacct, --jobs)");
	} else if (f->at != s->now) {
		if (!f->no_run)
			cmd_partial(&f->c, s, PRIO_NEEDS_ADVANCE,
				    "--at: usage charged by running jobs", true);
		usage_from_last_calc(f);
		if (prio_usage_advance(s, f->at, f->no_run, &err) < 0)
			cmd_die_error(&f->c, &err);
		f->replayed = true;
	} else if (f->moves) {
		usage_from_last_calc(f);
	}
	if (f->replayed)
		/* What sshare captured no longer holds at another moment. */
		for (uint32_t i = 0; i < s->assoc_count; i++)
			s->assocs[i].slurm.present &=
			    ~(uint32_t)(PRIO_SSHARE_GRP_TRES_RAW |
					PRIO_SSHARE_TRES_RUN_MINS);
}

struct table_opts {
	bool long_format, partitions;
	char *format; /* -o items joined, NULL = default */
	struct prio_sshare_filter filter;
};

/* Account rows' FairShare without Fair Tree is where 25.11's sshare
 * differs from earlier ones (blank there) and sshare's text cannot tell
 * them apart: with the release unknown, say which one the table follows. */
static void warn_release_fairshare(const struct fstree *f,
				   const struct table_opts *o,
				   const struct prio_field_sel *sel,
				   size_t nsel)
{
	if (f->snap.slurm_release_source != PRIO_VERSION_DEFAULT ||
	    f->algorithm == PRIO_FS_FAIR_TREE || o->filter.users_only)
		return;
	for (size_t k = 0; k < nsel; k++)
		if (sel[k].index == PRIO_SSHARE_F_FAIRSHARE) {
			cmd_warn(&f->c, "warning: the Slurm release is not known "
					"(--slurm-version): account rows show "
					"FairShare as Slurm up to 25.05 prints "
					"it; from 25.11 they leave it blank");
			return;
		}
}
static int show_table(struct fstree *f, const struct table_opts *o)
{
	static const struct prio_column depth_col = {
	    "depth", "Depth", 5, true, PRIO_NUMFMT_PF, NULL};
	struct prio_field_sel sel[MAX_FIELDS];
	struct prio_column cols[MAX_FIELDS + 1];
	struct prio_cell cells[MAX_FIELDS + 1];
	bool machine, with_depth = false;
	struct prio_sshare_rowbuf buf;
	struct prio_sshare_rows rows;
	struct prio_sshare_tres tres = {0};
	struct prio_error err;
	struct prio_writer *w;
	uint64_t *run_mins = NULL;
	const char *list = o->format;
	char why[256];
	size_t nsel;
	uint32_t assoc;
	unsigned indent;
	int rc = EXIT_OK;

	prio_error_clear(&err);
	if (!list)
		list = prio_sshare_default_format(o->long_format, o->partitions,
						  f->algorithm ==
						      PRIO_FS_FAIR_TREE);
	if (prio_fieldlist_parse(list, prio_sshare_fields(),
				 PRIO_SSHARE_F_COUNT, sel, MAX_FIELDS, &nsel,
				 why, sizeof(why)) < 0)
		cmd_usage_error(&f->c, USAGE, "%s", why);
	/* CSV and JSON carry the account's name and its depth apart, where
	 * sshare indents the name. */
	machine = f->c.mode == CMD_OUT_CSV || f->c.mode == CMD_OUT_JSON;
	for (size_t k = 0; k < nsel; k++) {
		cols[k] = sel[k].col;
		with_depth = with_depth ||
			     (machine && sel[k].index == PRIO_SSHARE_F_ACCOUNT);
		if (sel[k].index == PRIO_SSHARE_F_TRES_RUN_MINS && !run_mins &&
		    (prio_snapshot_roles_loaded(&f->snap) &
		     (1u << PRIO_ROLE_JOBS))) {
			run_mins = calloc((size_t)f->snap.assoc_count *
					      (f->snap.tres.count + 1),
					  sizeof(*run_mins));
			if (!run_mins)
				cmd_die(&f->c, "out of memory");
			if (prio_usage_tres_run_mins(&f->snap, f->at, run_mins,
						     &err) < 0)
				cmd_die_error(&f->c, &err);
			tres.tres_run_mins = run_mins;
			tres.tres_count = f->snap.tres.count;
		}
	}
	warn_release_fairshare(f, o, sel, nsel);
	if (prio_sshare_rows_init(&rows, &f->snap, &o->filter, &err) < 0)
		cmd_die_error(&f->c, &err);
	if (with_depth)
		cols[nsel] = depth_col;
	w = prio_writer_new(stdout, cmd_writer_mode(f->c.mode),
			    PRIO_STYLE_SSHARE, cols, nsel + with_depth,
			    !f->c.noheader, NULL);
	if (!w)
		cmd_die(&f->c, "cannot start the table: %s", strerror(errno));
	while (prio_sshare_rows_next(&rows, &assoc, &indent)) {
		prio_sshare_cells(&f->snap, f->res, f->algorithm, &tres, assoc,
				  with_depth ? 0 : indent, sel, nsel, cells,
				  &buf);
		if (with_depth)
			cells[nsel] = prio_cell_uint(indent);
		if (prio_writer_row(w, cells) < 0)
			break;
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(&f->c);
	prio_sshare_rows_free(&rows);
	free(run_mins);
	return rc;
}

static double parse_number(struct fstree *f, const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= 0))
		cmd_usage_error(
		    &f->c, USAGE,
		    "%s: expected a non-negative number, got \"%s\"", opt, arg);
	return v;
}

/* --history: its own checks, then fstree_history. */
static int history_main(struct fstree *f, struct table_opts *t,
			const char *dir, bool algorithm_set,
			enum cmd_history_view view, bool users_given,
			bool moved)
{
	int rc;

	if (!users_given || t->filter.user_count != 1 ||
	    strcmp(t->filter.users[0], "-1") == 0)
		cmd_usage_error(&f->c, USAGE,
				"--history needs one user (--user USER)");
	if (t->filter.account_count > 1 ||
	    (t->filter.account_count && f->account))
		cmd_usage_error(&f->c, USAGE,
				"--history takes one account (-A ACCOUNT)");
	if (t->filter.account_count)
		f->account = t->filter.accounts[0];
	if (t->filter.all_users || t->long_format || t->partitions ||
	    t->format || t->filter.users_only || moved)
		cmd_usage_error(&f->c, USAGE,
				"--history takes no -a, -l, -m, -o, -U, "
				"--replay or --at: each snapshot is at its "
				"own NOW");
	if (f->c.snapshot_dir || f->c.live || cmd_history_sources_given(&f->c))
		cmd_usage_error(&f->c, USAGE,
				"--history reads the snapshots of DIR: no "
				"--snapshot, --live or source files");
	rc = fstree_history(f, dir, t->filter.users[0], algorithm_set, view,
			    f->ascii, USAGE);
	free((void *)t->filter.users);
	free((void *)t->filter.accounts);
	free(t->format);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option own[] = {
	    {"all", no_argument, NULL, 'a'},
	    {"accounts", required_argument, NULL, 'A'},
	    {"helpformat", no_argument, NULL, 'e'},
	    {"noheader", no_argument, NULL, 'h'},
	    {"long", no_argument, NULL, 'l'},
	    {"partition", no_argument, NULL, 'm'},
	    {"format", required_argument, NULL, 'o'},
	    {"parsable", no_argument, NULL, 'p'},
	    {"parsable2", no_argument, NULL, 'P'},
	    {"users", required_argument, NULL, 'u'},
	    {"Users", no_argument, NULL, 'U'},
	    {"algorithm", required_argument, NULL, OPT_ALGORITHM},
	    {"tree", no_argument, NULL, OPT_TREE},
	    {"ascii", no_argument, NULL, OPT_ASCII},
	    {"audit", required_argument, NULL, OPT_AUDIT},
	    {"why", required_argument, NULL, OPT_WHY},
	    {"vs", required_argument, NULL, OPT_VS},
	    {"account", required_argument, NULL, OPT_ACCOUNT},
	    {"when", required_argument, NULL, OPT_WHEN},
	    {"fairshare", required_argument, NULL, OPT_FAIRSHARE},
	    {"level-fs", required_argument, NULL, OPT_LEVEL_FS},
	    {"replay", no_argument, NULL, OPT_REPLAY},
	    {"at", required_argument, NULL, OPT_AT},
	    {"no-run", no_argument, NULL, OPT_NO_RUN},
	    {"no-lag", no_argument, NULL, OPT_NO_LAG},
	    {"history", required_argument, NULL, OPT_HISTORY},
	    {"user", required_argument, NULL, 'u'},
	    {"chart", no_argument, NULL, OPT_CHART},
	    {"table", no_argument, NULL, OPT_TABLE},
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	const struct option *longopts = cmd_merge_options(own, NOWN);
	struct fstree f;
	struct table_opts t;
	const char *audit = NULL, *why = NULL, *vs = NULL, *when = NULL,
		   *algorithm = NULL, *history = NULL;
	enum cmd_history_view hview = CMD_HISTORY_AUTO;
	bool users_all = false;
	bool tree = false, replay = false, at_set = false, target_fs = false,
	     target_lf = false;
	bool users_given = false;
	double target = 0;
	time_t at = 0;
	size_t fmt_len = 0;
	int opt, rc, views;

	memset(&f, 0, sizeof(f));
	memset(&t, 0, sizeof(t));
	cmd_common_init(&f.c, "fstree-show");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":aA:ehlmno:pPu:UV", longopts,
				  NULL)) != -1) {
		if (cmd_common_option(&f.c, opt, optarg))
			continue;
		switch (opt) {
		case 'a':
			t.filter.all_users = true;
			break;
		case 'A':
			t.filter.accounts =
			    split_list(&f, optarg, &t.filter.account_count,
				       (const char **)t.filter.accounts,
				       t.filter.account_count);
			break;
		case 'e': {
			char buf[512];

			fputs(prio_sshare_helpformat(buf, sizeof(buf)), stdout);
			return EXIT_OK;
		}
		case 'h':
		case 'n':
			f.c.noheader = true;
			break;
		case 'l':
			t.long_format = true;
			break;
		case 'm':
			t.partitions = true;
			break;
		case 'o': {
			size_t n = strlen(optarg);
			char *p = realloc(t.format, fmt_len + n + 2);

			if (!p)
				cmd_die(&f.c, "out of memory");
			t.format = p;
			if (fmt_len)
				t.format[fmt_len++] = ',';
			memcpy(t.format + fmt_len, optarg, n + 1);
			fmt_len += n;
			break;
		}
		case 'p':
			cmd_output(&f.c, CMD_OUT_PARSABLE);
			break;
		case 'P':
			cmd_output(&f.c, CMD_OUT_PARSABLE2);
			break;
		case 'u':
			users_given = true;
			users_all = users_all || strcmp(optarg, "-1") == 0;
			t.filter.users = split_list(
			    &f, optarg, &t.filter.user_count,
			    (const char **)t.filter.users, t.filter.user_count);
			break;
		case 'U':
			t.filter.users_only = true;
			break;
		case OPT_ALGORITHM:
			if (prio_fs_algorithm_parse(optarg, &f.algorithm) < 0)
				cmd_usage_error(
				    &f.c, USAGE,
				    "--algorithm: expected fairtree, classic, "
				    "depth-oblivious or ticket, got \"%s\"",
				    optarg);
			algorithm = optarg;
			break;
		case OPT_TREE:
			tree = true;
			break;
		case OPT_ASCII:
			f.ascii = true;
			break;
		case OPT_AUDIT:
			audit = optarg;
			break;
		case OPT_WHY:
			why = optarg;
			break;
		case OPT_VS:
			vs = optarg;
			break;
		case OPT_ACCOUNT:
			f.account = optarg;
			break;
		case OPT_WHEN:
			when = optarg;
			break;
		case OPT_FAIRSHARE:
			target_fs = true;
			target = parse_number(&f, "--fairshare", optarg);
			break;
		case OPT_LEVEL_FS:
			target_lf = true;
			target = parse_number(&f, "--level-fs", optarg);
			break;
		case OPT_REPLAY:
			replay = true;
			break;
		case OPT_AT:
			if (cmd_parse_now(optarg, &at) < 0)
				cmd_usage_error(
				    &f.c, USAGE,
				    "--at: expected Unix seconds or "
				    "YYYY-MM-DDTHH:MM:SS, got \"%s\"",
				    optarg);
			at_set = true;
			break;
		case OPT_NO_RUN:
			f.no_run = true;
			break;
		case OPT_NO_LAG:
			f.no_lag = true;
			break;
		case OPT_HISTORY:
			history = optarg;
			break;
		case OPT_CHART:
		case OPT_TABLE:
			if (hview && hview != (opt == OPT_CHART
						   ? CMD_HISTORY_CHART
						   : CMD_HISTORY_TABLE))
				cmd_usage_error(&f.c, USAGE,
						"--chart and --table exclude "
						"each other");
			hview = opt == OPT_CHART ? CMD_HISTORY_CHART
						 : CMD_HISTORY_TABLE;
			break;
		case OPT_HELP:
			help();
			return EXIT_OK;
		case 'V':
		case OPT_VERSION:
			printf("fstree-show (prio-tools) %s\n",
			       PACKAGE_VERSION);
			return EXIT_OK;
		case ':':
			cmd_usage_error(&f.c, USAGE,
					"option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(&f.c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd_usage_error(&f.c, USAGE, "unexpected argument '%s'",
				argv[optind]);
	views = tree + !!audit + !!why + !!when + !!history;
	if (views > 1)
		cmd_usage_error(
		    &f.c, USAGE,
		    "--tree, --audit, --why, --when and --history are "
		    "exclusive");
	if (hview && !history)
		cmd_usage_error(&f.c, USAGE, "--chart and --table go with "
					     "--history");
	if (why && f.c.mode != CMD_OUT_TEXT && f.c.mode != CMD_OUT_JSON)
		cmd_usage_error(
		    &f.c, USAGE,
		    "--why prints text or --json: no -p, -P or --csv");
	if (vs && !why)
		cmd_usage_error(&f.c, USAGE, "--vs needs --why");
	if (when && target_fs == target_lf)
		cmd_usage_error(
		    &f.c, USAGE,
		    "--when needs one of --fairshare or --level-fs");
	if (!when && (target_fs || target_lf))
		cmd_usage_error(&f.c, USAGE,
				"--fairshare and --level-fs go with --when");
	if (f.account && !why && !when && !history)
		cmd_usage_error(&f.c, USAGE,
				"--account goes with --why, --when or "
				"--history");
	if (audit && (replay || at_set))
		cmd_usage_error(
		    &f.c, USAGE,
		    "--audit compares Slurm's own usage: no --replay or --at");
	if (history)
		return history_main(&f, &t, history, algorithm != NULL, hview,
				    users_given, replay || at_set);
	if (users_all)
		t.filter.all_users = true;
	if (!t.filter.all_users && !users_given) {
		const char **self = malloc(sizeof(*self));

		if (!self)
			cmd_die(&f.c, "out of memory");
		self[0] = invoking_user();
		t.filter.users = self;
		t.filter.user_count = 1;
	}
	/* With nothing else named, the audited file is the tree too. */
	if (audit && !f.c.paths[PRIO_ROLE_ASSOC] && !f.c.snapshot_dir)
		f.c.paths[PRIO_ROLE_ASSOC] = audit;
	/* Job history is read only to rebuild usage. */
	if (!replay && !at_set)
		f.c.folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	if (!(!audit && (replay || at_set) &&
	      replay_stream(&f, replay, at, at_set)))
		cmd_load_snapshot(&f.c, &f.snap);
	/* every column past the shares depends on every user's usage */
	cmd_partial(&f.c, &f.snap, PRIO_NEEDS_FAIRSHARE,
		    "fair-share (NormUsage, EffectvUsage, FairShare, Level FS, "
		    "ranks)",
		    true);
	f.at = at_set ? at : f.snap.now;
	if (!algorithm)
		f.algorithm = prio_fs_algorithm_of(f.snap.conf.priority_flags);
	f.moves = when != NULL;
	if (!audit)
		fstree_set_usage(&f, replay);
	if (audit)
		rc = fstree_audit(&f, audit);
	else {
		fstree_compute(&f);
		if (tree)
			rc = fstree_tree(&f);
		else if (why)
			rc = fstree_why(&f, why, vs);
		else if (when)
			rc = fstree_when(&f, when, target_lf, target);
		else
			rc = show_table(&f, &t);
	}
	free(f.res);
	prio_fs_lag_free(&f.lag);
	free(t.format);
	free((void *)t.filter.users);
	free((void *)t.filter.accounts);
	prio_snapshot_free(&f.snap);
	return rc;
}
