/* SPDX-License-Identifier: MIT */
/*
 * The association and QOS limits in the forecast (forecast_limits.c): what
 * the running jobs hold against each limit, and whether one more job would
 * pass, as slurmctld's acct_policy asks before it starts a job.
 */
#ifndef FORECAST_LIMITS_H
#define FORECAST_LIMITS_H

#include <stdint.h>

#include "prio/error.h"
#include "prio/job.h"
#include "prio/snapshot.h"

struct fc_limits;

/* Whom a job counts against: its association and its two QOS, in the
 * order slurmctld reads their limits (the partition's QOS first unless the
 * job's has OverPartQOS), indices, NONE when the snapshot has no such
 * record; its user and account. */
struct fc_lim_key {
	uint32_t assoc, qos[2];
	prio_id user, account;
};

/* *out NULL when nothing is to be applied: AccountingStorageEnforce
 * without limits (or safe), or no limit set.  0, or -1 (out of memory). */
int fc_limits_new(const struct prio_snapshot *snap, struct fc_limits **out,
		  struct prio_error *err);
void fc_limits_free(struct fc_limits *fl);

struct fc_lim_key fc_limits_key(const struct prio_snapshot *snap,
				const struct prio_job *job, prio_id partition,
				prio_id qos);
/* A job of that key starts (sign 1) or ends (-1). */
void fc_limits_charge(struct fc_limits *fl, const struct fc_lim_key *k,
		      const struct prio_job *job, int sign);
/* The limit that holds one more such job now ("QOS high MaxJobsPU=2"),
 * NULL when none; the text lives until the next call. */
const char *fc_limits_block(struct fc_limits *fl, const struct fc_lim_key *k,
			    const struct prio_job *job);
/* A limit on its QOS or associations that changes with usage and that
 * the forecast leaves out ("QOS high GrpTRESRunMins"), NULL when none. */
const char *fc_limits_unmodelled(struct fc_limits *fl,
				 const struct fc_lim_key *k);

#endif
