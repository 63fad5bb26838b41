/* SPDX-License-Identifier: MIT */
/*
 * Explanations of fairshare results, for users who ask "why".
 *
 *  - why: a user's path up the fairshare tree and, at each level, where
 *    its branch comes among its siblings (Fair Tree's visit order: Level FS
 *    descending, users first on ties).  Against a second user, the first
 *    common ancestor and the two children below it whose Level FS decided
 *    the order: the manual procedure of the Fair Tree document, automated.
 *    Classic and ticket-based results are explained by their formula.
 *  - when: with no new jobs, the moment decay (and the running jobs'
 *    remaining usage) brings a user's FairShare or Level FS to a target.
 *    Decay alone multiplies every usage by the same factor, so ratios and
 *    ranks only move while running jobs add usage; after the last one ends
 *    nothing changes, and the answer may be "never".
 */
#ifndef PRIO_FAIRSHARE_EXPLAIN_H
#define PRIO_FAIRSHARE_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "assoc.h"
#include "error.h"
#include "fairshare.h"
#include "snapshot.h"

#define PRIO_WHY_BEFORE 3 /* siblings listed before a branch */

struct prio_why_level {
	uint32_t assoc;	 /* the user, then each fs-ancestor below root */
	uint32_t parent; /* its fs-parent */
	uint32_t place;	 /* 1-based place in the visit order of its siblings */
	uint32_t siblings;		  /* fs-siblings, itself included */
	uint32_t before[PRIO_WHY_BEFORE]; /* the siblings visited just before
					   * it, in visit order */
	uint32_t nbefore;
};

struct prio_why {
	uint32_t user;	/* the user association explained */
	uint32_t other; /* the one compared with, PRIO_ASSOC_NONE */
	uint32_t nlevels;
	struct prio_why_level levels[PRIO_ASSOC_MAX_DEPTH + 2];
	/* With other: the first common fs-ancestor and its two children on
	 * the users' paths (the users themselves when they are siblings). */
	uint32_t common, side_user, side_other;
};

/* Fill why for user (and other, or PRIO_ASSOC_NONE) from res. */
int prio_fairshare_why(const struct prio_snapshot *snap,
		       const struct prio_fs_result *res, uint32_t user,
		       uint32_t other, struct prio_why *why,
		       struct prio_error *err);

/* The explanation in words, one sentence per line (malloc'ed; NULL on
 * ENOMEM).  utf8 allows "×" and "…", else ASCII. */
char *prio_fairshare_why_text(const struct prio_snapshot *snap,
			      enum prio_fs_algorithm algorithm,
			      const struct prio_fs_result *res,
			      const struct prio_why *why, bool utf8);

enum prio_when_target {
	PRIO_WHEN_FAIRSHARE =
	    0,		    /* the user's FairShare factor reaches >= target */
	PRIO_WHEN_LEVEL_FS, /* the user's Level FS reaches >= target */
};

struct prio_when {
	bool reached;	  /* the target is met at `at` */
	bool already;	  /* ... at the start already */
	time_t at;	  /* when (the first evaluation step meeting it) */
	double value_now; /* the value at the start */
	double value_at;  /* at `at` when reached */
	double best;	  /* the highest value seen (not reached) */
	time_t best_at;
	time_t
	    settled; /* after this nothing changes (last running job's end) */
};

/*
 * Step forward from setup->cycle (the calculation the values stand for:
 * Slurm's last one, prio_calc_time_find(), or snap->now; 0 means
 * snap->now) in PriorityCalcPeriod steps, the instants Slurm recomputes
 * at (coarser beyond max_steps), until the user association reaches the
 * target or the last running job has ended.  Usage evolves as prio_usage_advance() moves it
 * (no_run: running jobs stop now); each step's values are
 * prio_fairshare_slurm()'s with the setup given (its cycle is the step's
 * time).  snap's usage is restored on return.
 */
int prio_fairshare_when(struct prio_snapshot *snap,
			const struct prio_fs_setup *setup, uint32_t user,
			enum prio_when_target kind, double target, bool no_run,
			uint32_t max_steps, struct prio_when *out,
			struct prio_error *err);

#endif
