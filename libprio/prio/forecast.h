/* SPDX-License-Identifier: MIT */
/*
 * When will the pending jobs start?  A simulation of Slurm's scheduler
 * forward in time from a snapshot (issue 15, "our forecast").
 *
 * From the snapshot's NOW: running jobs end at their EndTime (StartTime +
 * TimeLimit as the controller printed it); pending jobs start in Slurm's
 * order (prio_queue_compare: PriorityTier, then the priority the engine
 * computes, recomputed at every PriorityCalcPeriod of simulated time as age
 * grows), by a main-scheduler pass at every event (strict order per
 * partition: a job that cannot start blocks the lower jobs of its partition)
 * and a backfill pass every bf_interval (a lower job starts when it ends
 * before the reserved start of every higher job it would take resources
 * from, within bf_window and bf_max_job_test).  Resources are the select
 * plugin's model of prio_resources_build() (CPUs and memory per node, what
 * every running job holds), with the nodes' GRES counts added; the
 * simulation only moves them in time.
 *
 * What is not modelled is said on the rows of the jobs it affects (note):
 * limits (a pending reason naming one), GRES types, licenses, features, advance
 * reservations, dependencies other than after/afterany/afterok; the
 * SchedulerParameters words it does not model, by the command for the
 * whole run (prio_sched_params_unmodelled()).  Usage
 * moves with simulated time (prio_snapshot_advance, and the jobs the
 * simulation started charging), so fairshare does too.  The man page
 * prio-calc(1), FORECAST, is the user's account of the rules.
 */
#ifndef PRIO_FORECAST_H
#define PRIO_FORECAST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "arena.h"
#include "error.h"
#include "priority.h"
#include "runtime.h"

/* Field comments are aligned by hand. */
/* clang-format off */

struct prio_forecast_opts {
	time_t until;  /* stop the simulation there; 0: until nothing moves */
	/* the first priority calculation after NOW, from which they follow
	 * every PriorityCalcPeriod; 0: the engine's clock is Slurm's last
	 * calculation (the next is one period after it).  Until then the
	 * queue is the engine's, at its clock. */
	time_t first_calc;
	/* stop once each of these jobs (snapshot indices) has started or
	 * cannot, within the backfill pass that starts the last: the rows
	 * of the others not started then are HORIZON */
	const uint32_t *watch;
	uint32_t watch_count;
	/* jobs end after their user's share of their limit (runtime.h),
	 * while the scheduler still plans with limits; NULL: at limits */
	const struct prio_runtime_history *runtime;
	/* non-zero (set by another thread, prio-top's UI): the run stops at
	 * its next event as at `until`; NULL: never.  Atomic: written by one
	 * thread while the run reads it (volatile alone is a data race) */
	const atomic_int *stop;
	/* non-zero (set by another thread once known): the run stops at its
	 * first event past that instant, as at `until`, or within a backfill
	 * pass already past it (before its next job); NULL: none.  A try of
	 * prio_forecast_when() made before the start it is to beat */
	const atomic_llong *bound;
};

/* In the order rows are listed. */
enum prio_forecast_status {
	PRIO_FC_STARTS = 0, /* start (and end) forecast */
	PRIO_FC_HORIZON,    /* not started before opts.until */
	PRIO_FC_NEVER,      /* cannot start in the model (note says why) */
	PRIO_FC_HELD,       /* priority 0: never starts by itself */
};

enum prio_forecast_how {
	PRIO_FC_MAIN = 0,   /* the main scheduler, in priority order */
	PRIO_FC_BACKFILL,   /* the backfill scheduler, ahead of its turn */
};

/* One pending job. */
struct prio_forecast_row {
	uint32_t job;        /* snapshot index */
	uint32_t partition;  /* where it starts (snapshot index); UINT32_MAX
			      * when it does not start */
	uint8_t status;      /* enum prio_forecast_status */
	uint8_t how;         /* enum prio_forecast_how */
	time_t start, end;   /* end 0: no time limit */
	const char *nodes;   /* hostlist of its nodes, NULL when none */
	const char *note;    /* what is not modelled or why it never
			      * starts; NULL when nothing to say */
	/* The jobs (snapshot indices, running at NOW or started in the
	 * simulation) whose ends were the last to free resources on the
	 * nodes it starts on, by job id; empty when it starts on resources
	 * free at NOW. */
	const uint32_t *freed_by;
	uint32_t freed_count;
};

struct prio_forecast {
	time_t from;               /* the snapshot's NOW */
	time_t until;              /* opts.until, 0 when unset: where the
				    * PRIO_FC_HORIZON rows stopped */
	/* by status, then start, then the order of the queue at NOW */
	struct prio_forecast_row *rows;
	uint32_t count;
	/* What the run did, for benchmarks and --check. */
	uint32_t events, passes, backfill_passes, recomputes;
	struct prio_arena arena;
};

/*
 * Run the forecast of e's snapshot.  e is the engine prio-calc computes
 * with (its clock is Slurm's last priority calculation, or NOW); the
 * simulation starts at the snapshot's NOW and recomputes priorities at
 * e->now + k * PriorityCalcPeriod.  Returns 0, or a negative status with
 * err filled (a job naming an unknown node, out of memory).
 *
 * Cost, for J pending jobs, R running jobs, N nodes, E = J + R ends:
 * every priority recomputation is O(J log J) and happens at most once per
 * PriorityCalcPeriod in which something ends or begins; a main pass stops
 * as soon as every partition with jobs left is blocked, O(P + started +
 * ineligible) entries, each trial O(nodes of its partition); a backfill
 * pass (at most one per bf_interval) tries bf_max_job_test jobs, each a
 * sweep over the ends in bf_window as slurmctld's will-run test groups
 * them, taken again from each instant a reservation gives nodes back,
 * O(ends + nodes of its partition + reservations on them).
 * Nothing is O(J) per event but the recomputations.
 */
int prio_forecast_run(const struct prio_engine *e,
		      const struct prio_forecast_opts *opts,
		      struct prio_forecast *fc, struct prio_error *err);
void prio_forecast_free(struct prio_forecast *fc);

/*
 * The backfill scheduler's timer as the forecast runs it from snap (its
 * sdiag.txt, prio_forecast_run()): the first tick at or after NOW in
 * *first and the period in *period, true; false when sdiag gives no last
 * cycle, it is over two periods before NOW (the timer idle), after NOW,
 * or the scheduler is not sched/backfill; then the passes come at the
 * first event bf_interval after the last.
 */
bool prio_forecast_backfill_timer(const struct prio_snapshot *snap,
				  time_t *first, time_t *period);

/* A shorter time limit that starts a job sooner (forecast_sooner.c). */
struct prio_forecast_shorter {
	uint32_t time_limit; /* minutes; 0: none of those tried does */
	time_t start;        /* the forecast start with it */
	uint8_t how;         /* enum prio_forecast_how */
	uint32_t tried[4];   /* the limits tried (minutes), longest first */
	uint32_t tried_count;
};

/*
 * The longest of 3/4, 1/2, 1/4 and 1/10 of pending job `job`'s time limit
 * (whole minutes, shorter than it) with which the forecast (opts, the job
 * watched) starts it before `start` (0: it did not start), each checked by
 * running the forecast again with that one change.  Returns 0 with *out
 * filled (time_limit 0 when none does, or the job has no finite limit of two
 * minutes or more), or a negative status with err filled.
 */
int prio_forecast_shorter(const struct prio_engine *e,
			  const struct prio_forecast_opts *opts, uint32_t job,
			  time_t start, struct prio_forecast_shorter *out,
			  struct prio_error *err);

/*
 * prio_forecast_run() (opts, which should watch `job`), and for the job,
 * pending in the snapshot, prio_forecast_shorter()'s answer when the
 * forecast starts it after its beginning (else *out stays zero).  The
 * first limits tried run beside the forecast on a machine of several CPUs,
 * each until the forecast's start is known: the same answer, sooner.
 * Returns 0 with *fc and *out filled, or a negative status with err
 * filled (and *fc freed).
 */
int prio_forecast_when(const struct prio_engine *e,
		       const struct prio_forecast_opts *opts, uint32_t job,
		       struct prio_forecast *fc,
		       struct prio_forecast_shorter *out, struct prio_error *err);

/* The row of snapshot job `job`, or NULL when the forecast has none. */
const struct prio_forecast_row *
prio_forecast_row_of(const struct prio_forecast *fc, uint32_t job);

const char *prio_forecast_status_name(enum prio_forecast_status st);
const char *prio_forecast_how_name(enum prio_forecast_how how);

/* clang-format on */

#endif
