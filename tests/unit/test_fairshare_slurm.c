/* SPDX-License-Identifier: MIT */
/*
 * prio_fairshare_slurm (prio/fairshare.h): the fairshare factors Slurm
 * shows, against what real Slurm 22.05 logged at its last calculation
 * before the captures of tests/oracle/classic and depth-oblivious
 * (slurmctld.log, DebugFlags=Priority: "Fairshare priority of job N for
 * user U in acct A is 2**(...) = F"; sshare's FairShare column says the
 * same).  Inputs: slurm.conf, the sacctmgr dump, sshare's RawUsage with
 * the association ids, the job list.  Values agree within what sshare's
 * integer RawUsage leaves open (5e-5 here); without the lag they do not.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "prio/fairshare.h"
#include "prio/priority.h"
#include "testutil.h"

struct want {
	const char *user, *account;
	double fairshare; /* Slurm's, from slurmctld.log */
};

static void load(struct prio_snapshot *s, const char *scenario, time_t now)
{
	static const struct {
		enum prio_role role;
		const char *file;
	} files[] = {
	    {PRIO_ROLE_CONF, "slurm.conf"},
	    {PRIO_ROLE_ASSOC, "sacctmgr_dump.cfg"},
	    {PRIO_ROLE_ASSOC, "sshare_a_l_P_o_all.txt"},
	    {PRIO_ROLE_JOBS, "scontrol_show_job_d.txt"},
	};
	struct prio_error err;
	char rel[256];

	prio_snapshot_init(s);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "tests/oracle/%s/%s", scenario,
			 files[i].file);
		cr_assert_eq(prio_load_role(s, files[i].role, test_path(rel),
					    &err),
			     0, "%s: %s", rel, err.message);
	}
	cr_assert_eq(prio_snapshot_finish(s, &err), 0, "%s", err.message);
	s->now = now; /* Slurm's last calculation (slurmctld.log) */
}

static uint32_t user_assoc(const struct prio_snapshot *s, const char *user,
			   const char *account)
{
	for (uint32_t i = 0; i < s->assoc_count; i++)
		if (s->assocs[i].is_user &&
		    strcmp(prio_snapshot_str(s, s->assocs[i].user), user) ==
			0 &&
		    strcmp(prio_snapshot_str(s, s->assocs[i].account),
			   account) == 0)
			return i;
	cr_assert_fail("no association %s/%s", account, user);
	return 0;
}

/* Lagged: within 5e-5 of Slurm's; the next cycle's (--no-lag): at least
 * `apart` away from it for one user at least. */
static void check(const char *scenario, time_t now, const struct want *w,
		  size_t n, double apart)
{
	struct prio_snapshot s;
	struct prio_error err;
	struct prio_engine e;
	struct prio_fs_setup setup;
	struct prio_fs_result *r, *next;
	double far = 0;

	load(&s, scenario, now);
	setup = prio_fs_setup_of(&s);
	cr_assert(prio_fs_lag_applies(&s, &setup));
	r = calloc(s.assoc_count, sizeof(*r));
	next = calloc(s.assoc_count, sizeof(*next));
	cr_assert_eq(prio_fairshare_slurm(&s, &setup, r, NULL, &err), 0, "%s",
		     err.message);
	setup.flags = PRIO_FS_NO_LAG;
	cr_assert_eq(prio_fairshare_slurm(&s, &setup, next, NULL, &err), 0);
	/* prio-calc's engine computes the same */
	cr_assert_eq(prio_engine_init(&e, &s, now, &err), 0, "%s",
		     err.message);
	for (size_t k = 0; k < n; k++) {
		uint32_t i = user_assoc(&s, w[k].user, w[k].account);

		cr_expect(fabs(r[i].fairshare - w[k].fairshare) < 5e-5,
			  "%s %s/%s: %f, Slurm %f", scenario, w[k].account,
			  w[k].user, r[i].fairshare, w[k].fairshare);
		cr_expect_eq(e.fs[i].fairshare, r[i].fairshare);
		if (fabs(next[i].fairshare - w[k].fairshare) > far)
			far = fabs(next[i].fairshare - w[k].fairshare);
	}
	cr_expect(far > apart, "%s: without the lag within %f of Slurm",
		  scenario, far);
	prio_engine_free(&e);
	free(r);
	free(next);
	prio_snapshot_free(&s);
}

Test(fairshare_slurm, classic_lags_account_rows_as_slurm_does)
{
	/* 2026-11-22T04:59:48, the calculation before the capture */
	static const struct want w[] = {
	    {"alice", "astro", 0.277554}, {"bob", "astro", 0.412427},
	    {"carol", "hep", 0.003861},	  {"dave", "hep", 0.009895},
	    {"erin", "hep_th", 0.073702}, {"frank", "orgchem", 0.020494},
	    {"grace", "orgchem", 0.138380}, {"heidi", "biochem", 0.400028},
	    {"mallory", "chem", 0.401271}, {"ivan", "genomics", 0.193679},
	    {"judy", "genomics", 0.430139}, {"alice", "hep", 0.094468},
	    {"root", "physics", 0.490496},
	};

	check("classic", 1795323588, w, sizeof(w) / sizeof(w[0]), 0.005);
}

Test(fairshare_slurm, depth_oblivious_sums_siblings_in_list_order)
{
	/* 2026-11-22T05:04:45 */
	static const struct want w[] = {
	    {"alice", "astro", 0.667077}, {"bob", "astro", 0.784226},
	    {"carol", "hep", 0.015006},	  {"dave", "hep", 0.030759},
	    {"erin", "hep_th", 0.175429}, {"frank", "orgchem", 0.044125},
	    {"grace", "orgchem", 0.221990}, {"heidi", "biochem", 0.627228},
	    {"mallory", "chem", 0.631956}, {"ivan", "genomics", 0.226580},
	    {"alice", "hep", 0.199572},	  {"judy", "genomics", 1.0},
	    {"root", "physics", 1.0},
	};

	check("depth-oblivious", 1795323885, w, sizeof(w) / sizeof(w[0]),
	      0.005);
}

Test(fairshare_slurm, fair_tree_and_no_jobs_have_no_lag)
{
	struct prio_snapshot s;
	struct prio_fs_setup setup;

	load(&s, "classic", 1795323588);
	setup = prio_fs_setup_of(&s);
	setup.algorithm = PRIO_FS_FAIR_TREE;
	cr_assert(!prio_fs_lag_applies(&s, &setup));
	setup.algorithm = PRIO_FS_CLASSIC;
	setup.flags = PRIO_FS_NO_LAG;
	cr_assert(!prio_fs_lag_applies(&s, &setup));
	prio_snapshot_free(&s);
}
