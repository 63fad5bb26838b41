/* SPDX-License-Identifier: MIT */
/* Snapshots: format detection, folders, every oracle artefact, linking. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

static int detect(const char *text, int hint)
{
	struct prio_source src;
	test_source(&src, "t", text);
	return prio_detect_input(&src, hint);
}

Test(snapshot, detects_formats_from_content)
{
	cr_assert_eq(detect("ClusterName=x\n", PRIO_ROLE_CONF), PRIO_INPUT_SLURMCONF);
	cr_assert_eq(detect("Configuration data as of 2026-11-22T03:55:30\nA = b\n", PRIO_ROLE_CONF),
		     PRIO_INPUT_SCONTROL_CONFIG);
	cr_assert_eq(detect("AccountingStorageType   = accounting_storage/slurmdbd\n", PRIO_ROLE_CONF),
		     PRIO_INPUT_SCONTROL_CONFIG);
	cr_assert_eq(detect("# comment\nCluster - 'ft'\n", PRIO_ROLE_ASSOC), PRIO_INPUT_ASSOC_DUMP);
	cr_assert_eq(detect("Account|User|RawShares\n", PRIO_ROLE_ASSOC), PRIO_INPUT_SSHARE);
	cr_assert_eq(detect("\n  {\"meta\": {}}", PRIO_ROLE_JOBS), PRIO_INPUT_JOBS_JSON);
	cr_assert_eq(detect("JobId=1 JobName=x\n", PRIO_ROLE_JOBS), PRIO_INPUT_JOBS_SCONTROL);
	/* Without a hint, from content alone. */
	cr_assert_eq(detect("JobId=1 JobName=x\n", -1), PRIO_INPUT_JOBS_SCONTROL);
	cr_assert_eq(detect("PartitionName=batch\n   AllowGroups=ALL\n", -1), PRIO_INPUT_PARTITIONS);
	cr_assert_eq(detect("NodeName=n1 Arch=x86_64 CoresPerSocket=8\n", -1), PRIO_INPUT_NODES);
	cr_assert_eq(detect("Name|Priority|GraceTime\n", -1), PRIO_INPUT_QOS);
	cr_assert_eq(detect("JobID|User|Account\n", -1), PRIO_INPUT_SACCT);
	cr_assert_eq(detect("hello world\n", -1), -1);
}

/* Map an oracle file name to the role that reads it, or -1. */
static int role_of(const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	if (!strncmp(base, "slurm.conf", 10) || !strcmp(base, "scontrol_show_config.txt"))
		return PRIO_ROLE_CONF;
	if (!strcmp(base, "sacctmgr_dump.cfg") || !strncmp(base, "sshare_", 7))
		return PRIO_ROLE_ASSOC;
	if (!strncmp(base, "sacctmgr_show_qos", 17))
		return PRIO_ROLE_QOS;
	if (!strncmp(base, "scontrol_show_job", 17) || !strcmp(base, "squeue_json.txt"))
		return PRIO_ROLE_JOBS;
	if (!strncmp(base, "sacct_a_P", 9))
		return PRIO_ROLE_SACCT;
	if (!strncmp(base, "scontrol_show_partition", 23))
		return PRIO_ROLE_PARTITIONS;
	if (!strncmp(base, "scontrol_show_node", 18))
		return PRIO_ROLE_NODES;
	return -1;
}

Test(snapshot, every_oracle_artefact_loads_cleanly)
{
	glob_t g;
	unsigned loaded = 0;
	utc();
	cr_assert_eq(glob(test_path("tests/oracle/*/*"), 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		int role = role_of(g.gl_pathv[i]);
		struct prio_snapshot snap;
		struct prio_error err;
		char msg[1024];

		if (role < 0)
			continue;
		prio_error_clear(&err);
		cr_assert_eq(prio_snapshot_init(&snap), 0);
		int rc = prio_load_role(&snap, role, g.gl_pathv[i], &err);
		cr_assert_eq(rc, 0, "%s", prio_error_format(&err, msg, sizeof(msg)));
		cr_assert_eq(snap.warning_count, 0);
		cr_assert_eq(snap.loaded_count >= 1, 1, "%s noted", g.gl_pathv[i]);
		cr_assert_gt(snap.loaded[snap.loaded_count - 1].records, 0, "%s has records",
			     g.gl_pathv[i]);
		rc = prio_snapshot_finish(&snap, &err);
		cr_assert_eq(rc, 0, "%s", prio_error_format(&err, msg, sizeof(msg)));
		prio_snapshot_free(&snap);
		loaded++;
	}
	globfree(&g);
	cr_assert_gt(loaded, 100, "only %u oracle artefacts found", loaded);
}

Test(snapshot, sample_folder_links_everything)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];
	utc();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	int rc = prio_snapshot_load_sources(&snap, test_path("samples/site"), NULL, &err);
	cr_assert_eq(rc, 0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	rc = prio_snapshot_finish(&snap, &err);
	cr_assert_eq(rc, 0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert(snap.now_known);
	cr_assert_eq(snap.now, 1795319730);
	cr_assert(snap.have_config);
	cr_assert_str_eq(snap.conf.cluster_name, "ft");
	cr_assert_eq(snap.partition_count, 3);
	cr_assert_eq(snap.node_count, 5);
	cr_assert_eq(snap.qos_count, 7);
	cr_assert_eq(snap.job_count, 44);
	cr_assert_eq(snap.user_assoc_count, 15);
	/* partition big: 5 nodes, 40 CPUs, tier 2, resolved through the index */
	struct prio_partition *big =
		prio_snapshot_partition(&snap, prio_intern_find(&snap.strings, "big", 3));
	cr_assert_not_null(big);
	cr_assert_eq(big->tier, 2);
	cr_assert_eq(big->node_count, 5);
	cr_assert_eq(big->total_cpus, 40);
	struct prio_qos *urgent =
		prio_snapshot_qos(&snap, prio_intern_find(&snap.strings, "urgent", 6));
	cr_assert_not_null(urgent);
	cr_assert_eq(urgent->priority, 1000);
	/* The dump and sshare were merged: usage and priorities on one tree. */
	cr_assert_eq(snap.assocs[0].parent, PRIO_ASSOC_NONE);
	bool seen_bob = false;
	for (uint32_t i = 0; i < snap.assoc_count; i++) {
		const struct prio_assoc *a = &snap.assocs[i];
		if (a->is_user && !strcmp(prio_snapshot_str(&snap, a->user), "bob")) {
			seen_bob = true;
			cr_assert_eq(a->priority, 100);
			cr_assert(a->usage_known);
			cr_assert_float_eq((double)a->usage_raw, 2777.0, 1.0);
		}
	}
	cr_assert(seen_bob);
	prio_snapshot_free(&snap);
}

Test(snapshot, explicit_source_overrides_folder_and_now_file)
{
	struct prio_snapshot snap;
	struct prio_error err;
	const char *paths[PRIO_ROLE_COUNT] = { 0 };
	char msg[1024];
	utc();
	paths[PRIO_ROLE_JOBS] = test_path("samples/site/jobs.json");
	prio_snapshot_init(&snap);
	snap.now = 1000;
	snap.now_known = true; /* as --now does: NOW must not override it */
	int rc = prio_snapshot_load_sources(&snap, test_path("samples/site"), paths, &err);
	cr_assert_eq(rc, 0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.now, 1000);
	bool json = false;
	for (uint32_t i = 0; i < snap.loaded_count; i++)
		json |= snap.loaded[i].kind == PRIO_INPUT_JOBS_JSON;
	cr_assert(json, "jobs came from the explicit squeue --json file");
	prio_snapshot_free(&snap);
}

Test(snapshot, missing_folder_and_bad_now)
{
	struct prio_snapshot snap;
	struct prio_error err;
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_snapshot_load_sources(&snap, "/nonexistent/snap", NULL, &err),
		     PRIO_ERR_MISSING);
	cr_assert_str_eq(err.file, "/nonexistent/snap");
	prio_snapshot_free(&snap);

	char dir[] = "/tmp/prio-test-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/NOW", dir);
	FILE *f = fopen(path, "w");
	fputs("yesterday\n", f);
	fclose(f);
	/* a folder with only NOW is no snapshot: a slurm.conf makes it one */
	char conf[256];
	snprintf(conf, sizeof(conf), "%s/slurm.conf", dir);
	f = fopen(conf, "w");
	fclose(f);
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_snapshot_load_sources(&snap, dir, NULL, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "NOW");
	prio_snapshot_free(&snap);
	remove(conf);
	remove(path);
	rmdir(dir);
}

Test(snapshot, keep_going_turns_errors_into_warnings)
{
	struct prio_snapshot snap;
	struct prio_error err;
	prio_snapshot_init(&snap);
	prio_error_set(&err, PRIO_ERR_PARSE, "x.txt", 3, "Priority", "bad");
	cr_assert_eq(prio_snapshot_record_error(&snap, &err), PRIO_ERR_PARSE);
	snap.keep_going = true;
	prio_error_set(&err, PRIO_ERR_PARSE, "x.txt", 3, "Priority", "bad");
	cr_assert_eq(prio_snapshot_record_error(&snap, &err), 0);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 3);
	prio_snapshot_free(&snap);
}

Test(snapshot, detects_spelling_variants)
{
	/* dump lines in any case and spacing, after comments */
	cr_assert_eq(detect("cluster - 'x'\n", PRIO_ROLE_ASSOC), PRIO_INPUT_ASSOC_DUMP);
	cr_assert_eq(detect("Machine  -  'x'\n", PRIO_ROLE_ASSOC), PRIO_INPUT_ASSOC_DUMP);
	cr_assert_eq(detect("\n# c\n# d\nParent - 'root'\n", -1), PRIO_INPUT_ASSOC_DUMP);
	/* sshare headers in any order, multi-cluster prefix */
	cr_assert_eq(detect("User|Account|RawUsage\n", -1), PRIO_INPUT_SSHARE);
	cr_assert_eq(detect("      User             Account   RawUsage\n", -1), PRIO_INPUT_SSHARE);
	cr_assert_eq(detect("CLUSTER: ft\nAccount|User\n", -1), PRIO_INPUT_SSHARE);
	/* QOS: a Name column anywhere, or alone */
	cr_assert_eq(detect("Priority|Name\n", -1), PRIO_INPUT_QOS);
	cr_assert_eq(detect("Name\nnormal\n", -1), PRIO_INPUT_QOS);
	/* sacct: JobID anywhere */
	cr_assert_eq(detect("User|JobID|State\n", -1), PRIO_INPUT_SACCT);
	/* an sshare header is not a dump line even with a dash in it */
	cr_assert_eq(detect("Account|User|Raw-Usage\n", -1), PRIO_INPUT_SSHARE);
}

Test(snapshot, folder_roles_leave_unwanted_files_unread)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];
	utc();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	snap.folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	cr_assert_eq(prio_snapshot_load_sources(&snap, test_path("samples/site"), NULL, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.sacct_count, 0);
	cr_assert_eq(snap.job_count, 44);
	cr_assert_eq(prio_snapshot_roles_loaded(&snap) & (1u << PRIO_ROLE_SACCT), 0);
	prio_snapshot_free(&snap);
}

Test(snapshot, finds_a_jobs_association)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];
	utc();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(&snap, test_path("samples/site"), NULL, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	prio_id hep = prio_intern_find(&snap.strings, "hep", 3);
	prio_id alice = prio_intern_find(&snap.strings, "alice", 5);
	uint32_t i = prio_snapshot_assoc(&snap, hep, alice, PRIO_NO_ID);
	cr_assert_neq(i, PRIO_ASSOC_NONE);
	cr_assert_eq(snap.assocs[i].account, hep);
	cr_assert_eq(snap.assocs[i].user, alice);
	cr_assert_float_eq((double)snap.assocs[i].usage_raw, 249.0, 1.0);
	/* the account's own association */
	i = prio_snapshot_assoc(&snap, hep, PRIO_NO_ID, PRIO_NO_ID);
	cr_assert_neq(i, PRIO_ASSOC_NONE);
	cr_assert_not(snap.assocs[i].is_user);
	cr_assert_eq(snap.assocs[i].priority, 20);
	/* every job of the sample has one, through any partition */
	for (uint32_t j = 0; j < snap.job_count; j++) {
		const struct prio_job *job = &snap.jobs[j];
		uint32_t a = prio_snapshot_job_assoc(&snap, job, job->partitions[0]);
		cr_assert_neq(a, PRIO_ASSOC_NONE, "job %u", job->job_id);
		cr_assert_eq(snap.assocs[a].user, job->user);
	}
	cr_assert_eq(prio_snapshot_assoc(&snap, hep, prio_intern_find(&snap.strings, "bob", 3),
					 PRIO_NO_ID), PRIO_ASSOC_NONE);
	prio_snapshot_free(&snap);
}

/* prio-snap's MANIFEST zone line (date +%z at capture) is kept with the
 * snapshot and becomes the zone local times are read in (test_zone.c). */
Test(snapshot, manifest_zone_line)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_clock_notes notes;
	long off;
	char dir[] = "/tmp/prio-test-XXXXXX", path[256];
	FILE *f;

	cr_assert_eq(prio_parse_utc_offset("+0100", 5, &off), 0);
	cr_assert_eq(off, 3600);
	cr_assert_eq(prio_parse_utc_offset("-0930", 5, &off), 0);
	cr_assert_eq(off, -(9 * 3600 + 30 * 60));
	cr_assert_eq(prio_parse_utc_offset("+1", 2, &off), -1);
	cr_assert_eq(prio_parse_utc_offset("0100x", 5, &off), -1);

	utc();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	f = fopen(path, "w");
	/* the first lines of the real 24.11.5 capture's MANIFEST, with the
	 * zone line prio-snap writes now, as in Paris in November */
	fputs("version\tslurm-wlm 24.11.5\nzone\tEurope/Paris\t+0100\n"
	      "prio-snap\t0.1.0\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fputs("ClusterName=live\n", f); /* an empty one is refused */
	fclose(f);
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_snapshot_load_sources(&snap, dir, NULL, &err), PRIO_OK,
		     "%s", err.message);
	cr_assert(snap.zone_known);
	cr_assert_str_eq(snap.zone_name, "Europe/Paris");
	cr_assert_eq(snap.zone_offset, 3600);
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.zone_use, PRIO_ZONE_NAMED);
	snap.now = 1795687489; /* the capture's NOW, 2026-11-26T10:04:49Z */
	/* read in the recorded zone whatever ours was: nothing to warn */
	prio_snapshot_clock_notes(&snap, &notes);
	cr_assert_str_eq(notes.zone, "");
	cr_assert_str_eq(getenv("TZ"), "Europe/Paris");
	prio_zone_restore();
	cr_assert_str_eq(getenv("TZ"), "UTC");
	utc();
	prio_snapshot_free(&snap);
	remove(path);
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	remove(path);
	rmdir(dir);
}
