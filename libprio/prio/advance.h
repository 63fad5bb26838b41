/* SPDX-License-Identifier: MIT */
/*
 * Move a snapshot forward in time for "what will it be at TIME" questions
 * (prio-calc --at): association usage decays as Slurm's decay thread
 * decays it, and running jobs keep charging their billable TRES until they
 * end, cycle by cycle (slurm-facts §4).  Age grows by itself: the priority
 * engine computes it at the later clock.
 */
#ifndef PRIO_ADVANCE_H
#define PRIO_ADVANCE_H

#include <stdint.h>
#include <time.h>

#include "error.h"
#include "snapshot.h"

/* The instant the snapshot's usage is of: snap->usage_at when set (Slurm's
 * last calculation before NOW, or the later time it was moved to), else
 * snap->now.  Moving it to that instant or before changes nothing. */
time_t prio_snapshot_usage_time(const struct prio_snapshot *snap);

/*
 * Advance the usage of every association of snap (a finished snapshot) from
 * its usage time (prio_snapshot_usage_time) to `at` (at >= snap->now),
 * PriorityCalcPeriod by PriorityCalcPeriod, the cycles counted from it:
 *  - every usage is multiplied by d^Δ per cycle, d = 1 - 0.693/half-life
 *    (no decay when PriorityDecayHalfLife is 0);
 *  - a running job adds, per cycle it runs in, Δ·d^Δ·billing·UsageFactor
 *    to its association and every ancestor up to root, where Δ is the
 *    part of the cycle it ran and billing its TRES billing in its
 *    partition; a job ending inside a cycle adds its last part at its end
 *    (EndTime; a job without one runs on).
 * snap->now is left alone: the engine takes `at` as its clock.  Returns 0,
 * or PRIO_ERR_USAGE when at is before the snapshot's clock.
 */
int prio_snapshot_advance(struct prio_snapshot *snap, time_t at,
			  struct prio_error *err);
/* A job prio_snapshot_advance charges, with what charging it takes that
 * depends on the snapshot alone: its association (in its first
 * partition), its billing times its QOS's UsageFactor, and when it runs
 * (seconds; end INFINITY when it runs on). */
struct prio_running {
	uint32_t assoc;
	double billing, start, end;
};
/* The jobs prio_snapshot_advance charges into out (room for
 * snap->job_count; NULL: only counted), in index order.  Returns their
 * count. */
uint32_t prio_snapshot_running(const struct prio_snapshot *snap,
			       struct prio_running *out);
/* prio_snapshot_advance charging the jobs running[0..count) as listed:
 * the same usage, for a caller that moves one snapshot again and again
 * (prio-top's clock tick) without reading every job record, nor billing
 * and finding the association of every running job, each time. */
struct prio_decay_memo;
int prio_snapshot_advance_running(struct prio_snapshot *snap, time_t at,
				  const struct prio_running *running,
				  uint32_t count, struct prio_decay_memo *memo,
				  struct prio_error *err);
/*
 * For prio_snapshot_advance_running, NULL or: the powers d^s of the decay
 * per second d (the snapshot's PriorityDecayHalfLife) for whole seconds
 * s < len, each kept once computed.  Usage at many instants of one search
 * asks for the same few powers again and again (the instants and cycle
 * ends lie whole periods apart), and pow() is most of its cost.  pow is
 * calloc'd (0: not computed yet); the values are pow()'s own, so a memo
 * changes no result.  Not shared between threads.
 */
struct prio_decay_memo {
	double *pow;
	uint32_t len;
};
/*
 * Add to the usage of snap advanced to `at` (after prio_snapshot_advance
 * to `at`) what job `job` (a snapshot index) would have charged running in
 * `partition` from `start` to `end` (0: on), as prio_snapshot_advance
 * charges a running job: the forecast's jobs started in the simulation.
 */
void prio_snapshot_charge(struct prio_snapshot *snap, time_t at, uint32_t job,
			  prio_id partition, time_t start, time_t end);

#endif
