/* SPDX-License-Identifier: MIT */
/*
 * Slurm's last priority calculation, found from the stored priorities of
 * the pending jobs (prio/calc_time.h).
 *
 * How it maps to Slurm: the decay thread recomputes every pending job that
 * is not held at each PriorityCalcPeriod (slurm-facts §1.1) with one clock
 * for the pass, and stores the result as the job's priority (scontrol's
 * Priority=, squeue --json's priority); with INCR_ONLY only when it grew.
 * A job submitted since the last pass carries the value computed at its
 * submission, when its age was 0: the engine gives the same at any clock
 * before its accrue time, so no job needs a case of its own.  Which
 * partition row a job of several partitions (or QOS) stored depends on
 * the partition the scheduler tried last: any of its rows may match.
 *
 * Cost: per job, two evaluations at the window's ends, and a bisection of
 * about log2(window) evaluations per partition row only when the age term
 * moves inside the window; then one pass over a count per second.  Linear
 * in the jobs, no sorting.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/calc_time.h"
#include "prio/timestr.h"

/* A calculation period longer than a day is searched over its last day. */
#define MAX_WINDOW 86400

struct search {
	struct prio_engine e; /* a shallow copy: INCR_ONLY off, see below */
	bool incr_only;
	time_t from, to;
	uint32_t *parts;
};

struct span {
	time_t lo, hi;
};

static int nomem(struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

/* The priority the controller stores for one row at clock t.  The engine
 * copy has INCR_ONLY off: the row's own value, not the max with the
 * stored one. */
static uint32_t row_at(const struct search *s, const struct prio_job *job,
		       const struct prio_job_factors *jf, uint32_t part,
		       time_t t)
{
	struct prio_job_factors a = *jf;
	struct prio_row row;

	if (s->e.weight[PRIO_FACTOR_AGE])
		a.age = prio_age_factor_at(&s->e, jf->accrue_time, t);
	prio_row_compute(&s->e, job, &a, part, &row);
	return row.priority;
}

/* Does the row's value at t explain the stored one?  Equal, or with
 * INCR_ONLY not above it (a larger value from before stays). */
static bool agrees(const struct search *s, uint32_t ours, uint32_t stored)
{
	return s->incr_only ? ours <= stored : ours == stored;
}

/* Is the row's value the same at every instant of the window?  Age is the
 * only term that moves: not weighted, not accruing, accruing only after
 * the window, or capped before it. */
static bool row_constant(const struct search *s,
			 const struct prio_job_factors *jf)
{
	time_t max_age = (time_t)s->e.snap->conf.max_age;

	return !s->e.weight[PRIO_FACTOR_AGE] || !jf->accrue_time ||
	       jf->accrue_time >= s->to || jf->accrue_time + max_age <= s->from;
}

/* The seconds of the window at which the row's value agrees with the
 * stored one: one interval, the value being non-decreasing in the clock.
 * Returns false when there is none. */
static bool row_span(const struct search *s, const struct prio_job *job,
		     const struct prio_job_factors *jf, uint32_t part,
		     struct span *out)
{
	uint32_t p = job->priority, lo_v, hi_v;
	time_t lo, hi;

	lo_v = row_at(s, job, jf, part, s->from);
	if (row_constant(s, jf)) {
		*out = (struct span){s->from, s->to};
		return agrees(s, lo_v, p);
	}
	hi_v = row_at(s, job, jf, part, s->to);
	if (s->incr_only ? lo_v > p : (p < lo_v || p > hi_v))
		return false;
	/* first second whose value reaches p (INCR_ONLY: the window's
	 * start, any lower value being kept below the stored one) */
	lo = s->from;
	if (!s->incr_only && lo_v < p) {
		time_t a = s->from, b = s->to;

		while (a < b) {
			time_t m = a + (b - a) / 2;

			if (row_at(s, job, jf, part, m) >= p)
				b = m;
			else
				a = m + 1;
		}
		lo = a;
	}
	/* last second whose value is still p */
	hi = s->to;
	if (hi_v > p) {
		time_t a = lo, b = s->to;

		while (a < b) {
			time_t m = a + (b - a + 1) / 2;

			if (row_at(s, job, jf, part, m) <= p)
				a = m;
			else
				b = m - 1;
		}
		hi = a;
	}
	*out = (struct span){lo, hi};
	return lo <= hi;
}

/* Does the search compare this job?  Pending, in a partition, not held:
 * the jobs the decay thread recomputes (slurm-facts §1.1). */
static bool compared(const struct prio_job *job)
{
	return prio_job_state_pending(job->state) &&
	       job->state != PRIO_JOB_REVOKED && job->partition_count &&
	       job->priority != 0;
}

/* Call fn on every row (partition, QOS) of the job with its factors; the
 * job's own factors (the QOS it stores with, prio_job_factors) too for a
 * job of several QOS.  Stops when fn returns true; returns that. */
typedef bool (*row_fn)(void *ctx, const struct prio_job_factors *jf,
		       uint32_t part);
static bool each_row(const struct search *s, const struct prio_job *job,
		     row_fn fn, void *ctx)
{
	struct prio_job_factors own, jf;
	uint32_t np = prio_job_partitions(&s->e, job, s->parts);
	uint32_t nq = prio_job_qos_count(job);

	prio_job_factors(&s->e, job, &own);
	for (uint32_t i = 0; i < np; i++) {
		if (nq > 1 && fn(ctx, &own, s->parts[i]))
			return true;
		for (uint32_t k = 0; k < nq; k++) {
			prio_job_factors_at(&s->e, job, &own, k, &jf);
			if (fn(ctx, &jf, s->parts[i]))
				return true;
		}
	}
	return false;
}

/* Collecting a job's spans. */
struct collect {
	const struct search *s;
	const struct prio_job *job;
	struct span *spans;
	uint32_t n, cap;
	bool nomem;
	bool moving; /* some row's value moves in the window */
};

static bool collect_row(void *ctx, const struct prio_job_factors *jf,
			uint32_t part)
{
	struct collect *c = ctx;
	struct span sp;

	c->moving = c->moving || !row_constant(c->s, jf);
	if (!row_span(c->s, c->job, jf, part, &sp))
		return false;
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 8;
		struct span *n = realloc(c->spans, cap * sizeof(*n));

		if (!n) {
			c->nomem = true;
			return true;
		}
		c->spans = n;
		c->cap = cap;
	}
	c->spans[c->n++] = sp;
	return false;
}

/* Add a job's spans to the count per second, each second once: the few
 * spans of a job are sorted by their start and merged. */
static void count_spans(struct collect *c, int32_t *diff, time_t from)
{
	struct span *sp = c->spans;

	for (uint32_t i = 1; i < c->n; i++) {
		struct span v = sp[i];
		uint32_t j = i;

		while (j > 0 && sp[j - 1].lo > v.lo) {
			sp[j] = sp[j - 1];
			j--;
		}
		sp[j] = v;
	}
	for (uint32_t i = 0; i < c->n;) {
		time_t lo = sp[i].lo, hi = sp[i].hi;

		for (i++; i < c->n && sp[i].lo <= hi + 1; i++)
			if (sp[i].hi > hi)
				hi = sp[i].hi;
		diff[lo - from]++;
		diff[hi - from + 1]--;
	}
}

/* Checking one job at one instant. */
struct check {
	const struct search *s;
	const struct prio_job *job;
	time_t at;
	uint32_t first; /* the first row's value: what --check shows */
	bool any;
};

static bool check_row(void *ctx, const struct prio_job_factors *jf,
		      uint32_t part)
{
	struct check *k = ctx;
	uint32_t v = row_at(k->s, k->job, jf, part, k->at);

	if (!k->any)
		k->first = v;
	k->any = true;
	return agrees(k->s, v, k->job->priority);
}

/* The jobs that disagree at ct->at. */
static int list_disagreeing(const struct search *s, struct prio_calc_time *ct,
			    struct prio_error *err)
{
	const struct prio_snapshot *snap = s->e.snap;

	ct->agree = 0;
	ct->ndisagree = 0;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];
		struct check k = {s, job, ct->at, 0, false};

		if (!compared(job))
			continue;
		if (each_row(s, job, check_row, &k)) {
			ct->agree++;
			continue;
		}
		if (!ct->disagree) {
			ct->disagree = malloc((size_t)ct->jobs *
					      sizeof(*ct->disagree));
			if (!ct->disagree)
				return nomem(err);
		}
		ct->disagree[ct->ndisagree++] =
		    (struct prio_calc_time_job){i, job->priority, k.first};
	}
	return PRIO_OK;
}

/* Do most of the jobs that do not move with the clock disagree?  Two at
 * least: one job set by hand does not outvote the clock of the others. */
static bool fixed_disagree(const struct prio_calc_time *ct)
{
	return ct->fixed >= 2 &&
	       (uint64_t)(ct->fixed - ct->fixed_agree) * 2 > ct->fixed;
}

/*
 * slurmctld's record of its last cycle (priority_last_decay_ran) against
 * what the search found.  The record is the instant itself, to the second,
 * where the priorities give at best a range (the seconds over which no
 * job's age term moves) or nothing at all (no age weight: PRIO_CALC_TIME_ANY,
 * or no pending job); the forecast's calculations then fall in the
 * controller's phase, not half a period off on average.  From the window
 * before NOW it is taken even where the stored priorities pin other
 * seconds, or none: the decay thread writes it at every cycle, so a record
 * that recent is the last cycle, and priorities that disagree say that our
 * values are off for some jobs (DEPTH_OBLIVIOUS siblings whose sums
 * slurmctld computed minutes before, live 22.05 and 24.11 seed 23573
 * after jobs were preempted and requeued), not when it ran.  A record after
 * NOW is of a cycle that ran while the snapshot was read, newer than the
 * stored priorities: taken only where they agree with it.
 */
static void take_record(struct prio_calc_time *ct, time_t recorded,
			time_t now)
{
	bool fits = ct->status == PRIO_CALC_TIME_ANY ||
		    ct->status == PRIO_CALC_TIME_NO_JOBS ||
		    (ct->status == PRIO_CALC_TIME_FOUND &&
		     recorded >= ct->first && recorded <= ct->last);

	ct->recorded = recorded;
	if (!recorded) {
		ct->record = PRIO_CALC_RECORD_NONE;
		return;
	}
	if (recorded < ct->from || recorded > ct->to) {
		ct->record = PRIO_CALC_RECORD_OUTSIDE;
		return;
	}
	if (!fits && recorded > now) {
		ct->record = PRIO_CALC_RECORD_DISAGREES;
		return;
	}
	ct->record = PRIO_CALC_RECORD_USED;
	ct->unfit = !fits;
	ct->fit_at = ct->status == PRIO_CALC_TIME_FOUND && !fits ? ct->at : 0;
	ct->status = PRIO_CALC_TIME_FOUND;
	ct->first = ct->last = ct->at = recorded;
}

int prio_calc_time_find(const struct prio_engine *e, struct prio_calc_time *ct,
			struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	time_t now = e->captured, period = (time_t)snap->conf.calc_period;
	struct search s;
	struct collect c;
	int32_t *diff;
	size_t width;
	int32_t best = 0, run = 0;
	int rc = PRIO_OK;

	memset(ct, 0, sizeof(*ct));
	if (period > MAX_WINDOW)
		period = MAX_WINDOW;
	memset(&s, 0, sizeof(s));
	s.e = *e;
	s.incr_only = (e->flags & PRIO_FLAG_INCR_ONLY) != 0;
	s.e.flags &= ~PRIO_FLAG_INCR_ONLY;
	s.from = now - period - PRIO_CALC_TIME_SLACK_BEFORE;
	s.to = now + PRIO_CALC_TIME_SLACK_AFTER;
	ct->from = s.from;
	ct->to = s.to;
	ct->at = now;
	width = (size_t)(s.to - s.from + 1);

	s.parts = malloc((size_t)e->max_job_partitions * sizeof(*s.parts));
	diff = calloc(width + 1, sizeof(*diff));
	memset(&c, 0, sizeof(c));
	c.s = &s;
	if (!s.parts || !diff) {
		rc = nomem(err);
		goto out;
	}
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];

		if (!compared(job))
			continue;
		ct->jobs++;
		c.job = job;
		c.n = 0;
		c.moving = false;
		each_row(&s, job, collect_row, &c);
		if (c.nomem) {
			rc = nomem(err);
			goto out;
		}
		if (!c.moving) {
			ct->fixed++;
			ct->fixed_agree += c.n > 0;
		}
		count_spans(&c, diff, s.from);
	}
	if (!ct->jobs) {
		ct->status = PRIO_CALC_TIME_NO_JOBS;
		take_record(ct, snap->last_decay_ran, now);
		goto out;
	}
	/* The seconds where the most agree; of several runs of them, the
	 * last (the latest calculation). */
	for (size_t k = 0; k < width; k++) {
		run += diff[k];
		if (run > best) {
			best = run;
			ct->first = ct->last = s.from + (time_t)k;
		} else if (run == best && best > 0) {
			if (ct->last != s.from + (time_t)k - 1)
				ct->first = s.from + (time_t)k;
			ct->last = s.from + (time_t)k;
		}
	}
	/* More than half: some jobs may carry a priority set by hand, a nice
	 * changed since, or one Slurm computed outside its pass (issue 14:
	 * a tenth of a large queue).  And more than half of the jobs that do
	 * not move with the clock: an offset common to all (a site factor,
	 * a weight changed) moves the aging jobs' best instant by seconds,
	 * but leaves those out. */
	if ((uint64_t)best * 2 <= ct->jobs || fixed_disagree(ct)) {
		ct->status = PRIO_CALC_TIME_NO_MATCH;
		ct->first = ct->last = 0;
	} else if (ct->first == s.from && ct->last == s.to) {
		ct->status = PRIO_CALC_TIME_ANY;
	} else {
		ct->status = PRIO_CALC_TIME_FOUND;
		ct->at = ct->last;
	}
	take_record(ct, snap->last_decay_ran, now);
	rc = list_disagreeing(&s, ct, err);
out:
	free(c.spans);
	free(diff);
	free(s.parts);
	if (rc < 0)
		prio_calc_time_free(ct);
	return rc;
}

int prio_calc_time_find_snapshot(const struct prio_snapshot *snap,
				 struct prio_calc_time *ct,
				 struct prio_error *err)
{
	struct prio_engine e;
	int rc;

	memset(ct, 0, sizeof(*ct));
	ct->at = snap->now;
	if ((rc = prio_engine_init(&e, snap, snap->now, err)) < 0)
		return rc;
	rc = prio_calc_time_find(&e, ct, err);
	prio_engine_free(&e);
	return rc;
}

void prio_calc_time_free(struct prio_calc_time *ct)
{
	if (!ct)
		return;
	free(ct->disagree);
	ct->disagree = NULL;
	ct->ndisagree = 0;
}

void prio_snapshot_at_calc_time(struct prio_snapshot *snap,
				const struct prio_calc_time *ct)
{
	if (ct->status == PRIO_CALC_TIME_FOUND && ct->at < snap->now &&
	    !snap->usage_rebuilt)
		snap->usage_at = ct->at;
}

void prio_engine_at_calc_time(struct prio_engine *e,
			      const struct prio_calc_time *ct)
{
	e->now = ct->at;
}

time_t prio_calc_time_next(const struct prio_calc_time *ct, time_t now,
			   time_t period)
{
	time_t lo, hi, next;

	if (period <= 0)
		return 0;
	if (ct->status != PRIO_CALC_TIME_FOUND)
		return now + period / 2;
	lo = ct->first < now - period ? now - period : ct->first;
	hi = ct->last;
	if (hi < lo || hi - lo + 1 >= period)
		return now + period / 2;
	next = lo + (hi - lo) / 2 + period;
	while (next <= now)
		next += period;
	return next;
}

const char *prio_calc_time_describe(const struct prio_calc_time *ct,
				    char *buf, size_t size)
{
	char a[32], b[32];

	switch (ct->status) {
	case PRIO_CALC_TIME_FOUND:
		prio_timestamp_format(ct->at, a, sizeof(a));
		if (ct->record == PRIO_CALC_RECORD_USED && !ct->jobs)
			snprintf(buf, size,
				 "%s (%lld), slurmctld's record of it "
				 "(priority_last_decay_ran); no pending job's "
				 "stored priority to check it against",
				 a, (long long)ct->at);
		else if (ct->record == PRIO_CALC_RECORD_USED && ct->unfit) {
			if (ct->fit_at)
				prio_timestamp_format(ct->fit_at, b, sizeof(b));
			snprintf(buf, size,
				 "%s (%lld), slurmctld's record of it "
				 "(priority_last_decay_ran), where %u of %u "
				 "pending jobs' stored priorities agree (%s%s)",
				 a, (long long)ct->at, ct->agree, ct->jobs,
				 ct->fit_at ? "more agree with ours at "
					    : "at no instant do more than "
					      "half agree with ours",
				 ct->fit_at ? b : "");
		}
		else if (ct->record == PRIO_CALC_RECORD_USED)
			snprintf(buf, size,
				 "%s (%lld), slurmctld's record of it "
				 "(priority_last_decay_ran), where %u of %u "
				 "pending jobs' stored priorities agree",
				 a, (long long)ct->at, ct->agree, ct->jobs);
		else if (ct->first != ct->last)
			snprintf(buf, size,
				 "%s (%lld; the last of %lld seconds that "
				 "fit), where %u of %u pending jobs' stored "
				 "priorities agree",
				 a, (long long)ct->at,
				 (long long)(ct->last - ct->first + 1),
				 ct->agree, ct->jobs);
		else
			snprintf(buf, size,
				 "%s (%lld), where %u of %u pending jobs' "
				 "stored priorities agree",
				 a, (long long)ct->at, ct->agree, ct->jobs);
		break;
	case PRIO_CALC_TIME_ANY:
		snprintf(buf, size,
			 "not pinned: %u of %u pending jobs' stored priorities "
			 "agree at every instant of the last "
			 "PriorityCalcPeriod (none depends on the clock)",
			 ct->agree, ct->jobs);
		break;
	case PRIO_CALC_TIME_NO_JOBS:
		snprintf(buf, size, "not found: no pending job with a stored "
				    "priority (held jobs have none)");
		break;
	case PRIO_CALC_TIME_NO_MATCH:
		prio_timestamp_format(ct->from, a, sizeof(a));
		prio_timestamp_format(ct->to, b, sizeof(b));
		if (fixed_disagree(ct))
			snprintf(buf, size,
				 "not found: %u of %u pending jobs whose "
				 "priority does not move with the clock "
				 "disagree with ours at any instant (changed "
				 "configuration, site factor, priorities set "
				 "by hand?)",
				 ct->fixed - ct->fixed_agree, ct->fixed);
		else
			snprintf(buf, size,
				 "not found: between %s and %s no instant "
				 "where more than half of %u pending jobs' "
				 "stored priorities agree with ours (changed "
				 "configuration, site factor, priorities set "
				 "by hand?)",
				 a, b, ct->jobs);
		break;
	}
	if (ct->record == PRIO_CALC_RECORD_OUTSIDE ||
	    ct->record == PRIO_CALC_RECORD_DISAGREES) {
		size_t n = strlen(buf);

		prio_timestamp_format(ct->recorded, a, sizeof(a));
		if (n < size)
			snprintf(buf + n, size - n,
				 "; slurmctld's record (priority_last_decay_ran) "
				 "says %s, %s", a,
				 ct->record != PRIO_CALC_RECORD_OUTSIDE
				     ? "where the stored priorities do not "
				       "fit"
				 : ct->recorded > ct->to
				     ? "after the window searched (a "
				       "calculation that ran while the "
				       "snapshot was read?)"
				     : "before the window searched (a stale "
				       "file?)");
	}
	return buf;
}
