/* SPDX-License-Identifier: MIT */
/*
 * What the capturing user may not have seen.  Slurm's PrivateData
 * (slurm.conf(5)) hides from ordinary users the usage of other users in
 * sshare ("usage"), other users' jobs in squeue/scontrol and, without
 * slurmdbd, in sacct ("jobs"); root, SlurmUser and users with AdminLevel
 * Operator or Administrator see everything.  A snapshot captured by an
 * ordinary user on such a cluster is partial, and numbers that depend on
 * everyone (Fair Tree's Level FS and ranks, classic fair-share through the
 * siblings' and root's usage, queue positions, preemption candidates,
 * roll-ups over every user) would look real and be wrong.
 *
 * This file holds the one rule: which outputs need which views complete
 * (prio_privacy_blocked), and when a view counts as partial: the
 * configuration hides it and the capturer (prio-snap's MANIFEST "user"
 * line) is not privileged, or the data is visibly partial (the queue or
 * sacct holds one user's jobs while the associations show others running).
 * snap->assume_complete (--assume-complete) overrides all of it.
 */
#ifndef PRIO_PRIVACY_H
#define PRIO_PRIVACY_H

#include <stdbool.h>
#include <stddef.h>

struct prio_snapshot;

/* PrivateData values that hide something, as Slurm matches them (a
 * case-insensitive substring each; "all" hides everything). */
enum {
	PRIO_PRIVATE_ACCOUNTS = 1u << 0,
	PRIO_PRIVATE_EVENTS = 1u << 1,
	PRIO_PRIVATE_JOBS = 1u << 2,
	PRIO_PRIVATE_NODES = 1u << 3,
	PRIO_PRIVATE_PARTITIONS = 1u << 4,
	PRIO_PRIVATE_RESERVATIONS = 1u << 5,
	PRIO_PRIVATE_USAGE = 1u << 6,
	PRIO_PRIVATE_USERS = 1u << 7,
};
unsigned prio_private_data_flags(const char *value);

/* Who captured the snapshot (MANIFEST "user<TAB>NAME<TAB>ROLE"). */
enum prio_capturer_role {
	PRIO_CAPTURER_UNKNOWN = 0, /* no such line, or the role was not found */
	PRIO_CAPTURER_NONE,        /* AdminLevel None: an ordinary user */
	PRIO_CAPTURER_OPERATOR,
	PRIO_CAPTURER_ADMINISTRATOR,
	PRIO_CAPTURER_SLURMUSER,
	PRIO_CAPTURER_ROOT,
};
/* Read one MANIFEST line "user\tNAME\tROLE" into snap; 1 when it was
 * one, 0 otherwise (other lines are not this file's). */
int prio_privacy_manifest_line(struct prio_snapshot *snap, const char *text,
			       size_t len);
const char *prio_capturer_role_name(enum prio_capturer_role role);

/* The views of the cluster a snapshot may hold only in part. */
enum prio_view {
	PRIO_VIEW_USAGE,   /* every association's usage (sshare) */
	PRIO_VIEW_JOBS,    /* every user's jobs (scontrol show job, squeue) */
	PRIO_VIEW_HISTORY, /* every user's job records (sacct) */
	PRIO_VIEW_COUNT
};

/* The outputs that depend on views being complete. */
enum prio_needs {
	/* fair-share factors (FAIRSHARE, Level FS, FairShare, EffectvUsage,
	 * NormUsage) and every priority that adds the FAIRSHARE term */
	PRIO_NEEDS_FAIRSHARE,
	/* the ASSOC factor: association priorities, normalised by the
	 * highest of all (needs the tree itself) */
	PRIO_NEEDS_ASSOC,
	/* ranks, queue positions, jobs ahead, what moves in --compare */
	PRIO_NEEDS_RANK,
	/* which running jobs a pending one would preempt */
	PRIO_NEEDS_PREEMPT,
	/* sums over every user's job records (sreport's roll-ups) */
	PRIO_NEEDS_ROLLUP,
	/* usage carried to a later moment: every running job charges it */
	PRIO_NEEDS_ADVANCE,
	/* usage rebuilt from every user's job records, running jobs too */
	PRIO_NEEDS_REPLAY,
	PRIO_NEEDS_COUNT
};

/* The sshare input should not be read: the configuration hides other
 * users' usage from the capturer (and nothing overrides it).  Asked by the
 * loader before it reads an sshare file; the file's name is kept for the
 * messages. */
bool prio_privacy_withhold_usage(struct prio_snapshot *snap, const char *name);

/* Why `view` is partial, in one clause, or NULL when it counts as
 * complete.  buf receives the text. */
const char *prio_privacy_view_partial(const struct prio_snapshot *snap,
				      enum prio_view view, char *buf,
				      size_t size);
/* Why output `need` cannot be computed (the reason of the first partial
 * view it depends on), or NULL when it can. */
const char *prio_privacy_blocked(const struct prio_snapshot *snap,
				 enum prio_needs need, char *buf, size_t size);

#endif
