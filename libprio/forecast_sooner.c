/* SPDX-License-Identifier: MIT */
/*
 * What would bring a pending job's start forward (issue 15): the forecast
 * run again with only that job changed, so the answer is checked, not
 * guessed.  The change tried is a shorter time limit: a user can lower a
 * pending job's limit (scontrol update TimeLimit=, which may only lower it),
 * and a shorter run is what lets the backfill scheduler slip a job into a
 * gap ahead of its turn.  Limits are tried longest first, so the answer is
 * the least a user has to give up among them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prio/forecast.h"
#include "prio/timestr.h"

/* Fractions of the limit tried, longest first. */
static const struct {
	uint32_t num, den;
} tried_fraction[] = {{3, 4}, {1, 2}, {1, 4}, {1, 10}};

int prio_forecast_shorter(const struct prio_engine *e,
			  const struct prio_forecast_opts *opts, uint32_t job,
			  time_t start, struct prio_forecast_shorter *out,
			  struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_job *jb = &snap->jobs[job];
	struct prio_snapshot changed;
	struct prio_engine ce;
	struct prio_job *jobs;
	uint32_t limit = jb->time_limit;

	memset(out, 0, sizeof(*out));
	if (limit == PRIO_INFINITE || limit == PRIO_NO_VAL || limit < 2)
		return 0;
	jobs = malloc((size_t)snap->job_count * sizeof(*jobs));
	if (!jobs)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	memcpy(jobs, snap->jobs, (size_t)snap->job_count * sizeof(*jobs));
	/* The engine keeps nothing per job (factors are computed from the
	 * job record when asked), so the same engine over the changed copy
	 * computes the changed job's priority, and every other's, afresh. */
	changed = *snap;
	changed.jobs = jobs;
	ce = *e;
	ce.snap = &changed;
	for (size_t f = 0;
	     f < sizeof(tried_fraction) / sizeof(tried_fraction[0]); f++) {
		uint32_t m = (uint32_t)((uint64_t)limit * tried_fraction[f].num /
					tried_fraction[f].den);
		struct prio_forecast_opts fo = opts ? *opts : (struct prio_forecast_opts){0};
		struct prio_forecast fc;
		const struct prio_forecast_row *r = NULL;

		if (m < 1 || m >= limit ||
		    (out->tried_count && m >= out->tried[out->tried_count - 1]))
			continue;
		out->tried[out->tried_count++] = m;
		jobs[job].time_limit = m;
		fo.watch = &job;
		fo.watch_count = 1;
		/* a start no earlier than the one known is no answer: stop
		 * there */
		if (start && (!fo.until || start - 1 < fo.until))
			fo.until = start - 1;
		if (prio_forecast_run(&ce, &fo, &fc, err) < 0) {
			free(jobs);
			return -1;
		}
		r = prio_forecast_row_of(&fc, job);
		if (r && r->status == PRIO_FC_STARTS &&
		    (!start || r->start < start)) {
			out->time_limit = m;
			out->start = r->start;
			out->how = r->how;
			prio_forecast_free(&fc);
			break;
		}
		prio_forecast_free(&fc);
	}
	free(jobs);
	return 0;
}
