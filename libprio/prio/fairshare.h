/* SPDX-License-Identifier: MIT */
/*
 * Fairshare engines (slurm-facts §2, §3): pure functions of the association
 * tree.  Results are index-aligned with snapshot->assocs.
 */
#ifndef PRIO_FAIRSHARE_H
#define PRIO_FAIRSHARE_H

#include <stdint.h>

#include "error.h"
#include "snapshot.h"

enum prio_fs_algorithm {
	PRIO_FS_FAIR_TREE = 0,
	PRIO_FS_CLASSIC,          /* PriorityFlags=NO_FAIR_TREE */
	PRIO_FS_DEPTH_OBLIVIOUS,
	PRIO_FS_TICKET,           /* the ticket-based variant of the seeds */
};

/* Level FS of a Fairshare=parent account, as Slurm stores it (NO_VAL as a
 * long double): above every finite value, below infinity. */
#define PRIO_FS_LEVEL_FS_PARENT_ACCOUNT 4294967294.0L

struct prio_fs_result {
	uint32_t fs_parent;      /* fairshare-tree parent, PRIO_ASSOC_NONE for root */
	uint32_t level_shares;   /* sum of the shares of the fs-siblings */
	double norm_shares;      /* S (Fair Tree) or the classic product */
	long double usage_efctv; /* U (Fair Tree) or UE (classic) */
	double usage_norm;       /* usage / root usage, capped at 1; NAN for root */
	long double level_fs;    /* Fair Tree Level FS; NAN where sshare is blank */
	double fairshare;        /* fs factor; NAN where sshare is blank */
	uint32_t rank;           /* Fair Tree rank of a user (N = best), else 0 */
};

/* The algorithm PriorityFlags selects. */
enum prio_fs_algorithm prio_fs_algorithm_of(uint32_t priority_flags);

/* Compute every association's values with the given algorithm.  out must
 * hold snap->assoc_count results.  Needs a loaded tree with root at index 0.
 * Returns 0, or a negative status with err filled. */
int prio_fairshare_compute(const struct prio_snapshot *snap,
			   enum prio_fs_algorithm algorithm,
			   struct prio_fs_result *out, struct prio_error *err);

#endif
