/* SPDX-License-Identifier: MIT */
/*
 * The select plugin's view of a snapshot: node capacities and per-node job
 * allocations (resources.h).  Slurm keeps a suspended job's memory and its
 * place in the select plugin's rows, so suspended jobs are allocations
 * too; what they may give back to a preemptor is the planner's business.
 *
 * A job's allocation is read, in order of preference, from the detail
 * lines of `scontrol show job -d` (one per group of nodes with the same
 * CPU_IDs and Mem), else spread over NodeList: its CPUs split evenly (the
 * first nodes take the remainder) and its memory from TRES=mem.  Under
 * select/linear every allocation is the whole node, as that plugin gives
 * out nothing smaller (the oracle's CPU_IDs=0-7 on 8-CPU nodes).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/hostlist.h"
#include "prio/resources.h"
#include "prio/snapshot.h"

bool prio_node_state_usable(const char *state)
{
	static const char *const bad[] = {
	    "DOWN",	    "DRAIN",	  "FAIL",  "FUTURE",
	    "POWERED_DOWN", "POWER_DOWN", "INVAL", "NOT_RESPONDING"};

	if (!state)
		return true;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *hit = strcasestr(state, bad[i]);

		/* FAIL but not FAILING: a failing node still runs its jobs
		 * and takes none; DRAIN covers DRAINING and DRAINED. */
		if (hit && !(i == 2 && !strncasecmp(hit, "FAILING", 7)))
			return false;
	}
	return true;
}

/* Whether a job in this state holds resources, and how. */
static int holding(const struct prio_job *job, bool *suspended,
		   bool *completing)
{
	*suspended = false;
	*completing = false;
	switch ((enum prio_job_state)job->state) {
	case PRIO_JOB_RUNNING:
	case PRIO_JOB_CONFIGURING:
	case PRIO_JOB_SIGNALING:
	case PRIO_JOB_RESIZING:
	case PRIO_JOB_STOPPED:
		return 1;
	case PRIO_JOB_SUSPENDED:
		*suspended = true;
		return 1;
	case PRIO_JOB_COMPLETING:
	case PRIO_JOB_STAGE_OUT:
		*completing = true;
		return job->node_list != PRIO_NO_ID;
	default:
		return 0;
	}
}

struct builder {
	const struct prio_snapshot *snap;
	struct prio_resources *res;
	struct prio_error *err;
	uint32_t alloc_cap;
};

static int push_alloc(struct builder *b, uint32_t node, uint32_t cpus,
		      uint64_t mem)
{
	struct prio_resources *res = b->res;

	if (res->alloc_count == b->alloc_cap) {
		uint32_t cap = b->alloc_cap ? b->alloc_cap * 2 : 1024;
		struct prio_res_alloc *a =
		    realloc(res->allocs, cap * sizeof(*a));

		if (!a)
			return prio_error_set(b->err, PRIO_ERR_NOMEM, "", 0, "",
					      "out of memory");
		res->allocs = a;
		b->alloc_cap = cap;
	}
	res->allocs[res->alloc_count++] = (struct prio_res_alloc){
	    .node = node, .job = res->job_count, .cpus = cpus, .mem_mb = mem};
	return 0;
}

/* Expand a node list; names resolved to node indices in out[]. */
static int expand_nodes(struct builder *b, const struct prio_job *job,
			const char *field, prio_id list, uint32_t **out,
			uint32_t *count)
{
	const struct prio_snapshot *snap = b->snap;
	const char *text = prio_snapshot_str(snap, list);
	struct prio_hostlist hl;
	const char *why;
	uint32_t *idx;

	if (prio_hostlist_expand(&b->res->arena, text, strlen(text), &hl,
				 &why) < 0)
		return prio_error_set(b->err, PRIO_ERR_PARSE, job->file,
				      job->line, field, "job %u: %s: %s",
				      job->job_id, text, why);
	idx = malloc((hl.count ? hl.count : 1) * sizeof(*idx));
	if (!idx)
		return prio_error_set(b->err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	for (size_t i = 0; i < hl.count; i++) {
		prio_id id = prio_intern_find(&snap->strings, hl.names[i],
					      strlen(hl.names[i]));
		const struct prio_node *n =
		    id ? prio_snapshot_node(snap, id) : NULL;

		if (!n) {
			free(idx);
			return prio_error_set(b->err, PRIO_ERR_PARSE, job->file,
					      job->line, field,
					      "job %u runs on node %s, which "
					      "the configuration does not "
					      "define",
					      job->job_id, hl.names[i]);
		}
		idx[i] = (uint32_t)(n - snap->nodes);
	}
	*out = idx;
	*count = (uint32_t)hl.count;
	return 0;
}

static int add_job(struct builder *b, uint32_t j)
{
	const struct prio_snapshot *snap = b->snap;
	struct prio_resources *res = b->res;
	const struct prio_job *job = &snap->jobs[j];
	const struct prio_job_detail *d = job->detail;
	struct prio_res_job *rj = &res->jobs[res->job_count];
	bool linear = res->select == PRIO_SELECT_LINEAR;
	bool suspended, completing;
	uint32_t *nodes, count;
	int rc;

	if (!holding(job, &suspended, &completing) ||
	    job->node_list == PRIO_NO_ID)
		return 0;
	memset(rj, 0, sizeof(*rj));
	rj->job = j;
	rj->suspended = suspended;
	rj->completing = completing;
	rj->partition = UINT32_MAX;
	if (job->partition_count) {
		const struct prio_partition *p =
		    prio_snapshot_partition(snap, job->partitions[0]);

		if (p)
			rj->partition = (uint32_t)(p - snap->partitions);
	}
	rj->first_alloc = res->alloc_count;
	if (d && d->alloc_count) {
		for (uint32_t a = 0; a < d->alloc_count; a++) {
			const struct prio_job_alloc *al = &d->allocs[a];

			rc = expand_nodes(b, job, "Nodes", al->nodes, &nodes,
					  &count);
			if (rc < 0)
				return rc;
			for (uint32_t k = 0; k < count && rc == 0; k++)
				rc =
				    push_alloc(b, nodes[k],
					       linear ? res->node_cpus[nodes[k]]
						      : al->cpus,
					       al->mem_mb);
			free(nodes);
			if (rc < 0)
				return rc;
		}
	} else {
		uint64_t mem =
		    prio_tres_list_get(&job->tres_alloc, PRIO_TRES_MEM, 0);

		rc = expand_nodes(b, job, "NodeList", job->node_list, &nodes,
				  &count);
		if (rc < 0)
			return rc;
		for (uint32_t k = 0; k < count && rc == 0; k++) {
			uint32_t cpus = job->num_cpus / count +
					(k < job->num_cpus % count ? 1 : 0);

			rc =
			    push_alloc(b, nodes[k],
				       linear ? res->node_cpus[nodes[k]] : cpus,
				       count ? mem / count : 0);
		}
		free(nodes);
		if (rc < 0)
			return rc;
	}
	rj->alloc_count = res->alloc_count - rj->first_alloc;
	for (uint32_t a = rj->first_alloc; a < res->alloc_count; a++)
		rj->cpus += res->allocs[a].cpus;
	res->by_snap_job[j] = res->job_count++;
	return 0;
}

/* Per-node lists of allocations (counting sort by node, stable). */
static int index_nodes(struct prio_resources *res, struct prio_error *err)
{
	res->node_first = calloc(res->node_count + 1, sizeof(uint32_t));
	res->node_allocs = malloc((res->alloc_count ? res->alloc_count : 1) *
				  sizeof(uint32_t));
	if (!res->node_first || !res->node_allocs)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	for (uint32_t a = 0; a < res->alloc_count; a++)
		res->node_first[res->allocs[a].node + 1]++;
	for (uint32_t n = 0; n < res->node_count; n++)
		res->node_first[n + 1] += res->node_first[n];
	{
		uint32_t *fill = malloc((res->node_count + 1) * sizeof(*fill));

		if (!fill)
			return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					      "out of memory");
		memcpy(fill, res->node_first,
		       (res->node_count + 1) * sizeof(*fill));
		for (uint32_t a = 0; a < res->alloc_count; a++)
			res->node_allocs[fill[res->allocs[a].node]++] = a;
		free(fill);
	}
	return 0;
}

int prio_resources_build(const struct prio_snapshot *snap,
			 struct prio_resources *res, struct prio_error *err)
{
	const struct prio_config *c = &snap->conf;
	struct builder b = {.snap = snap, .res = res, .err = err};
	uint32_t n = snap->node_count;
	int rc;

	memset(res, 0, sizeof(*res));
	prio_arena_init(&res->arena);
	res->select = c->select_type && strcasestr(c->select_type, "linear")
			  ? PRIO_SELECT_LINEAR
			  : PRIO_SELECT_CONS_TRES;
	res->track_memory = c->select_type_parameters &&
			    strcasestr(c->select_type_parameters, "memory");
	res->node_count = n;
	res->node_cpus = calloc(n ? n : 1, sizeof(*res->node_cpus));
	res->node_mem = calloc(n ? n : 1, sizeof(*res->node_mem));
	res->node_up = calloc(n ? n : 1, sizeof(*res->node_up));
	res->jobs =
	    calloc(snap->job_count ? snap->job_count : 1, sizeof(*res->jobs));
	res->by_snap_job = malloc((snap->job_count ? snap->job_count : 1) *
				  sizeof(*res->by_snap_job));
	if (!res->node_cpus || !res->node_mem || !res->node_up || !res->jobs ||
	    !res->by_snap_job) {
		prio_resources_free(res);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_node *node = &snap->nodes[i];

		res->node_cpus[i] =
		    node->cpus_efctv ? node->cpus_efctv : node->cpus;
		res->node_mem[i] = node->real_memory;
		res->node_up[i] = prio_node_state_usable(node->state);
	}
	for (uint32_t j = 0; j < snap->job_count; j++)
		res->by_snap_job[j] = UINT32_MAX;
	for (uint32_t j = 0; j < snap->job_count; j++) {
		rc = add_job(&b, j);
		if (rc < 0) {
			prio_resources_free(res);
			return rc;
		}
	}
	rc = index_nodes(res, err);
	if (rc < 0)
		prio_resources_free(res);
	return rc;
}

void prio_resources_free(struct prio_resources *res)
{
	free(res->node_cpus);
	free(res->node_mem);
	free(res->node_up);
	free(res->jobs);
	free(res->allocs);
	free(res->by_snap_job);
	free(res->node_first);
	free(res->node_allocs);
	prio_arena_free(&res->arena);
	memset(res, 0, sizeof(*res));
}
