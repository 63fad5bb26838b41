/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --explain JOBID: "why is my job waiting?" in plain words and
 * numbers, from libprio's explanation (prio/explain.h).  Text by default;
 * with -P, --csv or --json the same lines become rows of (section,
 * partition, item, value, weight, points, detail), so scripts get the
 * numbers without parsing prose.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio-calc.h"
#include "prio/advance.h"
#include "prio/explain_text.h"
#include "prio/forecast_text.h"
#include "prio/timestr.h"

/* The machine modes' table (text mode prints the detail lines only). */
static const struct prio_column explain_columns[] = {
    {.id = "job_id", .header = "JOBID", .numfmt = PRIO_NUMFMT_PLAIN},
    {.id = "section", .header = "SECTION"},
    {.id = "partition", .header = "PARTITION"},
    {.id = "item", .header = "ITEM"},
    {.id = "value", .header = "VALUE", .numfmt = PRIO_NUMFMT_FIXED7},
    {.id = "weight", .header = "WEIGHT", .numfmt = PRIO_NUMFMT_PLAIN},
    {.id = "points", .header = "POINTS", .numfmt = PRIO_NUMFMT_FIXED2},
    {.id = "detail", .header = "DETAIL"},
};

struct out {
	struct calc_opts *o;
	struct prio_writer *w;
	uint32_t job_id; /* the job explained (the rows' first cell) */
	int width;       /* text folded to it (cmd_text_width), 0 never */
};

/* One line of the explanation: printed as text, or one row in the machine
 * modes.  NAN value, weight or points leave the cell blank. */
static int say(void *ctx, const struct prio_explain_line *l)
{
	struct out *out = ctx;
	const char *detail = l->text;

	if (!out->w) {
		/* warnings go to stderr, one line each (issue 13); the
		 * machine modes keep them as rows of their own section */
		if (!strcmp(l->section, "warning"))
			cmd_warn(&out->o->c, "%s", l->text);
		else
			cmd_put_wrapped(l->text, out->width);
		return 0;
	}
	while (*detail == ' ')
		detail++;
	if (!*detail && isnan(l->value) && isnan(l->weight) && isnan(l->points))
		return 0; /* a blank line of the text */
	/* whole numbers (ids, ranks, seconds) print as integers */
#define NUM(v)                                                                 \
	(isnan(v)		     ? prio_cell_blank()                               \
	 : fabs(v) < 9e15 && (v) == floor(v) ? prio_cell_int((int64_t)(v))             \
					     : prio_cell_double(v))
	struct prio_cell cells[8] = {
	    prio_cell_int(out->job_id),
	    prio_cell_str(l->section),
	    l->partition ? prio_cell_str(l->partition) : prio_cell_blank(),
	    l->item ? prio_cell_str(l->item) : prio_cell_blank(),
	    NUM(l->value),
	    NUM(l->weight),
	    isnan(l->points) ? prio_cell_blank() : prio_cell_double(l->points),
	    *detail ? prio_cell_str(detail) : prio_cell_blank(),
	};
	if (prio_writer_row(out->w, cells) < 0)
		cmd_die_write(&out->o->c);
	return 0;
}

/* One line of our own, in the same form as the explanation's. */
static void line(struct out *out, const char *section, const char *partition,
		 const char *item, double value, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void line(struct out *out, const char *section, const char *partition,
		 const char *item, double value, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	say(out, &(struct prio_explain_line){section, partition, item, value,
					      NAN, NAN, text});
}

/* The job's entry in partition `part` of q, or NULL. */
static const struct prio_queue_entry *entry_of(const struct prio_queue *q,
					       uint32_t job, uint32_t part)
{
	for (uint32_t k = 0; k < q->count; k++)
		if (q->entries[k].job == job && q->entries[k].partition == part)
			return &q->entries[k];
	return NULL;
}

/*
 * Without --now and --at the explanation above is at Slurm's last priority
 * calculation: what sprio shows until the next one.  Then what the next
 * one gives, PriorityCalcPeriod later: ages grown, usage decayed and
 * charged as --at computes it (the snapshot's usage is moved there).  When
 * the last calculation was not found the explanation was at NOW: say so.
 */
static void explain_next(struct calc_opts *o, struct prio_snapshot *snap,
			 const struct prio_queue *q, uint32_t job,
			 struct out *out)
{
	const struct prio_calc_time *ct = &o->calc;
	struct prio_engine e;
	struct prio_queue q2;
	struct prio_error err;
	char b1[32], b2[32];
	time_t next;
	bool any = false;

	/* the explanation ends with a blank line */
	if (o->c.now_set || o->at_set || !o->calc_known)
		return;
	if (ct->status != PRIO_CALC_TIME_FOUND) {
		line(out, "next", NULL, "clock", (double)snap->now,
		     "Slurm's last calculation is not pinned by the stored "
		     "priorities (prio-calc --check says why): the above is at "
		     "NOW, %s.",
		     prio_timestamp_format(snap->now, b1, sizeof(b1)));
		return;
	}
	next = ct->at + (time_t)snap->conf.calc_period;
	if (next < snap->now)
		next = snap->now;
	prio_error_clear(&err);
	if (prio_snapshot_advance(snap, next, &err) < 0 ||
	    prio_engine_init(&e, snap, next, &err) < 0)
		cmd_die_error(&o->c, &err);
	if (prio_queue_build(&e, &q2, &err) < 0)
		cmd_die_error(&o->c, &err);
	line(out, "next", NULL, "clock", (double)next,
	     "Slurm keeps the numbers above (sprio shows them) until its next "
	     "calculation, "
	     "at %s (%s + PriorityCalcPeriod); then:",
	     prio_timestamp_format(next, b1, sizeof(b1)),
	     prio_timestamp_format(ct->at, b2, sizeof(b2)));
	for (uint32_t p = 0; p < snap->partition_count; p++) {
		const struct prio_queue_entry *now = entry_of(q, job, p);
		const struct prio_queue_entry *then = entry_of(&q2, job, p);
		const char *pname = prio_snapshot_str(snap,
						      snap->partitions[p].name);

		if (!then)
			continue;
		any = true;
		line(out, "next", pname, "priority", then->priority,
		     "  %s: priority %u%s, place %u of %u pending jobs in %s "
		     "(now %u)",
		     pname, then->priority,
		     now ? (now->priority == then->priority ? " (unchanged)"
							    : "")
			 : "",
		     then->part_rank, q2.part_count[p], pname,
		     now ? now->part_rank : 0);
		if (now && now->priority != then->priority)
			line(out, "next", pname, "change",
			     (double)then->priority - (double)now->priority,
			     "    %+lld points since the last calculation",
			     (long long)then->priority -
				 (long long)now->priority);
	}
	if (!any)
		line(out, "next", NULL, NULL, NAN,
		     "  it is not in the queue then either");
	prio_queue_free(&q2);
	prio_engine_free(&e);
}

int calc_explain(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_queue q;
	struct prio_explain x;
	struct prio_error err;
	struct out out = {o, NULL, 0, cmd_text_width()};
	struct prio_forecast_opts fo = {0};
	struct prio_forecast fc;
	uint32_t *watch;
	struct prio_forecast_shorter *shorter;

	calc_load(o, &snap, &e, true);
	if (prio_queue_build(&e, &q, &err) < 0)
		cmd_die_error(c, &err);
	watch = calloc(o->explain_count ? o->explain_count : 1, sizeof(*watch));
	if (!watch)
		cmd_die(c, "out of memory");
	/* every job is checked before any is explained: a typo'd id in the
	 * list fails the command, not its last part */
	for (uint32_t k = 0; k < o->explain_count; k++) {
		if (prio_explain_job(&e, &q, o->explain_ids[k], &x, &err) < 0)
			cmd_die_error(c, &err);
		watch[k] = x.job_index;
		prio_explain_free(&x);
	}
	/* the forecast before anything moves the snapshot (explain_next
	 * advances it), and only as far as the jobs explained start */
	fo.watch = watch;
	fo.watch_count = o->explain_count;
	calc_forecast_opts(o, &snap, &fo);
	/* what a shorter limit would do, for each job that waits in the
	 * forecast: the forecast again, also before the snapshot moves (the
	 * first job's tries beside the forecast itself) */
	shorter = calloc(o->explain_count ? o->explain_count : 1,
			 sizeof(*shorter));
	if (!shorter)
		cmd_die(c, "out of memory");
	if (prio_forecast_when(&e, &fo, watch[0], &fc, &shorter[0], &err) < 0)
		cmd_die_error(c, &err);
	for (uint32_t k = 1; k < o->explain_count; k++) {
		const struct prio_forecast_row *r =
		    prio_forecast_row_of(&fc, watch[k]);

		if (!r || r->status != PRIO_FC_STARTS || r->start <= fc.from ||
		    snap.jobs[r->job].state != PRIO_JOB_PENDING)
			continue;
		if (prio_forecast_shorter(&e, &fo, r->job, r->start,
					  &shorter[k], &err) < 0)
			cmd_die_error(c, &err);
	}
	if (c->mode != CMD_OUT_TEXT) {
		out.w = prio_writer_new(
		    stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
		    explain_columns,
		    sizeof(explain_columns) / sizeof(explain_columns[0]),
		    !c->noheader, NULL);
		if (!out.w)
			cmd_die(c, "cannot start the table: %s",
				strerror(errno));
	}
	for (uint32_t k = 0; k < o->explain_count; k++) {
		if (prio_explain_job(&e, &q, o->explain_ids[k], &x, &err) < 0)
			cmd_die_error(c, &err);
		out.job_id = o->explain_ids[k];
		if (k && !out.w)
			putchar('\n');
		prio_explain_render(&e, &x, say, &out);
		explain_next(o, &snap, &q, x.job_index, &out);
		/* the "When" part, as prio-top's detail view shows it */
		prio_forecast_when_render(&snap, &fc, x.job_index, &shorter[k],
					  say, &out);
		prio_explain_free(&x);
	}
	if (out.w && prio_writer_finish(out.w) < 0)
		cmd_die_write(c);
	if (!out.w && (fflush(stdout) != 0 || ferror(stdout)))
		cmd_die_write(c);
	prio_forecast_free(&fc);
	free(shorter);
	free(watch);
	prio_queue_free(&q);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return EXIT_OK;
}
