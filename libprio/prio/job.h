/* SPDX-License-Identifier: MIT */
/*
 * Jobs from `scontrol show job [-d] [-o]` (job_scontrol.c) and
 * `squeue --json` (job_squeue_json.c).  One record per job as the controller
 * holds it: a pending job array that has not been split is one record with
 * array_task_text set, as sprio shows it.
 */
#ifndef PRIO_JOB_H
#define PRIO_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "intern.h"
#include "tres.h"

enum prio_job_state {
	PRIO_JOB_PENDING = 0,
	PRIO_JOB_RUNNING,
	PRIO_JOB_SUSPENDED,
	PRIO_JOB_COMPLETE,     /* COMPLETED */
	PRIO_JOB_CANCELLED,
	PRIO_JOB_FAILED,
	PRIO_JOB_TIMEOUT,
	PRIO_JOB_NODE_FAIL,
	PRIO_JOB_PREEMPTED,
	PRIO_JOB_BOOT_FAIL,
	PRIO_JOB_DEADLINE,
	PRIO_JOB_OOM,          /* OUT_OF_MEMORY */
	PRIO_JOB_COMPLETING,
	PRIO_JOB_CONFIGURING,
	PRIO_JOB_REQUEUED,
	PRIO_JOB_RESIZING,
	PRIO_JOB_REVOKED,
	PRIO_JOB_SIGNALING,
	PRIO_JOB_STAGE_OUT,
	PRIO_JOB_STOPPED,
	PRIO_JOB_STATE_COUNT
};

/* Parse "PENDING", "CANCELLED by 0", "R"...; -1 if unknown. */
int prio_job_state_parse(const char *s, size_t n, enum prio_job_state *st);
const char *prio_job_state_name(enum prio_job_state st); /* "PENDING" */

/* One line of `scontrol show job -d` detail: "Nodes=n[1-2] CPU_IDs=0-3
 * Mem=4096 GRES=". */
struct prio_job_alloc {
	const char *nodes;   /* hostlist as printed */
	uint32_t cpus;       /* CPU ids counted per node */
	uint64_t mem_mb;     /* per node */
};

struct prio_job {
	uint32_t job_id;
	uint32_t array_job_id;     /* 0 when not an array job */
	uint32_t array_task_id;    /* PRIO_NO_VAL when not a single task */
	const char *array_task_text; /* "0-2" for an unsplit pending array */
	uint32_t het_job_id;       /* 0 when not heterogeneous */
	const char *name;
	prio_id user;
	uint32_t uid;              /* PRIO_NO_VAL when unknown */
	prio_id account;
	prio_id qos;
	prio_id *partitions;       /* requested partitions, as listed */
	uint32_t partition_count;
	enum prio_job_state state;
	prio_id reason;            /* "Priority", "Resources", "None"... */
	uint32_t priority;         /* as the controller last stored it */
	int32_t nice;
	time_t submit_time, eligible_time, accrue_time, start_time, end_time,
	       suspend_time, preempt_time;
	uint32_t time_limit;       /* minutes; PRIO_INFINITE, PRIO_NO_VAL */
	uint32_t min_nodes, max_nodes; /* NumNodes=min[-max] */
	uint32_t num_cpus;         /* NumCPUs (min when a range) */
	uint32_t num_tasks;
	bool requeue;              /* Requeue=1 */
	bool held;                 /* priority 0 with a JobHeld* reason */
	struct prio_tres_list tres_req;   /* requested (pending: TRES=) */
	struct prio_tres_list tres_alloc; /* allocated (running: TRES=) */
	const char *node_list;     /* NodeList, NULL when none */
	struct prio_job_alloc *allocs; /* -d detail lines */
	uint32_t alloc_count;
	const char *dependency;    /* NULL when "(null)" */
	const char *oversubscribe; /* "OK", "NO", "YES", "USER", "MCS" */
	const char *file;
	unsigned long line;
};

#endif
