/* SPDX-License-Identifier: MIT */
/*
 * Jobs from `scontrol show job [-d] [-o]` (job_scontrol.c) and
 * `squeue --json` (job_squeue_json.c).  One record per job as the controller
 * holds it: a pending job array that has not been split is one record with
 * array_task_text set, as sprio shows it.
 *
 * The record is kept small because a queue may hold a million pending jobs
 * (DESIGN §5: at most 256 bytes of heap per job): names are interned ids,
 * identical TRES lists and partition lists share one arena copy, and the
 * fields only running or unusual jobs have live in struct prio_job_detail.
 * Strings of an id are read with prio_snapshot_str().
 */
#ifndef PRIO_JOB_H
#define PRIO_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "intern.h"
#include "tres.h"

enum prio_job_state {
	PRIO_JOB_PENDING = 0,
	PRIO_JOB_RUNNING,
	PRIO_JOB_SUSPENDED,
	PRIO_JOB_COMPLETE, /* COMPLETED */
	PRIO_JOB_CANCELLED,
	PRIO_JOB_FAILED,
	PRIO_JOB_TIMEOUT,
	PRIO_JOB_NODE_FAIL,
	PRIO_JOB_PREEMPTED,
	PRIO_JOB_BOOT_FAIL,
	PRIO_JOB_DEADLINE,
	PRIO_JOB_OOM, /* OUT_OF_MEMORY */
	PRIO_JOB_COMPLETING,
	PRIO_JOB_CONFIGURING,
	PRIO_JOB_REQUEUED,
	PRIO_JOB_RESIZING,
	PRIO_JOB_REVOKED,
	PRIO_JOB_SIGNALING,
	PRIO_JOB_STAGE_OUT,
	PRIO_JOB_STOPPED,
	PRIO_JOB_REQUEUE_HOLD, /* pending again after a requeue, held */
	PRIO_JOB_REQUEUE_FED,
	PRIO_JOB_SPECIAL_EXIT,
	PRIO_JOB_RESV_DEL_HOLD,
	/* 25.11: a requeued job whose requeue asked to be expedited; its
	 * base state is PENDING, and the scheduler queues it before every
	 * other job (sort_job_queue2: "infinite" priority).  squeue's short
	 * code stays the base state's, PD. */
	PRIO_JOB_EXPEDITING,
	PRIO_JOB_STATE_COUNT
};

/* Parse a full name ("PENDING", "OUT_OF_MEMORY"), a short code as squeue
 * prints it ("PD", "R", "OOM"), or sacct's "CANCELLED by 0" (only the
 * first word counts).  Returns 0, or -1 if unknown. */
int prio_job_state_parse(const char *s, size_t n, enum prio_job_state *st);
const char *prio_job_state_name(enum prio_job_state st);  /* "PENDING" */
const char *prio_job_state_short(enum prio_job_state st); /* "PD" */
/* A state whose base is PENDING, as Slurm's IS_JOB_PENDING sees it: the
 * priority engines compute, list and queue such jobs (PENDING, and 25.11's
 * EXPEDITING). */
bool prio_job_state_pending(enum prio_job_state st);
/* RUNNING or SUSPENDED: the job holds its allocation, and Slurm's decay
 * cycle charges it usage (suspended too: slurm-facts §4). */
bool prio_job_state_allocated(enum prio_job_state st);

struct prio_job;
/* For a pending job whose NumNodes (squeue: node_count) is a single number,
 * Slurm prints its estimate of the nodes the job will need (12 CPUs on
 * 8-CPU nodes: 2), while the requested TRES node= count is the minimum the
 * user asked for, the one job size uses: take that into min_nodes.  A
 * requested range ("2-2") is kept.  The loaders call it for every job.
 * Returns the count as printed when it lowered min_nodes (squeue's NODES
 * column shows that one: the loaders keep it in detail->nodes_shown), 0
 * when min_nodes is the printed count. */
uint32_t prio_job_requested_nodes(struct prio_job *job);

/* One line of `scontrol show job -d` detail: "Nodes=n[1-2] CPU_IDs=0-3
 * Mem=4096 GRES=" -- every node of the hostlist got the same CPUs and
 * memory.  From squeue --json, one per allocated node, cpus = the cores
 * listed as allocated. */
struct prio_job_alloc {
	prio_id nodes;       /* hostlist as printed */
	uint32_t cpus;       /* CPU ids counted, per node */
	uint64_t mem_mb;     /* per node */
};

/* What only running, restarted, heterogeneous or reserved jobs have.
 * struct prio_job points to one only when some field is set. */
struct prio_job_detail {
	prio_id batch_host;        /* BatchHost */
	prio_id reservation;       /* Reservation */
	prio_id licenses;          /* Licenses */
	prio_id features;          /* Features */
	uint32_t het_job_offset;   /* HetJobOffset; PRIO_NO_VAL when none */
	uint32_t restarts;         /* Restarts (requeue count) */
	time_t preempt_eligible_time; /* PreemptEligibleTime, 0 unset */
	struct prio_job_alloc *allocs; /* -d detail lines, in order */
	uint32_t alloc_count;
	struct prio_job_qos_list *qos_list; /* several QOS (24.11); NULL: one */
	/* Slurm's start estimate (squeue --start): where backfill plans to
	 * run a pending job (SchedNodeList=, scheduled_nodes); PRIO_NO_ID
	 * when none.  The estimate's time is job->start_time. */
	prio_id sched_nodes;
	/* squeue --json's state_description ("ReqNodeNotAvail, May be
	 * reserved for other job"), what squeue prints in place of the
	 * reason; scontrol prints it as Reason= with '_' for blanks, so
	 * from scontrol it is PRIO_NO_ID and job->reason holds it. */
	prio_id state_desc;
	uint32_t nodes_shown; /* NumNodes as printed when min_nodes was
			       * lowered (prio_job_requested_nodes); 0: same */
};

/* A job submitted with several QOS (24.11, `--qos=low,high`): scontrol
 * prints the request as given (QOS=low,high) while the job pends.  The
 * loaders keep the names in the order given; prio_snapshot_finish() sorts
 * them as the controller does (prio_qos_sort_desc: Priority, highest
 * first, repeats dropped) and sets the job's qos to the first.  One per job,
 * in the snapshot's arena; line is where QOS= was read, for errors. */
struct prio_job_qos_list {
	uint32_t line;
	uint32_t count;
	prio_id ids[];
};

/* The list of a QOS value holding a comma ("low,high") read at line, in
 * the snapshot's arena, into *out.  Returns 0, -1 out of memory, -2 an
 * empty name in the list (",high", "low,,high").  The loaders keep it in
 * the job's detail (a rare field) and set job->qos to its first name. */
struct prio_snapshot;
int prio_job_qos_list_parse(struct prio_snapshot *snap, const char *s, size_t n,
			    uint32_t line, struct prio_job_qos_list **out);
/* Give a loaded job the list l (NULL: one QOS again), copying its detail
 * into the arena; job->qos becomes l's first.  0, or -1 out of memory. */
struct prio_job;
int prio_job_set_qos_list(struct prio_snapshot *snap, struct prio_job *job,
			  struct prio_job_qos_list *l);

/* How many QOS a job's priority is computed for (1 with one QOS) and the
 * k-th of them, highest priority first once the snapshot is finished.
 * Defined after struct prio_job. */
static inline uint32_t prio_job_qos_count(const struct prio_job *job);
static inline prio_id prio_job_qos_at(const struct prio_job *job, uint32_t k);

struct prio_job {
	uint32_t job_id;
	uint32_t array_job_id;     /* 0 when not an array job */
	uint32_t array_task_id;    /* PRIO_NO_VAL when not a single task */
	uint32_t het_job_id;       /* 0 when not heterogeneous */
	prio_id array_task_text;   /* "0-2", "0-9%2": an unsplit pending array */
	const char *name;          /* JobName (arena; often unique per job,
				    * so not interned) */
	prio_id user;
	uint32_t uid;              /* PRIO_NO_VAL when unknown */
	prio_id account;           /* PRIO_NO_ID when "(null)" */
	prio_id qos;		   /* PRIO_NO_ID when "(null)"; with several,
				    * the first of detail->qos_list */
	prio_id reason;            /* "Priority", "Resources", "None"... */
	prio_id dependency;        /* PRIO_NO_ID when "(null)" */
	prio_id node_list;         /* NodeList; PRIO_NO_ID when none */
	prio_id oversubscribe;     /* "OK", "NO", "YES", "USER", "MCS" */
	uint32_t priority;         /* as the controller last stored it */
	int32_t nice;
	uint32_t time_limit;       /* minutes; PRIO_INFINITE, PRIO_NO_VAL */
	uint32_t min_nodes, max_nodes; /* NumNodes=min[-max]; max 0 if none */
	uint32_t num_cpus;         /* NumCPUs: total_cpus, or the min */
	uint32_t max_cpus;         /* NumCPUs=min-max; 0 if none */
	uint32_t num_tasks;        /* PRIO_NO_VAL when not shown */
	uint32_t ntasks_per_node;  /* --ntasks-per-node; 0 when not asked */
	uint32_t partition_count;
	uint32_t line;             /* where the record starts */
	uint16_t cpus_per_task;    /* CPUs/Task; 0 when not shown */
	uint8_t state;             /* enum prio_job_state */
	bool requeue;              /* Requeue=1 */
	bool held;                 /* priority 0 with a JobHeld* reason */
	bool held_by_admin;        /* JobHeldAdmin */
	bool mem_per_cpu;          /* min_memory is per CPU (MinMemoryCPU) */
	bool sched_nodes_unknown;  /* the input cannot tell SchedNodeList:
				    * 22.05's squeue --json leaves it out */
	uint64_t min_memory;       /* MB per node or per CPU; 0 not shown */
	time_t submit_time, eligible_time, accrue_time, start_time, end_time,
	       suspend_time, preempt_time; /* 0 = Unknown/None */
	const prio_id *partitions; /* requested partitions, as listed (shared) */
	struct prio_tres_list tres_req;   /* requested (pending: TRES=) */
	struct prio_tres_list tres_alloc; /* allocated (running: TRES=) */
	const char *file;
	const struct prio_job_detail *detail; /* NULL when nothing to say */
};

/* A job's several QOS, or NULL when it has one. */
static inline struct prio_job_qos_list *
prio_job_qos_list(const struct prio_job *job)
{
	return job->detail ? job->detail->qos_list : NULL;
}

/* Slurm's planned nodes for a pending job, PRIO_NO_ID when none. */
static inline prio_id prio_job_sched_nodes(const struct prio_job *job)
{
	return job->detail ? job->detail->sched_nodes : PRIO_NO_ID;
}

/* NumNodes as Slurm printed it (squeue's NODES column). */
static inline uint32_t prio_job_nodes_shown(const struct prio_job *job)
{
	return job->detail && job->detail->nodes_shown
		   ? job->detail->nodes_shown
		   : job->min_nodes;
}

static inline uint32_t prio_job_qos_count(const struct prio_job *job)
{
	const struct prio_job_qos_list *l = prio_job_qos_list(job);

	return l ? l->count : 1;
}

static inline prio_id prio_job_qos_at(const struct prio_job *job, uint32_t k)
{
	const struct prio_job_qos_list *l = prio_job_qos_list(job);

	return l ? l->ids[k] : job->qos;
}

#endif
