/* SPDX-License-Identifier: MIT */
/*
 * The minimal plan: the placement that preempts the fewest jobs -- what
 * Slurm's preemption document lists under "Future Ideas" (its example:
 * three 1-node jobs on n1-n3 of five nodes and a 3-node job; Slurm
 * suspends all three, n[3-5] would suspend one).
 *
 * The victims may be any candidates Slurm could act on (REQUEUE, CANCEL,
 * and SUSPEND when the cluster runs GANG), removed from the same simulated
 * resources as Slurm's plan (preempt_sim.c); the job's nodes are then
 * chosen as the select plugin would choose them.  Sets are ranked by
 *   1. fewest victims,
 *   2. least work lost: CPU-seconds already run by requeued and
 *      cancelled jobs (a suspended job loses nothing),
 *   3. lowest sum of the victims' PriorityTier (partition_prio) or QOS
 *      priority (qos),
 *   4. fewest runs of consecutive nodes for the job (the example's n[3-5]
 *      over n1,n[4-5]),
 *   5. the earliest candidates in Slurm's order.
 *
 * Search, in order, each keeping the best so far:
 *   - Slurm's own victims, when they suffice in the simulation (so the
 *     result never has more victims than Slurm's plan; if they do not, and
 *     nothing better is found, Slurm's plan is returned as it is);
 *   - a greedy pass: every node of the partition priced by the victims it
 *     needs to give the job its share, nodes taken cheapest first until
 *     the job fits, then victims that turn out unneeded dropped;
 *   - exact: iterative deepening over sets of k = 1, 2, ... candidates in
 *     Slurm's order, each level enumerated whole (ties in 2-5 decide),
 *     pruned when even the k - d largest remaining candidates cannot free
 *     enough nodes, or when the work lost already exceeds the best.  The
 *     first level with a solution ends the search.  Every feasibility test
 *     counts as a step; past the step limit (PRIO_PREEMPT_DEFAULT_STEPS
 *     unless told) the search stops and the best found stands, with
 *     plan->exact false.  Small cases (tens of candidates) always finish.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "preempt_sim.h"
#include "prio/conf.h"
#include "prio/preempt.h"
#include "prio/snapshot.h"

struct cost {
	uint32_t count;
	uint64_t lost;
	uint64_t tier;
	uint32_t runs;
};

struct search {
	const struct prio_preempt_ctx *ctx;
	struct psim *s;
	uint32_t *use; /* usable candidates (ctx->cands indices) */
	uint32_t m;
	uint64_t *lost;	     /* per use[] entry */
	uint32_t *top_nodes; /* node counts, descending */
	uint32_t *cur;	     /* the set being built (use[] positions) */
	uint32_t k;
	uint64_t cur_lost;
	uint32_t *best; /* best set (use[] positions, ascending) */
	bool have_best;
	struct cost best_cost;
	uint32_t *nodes, *cpus; /* scratch for placements */
	uint64_t steps, limit;
	bool out_of_steps;
};

static int cmp_cost(const struct cost *a, const struct cost *b)
{
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	if (a->lost != b->lost)
		return a->lost < b->lost ? -1 : 1;
	if (a->tier != b->tier)
		return a->tier < b->tier ? -1 : 1;
	if (a->runs != b->runs)
		return a->runs < b->runs ? -1 : 1;
	return 0;
}

static enum psim_level gone_level(const struct prio_preempt_cand *cd)
{
	return cd->mode == PRIO_PREEMPT_SUSPEND ? PSIM_MEM : PSIM_GONE;
}

static void take(struct search *x, uint32_t u)
{
	const struct prio_preempt_cand *cd = &x->ctx->cands[x->use[u]];

	psim_set(x->s, cd->res_job, gone_level(cd));
}

static void give_back(struct search *x, uint32_t u)
{
	const struct prio_preempt_cand *cd = &x->ctx->cands[x->use[u]];

	psim_set(x->s, cd->res_job, (enum psim_level)x->s->base[cd->res_job]);
}

/* The cost of the set now taken (positions set[0..n), ascending). */
static bool price(struct search *x, const uint32_t *set, uint32_t n,
		  struct cost *c)
{
	uint32_t placed = psim_select(x->s, x->nodes, x->cpus);

	if (!placed)
		return false;
	memset(c, 0, sizeof(*c));
	c->count = n;
	for (uint32_t i = 0; i < n; i++) {
		c->lost += x->lost[set[i]];
		c->tier += x->ctx->cands[x->use[set[i]]].tier;
	}
	c->runs = psim_runs(x->nodes, placed);
	return true;
}

/* Offer the set now taken; keep it when it is better. */
static void offer(struct search *x, const uint32_t *set, uint32_t n)
{
	struct cost c;

	if (!price(x, set, n, &c))
		return;
	if (x->have_best && cmp_cost(&c, &x->best_cost) >= 0)
		return;
	memcpy(x->best, set, n * sizeof(*set));
	x->best_cost = c;
	x->have_best = true;
}

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

	return p > q ? -1 : p < q;
}

/* Usable nodes now (cap > 0). */
static uint32_t usable_nodes(const struct psim *s)
{
	uint32_t n = 0;

	for (uint32_t v = 1; v <= s->cmax; v++)
		n += s->hist[v];
	return n;
}

static void dfs(struct search *x, uint32_t start, uint32_t depth)
{
	uint32_t left = x->k - depth;

	if (x->steps >= x->limit) {
		x->out_of_steps = true;
		return;
	}
	if (!left) {
		x->steps++;
		if (psim_fits(x->s))
			offer(x, x->cur, depth);
		return;
	}
	/* Even the `left` candidates holding most nodes cannot make enough
	 * nodes usable: no set from here fits. */
	{
		uint64_t could = usable_nodes(x->s);

		for (uint32_t i = 0; i < left && i < x->m; i++)
			could += x->top_nodes[i];
		x->steps++;
		if (could < x->ctx->need_nodes)
			return;
	}
	for (uint32_t u = start; u + left <= x->m; u++) {
		if (x->have_best && x->best_cost.count == x->k &&
		    x->cur_lost + x->lost[u] > x->best_cost.lost)
			continue;
		x->cur[depth] = u;
		x->cur_lost += x->lost[u];
		take(x, u);
		dfs(x, u + 1, depth + 1);
		give_back(x, u);
		x->cur_lost -= x->lost[u];
		if (x->out_of_steps)
			return;
	}
}

/* Greedy: nodes priced by the victims each needs, cheapest first. */
struct node_price {
	uint32_t node, count;
	uint64_t lost;
	uint32_t first; /* into the victims list */
};

static int cmp_price(const void *a, const void *b)
{
	const struct node_price *p = a, *q = b;

	if (p->count != q->count)
		return p->count < q->count ? -1 : 1;
	if (p->lost != q->lost)
		return p->lost < q->lost ? -1 : 1;
	return p->node < q->node ? -1 : p->node > q->node;
}

static int greedy(struct search *x, const uint32_t *use_of_cand)
{
	const struct prio_preempt_ctx *ctx = x->ctx;
	const struct prio_resources *res = ctx->res;
	struct psim *s = x->s;
	uint32_t pn = s->pnode_count, most = 1, vn = 0, n = 0;
	struct node_price *np = malloc((pn ? pn : 1) * sizeof(*np));
	struct psim_keyed *li;
	uint32_t *victims, *set;
	bool *taken = calloc(x->m ? x->m : 1, 1);
	uint32_t share =
	    (ctx->need_cpus + ctx->need_nodes - 1) / ctx->need_nodes;

	share += (ctx->cpus_per_task - share % ctx->cpus_per_task) %
		 ctx->cpus_per_task;
	for (uint32_t i = 0; i < pn; i++) {
		uint32_t node = s->pnodes[i];
		uint32_t k = res->node_first[node + 1] - res->node_first[node];

		most = k > most ? k : most;
		vn += k;
	}
	li = malloc(most * sizeof(*li));
	victims = malloc((vn ? vn : 1) * sizeof(*victims));
	set = malloc((x->m ? x->m : 1) * sizeof(*set));
	if (!np || !li || !victims || !set || !taken) {
		free(np);
		free(li);
		free(victims);
		free(set);
		free(taken);
		return -1;
	}
	vn = 0;
	for (uint32_t i = 0; i < pn; i++) {
		uint32_t node = s->pnodes[i], m = 0;
		uint32_t want = ctx->whole_nodes || share > res->node_cpus[node]
				    ? res->node_cpus[node]
				    : share;
		struct node_price *p = &np[n];

		*p = (struct node_price){node, 0, 0, vn};
		for (uint32_t k = res->node_first[node];
		     k < res->node_first[node + 1]; k++) {
			uint32_t c =
			    s->cand_of[res->allocs[res->node_allocs[k]].job];

			if (c != UINT32_MAX && use_of_cand[c] != UINT32_MAX)
				li[m++] = (struct psim_keyed){
				    x->lost[use_of_cand[c]], use_of_cand[c]};
		}
		qsort(li, m, sizeof(*li), psim_cmp_keyed);
		for (uint32_t k = 0; k < m && s->cap[node] < want; k++) {
			take(x, li[k].idx);
			victims[vn++] = li[k].idx;
			p->count++;
			p->lost += li[k].key;
		}
		if (s->cap[node] >= want || s->cap[node] >= ctx->cpus_per_task)
			n++;
		else
			vn = p->first;
		for (uint32_t k = p->first; k < vn; k++)
			give_back(x, victims[k]);
	}
	qsort(np, n, sizeof(*np), cmp_price);
	{
		uint32_t count = 0;
		bool fits = psim_fits(s);

		for (uint32_t i = 0; i < n && !fits; i++) {
			for (uint32_t k = np[i].first;
			     k < np[i].first + np[i].count; k++)
				if (!taken[victims[k]]) {
					taken[victims[k]] = true;
					take(x, victims[k]);
				}
			fits = psim_fits(s);
		}
		if (fits) {
			/* Drop victims it can do without, latest first. */
			for (uint32_t u = x->m; u-- > 0;) {
				if (!taken[u])
					continue;
				give_back(x, u);
				if (psim_fits(s))
					taken[u] = false;
				else
					take(x, u);
			}
			for (uint32_t u = 0; u < x->m; u++)
				if (taken[u])
					set[count++] = u;
			offer(x, set, count);
		}
		for (uint32_t u = 0; u < x->m; u++)
			if (taken[u])
				give_back(x, u);
	}
	free(np);
	free(li);
	free(victims);
	free(set);
	free(taken);
	return 0;
}

/* Slurm's victims as a set, when they suffice here. */
static void seed_slurm(struct search *x, const struct prio_preempt_plan *sp,
		       const uint32_t *use_of_cand)
{
	uint32_t n = 0;
	bool ok = true;

	for (uint32_t v = 0; v < sp->victim_count && ok; v++) {
		uint32_t c = x->s->cand_of[sp->entries[sp->victims[v]].res_job];

		ok = c != UINT32_MAX && use_of_cand[c] != UINT32_MAX;
		if (ok)
			x->cur[n++] = use_of_cand[c];
	}
	if (!ok)
		return;
	qsort(x->cur, n, sizeof(*x->cur), psim_cmp_u32);
	for (uint32_t i = 0; i < n; i++)
		take(x, x->cur[i]);
	if (psim_fits(x->s))
		offer(x, x->cur, n);
	for (uint32_t i = 0; i < n; i++)
		give_back(x, x->cur[i]);
}

static void search_free(struct search *x)
{
	free(x->use);
	free(x->lost);
	free(x->top_nodes);
	free(x->cur);
	free(x->best);
	free(x->nodes);
	free(x->cpus);
}

static int search_init(struct search *x, const struct prio_preempt_ctx *ctx,
		       struct psim *s, uint32_t **use_of_cand)
{
	const struct prio_snapshot *snap = ctx->snap;
	uint32_t n = ctx->cand_count ? ctx->cand_count : 1;
	uint32_t pn =
	    ctx->partition->node_count ? ctx->partition->node_count : 1;

	memset(x, 0, sizeof(*x));
	x->ctx = ctx;
	x->s = s;
	x->use = malloc(n * sizeof(*x->use));
	x->lost = malloc(n * sizeof(*x->lost));
	x->top_nodes = malloc(n * sizeof(*x->top_nodes));
	x->cur = malloc(n * sizeof(*x->cur));
	x->best = malloc(n * sizeof(*x->best));
	x->nodes = malloc(pn * sizeof(*x->nodes));
	x->cpus = malloc(pn * sizeof(*x->cpus));
	*use_of_cand = malloc(n * sizeof(**use_of_cand));
	if (!x->use || !x->lost || !x->top_nodes || !x->cur || !x->best ||
	    !x->nodes || !x->cpus || !*use_of_cand) {
		search_free(x);
		free(*use_of_cand);
		*use_of_cand = NULL;
		return -1;
	}
	for (uint32_t c = 0; c < ctx->cand_count; c++) {
		const struct prio_preempt_cand *cd = &ctx->cands[c];
		const struct prio_res_job *rj = &ctx->res->jobs[cd->res_job];
		const struct prio_job *job = &snap->jobs[rj->job];

		(*use_of_cand)[c] = UINT32_MAX;
		if (!cd->usable)
			continue;
		(*use_of_cand)[c] = x->m;
		x->use[x->m] = c;
		x->lost[x->m] =
		    cd->mode != PRIO_PREEMPT_SUSPEND && job->start_time &&
			    snap->now > job->start_time
			? (uint64_t)(snap->now - job->start_time) * rj->cpus
			: 0;
		x->top_nodes[x->m] = rj->alloc_count;
		x->m++;
	}
	qsort(x->top_nodes, x->m, sizeof(*x->top_nodes), cmp_u32_desc);
	return 0;
}

/* Fill the plan from the best set. */
static int build(struct search *x, struct prio_preempt_plan *plan)
{
	const struct prio_preempt_ctx *ctx = x->ctx;

	psim_reset(x->s, ctx->rows);
	for (uint32_t i = 0; i < x->best_cost.count; i++)
		take(x, x->best[i]);
	if (!pplan_place(x->s, plan))
		return 0;
	for (uint32_t i = 0; i < x->best_cost.count; i++)
		pplan_add_victim(ctx, plan, x->use[x->best[i]],
				 PRIO_WHY_MINIMAL);
	pplan_explain(ctx, plan, x->best_cost.count == 0, PRIO_WHY_SPARED);
	return 1;
}

/* Slurm's plan, taken over as the minimal one. */
static int copy_plan(const struct prio_preempt_plan *from,
		     struct prio_preempt_plan *plan)
{
	memcpy(plan->entries, from->entries,
	       from->entry_count * sizeof(*plan->entries));
	memcpy(plan->victims, from->victims,
	       from->victim_count * sizeof(*plan->victims));
	memcpy(plan->nodes, from->nodes,
	       from->node_count * sizeof(*plan->nodes));
	memcpy(plan->node_cpus, from->node_cpus,
	       from->node_count * sizeof(*plan->node_cpus));
	plan->victim_count = from->victim_count;
	plan->node_count = from->node_count;
	plan->can_start = from->can_start;
	memcpy(plan->why_not, from->why_not, sizeof(plan->why_not));
	for (uint32_t v = 0; v < plan->victim_count; v++)
		plan->entries[plan->victims[v]].why = PRIO_WHY_MINIMAL;
	return 1;
}

int prio_preempt_plan_minimal(const struct prio_preempt_ctx *ctx,
			      const struct prio_preempt_plan *slurm,
			      uint64_t step_limit,
			      struct prio_preempt_plan *plan,
			      struct prio_error *err)
{
	struct search x;
	struct psim s;
	uint32_t *use_of_cand = NULL;
	int rc = pplan_begin(ctx, plan, PRIO_STRATEGY_MINIMAL, &s, err);
	bool slurm_ok = slurm && slurm->can_start;

	if (rc <= 0) {
		plan->exact = true;
		return rc;
	}
	rc = 0;
	plan->exact = true;
	if (search_init(&x, ctx, &s, &use_of_cand) < 0) {
		psim_free(&s);
		prio_preempt_plan_free(plan);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	x.limit = step_limit ? step_limit : PRIO_PREEMPT_DEFAULT_STEPS;
	if (psim_fits(&s)) {
		offer(&x, x.cur, 0);
	} else if (ctx->preempt_enabled && x.m) {
		uint32_t top = slurm_ok ? slurm->victim_count : x.m;

		if (slurm_ok)
			seed_slurm(&x, slurm, use_of_cand);
		if (greedy(&x, use_of_cand) < 0)
			rc = -1;
		if (x.have_best && x.best_cost.count < top)
			top = x.best_cost.count;
		for (x.k = 1; rc == 0 && x.k <= top && !x.out_of_steps; x.k++) {
			dfs(&x, 0, 0);
			if (x.have_best && x.best_cost.count <= x.k)
				break;
		}
		plan->exact = !x.out_of_steps;
	}
	plan->steps = x.steps;
	if (rc == 0) {
		if (slurm_ok &&
		    (!x.have_best || x.best_cost.count > slurm->victim_count))
			rc = copy_plan(slurm, plan);
		else if (x.have_best)
			rc = build(&x, plan);
	}
	search_free(&x);
	free(use_of_cand);
	psim_free(&s);
	return pplan_end(ctx, plan, rc, err);
}
