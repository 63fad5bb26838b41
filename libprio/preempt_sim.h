/* SPDX-License-Identifier: MIT */
/*
 * Internal: the select plugin's simulated resources for one pending job
 * (preempt_sim.c), shared by Slurm's plan (preempt.c) and the minimal plan
 * (preempt_minimal.c).
 *
 * Per node it keeps the CPUs held by jobs of other partitions, the CPUs
 * held by jobs of the pending job's own partition (which it may share up to
 * `rows` deep, Slurm's OverSubscribe rows) and the memory held, and from
 * them the CPUs the pending job could get there ("cap").  A histogram of
 * the caps answers "does it fit?" in O(largest node) without a node scan,
 * so simulating the removal of thousands of candidates one by one stays
 * linear.
 */
#ifndef PRIO_PREEMPT_SIM_H
#define PRIO_PREEMPT_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "prio/preempt.h"

/* Field comments are aligned by hand. */
/* clang-format off */

/* A job's JobName as a string, whether the job record holds it interned
 * (prio_id) or as a string (const char *): the loaders moved from the
 * first to the second, and both planners and the report read it here. */
#define PSIM_JOB_NAME(snap, job)                                               \
	_Generic((job)->name,                                                  \
	    const char *: (const char *)(uintptr_t)(job)->name,                \
	    default: prio_snapshot_str((snap), (prio_id)(uintptr_t)(job)->name))

/* How much of a job's allocation the simulation counts as held. */
enum psim_level {
	PSIM_HELD = 0, /* CPUs and memory */
	PSIM_MEM,      /* memory only: suspended */
	PSIM_GONE,     /* nothing: requeued or cancelled */
};

struct psim {
	const struct prio_preempt_ctx *ctx;
	const struct prio_resources *res;
	uint32_t *pnodes;       /* the partition's usable nodes, ascending */
	uint32_t pnode_count;
	uint8_t *in_part;       /* per node */
	int64_t *other, *own, *mem;
	uint32_t *cap;          /* per node */
	uint32_t *hist;         /* caps of the partition's nodes */
	uint32_t cmax;
	uint32_t rows;
	uint8_t *level;         /* per res job, enum psim_level */
	uint8_t *base;          /* per res job, the level psim_reset sets */
	uint32_t *cand_of;      /* res job -> candidate index or UINT32_MAX */
};

int psim_init(struct psim *s, const struct prio_preempt_ctx *ctx,
	      struct prio_error *err);
void psim_free(struct psim *s);
/* Every job back to its base level (running: held; suspended candidates:
 * memory only), `rows` rows. */
void psim_reset(struct psim *s, uint32_t rows);
/* Move a job to a level (either direction). */
void psim_set(struct psim *s, uint32_t res_job, enum psim_level level);
/* Whether the pending job fits now. */
bool psim_fits(const struct psim *s);
/* Pick its nodes as the select plugin does (best-fitting run of
 * consecutive usable nodes first).  Fills nodes[] and cpus[] (room for
 * the partition's node count) and returns their number, or 0 when it does
 * not fit. */
uint32_t psim_select(const struct psim *s, uint32_t *nodes, uint32_t *cpus);
/* The CPUs on node n held by nobody (jobs at PSIM_HELD count). */
uint32_t psim_free_cpus(const struct psim *s, uint32_t node);
/* Whether a job has an allocation on one of nodes[0..count) (sorted). */
bool psim_job_on_nodes(const struct psim *s, uint32_t res_job,
		       const uint32_t *nodes, uint32_t count);
/* qsort comparators shared by the planners: uint32_t ascending, and
 * (key, idx) pairs ascending by key then idx. */
int psim_cmp_u32(const void *a, const void *b);
struct psim_keyed {
	uint64_t key;
	uint32_t idx;
};
int psim_cmp_keyed(const void *a, const void *b);
/* Maximal runs of consecutive node indices in nodes[0..count) (sorted). */
uint32_t psim_runs(const uint32_t *nodes, uint32_t count);

/* --- plans (preempt.c), shared by both strategies ---------------------- */
/* Allocate a plan's arrays, entries copied from the ctx's template. */
int pplan_init(const struct prio_preempt_ctx *ctx,
	       struct prio_preempt_plan *plan,
	       enum prio_preempt_strategy strategy, struct prio_error *err);
/* pplan_init, then: when the job can never start, the plan says why and
 * 0 is returned; else the simulation s is set up (free it) and 1 is
 * returned.  Negative on error, with nothing to free. */
int pplan_begin(const struct prio_preempt_ctx *ctx,
		struct prio_preempt_plan *plan,
		enum prio_preempt_strategy strategy, struct psim *s,
		struct prio_error *err);
/* End a plan by the outcome rc of its search: negative, out of memory
 * (the plan is freed); 0, it cannot start; positive, placed: finish it
 * (what happens next, totals). */
int pplan_end(const struct prio_preempt_ctx *ctx,
	      struct prio_preempt_plan *plan, int rc, struct prio_error *err);
/* Make candidate c a victim (action from its mode), appended in order. */
void pplan_add_victim(const struct prio_preempt_ctx *ctx,
		      struct prio_preempt_plan *plan, uint32_t c, uint8_t why);
/* Place the job on the simulation's current resources; false if it does
 * not fit. */
bool pplan_place(struct psim *s, struct prio_preempt_plan *plan);
/* Why every other candidate is left alone, what happens next, totals. */
int pplan_finish(const struct prio_preempt_ctx *ctx,
		 struct prio_preempt_plan *plan, struct prio_error *err);
/* Why candidates that are no victims were left alone, when nothing more
 * precise was said: the job fit without preemption (fit_free), SUSPEND
 * without GANG, already suspended, skipped by the walk, else `otherwise`. */
void pplan_explain(const struct prio_preempt_ctx *ctx,
		   struct prio_preempt_plan *plan, bool fit_free,
		   uint8_t otherwise);
/* Mark the plan as unable to start, with the reason. */
void pplan_cannot(const struct prio_preempt_ctx *ctx,
		  struct prio_preempt_plan *plan);

/* clang-format on */

#endif
