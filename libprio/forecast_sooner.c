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
 * copy of the jobs).  A try made while the forecast it is to beat still
 * runs (prio_forecast_when()) has no start yet: it runs until `bound`
 * names one, and is judged against it after.
 */
struct shorter_try {
	const struct prio_engine *e;
	const struct prio_forecast_opts *opts;
	uint32_t job, minutes;
	time_t start;               /* to beat; 0: not known yet */
	const atomic_llong *bound;  /* with start 0: the last instant that
				     * matters, once known */
	atomic_llong own;           /* with start: start - 1 */
	struct prio_job *jobs;      /* this try's copy */
	bool started;
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
	/* a start no earlier than the one known is no answer: the run stops
	 * past start - 1.  As a bound, not as until: the run is the whole
	 * forecast's up to there (until would also keep an end due at start
	 * out of the pass one second before, where the forecast takes both
	 * in one pass) */
	if (t->start) {
		atomic_init(&t->own, (long long)t->start - 1);
		fo.bound = &t->own;
	} else {
		fo.bound = t->bound;
	}
	if ((t->rc = prio_forecast_run(&ce, &fo, &fc, &t->err)) < 0)
		return NULL;
	r = prio_forecast_row_of(&fc, t->job);
	if (r && r->status == PRIO_FC_STARTS) {
		t->started = true;
		t->at = r->start;
		t->how = r->how;
	}
	prio_forecast_free(&fc);
	return NULL;
}

enum { NTRY = sizeof(tried_fraction) / sizeof(tried_fraction[0]) };

/* The limits tried for a job of `limit` minutes, longest first, into m[];
 * how many (none without a finite limit of two minutes or more). */
static uint32_t tried_limits(uint32_t limit, uint32_t m[NTRY])
{
	uint32_t nm = 0;

	if (limit == PRIO_INFINITE || limit == PRIO_NO_VAL || limit < 2)
		return 0;
	for (size_t f = 0; f < NTRY; f++) {
		uint32_t v = (uint32_t)((uint64_t)limit * tried_fraction[f].num /
					tried_fraction[f].den);

		if (v >= 1 && v < limit && (!nm || v < m[nm - 1]))
			m[nm++] = v;
	}
	return nm;
}

/* How many tries run at once: one per CPU, up to the limits tried. */
static uint32_t tries_at_once(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 1 ? (cpus < NTRY ? (uint32_t)cpus : NTRY) : 1;
}

/* The copies of the jobs of tries t[b .. end) freed. */
static void tries_free(struct shorter_try *t, uint32_t b, uint32_t end)
{
	for (uint32_t i = b; i < end; i++) {
		free(t[i].jobs);
		t[i].jobs = NULL;
	}
}

/* Tries t[b .. end) set up (their copy of the jobs); -1 out of memory,
 * with every copy freed. */
static int tries_init(struct shorter_try *t, uint32_t b, uint32_t end,
		      const struct prio_engine *e,
		      const struct prio_forecast_opts *opts, uint32_t job,
		      const uint32_t *m, time_t start, const atomic_llong *bound,
		      struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;

	for (uint32_t i = b; i < end; i++) {
		t[i] = (struct shorter_try){.e = e, .opts = opts, .job = job,
					    .minutes = m[i], .start = start,
					    .bound = bound};
		t[i].jobs = malloc((size_t)snap->job_count * sizeof(*t[i].jobs));
		if (!t[i].jobs) {
			tries_free(t, b, i);
			return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					      "out of memory");
		}
		memcpy(t[i].jobs, snap->jobs,
		       (size_t)snap->job_count * sizeof(*t[i].jobs));
	}
	return 0;
}

/*
 * Tries t[b .. end) judged in order against `start` (0: the job did not
 * start): the answer, or the first error, as if run one at a time.  Their
 * copies freed.  1 when one helps (*out filled), 0 when none, -1 on error.
 */
static int tries_judge(struct shorter_try *t, uint32_t b, uint32_t end,
		       time_t start, struct prio_forecast_shorter *out,
		       struct prio_error *err)
{
	int rc = 0;

	tries_free(t, b, end);
	for (uint32_t i = b; i < end && rc == 0; i++) {
		out->tried[out->tried_count++] = t[i].minutes;
		if (t[i].rc < 0) {
			*err = t[i].err;
			rc = -1;
		} else if (t[i].started && (!start || t[i].at < start)) {
			out->time_limit = t[i].minutes;
			out->start = t[i].at;
			out->how = t[i].how;
			rc = 1;
		}
	}
	return rc;
}

/* Threads for tries t[from .. end) (started[i] false: none could be made;
 * tries_join() runs it in this thread). */
static void tries_spawn(struct shorter_try *t, pthread_t *th, bool *started,
			uint32_t from, uint32_t end)
{
	for (uint32_t i = from; i < end; i++)
		started[i] = pthread_create(&th[i], NULL, shorter_run, &t[i]) == 0;
}

/* Each try t[b .. end) finished: its thread joined, or (run_here) run in
 * this thread when none could be made. */
static void tries_join(struct shorter_try *t, pthread_t *th, bool *started,
		       uint32_t b, uint32_t end, bool run_here)
{
	for (uint32_t i = b; i < end; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else if (run_here)
			shorter_run(&t[i]);
		started[i] = false;
	}
}

/* The batches of tries from m[b] on, each `width` at a time, until one
 * helps (the first that does is the answer: later batches are not run). */
static int tries_batches(const struct prio_engine *e,
			 const struct prio_forecast_opts *opts, uint32_t job,
			 time_t start, const uint32_t *m, uint32_t nm,
			 uint32_t b, struct prio_forecast_shorter *out,
			 struct prio_error *err)
{
	uint32_t width = tries_at_once();
	struct shorter_try t[NTRY];
	int rc = 0;

	memset(t, 0, sizeof(t));
	for (; b < nm && rc == 0; b += width) {
		uint32_t end = b + width < nm ? b + width : nm;
		pthread_t th[NTRY];
		bool started[NTRY] = {false};

		if (tries_init(t, b, end, e, opts, job, m, start, NULL, err) < 0)
			return -1;
		/* the first of the batch in this thread */
		tries_spawn(t, th, started, b + 1, end);
		shorter_run(&t[b]);
		tries_join(t, th, started, b + 1, end, true);
		rc = tries_judge(t, b, end, start, out, err);
	}
	return rc < 0 ? -1 : 0;
}

int prio_forecast_shorter(const struct prio_engine *e,
			  const struct prio_forecast_opts *opts, uint32_t job,
			  time_t start, struct prio_forecast_shorter *out,
			  struct prio_error *err)
{
	uint32_t m[NTRY], nm;

	memset(out, 0, sizeof(*out));
	nm = tried_limits(e->snap->jobs[job].time_limit, m);
	return tries_batches(e, opts, job, start, m, nm, 0, out, err);
}

int prio_forecast_when(const struct prio_engine *e,
		       const struct prio_forecast_opts *opts, uint32_t job,
		       struct prio_forecast *fc,
		       struct prio_forecast_shorter *out, struct prio_error *err)
{
	uint32_t m[NTRY], nm, first;
	struct shorter_try t[NTRY];
	pthread_t th[NTRY];
	bool started[NTRY] = {false};
	atomic_llong bound = 0;
	const struct prio_forecast_row *r;
	time_t start = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(t, 0, sizeof(t));
	nm = e->snap->jobs[job].state == PRIO_JOB_PENDING
		 ? tried_limits(e->snap->jobs[job].time_limit, m)
		 : 0;
	/* the first batch of tries runs beside the forecast (one CPU to
	 * spare at least), bounded once the forecast gives the start */
	first = tries_at_once() > 1 && nm ? tries_at_once() : 0;
	if (first > nm)
		first = nm;
	if (first && tries_init(t, 0, first, e, opts, job, m, 0, &bound,
				err) < 0)
		return -1;
	tries_spawn(t, th, started, 0, first);
	rc = prio_forecast_run(e, opts, fc, err);
	r = rc < 0 ? NULL : prio_forecast_row_of(fc, job);
	if (r && r->status == PRIO_FC_STARTS && r->start > fc->from)
		start = r->start;
	/* nothing to beat (or an error): the tries stop at their next
	 * event, their answers unread */
	atomic_store(&bound, start ? (long long)start - 1 : 1);
	/* a try no thread could be made for runs here, bounded by the start
	 * (set only on those: the others read theirs) */
	for (uint32_t i = 0; i < first; i++)
		if (!started[i])
			t[i].start = start;
	tries_join(t, th, started, 0, first, start != 0);
	if (rc < 0 || !start) {
		tries_free(t, 0, first);
		return rc;
	}
	rc = tries_judge(t, 0, first, start, out, err);
	if (rc == 0)
		rc = tries_batches(e, opts, job, start, m, nm, first, out, err);
	if (rc < 0) {
		prio_forecast_free(fc);
		return -1;
	}
	return 0;
}
