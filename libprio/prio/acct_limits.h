/* SPDX-License-Identifier: MIT */
/*
 * Association and QOS limits that hold running jobs to a count or a sum of
 * TRES (Slurm's acct_policy), as the forecast applies them (acct_limits.c):
 * QOS GrpJobs, MaxJobsPU, MaxJobsPA, GrpTRES, MaxTRESPU, MaxTRESPA; an
 * association's GrpJobs and GrpTRES (over its subtree) and MaxJobs (its
 * own, or inherited from the nearest account that sets it).
 */
#ifndef PRIO_ACCT_LIMITS_H
#define PRIO_ACCT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tres.h"

struct prio_snapshot;

struct prio_limits {
	/* PRIO_NO_VAL: unset */
	uint32_t grp_jobs, max_jobs, max_jobs_pu, max_jobs_pa;
	/* empty lists: unset */
	struct prio_tres_list grp_tres, max_tres_pu, max_tres_pa;
	/* the first limit set that changes with time or usage and that the
	 * forecast leaves out (GrpTRESMins, GrpTRESRunMins, GrpWall,
	 * MaxTRESRunMins...), NULL when none */
	const char *unmodelled;
};

void prio_limits_init(struct prio_limits *l);
/* Any limit the forecast applies set? */
bool prio_limits_any(const struct prio_limits *l);

/* An association's limits from its dump text ("GrpJobs=4:GrpTRES=cpu=8");
 * -1 clears.  0, or -1 with the key in *key, its value in text at
 * *val (*vlen bytes) and a static reason in *why. */
int prio_limits_from_dump(struct prio_snapshot *snap, const char *text,
			  struct prio_limits *l, const char **key,
			  const char **val, size_t *vlen, const char **why);

#endif
