/* SPDX-License-Identifier: MIT */
/*
 * prio-calc: the multifactor priority of pending jobs, computed offline from
 * a snapshot and printed exactly as the snapshot's release of sprio prints it
 * (slurm-facts §6; 22.05 to 26.05, report_sprio's release table): the same
 * options (-l -n -w -o -S -u -j -p -h, SPRIO_FORMAT), the same default
 * formats, the same messages.  Beyond sprio: -P/--csv/--json, the
 * shared --now and --set, --at (later clock: age grows, usage decays),
 * --explain JOBID, --compare (what-if ranks) and --rank (scheduling order).
 *
 * Like sprio's source, the command is split by role: options and the table
 * here, the explanation in prio-calc-explain.c, the what-if comparison in
 * prio-calc-compare.c; the table itself (letters, formats, rows, sort keys)
 * is libprio's report_sprio, shared with prio-top.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history.h"
#include "prio-calc.h"
#include "prio/advance.h"
#include "prio/priority_inputs.h"
#include "prio/usage.h"

#define USAGE CALC_USAGE

enum {
	OPT_CHECK = OPT_COMMON_LAST + 1,
	OPT_AT,
	OPT_EXPLAIN,
	OPT_COMPARE,
	OPT_RANK,
	OPT_USAGE,
	OPT_NO_LAG,
	OPT_START,
	OPT_MINE,
	OPT_BRIEF,
	OPT_FORECAST,
	OPT_FORECAST_UNTIL,
	OPT_FORECAST_ENDS,
	OPT_HISTORY,
	OPT_CHART,
	OPT_TABLE,
	OPT_ASCII,
};

static void help(void)
{
	printf(
	    "Usage: %s\n\n"
	    "The multifactor priority of pending jobs, as sprio prints it, from "
	    "files.\n\n"
	    "sprio's options:\n"
	    "  -l, --long             long format (every factor)\n"
	    "  -n, --norm             normalised factors instead of weighted "
	    "ones\n"
	    "  -w, --weights          print the weights instead of jobs\n"
	    "  -o, --format=FORMAT    sprio format: %%[.][width]letter..., "
	    "letters:\n"
	    "                         i r u c Y y S a A b B f F j J N p P q Q "
	    "t T,\n"
	    "                         from Slurm 23.02 also o (account) and n "
	    "(QOS name)\n"
	    "  -S, --sort=SORT        sort keys (c i N r u a A f F j J p P q Q "
	    "t T y Y;\n"
	    "                         from 23.02 also o n),\n"
	    "                         '-' before a key for descending; default "
	    "i\n"
	    "  -u, --user=USERS       only these users (names or uids, comma "
	    "list)\n"
	    "      --users=USERS      the same\n"
	    "  -j[JOBS]               only these job ids (comma list; -j alone "
	    "takes the\n"
	    "                         next argument)\n"
	    "  -p, --partition=PARTS  only rows of these partitions (comma "
	    "list)\n"
	    "  -h, --noheader         no header line\n"
	    "  -V                     the version, then exit\n"
	    "Beyond sprio:\n"
	    "      --at=TIME          compute at a later time: age grows, usage "
	    "decays and\n"
	    "                         running jobs keep charging usage\n"
	    "      --no-lag           classic, DEPTH_OBLIVIOUS: fairshare from "
	    "current usage,\n"
	    "                         not one cycle behind as Slurm shows it\n"
	    "      --explain=JOBS     why each job waits: rank, terms, the job "
	    "ahead, what\n"
	    "                         would change it\n"
	    "      --compare          with --set: which jobs move in each "
	    "partition\n"
	    "      --rank             the scheduling order: ranks overall and "
	    "per partition\n"
	    "      --start            pending jobs with Slurm's start estimate, "
	    "as squeue\n"
	    "                         --start prints them (-j -u -p -h, -o with "
	    "squeue's\n"
	    "                         letters i A P j u U a q t T S e V D Y R Q "
	    "C)\n"
	    "      --mine             --brief for you ($USER)\n"
	    "      --brief            with -u USER: one line per pending job: "
	    "rank in its\n"
	    "                         partition, priority, the factor that holds "
	    "it back\n"
	    "                         most, Slurm's start estimate\n"
	    "      --forecast         when every pending job starts: a "
	    "simulation of the main\n"
	    "                         and backfill schedulers from NOW "
	    "(prio-calc(1) FORECAST)\n"
	    "      --forecast-until=TIME  stop the forecast there (jobs not "
	    "started by then:\n"
	    "                         \"after\"); also with --explain, "
	    "--mine/--brief\n"
	    "      --forecast-ends=limit|history  when jobs end in the "
	    "forecast: at their\n"
	    "                         limits (default), or after their user's "
	    "median share\n"
	    "                         of it in the sacct history (Slurm still "
	    "plans with limits)\n"
	    "      --history=DIR      with -j JOBID: the job's priority and "
	    "terms in each\n"
	    "                         snapshot folder of DIR (a prio-snap "
	    "series), by NOW\n"
	    "      --chart            ... only the chart of PRIORITY (default on "
	    "a terminal:\n"
	    "                         table, chart)\n"
	    "      --table            ... only the table (default in a pipe)\n"
	    "      --ascii            ... the chart in ASCII (default without "
	    "a UTF-8 locale)\n"
	    "      --check            load the inputs, report what they hold and "
	    "every\n"
	    "                         problem (exit 0 clean, 2 on errors)\n"
	    "      --usage            a short usage line, then exit\n",
	    USAGE);
	cmd_common_help(stdout);
	printf("\nThe clock: without --now and --at, Slurm's last priority "
	       "calculation before NOW,\nfound from the pending jobs' stored "
	       "priorities (what sprio shows); NOW, with a\nwarning, when it "
	       "is not found.\n"
	       "\nEnvironment: SPRIO_FORMAT, the format when neither -o nor -l "
	       "is given.\n"
	       "Exit status: 0 success, 1 the answer is no (no job matches -j, "
	       "no priority/multifactor), 2 usage or input error.\n"
	       "See prio-calc(1) and prio-tools(7).\n");
}

/* ---- filters ------------------------------------------------------------- */

static size_t count_items(const char *list)
{
	size_t n = 1;

	for (const char *p = list; *p; p++)
		n += *p == ',';
	return n;
}

/* Next comma-separated item of *p into buf; false at the end. */
static bool next_item(const char **p, char *buf, size_t size)
{
	const char *s = *p, *e;
	size_t n;

	while (*s == ',')
		s++;
	if (!*s)
		return false;
	e = strchr(s, ',');
	n = e ? (size_t)(e - s) : strlen(s);
	*p = s + n;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v == 0 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* sprio reports a format letter or a user it does not know, prints the
 * rest and exits 0; we print the same, then exit 2 so that a script sees
 * that part of what it asked for was not done. */
static bool reported_invalid;

void calc_filter_init(struct calc_filter *f, const struct calc_opts *o,
		      const struct prio_snapshot *snap)
{
	const struct cmd_common *c = &o->c;
	char item[256];
	const char *p;

	memset(f, 0, sizeof(*f));
	if (o->jobs) {
		size_t n = count_items(o->jobs);

		f->job_ids = calloc(n, sizeof(*f->job_ids));
		f->task_ids = calloc(n, sizeof(*f->task_ids));
		if (!f->job_ids || !f->task_ids)
			cmd_die(c, "out of memory");
		for (p = o->jobs; next_item(&p, item, sizeof(item));) {
			char *us = strchr(item, '_');
			uint32_t id, task = PRIO_NO_VAL;

			if (us)
				*us = '\0';
			if (!parse_u32(item, &id) ||
			    (us && !parse_u32(us + 1, &task) &&
			     strcmp(us + 1, "0") != 0)) {
				if (us)
					*us = '_';
				cmd_usage_error(c, USAGE, "Invalid job id: %s",
						item);
			}
			if (us && strcmp(us + 1, "0") == 0)
				task = 0;
			f->job_ids[f->njobs] = id;
			f->task_ids[f->njobs++] = task;
		}
	}
	if (o->users) {
		size_t n = count_items(o->users);

		f->users_given = true;
		f->users = calloc(n, sizeof(*f->users));
		f->uids = calloc(n, sizeof(*f->uids));
		if (!f->users || !f->uids)
			cmd_die(c, "out of memory");
		for (p = o->users; next_item(&p, item, sizeof(item));) {
			uint32_t uid;
			prio_id id = prio_intern_find(&snap->strings, item,
						      strlen(item));

			if (id != PRIO_NO_ID)
				f->users[f->nusers++] = id;
			else if (parse_u32(item, &uid) || strcmp(item, "0") == 0)
				f->uids[f->nuids++] =
				    strcmp(item, "0") == 0 ? 0 : uid;
			else {
				cmd_warn(c, "error: Invalid user: %s", item);
				reported_invalid = true;
			}
		}
	}
	if (o->partitions) {
		size_t n = count_items(o->partitions);

		f->partitions = calloc(n, sizeof(*f->partitions));
		if (!f->partitions)
			cmd_die(c, "out of memory");
		for (p = o->partitions; next_item(&p, item, sizeof(item));) {
			if (!(f->partitions[f->nparts++] = strdup(item)))
				cmd_die(c, "out of memory");
		}
	}
}

void calc_filter_free(struct calc_filter *f)
{
	for (size_t i = 0; i < f->nparts; i++)
		free((char *)f->partitions[i]);
	free(f->partitions);
	free(f->job_ids);
	free(f->task_ids);
	free(f->users);
	free(f->uids);
	memset(f, 0, sizeof(*f));
}

bool calc_filter_job(const struct calc_filter *f, const struct prio_job *job)
{
	if (f->job_ids) {
		bool hit = false;

		for (size_t i = 0; i < f->njobs && !hit; i++) {
			if (f->task_ids[i] == PRIO_NO_VAL)
				hit = job->job_id == f->job_ids[i] ||
				      job->array_job_id == f->job_ids[i];
			else
				hit = job->array_job_id == f->job_ids[i] &&
				      (job->array_task_id == f->task_ids[i] ||
				       job->array_task_id == PRIO_NO_VAL);
		}
		if (!hit)
			return false;
	}
	if (f->users_given) {
		bool hit = false;

		for (size_t i = 0; i < f->nusers && !hit; i++)
			hit = job->user == f->users[i];
		for (size_t i = 0; i < f->nuids && !hit; i++)
			hit = job->uid == f->uids[i];
		if (!hit)
			return false;
	}
	return true;
}

bool calc_filter_partition(const struct calc_filter *f, const char *name)
{
	if (!f->partitions)
		return true;
	for (size_t i = 0; i < f->nparts; i++)
		if (strcmp(f->partitions[i], name) == 0)
			return true;
	return false;
}

/* ---- loading ------------------------------------------------------------- */

/* A weight the inputs cannot serve is an input error, not a silent 0. */
static void check_inputs(const struct calc_opts *o,
			 const struct prio_engine *e)
{
	struct prio_error err;
	bool no_usage;

	if (prio_engine_check_inputs(e, &err, &no_usage) < 0)
		cmd_die_error(&o->c, &err);
	if (no_usage)
		cmd_warn(&o->c, "warning: no RawUsage in the association input: "
				"fairshare assumes no usage at all");
}

/* Say once on stderr when the instant was not found (the clock stays NOW)
 * or when some jobs disagree there (--check lists them). */
static void calc_clock_warn(struct calc_opts *o, time_t now)
{
	char buf[512], when[32];

	prio_calc_time_describe(&o->calc, buf, sizeof(buf));
	if (o->calc.status == PRIO_CALC_TIME_NO_JOBS ||
	    o->calc.status == PRIO_CALC_TIME_NO_MATCH)
		cmd_warn(&o->c,
			 "warning: Slurm's last priority calculation %s: "
			 "computing at NOW %s (--now sets the clock)",
			 buf, prio_timestamp_format(now, when, sizeof(when)));
	else if (o->calc.ndisagree && !o->check)
		cmd_warn(&o->c,
			 "warning: Slurm's last priority calculation %s; %u "
			 "disagree (prio-calc --check lists them)",
			 buf, o->calc.ndisagree);
}

/* With --set: the stored priorities against the files as loaded, read
 * again quietly (their warnings were said); a --live capture is taken
 * again by calc_load, which finds the instant itself. */
static void calc_clock_plain(struct calc_opts *o, bool warn)
{
	struct prio_snapshot plain;
	struct prio_engine pe;
	struct prio_error err;
	unsigned saved = o->c.set_count;

	prio_error_clear(&err);
	if (o->c.live) {
		calc_load(o, &plain, &pe, false);
	} else {
		o->c.set_count = 0;
		if (cmd_load_snapshot_from(&o->c, NULL, &plain, &err) < 0)
			cmd_die_error(&o->c, &err);
		o->c.set_count = saved;
		if (prio_engine_init(&pe, &plain, plain.now, &err) < 0 ||
		    prio_calc_time_find(&pe, &o->calc, &err) < 0)
			cmd_die_error(&o->c, &err);
		o->calc_known = true;
		if (warn)
			calc_clock_warn(o, plain.now);
	}
	prio_engine_free(&pe);
	prio_snapshot_free(&plain);
}

/* Put the engine's clock at Slurm's last priority calculation, found once
 * from the stored priorities of the snapshot as loaded: what-if
 * assignments change what they are compared with. */
static void calc_clock(struct calc_opts *o, struct prio_engine *e,
		       bool with_sets)
{
	struct prio_error err;

	if (!o->calc_known && with_sets && o->c.set_count)
		calc_clock_plain(o, true);
	if (!o->calc_known) {
		prio_error_clear(&err);
		if (prio_calc_time_find(e, &o->calc, &err) < 0)
			cmd_die_error(&o->c, &err);
		o->calc_known = true;
		calc_clock_warn(o, e->captured);
	}
	prio_engine_at_calc_time(e, &o->calc);
}

/* The forecast's first priority calculation after NOW
 * (prio_calc_time_next); with --now or --at the engine's clock is taken
 * for Slurm's last one (0). */
static time_t calc_first_calc(const struct calc_opts *o,
			      const struct prio_snapshot *snap)
{
	if (!o->calc_known)
		return 0;
	return prio_calc_time_next(&o->calc, snap->now, snap->conf.calc_period);
}

/* Jobs of a user with fewer finished jobs than this in sacct take the
 * cluster's ratio: a median of one or two jobs says little. */
#define RUNTIME_MIN_JOBS 3

void calc_forecast_opts(struct calc_opts *o, const struct prio_snapshot *snap,
			struct prio_forecast_opts *fo)
{
	struct prio_error err;

	fo->first_calc = calc_first_calc(o, snap);
	if (!o->sched_warned) {
		o->sched_warned = true;
		cmd_warn_sched_unmodelled(&o->c, snap);
	}
	if (o->forecast_until && o->forecast_until < snap->now)
		cmd_die(&o->c, "--forecast-until is before the snapshot's NOW");
	fo->until = o->forecast_until;
	if (!o->forecast_history)
		return;
	if (!o->runtime_built) {
		if (!(snap->roles_loaded & (1u << PRIO_ROLE_SACCT)))
			cmd_die(&o->c, "--forecast-ends history: no job history "
				       "(sacct.txt in the snapshot, or --sacct "
				       "FILE)");
		prio_error_clear(&err);
		if (prio_runtime_history_build(snap, RUNTIME_MIN_JOBS,
					       &o->runtime, &err) < 0)
			cmd_die_error(&o->c, &err);
		o->runtime_built = true;
		if (o->runtime.cluster_jobs < RUNTIME_MIN_JOBS)
			cmd_warn(&o->c,
				 "--forecast-ends history: %u finished jobs "
				 "with a time limit in the job history, fewer "
				 "than %u: jobs end at their limits",
				 o->runtime.cluster_jobs, RUNTIME_MIN_JOBS);
	}
	fo->runtime = &o->runtime;
}

/* --at: the stored usage is that of Slurm's last priority calculation,
 * found as the default clock finds it (on the files as they are, without
 * --set, when a --set changes the comparison); usage moves from it to
 * --at.  Not found, or --now given: from NOW, as before. */
static void usage_from_last_calc(struct calc_opts *o,
				 struct prio_snapshot *snap)
{
	struct prio_error err;

	if (o->c.now_set)
		return;
	prio_error_clear(&err);
	if (!o->calc_known && o->c.set_count && !o->c.live) {
		calc_clock_plain(o, false);
	} else if (!o->calc_known) {
		if (prio_calc_time_find_snapshot(snap, &o->calc, &err) < 0)
			cmd_die_error(&o->c, &err);
		o->calc_known = true;
	}
	prio_snapshot_at_calc_time(snap, &o->calc);
}

void calc_load(struct calc_opts *o, struct prio_snapshot *snap,
	       struct prio_engine *e, bool with_sets)
{
	struct prio_error err;
	unsigned saved = o->c.set_count;
	time_t now;

	prio_error_clear(&err);
	if (!with_sets)
		o->c.set_count = 0;
	cmd_load_snapshot(&o->c, snap);
	o->c.set_count = saved;
	now = o->at_set ? o->at : snap->now;
	/* a folder's sacct.txt read for --forecast-ends history only tells
	 * how long jobs run: the usage stays the snapshot's, as without it */
	if (prio_usage_needs_replay(snap) &&
	    (!o->forecast_history || o->c.paths[PRIO_ROLE_SACCT])) {
		/* No RawUsage but job records (--sacct): the usage Slurm
		 * would hold, as fstree-show rebuilds it. */
		if (prio_usage_replay(snap, now, false, NULL, &err) < 0)
			cmd_die_error(&o->c, &err);
	} else if (o->at_set) {
		usage_from_last_calc(o, snap);
		if (prio_snapshot_advance(snap, o->at, &err) < 0)
			cmd_die_error(&o->c, &err);
		/* the usage is now that of --at: --explain's searches move
		 * it on from there, not again from the calculation */
		snap->usage_at = o->at;
	}
	if (!snap->conf.priority_type ||
	    strcmp(snap->conf.priority_type, "priority/multifactor") != 0) {
		fprintf(stderr,
			"%s: You are not running a supported priority plugin\n"
			"(%s).\nOnly 'priority/multifactor' is supported.\n",
			o->c.prog,
			snap->conf.priority_type ? snap->conf.priority_type
						 : "(null)");
		exit(EXIT_NO);
	}
	if (prio_engine_init_fs(e, snap, now, o->no_lag ? PRIO_FS_NO_LAG : 0,
				&err) < 0)
		cmd_die_error(&o->c, &err);
	check_inputs(o, e);
	/* ranks, the jobs ahead and what moves depend on every job and,
	 * through FAIRSHARE, on every user's usage */
	if (o->rank || o->compare || o->explain || o->brief || o->forecast)
		cmd_partial(&o->c, snap, PRIO_NEEDS_RANK,
			    o->rank       ? "--rank"
			    : o->compare  ? "--compare"
			    : o->forecast ? "--forecast"
			    : o->brief    ? (o->mine ? "--mine" : "--brief")
					  : "--explain",
			    true);
	if (!o->c.now_set && !o->at_set) {
		calc_clock(o, e, with_sets);
		/* what moves usage later (--explain's searches, the next
		 * calculation) moves it from there */
		prio_snapshot_at_calc_time(snap, &o->calc);
	}
}

/* ---- the sprio table ----------------------------------------------------- */

static void invalid_letter(char letter, void *ctx)
{
	const struct cmd_common *c = ctx;

	cmd_warn(c, "error: Invalid job format specification: %c", letter);
	reported_invalid = true;
}

static const char *pick_format(const struct calc_opts *o,
			       const struct prio_sprio_release *rel,
			       const struct prio_config *conf, char *buf,
			       size_t size)
{
	const char *env = getenv("SPRIO_FORMAT");

	if (o->format)
		return o->format;
	if (!o->long_format && env && *env)
		return env;
	return prio_sprio_default_format_in(rel, conf, o->long_format, o->norm,
					    o->users != NULL, buf, size);
}

/* Job indices in ascending job id order (the default sort); NULL when the
 * snapshot already is. */
static uint32_t *job_id_order(const struct prio_snapshot *snap, bool *sorted)
{
	uint32_t *ix;

	*sorted = true;
	for (uint32_t i = 1; i < snap->job_count && *sorted; i++)
		*sorted = snap->jobs[i - 1].job_id <= snap->jobs[i].job_id;
	if (*sorted)
		return NULL;
	ix = malloc((size_t)snap->job_count * sizeof(*ix));
	if (!ix)
		return NULL;
	for (uint32_t i = 0; i < snap->job_count; i++)
		ix[i] = i;
	return ix;
}

static int cmp_job_id(const void *a, const void *b, void *ctx)
{
	const struct prio_snapshot *snap = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t jx = snap->jobs[x].job_id, jy = snap->jobs[y].job_id;

	if (jx != jy)
		return jx < jy ? -1 : 1;
	return x < y ? -1 : x > y;
}

struct table_out {
	struct calc_opts *o;
	char blank[8]; /* letters a partial snapshot cannot give */
	struct prio_sprio_table t;
	struct prio_writer *w;
	const struct prio_engine *e;
	unsigned long rows;
};

static void emit(struct table_out *to, const struct prio_job *job,
		 const struct prio_job_factors *jf, const struct prio_row *row,
		 prio_id qos)
{
	if (prio_sprio_row_cells_qos(&to->t, to->e, job, jf, row, qos) < 0)
		cmd_die(&to->o->c, "out of memory");
	for (size_t i = 0; *to->blank && i < to->t.ncols; i++)
		if (to->t.letters[i] && strchr(to->blank, to->t.letters[i]))
			to->t.cells[i] = prio_cell_blank();
	if (prio_writer_row(to->w, to->t.cells) < 0)
		cmd_die_write(&to->o->c);
	to->rows++;
}

/* Stream the rows of one job (every partition it may run in). */
static int job_rows(struct table_out *to, const struct calc_filter *f,
		    const struct prio_job *job, uint32_t *parts,
		    struct prio_sprio_rec *recs, size_t *nrecs)
{
	const struct prio_engine *e = to->e;
	const struct prio_snapshot *snap = e->snap;
	struct prio_job_factors own, jf;
	uint32_t np, nq;
	prio_id qos;

	if (!prio_job_listed(e, job) || !calc_filter_job(f, job))
		return 0;
	np = prio_job_partitions(e, job, parts);
	if (!np)
		return 0;
	nq = prio_job_qos_count(job);
	prio_job_factors(e, job, &own);
	/* a row per partition and QOS, partition-major: the order of the
	 * controller's list (_create_prio_list_part/_qos in 24.11) */
	for (uint32_t k = 0; k < np * nq; k++) {
		uint32_t part = parts[k / nq];
		struct prio_row row;

		if (!calc_filter_partition(
			f,
			prio_snapshot_str(snap, snap->partitions[part].name)))
			continue;
		qos = prio_job_factors_at(e, job, &own, k % nq, &jf);
		prio_row_compute(e, job, &jf, part, &row);
		if (recs) {
			recs[*nrecs].job = job;
			recs[*nrecs].jf = jf;
			recs[*nrecs].qos = qos;
			recs[(*nrecs)++].row = row;
		} else {
			emit(to, job, &jf, &row, qos);
		}
	}
	return 0;
}

/*
 * The sprio letters a partial snapshot cannot give (privacy.h): FAIRSHARE
 * when other users' usage is hidden, ASSOC when the tree went with it,
 * and PRIORITY when it adds either.  One warning names those the table
 * shows; sorting by them would leak the rank they hide: refused.
 */
/* Does the table have a column of one of `letters`? */
static bool table_shows(const struct prio_sprio_table *t, const char *letters)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (t->letters[i] && strchr(letters, t->letters[i]))
			return true;
	return false;
}

static void partial_letters(struct table_out *to, const struct prio_snapshot *snap,
			    const struct prio_sprio_sort *sort)
{
	char why[8], what[64] = "";
	/* --at charges usage with every running job */
	enum prio_needs fs_need =
	    !prio_privacy_blocked(snap, PRIO_NEEDS_FAIRSHARE, why, 1) &&
		    to->o->at_set &&
		    prio_privacy_blocked(snap, PRIO_NEEDS_ADVANCE, why, 1)
		? PRIO_NEEDS_ADVANCE
		: PRIO_NEEDS_FAIRSHARE;
	bool fs = prio_privacy_blocked(snap, fs_need, why, 1);
	bool as = prio_privacy_blocked(snap, PRIO_NEEDS_ASSOC, why, 1);
	bool pr = (fs && snap->conf.weight_fairshare) ||
		  (as && snap->conf.weight_assoc);
	const char *names[3];
	size_t n = 0, shown = 0;

	snprintf(to->blank, sizeof(to->blank), "%s%s%s", fs ? "fF" : "",
		 as ? "bB" : "", pr ? "yY" : "");
	if (!*to->blank || to->o->weights)
		return;
	for (size_t k = 0; k < sort->nkeys; k++)
		if (strchr(to->blank, sort->keys[k]))
			cmd_partial(&to->o->c, snap, fs_need,
				    "-S: sorting by FAIRSHARE, ASSOC or "
				    "PRIORITY",
				    true);
	if (fs && table_shows(&to->t, "fF"))
		names[n++] = "FAIRSHARE";
	if (as && table_shows(&to->t, "bB"))
		names[n++] = "ASSOC";
	if (pr && table_shows(&to->t, "yY"))
		names[n++] = "PRIORITY";
	for (size_t k = 0; k < n; k++)
		shown += (size_t)snprintf(what + shown, sizeof(what) - shown,
					  "%s%s",
					  k == 0	   ? ""
					  : k == n - 1 ? " and "
						       : ", ",
					  names[k]);
	if (n)
		cmd_partial(&to->o->c, snap, fs_need, what, false);
}

static int print_table(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct calc_filter f;
	struct prio_sprio_sort sort;
	struct table_out to;
	char fmtbuf[512], why[512];
	const char *format;
	const struct prio_sprio_release *rel;
	uint32_t *parts, *order = NULL;
	struct prio_sprio_rec *recs = NULL;
	size_t nrecs = 0;
	bool sorted = true, dflt_sort, no_match = false;

	/* a key no release knows is refused before anything is read; the
	 * snapshot's release decides the rest once it is known */
	if (prio_sprio_sort_parse_in(prio_sprio_release(PRIO_SLURM_NEWEST),
				     o->sort ? o->sort : "i", &sort, why,
				     sizeof(why)) < 0)
		cmd_usage_error(c, USAGE, "%s", why);

	calc_load(o, &snap, &e, true);
	calc_filter_init(&f, o, &snap);
	rel = prio_sprio_release(prio_snapshot_slurm(&snap)->release);
	if (prio_sprio_sort_parse_in(rel, o->sort ? o->sort : "i", &sort, why,
				     sizeof(why)) < 0)
		cmd_usage_error(c, USAGE, "%s", why);
	dflt_sort = prio_sprio_sort_is_job_id(&sort);

	memset(&to, 0, sizeof(to));
	to.o = o;
	to.e = &e;
	format = pick_format(o, rel, &snap.conf, fmtbuf, sizeof(fmtbuf));
	if (prio_sprio_table_init_in(&to.t, rel, format, invalid_letter, c, why,
				     sizeof(why)) < 0)
		cmd_usage_error(c, USAGE, "-o: %s", why);
	to.t.exact = c->mode == CMD_OUT_JSON;
	partial_letters(&to, &snap, &sort);

	parts = malloc((size_t)e.max_job_partitions * sizeof(*parts));
	if (!parts)
		cmd_die(c, "out of memory");
	if (!o->weights) {
		if (dflt_sort) {
			order = job_id_order(&snap, &sorted);
			if (!sorted && !order)
				cmd_die(c, "out of memory");
			if (order)
				qsort_r(order, snap.job_count, sizeof(*order),
					cmp_job_id, &snap);
		} else {
			/* rows are kept to be sorted: at most one per job,
			 * partition and QOS */
			size_t cap = 0;

			for (uint32_t i = 0; i < snap.job_count; i++)
				cap += (size_t)snap.jobs[i].partition_count *
				       prio_job_qos_count(&snap.jobs[i]);
			recs = malloc((cap ? cap : 1) * sizeof(*recs));
			if (!recs)
				cmd_die(c, "out of memory");
		}
	}

	/* -j that matches nothing: sprio's message instead of a table.  From
	 * 23.02 sprio filters what the controller sent, so the message only
	 * comes when no job at all is listed; otherwise the header shows
	 * alone.  Either way the answer is no (exit 1). */
	if (o->jobs && !o->weights) {
		bool any = false, matched = false;

		for (uint32_t i = 0; i < snap.job_count && !matched; i++) {
			bool listed = prio_job_listed(&e, &snap.jobs[i]);

			any = any || listed;
			matched = listed && calc_filter_job(&f, &snap.jobs[i]);
		}
		if (!matched && rel->client_filter && any) {
			no_match = true;
		} else if (!matched) {
			printf("Unable to find jobs matching user/id(s) "
			       "specified\n");
			free(parts);
			prio_sprio_table_free(&to.t);
			calc_filter_free(&f);
			prio_engine_free(&e);
			prio_snapshot_free(&snap);
			return EXIT_NO;
		}
	}

	to.w = prio_writer_new(stdout, cmd_writer_mode(c->mode),
			       PRIO_STYLE_SPRIO, to.t.cols, to.t.ncols,
			       !c->noheader, to.t.prefix);
	if (!to.w)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	/* JSON: "qos" is the QOS name in every tool (sprio's %n); its
	 * factor is qos_prio, as the partition's is partition_prio */
	if (prio_writer_json_key(to.w, "qos", "qos_prio") < 0 ||
	    prio_writer_json_key(to.w, "qos_norm", "qos_prio_norm") < 0 ||
	    prio_writer_json_key(to.w, "qos_name", "qos") < 0)
		cmd_die(c, "out of memory");

	if (o->weights) {
		prio_sprio_weights_cells(&to.t, &snap.conf);
		if (prio_writer_row(to.w, to.t.cells) < 0)
			cmd_die_write(c);
	} else {
		for (uint32_t k = 0; k < snap.job_count; k++) {
			uint32_t i = order ? order[k] : k;

			job_rows(&to, &f, &snap.jobs[i], parts, recs, &nrecs);
		}
		if (recs) {
			prio_sprio_sort_recs(&e, &sort, recs, nrecs);
			for (size_t k = 0; k < nrecs; k++)
				emit(&to, recs[k].job, &recs[k].jf,
				     &recs[k].row, recs[k].qos);
		}
	}
	if (prio_writer_finish(to.w) < 0)
		cmd_die_write(c);
	free(recs);
	free(order);
	free(parts);
	prio_sprio_table_free(&to.t);
	calc_filter_free(&f);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return no_match ? EXIT_NO : EXIT_OK;
}

/* ---- --rank -------------------------------------------------------------- */

/* Laid out like sprio's own columns: justified in a width, one space
 * between. */
static const struct prio_column rank_columns[] = {
    {.id = "rank", .header = "RANK", .width = 7, .right = true, .suffix = " "},
    {.id = "partition", .header = "PARTITION", .width = 9, .suffix = " "},
    {.id = "part_rank", .header = "PART_RANK", .width = 9, .right = true,
     .suffix = " "},
    {.id = "tier", .header = "TIER", .width = 5, .right = true, .suffix = " "},
    {.id = "job_id", .header = "JOBID", .width = 15, .right = true,
     .suffix = " "},
    {.id = "user", .header = "USER", .width = 8, .right = true, .suffix = " "},
    {.id = "priority", .header = "PRIORITY", .width = 10, .right = true,
     .suffix = " "},
    {.id = "submit", .header = "SUBMIT", .width = 19, .right = true},
};

static int print_rank(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_queue q;
	struct prio_error err;
	struct calc_filter f;
	struct prio_writer *w;
	const size_t ncols = sizeof(rank_columns) / sizeof(rank_columns[0]);

	calc_load(o, &snap, &e, true);
	calc_filter_init(&f, o, &snap);
	if (prio_queue_build(&e, &q, &err) < 0)
		cmd_die_error(c, &err);
	w = prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    rank_columns, ncols, !c->noheader, NULL);
	/* JSON: submit_time, as --start names the submit time */
	if (!w || prio_writer_json_key(w, "submit", "submit_time") < 0)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	for (uint32_t k = 0; k < q.count; k++) {
		const struct prio_queue_entry *en = &q.entries[k];
		const struct prio_job *job = &snap.jobs[en->job];
		const struct prio_partition *p = &snap.partitions[en->partition];
		const char *pname = prio_snapshot_str(&snap, p->name);
		struct prio_cell cells[8];
		char when[32];

		if (!calc_filter_job(&f, job) || !calc_filter_partition(&f, pname))
			continue;
		cells[0] = prio_cell_uint(en->rank);
		cells[1] = prio_cell_str(pname);
		cells[2] = prio_cell_uint(en->part_rank);
		cells[3] = prio_cell_uint(p->tier);
		cells[4] = prio_cell_uint(job->job_id);
		cells[5] = prio_cell_str(prio_snapshot_str(&snap, job->user));
		cells[6] = prio_cell_uint(en->priority);
		cells[7] = prio_cell_str(
		    prio_timestamp_format(job->submit_time, when, sizeof(when)));
		if (prio_writer_row(w, cells) < 0)
			cmd_die_write(c);
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	prio_queue_free(&q);
	calc_filter_free(&f);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return EXIT_OK;
}

/* ---- --check -------------------------------------------------------------- */

/* --check's own rows: Slurm's last priority calculation as the stored
 * priorities tell it (also with --now: the search is around that clock),
 * then every job whose stored priority is not ours at that instant. */
struct check_calc {
	const struct prio_snapshot *snap;
	bool searched;
	char why[512];  /* not searched: why */
	struct prio_calc_time ct;
};

/* sdiag's last backfill cycle and the timer the forecast takes from it
 * (only where the snapshot's sdiag.txt names a cycle). */
static void check_backfill_timer_row(const struct prio_snapshot *snap,
				     struct prio_writer *w)
{
	char buf[512], last[32], first_s[32];
	time_t first, period;

	if (!snap->bf_last_cycle)
		return;
	prio_timestamp_format(snap->bf_last_cycle, last, sizeof(last));
	if (prio_forecast_backfill_timer(snap, &first, &period)) {
		prio_timestamp_format(first, first_s, sizeof(first_s));
		snprintf(buf, sizeof(buf),
			 "passes at %s (%lld) and every %lld s: sdiag's last "
			 "cycle %s (%lld), %u us",
			 first_s, (long long)first, (long long)period, last,
			 (long long)snap->bf_last_cycle,
			 snap->bf_last_cycle_us);
	} else {
		snprintf(buf, sizeof(buf),
			 "not taken: sdiag's last cycle %s (%lld) is more than "
			 "two periods before NOW or after it (passes at the "
			 "first event bf_interval after the last)",
			 last, (long long)snap->bf_last_cycle);
	}
	cmd_check_row(w, "clock", "backfill timer", -1, buf);
}

static void check_calc_rows(void *ctx, struct prio_writer *w, int where)
{
	struct check_calc *k = ctx;
	char buf[512], item[32];

	if (where == 0) {
		cmd_check_row(w, "clock", "last calculation", -1,
			      k->searched ? prio_calc_time_describe(
						&k->ct, buf, sizeof(buf))
					  : k->why);
		check_backfill_timer_row(k->snap, w);
		return;
	}
	/* no instant found: every job would be listed against NOW */
	if (!k->searched || k->ct.status == PRIO_CALC_TIME_NO_MATCH)
		return;
	for (uint32_t i = 0; i < k->ct.ndisagree; i++) {
		const struct prio_calc_time_job *d = &k->ct.disagree[i];

		snprintf(item, sizeof(item), "job %u",
			 k->snap->jobs[d->job].job_id);
		snprintf(buf, sizeof(buf),
			 "stored Priority=%u, ours %u at the last calculation",
			 d->stored, d->ours);
		cmd_check_row(w, "differs", item, d->stored, buf);
	}
}

static int check_report(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_error err;
	struct check_calc k;
	int rc;

	memset(&k, 0, sizeof(k));
	cmd_load_snapshot(c, &snap);
	k.snap = &snap;
	prio_error_clear(&err);
	if (!snap.conf.priority_type ||
	    strcmp(snap.conf.priority_type, "priority/multifactor") != 0) {
		snprintf(k.why, sizeof(k.why),
			 "not searched: PriorityType is not "
			 "priority/multifactor");
	} else if (prio_engine_init(&e, &snap, snap.now, &err) < 0) {
		snprintf(k.why, sizeof(k.why), "not searched: %s",
			 prio_error_format(&err, (char[512]){0}, 512));
	} else {
		if (prio_calc_time_find(&e, &k.ct, &err) < 0)
			cmd_die_error(c, &err);
		k.searched = true;
		prio_engine_free(&e);
	}
	rc = cmd_check_report_with(c, &snap, check_calc_rows, &k);
	prio_calc_time_free(&k.ct);
	prio_snapshot_free(&snap);
	return rc;
}

/* ---- main ---------------------------------------------------------------- */

static uint32_t parse_job_id(struct calc_opts *o, const char *s)
{
	uint32_t id;

	if (!parse_u32(s, &id))
		cmd_usage_error(&o->c, USAGE, "Invalid job id: %s", s);
	return id;
}

/* --explain 16,17: each job explained in turn, in the order given. */
static void parse_explain_ids(struct calc_opts *o, const char *arg)
{
	size_t n = 1;
	char *copy, *tok, *save = NULL;

	for (const char *p = arg; *p; p++)
		n += *p == ',';
	free(o->explain_ids);
	o->explain_ids = calloc(n, sizeof(*o->explain_ids));
	copy = strdup(arg);
	if (!o->explain_ids || !copy)
		cmd_die(&o->c, "out of memory");
	o->explain_count = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		o->explain_ids[o->explain_count++] = parse_job_id(o, tok);
	free(copy);
	if (!o->explain_count)
		cmd_usage_error(&o->c, USAGE, "Invalid job id: %s", arg);
	o->explain = o->explain_ids[0];
}

/* --history DIR -j JOBID: its own checks, then calc_history. */
static int history_main(struct calc_opts *o, const char *dir, int view,
			bool ascii)
{
	struct cmd_common *c = &o->c;
	int rc;

	if (!o->jobs || strchr(o->jobs, ','))
		cmd_usage_error(c, USAGE, "--history needs one job: -j JOBID");
	if (o->long_format || o->norm || o->weights || o->format || o->sort ||
	    o->users || o->partitions || o->at_set || c->now_set ||
	    c->set_count)
		cmd_usage_error(c, USAGE,
				"--history takes no -l, -n, -w, -o, -S, -u, "
				"-p, --at, --now or --set: each snapshot is "
				"at its own NOW");
	if (c->snapshot_dir || c->live || cmd_history_sources_given(c))
		cmd_usage_error(c, USAGE, "--history reads the snapshots of "
					  "DIR: no --snapshot, --live or source "
					  "files");
	c->folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	c->required_roles |= 1u << PRIO_ROLE_JOBS;
	rc = calc_history(o, dir, parse_job_id(o, o->jobs), view, ascii);
	prio_calc_time_free(&o->calc);
	free(o->explain_ids);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option own[] = {
	    {"check", no_argument, NULL, OPT_CHECK},
	    {"parsable", no_argument, NULL, 'P'},
	    {"noheader", no_argument, NULL, 'h'},
	    {"long", no_argument, NULL, 'l'},
	    {"norm", no_argument, NULL, 'n'},
	    {"weights", no_argument, NULL, 'w'},
	    {"format", required_argument, NULL, 'o'},
	    {"sort", required_argument, NULL, 'S'},
	    {"user", required_argument, NULL, 'u'},
	    {"users", required_argument, NULL, 'u'},
	    {"partition", required_argument, NULL, 'p'},
	    {"at", required_argument, NULL, OPT_AT},
	    {"explain", required_argument, NULL, OPT_EXPLAIN},
	    {"compare", no_argument, NULL, OPT_COMPARE},
	    {"rank", no_argument, NULL, OPT_RANK},
	    {"usage", no_argument, NULL, OPT_USAGE},
	    {"no-lag", no_argument, NULL, OPT_NO_LAG},
	    {"start", no_argument, NULL, OPT_START},
	    {"mine", no_argument, NULL, OPT_MINE},
	    {"brief", no_argument, NULL, OPT_BRIEF},
	    {"forecast", no_argument, NULL, OPT_FORECAST},
	    {"forecast-until", required_argument, NULL, OPT_FORECAST_UNTIL},
	    {"forecast-ends", required_argument, NULL, OPT_FORECAST_ENDS},
	    {"history", required_argument, NULL, OPT_HISTORY},
	    {"chart", no_argument, NULL, OPT_CHART},
	    {"table", no_argument, NULL, OPT_TABLE},
	    {"ascii", no_argument, NULL, OPT_ASCII},
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	const struct option *longopts = cmd_merge_options(own, NOWN);
	struct calc_opts o;
	struct cmd_common *c = &o.c;
	const char *history = NULL;
	bool ends_set = false; /* --forecast-ends given */
	int hview = 0;
	bool ascii = false;
	int opt, actions, rc;

	memset(&o, 0, sizeof(o));
	cmd_common_init(c, "prio-calc");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hj::lno:S:p:u:VwP", longopts,
				  NULL)) != -1) {
		if (cmd_common_option(c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_CHECK: o.check = true; break;
		case 'P': cmd_output(c, CMD_OUT_PARSABLE2); break;
		case 'h': c->noheader = true; break;
		case 'l': o.long_format = true; break;
		case 'n': o.norm = true; break;
		case 'w': o.weights = true; break;
		case 'o': o.format = optarg; break;
		case 'S': o.sort = optarg; break;
		case 'u': o.users = optarg; break;
		case 'p': o.partitions = optarg; break;
		case 'j':
			o.jobs_given = true;
			o.jobs = optarg;
			break;
		case OPT_AT:
			if (cmd_parse_now(optarg, &o.at) < 0)
				cmd_usage_error(c, USAGE,
						"--at: expected Unix seconds or "
						"YYYY-MM-DDTHH:MM:SS, got \"%s\"",
						optarg);
			o.at_set = true;
			break;
		case OPT_EXPLAIN: parse_explain_ids(&o, optarg); break;
		case OPT_COMPARE: o.compare = true; break;
		case OPT_RANK: o.rank = true; break;
		case OPT_NO_LAG: o.no_lag = true; break;
		case OPT_START: o.start = true; break;
		case OPT_MINE: o.mine = o.brief = true; break;
		case OPT_BRIEF: o.brief = true; break;
		case OPT_FORECAST: o.forecast = true; break;
		case OPT_FORECAST_UNTIL:
			if (cmd_parse_now(optarg, &o.forecast_until) < 0)
				cmd_usage_error(c, USAGE,
						"--forecast-until: expected Unix "
						"seconds, YYYY-MM-DDTHH:MM:SS or "
						"now[-N[unit]], got \"%s\"",
						optarg);
			break;
		case OPT_FORECAST_ENDS:
			if (strcmp(optarg, "history") == 0)
				o.forecast_history = ends_set = true;
			else if (strcmp(optarg, "limit") == 0)
				ends_set = !(o.forecast_history = false);
			else
				cmd_usage_error(c, USAGE,
						"--forecast-ends: expected limit "
						"or history, got \"%s\"",
						optarg);
			break;
		case OPT_HISTORY: history = optarg; break;
		case OPT_CHART:
		case OPT_TABLE:
			if (hview && hview != (opt == OPT_CHART
						   ? CMD_HISTORY_CHART
						   : CMD_HISTORY_TABLE))
				cmd_usage_error(c, USAGE, "--chart and --table "
							  "exclude each other");
			hview = opt == OPT_CHART ? CMD_HISTORY_CHART
						 : CMD_HISTORY_TABLE;
			break;
		case OPT_ASCII: ascii = true; break;
		case OPT_USAGE: printf("Usage: %s\n", USAGE); return EXIT_OK;
		case OPT_HELP: help(); return EXIT_OK;
		case 'V':
		case OPT_VERSION:
			printf("prio-calc (prio-tools) %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		case ':':
			cmd_usage_error(c, USAGE, "option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	/* sprio's bare -j takes the next argument as its list */
	if (o.jobs_given && !o.jobs && optind < argc)
		o.jobs = argv[optind++];
	if (optind < argc)
		cmd_usage_error(c, USAGE, "unexpected argument '%s'",
				argv[optind]);
	if (o.long_format && o.format)
		cmd_usage_error(c, USAGE,
				"Options -o(--format) and -l(--long) are "
				"mutually exclusive. Please remove one and "
				"retry.");
	actions = o.check + (o.explain != 0) + o.compare + o.rank + o.start +
		  o.brief + o.forecast + (history != NULL);
	if (actions > 1)
		cmd_usage_error(c, USAGE, "--check, --explain, --compare, "
					  "--rank, --start, --mine/--brief, "
					  "--forecast and --history exclude each "
					  "other");
	if ((hview || ascii) && !history)
		cmd_usage_error(c, USAGE, "--chart, --table and --ascii go "
					  "with --history");
	if (history)
		return history_main(&o, history, hview, ascii);
	if (o.mine && o.users)
		cmd_usage_error(c, USAGE, "--mine is -u $USER --brief: give "
					  "one of --mine and -u");
	if (o.brief && !o.mine && !o.users)
		cmd_usage_error(c, USAGE, "--brief needs -u USER (or --mine)");
	if ((o.start || o.brief) &&
	    (o.long_format || o.norm || o.weights || o.sort || o.at_set))
		cmd_usage_error(c, USAGE, "--start and --mine/--brief take no "
					  "-l, -n, -w, -S or --at");
	if (o.brief && o.format)
		cmd_usage_error(c, USAGE, "--mine/--brief take no -o");
	if (o.forecast_until && !o.forecast && !o.explain && !o.brief)
		cmd_usage_error(c, USAGE, "--forecast-until needs --forecast, "
					  "--explain or --mine/--brief");
	if (ends_set && !o.forecast && !o.explain && !o.brief)
		cmd_usage_error(c, USAGE, "--forecast-ends needs --forecast, "
					  "--explain or --mine/--brief");
	/* the forecast starts at the snapshot's NOW; a later clock would
	 * leave the jobs that ran in between unaccounted for */
	if (o.forecast && o.at_set)
		cmd_usage_error(c, USAGE, "--forecast starts at the snapshot's "
					  "NOW: --at does not apply");
	if (o.compare && !c->set_count)
		cmd_usage_error(c, USAGE, "--compare needs what-if "
					  "assignments (--set or --what-if)");
	/* Priorities never use job history: leave a folder's sacct.txt unread
	 * (--check reports everything; an explicit --sacct is still read;
	 * --forecast-ends history reads how long jobs ran). */
	if (!o.check && !o.forecast_history)
		c->folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	/* --check reports whatever is there; everything else ranks jobs */
	if (!o.check)
		c->required_roles |= 1u << PRIO_ROLE_JOBS;
	if (o.check) {
		rc = check_report(&o);
	} else if (o.explain) {
		rc = calc_explain(&o);
	} else if (o.compare) {
		rc = calc_compare(&o);
	} else if (o.rank) {
		rc = print_rank(&o);
	} else if (o.start) {
		rc = calc_start(&o);
	} else if (o.brief) {
		rc = calc_brief(&o);
	} else if (o.forecast) {
		rc = calc_forecast(&o);
	} else {
		rc = print_table(&o);
	}
	if (rc == EXIT_OK && reported_invalid)
		rc = EXIT_ERROR;
	prio_calc_time_free(&o.calc);
	free(o.explain_ids);
	if (o.runtime_built)
		prio_runtime_history_free(&o.runtime);
	return rc;
}
