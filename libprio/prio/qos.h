/* SPDX-License-Identifier: MIT */
/*
 * Quality of service records from `sacctmgr -P show qos` (qos_sacctmgr.c),
 * any subset and order of columns.
 */
#ifndef PRIO_QOS_H
#define PRIO_QOS_H

#include <stdint.h>

#include "intern.h"
#include "acct_limits.h"

#define PRIO_QOS_FLAG_NO_DECAY (1u << 0)
#define PRIO_QOS_FLAG_OVER_PART_QOS (1u << 1)

struct prio_qos {
	prio_id name;
	uint32_t id;                  /* 0 when not captured */
	uint32_t priority;            /* 0 default */
	uint32_t grace_time;          /* seconds */
	prio_id *preempt;             /* QOS this one may preempt (arena) */
	uint32_t preempt_count;
	uint32_t preempt_exempt_time; /* seconds, PRIO_INFINITE unset */
	uint16_t preempt_mode;        /* 0 = cluster's */
	uint32_t flags;               /* PRIO_QOS_FLAG_* */
	const char *flags_text;
	double usage_factor;          /* default 1.0 */
	double usage_threshold;       /* NAN when unset */
	/* GrpJobs, MaxJobsPU, MaxJobsPA, GrpTRES, MaxTRESPU, MaxTRESPA and
	 * the first limit that changes with usage (acct_limits.h); NULL when the
	 * capture has none of these columns set */
	const struct prio_limits *limits;
	const char *file;
	unsigned long line;
};

#endif
