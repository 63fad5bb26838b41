/* SPDX-License-Identifier: MIT */
/* The --json readers: squeue --json of every data_parser version (v0.0.38
 * of 22.05 to v0.0.45 of 26.05), sshare --json (23.11+), the real Slurm
 * 24.11.5 captures of tests/cli/json-data, and what they refuse. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "json_slurm.h"
#include "testutil.h"

#define DATA "tests/cli/json-data/slurm-24.11-fairtree/"

typedef int (*loader_fn)(struct prio_snapshot *, const struct prio_source *,
			 struct prio_error *);

/* The file with its first `from` replaced by `to` (NULL: as it is),
 * loaded into a fresh snapshot; the loader's return code. */
static int load_edited(struct prio_snapshot *snap, const char *rel,
		       const char *from, const char *to, loader_fn loader,
		       struct prio_error *err)
{
	struct prio_source file, src;
	char *edited;
	const char *at;
	int rc;

	setenv("TZ", "UTC", 1);
	cr_assert_eq(prio_source_open(&file, test_path(rel), err), 0, "%s", rel);
	edited = malloc(file.size + (to ? strlen(to) : 0) + 1);
	cr_assert_not_null(edited);
	memcpy(edited, file.data, file.size);
	edited[file.size] = '\0';
	if (from) {
		cr_assert_not_null(at = strstr(edited, from), "%s not in %s",
				   from, rel);
		sprintf(edited + (at - edited), "%s%s", to,
			file.data + (at - edited) + strlen(from));
	}
	prio_source_close(&file);
	cr_assert_eq(prio_snapshot_init(snap), 0);
	prio_error_clear(err);
	prio_source_from_memory(&src, rel, edited, strlen(edited));
	rc = loader(snap, &src, err);
	free(edited);
	return rc;
}

static void load_ok(struct prio_snapshot *snap, const char *rel,
		    loader_fn loader)
{
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(load_edited(snap, rel, NULL, NULL, loader, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
}

/* The i-th job loaded, which must be job `id` (jobs stay in file order). */
static const struct prio_job *job_at(const struct prio_snapshot *snap,
				     uint32_t i, uint32_t id)
{
	cr_assert_lt(i, snap->job_count);
	cr_assert_eq(snap->jobs[i].job_id, id);
	return &snap->jobs[i];
}

static uint64_t tres(const struct prio_snapshot *snap,
		     const struct prio_tres_list *l, const char *name)
{
	int t = prio_tres_find(&snap->tres, name, strlen(name));

	return t < 0 ? UINT64_MAX
		     : prio_tres_list_get(l, (uint32_t)t, UINT64_MAX);
}

#define S(snap, id) prio_snapshot_str((snap), (id))

/* --- squeue --json, one sample per data_parser version ------------------ */

/* Each tests/unit/data/json/squeue-v0.0.N.json holds the same two jobs in
 * the shapes of version N's parsers (src/plugins/data_parser/v0.0.N of
 * the tagged release; 22.05's openapi/v0.0.38): job 7 running on n1 (8
 * cores) and n2 (4 cores), job 9 pending in two partitions with nice -50,
 * an unlimited time limit and --oversubscribe=user. */
static const struct {
	unsigned parser;
	uint16_t release;
} versions[] = {
    {38, 2205}, {39, 2302}, {40, 2311}, {41, 2405},
    {42, 2411}, {43, 2505}, {44, 2511}, {45, 2605},
};

Test(json, squeue_every_data_parser_version)
{
	for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
		struct prio_snapshot snap;
		char rel[128];
		const struct prio_job *j;
		unsigned p = versions[v].parser;

		snprintf(rel, sizeof(rel),
			 "tests/unit/data/json/squeue-v0.0.%u.json", p);
		load_ok(&snap, rel, prio_load_jobs_squeue_json);
		cr_assert_eq(snap.slurm_release, versions[v].release, "%s", rel);
		cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_JSON);
		cr_assert_eq(snap.job_count, 2, "%s", rel);

		j = job_at(&snap, 0, 7);
		cr_assert_eq(j->state, PRIO_JOB_RUNNING, "%s", rel);
		cr_assert_eq(j->priority, 15457, "%s", rel);
		cr_assert_eq(j->submit_time, 1795600007, "%s", rel);
		cr_assert_eq(j->start_time, 1795600103, "%s", rel);
		cr_assert_eq(j->time_limit, 60, "%s", rel);
		cr_assert_eq(j->nice, 0, "%s", rel);
		cr_assert_str_eq(S(&snap, j->node_list), "n[1-2]");
		cr_assert_eq(tres(&snap, &j->tres_alloc, "cpu"), 12, "%s", rel);
		cr_assert_eq(tres(&snap, &j->tres_alloc, "node"), 2, "%s", rel);
		cr_assert(j->mem_per_cpu && j->min_memory == 1000, "%s", rel);
		if (p < 45) /* 26.05: below */
			cr_assert_str_eq(S(&snap, j->oversubscribe), "OK",
					 "%s", rel);
		cr_assert_not_null(j->detail, "%s", rel);
		cr_assert_eq(j->detail->alloc_count, 2, "%s", rel);
		cr_assert_str_eq(S(&snap, j->detail->allocs[0].nodes), "n1");
		cr_assert_eq(j->detail->allocs[0].cpus, 8, "%s", rel);
		cr_assert_eq(j->detail->allocs[0].mem_mb, 8000, "%s", rel);
		cr_assert_str_eq(S(&snap, j->detail->allocs[1].nodes), "n2");
		cr_assert_eq(j->detail->allocs[1].cpus, 4, "%s", rel);
		cr_assert_eq(j->detail->allocs[1].mem_mb, 4000, "%s", rel);
		/* preemptable_time arrived with v0.0.39 */
		cr_assert_eq(j->detail->preempt_eligible_time,
			     p >= 39 ? 1795600400 : 0, "%s", rel);

		j = job_at(&snap, 1, 9);
		cr_assert_eq(j->state, PRIO_JOB_PENDING, "%s", rel);
		cr_assert_eq(j->priority, 21312, "%s", rel);
		cr_assert_eq(j->submit_time, 1795600009, "%s", rel);
		cr_assert_eq(j->start_time, 0, "%s", rel);
		cr_assert_eq(j->time_limit, PRIO_INFINITE, "%s", rel);
		cr_assert_eq(j->nice, -50, "%s", rel);
		cr_assert_eq(j->partition_count, 2, "%s", rel);
		cr_assert_str_eq(S(&snap, j->partitions[1]), "short");
		cr_assert_eq(tres(&snap, &j->tres_req, "cpu"), 4, "%s", rel);
		cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 4000, "%s", rel);
		cr_assert_null(j->detail, "%s", rel);
		/* 26.05 prints "shared" as an empty placeholder: unknown */
		if (p == 45)
			cr_assert_eq(j->oversubscribe, PRIO_NO_ID);
		else
			cr_assert_str_eq(S(&snap, j->oversubscribe), "USER",
					 "%s", rel);
		prio_snapshot_free(&snap);
	}
}

/* scontrol prints one state: a flag before the base state, in
 * job_state_string()'s order; flags it never prints are skipped. */
Test(json, squeue_state_array_read_as_scontrol_prints_it)
{
	static const struct {
		const char *json, *want;
	} cases[] = {
	    {"[\"RUNNING\", \"COMPLETING\"]", "COMPLETING"},
	    {"[\"PENDING\", \"REQUEUED\", \"REQUEUE_HOLD\"]", "REQUEUED"},
	    {"[\"PENDING\", \"LAUNCH_FAILED\"]", "PENDING"},
	    {"[\"CANCELLED\"]", "CANCELLED"},
	    {"\"TIMEOUT\"", "TIMEOUT"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct prio_snapshot snap;
		struct prio_error err;
		struct prio_source src;
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"jobs\": [{\"job_id\": 1, \"job_state\": %s, "
			 "\"priority\": {\"set\": true, \"infinite\": false, "
			 "\"number\": 5}, \"partition\": \"b\", "
			 "\"user_name\": \"a\"}]}",
			 cases[i].json);
		cr_assert_eq(prio_snapshot_init(&snap), 0);
		test_source(&src, "jobs.json", text);
		cr_assert_eq(prio_load_jobs_squeue_json(&snap, &src, &err), 0,
			     "%s", err.message);
		cr_assert_str_eq(prio_job_state_name(snap.jobs[0].state),
				 cases[i].want);
		cr_assert_eq(snap.jobs[0].priority, 5);
		prio_snapshot_free(&snap);
	}
}

/* --- squeue --json of a real 24.11.5 ------------------------------------ */

Test(json, squeue_real_24_11)
{
	struct prio_snapshot snap;
	const struct prio_job *j;

	load_ok(&snap, DATA "jobs.json", prio_load_jobs_squeue_json);
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.job_count, 14);
	/* scontrol show job 8 of the same second: Priority=15457 Nice=400
	 * Account=accb2 QOS=normal SubmitTime=2026-11-26T10:01:41
	 * TimeLimit=00:30:00 Partition=batch,short
	 * ReqTRES=cpu=1,mem=1000M,node=1,billing=1 */
	j = job_at(&snap, 0, 8);
	cr_assert_eq(j->state, PRIO_JOB_PENDING);
	cr_assert_eq(j->priority, 15457);
	cr_assert_eq(j->nice, 400);
	cr_assert_str_eq(S(&snap, j->user), "pllive5");
	cr_assert_eq(j->uid, 1004);
	cr_assert_str_eq(S(&snap, j->account), "accb2");
	cr_assert_str_eq(S(&snap, j->qos), "normal");
	cr_assert_eq(j->submit_time, 1795687301);
	cr_assert_eq(j->eligible_time, 1795687301);
	cr_assert_eq(j->time_limit, 30);
	cr_assert_eq(j->partition_count, 2);
	cr_assert_str_eq(S(&snap, j->partitions[0]), "batch");
	cr_assert_eq(tres(&snap, &j->tres_req, "cpu"), 1);
	cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 1000);
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 1);
	cr_assert_eq(j->tres_alloc.count, 0);
	cr_assert_eq(j->node_list, PRIO_NO_ID);
	/* job 20: held by its user (Priority=0 Reason=JobHeldUser) */
	j = job_at(&snap, 12, 20);
	cr_assert_eq(j->priority, 0);
	cr_assert(j->held);
	cr_assert(!j->held_by_admin);
	cr_assert_eq(job_at(&snap, 4, 12)->num_cpus, 12);
	prio_snapshot_free(&snap);
}

/* --- squeue --json refused ----------------------------------------------- */

Test(json, squeue_refusals_name_file_line_and_member)
{
	struct prio_snapshot snap;
	struct prio_error err;

	/* a member v0.0.40 prints for every job, gone */
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.40.json",
				 "\"submit_time\"", "\"submit_tim\"",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "tests/unit/data/json/squeue-v0.0.40.json");
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "submit_time");
	cr_assert_str_eq(err.message, "job 7 has no submit_time (data_parser "
				      "v0.0.40 prints it for every job)");
	prio_snapshot_free(&snap);

	/* the allocation's list missing: never "nothing allocated" */
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.42.json",
				 "\"allocation\"", "\"allocations\"",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "nodes.allocation");
	cr_assert(strstr(err.message, "job 7") &&
		      strstr(err.message, "allocation is unknown"),
		  "%s", err.message);
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.41.json",
				 "\"count\": 8", "\"cont\": 8",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "nodes.allocation.cpus.count");
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.38.json",
				 "\"memory_allocated\"", "\"memory\"",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "memory_allocated");
	prio_snapshot_free(&snap);

	/* a wrapper with a member more is still a wrapper; one without
	 * "set" and "infinite" is refused, as are two base states and a
	 * "set" that is not a boolean */
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.43.json",
				 "\"priority\": {", "\"priority\": {\"x\": 1, ",
				 prio_load_jobs_squeue_json, &err),
		     0);
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.43.json",
				 "\"set\": true,\n        \"infinite\": false,\n"
				 "        \"number\": 15457",
				 "\"number\": 15457",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "priority");
	cr_assert(strstr(err.message, "\"set\""), "%s", err.message);
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.44.json",
				 "\"RUNNING\"", "\"RUNNING\", \"PENDING\"",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "job_state");
	cr_assert_str_eq(err.message,
			 "job 7: two base states, RUNNING and PENDING");
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.42.json",
				 "\"time_limit\": {\n        \"set\": true",
				 "\"time_limit\": {\n        \"set\": \"yes\"",
				 prio_load_jobs_squeue_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "time_limit");
	prio_snapshot_free(&snap);

	/* a version beyond the table */
	cr_assert_eq(load_edited(&snap, "tests/unit/data/json/squeue-v0.0.45.json",
				 "v0.0.45", "v0.0.46", prio_load_jobs_squeue_json,
				 &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "meta");
	prio_snapshot_free(&snap);
}

/* --- sshare --json ------------------------------------------------------- */

static uint32_t assoc(const struct prio_snapshot *snap, const char *account,
		      const char *user)
{
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		const struct prio_assoc *a = &snap->assocs[i];

		if (strcmp(S(snap, a->account), account) == 0 &&
		    (user ? a->user != PRIO_NO_ID &&
				strcmp(S(snap, a->user), user) == 0
			  : a->user == PRIO_NO_ID))
			return i;
	}
	cr_assert_fail("no association %s/%s", account, user ? user : "");
	return 0;
}

Test(json, sshare_real_24_11_tree_and_values)
{
	struct prio_snapshot snap;
	const struct prio_assoc *a, *p;

	load_ok(&snap, DATA "sshare.json", prio_load_sshare_json);
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.assoc_count, 14);
	cr_assert_eq(snap.loaded[0].kind, PRIO_INPUT_SSHARE_JSON);
	/* sshare -a -l: " accb2 pllive5 parent ... 116 0.057779 0.245377
	 * 0.625000" under "  accb2 3 0.750000 473" under " accb 40" */
	a = &snap.assocs[assoc(&snap, "accb2", "pllive5")];
	cr_assert_eq(a->shares_raw, PRIO_FS_USE_PARENT);
	cr_assert_eq((uint64_t)a->usage_raw, 116);
	cr_assert(a->is_user);
	cr_assert_eq(a->depth, 3);
	p = &snap.assocs[a->parent];
	cr_assert_str_eq(S(&snap, p->account), "accb2");
	cr_assert_eq(p->shares_raw, 3);
	cr_assert_str_eq(S(&snap, snap.assocs[p->parent].account), "accb");
	cr_assert_eq(a->slurm.fairshare, 0.625);
	cr_assert(a->slurm.blank & PRIO_SSHARE_LEVEL_FS); /* parent: blank */
	cr_assert_eq(a->id, 12);
	/* root: usage 2012, NormUsage blank, shares blank */
	a = &snap.assocs[0];
	cr_assert_str_eq(S(&snap, a->account), "root");
	cr_assert_eq((uint64_t)a->usage_raw, 2012);
	cr_assert(a->slurm.blank & PRIO_SSHARE_NORM_USAGE);
	cr_assert(a->slurm.blank & PRIO_SSHARE_RAW_SHARES);
	cr_assert_str_eq(a->slurm.tres_run_mins,
			 "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,"
			 "vmem=0,pages=0");
	cr_assert_str_eq(a->slurm.grp_tres_mins, "");
	/* an account's FairShare is sshare's own: not the controller's */
	cr_assert(!(snap.assocs[assoc(&snap, "accb2", NULL)].slurm.present &
		    PRIO_SSHARE_FAIRSHARE));
	/* the root user: LevelFS inf */
	cr_assert(isinf(snap.assocs[assoc(&snap, "root", "root")].slurm.level_fs));
	prio_snapshot_free(&snap);
}

/* RawUsage is printed truncated (pllive4 357 of accb2's 473: 0.754757),
 * but usage_normalized is exact: the usages read from it give Fair Tree's
 * U = 0.7546227914584501 that sshare printed as EffectvUsage, and still
 * truncate to the printed integers. */
Test(json, sshare_usage_in_full_precision)
{
	struct prio_snapshot snap;
	const struct prio_assoc *u, *acct;

	load_ok(&snap, DATA "sshare.json", prio_load_sshare_json);
	u = &snap.assocs[assoc(&snap, "accb2", "pllive4")];
	acct = &snap.assocs[assoc(&snap, "accb2", NULL)];
	cr_assert_eq((uint64_t)u->usage_raw, 357);
	cr_assert_eq((uint64_t)acct->usage_raw, 473);
	cr_assert_float_eq((double)(u->usage_raw / acct->usage_raw),
			   0.7546227914584501, 1e-12);
	cr_assert_float_eq(u->slurm.effectv_usage, 0.7546227914584501, 0);
	cr_assert_gt(fabs(357.0 / 473.0 - 0.7546227914584501), 1e-4);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		cr_assert_eq((uint64_t)snap.assocs[i].usage_raw,
			     snap.assocs[i].slurm.raw_usage);
	prio_snapshot_free(&snap);
}

/* With the dump loaded first, the JSON merges into its tree. */
Test(json, sshare_merges_with_the_dump)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_source src;
	char msg[1024];

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_source_open(&src, test_path(DATA "assoc.cfg"), &err),
		     0);
	cr_assert_eq(prio_load_assoc_dump(&snap, &src, &err), 0);
	prio_source_close(&src);
	cr_assert_eq(prio_source_open(&src, test_path(DATA "sshare.json"), &err),
		     0);
	cr_assert_eq(prio_load_sshare_json(&snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	prio_source_close(&src);
	cr_assert_eq(snap.assoc_count, 14);
	cr_assert_eq(snap.assocs[assoc(&snap, "acca", "pllive2")].from,
		     PRIO_ASSOC_FROM_DUMP | PRIO_ASSOC_FROM_SSHARE);
	cr_assert_eq((uint64_t)snap.assocs[assoc(&snap, "acca", "pllive2")]
			 .usage_raw,
		     399);
	prio_snapshot_free(&snap);
}

Test(json, sshare_refusals)
{
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_eq(load_edited(&snap, DATA "sshare.json", "\"usage\": 2012",
				 "\"usage\": \"2012\"", prio_load_sshare_json,
				 &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "usage");
	cr_assert_eq(err.line, 4);
	prio_snapshot_free(&snap);
	/* the account of a user row never listed */
	cr_assert_eq(load_edited(&snap, DATA "sshare.json",
				 "\"parent\": \"accb2\"", "\"parent\": \"accb3\"",
				 prio_load_sshare_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "parent");
	cr_assert_str_eq(err.message,
			 "user pllive4: its account accb3 is not listed "
			 "before it");
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, DATA "sshare.json",
				 "\"name\": \"root\"", "\"name\": \"top\"",
				 prio_load_sshare_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "name");
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, DATA "sshare.json", "\"USER\"",
				 "\"PERSON\"", prio_load_sshare_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "type");
	prio_snapshot_free(&snap);
	cr_assert_eq(load_edited(&snap, DATA "sshare.json",
				 "\"effective_usage\"", "\"efective_usage\"",
				 prio_load_sshare_json, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "effective_usage");
	prio_snapshot_free(&snap);
}

/* Content decides: a JSON object with "shares" is sshare's, else
 * squeue's; in the association role a JSON object is sshare's. */
Test(json, detected_by_content)
{
	struct prio_source src;

	test_source(&src, "x", "{\n  \"jobs\": [ {\"name\": \"shares\"} ],\n"
			       "  \"meta\": {}\n}\n");
	cr_assert_eq(prio_detect_input(&src, -1), PRIO_INPUT_JOBS_JSON);
	test_source(&src, "x", "{\n  \"shares\": {\"shares\": []},\n"
			       "  \"meta\": {}\n}\n");
	cr_assert_eq(prio_detect_input(&src, -1), PRIO_INPUT_SSHARE_JSON);
	cr_assert_eq(prio_detect_input(&src, PRIO_ROLE_ASSOC),
		     PRIO_INPUT_SSHARE_JSON);
	cr_assert_eq(prio_detect_input(&src, PRIO_ROLE_JOBS),
		     PRIO_INPUT_JOBS_JSON);
}

/* 23.11 and 24.05 (v0.0.40, v0.0.41) print effective_usage and the
 * fairshare pair as plain doubles: json-c writes an infinite LevelFS as the
 * bare word Infinity (not JSON) and the root's unset LevelFS as NO_VAL,
 * 4294967294, which sshare prints blank. */
Test(json, sshare_23_11_plain_doubles)
{
	struct prio_snapshot snap;
	const struct prio_assoc *root, *phys, *alice, *bob;

	load_ok(&snap, "tests/unit/data/json/sshare-v0.0.40.json",
		prio_load_sshare_json);
	cr_assert_eq(snap.slurm_release, 2311);
	cr_assert_eq(snap.assoc_count, 4);
	root = &snap.assocs[0];
	phys = &snap.assocs[assoc(&snap, "phys", NULL)];
	alice = &snap.assocs[assoc(&snap, "phys", "alice")];
	bob = &snap.assocs[assoc(&snap, "phys", "bob")];
	cr_assert(root->slurm.blank & PRIO_SSHARE_LEVEL_FS);
	cr_assert(isinf(bob->slurm.level_fs));
	cr_assert(!(bob->slurm.blank & PRIO_SSHARE_LEVEL_FS));
	cr_assert_float_eq(phys->slurm.level_fs, 1.6326530346, 1e-12);
	cr_assert_float_eq(alice->slurm.fairshare, 0.5, 0);
	cr_assert_eq(alice->parent, assoc(&snap, "phys", NULL));
	/* the usage ratio from usage_normalized, not 612/1000 */
	cr_assert_float_eq((double)(phys->usage_raw / root->usage_raw),
			   0.61250001, 1e-12);
	cr_assert_eq((uint64_t)phys->usage_raw, 612);
	cr_assert_eq((uint64_t)root->usage_raw, 1000);
	/* the TRES columns as sshare prints them: limits without the
	 * INFINITE ones, minutes */
	cr_assert_str_eq(alice->slurm.grp_tres_mins, "cpu=6000");
	cr_assert_str_eq(alice->slurm.tres_run_mins,
			 "cpu=2,mem=0,energy=0,node=0,billing=0,fs/disk=0,"
			 "vmem=0,pages=0");
	cr_assert_str_eq(alice->slurm.grp_tres_raw,
			 "cpu=0,mem=0,energy=0,node=0,billing=612,fs/disk=0,"
			 "vmem=0,pages=0");
	prio_snapshot_free(&snap);
}

/* json-c's bare words are quoted outside strings only. */
Test(json, nonfinite_words_quoted_outside_strings)
{
	static const char text[] =
	    "{\"a\": Infinity, \"b\": \"NaN Infinity\", \"c\": [-Infinity, NaN]}";
	size_t n;
	char *q = jsl_quote_nonfinite(text, sizeof(text) - 1, &n);

	cr_assert_not_null(q);
	cr_assert_eq(n, sizeof(text) - 1 + 6);
	cr_assert(memcmp(q,
			 "{\"a\": \"Infinity\", \"b\": \"NaN Infinity\", \"c\": "
			 "[\"-Infinity\", \"NaN\"]}",
			 n) == 0,
		  "%.*s", (int)n, q);
	free(q);
	cr_assert_null(jsl_quote_nonfinite("{\"x\": 1}", 8, &n));
	cr_assert_eq(n, 0);
}

/* NO_FAIR_TREE on 24.11: every fairshare.factor and level is 0 (sshare
 * computes FairShare itself), so they are left out of audits; the usages
 * from usage_normalized give classic's NormUsage exactly (pllive4:
 * 0.12713801027086388, where the printed 231 of 1817 gives 0.127133). */
Test(json, sshare_real_24_11_classic)
{
	struct prio_snapshot snap;
	const struct prio_assoc *u;

	load_ok(&snap, "tests/cli/json-data/slurm-24.11-classic/sshare.json",
		prio_load_sshare_json);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		cr_assert(!(snap.assocs[i].slurm.present &
			    (PRIO_SSHARE_FAIRSHARE | PRIO_SSHARE_LEVEL_FS)));
	cr_assert(!(snap.sshare_columns & PRIO_SSHARE_FAIRSHARE));
	u = &snap.assocs[assoc(&snap, "accb2", "pllive4")];
	cr_assert_eq((uint64_t)u->usage_raw, 231);
	cr_assert_float_eq((double)(u->usage_raw / snap.assocs[0].usage_raw),
			   0.12713801027086388, 1e-12);
	cr_assert_gt(fabs(231.0 / 1817.0 - 0.12713801027086388), 4e-6);
	prio_snapshot_free(&snap);
}
