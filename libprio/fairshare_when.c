/* SPDX-License-Identifier: MIT */
/*
 * "When will this user's fairshare be back at X?" (prio/fairshare_explain.h).
 *
 * With no new jobs, usage evolves as prio_usage_advance() moves it: every
 * association decays by the same factor (which changes no ratio, so no
 * Level FS, rank or classic factor), and running jobs keep adding usage to
 * their branch until their end time.  So values move only until the last
 * running job ends, and a target not met by then is never met.  We step
 * forward in PriorityCalcPeriod steps -- coarser when the running jobs last
 * longer than max_steps periods, then one finer pass over the step where
 * the target was crossed -- recomputing the whole tree at each step.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prio/fairshare_explain.h"
#include "prio/usage.h"

struct when_run {
	struct prio_snapshot *snap;
	struct prio_fs_setup setup;
	uint32_t user;
	enum prio_when_target kind;
	bool no_run;
	long double *base;
	struct prio_fs_result *res;
};

/* The user's value at time t (t >= snap->now), from the saved usage. */
static int value_at(struct when_run *w, time_t t, double *v,
		    struct prio_error *err)
{
	struct prio_snapshot *snap = w->snap;
	int rc;

	for (uint32_t i = 0; i < snap->assoc_count; i++)
		snap->assocs[i].usage_raw = w->base[i];
	/* Up to the capture the usage is the captured one (the last
	 * calculation may come a little before NOW). */
	if (t > snap->now &&
	    (rc = prio_usage_advance(snap, t, w->no_run, err)) < 0)
		return rc;
	/* As Slurm would show it at a calculation at t (its lag included). */
	w->setup.cycle = t;
	if ((rc = prio_fairshare_slurm(snap, &w->setup, w->res, NULL, err)) <
	    0)
		return rc;
	*v = w->kind == PRIO_WHEN_FAIRSHARE ? w->res[w->user].fairshare
					    : (double)w->res[w->user].level_fs;
	return PRIO_OK;
}

/* When the last running job stops adding usage. */
static time_t settle_time(const struct prio_snapshot *snap, bool no_run)
{
	time_t last = snap->now;

	if (no_run)
		return last;
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];

		if (prio_job_state_allocated(job->state) && job->start_time &&
		    job->end_time > last)
			last = job->end_time;
	}
	return last;
}

/* Scan (from, to] by step; stop at the first t meeting the target. */
static int scan(struct when_run *w, time_t from, time_t to, time_t step,
		double target, struct prio_when *out, struct prio_error *err)
{
	for (time_t t = from + step;; t += step) {
		double v;
		int rc;

		if (t > to)
			t = to;
		if ((rc = value_at(w, t, &v, err)) < 0)
			return rc;
		if (v > out->best) {
			out->best = v;
			out->best_at = t;
		}
		if (v >= target) {
			out->reached = true;
			out->at = t;
			out->value_at = v;
			return PRIO_OK;
		}
		if (t >= to)
			return PRIO_OK;
	}
}

int prio_fairshare_when(struct prio_snapshot *snap,
			const struct prio_fs_setup *setup, uint32_t user,
			enum prio_when_target kind, double target, bool no_run,
			uint32_t max_steps, struct prio_when *out,
			struct prio_error *err)
{
	struct when_run w = {snap, *setup, user, kind, no_run, NULL, NULL};
	time_t period = snap->conf.calc_period ? snap->conf.calc_period : 300,
	       step, span, scan_to,
	       start = setup->cycle ? setup->cycle : snap->now;
	double v;
	int rc;

	memset(out, 0, sizeof(*out));
	if (user >= snap->assoc_count || !snap->assocs[user].is_user)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "not a user association");
	if (kind == PRIO_WHEN_LEVEL_FS && setup->algorithm != PRIO_FS_FAIR_TREE)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "--level-fs",
				      "Level FS exists under Fair Tree only");
	w.base = malloc((size_t)snap->assoc_count * sizeof(*w.base));
	w.res = calloc(snap->assoc_count, sizeof(*w.res));
	if (!w.base || !w.res) {
		free(w.base);
		free(w.res);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		w.base[i] = snap->assocs[i].usage_raw;
	/* Up to the capture the usage stands still (value_at): only a job
	 * running past it moves anything. */
	out->settled = settle_time(snap, no_run);
	if (out->settled <= snap->now)
		out->settled = start;
	if ((rc = value_at(&w, start, &v, err)) < 0)
		goto done;
	out->value_now = out->best = v;
	out->best_at = start;
	if (v >= target) {
		out->reached = out->already = true;
		out->at = start;
		out->value_at = v;
		goto done;
	}
	/* up to the calculation that sees the settled instant */
	scan_to = out->settled > start
		      ? start + ((out->settled - start + period - 1) / period) *
				    period
		      : start;
	span = scan_to - start;
	if (span <= 0)
		goto done;
	if (!max_steps)
		max_steps = 1;
	step = period;
	if (span / period > (time_t)max_steps)
		step = ((span / max_steps + period - 1) / period) * period;
	if ((rc = scan(&w, start, scan_to, step, target, out, err)) < 0)
		goto done;
	if (out->reached && step > period) {
		/* One finer pass over the step that crossed the target. */
		time_t from = out->at - step, fine = period;

		if (step / period > (time_t)max_steps)
			fine =
			    ((step / max_steps + period - 1) / period) * period;
		out->reached = false;
		rc = scan(&w, from, out->at, fine, target, out, err);
	}
done:
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		snap->assocs[i].usage_raw = w.base[i];
	free(w.base);
	free(w.res);
	return rc;
}
