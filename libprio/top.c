/* SPDX-License-Identifier: MIT */
/*
 * The viewer model's life (prio/top.h): take a snapshot, compute at a
 * clock, move the clock, apply what-if assignments, take a reloaded
 * snapshot, and the detail texts.
 *
 * One computation runs the engines prio-calc runs, in its order: usage
 * moved to the clock (prio_snapshot_advance, prio-calc --at), the priority
 * engine at that clock (which computes the fairshare tree when a weight
 * needs it), the scheduling order (prio_queue_build), and per queue entry
 * the job's factors and its row in that partition (prio_job_factors,
 * prio_row_compute) weighted as sprio weighs them (prio_weighted).  The
 * results go in a fresh struct and replace the old ones only when all of
 * it worked.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/advance.h"
#include "prio/explain_text.h"
#include "prio/forecast_text.h"
#include "prio/fairshare_explain.h"
#include "prio/usage.h"
#include "prio/whatif.h"
#include "top_model.h"

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static int nomem(struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

static void results_free(struct prio_top_results *r)
{
	if (!r)
		return;
	prio_engine_free(&r->engine);
	prio_queue_free(&r->queue);
	free(r->jobs);
	free(r->own_fs);
	free(r->factors);
	free(r->tres);
	free(r->running);
	free(r->moved);
	free(r->runs);
	free(r->entries2);
	free(r->jobs2);
	free(r->factors2);
	free(r->tres2);
	free(r->assoc_changed);
	free(r->assoc_before);
	free(r->is_moved);
	prio_fs_cache_free(r->fs_cache);
	free(r);
}

/* sprio's weighted terms of a row computed from jf: factor x weight; site
 * and -nice as they are. */
static void row_terms(const struct prio_engine *e,
		      const struct prio_job_factors *jf,
		      const struct prio_row *pr, struct prio_top_job *row)
{
	const double factor[PRIO_FACTOR_COUNT] = {
	    [PRIO_FACTOR_AGE] = jf->age,
	    [PRIO_FACTOR_ASSOC] = jf->assoc,
	    [PRIO_FACTOR_FAIRSHARE] = jf->fairshare,
	    [PRIO_FACTOR_JOBSIZE] = jf->jobsize,
	    [PRIO_FACTOR_PARTITION] = pr->partition_factor,
	    [PRIO_FACTOR_QOS] = jf->qos};

	for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
		row->points[f] =
		    prio_weighted(e, (enum prio_factor)f, factor[f]);
	row->points[PRIO_FACTOR_SITE] = (double)jf->site;
	row->points[PRIO_FACTOR_NICE] = -(double)jf->nice;
	row->points[PRIO_FACTOR_TRES] = pr->tres_sum;
	row->sum = pr->sum;
}

/* One queue entry's row: the factors (kept in *jf for the next tick, with
 * the weighted TRES terms in tres) and sprio's weighted terms. */
static void fill_row(const struct prio_engine *e,
		     const struct prio_queue_entry *en,
		     struct prio_top_job *row, struct prio_job_factors *jf,
		     double *tres)
{
	const struct prio_job *job = &e->snap->jobs[en->job];
	struct prio_job_factors own;
	struct prio_row pr;

	prio_job_factors(e, job, &own);
	/* a job of several QOS has an entry per QOS: that QOS's factors */
	if (prio_job_qos_list(job))
		prio_job_factors_qos(e, &own, en->qos, jf);
	else
		*jf = own;
	prio_row_compute_kept(e, job, jf, en->partition, tres, false, &pr);
	memset(row, 0, sizeof(*row));
	row->job = en->job;
	row->partition = en->partition;
	row->qos = en->qos;
	row->rank = en->rank;
	row->part_rank = en->part_rank;
	row->priority = en->priority;
	row_terms(e, jf, &pr, row);
}

/*
 * Every queue entry's row, visited in job order rather than queue order:
 * the job records are large and a 100k-job queue in scheduling order
 * touches them at random, so most of the time went to cache misses.  A
 * counting pass by job index gives the visiting order in O(n).
 */
static int fill_rows(const struct prio_engine *e, const struct prio_queue *q,
		     struct prio_top_results *r, struct prio_error *err)
{
	struct prio_top_job *rows = r->jobs;
	uint32_t njobs = e->snap->job_count;
	uint32_t *start = calloc((size_t)njobs + 1, sizeof(*start));
	uint32_t *order = malloc((q->count ? q->count : 1) * sizeof(*order));

	if (!start || !order) {
		free(start);
		free(order);
		return nomem(err);
	}
	for (uint32_t k = 0; k < q->count; k++)
		start[q->entries[k].job + 1]++;
	for (uint32_t j = 0; j < njobs; j++)
		start[j + 1] += start[j];
	for (uint32_t k = 0; k < q->count; k++)
		order[start[q->entries[k].job]++] = k;
	for (uint32_t i = 0; i < q->count; i++)
		fill_row(e, &q->entries[order[i]], &rows[order[i]],
			 &r->factors[order[i]],
			 r->tres + (size_t)order[i] * r->tres_count);
	free(start);
	free(order);
	return PRIO_OK;
}

/* The snapshot's usage at a clock: as loaded, moved forward to it (with
 * the running jobs listed by r when r is not NULL). */
static int usage_at(struct prio_top *t, time_t now,
		    const struct prio_top_results *r, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;

	for (uint32_t i = 0; t->usage0 && i < snap->assoc_count; i++)
		snap->assocs[i].usage_raw = t->usage0[i];
	if (now <= snap->now)
		return PRIO_OK;
	return r ? prio_snapshot_advance_running(snap, now, r->running,
						 r->nrunning, NULL, err)
		 : prio_snapshot_advance(snap, now, err);
}

/*
 * The horizon (*h, 0: none), lowered by one job: the first clock after
 * `clock` (the later of the engine's and the capture's) at which the
 * queue's rows stop being a function of age and fairshare alone.  A job
 * joins the queue when the clock reaches its begin time
 * (prio_job_listed), and a job waiting for its begin time at the capture
 * starts to accrue age then (prio_job_accrue_time).  Every job's times
 * count, listed or not: an early horizon costs a full computation, a late
 * one a wrong queue.
 */
static void horizon_job(const struct prio_engine *e, const struct prio_job *job,
			time_t clock, time_t *h)
{
	time_t since = e->flags & PRIO_FLAG_ACCRUE_ALWAYS ? job->submit_time
							   : job->eligible_time;

	if (since > clock && (!*h || since < *h))
		*h = since;
	if (job->eligible_time > clock && (!*h || job->eligible_time < *h))
		*h = job->eligible_time;
}

static int compute(struct prio_top *t, time_t now, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;
	struct prio_top_results *r = calloc(1, sizeof(*r));
	const struct prio_engine *e;
	size_t n;
	int rc;

	if (!r)
		return nomem(err);
	e = &r->engine;
	if (now < t->earliest)
		now = t->earliest;
	if ((rc = usage_at(t, now, NULL, err)) < 0)
		goto fail;
	if ((rc = prio_engine_init(&r->engine, snap, now, err)) < 0)
		goto fail;
	if ((rc = prio_queue_build(e, &r->queue, err)) < 0)
		goto fail;
	r->jobs =
	    malloc((r->queue.count ? r->queue.count : 1) * sizeof(*r->jobs));
	n = r->queue.count ? r->queue.count : 1;
	r->factors = malloc(n * sizeof(*r->factors));
	r->tres_count = e->tres_count;
	r->tres = malloc(n * (e->tres_count ? e->tres_count : 1) *
			 sizeof(*r->tres));
	r->nrunning = prio_snapshot_running(snap, NULL);
	r->running = malloc((r->nrunning ? r->nrunning : 1) *
			    sizeof(*r->running));
	if (!r->jobs || !r->factors || !r->tres || !r->running) {
		rc = nomem(err);
		goto fail;
	}
	prio_snapshot_running(snap, r->running);
	if ((rc = fill_rows(e, &r->queue, r, err)) < 0)
		goto fail;
	for (uint32_t k = 0; k < r->queue.count; k++) {
		if (r->jobs[k].sum > r->max_sum)
			r->max_sum = r->jobs[k].sum;
		if (r->jobs[k].priority > r->max_priority)
			r->max_priority = r->jobs[k].priority;
	}
	/* The tree shows the fairshare the priorities use; without a
	 * fairshare weight the engine computes none, so compute it here. */
	if (!e->fs && snap->assoc_count) {
		r->own_fs = calloc(snap->assoc_count, sizeof(*r->own_fs));
		if (!r->own_fs) {
			rc = nomem(err);
			goto fail;
		}
		if ((rc = prio_fairshare_slurm(snap, &e->fs_setup, r->own_fs,
					       NULL, err)) < 0)
			goto fail;
	}

	results_free(t->r);
	t->r = r;
	t->now = now;
	t->engine = &r->engine;
	t->queue = &r->queue;
	t->jobs = r->jobs;
	t->njobs = r->queue.count;
	t->fs = r->engine.fs ? r->engine.fs : r->own_fs;
	t->fs_algorithm = r->engine.fs_algorithm;
	t->max_sum = r->max_sum;
	t->max_priority = r->max_priority;
	t->rows_kept = false;
	t->pending = t->running = 0;
	r->horizon = 0;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		horizon_job(e, &snap->jobs[i],
			    now > snap->now ? now : snap->now, &r->horizon);
		t->pending += prio_job_state_pending(snap->jobs[i].state);
		t->running += snap->jobs[i].state == PRIO_JOB_RUNNING;
	}
	top_mark_moves(t);
	return top_table_build(t) < 0 ? nomem(err) : PRIO_OK;
fail:
	results_free(r);
	return rc;
}

/* ---- the clock tick -------------------------------------------------------
 *
 * Between two clocks of the same snapshot (no reload, no what-if), only two
 * inputs of a row move: the age factor, which grows until PriorityMaxAge
 * and then stays at 1, and the association's fairshare (and assoc) factor,
 * through its usage.  Decay alone would leave fairshare where it was: it
 * multiplies every association's usage by the same d^Δt (advance.c), and
 * every fairshare algorithm here (fairshare.c: classic's usage over the
 * root's, Fair Tree's usage over the parent's and the sibling ranks, the
 * levels' ratios) depends on usage only through such ratios; its one
 * floor (the ticket-based algorithm's, 1% of the normalised shares)
 * bounds a ratio too.  The exceptions: advance.c floors the decay factor
 * at DBL_MIN and usage can underflow, after hundreds of half-lives.  But
 * running jobs go on charging their associations as the clock moves, so
 * usage ratios do move on a busy cluster, and in floating point a·f/(b·f)
 * need not be a/b to the last bit.  So the tick does not assume: it
 * moves the engine to the new clock (usage moved there, the fairshare tree
 * computed again: prio_engine_move), compares each association's factors
 * bit for bit with the previous ones, and computes again only the rows
 * whose age factor or association factors changed, from the factors kept
 * per row, with the engine's own row computation (prio_row_compute_kept,
 * the TRES terms kept too: the same sums in the same order, so the same
 * bits as a full computation).  Rows whose
 * scheduling priority changed are sorted and merged into the others,
 * whose relative order cannot change (the order's other keys are fixed).
 * A job joining the queue or starting to accrue (the horizon), a clock
 * going back, or a failed allocation make it a full computation.
 */

/* The position of qos in a job's QOS list: the order of one job's entries
 * in one partition (prio_queue_build creates them in list order). */
static uint32_t qos_pos(const struct prio_job *job, prio_id qos)
{
	for (uint32_t k = 0; k < prio_job_qos_count(job); k++)
		if (prio_job_qos_at(job, k) == qos)
			return k;
	return 0;
}

static int cmp_rows(const struct prio_snapshot *snap,
		    const struct prio_queue_entry *a,
		    const struct prio_queue_entry *b)
{
	int rc = prio_queue_compare(snap, a, b);
	uint32_t pa, pb;

	if (rc || a == b)
		return rc;
	pa = qos_pos(&snap->jobs[a->job], a->qos);
	pb = qos_pos(&snap->jobs[b->job], b->qos);
	return pa < pb ? -1 : pa > pb;
}

struct moved_ctx {
	const struct prio_snapshot *snap;
	const struct prio_queue_entry *entries;
};

static int cmp_moved(const void *pa, const void *pb, void *arg)
{
	const struct moved_ctx *c = arg;

	return cmp_rows(c->snap, &c->entries[*(const uint32_t *)pa],
			&c->entries[*(const uint32_t *)pb]);
}

/* The tick's buffers, allocated once for the queue's size. */
static int tick_buffers(struct prio_top_results *r, uint32_t assocs)
{
	size_t n = r->queue.count ? r->queue.count : 1;

	if (!r->moved)
		r->moved = malloc(2 * n * sizeof(*r->moved));
	if (!r->runs)
		r->runs = malloc((7 * n + 3) * sizeof(*r->runs));
	if (!r->entries2)
		r->entries2 = malloc(n * sizeof(*r->entries2));
	if (!r->jobs2)
		r->jobs2 = malloc(n * sizeof(*r->jobs2));
	if (!r->factors2)
		r->factors2 = malloc(n * sizeof(*r->factors2));
	if (!r->tres2)
		r->tres2 = malloc(n * (r->tres_count ? r->tres_count : 1) *
				  sizeof(*r->tres2));
	if (!r->is_moved)
		r->is_moved = calloc(n, 1);
	if (!r->assoc_changed)
		r->assoc_changed = malloc(assocs ? assocs : 1);
	if (!r->assoc_before)
		r->assoc_before =
		    malloc((assocs ? assocs : 1) * sizeof(*r->assoc_before));
	return r->moved && r->runs && r->entries2 && r->jobs2 &&
		       r->factors2 && r->tres2 && r->is_moved &&
		       r->assoc_changed && r->assoc_before
		   ? PRIO_OK
		   : PRIO_ERR_NOMEM;
}

/* Move rows [from, from + len) to start at `to`, in the parallel arrays. */
static void move_rows(struct prio_top_results *r, uint32_t from, uint32_t to,
		      uint32_t len)
{
	memmove(&r->queue.entries[to], &r->queue.entries[from],
		len * sizeof(*r->queue.entries));
	memmove(&r->jobs[to], &r->jobs[from], len * sizeof(*r->jobs));
	memmove(&r->factors[to], &r->factors[from],
		len * sizeof(*r->factors));
	memmove(r->tres + (size_t)to * r->tres_count,
		r->tres + (size_t)from * r->tres_count,
		(size_t)len * r->tres_count * sizeof(*r->tres));
}

/* Where moved row s goes among the rows that did not move (still in
 * order): the first position p >= lo whose next unmoved row sorts after
 * it.  A binary search that steps over moved rows. */
static uint32_t insertion_point(const struct prio_top_results *r,
				const struct prio_snapshot *snap, uint32_t lo,
				uint32_t s)
{
	const struct prio_queue_entry *en = r->queue.entries;
	uint32_t hi = r->queue.count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, p = mid;

		while (p < hi && r->is_moved[p])
			p++;
		if (p == hi)
			hi = mid;
		else if (cmp_rows(snap, &en[p], &en[s]) < 0)
			lo = p + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Put the rows moved[0..m) (ascending positions), whose priority changed,
 * back in scheduling order.  The other rows keep their relative order, so
 * each moved row is sorted among the moved ones, then placed by a binary
 * search among the others; the rows in between shift, run by run (a row
 * that gained a point moves a few places, so little is copied), and only
 * the span that changed is numbered again.
 */
static void reorder(struct prio_top_results *r, const struct prio_snapshot *snap,
		    uint32_t m)
{
	struct prio_queue *q = &r->queue;
	uint32_t *sorted = r->moved + m, *ins = r->runs, *runs = r->runs + m;

	uint32_t n = q->count, nruns = 0, lo, hi, at = 0, rem = 0, j = 0;
	struct moved_ctx c = {snap, q->entries};

	for (uint32_t i = 0; i < m; i++)
		r->is_moved[r->moved[i]] = 1;
	memcpy(sorted, r->moved, m * sizeof(*sorted));
	qsort_r(sorted, m, sizeof(*sorted), cmp_moved, &c);
	for (uint32_t i = 0; i < m; i++)
		ins[i] = insertion_point(r, snap, i ? ins[i - 1] : 0, sorted[i]);
	/* the moved rows aside, in their new order */
	for (uint32_t i = 0; i < m; i++) {
		r->entries2[i] = q->entries[sorted[i]];
		r->jobs2[i] = r->jobs[sorted[i]];
		r->factors2[i] = r->factors[sorted[i]];
		memcpy(r->tres2 + (size_t)i * r->tres_count,
		       r->tres + (size_t)sorted[i] * r->tres_count,
		       r->tres_count * sizeof(*r->tres));
	}
	/* runs of unmoved rows shifted by the count of moved rows placed
	 * before them less the count taken out before them */
	while (at < n) {
		uint32_t start = at, limit;

		if (r->is_moved[at]) {
			rem++;
			at++;
			continue;
		}
		while (j < m && ins[j] <= at)
			j++;
		limit = j < m ? ins[j] : n;
		while (at < n && at < limit && !r->is_moved[at])
			at++;
		if (j != rem) {
			runs[3 * nruns] = start;
			runs[3 * nruns + 1] = at - start;
			runs[3 * nruns + 2] = start + j - rem;
			nruns++;
		}
	}
	/* left shifts from the front, right shifts from the back: no run
	 * overwrites one not yet moved */
	for (uint32_t k = 0; k < nruns; k++)
		if (runs[3 * k + 2] < runs[3 * k])
			move_rows(r, runs[3 * k], runs[3 * k + 2],
				  runs[3 * k + 1]);
	for (uint32_t k = nruns; k-- > 0;)
		if (runs[3 * k + 2] > runs[3 * k])
			move_rows(r, runs[3 * k], runs[3 * k + 2],
				  runs[3 * k + 1]);
	/* moved row i goes after the ins[i] - (moved before it) unmoved rows
	 * ahead of it and the i moved ones */
	rem = 0;
	for (uint32_t i = 0; i < m; i++) {
		uint32_t to;

		while (rem < m && r->moved[rem] < ins[i])
			rem++;
		to = ins[i] - rem + i;
		q->entries[to] = r->entries2[i];
		r->jobs[to] = r->jobs2[i];
		r->factors[to] = r->factors2[i];
		memcpy(r->tres + (size_t)to * r->tres_count,
		       r->tres2 + (size_t)i * r->tres_count,
		       r->tres_count * sizeof(*r->tres));
	}
	for (uint32_t i = 0; i < m; i++)
		r->is_moved[r->moved[i]] = 0;
	/* the span that changed: from the first row taken out or placed to
	 * the last; outside it every row keeps its place and the set of rows
	 * ahead of it, hence its ranks */
	lo = r->moved[0] < ins[0] ? r->moved[0] : ins[0];
	hi = r->moved[m - 1] > ins[m - 1] ? r->moved[m - 1] : ins[m - 1];
	if (hi >= n)
		hi = n - 1;
	memset(q->part_count, 0,
	       (q->partition_count ? q->partition_count : 1) *
		   sizeof(*q->part_count));
	for (uint32_t k = 0; k < lo; k++)
		q->part_count[q->entries[k].partition]++;
	for (uint32_t k = lo; k <= hi; k++) {
		struct prio_queue_entry *en = &q->entries[k];

		en->rank = k + 1;
		en->part_rank = ++q->part_count[en->partition];
		r->jobs[k].rank = en->rank;
		r->jobs[k].part_rank = en->part_rank;
	}
}

/* Move the results to a later clock `now`; 1 when it cannot be done so
 * (compute() then), else 0 or an error as compute() returns them. */
static int tick(struct prio_top *t, time_t now, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;
	struct prio_top_results *r = t->r;
	struct prio_engine *e = r ? &r->engine : NULL;
	struct prio_fs_result *own_fs = NULL;
	uint32_t m = 0, nassoc = snap->assoc_count, max_priority = 0;
	double max_sum = 0;
	bool changed = false;
	int rc;

	if (!r || !r->factors || now <= t->now ||
	    (r->horizon && (now > snap->now ? now : snap->now) >= r->horizon) ||
	    (nassoc && !e->assoc_factors) ||
	    tick_buffers(r, nassoc) < 0)
		return 1;
	if ((rc = usage_at(t, now, r, err)) < 0)
		return rc;
	if (nassoc && !r->fs_cache && !(r->fs_cache = prio_fs_cache_new(snap, err)))
		return err->status;
	/* without a fairshare weight the engine has no tree: the tree view's,
	 * as compute() makes it */
	if (!e->fs && nassoc) {
		struct prio_fs_setup setup = e->fs_setup;

		setup.cycle = now;
		setup.cache = r->fs_cache;
		own_fs = calloc(nassoc, sizeof(*own_fs));
		if (!own_fs)
			return nomem(err);
		if ((rc = prio_fairshare_slurm(snap, &setup, own_fs, NULL,
					       err)) < 0) {
			free(own_fs);
			return rc;
		}
	}
	if (nassoc)
		memcpy(r->assoc_before, e->assoc_factors,
		       nassoc * sizeof(*r->assoc_before));
	/* the cache only for this move: the engine's setup outlives it */
	e->fs_setup.cache = r->fs_cache;
	rc = prio_engine_move(e, now, err);
	e->fs_setup.cache = NULL;
	if (rc < 0) {
		free(own_fs);
		return rc;
	}
	/* nothing fails from here on */
	for (uint32_t a = 0; a < nassoc; a++)
		r->assoc_changed[a] =
		    memcmp(&e->assoc_factors[a], &r->assoc_before[a],
			   sizeof(e->assoc_factors[a])) != 0;
	for (uint32_t k = 0; k < r->queue.count; k++) {
		struct prio_job_factors *jf = &r->factors[k];
		struct prio_top_job *row = &r->jobs[k];

		/* the rows are in queue order, their job records anywhere:
		 * ask a few rows ahead for the field the row computation
		 * reads (a cache miss per row was most of the tick) */
		if (k + 32 < r->queue.count)
			PREFETCH(&snap->jobs[r->queue.entries[k + 32].job]
				      .partition_count);
		double age = e->weight[PRIO_FACTOR_AGE]
				 ? prio_age_factor_at(e, jf->accrue_time, now)
				 : 0.0;
		bool redo = memcmp(&age, &jf->age, sizeof(age)) != 0;
		struct prio_row pr;

		if (jf->assoc_index != PRIO_ASSOC_NONE &&
		    r->assoc_changed[jf->assoc_index]) {
			jf->assoc = e->assoc_factors[jf->assoc_index].assoc;
			jf->fairshare =
			    e->assoc_factors[jf->assoc_index].fairshare;
			redo = true;
		}
		if (!redo) {
			max_sum = row->sum > max_sum ? row->sum : max_sum;
			if (row->priority > max_priority)
				max_priority = row->priority;
			continue;
		}
		jf->age = age;
		prio_row_compute_kept(e, &snap->jobs[row->job], jf,
				      row->partition,
				      r->tres + (size_t)k * r->tres_count,
				      true, &pr);
		/* the terms that can have moved (row_terms gives the rest
		 * the same values) */
		row->points[PRIO_FACTOR_AGE] =
		    prio_weighted(e, PRIO_FACTOR_AGE, jf->age);
		row->points[PRIO_FACTOR_ASSOC] =
		    prio_weighted(e, PRIO_FACTOR_ASSOC, jf->assoc);
		row->points[PRIO_FACTOR_FAIRSHARE] =
		    prio_weighted(e, PRIO_FACTOR_FAIRSHARE, jf->fairshare);
		row->sum = pr.sum;
		changed = true;
		if (pr.priority != row->priority) {
			row->priority = pr.priority;
			r->queue.entries[k].priority = pr.priority;
			r->moved[m++] = k;
		}
		max_sum = row->sum > max_sum ? row->sum : max_sum;
		if (row->priority > max_priority)
			max_priority = row->priority;
	}
	if (m)
		reorder(r, snap, m);
	free(r->own_fs);
	r->own_fs = own_fs;
	r->max_sum = max_sum;
	r->max_priority = max_priority;
	t->now = now;
	t->jobs = r->jobs;
	t->fs = r->engine.fs ? r->engine.fs : r->own_fs;
	t->fs_algorithm = r->engine.fs_algorithm;
	t->max_sum = r->max_sum;
	t->max_priority = r->max_priority;
	t->rows_kept = true;
	/* places in a partition change only when the order does */
	if (m && t->before)
		top_mark_moves(t);
	/* the table's order: every sort breaks ties by rank; PRIORITY and
	 * FACTORS sort by what changed; the other keys are fixed.  Sorted
	 * by rank and unfiltered, the table is the rows as they are. */
	if (t->sort == PRIO_TOP_COL_RANK && !t->filter.user &&
	    !t->filter.account && !t->filter.partition && !t->filter.text)
		return PRIO_OK;
	if (m || (changed && (t->sort == PRIO_TOP_COL_PRIORITY ||
			      t->sort == PRIO_TOP_COL_FACTORS)))
		prio_top_sort(t, t->sort, t->desc);
	return PRIO_OK;
}

/* Usage as loaded, kept in the snapshot's arena (it dies with it): every
 * clock starts from it. */
static int save_usage(struct prio_top *t, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;

	t->usage0 = NULL;
	if (!snap->assoc_count)
		return PRIO_OK;
	t->usage0 = prio_arena_alloc(&snap->arena, (size_t)snap->assoc_count *
						       sizeof(*t->usage0));
	if (!t->usage0)
		return nomem(err);
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		t->usage0[i] = snap->assocs[i].usage_raw;
	return PRIO_OK;
}

static void free_snapshot(struct prio_snapshot *snap)
{
	if (!snap)
		return;
	prio_snapshot_free(snap);
	free(snap);
}

static void before_free(struct prio_top *t)
{
	if (!t->before)
		return;
	free(t->before->places);
	free(t->before);
	t->before = NULL;
}

/* ---- life -----------------------------------------------------------------
 */

static int save_before(struct prio_top *t);

/* Apply the kept assignments to a linked snapshot, at its own clock (the
 * usage as loaded), and link it again: prio_snapshot_finish relinks every
 * family from its records. */
static int apply_edits(struct prio_snapshot *snap, char *const *edits,
		       uint32_t n, struct prio_error *err)
{
	int rc;

	for (uint32_t i = 0; i < n; i++)
		if ((rc = prio_snapshot_set(snap, edits[i], "what-if", err)) <
		    0)
			return rc;
	return n ? prio_snapshot_finish(snap, err) : PRIO_OK;
}

int prio_top_init(struct prio_top *t, struct prio_snapshot *snap, time_t now,
		  struct prio_error *err)
{
	int rc;

	memset(t, 0, sizeof(*t));
	t->snap = snap;
	t->sort = PRIO_TOP_COL_RANK;
	t->earliest = now && now < snap->now ? now : snap->now;
	if (!snap->finished)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "the snapshot is not finished");
	/* No RawUsage but job records: the usage Slurm would hold at the
	 * snapshot's clock, as prio-calc and fstree-show rebuild it. */
	if (prio_usage_needs_replay(snap) &&
	    (rc = prio_usage_replay(snap, snap->now, false, NULL, err)) < 0)
		return rc;
	if ((rc = save_usage(t, err)) < 0)
		return rc;
	if (top_tree_build(t) < 0)
		return nomem(err);
	return compute(t, now ? now : snap->now, err);
}

void prio_top_free(struct prio_top *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nedits; i++)
		free(t->edits[i]);
	free(t->edits);
	results_free(t->r);
	before_free(t);
	free(t->order);
	free(t->view);
	free(t->nodes);
	free(t->collapsed);
	free(t->tree_view);
	free((char *)t->filter.user);
	free((char *)t->filter.account);
	free((char *)t->filter.partition);
	free((char *)t->filter.text);
	prio_top_forecast_clear(t);
	free_snapshot(t->snap);
	memset(t, 0, sizeof(*t));
}

/* The collapsed branches of the old snapshot, found by name in the new. */
static void carry_collapsed(const struct prio_top *old, struct prio_top *t)
{
	const struct prio_snapshot *os = old->snap, *ns = t->snap;

	for (uint32_t i = 0; i < os->assoc_count; i++) {
		const struct prio_assoc *a = &os->assocs[i];
		const char *acct, *user, *part;
		prio_id ia, iu = PRIO_NO_ID, ip = PRIO_NO_ID;
		uint32_t k;

		if (!old->collapsed[i])
			continue;
		acct = prio_snapshot_str(os, a->account);
		ia = prio_intern_find(&ns->strings, acct, strlen(acct));
		if (a->user != PRIO_NO_ID) {
			user = prio_snapshot_str(os, a->user);
			iu = prio_intern_find(&ns->strings, user, strlen(user));
		}
		if (a->partition != PRIO_NO_ID) {
			part = prio_snapshot_str(os, a->partition);
			ip = prio_intern_find(&ns->strings, part, strlen(part));
		}
		if (ia == PRIO_NO_ID)
			continue;
		k = i == 0 ? 0 : prio_snapshot_assoc(ns, ia, iu, ip);
		if (k != PRIO_ASSOC_NONE && k < ns->assoc_count)
			t->collapsed[k] = true;
	}
}

int prio_top_replace(struct prio_top *t, struct prio_snapshot *snap, time_t now,
		     struct prio_error *err)
{
	struct prio_top fresh;
	int rc;

	if ((rc = prio_top_init(&fresh, snap, now, err)) < 0) {
		prio_top_free(&fresh);
		return rc;
	}
	if (t->nedits) {
		/* the kept what-if edits, and who they move in the new data */
		if (save_before(&fresh) < 0) {
			prio_top_free(&fresh);
			return nomem(err);
		}
		if ((rc = usage_at(&fresh, fresh.snap->now, NULL, err)) < 0 ||
		    (rc = apply_edits(fresh.snap, t->edits, t->nedits, err)) <
			0 ||
		    (rc = save_usage(&fresh, err)) < 0 ||
		    (rc = compute(&fresh, fresh.now, err)) < 0) {
			prio_top_free(&fresh);
			return rc;
		}
	}
	carry_collapsed(t, &fresh);
	top_tree_view(&fresh);
	/* what the user set up carries over: sort, filter, edits */
	fresh.edits = t->edits;
	fresh.nedits = t->nedits;
	t->edits = NULL;
	t->nedits = 0;
	if (prio_top_set_filter(&fresh, &t->filter) < 0) {
		t->edits = fresh.edits;
		t->nedits = fresh.nedits;
		fresh.edits = NULL;
		fresh.nedits = 0;
		prio_top_free(&fresh);
		return nomem(err);
	}
	prio_top_sort(&fresh, t->sort, t->desc);
	prio_top_free(t);
	*t = fresh;
	return PRIO_OK;
}

int prio_top_advance(struct prio_top *t, time_t now, struct prio_error *err)
{
	int rc;

	if (t->broken)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "the snapshot needs a reload");
	if (now < t->earliest)
		now = t->earliest;
	if ((rc = tick(t, now, err)) <= 0)
		return rc;
	return compute(t, now, err);
}

uint64_t top_place_key(const struct prio_top *t, const struct prio_top_job *j)
{
	const struct prio_job *job = &t->snap->jobs[j->job];
	uint64_t at = 0;

	/* a job of several QOS has a place per partition and QOS: its
	 * position in the job's list tells them apart */
	for (uint32_t k = 0; k < prio_job_qos_count(job); k++)
		if (prio_job_qos_at(job, k) == j->qos)
			at = k & 0xff;
	return ((uint64_t)j->job * (t->snap->partition_count + 1) +
		j->partition)
		   << 8 |
	       at;
}

static int cmp_place(const void *pa, const void *pb)
{
	const struct prio_top_place *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key;
}

/* The current places, to tell who a what-if moves. */
static int save_before(struct prio_top *t)
{
	struct prio_top_before *b = calloc(1, sizeof(*b));

	if (!b)
		return PRIO_ERR_NOMEM;
	b->places = malloc((t->njobs ? t->njobs : 1) * sizeof(*b->places));
	if (!b->places) {
		free(b);
		return PRIO_ERR_NOMEM;
	}
	for (uint32_t k = 0; k < t->njobs; k++)
		b->places[k] = (struct prio_top_place){
		    top_place_key(t, &t->jobs[k]), t->jobs[k].part_rank};
	qsort(b->places, t->njobs, sizeof(*b->places), cmp_place);
	b->count = t->njobs;
	b->job_count = t->snap->job_count;
	before_free(t);
	t->before = b;
	return PRIO_OK;
}

int prio_top_set(struct prio_top *t, const char *assignment,
		 struct prio_error *err)
{
	struct prio_top_before *keep;
	char **edits, *copy;
	int rc;

	if (t->broken)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "the snapshot needs a reload");
	copy = strdup(assignment);
	edits = realloc(t->edits, (t->nedits + 1) * sizeof(*edits));
	if (!copy || !edits) {
		free(copy);
		return nomem(err);
	}
	t->edits = edits;
	keep = t->before;
	t->before = NULL;
	if (save_before(t) < 0) {
		t->before = keep;
		free(copy);
		return nomem(err);
	}
	/* Assignments act on the snapshot as loaded: usage back to its own
	 * clock first (a RawUsage edit is a value at that time). */
	for (uint32_t i = 0; t->usage0 && i < t->snap->assoc_count; i++)
		t->snap->assocs[i].usage_raw = t->usage0[i];
	if ((rc = prio_snapshot_set(t->snap, assignment, "what-if", err)) < 0)
		goto refused;
	if ((rc = prio_snapshot_finish(t->snap, err)) < 0) {
		/* values were changed: only a reload puts it right */
		t->broken = true;
		free(copy);
		return rc;
	}
	for (uint32_t i = 0; t->usage0 && i < t->snap->assoc_count; i++)
		t->usage0[i] = t->snap->assocs[i].usage_raw;
	t->edits[t->nedits++] = copy;
	/* the data changed: the forecast no longer says what it shows */
	prio_top_forecast_clear(t);
	if (keep) {
		free(keep->places);
		free(keep);
	}
	return compute(t, t->now, err);
refused:
	before_free(t);
	t->before = keep;
	free(copy);
	/* the results still hold: the usage goes back to their clock */
	usage_at(t, t->now, NULL, &(struct prio_error){0});
	return rc;
}

bool prio_top_needs_reload(const struct prio_top *t)
{
	return t->broken;
}

void prio_top_clear_edits(struct prio_top *t)
{
	for (uint32_t i = 0; i < t->nedits; i++)
		free(t->edits[i]);
	free(t->edits);
	t->edits = NULL;
	t->nedits = 0;
	before_free(t);
	t->moved_count = 0;
	for (uint32_t k = 0; k < t->njobs; k++) {
		struct prio_top_job *j = &t->r->jobs[k];

		j->change = PRIO_TOP_SAME;
		j->moved = 0;
	}
}

/* ---- detail texts ---------------------------------------------------------
 */

char *prio_top_explain(const struct prio_top *t, uint32_t job_id,
		       struct prio_error *err)
{
	struct prio_explain x;
	char *text;

	if (prio_explain_job(t->engine, t->queue, job_id, &x, err) < 0)
		return NULL;
	text = prio_explain_text(t->engine, &x);
	prio_explain_free(&x);
	if (!text)
		nomem(err);
	return text;
}

char *prio_top_why(const struct prio_top *t, uint32_t assoc, bool utf8,
		   struct prio_error *err)
{
	struct prio_why why;
	char *text;

	if (!t->fs)
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "no association tree was loaded"),
		       NULL;
	if (prio_fairshare_why(t->snap, t->fs, assoc, PRIO_ASSOC_NONE, &why,
			       err) < 0)
		return NULL;
	text = prio_fairshare_why_text(t->snap, t->fs_algorithm, t->fs, &why,
				       utf8);
	if (!text)
		nomem(err);
	return text;
}

/* ---- our forecast ----------------------------------------------------------
 */

void prio_top_forecast_clear(struct prio_top *t)
{
	if (t->fc) {
		prio_forecast_free(t->fc);
		free(t->fc);
	}
	free(t->fc_rows);
	t->fc = NULL;
	t->fc_rows = NULL;
	t->forecast = NULL;
}

int prio_top_forecast_adopt(struct prio_top *t, struct prio_forecast *fc,
			    struct prio_error *err)
{
	const struct prio_forecast_row **rows;
	struct prio_forecast *own;

	prio_top_forecast_clear(t);
	own = malloc(sizeof(*own));
	rows = calloc(t->snap->job_count ? t->snap->job_count : 1,
		      sizeof(*rows));
	if (!own || !rows) {
		free(own);
		free(rows);
		prio_forecast_free(fc);
		return nomem(err);
	}
	*own = *fc;
	memset(fc, 0, sizeof(*fc));
	/* rows are in start order: one index by job, for the cells */
	for (uint32_t k = 0; k < own->count; k++)
		if (own->rows[k].job < t->snap->job_count)
			rows[own->rows[k].job] = &own->rows[k];
	t->fc = own;
	t->fc_rows = rows;
	t->forecast = own;
	if (t->sort == PRIO_TOP_COL_FORECAST)
		prio_top_sort(t, t->sort, t->desc);
	return PRIO_OK;
}

int prio_top_forecast(struct prio_top *t, const struct prio_forecast_opts *opts,
		      struct prio_error *err)
{
	struct prio_forecast fc;
	int rc;

	prio_top_forecast_clear(t);
	if (t->broken)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "the snapshot needs a reload");
	if ((rc = prio_forecast_run(t->engine, opts, &fc, err)) < 0)
		return rc;
	return prio_top_forecast_adopt(t, &fc, err);
}

const struct prio_forecast_row *
prio_top_forecast_row(const struct prio_top *t, const struct prio_top_job *j)
{
	return t->fc_rows && j->job < t->snap->job_count ? t->fc_rows[j->job]
							 : NULL;
}

char *prio_top_when(const struct prio_top *t, uint32_t job_id,
		    const struct prio_forecast_opts *opts,
		    struct prio_error *err)
{
	const struct prio_job *job = prio_snapshot_find_job(t->snap, job_id);
	struct prio_forecast_opts fo = opts ? *opts : (struct prio_forecast_opts){0};
	struct prio_forecast_shorter sh = {0};
	struct prio_forecast fc;
	struct prio_explain_text_buf b = {0};
	uint32_t idx;

	if (!job)
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "job %u is not in the snapshot", job_id),
		       NULL;
	if (job->state != PRIO_JOB_PENDING) {
		char *none = calloc(1, 1);

		if (!none)
			nomem(err);
		return none;
	}
	/* as prio-calc --explain runs it: until the job starts */
	idx = (uint32_t)(job - t->snap->jobs);
	fo.watch = &idx;
	fo.watch_count = 1;
	memset(&fc, 0, sizeof(fc));
	if (opts && prio_forecast_when(t->engine, &fo, idx, &fc, &sh, err) < 0)
		return NULL;
	prio_forecast_when_render(t->snap, &fc, idx, &sh, prio_explain_text_line,
				  &b);
	if (opts)
		prio_forecast_free(&fc);
	if (b.nomem || !b.s) {
		free(b.s);
		nomem(err);
		return NULL;
	}
	return b.s;
}
