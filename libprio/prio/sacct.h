/* SPDX-License-Identifier: MIT */
/*
 * Accounting records from `sacct -P` (usage_sacct.c): a header line naming
 * the columns in any order, then one record per job (and, without -X, per
 * step).  Steps are kept and marked so that roll-ups can skip them.
 */
#ifndef PRIO_SACCT_H
#define PRIO_SACCT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "intern.h"
#include "job.h"
#include "tres.h"

/* Columns a file may carry (bits of snapshot->sacct_columns). */
enum prio_sacct_col {
	PRIO_SACCT_JOBID = 1u << 0, PRIO_SACCT_JOBIDRAW = 1u << 1,
	PRIO_SACCT_USER = 1u << 2, PRIO_SACCT_ACCOUNT = 1u << 3,
	PRIO_SACCT_PARTITION = 1u << 4, PRIO_SACCT_QOS = 1u << 5,
	PRIO_SACCT_SUBMIT = 1u << 6, PRIO_SACCT_ELIGIBLE = 1u << 7,
	PRIO_SACCT_START = 1u << 8, PRIO_SACCT_END = 1u << 9,
	PRIO_SACCT_ELAPSED = 1u << 10, PRIO_SACCT_ELAPSEDRAW = 1u << 11,
	PRIO_SACCT_SUSPENDED = 1u << 12, PRIO_SACCT_STATE = 1u << 13,
	PRIO_SACCT_ALLOCTRES = 1u << 14, PRIO_SACCT_REQTRES = 1u << 15,
	PRIO_SACCT_NNODES = 1u << 16, PRIO_SACCT_NCPUS = 1u << 17,
	PRIO_SACCT_TIMELIMITRAW = 1u << 18, PRIO_SACCT_TIMELIMIT = 1u << 19,
	PRIO_SACCT_NODELIST = 1u << 20, PRIO_SACCT_CLUSTER = 1u << 21,
};

struct prio_sacct_rec {
	uint32_t job_id;          /* JobIDRaw, else the number before '_' or '.' */
	uint32_t array_task_id;   /* PRIO_NO_VAL when not an array task */
	const char *job_id_text;  /* "12_3", "12.batch" as printed */
	bool is_step;             /* "12.batch", "12.0", "12.extern" */
	prio_id user, account, partition, qos, cluster;
	time_t submit, eligible, start, end; /* 0 = Unknown/None */
	uint64_t elapsed;         /* seconds */
	uint64_t suspended;       /* seconds */
	enum prio_job_state state;
	struct prio_tres_list alloc_tres, req_tres;
	uint32_t nnodes, ncpus;
	uint32_t time_limit;      /* minutes; PRIO_INFINITE, PRIO_NO_VAL */
	const char *node_list;
	unsigned long line;
};

#endif
