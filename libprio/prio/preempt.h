/* SPDX-License-Identifier: MIT */
/*
 * Preemption planning: which running jobs a pending job would preempt, how
 * (suspend, requeue, cancel) and when, the way Slurm decides it
 * (slurm-facts §9; what changed from 23.02 to 26.05 is keyed on the
 * snapshot's release, prio_snapshot_slurm()), and the placement that
 * preempts the fewest jobs.
 *
 *   1. prio_preempt_ctx_new(): resolve the pending job's request against
 *      the snapshot, and sort every job that holds resources into
 *      preemption candidates (in Slurm's order) and jobs that cannot be
 *      preempted, each with its reason.
 *   2. prio_preempt_plan_slurm(): Slurm's own plan -- the select plugin's
 *      simulated preemption one candidate at a time, the reorder passes,
 *      the gang scheduler's share (preempt.c).
 *      prio_preempt_plan_minimal(): the fewest victims, exact by iterative
 *      deepening over candidate sets within a step budget, else the best of
 *      a greedy node-by-node search and Slurm's plan (preempt_minimal.c).
 *   3. Each plan says what happens next: when victims are signalled,
 *      stopped, requeued (eligible again after Slurm's begin-time delay) or
 *      resumed, and when the pending job starts.
 *
 * Everything is a pure function of the snapshot and its clock.
 */
#ifndef PRIO_PREEMPT_H
#define PRIO_PREEMPT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "intern.h"
#include "resources.h"

/* Field comments are aligned by hand. */
/* clang-format off */

struct prio_snapshot;
struct prio_partition;
struct prio_qos;

/* The pending job: from the snapshot (prio_preempt_request_from_job) or
 * described like sbatch options. */
struct prio_preempt_request {
	uint32_t job_id;       /* 0: one above the highest id in the snapshot */
	uint32_t job_index;    /* snap->jobs index, UINT32_MAX when described */
	const char *name;      /* JobName; NULL: none */
	prio_id user, account, qos, partition; /* PRIO_NO_ID: default */
	uint32_t min_nodes;    /* 0: 1 */
	uint32_t max_nodes;    /* 0: min_nodes when given, else one per task */
	uint32_t ntasks;       /* 0: one per node */
	uint32_t cpus_per_task; /* 0: 1 */
	uint32_t min_cpus;     /* total CPUs; 0: ntasks * cpus_per_task */
	uint64_t mem_mb;       /* 0: DefMemPerCPU per CPU, else none */
	bool mem_per_cpu;      /* mem_mb is per CPU, else per node */
	uint32_t time_limit;   /* minutes; PRIO_NO_VAL: partition default */
	uint32_t priority;     /* job priority, for QOS PreemptMode=WITHIN */
	bool exclusive;        /* --exclusive: whole nodes */
	bool oversubscribe;    /* --oversubscribe (OverSubscribe=YES) */
};

void prio_preempt_request_init(struct prio_preempt_request *req);
/* A pending job of the snapshot; fields already set in req (not 0 /
 * PRIO_NO_ID) are kept as overrides.  PRIO_ERR_USAGE when the job is not
 * pending. */
int prio_preempt_request_from_job(const struct prio_snapshot *snap,
				  uint32_t job_index,
				  struct prio_preempt_request *req,
				  struct prio_error *err);

enum prio_preempt_action {
	PRIO_ACTION_NONE = 0,
	PRIO_ACTION_SUSPEND,
	PRIO_ACTION_REQUEUE,
	PRIO_ACTION_CANCEL,
	PRIO_ACTION_COUNT
};
const char *prio_preempt_action_name(enum prio_preempt_action a); /* "requeue" */

/* Why a job is, or is not, preempted (text in report_preempt.h). */
enum prio_preempt_why {
	PRIO_WHY_NONE = 0,
	/* victims */
	PRIO_WHY_FIT,             /* its removal made the job fit */
	PRIO_WHY_REMOVED,         /* removed before that, on the chosen nodes */
	PRIO_WHY_SHADOW,          /* under the preemptor's CPUs (gang) */
	PRIO_WHY_QOS_ROW,         /* overlapped through the extra QOS row */
	PRIO_WHY_MINIMAL,         /* one of the fewest victims */
	/* candidates left alone */
	PRIO_WHY_FREE,            /* the job fits without preemption */
	PRIO_WHY_NOT_NEEDED,      /* after the candidate that made it fit */
	PRIO_WHY_OFF_NODES,       /* removed in simulation, not on its nodes */
	PRIO_WHY_SPARED,          /* minimal plan: not needed */
	PRIO_WHY_NOT_ENOUGH,      /* the job cannot start anyway */
	PRIO_WHY_SKIPPED_SUSPEND, /* SUSPEND: the select plugin's walk skips it */
	PRIO_WHY_NO_GANG,         /* SUSPEND without PreemptMode GANG */
	PRIO_WHY_TIMESLICE,       /* shares CPUs with it by gang time-slicing */
	PRIO_WHY_ALREADY_SUSPENDED, /* suspended already: its CPUs are free */
	/* not candidates */
	PRIO_WHY_DISABLED,        /* PreemptType=preempt/none or mode OFF */
	PRIO_WHY_NO_OVERLAP,      /* no node in the job's partition */
	PRIO_WHY_NO_PARTITION,    /* its partition is unknown */
	PRIO_WHY_TIER,            /* its partition's PriorityTier is not lower */
	PRIO_WHY_MODE_OFF,        /* its partition's / QOS's PreemptMode=OFF */
	PRIO_WHY_NO_QOS,          /* preempt/qos: no QOS on one side */
	PRIO_WHY_QOS_NOT_LISTED,  /* not in the preemptor QOS's Preempt list */
	PRIO_WHY_QOS_SAME,        /* same QOS, PreemptMode WITHIN not set */
	PRIO_WHY_QOS_PRIORITY,    /* same QOS (WITHIN), priority not lower */
	PRIO_WHY_EXEMPT,          /* PreemptExemptTime not elapsed */
	PRIO_WHY_COMPLETING,      /* completing: cannot be preempted */
	PRIO_WHY_PRIORITY_MODE,   /* PreemptMode PRIORITY (25.05): its job
				   * priority is above the preemptor's */
	PRIO_WHY_MIN_EXEMPT,      /* PreemptParameters min_exempt_priority:
				   * its priority is above it */
	PRIO_WHY_COUNT
};

/* One job that holds resources, as a plan treats it. */
struct prio_preempt_entry {
	uint32_t job;             /* snap->jobs index */
	uint32_t res_job;         /* res->jobs index */
	uint8_t action;           /* enum prio_preempt_action */
	uint8_t why;              /* enum prio_preempt_why */
	bool candidate;           /* Slurm would consider preempting it */
	bool requeue_fallback;    /* REQUEUE on a job that cannot be requeued */
	uint16_t mode;            /* PRIO_PREEMPT_SUSPEND/REQUEUE/CANCEL; 0 */
	uint32_t grace;           /* GraceTime, seconds */
	uint32_t rank;            /* 1-based place in Slurm's candidate order
				   * (after reordering); 0 not a candidate */
	int64_t detail;           /* EXEMPT: seconds left; TIER: its tier */
	uint64_t lost_cpu_seconds; /* requeue/cancel: CPUs x time run */
	/* CANCEL/REQUEUE with GraceTime: a job that ends by itself after
	 * SIGTERM counts as preempted (24.05: state PREEMPTED, a REQUEUE
	 * batch job requeued); before 24.05 it ends as it exits (COMPLETED,
	 * FAILED...) and is not requeued. */
	bool grace_exit_preempted;
	/* SUSPEND: PreemptExemptTime not elapsed, but preempt/partition_prio
	 * with GANG before 26.05 suspends it anyway (detail: seconds left) */
	bool exempt_ignored;
	/* What happens next (0 = nothing): */
	time_t signal_time;       /* SIGCONT+SIGTERM (grace > 0) */
	time_t stop_time;         /* suspended, killed or requeued */
	time_t resume_time;       /* suspend: resumed when the preemptor ends;
				   * requeue: eligible again (BeginTime) */
};

/* A job that holds resources, classified once for every plan. */
struct prio_preempt_cand {
	uint32_t entry;    /* index into the ctx's entries */
	uint32_t res_job;
	uint16_t mode;     /* resolved, GANG/WITHIN stripped */
	uint32_t grace;
	uint64_t key;      /* Slurm's sort key (tier or QOS priority, size) */
	uint32_t tier;     /* partition tier or QOS priority, for ties */
	bool usable;       /* Slurm can act on its mode */
	time_t start_time;
};

enum prio_preempt_strategy {
	PRIO_STRATEGY_SLURM = 0,
	PRIO_STRATEGY_MINIMAL,
};

struct prio_preempt_plan {
	enum prio_preempt_strategy strategy;
	bool can_start;
	char why_not[256];        /* when it cannot start */
	/* Where the pending job runs (node indices and CPUs on each). */
	uint32_t *nodes, *node_cpus;
	uint32_t node_count;
	/* Every job holding resources, in snapshot order. */
	struct prio_preempt_entry *entries;
	uint32_t entry_count;
	/* Victims: indices into entries, in the order Slurm acts on them. */
	uint32_t *victims;
	uint32_t victim_count;
	uint32_t action_count[PRIO_ACTION_COUNT];
	uint64_t lost_cpu_seconds;
	uint32_t reorders;        /* Slurm: reorder passes made */
	bool exact;               /* minimal: the search finished */
	uint64_t steps;           /* minimal: feasibility tests made */
	time_t start_time;        /* the pending job starts */
	time_t end_time;          /* ... and ends at its time limit */
};

/* The resolved question, shared by both strategies. */
struct prio_preempt_ctx {
	const struct prio_snapshot *snap;
	const struct prio_resources *res;
	struct prio_preempt_request req; /* defaults filled in */
	const struct prio_partition *partition;
	uint32_t partition_index;
	const struct prio_qos *qos;      /* NULL when none */
	uint32_t need_nodes, max_nodes, need_cpus, cpus_per_task;
	uint64_t mem_per_cpu, mem_per_node; /* MB */
	bool whole_nodes;
	uint32_t rows;                   /* CPUs of its partition shared by */
	bool preempt_enabled, gang;
	bool youngest_first, strict_order;
	uint32_t reorder_count;
	uint32_t min_exempt_priority;    /* PRIO_NO_VAL none */
	uint32_t requeue_delay;          /* seconds before a requeued job may
					  * start again */
	/* Entries template (one per res job, reasons for non-candidates). */
	struct prio_preempt_entry *entries;
	uint32_t entry_count;
	/* Candidates in Slurm's order. */
	struct prio_preempt_cand *cands;
	uint32_t cand_count;
	/* Why the job can never start here (partition down, too big...),
	 * "" when it might. */
	char impossible[256];
};

int prio_preempt_ctx_init(struct prio_preempt_ctx *ctx,
			  const struct prio_snapshot *snap,
			  const struct prio_resources *res,
			  const struct prio_preempt_request *req,
			  struct prio_error *err);
void prio_preempt_ctx_free(struct prio_preempt_ctx *ctx);

int prio_preempt_plan_slurm(const struct prio_preempt_ctx *ctx,
			    struct prio_preempt_plan *plan,
			    struct prio_error *err);

/* step_limit: feasibility tests the exact search may make (0: default,
 * PRIO_PREEMPT_DEFAULT_STEPS); past it the plan is the best found and
 * plan->exact is false.  slurm: Slurm's plan for the same ctx, or NULL; the
 * result never has more victims than it. */
#define PRIO_PREEMPT_DEFAULT_STEPS 200000u
int prio_preempt_plan_minimal(const struct prio_preempt_ctx *ctx,
			      const struct prio_preempt_plan *slurm,
			      uint64_t step_limit,
			      struct prio_preempt_plan *plan,
			      struct prio_error *err);

void prio_preempt_plan_free(struct prio_preempt_plan *plan);

/* clang-format on */

#endif
