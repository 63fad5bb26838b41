/* SPDX-License-Identifier: MIT */
/*
 * Fairshare engines (slurm-facts §2, §3): pure functions of the association
 * tree.  Results are index-aligned with snapshot->assocs.
 *
 *  - Fair Tree (the default): Level FS per level, users ranked over the
 *    whole tree, FairShare = rank / N.
 *  - classic (PriorityFlags=NO_FAIR_TREE) and DEPTH_OBLIVIOUS: normalised
 *    shares as a product down the tree, effective usage, 2^(-UE/SN/D).
 *  - ticket-based (the seed document's TICKET_BASED variant, removed from
 *    Slurm in 15.08): tickets flow from the root to the *active* branches
 *    (those with pending jobs) in proportion to S·F, F = S / max(U, S/100);
 *    a user's factor is its tickets over the most any user got.
 */
#ifndef PRIO_FAIRSHARE_H
#define PRIO_FAIRSHARE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "snapshot.h"

enum prio_fs_algorithm {
	PRIO_FS_FAIR_TREE = 0,
	PRIO_FS_CLASSIC, /* PriorityFlags=NO_FAIR_TREE */
	PRIO_FS_DEPTH_OBLIVIOUS,
	PRIO_FS_TICKET, /* the ticket-based variant of the seeds */
};

/* Level FS of a Fairshare=parent account, as Slurm stores it (NO_VAL as a
 * long double): above every finite value, below infinity. */
#define PRIO_FS_LEVEL_FS_PARENT_ACCOUNT 4294967294.0L
/* Tickets the root hands out under the ticket-based algorithm (the seed
 * document's worked example; only proportions matter). */
#define PRIO_FS_TICKETS_ROOT 1000.0

struct prio_fs_result {
	uint32_t
	    fs_parent; /* fairshare-tree parent, PRIO_ASSOC_NONE for root */
	uint32_t level_shares;	 /* sum of the shares of the fs-siblings */
	double norm_shares;	 /* S (Fair Tree) or the classic product */
	long double usage_efctv; /* U (Fair Tree), UE (classic), max(UN, SN/100)
				  * (ticket) */
	double usage_norm; /* usage / root usage, capped at 1; NAN for root */
	long double
	    level_fs;	  /* Fair Tree Level FS; NAN where sshare is blank */
	double fairshare; /* fs factor; NAN where sshare is blank */
	uint32_t rank;	  /* Fair Tree rank of a user (N = best), else 0 */
	/* ticket-based only (false / 0 otherwise) */
	bool active;	/* a pending job at or below it */
	double tickets; /* tickets received; 0 when inactive */
	/* DEPTH_OBLIVIOUS: computed against a sibling user whose usage Slurm
	 * held unset (not computed since slurmctld started), inferred from
	 * the EffectvUsage sshare printed */
	bool sibling_unset;
};

/* The algorithm PriorityFlags selects. */
enum prio_fs_algorithm prio_fs_algorithm_of(uint32_t priority_flags);
/* "fairtree", "classic", "depth-oblivious", "ticket". */
const char *prio_fs_algorithm_name(enum prio_fs_algorithm algorithm);
/* The inverse of prio_fs_algorithm_name (case-insensitive; "fair-tree" and
 * "depth_oblivious" spellings too); -1 when unknown. */
int prio_fs_algorithm_parse(const char *name, enum prio_fs_algorithm *out);

/* Compute every association's values with the given algorithm.  out must
 * hold snap->assoc_count results.  Needs a loaded tree with root at index 0.
 * The ticket-based algorithm also reads the pending jobs.  Returns 0, or a
 * negative status with err filled. */
int prio_fairshare_compute(const struct prio_snapshot *snap,
			   enum prio_fs_algorithm algorithm,
			   struct prio_fs_result *out, struct prio_error *err);

/*
 * Slurm's one-cycle lag under classic, DEPTH_OBLIVIOUS (and ticket-based):
 * the controller computes *account* rows' NormUsage and EffectvUsage at the
 * start of a calculation cycle, from the usage of before that cycle, while
 * user rows are computed later from the current usage and their parent's
 * lagging EffectvUsage (tests/oracle/README.md; the classic scenario's
 * slurmctld.log).  prev_usage (per association, e.g. from
 * prio_usage_previous_cycle()) reproduces that; Fair Tree ignores it.
 * prev_slack is the width of the interval each prev_usage value stands for
 * (bounds only).
 */
struct prio_fs_lag {
	const long double *prev_usage; /* one cycle back */
	double prev_slack;
	/* DEPTH_OBLIVIOUS only, may be NULL: two cycles back.  At the start
	 * of a cycle Slurm updates accounts one after the other, so an
	 * account's sum of its siblings' usage still holds the previous
	 * cycle's value for the siblings that come after it. */
	const long double *prev2_usage;
	double prev2_slack;
	/* What prio_fairshare_slurm() allocated for the arrays above
	 * (prio_fs_lag_free); NULL when the caller owns them. */
	long double *owned;
};
int prio_fairshare_compute_lagged(const struct prio_snapshot *snap,
				  enum prio_fs_algorithm algorithm,
				  const struct prio_fs_lag *lag,
				  struct prio_fs_result *out,
				  struct prio_error *err);

/*
 * The fairshare factors Slurm shows, the one computation every tool uses
 * (prio-calc, prio-top, --explain, --why, fstree-show): the algorithm's
 * values from the loaded usage, and under classic, DEPTH_OBLIVIOUS and
 * ticket-based Slurm's one-cycle lag of account rows, with the usage of
 * one and two cycles back estimated by prio_usage_previous_cycle() from
 * the running jobs.  The lag is modelled when the job list is loaded (the
 * running jobs make it; with none running it changes no ratio) unless
 * PRIO_FS_NO_LAG asks for the next cycle's values.
 */
#define PRIO_FS_NO_LAG 0x1u
struct prio_fs_setup {
	enum prio_fs_algorithm algorithm;
	/* The calculation cycle the loaded usage stands at: the clock the
	 * values are for (Slurm's last calculation, or --at after the usage
	 * was moved there); 0 means snap->now. */
	time_t cycle;
	unsigned flags; /* PRIO_FS_NO_LAG */
	/* NULL, or a cache from prio_fs_cache_new() for snapshots with this
	 * association tree: computations repeated as usage moves (the
	 * explanations' search over time) reuse the tree, and Fair Tree
	 * sorts each level starting from the order it found last time. */
	struct prio_fs_cache *cache;
};
struct prio_fs_cache;
/* A cache for snap's association tree (its usage may change, its shape
 * not); NULL with err filled when it cannot be built. */
struct prio_fs_cache *prio_fs_cache_new(const struct prio_snapshot *snap,
					struct prio_error *err);
void prio_fs_cache_free(struct prio_fs_cache *cache);
/* The setup Slurm's configuration implies: the algorithm of
 * PriorityFlags, the lag, the snapshot's clock. */
struct prio_fs_setup prio_fs_setup_of(const struct prio_snapshot *snap);
/* Does the setup model the lag for this snapshot? */
bool prio_fs_lag_applies(const struct prio_snapshot *snap,
			 const struct prio_fs_setup *setup);
/* out: snap->assoc_count results.  lag (may be NULL) receives the
 * previous cycles' usage when the lag applies (for bounds; free it with
 * prio_fs_lag_free), else is zeroed.  Returns 0, or a negative status with
 * err filled. */
int prio_fairshare_slurm(const struct prio_snapshot *snap,
			 const struct prio_fs_setup *setup,
			 struct prio_fs_result *out, struct prio_fs_lag *lag,
			 struct prio_error *err);
void prio_fs_lag_free(struct prio_fs_lag *lag);

/*
 * What Slurm may have printed, given that sshare truncates RawUsage: when
 * every association's true usage lies in [usage_raw, usage_raw + slack)
 * (slack 1 for usage read from sshare, 0 when it is exact), each derived
 * value lies in [lo, hi] below.  Bounds are computed by interval arithmetic
 * over the formulas of res's algorithm (a sound, slightly wide enclosure);
 * NAN bounds mean "blank", as in res.  Fair Tree's FairShare is a rank and
 * gets no interval (lo = hi = res.fairshare).
 */
struct prio_fs_bounds {
	double usage_norm[2]; /* [lo, hi] */
	double usage_efctv[2];
	double level_fs[2];
	double fairshare[2];
};
int prio_fairshare_bounds(const struct prio_snapshot *snap,
			  enum prio_fs_algorithm algorithm,
			  const struct prio_fs_result *res, double slack,
			  const struct prio_fs_lag *lag,
			  struct prio_fs_bounds *out, struct prio_error *err);

#endif
