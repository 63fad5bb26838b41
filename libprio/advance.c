/* SPDX-License-Identifier: MIT */
/*
 * Usage at a later time (slurm-facts §4): what Slurm's decay thread does to
 * RawUsage between the snapshot and `at`, with the cycles counted from the
 * instant the usage is of (Slurm's last calculation when found, else the
 * snapshot's clock) every PriorityCalcPeriod and a last, shorter cycle
 * ending at `at`.
 *
 * Each cycle multiplies every usage by d^Δ (Δ the cycle's length, so the
 * whole interval decays by d^(at - now) however it is cut), then adds each
 * running job's new usage L·d^L·billing·UsageFactor, L the part of the
 * cycle it ran.  A job that ends inside a cycle adds its last part at its
 * end, and that part is decayed by the cycle it fell in.  Runs of whole
 * cycles are summed as a geometric series, so a month ahead costs no more
 * than a minute ahead.  A PriorityUsageResetPeriod boundary in between
 * zeroes everything at the first cycle at or after it, which then adds
 * its own charge.
 */
#include "config.h"

#include <float.h>
#include <math.h>

#include "prio/advance.h"
#include "prio/usage.h"

struct cycles {
	double base, at, period; /* seconds */
	double m;                /* number of cycles; the last ends at `at` */
	double d;                /* decay per second */
	/* The cycle at which PriorityUsageResetPeriod zeroes the usage (the
	 * first at or after its boundary): what was added before it is gone,
	 * and that cycle adds its own charge after the reset.  0: none. */
	double kr;
	struct prio_decay_memo *memo; /* may be NULL */
	/* job_usage() of a job running from before base to at or later:
	 * the same for every such job (s is clamped to base, or to the
	 * reset's cycle, and no test reads e past at), so one computation
	 * serves them all, bit for bit; NAN until the first needs it */
	double whole;
};

/* End of cycle k (1-based); cycle 0 ends at the usage's time (base). */
static double cycle_end(const struct cycles *c, double k)
{
	return k >= c->m ? c->at : c->base + k * c->period;
}

static double decay(const struct cycles *c, double secs)
{
	const struct prio_decay_memo *m = c->memo;

	if (c->d == 1.0)
		return 1.0;
	if (m && secs >= 0 && secs < (double)m->len &&
	    secs == (double)(uint32_t)secs) {
		double *v = &m->pow[(uint32_t)secs];

		if (*v == 0.0)
			*v = pow(c->d, secs);
		return *v;
	}
	return pow(c->d, secs);
}

/* Usage a job running from s to e (e may be +inf) adds by `at`, per unit of
 * billing. */
static double job_usage(const struct cycles *c, double s, double e)
{
	double total = 0.0;
	double k;

	if (c->kr > 0.0) {
		/* added before the reset cycle: zeroed by it (a job that
		 * ended inside that cycle added its last part at its end) */
		if (e < cycle_end(c, c->kr))
			return 0.0;
		if (s < cycle_end(c, c->kr - 1.0))
			s = cycle_end(c, c->kr - 1.0);
	}
	if (s < c->base)
		s = c->base;
	if (e <= s || s >= c->at)
		return 0.0;
	k = floor((s - c->base) / c->period) + 1.0;
	if (k > c->m)
		k = c->m;
	while (k <= c->m) {
		double start = cycle_end(c, k - 1.0), end = cycle_end(c, k);
		double lo = s > start ? s : start;

		if (e < end) { /* ends inside: added at its end */
			double len = e - lo;
			if (len > 0)
				total += len * decay(c, len) *
					 decay(c, c->at - start);
			break;
		}
		if (lo == start && k < c->m) {
			/* whole cycles k..kf, each P·d^P decayed to `at` */
			double last = e < c->at ? e : c->at;
			double kf = floor((last - c->base) / c->period);
			double r, cnt, sum;

			if (kf > c->m - 1.0)
				kf = c->m - 1.0;
			cnt = kf - k + 1.0;
			r = decay(c, c->period);
			sum = r == 1.0 ? cnt : (1.0 - pow(r, cnt)) / (1.0 - r);
			total += c->period * r * decay(c, c->at - cycle_end(c, kf)) *
				 sum;
			k = kf + 1.0;
			continue;
		}
		total += (end - lo) * decay(c, end - lo) * decay(c, c->at - end);
		k += 1.0;
	}
	return total;
}

time_t prio_snapshot_usage_time(const struct prio_snapshot *snap)
{
	return snap->usage_at ? snap->usage_at : snap->now;
}

static void cycles_of(const struct prio_snapshot *snap, time_t at,
		      struct cycles *c)
{
	const struct prio_config *conf = &snap->conf;
	time_t reset;

	c->base = (double)prio_snapshot_usage_time(snap);
	c->at = (double)at;
	c->period = conf->calc_period ? (double)conf->calc_period : 300.0;
	c->m = ceil((c->at - c->base) / c->period);
	c->d = conf->decay_half_life
		   ? 1.0 - 0.693 / (double)conf->decay_half_life
		   : 1.0;
	c->memo = NULL;
	c->whole = NAN;
	reset = prio_usage_last_reset(conf->reset_period, at);
	c->kr = reset && (double)reset > c->base
			? ceil(((double)reset - c->base) / c->period)
			: 0.0;
	if (c->kr > c->m)
		c->kr = c->m;
}

/* What charging job j, run in partition p from s to e, takes (r); false
 * when it charges nothing (no such partition, no association). */
static bool charge_of(const struct prio_snapshot *snap, uint32_t j,
		      prio_id part, double s, double e, struct prio_running *r)
{
	const struct prio_job *job = &snap->jobs[j];
	uint32_t a = prio_snapshot_job_assoc(snap, job, part);

	if (!prio_snapshot_partition(snap, part) || a == PRIO_ASSOC_NONE)
		return false;
	*r = (struct prio_running){a, prio_usage_job_rate(snap, job, part), s,
				   e};
	return true;
}

/* Add what r charges by `at` (cycles c). */
static void charge_add(struct prio_snapshot *snap, struct cycles *c,
		       const struct prio_running *r)
{
	double u, add;

	if (r->start <= c->base && r->end >= c->at) {
		if (isnan(c->whole))
			c->whole = job_usage(c, r->start, r->end);
		u = c->whole;
	} else {
		u = job_usage(c, r->start, r->end);
	}
	add = r->billing * u;

	if (add <= 0)
		return;
	for (uint32_t a = r->assoc; a != PRIO_ASSOC_NONE;
	     a = snap->assocs[a].parent)
		snap->assocs[a].usage_raw += add;
}

/* Charge job j, run in partition p from s to e, by `at` (cycles c). */
static void charge(struct prio_snapshot *snap, struct cycles *c,
		   uint32_t j, prio_id part, double s, double e)
{
	struct prio_running r;

	if (charge_of(snap, j, part, s, e, &r))
		charge_add(snap, c, &r);
}

void prio_snapshot_charge(struct prio_snapshot *snap, time_t at, uint32_t job,
			  prio_id partition, time_t start, time_t end)
{
	struct cycles c;

	if (at <= prio_snapshot_usage_time(snap) || job >= snap->job_count)
		return;
	cycles_of(snap, at, &c);
	charge(snap, &c, job, partition, (double)start,
	       end ? (double)end : INFINITY);
}

/* Whether prio_snapshot_advance charges job j. */
static bool charges(const struct prio_snapshot *snap, uint32_t j)
{
	const struct prio_job *job = &snap->jobs[j];

	return prio_job_state_allocated(job->state) && job->partition_count &&
	       job->start_time;
}

uint32_t prio_snapshot_running(const struct prio_snapshot *snap,
			       struct prio_running *out)
{
	uint32_t n = 0;

	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		struct prio_running r;

		if (charges(snap, j) &&
		    charge_of(snap, j, job->partitions[0],
			      (double)job->start_time,
			      job->end_time ? (double)job->end_time : INFINITY,
			      &r)) {
			if (out)
				out[n] = r;
			n++;
		}
	}
	return n;
}

int prio_snapshot_advance(struct prio_snapshot *snap, time_t at,
			  struct prio_error *err)
{
	return prio_snapshot_advance_running(snap, at, NULL, 0, NULL, err);
}

int prio_snapshot_advance_running(struct prio_snapshot *snap, time_t at,
				  const struct prio_running *running,
				  uint32_t count, struct prio_decay_memo *memo,
				  struct prio_error *err)
{
	struct cycles c;
	double all;

	if (at < snap->now)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "--at",
				      "%lld is before the snapshot's clock "
				      "(%lld)",
				      (long long)at, (long long)snap->now);
	/* usage already moved to a later time (--at) stays as it is there */
	if (at <= prio_snapshot_usage_time(snap) || snap->assoc_count == 0)
		return PRIO_OK;
	cycles_of(snap, at, &c);
	c.memo = memo;
	all = decay(&c, c.at - c.base);
	if (all < DBL_MIN)
		all = DBL_MIN;
	if (c.kr > 0.0)
		all = 0.0;
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		snap->assocs[i].usage_raw *= all;

	for (uint32_t k = 0; running && k < count; k++)
		charge_add(snap, &c, &running[k]);
	for (uint32_t j = 0; !running && j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];

		if (!charges(snap, j))
			continue;
		charge(snap, &c, j, job->partitions[0], (double)job->start_time,
		       job->end_time ? (double)job->end_time : INFINITY);
	}
	return PRIO_OK;
}
