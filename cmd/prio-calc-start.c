/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --start: Slurm's own start estimate as `squeue --start` prints
 * it (libprio's report_start: letters, cells, order), and --mine /
 * --user U --brief: one line per pending job of a user with its place in
 * the queue, what holds it back most and Slurm's estimate.
 *
 * Neither computes an estimate of its own: a pending job's StartTime is
 * what Slurm's backfill last planned (0, "N/A", when it has not looked).
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prio-calc.h"
#include "prio/forecast.h"
#include "prio/explain.h"
#include "prio/report_start.h"

/* Does the job pass -p?  squeue keeps a job of several partitions when
 * one of them is asked for. */
static bool in_partitions(const struct calc_filter *f,
			  const struct prio_snapshot *snap,
			  const struct prio_job *job)
{
	if (!f->partitions)
		return true;
	for (uint32_t k = 0; k < job->partition_count; k++)
		if (calc_filter_partition(
			f, prio_snapshot_str(snap, job->partitions[k])))
			return true;
	return false;
}

/* ---- --start ------------------------------------------------------------- */

/* JSON: one job_id key per object.  %i adds the integer job_id before its
 * text; when -o has %A too, that column already is job_id, so the added
 * one goes (-P and CSV keep both columns, as they always printed). */
static void one_job_id(struct prio_start_table *t)
{
	size_t added = t->ncols, a = 0;

	for (size_t i = 0; i < t->ncols; i++) {
		if (t->letters[i] != 'A')
			continue;
		if (strcmp(t->cols[i].header, "JOB_ID") == 0)
			added = i;
		else
			a++;
	}
	if (added == t->ncols || !a)
		return;
	memmove(t->cols + added, t->cols + added + 1,
		(t->ncols - added - 1) * sizeof(*t->cols));
	memmove(t->letters + added, t->letters + added + 1, t->ncols - added - 1);
	t->ncols--;
}

int calc_start(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_start_table t;
	struct calc_filter f;
	struct prio_writer *w;
	uint32_t *ix;
	size_t n = 0;
	char why[256];
	bool machine = c->mode != CMD_OUT_TEXT, unknown_y = false;

	/* a bad -o is refused before anything is read */
	if (prio_start_table_init(&t, o->format, machine, 0, why, sizeof(why)) <
	    0)
		cmd_usage_error(c, CALC_USAGE, "%s", why);
	if (c->mode == CMD_OUT_JSON)
		one_job_id(&t);
	cmd_load_snapshot(c, &snap);
	t.now = snap.now;
	calc_filter_init(&f, o, &snap);
	ix = malloc((snap.job_count ? snap.job_count : 1) * sizeof(*ix));
	if (!ix)
		cmd_die(c, "out of memory");
	for (uint32_t i = 0; i < snap.job_count; i++) {
		const struct prio_job *job = &snap.jobs[i];

		if (!prio_start_listed(job) || !calc_filter_job(&f, job) ||
		    !in_partitions(&f, &snap, job))
			continue;
		ix[n++] = i;
		unknown_y |= job->sched_nodes_unknown;
	}
	if (prio_start_sort(&snap, snap.now, ix, n) < 0)
		cmd_die(c, "out of memory");
	if (unknown_y && t.shows_sched_nodes)
		cmd_warn(c, "warning: Slurm 22.05's squeue --json leaves the "
			    "scheduled nodes out: SCHEDNODES is blank (a "
			    "scontrol show job capture has them)");
	w = prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    t.cols, t.ncols, !c->noheader, t.fmt.prefix);
	if (!w)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	for (size_t k = 0; k < n; k++) {
		prio_start_row_cells(&t, &snap, &snap.jobs[ix[k]]);
		if (prio_writer_row(w, t.cells) < 0)
			cmd_die_write(c);
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	free(ix);
	calc_filter_free(&f);
	prio_start_table_free(&t);
	prio_snapshot_free(&snap);
	return EXIT_OK;
}

/* ---- --mine, --brief ----------------------------------------------------- */

/* squeue's layout: justified in a width, one space between; the phrase
 * of what holds a job back last, whole */
static const struct prio_column brief_columns[] = {
    {.id = "job_id",
     .header = "JOBID",
     .width = 18,
     .right = true,
     .suffix = " "},
    {.id = "partition",
     .header = "PARTITION",
     .width = 9,
     .right = true,
     .suffix = " "},
    {.id = "part_rank",
     .header = "RANK",
     .width = 6,
     .right = true,
     .suffix = " "},
    {.id = "part_total",
     .header = "OF",
     .width = 6,
     .right = true,
     .suffix = " "},
    {.id = "priority",
     .header = "PRIORITY",
     .width = 10,
     .right = true,
     .suffix = " "},
    {.id = "slurm_start",
     .header = "SLURM_START",
     .width = 19,
     .right = true,
     .suffix = " "},
    {.id = "start",
     .header = "START",
     .width = 19,
     .right = true,
     .suffix = " "},
    {.id = "gap",
     .header = "GAP",
     .width = 8,
     .right = true,
     .numfmt = PRIO_NUMFMT_FIXED0,
     .suffix = " "},
    {.id = "held_back_by", .header = "HELD_BACK_BY"},
};

/* The user --mine means: $USER, else the password entry of the real uid. */
static const char *invoking_user(const struct calc_opts *o)
{
	const char *u = getenv("USER");
	struct passwd *pw;

	if (u && *u)
		return u;
	pw = getpwuid(getuid());
	if (!pw || !pw->pw_name)
		cmd_die(&o->c,
			"--mine: who you are is not known ($USER is "
			"unset and uid %u has no password entry): use "
			"--user NAME --brief",
			(unsigned)getuid());
	return pw->pw_name;
}

/* The entry of a job placed first in the scheduling order (a job of
 * several partitions is queued in each): NULL when not queued. */
static const struct prio_queue_entry *
best_entry(const struct prio_queue *q, const uint32_t *first, uint32_t job)
{
	return first[job] != UINT32_MAX ? &q->entries[first[job]] : NULL;
}

/* What holds a job back most: the term of its priority that trails the
 * partition's first job by the most points (the most negative difference
 * of prio_explain_diff_terms).  "-" for the first job; "order" when no term
 * trails (it is behind on PriorityTier, submit time or job id only). */
static const char *held_back(const struct prio_engine *e,
			     const struct prio_queue *q,
			     const struct prio_queue_entry *en, char *buf,
			     size_t size, double *gap)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_queue_entry *top = prio_queue_top(q, en->partition);
	struct prio_explain_terms mine, theirs;
	struct prio_explain_diff d[PRIO_EXPLAIN_MAX_TERMS];
	struct prio_job_factors jf;
	uint32_t nd;

	*gap = 0.0;
	if (!top || top->job == en->job)
		return "-";
	prio_job_factors(e, &snap->jobs[en->job], &jf);
	prio_explain_terms_of(e, &snap->jobs[en->job], &jf, en->partition,
			      &mine);
	prio_job_factors(e, &snap->jobs[top->job], &jf);
	prio_explain_terms_of(e, &snap->jobs[top->job], &jf, en->partition,
			      &theirs);
	nd = prio_explain_diff_terms(&mine, &theirs, d);
	for (uint32_t i = 0; i < nd; i++) {
		if (d[i].points >= 0.0)
			continue;
		*gap = d[i].points;
		if (d[i].factor == PRIO_FACTOR_TRES)
			snprintf(buf, size, "tres %s",
				 snap->tres.names[d[i].tres]);
		else
			snprintf(buf, size, "%s",
				 prio_factor_info(d[i].factor)->name);
		return buf;
	}
	return "order";
}

static struct prio_writer *brief_writer(const struct cmd_common *c)
{
	struct prio_writer *w = prio_writer_new(
	    stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO, brief_columns,
	    sizeof(brief_columns) / sizeof(brief_columns[0]), !c->noheader,
	    NULL);

	/* JSON: our start is start_time, as in --forecast */
	if (w && prio_writer_json_key(w, "start", "start_time") < 0) {
		prio_writer_finish(w);
		return NULL;
	}
	return w;
}

/* Our forecast's start of each job listed (START): the forecast of the
 * whole queue (prio-calc(1) FORECAST), run until those jobs have started;
 * rows[job] its row, NULL when not in it. */
static const struct prio_forecast_row **
brief_forecast(struct calc_opts *o, const struct prio_snapshot *snap,
	       const struct prio_engine *e, struct calc_filter *f,
	       struct prio_forecast *fc)
{
	struct prio_forecast_opts fo = {0};
	const struct prio_forecast_row **rows;
	uint32_t *watch, nw = 0;
	struct prio_error err;
	size_t n = snap->job_count ? snap->job_count : 1;

	watch = malloc(n * sizeof(*watch));
	rows = calloc(n, sizeof(*rows));
	if (!watch || !rows)
		cmd_die(&o->c, "out of memory");
	/* every job the table may list (the held flavours included, which
	 * count as done at once): none, and no forecast is run, where one
	 * that watched nothing would run until the whole queue started */
	for (uint32_t i = 0; i < snap->job_count; i++)
		if (prio_start_listed(&snap->jobs[i]) &&
		    calc_filter_job(f, &snap->jobs[i]))
			watch[nw++] = i;
	memset(fc, 0, sizeof(*fc));
	if (!nw) {
		free(watch);
		return rows;
	}
	fo.watch = watch;
	fo.watch_count = nw;
	calc_forecast_opts(o, snap, &fo);
	prio_error_clear(&err);
	if (prio_forecast_run(e, &fo, fc, &err) < 0)
		cmd_die_error(&o->c, &err);
	for (uint32_t k = 0; k < fc->count; k++)
		rows[fc->rows[k].job] = &fc->rows[k];
	free(watch);
	return rows;
}

int calc_brief(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_queue q;
	struct prio_error err;
	struct calc_filter f;
	struct prio_writer *w;
	uint32_t *first;
	unsigned long rows = 0;
	bool machine = c->mode != CMD_OUT_TEXT;
	struct prio_forecast fc;
	const struct prio_forecast_row **fcrow;

	if (o->mine)
		o->users = invoking_user(o);
	calc_load(o, &snap, &e, true);
	/* --mine: a user the snapshot never names has no jobs in it */
	if (o->mine && prio_intern_find(&snap.strings, o->users,
					strlen(o->users)) == PRIO_NO_ID) {
		if (c->mode == CMD_OUT_JSON)
			printf("[]\n");
		cmd_warn(c, "note: no pending job of %s in the snapshot",
			 o->users);
		prio_engine_free(&e);
		prio_snapshot_free(&snap);
		return EXIT_OK;
	}
	calc_filter_init(&f, o, &snap);
	prio_error_clear(&err);
	if (prio_queue_build(&e, &q, &err) < 0)
		cmd_die_error(c, &err);
	/* each job's first entry in the scheduling order */
	first = malloc((snap.job_count ? snap.job_count : 1) * sizeof(*first));
	if (!first)
		cmd_die(c, "out of memory");
	memset(first, 0xff,
	       (snap.job_count ? snap.job_count : 1) * sizeof(*first));
	for (uint32_t k = q.count; k-- > 0;)
		first[q.entries[k].job] = k;
	fcrow = brief_forecast(o, &snap, &e, &f, &fc);
	/* the table starts with its first row: a user without pending jobs
	 * gets nothing on stdout (JSON: an empty list) and a note */
	w = NULL;
	for (uint32_t i = 0; i < snap.job_count; i++) {
		const struct prio_job *job = &snap.jobs[i];
		const struct prio_queue_entry *en;
		struct prio_cell cells[9];
		char parts[256], why[96], when[32], ours[32];
		const struct prio_forecast_row *r = fcrow[i];
		double gap = 0.0;

		if (!prio_start_listed(job) || !calc_filter_job(&f, job) ||
		    !in_partitions(&f, &snap, job))
			continue;
		en = best_entry(&q, first, i);
		cells[0] = prio_cell_uint(job->job_id);
		if (en) {
			const char *pname = prio_snapshot_str(
			    &snap, snap.partitions[en->partition].name);

			cells[1] = prio_cell_str(pname);
			cells[2] = prio_cell_uint(en->part_rank);
			cells[3] = prio_cell_uint(q.part_count[en->partition]);
			cells[4] = prio_cell_uint(en->priority);
			const char *hb =
			    held_back(&e, &q, en, why, sizeof(why), &gap);

			/* the first job's "-": nothing holds it back (null) */
			cells[8] = strcmp(hb, "-") == 0 ? prio_cell_label(hb)
							: prio_cell_str(hb);
			cells[7] = gap != 0.0 ? prio_cell_double(gap)
					      : prio_cell_blank();
		} else {
			/* not in the queue sprio lists: held, not yet
			 * eligible... the reason says which */
			const char *u = prio_job_unlisted_reason(&e, job);

			cells[1] = prio_cell_str(prio_start_partitions(
			    &snap, job, parts, sizeof(parts)));
			cells[2] = prio_cell_blank();
			cells[3] = prio_cell_blank();
			cells[4] = prio_cell_uint(job->priority);
			cells[8] = prio_cell_str(u ? u : "not queued");
			cells[7] = prio_cell_blank();
		}
		if (job->start_time)
			cells[5] = prio_cell_str(prio_timestamp_format(
			    job->start_time, when, sizeof(when)));
		else
			cells[5] =
			    machine ? prio_cell_blank() : prio_cell_str("N/A");
		/* ours: the time, or the word --forecast prints (held,
		 * never, after) */
		if (r && r->status == PRIO_FC_STARTS)
			cells[6] = prio_cell_str(prio_timestamp_format(
			    r->start, ours, sizeof(ours)));
		else if (r)
			cells[6] = prio_cell_label(prio_forecast_status_name(
			    (enum prio_forecast_status)r->status));
		else
			cells[6] = prio_cell_blank();
		if (!w && !(w = brief_writer(c)))
			cmd_die(c, "cannot start the table: %s",
				strerror(errno));
		if (prio_writer_row(w, cells) < 0)
			cmd_die_write(c);
		rows++;
	}
	if (!w && c->mode == CMD_OUT_JSON && !(w = brief_writer(c)))
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	if (w && prio_writer_finish(w) < 0)
		cmd_die_write(c);
	if (!rows)
		cmd_warn(c, "note: no pending job of %s in the snapshot",
			 o->users);
	free(first);
	free(fcrow);
	prio_forecast_free(&fc);
	prio_queue_free(&q);
	calc_filter_free(&f);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return EXIT_OK;
}
