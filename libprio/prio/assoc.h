/* SPDX-License-Identifier: MIT */
/*
 * The association tree: root, accounts and user associations, with shares,
 * priority and raw usage.  Loaded from `sacctmgr dump` (assoc_dump.c) or from
 * `sshare` output (assoc_sshare.c), or from both: the second one merges into
 * the tree the first built (keyed by account, user and partition) and must
 * describe the same associations.  Values sshare computed (NormShares,
 * LevelFS, FairShare...) are kept apart in `slurm` for audits; engines never
 * read them.
 *
 * prio_assoc_link() (in prio_snapshot_finish) orders children as sshare and
 * Slurm's association manager do: user associations first, by user name
 * then partition (strcmp), then child accounts by name.
 */
#ifndef PRIO_ASSOC_H
#define PRIO_ASSOC_H

#include <stdbool.h>
#include <stdint.h>

#include "intern.h"

struct prio_limits;

#define PRIO_FS_USE_PARENT 0x7fffffffu /* shares_raw of Fairshare=parent */
#define PRIO_ASSOC_NONE UINT32_MAX     /* "no association" index */
#define PRIO_ASSOC_MAX_DEPTH 64        /* deeper trees are refused */

/* Which inputs described an association (bits of prio_assoc.from). */
#define PRIO_ASSOC_FROM_DUMP 0x01u   /* sacctmgr dump */
#define PRIO_ASSOC_FROM_SSHARE 0x02u /* sshare output */

/* Which sshare columns a loaded association carried (bits of present). */
enum prio_sshare_col {
	PRIO_SSHARE_NORM_SHARES = 1u << 0,
	PRIO_SSHARE_RAW_USAGE = 1u << 1,
	PRIO_SSHARE_NORM_USAGE = 1u << 2,
	PRIO_SSHARE_EFFECTV_USAGE = 1u << 3,
	PRIO_SSHARE_FAIRSHARE = 1u << 4,
	PRIO_SSHARE_LEVEL_FS = 1u << 5,
	PRIO_SSHARE_GRP_TRES_MINS = 1u << 6,
	PRIO_SSHARE_GRP_TRES_RAW = 1u << 7,
	PRIO_SSHARE_TRES_RUN_MINS = 1u << 8,
	PRIO_SSHARE_RAW_SHARES = 1u << 9,
	PRIO_SSHARE_ID = 1u << 10,
	PRIO_SSHARE_PARTITION = 1u << 11,
	PRIO_SSHARE_CLUSTER = 1u << 12,
};

/* What sshare printed for one row.  A column the input had sets its bit in
 * `present`; a blank cell also sets it in `blank`, so audits can tell
 * "blank" from "not captured".  A TRES text cell that plain sshare output
 * cut with '+' lost its value: its bit stays clear, as if not captured. */
struct prio_sshare_values {
	uint32_t present; /* columns the input had for this row */
	uint32_t blank;   /* of those, the ones printed blank */
	double norm_shares, norm_usage, effectv_usage, fairshare, level_fs;
	uint64_t raw_usage;
	const char *grp_tres_mins, *grp_tres_raw, *tres_run_mins;
	const char *file;   /* the sshare row these came from (the record's */
	unsigned long line; /* own file may be the sacctmgr dump) */
};

struct prio_assoc {
	uint32_t id;            /* Slurm assoc id, 0 when unknown */
	uint32_t parent;        /* index of the direct parent; NONE for root */
	uint32_t first_child;   /* index, NONE when a leaf */
	uint32_t next_sibling;  /* index, NONE when last */
	uint16_t depth;         /* root 0 */
	bool is_user;           /* user association (leaf) */
	prio_id account;        /* the account (for users: the parent account) */
	prio_id user;           /* PRIO_NO_ID for account associations */
	prio_id partition;      /* PRIO_NO_ID unless a partition association */
	uint32_t shares_raw;    /* PRIO_FS_USE_PARENT for "parent"; NO_VAL unset */
	uint32_t priority;      /* own Priority=, PRIO_NO_VAL when unset */
	uint32_t priority_eff;  /* own Priority, else the parent's effective
				 * one (root without one: 0); INFINITE counts
				 * as 0, as Slurm converts it.  Set by
				 * prio_assoc_link(). */
	long double usage_raw;  /* decayed billing-seconds (RawUsage) */
	bool usage_known;       /* RawUsage was given or replayed */
	prio_id default_qos;
	const char *qos_text;   /* QOS='a,b' as written, NULL if none */
	const char *limits_text; /* the dump's limits, "GrpJobs=4:MaxWall...",
				  * NULL if none */
	/* those the forecast applies (GrpJobs, MaxJobs, GrpTRES) and the
	 * first that changes with usage, read from limits_text; NULL when
	 * none (acct_limits.h) */
	const struct prio_limits *limits;
	prio_id cluster;        /* the cluster, when the input named it */
	uint8_t from;           /* PRIO_ASSOC_FROM_* */
	struct prio_sshare_values slurm;
	const char *file;       /* where the record was read */
	unsigned long line;
};

#endif
