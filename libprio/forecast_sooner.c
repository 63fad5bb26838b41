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

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prio/forecast.h"
#include "prio/timestr.h"

/* Fractions of the limit tried, longest first. */
static const struct {
	uint32_t num, den;
} tried_fraction[] = {{3, 4}, {1, 2}, {1, 4}, {1, 10}};

/*
 * One limit tried: the forecast of a copy of the job list with the job's
 * limit changed, in a thread of its own when there are CPUs for it (the
 * forecast only reads the engine and the snapshot; each try has its own
 * copy of the jobs).
 */
struct shorter_try {
	const struct prio_engine *e;
	const struct prio_forecast_opts *opts;
	uint32_t job, minutes;
	time_t start;
	struct prio_job *jobs; /* this try's copy */
	bool helps;
	time_t at;
	uint8_t how;
	int rc;
	struct prio_error err;
};

static void *shorter_run(void *arg)
{
	struct shorter_try *t = arg;
	struct prio_snapshot changed = *t->e->snap;
	struct prio_engine ce = *t->e;
	struct prio_forecast_opts fo =
	    t->opts ? *t->opts : (struct prio_forecast_opts){0};
	struct prio_forecast fc;
	const struct prio_forecast_row *r;

	/* The engine keeps nothing per job (factors are computed from the
	 * job record when asked), so the same engine over the changed copy
	 * computes the changed job's priority, and every other's, afresh. */
	changed.jobs = t->jobs;
	/* the copy keeps the jobs' order, so the job-id index still holds
	 * (without this every dependency lookup scans the whole list) */
	if (changed.job_index_base == t->e->snap->jobs)
		changed.job_index_base = t->jobs;
	ce.snap = &changed;
	t->jobs[t->job].time_limit = t->minutes;
	fo.watch = &t->job;
	fo.watch_count = 1;
	/* a start no earlier than the one known is no answer: stop there */
	if (t->start && (!fo.until || t->start - 1 < fo.until))
		fo.until = t->start - 1;
	if ((t->rc = prio_forecast_run(&ce, &fo, &fc, &t->err)) < 0)
		return NULL;
	r = prio_forecast_row_of(&fc, t->job);
	if (r && r->status == PRIO_FC_STARTS && (!t->start || r->start < t->start)) {
		t->helps = true;
		t->at = r->start;
		t->how = r->how;
	}
	prio_forecast_free(&fc);
	return NULL;
}

int prio_forecast_shorter(const struct prio_engine *e,
			  const struct prio_forecast_opts *opts, uint32_t job,
			  time_t start, struct prio_forecast_shorter *out,
			  struct prio_error *err)
{
	enum { NTRY = sizeof(tried_fraction) / sizeof(tried_fraction[0]) };
	const struct prio_snapshot *snap = e->snap;
	uint32_t limit = snap->jobs[job].time_limit, m[NTRY], nm = 0;
	struct shorter_try t[NTRY];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t width = cpus > 1 ? (cpus < NTRY ? (uint32_t)cpus : NTRY) : 1;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (limit == PRIO_INFINITE || limit == PRIO_NO_VAL || limit < 2)
		return 0;
	for (size_t f = 0; f < NTRY; f++) {
		uint32_t v = (uint32_t)((uint64_t)limit * tried_fraction[f].num /
					tried_fraction[f].den);

		if (v >= 1 && v < limit && (!nm || v < m[nm - 1]))
			m[nm++] = v;
	}
	memset(t, 0, sizeof(t));
	/* `width` tries at a time, longest first; the first that helps is
	 * the answer, so a batch after it is not run */
	for (uint32_t b = 0; b < nm && !out->time_limit && rc == 0; b += width) {
		uint32_t end = b + width < nm ? b + width : nm;
		pthread_t th[NTRY];
		bool started[NTRY] = {false};

		for (uint32_t i = b; i < end; i++) {
			t[i] = (struct shorter_try){.e = e, .opts = opts, .job = job,
						    .minutes = m[i], .start = start};
			t[i].jobs = malloc((size_t)snap->job_count * sizeof(*t[i].jobs));
			if (!t[i].jobs) {
				rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
						    "out of memory");
				break;
			}
			memcpy(t[i].jobs, snap->jobs,
			       (size_t)snap->job_count * sizeof(*t[i].jobs));
		}
		for (uint32_t i = b + 1; i < end && rc == 0; i++)
			started[i] = pthread_create(&th[i], NULL, shorter_run, &t[i]) == 0;
		if (rc == 0)
			shorter_run(&t[b]);
		for (uint32_t i = b + 1; i < end; i++) {
			if (started[i])
				pthread_join(th[i], NULL);
			else if (rc == 0)
				shorter_run(&t[i]);
		}
		for (uint32_t i = b; i < end; i++) {
			free(t[i].jobs);
			t[i].jobs = NULL;
		}
		/* in order: the answer, or the first error, as one at a time */
		for (uint32_t i = b; i < end && rc == 0; i++) {
			out->tried[out->tried_count++] = m[i];
			if (t[i].rc < 0) {
				*err = t[i].err;
				rc = -1;
			} else if (t[i].helps) {
				out->time_limit = m[i];
				out->start = t[i].at;
				out->how = t[i].how;
				break;
			}
		}
	}
	return rc;
}
