/* SPDX-License-Identifier: MIT */
/*
 * What-if assignments: the `--set` option of every tool and the named sets
 * of prio-tools.conf(5).  Each assignment changes one value of a loaded
 * snapshot before prio_snapshot_finish() links it, so totals, weights and
 * normalisations are derived from the changed values:
 *
 *   Key=Value                           a slurm.conf parameter
 *                                       (PriorityWeightAge=2000,
 *                                       PriorityDecayHalfLife=14-0, ...)
 *   partition:NAME.Key=Value            PriorityJobFactor, PriorityTier,
 *                                       Priority, MaxTime, GraceTime,
 *                                       PreemptMode, TRESBillingWeights
 *   qos:NAME.Key=Value                  Priority, UsageFactor, GraceTime,
 *                                       PreemptMode, PreemptExemptTime
 *   assoc:ACCOUNT[/USER[/PART]].Key=Value
 *                                       Fairshare (N or parent), Priority,
 *                                       RawUsage
 *   job:ID.Key=Value                    Nice, QOS, Partition (a,b)
 *
 * Kinds and keys are case-insensitive; names are matched as Slurm matches
 * them (accounts lower-case, everything else exactly).
 */
#ifndef PRIO_WHATIF_H
#define PRIO_WHATIF_H

#include "error.h"

struct prio_snapshot;

/* Apply one assignment.  `origin` names where it came from for messages
 * ("--set", "config:12"); errors are PRIO_ERR_USAGE (bad form, unknown
 * kind or key, no such partition/QOS/association/job) or PRIO_ERR_PARSE
 * (bad value) with origin as file and the key as field. */
int prio_snapshot_set(struct prio_snapshot *snap, const char *assignment,
		      const char *origin, struct prio_error *err);

#endif
