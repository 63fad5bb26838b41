/* SPDX-License-Identifier: MIT */
/*
 * Usage decay and replay (slurm-facts §4), see prio/usage.h.
 *
 * One job's contribution at the evaluation time `at`, with cycles at
 * c = at - k·P:
 *  - at every cycle c it runs through (start s < c, still running), Slurm
 *    adds Δ·d^Δ with Δ = c - max(c - P, s) (a whole period but the first),
 *    which then decays by d^(at - c);
 *  - when it ends at e, it adds Δ·d^Δ with Δ = e - max(c', s), c' the last
 *    cycle before e, which the next cycle decays over the whole period: so
 *    it carries d^(at - c').
 * The whole periods form a geometric series, so each job costs O(1) however
 * long it ran, and a replay is linear in the number of records.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/advance.h"
#include "prio/billing.h"
#include "prio/timestr.h"
#include "prio/usage.h"

long double prio_usage_decay_factor(uint32_t half_life)
{
	if (half_life == 0)
		return 1.0L;
	/* Slurm computes it as a double. */
	return (long double)(1.0 - 0.693 / (double)half_life);
}

time_t prio_usage_last_reset(enum prio_reset_period period, time_t t)
{
	struct tm tm;

	if (period == PRIO_RESET_NONE || period == PRIO_RESET_NOW ||
	    !localtime_r(&t, &tm))
		return 0;
	tm.tm_sec = tm.tm_min = tm.tm_hour = 0;
	tm.tm_isdst = -1;
	switch (period) {
	case PRIO_RESET_WEEKLY:
		tm.tm_mday -= tm.tm_wday; /* back to Sunday */
		break;
	case PRIO_RESET_MONTHLY:
		tm.tm_mday = 1;
		break;
	case PRIO_RESET_QUARTERLY:
		tm.tm_mday = 1;
		tm.tm_mon -= tm.tm_mon % 3;
		break;
	case PRIO_RESET_YEARLY:
		tm.tm_mday = 1;
		tm.tm_mon = 0;
		break;
	default: /* DAILY */
		break;
	}
	return mktime(&tm);
}

/* The grid and decay one evaluation shares. */
struct grid {
	time_t at;	/* evaluation time, a cycle */
	int64_t period; /* PriorityCalcPeriod, seconds */
	long double d;	/* per-second decay */
	time_t reset;	/* first cycle at or after the last reset, 0 none */
	double ln_d;	/* log(d), for d^x = exp(x log d) */
};

/* d^secs.  Slurm computes its powers of d in double; exp(x log d) is as
 * exact there and several times faster than powl, which a replay of
 * millions of records would spend most of its time in. */
static long double dpow(const struct grid *g, long double secs)
{
	return g->d == 1.0L ? 1.0L : (long double)exp((double)secs * g->ln_d);
}

/* Largest cycle strictly before t. */
static time_t cycle_before(const struct grid *g, time_t t)
{
	int64_t k = (int64_t)(g->at - t) / g->period + 1;

	return g->at - k * g->period;
}

/* Smallest cycle strictly after t (t < at). */
static time_t cycle_after(const struct grid *g, time_t t)
{
	int64_t k = ((int64_t)(g->at - t) - 1) / g->period;

	return g->at - k * g->period;
}

/* Σ over whole-period cycles a, a+P, ..., b of P·d^P·d^(at - c). */
static long double whole_cycles(const struct grid *g, time_t a, time_t b)
{
	int64_t n;
	long double p = (long double)g->period, dp;

	if (b < a)
		return 0;
	n = (b - a) / g->period + 1;
	dp = dpow(g, p);
	if (dp == 1.0L)
		return p * (long double)n;
	return p * dp * dpow(g, (long double)(g->at - b)) *
	       (1.0L - dpow(g, p * (long double)n)) / (1.0L - dp);
}

/*
 * Usage per unit of billing a job running from s to e (e = 0: still running
 * at g->at) has left at g->at.  s < g->at.
 */
static long double job_usage(const struct grid *g, time_t s, time_t e)
{
	long double sum = 0;
	time_t first = cycle_after(g, s), last;

	if (e && e > g->at)
		e = 0;
	last = e ? cycle_before(g, e) : g->at;
	if (first <= last) {
		time_t from = first;

		if (g->reset > from)
			from = cycle_after(g, g->reset - 1);
		if (from == first) {
			long double delta = (long double)(first - s);

			if (delta > (long double)g->period)
				delta = (long double)g->period;
			sum += delta * dpow(g, delta) *
			       dpow(g, (long double)(g->at - first));
			from = first + g->period;
		}
		sum += whole_cycles(g, from, last);
	}
	if (e && e > s && (!g->reset || e >= g->reset)) {
		time_t prev = cycle_before(g, e);
		long double delta = (long double)(e - (prev > s ? prev : s));

		sum += delta * dpow(g, delta) *
		       dpow(g, (long double)(g->at - prev));
	}
	return sum;
}

static void grid_init(struct grid *g, const struct prio_snapshot *snap,
		      time_t at)
{
	time_t reset;

	g->at = at;
	g->period = snap->conf.calc_period ? snap->conf.calc_period : 300;
	g->d = prio_usage_decay_factor(snap->conf.decay_half_life);
	g->ln_d = log((double)g->d);
	reset = prio_usage_last_reset(snap->conf.reset_period, at);
	g->reset = reset ? cycle_after(g, reset - 1) : 0;
}

/*
 * Billing of an allocation in a partition, times the QOS UsageFactor.
 * Slurm computes a job's billing once, when it is allocated, and keeps it
 * (flags-max-tres: jobs started before MAX_TRES keep their SUM billing), so
 * the billing= the record carries (truncated) wins over ours when the two
 * disagree; otherwise ours, unrounded, is what Slurm charged.
 */
static double job_billing(const struct prio_snapshot *snap,
			  const struct prio_tres_list *alloc, prio_id partition,
			  prio_id qos)
{
	const struct prio_partition *p =
	    partition ? prio_snapshot_partition(snap, partition) : NULL;
	const struct prio_qos *q = qos ? prio_snapshot_qos(snap, qos) : NULL;
	double b = prio_billing_list(
	    &snap->tres, alloc, p ? &p->billing_weights : NULL,
	    prio_billing_rule_of(&snap->conf));
	uint64_t recorded =
	    prio_tres_list_get(alloc, PRIO_TRES_BILLING, UINT64_MAX);

	if (recorded != UINT64_MAX && prio_billing_truncate(b) != recorded)
		b = (double)recorded;

	if (q && q->usage_factor >= 0)
		b *= q->usage_factor;
	return b;
}

static prio_id job_partition(const struct prio_job *job)
{
	return job->partition_count ? job->partitions[0] : PRIO_NO_ID;
}

/* The association a running (or suspended) job of the job list charges;
 * PRIO_ASSOC_NONE when it is not running or has no association. */
static uint32_t running_assoc(const struct prio_snapshot *snap,
			      const struct prio_job *job)
{
	if (!prio_job_state_allocated(job->state) || !job->start_time)
		return PRIO_ASSOC_NONE;
	return prio_snapshot_job_assoc(snap, job, job_partition(job));
}

double prio_usage_job_rate(const struct prio_snapshot *snap,
			   const struct prio_job *job, prio_id partition)
{
	return job_billing(snap,
			   job->tres_alloc.count ? &job->tres_alloc
						 : &job->tres_req,
			   partition, job->qos);
}

static double running_billing(const struct prio_snapshot *snap,
			      const struct prio_job *job)
{
	return prio_usage_job_rate(snap, job, job_partition(job));
}

/* Add u to an association and every ancestor. */
static void charge(struct prio_snapshot *snap, uint32_t i, long double u)
{
	for (; i != PRIO_ASSOC_NONE; i = snap->assocs[i].parent)
		snap->assocs[i].usage_raw += u;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int need_tree(const struct prio_snapshot *snap, struct prio_error *err)
{
	if (snap->assoc_count == 0 || snap->assocs[0].parent != PRIO_ASSOC_NONE)
		return prio_error_set(
		    err, PRIO_ERR_MISSING, "", 0, "",
		    "no association tree loaded (give --assoc)");
	return PRIO_OK;
}

/* A running job's end for accrual: its end time, snap->now with no_run. */
static time_t running_end(const struct prio_snapshot *snap, time_t end_time,
			  bool no_run)
{
	if (no_run)
		return snap->now;
	return end_time;
}

/* A replay under way: prio_usage_replay_begin() to _end(). */
struct prio_usage_replay_run {
	struct prio_snapshot *snap;
	struct grid g;
	time_t at;
	bool no_run;
	uint32_t *running, nrunning; /* job ids from the job list, sorted */
	struct prio_usage_replay_stats st;
};

struct prio_usage_replay_run *prio_usage_replay_begin(struct prio_snapshot *snap,
						      time_t at, bool no_run,
						      struct prio_error *err)
{
	struct prio_usage_replay_run *r;

	if (need_tree(snap, err) < 0)
		return NULL;
	if (!(r = calloc(1, sizeof(*r))) ||
	    (snap->job_count &&
	     !(r->running = malloc((size_t)snap->job_count * sizeof(*r->running))))) {
		free(r);
		prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
		return NULL;
	}
	r->snap = snap;
	r->at = at;
	r->no_run = no_run;
	snap->usage_rebuilt = true;
	snap->usage_at = 0;
	grid_init(&r->g, snap, at);
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		snap->assocs[i].usage_raw = 0;
		snap->assocs[i].usage_known = true;
	}
	/* Running jobs from the job list: their allocation is current. */
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		uint32_t a;
		time_t e;

		if (!prio_job_state_allocated(job->state) || !job->start_time)
			continue;
		r->running[r->nrunning++] = job->job_id;
		if (job->start_time >= at) {
			r->st.after++;
			continue;
		}
		if ((a = running_assoc(snap, job)) == PRIO_ASSOC_NONE) {
			r->st.no_assoc++;
			continue;
		}
		e = running_end(snap, job->end_time, no_run);
		charge(snap, a,
		       job_usage(&r->g, job->start_time, e) *
			   running_billing(snap, job));
		r->st.jobs++;
		r->st.from_jobs++;
		r->st.running += !e || e > at;
	}
	if (r->nrunning)
		qsort(r->running, r->nrunning, sizeof(*r->running), cmp_u32);
	return r;
}

void prio_usage_replay_add(struct prio_usage_replay_run *r,
			   const struct prio_sacct_rec *rec)
{
	struct prio_snapshot *snap = r->snap;
	uint32_t a;
	time_t e;

	if (rec->is_step)
		return;
	if (r->nrunning && bsearch(&rec->job_id, r->running, r->nrunning,
				   sizeof(*r->running), cmp_u32))
		return;
	if (!rec->start || rec->state == PRIO_JOB_PENDING) {
		r->st.no_start++;
		return;
	}
	if (rec->start >= r->at) {
		r->st.after++;
		return;
	}
	a = prio_snapshot_assoc(snap, rec->account, rec->user, rec->partition);
	if (a == PRIO_ASSOC_NONE)
		a = prio_snapshot_assoc(snap, rec->account, rec->user, PRIO_NO_ID);
	if (a == PRIO_ASSOC_NONE) {
		a = prio_snapshot_assoc(snap, rec->account, PRIO_NO_ID,
					PRIO_NO_ID);
		if (a == PRIO_ASSOC_NONE) {
			r->st.no_assoc++;
			return;
		}
		r->st.account_only++;
	}
	e = rec->end;
	if (!e) {
		/* Still running when sacct was taken. */
		time_t limit = rec->time_limit != PRIO_INFINITE &&
				       rec->time_limit != PRIO_NO_VAL
				   ? rec->start + (time_t)rec->time_limit * 60
				   : 0;

		e = running_end(snap, limit, r->no_run);
	}
	charge(snap, a,
	       job_usage(&r->g, rec->start, e) *
		   job_billing(snap, &rec->alloc_tres, rec->partition, rec->qos));
	r->st.jobs++;
	r->st.running += !e || e > r->at;
}

void prio_usage_replay_end(struct prio_usage_replay_run *r,
			   struct prio_usage_replay_stats *stats)
{
	if (!r)
		return;
	if (stats)
		*stats = r->st;
	free(r->running);
	free(r);
}

int prio_usage_replay(struct prio_snapshot *snap, time_t at, bool no_run,
		      struct prio_usage_replay_stats *stats,
		      struct prio_error *err)
{
	struct prio_usage_replay_run *r =
	    prio_usage_replay_begin(snap, at, no_run, err);

	if (!r)
		return err->status;
	for (uint32_t i = 0; i < snap->sacct_count; i++)
		prio_usage_replay_add(r, &snap->sacct[i]);
	prio_usage_replay_end(r, stats);
	return PRIO_OK;
}

bool prio_usage_needs_replay(const struct prio_snapshot *snap)
{
	if (!snap->sacct_count)
		return false;
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		if (snap->assocs[i].usage_known)
			return false;
	return true;
}

int prio_usage_advance(struct prio_snapshot *snap, time_t at, bool no_run,
		       struct prio_error *err)
{
	/* the jobs to charge with no_run: none */
	static const struct prio_running none;
	int rc;

	if ((rc = need_tree(snap, err)) < 0)
		return rc;
	if (at < snap->now)
		return prio_error_set(
		    err, PRIO_ERR_USAGE, "", 0, "--at",
		    "a time before the snapshot needs --replay (usage "
		    "cannot be un-decayed)");
	/* one mover for every tool: prio-calc --at and the forecast take
	 * the same cycles, charges and resets */
	return prio_snapshot_advance_running(snap, at, no_run ? &none : NULL,
					     0, NULL, err);
}

int prio_usage_previous_cycle(const struct prio_snapshot *snap, time_t at,
			      unsigned cycles, long double *prev,
			      double *scale, struct prio_error *err)
{
	struct grid g;
	long double dp;
	int rc;

	if ((rc = need_tree(snap, err)) < 0)
		return rc;
	if (!at)
		at = snap->now;
	grid_init(&g, snap, at);
	dp = dpow(&g, (long double)g.period);
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		prev[i] = snap->assocs[i].usage_raw;
	for (unsigned k = 0; k < cycles; k++) {
		time_t cycle = at - (time_t)k * g.period;

		for (uint32_t j = 0; j < snap->job_count; j++) {
			const struct prio_job *job = &snap->jobs[j];
			uint32_t a = running_assoc(snap, job);
			long double delta;

			if (a == PRIO_ASSOC_NONE || job->start_time >= cycle)
				continue;
			delta = (long double)(cycle - job->start_time);
			if (delta > (long double)g.period)
				delta = (long double)g.period;
			delta *= dpow(&g, delta) * running_billing(snap, job);
			for (uint32_t i = a; i != PRIO_ASSOC_NONE;
			     i = snap->assocs[i].parent)
				prev[i] -= delta;
		}
		for (uint32_t i = 0; i < snap->assoc_count; i++)
			prev[i] = prev[i] > 0 ? prev[i] / dp : 0;
	}
	if (scale)
		*scale = (double)powl(1.0L / dp, (long double)cycles);
	return PRIO_OK;
}

int prio_usage_tres_run_mins(const struct prio_snapshot *snap, time_t t,
			     uint64_t *out, struct prio_error *err)
{
	uint32_t nt = snap->tres.count;
	const char *enforce = snap->conf.accounting_storage_enforce;
	uint64_t *secs;
	int rc;

	if ((rc = need_tree(snap, err)) < 0)
		return rc;
	memset(out, 0, (size_t)snap->assoc_count * nt * sizeof(*out));
	if (!enforce || !strcasestr(enforce, "limits") || !nt)
		return PRIO_OK;
	secs = out; /* sum seconds in place, then turn them into minutes */
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		uint32_t a = running_assoc(snap, job);
		uint64_t left;

		if (a == PRIO_ASSOC_NONE || !job->end_time ||
		    job->end_time <= t)
			continue;
		left = (uint64_t)(job->end_time - t);
		for (uint32_t k = 0; k < job->tres_alloc.count; k++) {
			const struct prio_tres_count *c =
			    &job->tres_alloc.items[k];

			if (c->tres >= nt)
				continue;
			for (uint32_t i = a; i != PRIO_ASSOC_NONE;
			     i = snap->assocs[i].parent)
				secs[(size_t)i * nt + c->tres] +=
				    c->count * left;
		}
	}
	for (size_t k = 0; k < (size_t)snap->assoc_count * nt; k++)
		out[k] = secs[k] / 60;
	return PRIO_OK;
}
