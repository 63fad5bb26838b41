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

#include <stdlib.h>
#include <string.h>

#include "prio/advance.h"
#include "prio/explain_text.h"
#include "prio/fairshare_explain.h"
#include "prio/usage.h"
#include "prio/whatif.h"
#include "top_model.h"

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
	free(r);
}

/* One queue entry's row: the factors and sprio's weighted terms. */
static void fill_row(const struct prio_engine *e,
		     const struct prio_queue_entry *en,
		     struct prio_top_job *row)
{
	const struct prio_job *job = &e->snap->jobs[en->job];
	struct prio_job_factors own, jf;
	struct prio_row pr;

	prio_job_factors(e, job, &own);
	/* a job of several QOS has an entry per QOS: that QOS's factors */
	if (prio_job_qos_list(job))
		prio_job_factors_qos(e, &own, en->qos, &jf);
	else
		jf = own;
	prio_row_compute(e, job, &jf, en->partition, &pr);
	memset(row, 0, sizeof(*row));
	row->job = en->job;
	row->partition = en->partition;
	row->qos = en->qos;
	row->rank = en->rank;
	row->part_rank = en->part_rank;
	row->priority = en->priority;
	/* sprio's weighted terms: factor x weight; site and -nice as they are
	 */
	const double factor[PRIO_FACTOR_COUNT] = {
	    [PRIO_FACTOR_AGE] = jf.age,
	    [PRIO_FACTOR_ASSOC] = jf.assoc,
	    [PRIO_FACTOR_FAIRSHARE] = jf.fairshare,
	    [PRIO_FACTOR_JOBSIZE] = jf.jobsize,
	    [PRIO_FACTOR_PARTITION] = pr.partition_factor,
	    [PRIO_FACTOR_QOS] = jf.qos};

	for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
		row->points[f] =
		    prio_weighted(e, (enum prio_factor)f, factor[f]);
	row->points[PRIO_FACTOR_SITE] = (double)jf.site;
	row->points[PRIO_FACTOR_NICE] = -(double)jf.nice;
	row->points[PRIO_FACTOR_TRES] = pr.tres_sum;
	row->sum = pr.sum;
}

/*
 * Every queue entry's row, visited in job order rather than queue order:
 * the job records are large and a 100k-job queue in scheduling order
 * touches them at random, so most of the time went to cache misses.  A
 * counting pass by job index gives the visiting order in O(n).
 */
static int fill_rows(const struct prio_engine *e, const struct prio_queue *q,
		     struct prio_top_job *rows, struct prio_error *err)
{
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
		fill_row(e, &q->entries[order[i]], &rows[order[i]]);
	free(start);
	free(order);
	return PRIO_OK;
}

/* The snapshot's usage at a clock: as loaded, moved forward to it. */
static int usage_at(struct prio_top *t, time_t now, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;

	for (uint32_t i = 0; t->usage0 && i < snap->assoc_count; i++)
		snap->assocs[i].usage_raw = t->usage0[i];
	return now > snap->now ? prio_snapshot_advance(snap, now, err)
			       : PRIO_OK;
}

static int compute(struct prio_top *t, time_t now, struct prio_error *err)
{
	struct prio_snapshot *snap = t->snap;
	struct prio_top_results *r = calloc(1, sizeof(*r));
	const struct prio_engine *e;
	int rc;

	if (!r)
		return nomem(err);
	e = &r->engine;
	if (now < t->earliest)
		now = t->earliest;
	if ((rc = usage_at(t, now, err)) < 0)
		goto fail;
	if ((rc = prio_engine_init(&r->engine, snap, now, err)) < 0)
		goto fail;
	if ((rc = prio_queue_build(e, &r->queue, err)) < 0)
		goto fail;
	r->jobs =
	    malloc((r->queue.count ? r->queue.count : 1) * sizeof(*r->jobs));
	if (!r->jobs) {
		rc = nomem(err);
		goto fail;
	}
	if ((rc = fill_rows(e, &r->queue, r->jobs, err)) < 0)
		goto fail;
	for (uint32_t k = 0; k < r->queue.count; k++)
		if (r->jobs[k].sum > r->max_sum)
			r->max_sum = r->jobs[k].sum;
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
	t->pending = t->running = 0;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		t->pending += prio_job_state_pending(snap->jobs[i].state);
		t->running += snap->jobs[i].state == PRIO_JOB_RUNNING;
	}
	top_mark_moves(t);
	return top_table_build(t) < 0 ? nomem(err) : PRIO_OK;
fail:
	results_free(r);
	return rc;
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
		if ((rc = usage_at(&fresh, fresh.snap->now, err)) < 0 ||
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
	if (t->broken)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "the snapshot needs a reload");
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
	usage_at(t, t->now, &(struct prio_error){0});
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
