/* SPDX-License-Identifier: MIT */
/*
 * The select plugin's resources, simulated for one pending job (see
 * preempt_sim.h).  The model, and how it maps to Slurm 22.05:
 *
 *  - A node gives the pending job nothing unless it is in the job's
 *    partition and up.
 *  - CPUs held by jobs of other partitions are never shared.  Jobs of the
 *    job's own partition may share CPUs with it up to `rows` deep:
 *    OverSubscribe=FORCE:n gives n rows (cons_tres keeps one row per
 *    max_share), YES:n only when the job asked for --oversubscribe,
 *    NO/EXCLUSIVE one (slurm-facts §9 "OverSubscribe interplay").  The
 *    extra "QOS row" of preempt/qos is one more row.
 *  - Memory, when the plugin tracks it, is never shared and a suspended job
 *    keeps its memory (the reason Slurm's documentation asks for memory
 *    tracking with SUSPEND,GANG).
 *  - select/linear and --exclusive take whole nodes: a node is usable only
 *    when no row is full and the job gets all its CPUs.
 *  - CPUs are counted, not placed on cores: a job that needs c CPUs on a
 *    node fits when c CPUs are free there.
 *
 * Node choice follows the select plugins' best fit: among maximal runs of
 * consecutive usable nodes, the smallest run that is sufficient, else the
 * largest, taking nodes from the start of the run, repeated until the job
 * has its nodes and CPUs.  This is what puts the documented example's job
 * on n[1-3] and the oracle's on pren[1-3], pren[1-2], pren[3-4].
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "preempt_sim.h"
#include "prio/conf.h"
#include "prio/snapshot.h"

/* Nodes with more CPUs than this are refused (the histogram is sized by
 * the largest node). */
#define PSIM_MAX_NODE_CPUS 65536u

int psim_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int psim_cmp_keyed(const void *a, const void *b)
{
	const struct psim_keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static uint32_t node_cap(const struct psim *s, uint32_t n)
{
	const struct prio_preempt_ctx *ctx = s->ctx;
	const struct prio_resources *res = s->res;
	int64_t c = res->node_cpus[n], avail, f;

	if (!s->in_part[n])
		return 0;
	avail = c - s->other[n];
	if (avail <= 0)
		return 0;
	f = (int64_t)s->rows * avail - s->own[n];
	if (f > avail)
		f = avail;
	if (f <= 0)
		return 0;
	if (ctx->whole_nodes) {
		if (f < c)
			return 0;
		f = c;
	}
	if (res->track_memory) {
		int64_t mem_free = (int64_t)res->node_mem[n] - s->mem[n];

		if (ctx->mem_per_node && mem_free < (int64_t)ctx->mem_per_node)
			return 0;
		if (ctx->mem_per_cpu) {
			int64_t by_mem =
			    mem_free < 0 ? 0
					 : mem_free / (int64_t)ctx->mem_per_cpu;

			if (ctx->whole_nodes && by_mem < c)
				return 0;
			if (by_mem < f)
				f = by_mem;
		}
	}
	f -= f % ctx->cpus_per_task;
	return f < (int64_t)ctx->cpus_per_task ? 0 : (uint32_t)f;
}

static void update_node(struct psim *s, uint32_t n)
{
	uint32_t old = s->cap[n], now = node_cap(s, n);

	if (old == now)
		return;
	if (s->in_part[n]) {
		s->hist[old]--;
		s->hist[now]++;
	}
	s->cap[n] = now;
}

int psim_init(struct psim *s, const struct prio_preempt_ctx *ctx,
	      struct prio_error *err)
{
	const struct prio_resources *res = ctx->res;
	const struct prio_partition *p = ctx->partition;
	uint32_t n = res->node_count, k = 0;

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->res = res;
	s->pnodes =
	    malloc((p->node_count ? p->node_count : 1) * sizeof(*s->pnodes));
	s->in_part = calloc(n ? n : 1, 1);
	s->other = calloc(n ? n : 1, sizeof(*s->other));
	s->own = calloc(n ? n : 1, sizeof(*s->own));
	s->mem = calloc(n ? n : 1, sizeof(*s->mem));
	s->cap = calloc(n ? n : 1, sizeof(*s->cap));
	s->level = calloc(res->job_count ? res->job_count : 1, 1);
	s->base = calloc(res->job_count ? res->job_count : 1, 1);
	s->cand_of =
	    malloc((res->job_count ? res->job_count : 1) * sizeof(*s->cand_of));
	if (!s->pnodes || !s->in_part || !s->other || !s->own || !s->mem ||
	    !s->cap || !s->level || !s->base || !s->cand_of)
		goto nomem;
	for (uint32_t i = 0; i < p->node_count; i++) {
		uint32_t node = p->nodes[i];

		if (node >= n || !res->node_up[node] || s->in_part[node])
			continue;
		if (res->node_cpus[node] > PSIM_MAX_NODE_CPUS) {
			psim_free(s);
			return prio_error_set(
			    err, PRIO_ERR_LIMIT, p->file ? p->file : "",
			    p->line, "CPUs",
			    "node %s has %u CPUs: more than the planner "
			    "handles",
			    prio_snapshot_str(ctx->snap,
					      ctx->snap->nodes[node].name),
			    res->node_cpus[node]);
		}
		s->in_part[node] = 1;
		s->pnodes[k++] = node;
		if (res->node_cpus[node] > s->cmax)
			s->cmax = res->node_cpus[node];
	}
	s->pnode_count = k;
	qsort(s->pnodes, k, sizeof(*s->pnodes), psim_cmp_u32);
	s->hist = calloc(s->cmax + 1, sizeof(*s->hist));
	if (!s->hist)
		goto nomem;
	for (uint32_t j = 0; j < res->job_count; j++)
		s->cand_of[j] = UINT32_MAX;
	for (uint32_t c = 0; c < ctx->cand_count; c++) {
		const struct prio_preempt_cand *cd = &ctx->cands[c];

		s->cand_of[cd->res_job] = c;
		/* A suspended job that may be preempted gives its CPUs
		 * already; requeue or cancel would free its memory too. */
		if (res->jobs[cd->res_job].suspended && cd->usable)
			s->base[cd->res_job] = PSIM_MEM;
	}
	psim_reset(s, ctx->rows);
	return 0;
nomem:
	psim_free(s);
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

void psim_free(struct psim *s)
{
	free(s->pnodes);
	free(s->in_part);
	free(s->other);
	free(s->own);
	free(s->mem);
	free(s->cap);
	free(s->hist);
	free(s->level);
	free(s->base);
	free(s->cand_of);
	memset(s, 0, sizeof(*s));
}

/* Add (sign 1) or take away (-1) part of a job's allocation. */
static void apply(struct psim *s, uint32_t rj, bool cpus, bool mem, int sign)
{
	const struct prio_resources *res = s->res;
	const struct prio_res_job *job = &res->jobs[rj];
	bool own = job->partition == s->ctx->partition_index;

	for (uint32_t a = job->first_alloc;
	     a < job->first_alloc + job->alloc_count; a++) {
		const struct prio_res_alloc *al = &res->allocs[a];

		if (cpus) {
			if (own)
				s->own[al->node] += sign * (int64_t)al->cpus;
			else
				s->other[al->node] += sign * (int64_t)al->cpus;
		}
		if (mem && res->track_memory)
			s->mem[al->node] += sign * (int64_t)al->mem_mb;
		update_node(s, al->node);
	}
}

void psim_set(struct psim *s, uint32_t rj, enum psim_level level)
{
	uint8_t from = s->level[rj];

	if (from == level)
		return;
	/* CPUs are held at level 0 only, memory at levels 0 and 1. */
	apply(s, rj, (from == PSIM_HELD) != (level == PSIM_HELD),
	      (from == PSIM_GONE) != (level == PSIM_GONE),
	      level > from ? -1 : 1);
	s->level[rj] = (uint8_t)level;
}

void psim_reset(struct psim *s, uint32_t rows)
{
	const struct prio_resources *res = s->res;

	s->rows = rows ? rows : 1;
	memset(s->other, 0, res->node_count * sizeof(*s->other));
	memset(s->own, 0, res->node_count * sizeof(*s->own));
	memset(s->mem, 0, res->node_count * sizeof(*s->mem));
	memset(s->hist, 0, (s->cmax + 1) * sizeof(*s->hist));
	for (uint32_t j = 0; j < res->job_count; j++)
		s->level[j] = PSIM_GONE;
	/* Start from empty nodes, then add every job at its base level. */
	for (uint32_t i = 0; i < s->pnode_count; i++) {
		s->cap[s->pnodes[i]] = node_cap(s, s->pnodes[i]);
		s->hist[s->cap[s->pnodes[i]]]++;
	}
	for (uint32_t j = 0; j < res->job_count; j++)
		psim_set(s, j, (enum psim_level)s->base[j]);
}

bool psim_fits(const struct psim *s)
{
	const struct prio_preempt_ctx *ctx = s->ctx;
	uint64_t sum = 0;
	uint32_t taken = 0, usable = 0;

	for (uint32_t v = s->cmax; v > 0; v--) {
		uint32_t c = s->hist[v], take;

		usable += c;
		take = ctx->max_nodes - taken < c ? ctx->max_nodes - taken : c;
		taken += take;
		sum += (uint64_t)take * v;
	}
	return usable >= ctx->need_nodes && sum >= ctx->need_cpus;
}

uint32_t psim_free_cpus(const struct psim *s, uint32_t node)
{
	int64_t f =
	    (int64_t)s->res->node_cpus[node] - s->other[node] - s->own[node];

	return f > 0 ? (uint32_t)f : 0;
}

/* Give each chosen node its CPUs: one task's worth each, the rest in node
 * order up to what the node has.  Returns the total. */
static uint64_t spread(const struct psim *s, const uint32_t *nodes,
		       uint32_t *cpus, uint32_t count)
{
	const struct prio_preempt_ctx *ctx = s->ctx;
	uint64_t total = 0, rest;

	for (uint32_t i = 0; i < count; i++) {
		cpus[i] =
		    ctx->whole_nodes ? s->cap[nodes[i]] : ctx->cpus_per_task;
		total += cpus[i];
	}
	rest = total < ctx->need_cpus ? ctx->need_cpus - total : 0;
	for (uint32_t i = 0; i < count && rest; i++) {
		uint32_t more = s->cap[nodes[i]] - cpus[i];

		if (more > rest)
			more = (uint32_t)rest;
		cpus[i] += more;
		total += more;
		rest -= more;
	}
	return total;
}

struct run {
	uint32_t first, count; /* into pnodes */
	uint64_t cpus;
	bool used;
};

struct capnode {
	uint32_t cap, node;
};

static int cmp_capnode(const void *a, const void *b)
{
	const struct capnode *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap > y->cap ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The fallback choice: the nodes with the most CPUs to give. */
static uint32_t select_largest(const struct psim *s, uint32_t *nodes)
{
	const struct prio_preempt_ctx *ctx = s->ctx;
	struct capnode *cn =
	    malloc((s->pnode_count ? s->pnode_count : 1) * sizeof(*cn));
	uint32_t k = 0, m = 0;
	uint64_t sum = 0;

	if (!cn)
		return 0;
	for (uint32_t i = 0; i < s->pnode_count; i++)
		if (s->cap[s->pnodes[i]])
			cn[m++] = (struct capnode){s->cap[s->pnodes[i]],
						   s->pnodes[i]};
	qsort(cn, m, sizeof(*cn), cmp_capnode);
	for (uint32_t i = 0; i < m && k < ctx->max_nodes &&
			     (k < ctx->need_nodes || sum < ctx->need_cpus);
	     i++) {
		nodes[k++] = cn[i].node;
		sum += cn[i].cap;
	}
	free(cn);
	qsort(nodes, k, sizeof(*nodes), psim_cmp_u32);
	return k;
}

uint32_t psim_select(const struct psim *s, uint32_t *nodes, uint32_t *cpus)
{
	const struct prio_preempt_ctx *ctx = s->ctx;
	struct run *runs;
	uint32_t nruns = 0, k = 0;
	int64_t rem_nodes = ctx->need_nodes, rem_cpus = ctx->need_cpus;

	if (!psim_fits(s))
		return 0;
	runs = malloc((s->pnode_count ? s->pnode_count : 1) * sizeof(*runs));
	if (!runs) {
		k = select_largest(s, nodes);
		goto done;
	}
	for (uint32_t i = 0; i < s->pnode_count; i++) {
		uint32_t n = s->pnodes[i];

		if (!s->cap[n])
			continue;
		if (nruns &&
		    runs[nruns - 1].first + runs[nruns - 1].count == i &&
		    s->pnodes[i - 1] + 1 == n) {
			runs[nruns - 1].count++;
			runs[nruns - 1].cpus += s->cap[n];
		} else {
			runs[nruns++] = (struct run){i, 1, s->cap[n], false};
		}
	}
	while ((rem_nodes > 0 || rem_cpus > 0) && k < ctx->max_nodes) {
		struct run *best = NULL;
		bool best_ok = false;

		for (uint32_t r = 0; r < nruns; r++) {
			struct run *run = &runs[r];
			bool ok = run->count >= rem_nodes &&
				  (int64_t)run->cpus >= rem_cpus;

			if (run->used)
				continue;
			if (!best || (ok && !best_ok) ||
			    (ok && best_ok && run->cpus < best->cpus) ||
			    (!ok && !best_ok && run->cpus > best->cpus)) {
				best = run;
				best_ok = ok;
			}
		}
		if (!best)
			break;
		best->used = true;
		for (uint32_t i = best->first;
		     i < best->first + best->count &&
		     (rem_nodes > 0 || rem_cpus > 0) && k < ctx->max_nodes;
		     i++) {
			nodes[k++] = s->pnodes[i];
			rem_nodes--;
			rem_cpus -= s->cap[s->pnodes[i]];
		}
	}
	free(runs);
	qsort(nodes, k, sizeof(*nodes), psim_cmp_u32);
	if (rem_nodes > 0 || rem_cpus > 0)
		k = select_largest(s, nodes);
done:
	if (spread(s, nodes, cpus, k) < ctx->need_cpus || k < ctx->need_nodes)
		return 0;
	return k;
}

bool psim_job_on_nodes(const struct psim *s, uint32_t rj, const uint32_t *nodes,
		       uint32_t count)
{
	const struct prio_res_job *job = &s->res->jobs[rj];

	for (uint32_t a = job->first_alloc;
	     a < job->first_alloc + job->alloc_count; a++) {
		uint32_t n = s->res->allocs[a].node;
		uint32_t lo = 0, hi = count;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (nodes[mid] < n)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < count && nodes[lo] == n)
			return true;
	}
	return false;
}

uint32_t psim_runs(const uint32_t *nodes, uint32_t count)
{
	uint32_t runs = 0;

	for (uint32_t i = 0; i < count; i++)
		if (i == 0 || nodes[i - 1] + 1 != nodes[i])
			runs++;
	return runs;
}
