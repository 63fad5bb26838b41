/* SPDX-License-Identifier: MIT */
/*
 * When did Slurm last compute priorities?  sprio and scontrol show what the
 * controller stored at its last periodic calculation (every
 * PriorityCalcPeriod), not what the factors give at the capture: the age
 * term of every pending job is that much behind.  A user has no
 * slurmctld.log to read the instant from, but the job records hold it:
 * each pending job's stored Priority= is the engine's value at that
 * instant.
 *
 * Between two calculations only the age term moves with the clock (usage
 * decay moves Fair Tree ranks rarely and classic factors little within a
 * period; the engine's fairshare is that of the captured usage whatever
 * the clock).  So a job's computed priority is a non-decreasing step
 * function of the clock, and the instants at which it equals the stored
 * value form one interval per partition row, found by bisection over
 * whole seconds.  Every job adds its intervals to a count per second of
 * the window [NOW - PriorityCalcPeriod - slack, NOW + a few seconds];
 * the instant is where the most stored priorities agree.
 *
 * Jobs left out: not pending, held (priority 0), in no partition.  Jobs
 * whose priority the data cannot explain (set by an administrator, a site
 * factor, a nice or a configuration changed since, or computed by Slurm
 * outside its periodic pass) disagree everywhere: they are listed, and the
 * instant stands when more than half of the jobs agree there, and half
 * at least of those (two or more) whose priority does not move with the
 * clock (an
 * offset common to every job would otherwise pass for a shifted clock:
 * age moves every aging job alike, but not the jobs at PriorityMaxAge,
 * dependent, or without an age weight).
 */
#ifndef PRIO_CALC_TIME_H
#define PRIO_CALC_TIME_H

#include <stdint.h>
#include <time.h>

#include "error.h"
#include "priority.h"
#include "snapshot.h"

enum prio_calc_time_status {
	/* the stored priorities pin the instant (to `first`..`last`) */
	PRIO_CALC_TIME_FOUND,
	/* they agree at every instant of the window: none of them depends
	 * on the clock there (no age weight, ages capped or not accruing),
	 * so any instant gives Slurm's numbers; `at` is NOW */
	PRIO_CALC_TIME_ANY,
	/* no pending job with a stored priority: `at` is NOW */
	PRIO_CALC_TIME_NO_JOBS,
	/* no instant where more than half of them agree, or more than half
	 * of the jobs (two or more) that do not move with the clock
	 * disagree: `at` is NOW */
	PRIO_CALC_TIME_NO_MATCH,
};

/* A job whose stored priority is not ours at the instant. */
struct prio_calc_time_job {
	uint32_t job;    /* snapshot index */
	uint32_t stored; /* Priority= as the controller stored it */
	uint32_t ours;   /* the engine's at `at` (its first partition row) */
};

struct prio_calc_time {
	enum prio_calc_time_status status;
	time_t at;          /* the clock to compute at */
	time_t from, to;    /* the window searched (whole seconds) */
	time_t first, last; /* FOUND: the seconds where the most agree */
	uint32_t jobs;      /* pending jobs compared */
	uint32_t agree;     /* of those, agreeing at `at` */
	/* Jobs whose priority does not move in the window (no age weight,
	 * age capped or not accruing), and of those the ones that agree:
	 * they test the configuration whatever the clock. */
	uint32_t fixed, fixed_agree;
	uint32_t ndisagree; /* jobs - agree, listed in disagree */
	/* slurmctld's own record of the instant (the snapshot's
	 * last_decay_ran, 0 when none) and what became of it */
	time_t recorded;
	enum prio_calc_time_record {
		PRIO_CALC_RECORD_NONE,    /* no record */
		/* taken: the status is FOUND and first == last == at ==
		 * recorded (the stored priorities agreed there too, or did
		 * not pin any instant, or there was none to compare; or,
		 * `unfit`, the record is from before NOW and they pin
		 * other seconds, or none) */
		PRIO_CALC_RECORD_USED,
		/* not taken: outside the window searched (before it, a
		 * stale file: the cycle stopped, or another cluster's;
		 * after it, a cycle that ran while the snapshot was read) */
		PRIO_CALC_RECORD_OUTSIDE,
		/* not taken: a record after NOW where the stored
		 * priorities fit other seconds, or none (the search's
		 * result stands) */
		PRIO_CALC_RECORD_DISAGREES,
	} record;
	/* RECORD_USED where the stored priorities do not fit it; fit_at,
	 * the instant they pin instead (0: none, the search alone would
	 * say NO_MATCH) */
	bool unfit;
	time_t fit_at;
	struct prio_calc_time_job *disagree;
};

/* Seconds searched before NOW beyond PriorityCalcPeriod (a calculation
 * that took long, a timer that drifted), and after NOW (prio-snap reads
 * the clock just before the queue: a calculation may fall in between). */
#define PRIO_CALC_TIME_SLACK_BEFORE 30
#define PRIO_CALC_TIME_SLACK_AFTER 5

/*
 * Find Slurm's last priority calculation before e->captured (the
 * snapshot's NOW) from the jobs' stored priorities, and slurmctld's own
 * record of it where the snapshot has one (last_decay_ran): taken to the
 * second when the priorities agree there or cannot tell (no age weight,
 * no pending job); see `record`.  e is an engine of the
 * snapshot at any clock (its fairshare, weights and maxima are used; the
 * age is computed at each instant tried).  Returns 0 with ct filled (also
 * when not found: see status), or PRIO_ERR_NOMEM.  Free with
 * prio_calc_time_free().
 */
int prio_calc_time_find(const struct prio_engine *e, struct prio_calc_time *ct,
			struct prio_error *err);
/* The same from a finished snapshot: builds an engine for the search. */
int prio_calc_time_find_snapshot(const struct prio_snapshot *snap,
				 struct prio_calc_time *ct,
				 struct prio_error *err);
void prio_calc_time_free(struct prio_calc_time *ct);

/* Move an engine's clock to the instant found (ct->at, at or before the
 * capture but for a few seconds: no usage to move). */
/* Date the snapshot's usage to the calculation ct found (when FOUND and
 * before NOW, and the usage is loaded, not rebuilt from job records by
 * prio_usage_replay; else nothing): sshare's RawUsage is what that calculation
 * stored, and at the next one slurmctld decays it for the time since and
 * charges each running job from it (its log: "ran for 60 seconds"), so
 * usage moved forward (prio_snapshot_advance, prio_usage_advance) counts
 * from there, not from NOW. */
void prio_snapshot_at_calc_time(struct prio_snapshot *snap,
				const struct prio_calc_time *ct);
void prio_engine_at_calc_time(struct prio_engine *e,
			      const struct prio_calc_time *ct);

/*
 * The first periodic calculation after `now` that a forecast should take,
 * from what was found, for prio_forecast_opts.first_calc: one period after
 * Slurm's last one.  When the stored priorities fit a range of seconds
 * (jobs submitted moments before the capture, whose priorities have not
 * yet moved with the clock) it is anywhere there that lies within the
 * last period, the middle erring least; when they do not pin it, or the
 * range spans a whole period, the phase of slurmctld's timer is unknown
 * and the next calculation is anywhere in the period after `now`: half a
 * period after it on average.  0 when `period` is 0 (no periodic
 * calculation).
 */
time_t prio_calc_time_next(const struct prio_calc_time *ct, time_t now,
			   time_t period);

/* One line saying what was found, for a warning or --check:
 * "2026-11-22T03:55:13, where 19 of 19 pending jobs' stored priorities
 * agree" or why it was not found.  Returns buf. */
const char *prio_calc_time_describe(const struct prio_calc_time *ct,
				    char *buf, size_t size);

#endif
