/* SPDX-License-Identifier: MIT */
/*
 * The fairshare factors Slurm shows (prio/fairshare.h,
 * prio_fairshare_slurm): one place decides how a tool turns a snapshot's
 * usage into FairShare, so that prio-calc's FAIRSHARE column, prio-top,
 * the explanations and fstree-show's sshare table agree with each other
 * and with Slurm.
 *
 * Under Fair Tree that is the plain computation.  Under classic,
 * DEPTH_OBLIVIOUS (and the ticket-based variant, which shares classic's
 * first pass) the controller computes the account rows at the start of
 * each calculation cycle, before that cycle's decay and new usage, and the
 * user rows later, each pending job's priority from them (Slurm 22.05 to
 * 24.11, the decay thread of priority/multifactor; the classic and
 * depth-oblivious oracle scenarios' slurmctld.log print both passes).  So
 * sprio's FAIRSHARE, like sshare's FairShare, mixes the current usage with
 * the usage of one cycle back (and, for DEPTH_OBLIVIOUS's sibling sums,
 * two).  Those come from prio_usage_previous_cycle(): the current usage
 * without what the running jobs added in the cycle, un-decayed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fairshare_tree.h"
#include "prio/fairshare.h"
#include "prio/usage.h"

struct prio_fs_setup prio_fs_setup_of(const struct prio_snapshot *snap)
{
	struct prio_fs_setup s;

	memset(&s, 0, sizeof(s));
	s.algorithm = prio_fs_algorithm_of(snap->conf.priority_flags);
	s.cycle = snap->now;
	return s;
}

bool prio_fs_lag_applies(const struct prio_snapshot *snap,
			 const struct prio_fs_setup *setup)
{
	/* Without the job list the running jobs are unknown; with it and
	 * nothing running, the lag is pure decay, which changes no ratio. */
	return setup->algorithm != PRIO_FS_FAIR_TREE &&
	       !(setup->flags & PRIO_FS_NO_LAG) && snap->assoc_count &&
	       (snap->job_count ||
		(prio_snapshot_roles_loaded(snap) & (1u << PRIO_ROLE_JOBS)));
}

void prio_fs_lag_free(struct prio_fs_lag *lag)
{
	if (!lag)
		return;
	free(lag->owned);
	memset(lag, 0, sizeof(*lag));
}

int prio_fairshare_slurm(const struct prio_snapshot *snap,
			 const struct prio_fs_setup *setup,
			 struct prio_fs_result *out, struct prio_fs_lag *lag,
			 struct prio_error *err)
{
	struct prio_fs_lag mine;
	struct prio_fs_lag *l = lag ? lag : &mine;
	uint32_t n = snap->assoc_count;
	int rc;

	memset(l, 0, sizeof(*l));
	if (!prio_fs_lag_applies(snap, setup))
		return fs_compute(snap, setup->algorithm, NULL, setup->cache,
				  out, err);
	if (!(l->owned = calloc(2 * (size_t)n, sizeof(*l->owned))))
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	if ((rc = prio_usage_previous_cycle(snap, setup->cycle, 1, l->owned,
					    &l->prev_slack, err)) < 0 ||
	    (rc = prio_usage_previous_cycle(snap, setup->cycle, 2,
					    l->owned + n, &l->prev2_slack,
					    err)) < 0) {
		prio_fs_lag_free(l);
		return rc;
	}
	l->prev_usage = l->owned;
	l->prev2_usage = l->owned + n;
	rc = fs_compute(snap, setup->algorithm, l, setup->cache, out, err);
	if (rc < 0 || l == &mine)
		prio_fs_lag_free(l);
	return rc;
}
