/* SPDX-License-Identifier: MIT */
/*
 * The "When" part of prio-calc --explain JOBID, shared with prio-top's
 * detail view (moved here from prio-calc so that both print the same
 * lines): Slurm's estimate, the plan of the backfill scheduler's last look
 * (squeue --start), beside ours, the forecast's row of the job, with the
 * jobs whose ends free its nodes and what a shorter limit would do.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "prio/forecast_text.h"
#include "prio/timestr.h"

struct when {
	prio_explain_line_fn fn;
	void *ctx;
	int rc; /* the callback's first non-zero return: stop there */
};

/* One line: its text formatted, with the number it states. */
static void say(struct when *w, const char *partition, const char *item,
		double value, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void say(struct when *w, const char *partition, const char *item,
		double value, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (w->rc)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	w->rc = w->fn(w->ctx, &(struct prio_explain_line){"when", partition,
							   item, value, NAN,
							   NAN, text});
}

/* "in 1:48:08", "in 2 days 03:00:00" from NOW to t. */
static const char *in_text(time_t now, time_t t, char *buf, size_t size)
{
	long long d = t > now ? (long long)(t - now) : 0;

	if (d == 0)
		snprintf(buf, size, "now");
	else if (d >= 86400)
		snprintf(buf, size, "in %lld day%s %02lld:%02lld:%02lld",
			 d / 86400, d >= 2 * 86400 ? "s" : "", d % 86400 / 3600,
			 d % 3600 / 60, d % 60);
	else
		snprintf(buf, size, "in %lld:%02lld:%02lld", d / 3600,
			 d % 3600 / 60, d % 60);
	return buf;
}

/* What a shorter time limit would do (prio_forecast_shorter): the
 * longest of those tried that starts it sooner, with the command that sets
 * it, or that none does. */
static void shorter(struct when *w, const struct prio_snapshot *snap,
		    const struct prio_forecast *fc,
		    const struct prio_forecast_row *r,
		    const struct prio_forecast_shorter *sh)
{
	const struct prio_job *jb = &snap->jobs[r->job];
	char lim[32], was[32], b1[32], b2[48], tried[160];
	size_t n = 0;

	if (!sh || !sh->tried_count)
		return; /* no finite limit to shorten */
	prio_mins2time_str(jb->time_limit, was, sizeof(was));
	if (sh->time_limit) {
		prio_mins2time_str(sh->time_limit, lim, sizeof(lim));
		say(w, NULL, "shorter_limit", (double)sh->start,
		    "  sooner with a shorter time limit: %s instead of %s starts "
		    "it %s (%s), by the %s scheduler (scontrol update JobId=%u "
		    "TimeLimit=%s)",
		    lim, was, prio_timestamp_format(sh->start, b1, sizeof(b1)),
		    in_text(fc->from, sh->start, b2, sizeof(b2)),
		    sh->how == PRIO_FC_BACKFILL ? "backfill" : "main",
		    jb->job_id, lim);
		return;
	}
	tried[0] = '\0';
	for (uint32_t k = 0; k < sh->tried_count && n < sizeof(tried); k++)
		n += (size_t)snprintf(tried + n, sizeof(tried) - n, "%s%s",
				      k ? ", " : "",
				      prio_mins2time_str(sh->tried[k], lim,
							 sizeof(lim)));
	say(w, NULL, "shorter_limit", NAN,
	    "  a shorter time limit does not start it sooner (tried %s "
	    "instead of %s)",
	    tried, was);
}

int prio_forecast_when_render(const struct prio_snapshot *snap,
			      const struct prio_forecast *fc, uint32_t job,
			      const struct prio_forecast_shorter *sh,
			      prio_explain_line_fn fn, void *ctx)
{
	const struct prio_job *jb = &snap->jobs[job];
	const struct prio_forecast_row *r = NULL;
	prio_id sn = prio_job_sched_nodes(jb);
	struct when w = {fn, ctx, 0};
	char b1[32], b2[48], ids[256];
	const char *pname;
	size_t n = 0;

	if (jb->state != PRIO_JOB_PENDING)
		return 0;
	r = prio_forecast_row_of(fc, job);
	say(&w, NULL, NULL, NAN, "%s", "");
	say(&w, NULL, NULL, NAN, "When it would start:");
	if (jb->start_time)
		say(&w, NULL, "slurm_start", (double)jb->start_time,
		    "  Slurm's estimate: %s%s%s (the backfill scheduler's "
		    "plan at its last look, squeue --start)",
		    prio_timestamp_format(jb->start_time, b1, sizeof(b1)),
		    sn != PRIO_NO_ID ? " on " : "",
		    sn != PRIO_NO_ID ? prio_snapshot_str(snap, sn) : "");
	else
		say(&w, NULL, "slurm_start", NAN,
		    "  Slurm's estimate: none (the backfill scheduler has "
		    "not planned it)");
	if (!r)
		return w.rc;
	switch (r->status) {
	case PRIO_FC_STARTS:
		pname = prio_snapshot_str(snap,
					  snap->partitions[r->partition].name);
		say(&w, pname, "start", (double)r->start,
		    "  our forecast: %s (%s) in %s on %s, by the %s scheduler",
		    prio_timestamp_format(r->start, b1, sizeof(b1)),
		    in_text(fc->from, r->start, b2, sizeof(b2)), pname,
		    r->nodes ? r->nodes : "?",
		    r->how == PRIO_FC_BACKFILL ? "backfill" : "main");
		ids[0] = '\0';
		for (uint32_t k = 0; k < r->freed_count && n < sizeof(ids); k++)
			n += (size_t)snprintf(
			    ids + n, sizeof(ids) - n, "%s%u",
			    k == 0 ? "" : k + 1 == r->freed_count ? " and " : ", ",
			    snap->jobs[r->freed_by[k]].job_id);
		if (r->freed_count)
			say(&w, NULL, "freed_by", NAN,
			    "  it waits for the end of job%s %s there",
			    r->freed_count > 1 ? "s" : "", ids);
		else
			say(&w, NULL, "freed_by", NAN,
			    "  on resources free now");
		if (r->start > fc->from)
			shorter(&w, snap, fc, r, sh);
		break;
	case PRIO_FC_HELD:
		say(&w, NULL, "start", NAN,
		    "  our forecast: held (priority 0): it starts only when "
		    "released");
		break;
	case PRIO_FC_NEVER:
		say(&w, NULL, "start", NAN,
		    "  our forecast: never in the model");
		break;
	default:
		if (fc->until)
			say(&w, NULL, "start", NAN,
			    "  our forecast: not started by %s (%s), where the "
			    "forecast stopped",
			    prio_timestamp_format(fc->until, b1, sizeof(b1)),
			    in_text(fc->from, fc->until, b2, sizeof(b2)));
		else
			say(&w, NULL, "start", NAN,
			    "  our forecast: not started when the forecast "
			    "stopped");
		break;
	}
	/* a held job's note says what the line above said */
	if (r->note && r->status != PRIO_FC_HELD)
		say(&w, NULL, "note", NAN, "  %s", r->note);
	return w.rc;
}
