/* SPDX-License-Identifier: MIT */
/* PrivateData and the capturing user (privacy.c): Slurm's matching of the
 * setting, prio-snap's MANIFEST line, and the rule of which output needs
 * which view, on the sample site as alice would have captured it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

Test(privacy, private_data_matches_as_slurm_does)
{
	/* scontrol show config prints the values in this order */
	cr_assert_eq(prio_private_data_flags("accounts,jobs,usage"),
		     PRIO_PRIVATE_ACCOUNTS | PRIO_PRIVATE_JOBS |
			 PRIO_PRIVATE_USAGE);
	cr_assert_eq(prio_private_data_flags("none"), 0);
	cr_assert_eq(prio_private_data_flags(NULL), 0);
	/* a substring each, case-insensitive: "Job" and "users" count */
	cr_assert_eq(prio_private_data_flags("Job,users"),
		     PRIO_PRIVATE_JOBS | PRIO_PRIVATE_USERS);
	cr_assert_eq(prio_private_data_flags("all") & PRIO_PRIVATE_USAGE,
		     PRIO_PRIVATE_USAGE);
}

static struct prio_snapshot snap;

static void manifest(const char *line)
{
	cr_assert_eq(prio_privacy_manifest_line(&snap, line, strlen(line)), 1);
}

Test(privacy, manifest_names_the_capturer)
{
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_privacy_manifest_line(&snap, "version\tslurm 24.11.5",
						21),
		     0);
	manifest("user\talice\tNone");
	cr_assert_str_eq(snap.capturer, "alice");
	cr_assert_eq(snap.capturer_role, PRIO_CAPTURER_NONE);
	manifest("user\tslurm\tSlurmUser");
	cr_assert_eq(snap.capturer_role, PRIO_CAPTURER_SLURMUSER);
	manifest("user\tbob\toperator");
	cr_assert_eq(snap.capturer_role, PRIO_CAPTURER_OPERATOR);
	/* a level prio-snap could not find is unknown, not ordinary */
	manifest("user\tcarol\tunknown");
	cr_assert_eq(snap.capturer_role, PRIO_CAPTURER_UNKNOWN);
	cr_assert_str_eq(snap.capturer, "carol");
	prio_snapshot_free(&snap);
}

/* samples/site with PrivateData=usage,jobs, the sshare and queue read
 * whole (as an operator would have captured them). */
static void load_private(const char *role_line, bool assume)
{
	const char *paths[PRIO_ROLE_COUNT] = { 0 };
	struct prio_error err;
	char conf[] = "/tmp/privacy-conf.XXXXXX";
	int fd = mkstemp(conf);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	cr_assert_not_null(f);
	fprintf(f, "Include %s\nPrivateData=usage,jobs\n",
		test_path("samples/site/slurm.conf"));
	fclose(f);
	paths[PRIO_ROLE_CONF] = conf;
	paths[PRIO_ROLE_ASSOC] = test_path("samples/site/sshare.txt");
	paths[PRIO_ROLE_QOS] = test_path("samples/site/qos.txt");
	paths[PRIO_ROLE_JOBS] = test_path("samples/site/jobs.txt");
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	snap.assume_complete = assume;
	if (role_line)
		manifest(role_line);
	cr_assert_eq(prio_snapshot_load_sources(&snap, NULL, paths, &err), 0,
		     "%s", err.message);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", err.message);
	remove(conf);
}

Test(privacy, an_ordinary_capturer_gets_no_fairshare_nor_ranks)
{
	char why[512];

	char usage[512];
	const char *jobs = "PrivateData=jobs hides other users' jobs from "
			   "alice (AdminLevel None)";
	/* what each output waits for; no sacct was loaded: nothing to sum,
	 * nothing partial; later usage and a replay are charged by every
	 * running job */
	const char *want[PRIO_NEEDS_COUNT] = {
		[PRIO_NEEDS_FAIRSHARE] = usage, [PRIO_NEEDS_ASSOC] = usage,
		[PRIO_NEEDS_RANK] = jobs,	[PRIO_NEEDS_PREEMPT] = jobs,
		[PRIO_NEEDS_ROLLUP] = NULL,	[PRIO_NEEDS_ADVANCE] = jobs,
		[PRIO_NEEDS_REPLAY] = jobs,
	};

	snprintf(usage, sizeof(usage),
		 "%s not read: PrivateData=usage hides other users' usage "
		 "from alice (AdminLevel None)",
		 test_path("samples/site/sshare.txt"));
	load_private("user\talice\tNone", false);
	/* sshare was left unread: no association at all */
	cr_assert_eq(snap.assoc_count, 0);
	for (int n = 0; n < PRIO_NEEDS_COUNT; n++) {
		const char *got = prio_privacy_blocked(&snap, n, why, sizeof(why));

		if (want[n])
			cr_assert_str_eq(got, want[n], "need %d", n);
		else
			cr_assert_null(got, "need %d: %s", n, got);
	}
	prio_snapshot_free(&snap);
}

Test(privacy, an_operator_or_assume_complete_sees_everything)
{
	char why[512];

	load_private("user\tbob\tOperator", false);
	cr_assert_gt(snap.assoc_count, 20, "%u", snap.assoc_count);
	for (int n = 0; n < PRIO_NEEDS_COUNT; n++)
		cr_assert_null(prio_privacy_blocked(&snap, n, why, sizeof(why)),
			       "need %d: %s", n, why);
	prio_snapshot_free(&snap);
	load_private(NULL, true);
	for (int n = 0; n < PRIO_NEEDS_COUNT; n++)
		cr_assert_null(prio_privacy_blocked(&snap, n, why, sizeof(why)),
			       "need %d: %s", n, why);
	prio_snapshot_free(&snap);
}

Test(privacy, an_unnamed_capturer_counts_as_ordinary)
{
	char why[512];

	load_private(NULL, false);
	cr_assert_str_eq(prio_privacy_blocked(&snap, PRIO_NEEDS_PREEMPT, why,
					      sizeof(why)),
			 "PrivateData=jobs hides other users' jobs from the "
			 "capturing user (MANIFEST does not name one)");
	prio_snapshot_free(&snap);
}
