/* SPDX-License-Identifier: MIT */
/*
 * Association usage over time (slurm-facts §4): decay, and the usage a job
 * adds while it runs.  RawUsage normally comes from sshare; these functions
 * rebuild it from job records (replay), move it to another moment (advance)
 * and count running jobs' remaining TRES-minutes (sshare's TRESRunMins).
 *
 * The controller works in cycles of PriorityCalcPeriod: at each cycle all
 * usage is multiplied by d^Δ (d = 1 - 0.693 / PriorityDecayHalfLife per
 * second, Δ the time since the previous cycle), then every running job adds
 * Δ·d^Δ·billing·UsageFactor (its new usage, pre-decayed over its own
 * interval) to its association and every ancestor up to root; a job that
 * ends adds the part since the last cycle at once.  We place cycles at
 * `at - k·PriorityCalcPeriod` (the evaluation time is a cycle), since the
 * controller's own phase is not in any input; give --now the time of
 * Slurm's last cycle (slurmctld.log with DebugFlags=Priority) to line up.
 * PriorityUsageResetPeriod boundaries (local time) zero the usage at the
 * first cycle after them; NOW is ignored (it resets at slurmctld start,
 * which no input records).
 */
#ifndef PRIO_USAGE_H
#define PRIO_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "snapshot.h"

/* Slurm's per-second decay factor: 1 - 0.693 / half_life, 1 when 0. */
long double prio_usage_decay_factor(uint32_t half_life);

/* The start of the reset period containing t (local time): the last
 * DAILY/WEEKLY/MONTHLY/QUARTERLY/YEARLY boundary at or before t, 0 for NONE
 * and NOW. */
time_t prio_usage_last_reset(enum prio_reset_period period, time_t t);

/* What a replay used and why records were left out. */
struct prio_usage_replay_stats {
	uint32_t jobs;	    /* job records that added usage */
	uint32_t running;   /* of which still running at the evaluation time */
	uint32_t from_jobs; /* running jobs taken from the job list */
	uint32_t no_start;  /* never started (pending, cancelled early) */
	uint32_t no_assoc;  /* user/account not in the tree */
	uint32_t after;	    /* started after the evaluation time */
	uint32_t
	    account_only; /* user association gone: charged to the account */
};

/*
 * Replace every association's usage_raw by the usage Slurm would hold at
 * `at`: each sacct record (job allocations, steps skipped) and each running
 * or suspended job of the job list (preferred over sacct's record of the
 * same job) adds billing x seconds x its QOS UsageFactor, where billing is
 * the job's partition TRESBillingWeights applied to its allocated TRES (SUM
 * or MAX_TRES, not truncated).  A job still running at `at` runs until its
 * end time (start + time limit) or, with no_run, until snap->now.  A job
 * whose user association is gone is charged to its account.
 */
int prio_usage_replay(struct prio_snapshot *snap, time_t at, bool no_run,
		      struct prio_usage_replay_stats *stats,
		      struct prio_error *err);
/*
 * The same replay a record at a time, for records that stream by
 * (prio_sacct_stream: years of accounting in bounded memory): _begin()
 * zeroes the usage and charges the job list's running jobs (NULL with err
 * filled when there is no tree or no memory), _add() charges one record,
 * in the order prio_usage_replay() takes snap->sacct, _end() gives the
 * counts (stats may be NULL) and frees the run.  The usage is then the one
 * prio_usage_replay() computes from the same records, to the bit.
 */
struct prio_usage_replay_run;
struct prio_usage_replay_run *prio_usage_replay_begin(struct prio_snapshot *snap,
						      time_t at, bool no_run,
						      struct prio_error *err);
void prio_usage_replay_add(struct prio_usage_replay_run *r,
			   const struct prio_sacct_rec *rec);
void prio_usage_replay_end(struct prio_usage_replay_run *r,
			   struct prio_usage_replay_stats *stats);

/*
 * Whether the usage must come from a replay: no association has RawUsage
 * (no sshare output was given) and job records were (sacct).  Every tool
 * decides it so (fstree-show, prio-calc), so that they start from the same
 * usage.
 */
bool prio_usage_needs_replay(const struct prio_snapshot *snap);

/*
 * What a running job of the job list charges per second of run, in
 * `partition` (PRIO_NO_ID: none, no billing weights), before decay: the
 * billing of its allocated TRES (its requested TRES where the input gave
 * no allocation), or the billing= Slurm recorded where ours truncates
 * otherwise, times its QOS's UsageFactor.  Every tool that moves usage
 * forward charges this (prio_usage_advance, prio_snapshot_advance).
 */
double prio_usage_job_rate(const struct prio_snapshot *snap,
			   const struct prio_job *job, prio_id partition);

/*
 * Move loaded usage from the instant it is of (prio_snapshot_usage_time:
 * Slurm's last calculation when found, else snap->now) to `at` (at >=
 * now): decay everything by d^(at-that) in cycles, and add what running
 * jobs of the job list accrue from it until their end time (or nothing
 * with no_run).  at < now needs a replay.
 */
int prio_usage_advance(struct prio_snapshot *snap, time_t at, bool no_run,
		       struct prio_error *err);

/*
 * The usage Slurm's calculation cycles started from, going `cycles` cycles
 * back from the one taken at `at` (the loaded usage stands there; 0 means
 * snap->now): each step removes what the running jobs of the job list
 * added in that cycle (Δ·d^Δ·billing, Δ the period or the time since the
 * job started) and divides by that cycle's decay d^P.  One cycle back is
 * what classic account rows show (Slurm's one-cycle lag,
 * prio_fairshare_slurm).  *scale (may be NULL) receives (1/d^P)^cycles: an
 * uncertainty of x on the usage is one of x·scale here.
 */
int prio_usage_previous_cycle(const struct prio_snapshot *snap, time_t at,
			      unsigned cycles, long double *prev,
			      double *scale, struct prio_error *err);

/*
 * sshare's TRESRunMins at time t: per association (and its ancestors) the
 * sum over running jobs below it of allocated TRES x seconds left until the
 * job's end time, divided by 60.  Slurm keeps the counter only when
 * AccountingStorageEnforce has "limits"; otherwise every value is 0.
 * out: assoc_count x snap->tres.count values, zeroed here.
 */
int prio_usage_tres_run_mins(const struct prio_snapshot *snap, time_t t,
			     uint64_t *out, struct prio_error *err);

#endif
