/* SPDX-License-Identifier: MIT */
/*
 * What the select plugin sees: each node's CPUs and memory, and what every
 * running or suspended job holds on each of its nodes.  Built once from a
 * snapshot for the preemption planner (preempt.h).
 *
 * Allocations come from `scontrol show job -d` detail lines ("Nodes=n[1-2]
 * CPU_IDs=0-3 Mem=4096": CPUs counted per node) or `squeue --json`; a job
 * without them is spread over its NodeList (its CPUs split evenly, its
 * memory from TRES=mem).  Under select/linear a job always holds whole
 * nodes, as that plugin allocates them.  Memory counts only when the
 * select plugin tracks it (SelectTypeParameters with "Memory"), as Slurm
 * then refuses to overcommit it.
 */
#ifndef PRIO_RESOURCES_H
#define PRIO_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"

/* Field comments are aligned by hand. */
/* clang-format off */

struct prio_snapshot;

enum prio_select_kind {
	PRIO_SELECT_CONS_TRES = 0, /* select/cons_tres, cons_res: CPUs */
	PRIO_SELECT_LINEAR,        /* select/linear: whole nodes */
};

/* What one job holds on one node. */
struct prio_res_alloc {
	uint32_t node;   /* index into snap->nodes */
	uint32_t job;    /* index into jobs (not snap->jobs) */
	uint32_t cpus;
	uint64_t mem_mb;
};

/* A running or suspended job as the planner sees it. */
struct prio_res_job {
	uint32_t job;          /* index into snap->jobs */
	uint32_t partition;    /* index into snap->partitions, UINT32_MAX none */
	uint32_t first_alloc;  /* allocs[first_alloc .. +alloc_count) */
	uint32_t alloc_count;
	uint32_t cpus;         /* sum over its nodes */
	bool suspended;        /* JobState=SUSPENDED */
	bool completing;       /* holds resources, cannot be preempted */
};

struct prio_resources {
	enum prio_select_kind select;
	bool track_memory;
	uint32_t node_count;      /* == snap->node_count */
	uint32_t *node_cpus;      /* usable CPUs (CPUs minus specialised) */
	uint64_t *node_mem;       /* RealMemory, MB */
	bool *node_up;            /* not DOWN, DRAINED, FUTURE, ... */
	struct prio_res_job *jobs;
	uint32_t job_count;
	struct prio_res_alloc *allocs;
	uint32_t alloc_count;
	/* snap job index -> index into jobs, UINT32_MAX when not holding
	 * resources */
	uint32_t *by_snap_job;
	/* Jobs per node: node_jobs[node_first[n] .. node_first[n+1]) are
	 * indices into allocs, in job order. */
	uint32_t *node_first;
	uint32_t *node_allocs;
	struct prio_arena arena; /* expanded host names */
};

/* Build the model.  Errors: a job naming an unknown node or a malformed
 * node list (PRIO_ERR_PARSE with the job's file and line), PRIO_ERR_NOMEM. */
int prio_resources_build(const struct prio_snapshot *snap,
			 struct prio_resources *res, struct prio_error *err);
void prio_resources_free(struct prio_resources *res);

/* Whether a node state string ("IDLE", "DOWN*", "MIXED+DRAIN") leaves the
 * node usable for new work. */
bool prio_node_state_usable(const char *state);

/* clang-format on */

#endif
