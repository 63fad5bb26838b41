/* SPDX-License-Identifier: MIT */
/* The release table and how a snapshot learns its Slurm release. */
#include <criterion/criterion.h>
#include <string.h>

#include "testutil.h"

static uint16_t parse(const char *s)
{
	uint16_t r = 0;

	cr_assert_eq(prio_slurm_version_parse(s, strlen(s), &r), 0, "%s", s);
	return r;
}

Test(slurm_version, parses_every_spelling)
{
	cr_assert_eq(parse("24.11"), 2411);
	cr_assert_eq(parse("24.11.5"), 2411);
	cr_assert_eq(parse("slurm 24.11.5"), 2411);
	cr_assert_eq(parse("24.11.5-4+deb13u1"), 2411);
	cr_assert_eq(parse("slurm-wlm 22.05.8-4+deb12u3"), 2205);
	cr_assert_eq(parse("26.05.0-0rc1"), 2605);
}

Test(slurm_version, refuses_what_is_no_version)
{
	uint16_t r = 7;
	const char *bad[] = {"", "slurm", "24", "24.", "24.13", "5.11", "24.111"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(prio_slurm_version_parse(bad[i], strlen(bad[i]), &r), -1,
			     "%s", bad[i]);
	cr_assert_eq(r, 7);
}

Test(slurm_version, rows_follow_the_release_notes)
{
	const struct prio_slurm_release *r;

	cr_assert_null(prio_slurm_release_of(2108));
	r = prio_slurm_release_of(2205);
	cr_assert_str_eq(r->name, "22.05");
	cr_assert_not(r->job_req_alloc_tres);
	cr_assert_not(r->sprio_account_qosname);
	cr_assert_str_eq(r->json_parser, "v0.0.38");
	/* 23.02: sprio's %o and %n, ReqTRES/AllocTRES */
	r = prio_slurm_release_of(2302);
	cr_assert(r->job_req_alloc_tres && r->sprio_account_qosname);
	cr_assert_not(r->sshare_json);
	/* 24.11 (observed): sshare --json, several QOS, no MAX_TRES_GRES */
	r = prio_slurm_release_of(2411);
	cr_assert_str_eq(r->json_parser, "v0.0.42");
	cr_assert(r->sshare_json && r->multi_qos && r->grace_counts_preempted);
	cr_assert_not(r->max_tres_gres);
	/* a maintenance or in-between release reads as the one before */
	cr_assert_eq(prio_slurm_release_of(2412), r);
	r = prio_slurm_release_of(2505);
	cr_assert(r->max_tres_gres && r->sreport_round_outward);
	cr_assert_not(r->no_normal_all_exact);
	r = prio_slurm_release_of(2605);
	cr_assert(r->exempt_time_suspend && r->no_normal_all_exact);
	cr_assert_str_eq(r->json_parser, "v0.0.45");
	cr_assert_eq(prio_slurm_release_of(2711), r);
}

/* JobState=EXPEDITING (job_state_string) first appears in 25.11's
 * source; every release before it refuses the state. */
Test(slurm_version, job_state_expediting_from_2511)
{
	size_t n;
	const struct prio_slurm_release *rows = prio_slurm_releases(&n);

	for (size_t i = 0; i < n; i++)
		cr_assert_eq(rows[i].job_state_expediting,
			     rows[i].release >= 2511, "%s", rows[i].name);
	cr_assert_not(prio_slurm_release_of(2505)->job_state_expediting);
	cr_assert(prio_slurm_release_of(2511)->job_state_expediting);
	cr_assert(prio_slurm_release_of(2605)->job_state_expediting);
}

/* The will-run test's start at the last end it needed, and the ends at
 * the start tried freed first: cons_tres job_test.c from 25.05.1 (24.11.5
 * gives the group's last end); 26.05 keeps it.  Its bound (later_start,
 * with the map's third change when no node comes back) from 24.11. */
Test(slurm_version, will_run_last_relevant_from_2505)
{
	size_t n;
	const struct prio_slurm_release *rows = prio_slurm_releases(&n);

	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(rows[i].will_run_last_relevant,
			     rows[i].release >= 2505, "%s", rows[i].name);
		/* the bound by the map's later change: backfill.c 24.11 */
		cr_assert_eq(rows[i].will_run_bounded,
			     rows[i].release >= 2411, "%s", rows[i].name);
		/* slurmdbd's "order by lineage": as_mysql_assoc.c 23.11 */
		cr_assert_eq(rows[i].assoc_lineage_order,
			     rows[i].release >= 2311, "%s", rows[i].name);
	}
	cr_assert_not(prio_slurm_release_of(2411)->will_run_last_relevant);
	cr_assert(prio_slurm_release_of(2605)->will_run_last_relevant);
}

Test(slurm_version, stronger_sources_win)
{
	struct prio_snapshot snap;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	/* nothing said: the newest release */
	cr_assert_eq(prio_snapshot_slurm(&snap)->release, PRIO_SLURM_NEWEST);
	prio_snapshot_note_version(&snap, 2205, PRIO_VERSION_FORMAT);
	cr_assert_eq(prio_snapshot_slurm(&snap)->release, 2205);
	prio_snapshot_note_version(&snap, 2411, PRIO_VERSION_CONFIG);
	cr_assert_eq(snap.slurm_release, 2411);
	/* a weaker source no longer changes it; an equal one neither */
	prio_snapshot_note_version(&snap, 2302, PRIO_VERSION_MANIFEST);
	prio_snapshot_note_version(&snap, 2505, PRIO_VERSION_CONFIG);
	cr_assert_eq(snap.slurm_release, 2411);
	prio_snapshot_note_version(&snap, 2505, PRIO_VERSION_OPTION);
	cr_assert_eq(prio_snapshot_slurm(&snap)->release, 2505);
	prio_snapshot_free(&snap);
}

Test(slurm_version, read_from_scontrol_show_config)
{
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;
	const char *text = "Configuration data as of 2026-11-26T10:00:00\n"
			   "ClusterName             = live\n"
			   "SLURM_VERSION           = 24.11.5\n";

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	prio_snapshot_note_version(&snap, 2205, PRIO_VERSION_FORMAT);
	test_source(&src, "config.txt", text);
	cr_assert_eq(prio_load_scontrol_config(&snap, &src, &err), 0, "%s", err.message);
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_CONFIG);
	prio_snapshot_free(&snap);
}
