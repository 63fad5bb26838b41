/* SPDX-License-Identifier: MIT */
/*
 * How much of their time limit a user's jobs really run, from the sacct
 * history (runtime.c), for the forecast's --forecast-ends history: Slurm
 * plans with time limits, but most jobs end well before theirs, and the
 * forecast is judged by when jobs really start.
 *
 * A user's ratio is the median over their finished jobs of Elapsed /
 * Timelimit (capped at 1).  Counted: whole jobs (no steps) that started
 * and ended (COMPLETED, FAILED, CANCELLED after a start, TIMEOUT,
 * OUT_OF_MEMORY, DEADLINE) with a finite, non-zero limit.  Not counted:
 * what the system ended (PREEMPTED, NODE_FAIL, BOOT_FAIL, REQUEUED),
 * since nothing says the user's job would have stopped there.  A user with
 * fewer than min_jobs such jobs gets the cluster's median (over every
 * counted job), and with fewer than min_jobs of those the limit itself
 * (ratio 1, as Slurm assumes).
 */
#ifndef PRIO_RUNTIME_H
#define PRIO_RUNTIME_H

#include <stdint.h>

#include "error.h"
#include "intern.h"

struct prio_snapshot;

/* Where a ratio came from. */
enum prio_runtime_source {
	PRIO_RUNTIME_USER = 0, /* the user's own jobs */
	PRIO_RUNTIME_CLUSTER,  /* too few of them: every user's */
	PRIO_RUNTIME_LIMIT,    /* too few in all: the limit (1) */
};

struct prio_runtime_user {
	double ratio;  /* median Elapsed / Timelimit (valid: jobs >= min_jobs) */
	uint32_t jobs; /* jobs counted */
};

struct prio_runtime_history {
	struct prio_runtime_user *by_user; /* by the user's interned id */
	uint32_t id_count;                 /* entries of by_user */
	double cluster_ratio;              /* valid: cluster_jobs >= min_jobs */
	uint32_t cluster_jobs;
	uint32_t min_jobs;
};

/* The ratios of snap's sacct records.  Returns 0, or a negative
 * PRIO_ERR_* (out of memory) with err set. */
int prio_runtime_history_build(const struct prio_snapshot *snap,
			       uint32_t min_jobs,
			       struct prio_runtime_history *h,
			       struct prio_error *err);

/* user's ratio in [0, 1], where it came from in *src (may be NULL). */
double prio_runtime_ratio(const struct prio_runtime_history *h, prio_id user,
			  enum prio_runtime_source *src);

void prio_runtime_history_free(struct prio_runtime_history *h);

#endif
