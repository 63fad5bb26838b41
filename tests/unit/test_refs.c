/* SPDX-License-Identifier: MIT */
/*
 * Cross-references and value ranges checked when a snapshot is linked
 * (issue 13), on the real files of samples/site (sshare -P, scontrol show
 * job -d and slurm.conf of the fairtree-basic capture), each edited in
 * memory the way a stale or hand-made input would be:
 *  - a job that can still run needs an association, finished ones not;
 *  - a child's RawUsage cannot exceed its parent's (sshare's truncated
 *    integers allowed for);
 *  - timestamps name real calendar days and clock times;
 *  - jobs are found by id through the index finish builds.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "prio/priority.h"
#include "prio/timestr.h"
#include "prio/window.h"
#include "testutil.h"

static struct prio_snapshot snap;
static struct prio_error err;
static char msg[1024];

static void setup(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	prio_error_clear(&err);
}

static void teardown(void)
{
	prio_snapshot_free(&snap);
}

TestSuite(refs, .init = setup, .fini = teardown);

/* A sample file's text, malloc'd. */
static char *slurp(const char *rel)
{
	FILE *f = fopen(test_path(rel), "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", rel);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* text with the first `from` replaced by `to` (which must be there). */
static char *edit(char *text, const char *from, const char *to)
{
	char *at = strstr(text, from), *out;
	size_t head, fl = strlen(from), tl = strlen(to);

	cr_assert_not_null(at, "\"%s\" in the sample", from);
	head = (size_t)(at - text);
	out = malloc(strlen(text) - fl + tl + 1);
	cr_assert_not_null(out);
	memcpy(out, text, head);
	memcpy(out + head, to, tl);
	strcpy(out + head + tl, at + fl);
	free(text);
	return out;
}

/* Drop the line that starts with `prefix`. */
static char *drop_line(char *text, const char *prefix)
{
	char *at = strstr(text, prefix), *eol;

	cr_assert_not_null(at, "\"%s\" in the sample", prefix);
	eol = strchr(at, '\n');
	memmove(at, eol + 1, strlen(eol + 1) + 1);
	return text;
}

typedef int (*loader_fn)(struct prio_snapshot *, const struct prio_source *,
			 struct prio_error *);

static void load_text(loader_fn loader, const char *name, const char *text)
{
	struct prio_source src;

	test_source(&src, name, text);
	cr_assert_eq(loader(&snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

/* samples/site with the given texts (NULL: the sample's own file). */
static int load_site(const char *conf, const char *sshare, const char *jobs)
{
	char *own_conf = conf ? NULL : slurp("samples/site/slurm.conf");
	char *own_jobs = jobs ? NULL : slurp("samples/site/jobs.txt");
	char *qos = slurp("samples/site/qos.txt");

	load_text(prio_load_slurmconf_source, "slurm.conf",
		  conf ? conf : own_conf);
	if (sshare)
		load_text(prio_load_sshare, "sshare.txt", sshare);
	load_text(prio_load_qos, "qos.txt", qos);
	load_text(prio_load_jobs_scontrol, "jobs.txt", jobs ? jobs : own_jobs);
	free(own_conf);
	free(own_jobs);
	free(qos);
	return prio_snapshot_finish(&snap, &err);
}

/* --- a job and its association ------------------------------------------ */

/* The sample's sshare without bob's row under astro: bob's jobs 16
 * (RUNNING, jobs.txt line 464), 26 and 42 (PENDING) have no association. */
static char *sshare_without_bob(void)
{
	return drop_line(slurp("samples/site/sshare.txt"), "   astro|bob|");
}

Test(refs, job_without_association_is_refused)
{
	char *sshare = sshare_without_bob();

	cr_assert_eq(load_site(NULL, sshare, NULL), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "jobs.txt");
	cr_assert_eq(err.line, 464);
	cr_assert_str_eq(err.field, "Account");
	cr_assert_str_eq(err.message,
			 "job 16: no association for user bob in account astro");
	free(sshare);
}

Test(refs, keep_going_leaves_the_jobs_out_with_warnings)
{
	char *sshare = sshare_without_bob();

	snap.keep_going = true;
	cr_assert_eq(load_site(NULL, sshare, NULL), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.warning_count, 3);
	cr_assert_eq(snap.warnings[0].error.line, 464);
	cr_assert_eq(snap.warnings[1].error.line, 771);
	cr_assert_eq(snap.warnings[2].error.line, 1219);
	cr_assert_str_eq(snap.warnings[2].error.message,
			 "job 42: no association for user bob in account astro");
	cr_assert_eq(snap.job_count, 41); /* of the sample's 44 */
	cr_assert_null(prio_snapshot_find_job(&snap, 16));
	cr_assert_null(prio_snapshot_find_job(&snap, 26));
	cr_assert_null(prio_snapshot_find_job(&snap, 42));
	cr_assert_not_null(prio_snapshot_find_job(&snap, 25)); /* alice */
	free(sshare);
}

Test(refs, finished_job_of_a_deleted_association_is_history)
{
	char *sshare = slurp("samples/site/sshare.txt");
	/* job 12 (COMPLETED, alice in hep): its account since deleted */
	char *jobs = edit(slurp("samples/site/jobs.txt"),
			  "Priority=13396 Nice=0 Account=hep",
			  "Priority=13396 Nice=0 Account=gone");
	const struct prio_job *j;

	cr_assert_eq(load_site(NULL, sshare, jobs), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.warning_count, 0);
	j = prio_snapshot_find_job(&snap, 12);
	cr_assert_not_null(j);
	cr_assert_eq(j->state, PRIO_JOB_COMPLETE);
	cr_assert_eq(prio_snapshot_job_assoc(&snap, j, PRIO_NO_ID),
		     PRIO_ASSOC_NONE);
	free(sshare);
	free(jobs);
}

Test(refs, without_an_association_source_nothing_to_check)
{
	cr_assert_eq(load_site(NULL, NULL, NULL), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.assoc_count, 0);
	cr_assert_not_null(prio_snapshot_find_job(&snap, 26));
}

Test(refs, not_enforcing_associations_says_what_slurm_would_do)
{
	char *sshare = sshare_without_bob();
	char *conf = edit(slurp("samples/site/slurm.conf"),
			  "AccountingStorageEnforce=associations,limits,qos",
			  "AccountingStorageEnforce=nojobs");

	cr_assert_eq(load_site(conf, sshare, NULL), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 464);
	cr_assert_not_null(strstr(err.message,
				  "no association for user bob in account "
				  "astro (AccountingStorageEnforce lacks "
				  "associations"),
			   "%s", err.message);
	free(sshare);
	free(conf);
}

Test(refs, private_usage_says_why_the_tree_is_partial)
{
	char *sshare = sshare_without_bob();
	char *conf = edit(slurp("samples/site/slurm.conf"),
			  "AccountingStorageEnforce=associations,limits,qos",
			  "AccountingStorageEnforce=associations,limits,qos\n"
			  "PrivateData=accounts,usage");

	cr_assert_eq(load_site(conf, sshare, NULL), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.message,
			 "job 16: no association for user bob in account astro "
			 "(PrivateData=usage: sshare shows an ordinary user only "
			 "their own associations; capture as an operator)");
	free(sshare);
	free(conf);
}

/* --- RawUsage: a parent holds its children's usage ---------------------- */

/* The sample: astro (line 18) 6991 = alice (19) 4214 + bob (20) 2777. */
static int load_usage(const char *astro, const char *alice, const char *bob)
{
	char *s = slurp("samples/site/sshare.txt");
	char from[64], to[64];
	int rc;

	snprintf(to, sizeof(to), "  astro||ft||6|30|0.731707|%s|", astro);
	s = edit(s, "  astro||ft||6|30|0.731707|6991|", to);
	snprintf(to, sizeof(to), "   astro|alice|ft||12|1|0.333333|%s|", alice);
	s = edit(s, "   astro|alice|ft||12|1|0.333333|4214|", to);
	snprintf(from, sizeof(from), "   astro|bob|ft||13|2|0.666667|2777|");
	snprintf(to, sizeof(to), "   astro|bob|ft||13|2|0.666667|%s|", bob);
	s = edit(s, from, to);
	rc = load_site(NULL, s, NULL);
	free(s);
	return rc;
}

Test(refs, child_usage_above_its_parent_is_refused)
{
	cr_assert_eq(load_usage("6991", "0", "6993"), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "sshare.txt");
	cr_assert_eq(err.line, 20);
	cr_assert_str_eq(err.field, "RawUsage");
	cr_assert_str_eq(err.message,
			 "astro/bob has RawUsage 6993, larger than its parent's "
			 "(astro, sshare.txt:18): 6991; a parent's usage is the "
			 "sum of its children's");
}

Test(refs, children_above_their_parent_together_are_refused)
{
	cr_assert_eq(load_usage("6988", "4214", "2777"), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 18);
	cr_assert_str_eq(err.message,
			 "astro has RawUsage 6988, less than the sum of its 2 "
			 "children's, 6991; a parent's usage is the sum of its "
			 "children's");
}

Test(refs, truncated_integers_are_allowed_one_per_child)
{
	/* the real values */
	cr_assert_eq(load_usage("6991", "4214", "2777"), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

Test(refs, truncation_tolerance_per_child)
{
	/* 6990.9 + 0.x truncated: one child one above its parent */
	cr_assert_eq(load_usage("6991", "0", "6992"), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

Test(refs, truncation_tolerance_for_the_sum)
{
	/* two children's fractions lost in the parent: sum = parent + 2 */
	cr_assert_eq(load_usage("6989", "4214", "2777"), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

Test(refs, what_if_usage_is_not_checked_against_the_tree)
{
	char *s = slurp("samples/site/sshare.txt");

	load_text(prio_load_slurmconf_source, "slurm.conf",
		  "ClusterName=ft\nPriorityType=priority/multifactor\n");
	load_text(prio_load_sshare, "sshare.txt", s);
	cr_assert_eq(prio_snapshot_set(&snap, "assoc:astro/bob.RawUsage=99999",
				       "--set", &err),
		     0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	free(s);
}

/* The live 24.11 capture's sshare --json: acca 714 holds pllive1 314 and
 * pllive2 399 (713: the truncation at work), root 2012 its 2011. */
static int load_json_usage(const char *from, const char *to)
{
	char *s = slurp("tests/oracle/slurm-24.11-fairtree/sshare_a_json.txt");
	struct prio_source src;
	int rc;

	if (from)
		s = edit(s, from, to);
	test_source(&src, "sshare.json", s);
	rc = prio_load_sshare_json(&snap, &src, &err);
	if (rc == 0)
		rc = prio_snapshot_finish(&snap, &err);
	free(s);
	return rc;
}

Test(refs, sshare_json_real_usage_is_accepted)
{
	cr_assert_eq(load_json_usage(NULL, NULL), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_gt(snap.assoc_count, 10);
}

Test(refs, sshare_json_child_above_its_parent_is_refused)
{
	cr_assert_eq(load_json_usage("\"usage\": 399,", "\"usage\": 716,"),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "sshare.json");
	cr_assert_str_eq(err.field, "RawUsage");
	cr_assert_not_null(strstr(err.message,
				  "acca/pllive2 has RawUsage 716, larger than "
				  "its parent's (acca, sshare.json:"),
			   "%s", err.message);
	cr_assert_not_null(strstr(err.message, "): 714; "), "%s", err.message);
}

Test(refs, sshare_json_one_above_its_parent_is_truncation)
{
	/* 714.x and 714.y + 0.z: the child may print one more */
	cr_assert_eq(load_json_usage("\"usage\": 399,", "\"usage\": 400,"),
		     0, "%s", prio_error_format(&err, msg, sizeof(msg)));
}

Test(refs, invalid_account_jobs_are_the_controllers_own)
{
	char *sshare = sshare_without_bob();
	/* job 26 (bob): the controller lost its association on a restart */
	char *jobs = slurp("samples/site/jobs.txt");
	char *at = strstr(jobs, "JobId=26 ");
	char *reason;
	char *out;
	size_t head;

	cr_assert_not_null(at);
	reason = strstr(at, "Reason=Priority");
	cr_assert_not_null(reason);
	head = (size_t)(reason - jobs);
	out = malloc(strlen(jobs) + 16);
	cr_assert_not_null(out);
	memcpy(out, jobs, head);
	strcpy(out + head, "Reason=InvalidAccount");
	strcat(out, reason + strlen("Reason=Priority"));
	snap.keep_going = true;
	cr_assert_eq(load_site(NULL, sshare, out), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	/* 16 and 42 refused, 26 kept without an association */
	cr_assert_eq(snap.warning_count, 2);
	cr_assert_not_null(prio_snapshot_find_job(&snap, 26));
	cr_assert_eq(prio_snapshot_job_assoc(&snap,
					     prio_snapshot_find_job(&snap, 26),
					     PRIO_NO_ID),
		     PRIO_ASSOC_NONE);
	free(out);
	free(jobs);
	free(sshare);
}

/* sshare's fractions stay fractions: the EffectvUsage 2.6e+15 */
static void sshare_refused(const char *from, const char *to,
			   const char *field, const char *message)
{
	char *s = edit(slurp("samples/site/sshare.txt"), from, to);
	struct prio_source src;

	test_source(&src, "sshare.txt", s);
	cr_assert_eq(prio_load_sshare(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 20);
	cr_assert_str_eq(err.field, field);
	cr_assert_str_eq(err.message, message);
	free(s);
}

Test(refs, sshare_fractions_out_of_range_are_refused)
{
	sshare_refused("|2777|0.077504|0.397241|", "|2777|0.077504|2.6e+15|",
		       "EffectvUsage",
		       "expected a number from 0 to 1, got \"2.6e+15\"");
}

Test(refs, sshare_level_fs_nan_is_refused)
{
	sshare_refused("|0.397241|0.600000|1.678241|",
		       "|0.397241|0.600000|nan|", "LevelFS",
		       "expected a number from 0 to inf, got \"nan\"");
}

/* --- timestamps --------------------------------------------------------- */

static int ts(const char *s)
{
	time_t t;

	return prio_timestamp_parse(s, strlen(s), &t);
}

Test(refs, impossible_calendar_dates_and_times_are_refused)
{
	cr_assert_eq(ts("2026-02-30T00:00:00"), -1);
	cr_assert_eq(ts("2026-02-29T00:00:00"), -1); /* 2026 is common */
	cr_assert_eq(ts("2028-02-29T00:00:00"), 0);
	cr_assert_eq(ts("2000-02-29T00:00:00"), 0);  /* /400 leaps */
	cr_assert_eq(ts("2100-02-29T00:00:00"), -1); /* /100 does not */
	cr_assert_eq(ts("2026-04-31T00:00:00"), -1);
	cr_assert_eq(ts("2026-12-31T23:59:59"), 0);
	cr_assert_eq(ts("2026-11-22T25:00:00"), -1);
	cr_assert_eq(ts("2026-11-22T24:00:00"), -1);
	cr_assert_eq(ts("2026-11-22T23:60:00"), -1);
	cr_assert_eq(ts("2026-11-22T23:59:60"), -1);
	cr_assert_eq(ts("2026-02-30"), -1);
	cr_assert_str_eq(prio_timestamp_expected("2026-02-30T00:00:00", 19),
			 "a real calendar day");
	cr_assert_str_eq(prio_timestamp_expected("2026-11-22T25:00:00", 19),
			 "a real time of day (00:00:00 to 23:59:59)");
	cr_assert_null(prio_timestamp_expected("yesterday", 9));
	cr_assert(prio_timestamp_valid(2024, 2, 29, 0, 0, 0));
	cr_assert(!prio_timestamp_valid(2026, 6, 31, 12, 0, 0));
}

Test(refs, user_given_times_are_refused_too)
{
	time_t now = 1795319730, t; /* 2026-11-22T03:55:30Z */

	cr_assert_eq(prio_slurm_time_parse("2026-02-30", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("2026-02-28T25:00", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("0230", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("02/30/26", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("02/29/28", now, &t), 0);
	cr_assert_eq(t, 1835395200); /* 2028-02-29T00:00:00Z */
	cr_assert_eq(prio_slurm_time_parse("2026-11-21T23:00:00", now, &t), 0);
	cr_assert_eq(t, 1795302000);
}

Test(refs, a_job_with_an_impossible_submit_time_names_the_field)
{
	char *jobs = edit(slurp("samples/site/jobs.txt"),
			  "SubmitTime=2026-11-22T",
			  "SubmitTime=2026-02-30T");

	char *conf = slurp("samples/site/slurm.conf");
	struct prio_source src;

	load_text(prio_load_slurmconf_source, "slurm.conf", conf);
	test_source(&src, "jobs.txt", jobs);
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "jobs.txt");
	cr_assert_eq(err.line, 8);
	cr_assert_str_eq(err.field, "SubmitTime");
	cr_assert_str_eq(err.message, "expected a real calendar day, got "
				      "\"2026-02-30T03:37:17\"");
	free(conf);
	free(jobs);
}

/* --- jobs by id --------------------------------------------------------- */

Test(refs, every_job_is_found_by_its_id)
{
	const struct prio_job *j;

	cr_assert_eq(load_site(NULL, NULL, NULL), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.job_count, 44);
	for (uint32_t i = 0; i < snap.job_count; i++)
		cr_assert_eq(prio_snapshot_find_job(&snap, snap.jobs[i].job_id),
			     &snap.jobs[i], "job %u", snap.jobs[i].job_id);
	cr_assert_null(prio_snapshot_find_job(&snap, 45));
	cr_assert_null(prio_snapshot_find_job(&snap, 0));
	j = prio_snapshot_find_job(&snap, 26);
	cr_assert_str_eq(prio_snapshot_str(&snap, j->user), "bob");
	cr_assert_eq(j->state, PRIO_JOB_PENDING);
}

Test(refs, a_job_added_after_finish_is_found_by_the_scan)
{
	struct prio_job *added;

	cr_assert_eq(load_site(NULL, NULL, NULL), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	added = prio_snapshot_new_job(&snap);
	cr_assert_not_null(added);
	added->job_id = 4242;
	cr_assert_eq(prio_snapshot_find_job(&snap, 4242),
		     &snap.jobs[snap.job_count - 1]);
	cr_assert_eq(prio_snapshot_find_job(&snap, 26)->job_id, 26);
	cr_assert_eq(prio_snapshot_index_jobs(&snap), 0);
	cr_assert_eq(prio_snapshot_find_job(&snap, 4242)->job_id, 4242);
}

Test(refs, strided_job_ids_are_found)
{
	/* federated ids carry the origin cluster in bits 26..31, arrays
	 * come in strides: 3000 ids 1024 apart, each found, one absent */
	for (uint32_t i = 0; i < 3000; i++) {
		struct prio_job *j = prio_snapshot_new_job(&snap);

		cr_assert_not_null(j);
		j->job_id = (1u << 26) + i * 1024u;
	}
	cr_assert_eq(prio_snapshot_index_jobs(&snap), 0);
	for (uint32_t i = 0; i < 3000; i++)
		cr_assert_eq(prio_snapshot_find_job(&snap,
						    (1u << 26) + i * 1024u),
			     &snap.jobs[i]);
	cr_assert_null(prio_snapshot_find_job(&snap, (1u << 26) + 1));
}
