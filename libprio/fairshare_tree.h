/* SPDX-License-Identifier: MIT */
/*
 * The fairshare tree (slurm-facts §2) shared by the fairshare engines, their
 * interval bounds and the explanations: every association hangs from its
 * first ancestor whose shares are not "parent", and a Fairshare=parent
 * account keeps no fs-children of its own.  Children are in the
 * controller's list order: by association id descending when every
 * association has an id (the database's lft order), else the loaded order
 * (sshare's: users by name, then accounts).
 * Internal to libprio.
 */
#ifndef PRIO_FAIRSHARE_TREE_H
#define PRIO_FAIRSHARE_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "prio/error.h"
#include "prio/fairshare.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

struct fs_tree {
	uint32_t n;
	uint32_t *order;     /* pre-order of the direct tree in list order */
	uint32_t *pos;	     /* index -> position in order */
	uint32_t *fs_parent; /* PRIO_ASSOC_NONE for root */
	uint32_t *fs_first;  /* first fs-child, PRIO_ASSOC_NONE when none */
	uint32_t *fs_next;   /* next fs-sibling */
};

/* Build the tree of snap (root at index 0); PRIO_ERR_MISSING when no tree
 * is loaded, PRIO_ERR_PARSE when it is not a tree. */
int fs_tree_build(const struct prio_snapshot *snap, struct fs_tree *t,
		  struct prio_error *err);
void fs_tree_free(struct fs_tree *t);

/* prio_fairshare_compute_lagged() with a cache (prio_fs_setup.cache), or
 * NULL for a one-off computation. */
struct prio_fs_lag;
int fs_compute(const struct prio_snapshot *snap,
	       enum prio_fs_algorithm algorithm, const struct prio_fs_lag *lag,
	       struct prio_fs_cache *cache, struct prio_fs_result *out,
	       struct prio_error *err);

/* Sort fs-siblings slice[0..k) into the order Fair Tree visits them (Level
 * FS descending, users before accounts, then tree order); res holds their
 * Level FS. */
struct prio_fs_result;
void fs_sort_siblings(const struct prio_snapshot *snap, const struct fs_tree *t,
		      const struct prio_fs_result *res, uint32_t *slice,
		      uint32_t k);

/* Fair Tree's FairShare of user association a as fs_compute() gives it,
 * from the Level FS of its path's siblings alone; false when a tie with
 * the user ranked before it (or the tree) needs the full ranking. */
struct prio_fs_cache;
bool fs_fair_tree_user_factor(const struct prio_snapshot *snap,
			      const struct prio_fs_cache *c, uint32_t a,
			      double *factor);

/* Per association, the job id of its first pending job Slurm computes a
 * priority for (held jobs skipped); UINT32_MAX when none. */
void fs_first_pending_job(const struct prio_snapshot *snap, uint32_t *first);

/* DEPTH_OBLIVIOUS's sibling sums of usage_norm (fairshare.c): the current
 * values, and with the lag the values one and two cycles back and each
 * user's first pending job.  Sums are increasing in every input, so bounds
 * come from feeding low ends, then high ends. */
struct fs_sib_inputs {
	const long double *un_now;
	const long double *un_prev; /* NULL: no lag */
	const long double *un_prev2;
	const uint32_t *first;
	/* DEPTH_OBLIVIOUS (with the lag): user associations whose cached
	 * usage_norm Slurm still holds unset (its "no value" marker, never
	 * evaluated since slurmctld started) until their own row is computed;
	 * NULL: every one was evaluated before. */
	const bool *unset;
};
/* The value Slurm holds for a usage_norm never computed: NO_VAL. */
#define FS_UNSET_USAGE_NORM 4294967294.0L
int fs_sibling_sums(const struct prio_snapshot *snap, const struct fs_tree *t,
		    const struct fs_sib_inputs *in, long double *sib);

static inline bool fs_is_parent_shares(const struct prio_assoc *a)
{
	return a->shares_raw == PRIO_FS_USE_PARENT;
}

/* Shares as Slurm holds them: an unset value is 1, the database default. */
static inline uint32_t fs_shares_of(const struct prio_assoc *a)
{
	return a->shares_raw == PRIO_NO_VAL ? 1 : a->shares_raw;
}

#endif
