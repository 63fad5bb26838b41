/* SPDX-License-Identifier: MIT */
/*
 * sshare's rows and indentation under its filters (prio/report_sshare.h),
 * the explanations (prio/fairshare_explain.h) and Slurm's classic lag, on
 * the fairtree-basic snapshot of samples/site (real sshare output).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "prio/fairshare_explain.h"
#include "prio/report_sshare.h"
#include "prio/usage.h"
#include "testutil.h"

static struct prio_snapshot snap;
static struct prio_fs_result *res;

static void load_site(void)
{
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(prio_load_role(&snap, PRIO_ROLE_CONF,
				    test_path("samples/site/slurm.conf"), &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_load_role(&snap, PRIO_ROLE_ASSOC,
				    test_path("samples/site/sshare.txt"), &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_load_role(&snap, PRIO_ROLE_JOBS,
				    test_path("samples/site/jobs.txt"), &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", err.message);
	snap.now = 1795319730;
	res = calloc(snap.assoc_count, sizeof(*res));
	cr_assert_eq(
	    prio_fairshare_compute(&snap, PRIO_FS_FAIR_TREE, res, &err), 0);
}

static void unload_site(void)
{
	free(res);
	prio_snapshot_free(&snap);
}

/* "name:indent" of every row, space separated. */
static void rows_text(const struct prio_sshare_filter *f, char *out,
		      size_t size)
{
	struct prio_sshare_rows it;
	struct prio_error err;
	uint32_t a;
	unsigned indent;
	size_t used = 0;

	cr_assert_eq(prio_sshare_rows_init(&it, &snap, f, &err), 0);
	out[0] = '\0';
	while (prio_sshare_rows_next(&it, &a, &indent) && used < size) {
		const struct prio_assoc *as = &snap.assocs[a];
		used += (size_t)snprintf(
		    out + used, size - used, "%s%s:%u", used ? " " : "",
		    prio_snapshot_str(&snap,
				      as->is_user ? as->user : as->account),
		    indent);
	}
	prio_sshare_rows_free(&it);
}

TestSuite(report, .init = load_site, .fini = unload_site);

Test(report, rows_and_indentation_under_filters)
{
	static const char *const alice[] = {"alice"};
	static const char *const accts[] = {"HEP", "astro"};
	char text[2048];
	struct prio_sshare_filter f = {.users = alice, .user_count = 1};

	rows_text(&f, text, sizeof(text));
	cr_assert_str_eq(
	    text,
	    "root:0 bio:1 genomics:2 chem:1 biochem:2 orgchem:2 physics:1 "
	    "astro:2 alice:3 hep:2 alice:3 hep_th:3");
	/* -A: rows of those accounts; their parents are not printed, so the
	 * indentation restarts at 0 (sshare's tree printer) */
	f = (struct prio_sshare_filter){
	    .all_users = true, .accounts = accts, .account_count = 2};
	rows_text(&f, text, sizeof(text));
	cr_assert_str_eq(text,
			 "astro:0 alice:1 bob:1 hep:0 alice:1 carol:1 dave:1");
	/* -U: user rows only, never indented */
	f = (struct prio_sshare_filter){.all_users = true,
					.users_only = true,
					.accounts = accts,
					.account_count = 1};
	rows_text(&f, text, sizeof(text));
	cr_assert_str_eq(text, "alice:0 carol:0 dave:0");
	/* no user listed, no -a: accounts only */
	f = (struct prio_sshare_filter){0};
	rows_text(&f, text, sizeof(text));
	cr_assert(!strstr(text, "alice"), "%s", text);
}

Test(report, cells_blank_parent_and_inf)
{
	struct prio_field_sel sel[16];
	struct prio_cell c[16];
	struct prio_sshare_rowbuf buf;
	char why[128];
	size_t n;
	uint32_t oscar = PRIO_ASSOC_NONE, judy = PRIO_ASSOC_NONE;

	cr_assert_eq(prio_fieldlist_parse("A,U,RawS,NormS,RawU,NormU,Eff,F,L",
					  prio_sshare_fields(),
					  PRIO_SSHARE_F_COUNT, sel, 16, &n, why,
					  sizeof(why)),
		     0, "%s", why);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		if (snap.assocs[i].is_user) {
			const char *u =
			    prio_snapshot_str(&snap, snap.assocs[i].user);
			if (!strcmp(u, "oscar"))
				oscar = i;
			if (!strcmp(u, "judy"))
				judy = i;
		}
	/* root: RawShares, NormUsage, FairShare and LevelFS blank */
	prio_sshare_cells(&snap, res, PRIO_FS_FAIR_TREE, NULL, 0, 0, sel, n, c,
			  &buf);
	cr_assert_str_eq(c[0].s, "root");
	cr_assert_eq(c[2].kind, PRIO_CELL_BLANK);
	cr_assert_eq(c[5].kind, PRIO_CELL_BLANK);
	cr_assert_eq(c[7].kind, PRIO_CELL_BLANK);
	cr_assert_eq(c[8].kind, PRIO_CELL_BLANK);
	cr_assert_eq(c[4].u, 35834);
	/* a Fairshare=parent user: "parent", LevelFS blank, indentation */
	prio_sshare_cells(&snap, res, PRIO_FS_FAIR_TREE, NULL, oscar, 3, sel, n,
			  c, &buf);
	cr_assert_str_eq(c[0].s, "   genomics");
	cr_assert_str_eq(c[1].s, "oscar");
	cr_assert_str_eq(c[2].s, "parent");
	cr_assert_eq(c[8].kind, PRIO_CELL_BLANK);
	cr_assert_float_eq(c[7].d, 0.2, 1e-12);
	/* no usage: LevelFS infinity */
	prio_sshare_cells(&snap, res, PRIO_FS_FAIR_TREE, NULL, judy, 3, sel, n,
			  c, &buf);
	cr_assert(isinf(c[8].d));
	cr_assert_str_eq(prio_sshare_default_format(false, false, true),
			 "Account,User,RawShares,NormShares,RawUsage,"
			 "EffectvUsage,FairShare");
	cr_assert(strstr(prio_sshare_default_format(true, true, false),
			 "User,Partition,"));
	cr_assert(
	    !strstr(prio_sshare_default_format(true, false, false), "LevelFS"));
	cr_assert(strstr(prio_sshare_helpformat(why, sizeof(why)),
			 "Account          Cluster          EffectvUsage     "
			 "FairShare        \n"));
}

static uint32_t user_in(const char *user, const char *acct)
{
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		if (snap.assocs[i].is_user &&
		    !strcmp(prio_snapshot_str(&snap, snap.assocs[i].user),
			    user) &&
		    !strcmp(prio_snapshot_str(&snap, snap.assocs[i].account),
			    acct))
			return i;
	cr_assert_fail("no %s/%s", acct, user);
	return 0;
}

Test(report, why_walks_the_levels_and_finds_the_deciding_pair)
{
	struct prio_why why;
	struct prio_error err;
	uint32_t alice = user_in("alice", "hep"), bob = user_in("bob", "astro");
	uint32_t hep = snap.assocs[alice].parent,
		 physics = snap.assocs[hep].parent;
	uint32_t astro = snap.assocs[bob].parent;
	char *text;

	cr_assert_eq(
	    prio_fairshare_why(&snap, res, alice, PRIO_ASSOC_NONE, &why, &err),
	    0);
	cr_assert_eq(why.nlevels, 3);
	cr_assert_eq(why.levels[0].assoc, alice);
	cr_assert_eq(why.levels[0].place, 1); /* first under hep */
	cr_assert_eq(why.levels[1].assoc, hep);
	cr_assert_eq(why.levels[1].place,
		     3); /* after physics' root user and astro */
	cr_assert_eq(why.levels[1].siblings, 3);
	cr_assert_eq(why.levels[1].before[1], astro);
	cr_assert_eq(why.levels[2].assoc, physics);
	cr_assert_eq(why.levels[2].parent, 0);
	cr_assert_eq(prio_fairshare_why(&snap, res, alice, bob, &why, &err), 0);
	cr_assert_eq(why.common, physics);
	cr_assert_eq(why.side_user, hep);
	cr_assert_eq(why.side_other, astro);
	text =
	    prio_fairshare_why_text(&snap, PRIO_FS_FAIR_TREE, res, &why, false);
	cr_assert_str_eq(text,
			 "alice (hep) ranks 7/15 below bob (astro) (9/15): "
			 "under physics, astro "
			 "has Level FS 1.854 (shares 0.732, usage 0.395) and "
			 "hep 0.403 (shares "
			 "0.244, usage 0.605); hep used 2.5x its share.\n");
	free(text);
}

Test(report, when_decay_alone_changes_nothing)
{
	struct prio_when w;
	struct prio_error err;
	uint32_t alice = user_in("alice", "hep");
	long double before = snap.assocs[alice].usage_raw;
	struct prio_fs_setup ft = {.algorithm = PRIO_FS_FAIR_TREE},
			     classic = {.algorithm = PRIO_FS_CLASSIC};

	/* no_run: only decay, so never; usage restored afterwards */
	cr_assert_eq(prio_fairshare_when(&snap, &ft, alice,
					 PRIO_WHEN_FAIRSHARE, 0.7, true, 100,
					 &w, &err),
		     0);
	cr_assert(!w.reached && !w.already);
	cr_assert_float_eq(w.value_now, 7.0 / 15, 1e-12);
	cr_assert_eq(snap.assocs[alice].usage_raw, before);
	/* already there */
	cr_assert_eq(prio_fairshare_when(&snap, &ft, alice,
					 PRIO_WHEN_FAIRSHARE, 0.4, false, 100,
					 &w, &err),
		     0);
	cr_assert(w.already && w.reached && w.at == snap.now);
	/* with the running jobs, values move until the last one ends */
	cr_assert_eq(prio_fairshare_when(&snap, &ft, alice,
					 PRIO_WHEN_FAIRSHARE, 0.99, false, 100,
					 &w, &err),
		     0);
	cr_assert(!w.reached);
	cr_assert(w.settled > snap.now && w.best >= w.value_now);
	/* Level FS needs Fair Tree */
	cr_assert_eq(prio_fairshare_when(&snap, &classic, alice,
					 PRIO_WHEN_LEVEL_FS, 1, false, 100, &w,
					 &err),
		     PRIO_ERR_USAGE);
}

Test(report, classic_lag_uses_the_previous_cycle_for_accounts)
{
	struct prio_error err;
	struct prio_fs_result *lagged =
	    calloc(snap.assoc_count, sizeof(*lagged));
	struct prio_fs_result *fresh = calloc(snap.assoc_count, sizeof(*fresh));
	long double *prev = calloc(snap.assoc_count, sizeof(*prev));
	struct prio_fs_lag lag = {prev, 1, NULL, 0, NULL};
	double scale;

	cr_assert_eq(prio_usage_previous_cycle(&snap, 0, 1, prev, &scale, &err),
		     0);
	lag.prev_slack = scale;
	cr_assert(prev[0] <
		  snap.assocs[0].usage_raw); /* blockers were adding */
	cr_assert_eq(
	    prio_fairshare_compute(&snap, PRIO_FS_CLASSIC, fresh, &err), 0);
	cr_assert_eq(prio_fairshare_compute_lagged(&snap, PRIO_FS_CLASSIC, &lag,
						   lagged, &err),
		     0);
	for (uint32_t i = 1; i < snap.assoc_count; i++) {
		const struct prio_assoc *a = &snap.assocs[i];
		if (a->is_user) /* users: current NormUsage */
			cr_assert_float_eq(lagged[i].usage_norm,
					   fresh[i].usage_norm, 0);
		else /* accounts: as of the cycle's start */
			cr_assert_float_eq(lagged[i].usage_norm,
					   (double)(prev[i] / prev[0]), 1e-15);
	}
	/* Fair Tree has no lag */
	cr_assert_eq(prio_fairshare_compute_lagged(&snap, PRIO_FS_FAIR_TREE,
						   &lag, lagged, &err),
		     0);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		cr_assert_eq(lagged[i].rank, res[i].rank);
	free(lagged);
	free(fresh);
	free(prev);
}
