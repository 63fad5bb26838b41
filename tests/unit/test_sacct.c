/* SPDX-License-Identifier: MIT */
/* sacct -P / -p: real captures, JobID forms, and malformed input. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

static void load_file(struct prio_snapshot *snap, const char *rel)
{
	struct prio_source src;
	struct prio_error err;
	char msg[1024];

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(prio_source_open(&src, test_path(rel), &err), 0);
	cr_assert_eq(prio_load_sacct(snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	prio_source_close(&src);
}

static int load_text(struct prio_snapshot *snap, const char *text,
		     struct prio_error *err, bool keep_going)
{
	struct prio_source src;

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	snap->keep_going = keep_going;
	prio_error_clear(err);
	test_source(&src, "sacct.txt", text);
	return prio_load_sacct(snap, &src, err);
}

static const struct prio_sacct_rec *find(const struct prio_snapshot *snap,
					 const char *job_id)
{
	char buf[64];

	for (uint32_t i = 0; i < snap->sacct_count; i++)
		if (!strcmp(prio_sacct_job_id_format(snap, &snap->sacct[i], buf,
						     sizeof(buf)),
			    job_id))
			return &snap->sacct[i];
	cr_assert_fail("no record %s", job_id);
	return NULL;
}

static const char *S(const struct prio_snapshot *snap, prio_id id)
{
	return prio_snapshot_str(snap, id);
}

static uint64_t tres(const struct prio_snapshot *snap,
		     const struct prio_tres_list *l, const char *name)
{
	int t = prio_tres_find(&snap->tres, name, strlen(name));

	return t < 0 ? UINT64_MAX : prio_tres_list_get(l, (uint32_t)t, UINT64_MAX);
}

Test(sacct, fairtree_basic_jobs)
{
	struct prio_snapshot snap;

	load_file(&snap, "tests/oracle/fairtree-basic/sacct_a_P_X.txt");
	cr_assert_eq(snap.sacct_count, 41);
	cr_assert_eq(snap.loaded[0].kind, PRIO_INPUT_SACCT);
	cr_assert_eq(snap.loaded[0].records, 41);
	cr_assert(snap.sacct_columns & PRIO_SACCT_JOBIDRAW);
	cr_assert(snap.sacct_columns & PRIO_SACCT_ALLOCTRES);
	cr_assert(snap.sacct_columns & PRIO_SACCT_NODELIST);
	cr_assert_not(snap.sacct_columns & PRIO_SACCT_CLUSTER);

	const struct prio_sacct_rec *r = find(&snap, "5");
	cr_assert_eq(r->job_id, 5);
	cr_assert_not(r->is_step);
	cr_assert_str_eq(S(&snap, r->user), "erin");
	cr_assert_str_eq(S(&snap, r->account), "hep_th");
	cr_assert_str_eq(S(&snap, r->partition), "short");
	cr_assert_str_eq(S(&snap, r->qos), "normal");
	cr_assert_eq(r->state, PRIO_JOB_COMPLETE);
	cr_assert_eq(r->submit, 1795318637);
	cr_assert_eq(r->start, 1795318637);
	cr_assert_eq(r->end, 1795319178);
	cr_assert_eq(r->elapsed, 541);
	cr_assert_eq(r->suspended, 0);
	cr_assert_eq(tres(&snap, &r->alloc_tres, "billing"), 14);
	cr_assert_eq(tres(&snap, &r->alloc_tres, "mem"), 6000);
	cr_assert_eq(tres(&snap, &r->req_tres, "cpu"), 6);
	cr_assert_eq(r->nnodes, 1);
	cr_assert_eq(r->ncpus, 6);
	cr_assert_eq(r->time_limit, 30);
	cr_assert_str_eq(S(&snap, r->node_list), "ftn2");
	cr_assert_eq(r->line, 6);

	/* still running: End=Unknown; billed 7 for 2 nodes, asked 5 */
	r = find(&snap, "13");
	cr_assert_eq(r->state, PRIO_JOB_RUNNING);
	cr_assert_eq(r->end, 0);
	cr_assert_eq(tres(&snap, &r->alloc_tres, "billing"), 7);
	cr_assert_eq(tres(&snap, &r->req_tres, "billing"), 5);
	cr_assert_eq(r->nnodes, 2);
	cr_assert_str_eq(S(&snap, r->node_list), "ftn[2-3]");
	cr_assert_eq(r->time_limit, 120);

	/* the pending array, one record */
	r = find(&snap, "40_[0-2]");
	cr_assert_eq(r->job_id, 40);
	cr_assert_eq(r->array_job_id, 40);
	cr_assert_eq(r->array_task_id, PRIO_NO_VAL);
	cr_assert_str_eq(S(&snap, r->array_task_text), "0-2");
	cr_assert_eq(r->state, PRIO_JOB_PENDING);
	cr_assert_eq(r->start, 0);
	cr_assert_eq(r->eligible, 1795319460);
	cr_assert_eq(r->node_list, PRIO_NO_ID);
	cr_assert_eq(r->alloc_tres.count, 0);
	cr_assert_eq(tres(&snap, &r->req_tres, "billing"), 2);
	prio_snapshot_free(&snap);
}

Test(sacct, steps_are_kept_and_marked)
{
	struct prio_snapshot snap;
	unsigned steps = 0;

	load_file(&snap, "tests/oracle/fairtree-basic/sacct_a_P.txt");
	cr_assert_eq(snap.sacct_count, 64);
	for (uint32_t i = 0; i < snap.sacct_count; i++)
		steps += snap.sacct[i].is_step;
	cr_assert_eq(steps, 23);
	const struct prio_sacct_rec *r = find(&snap, "13.batch");
	cr_assert(r->is_step);
	cr_assert_eq(r->job_id, 13);
	cr_assert_eq(r->step_id, PRIO_SACCT_STEP_BATCH);
	cr_assert_eq(r->user, PRIO_NO_ID);
	cr_assert_str_eq(S(&snap, r->account), "chem");
	cr_assert_eq(tres(&snap, &r->alloc_tres, "cpu"), 2);
	cr_assert_eq(tres(&snap, &r->alloc_tres, "billing"), UINT64_MAX);
	cr_assert_eq(r->time_limit, PRIO_NO_VAL);
	prio_snapshot_free(&snap);
}

Test(sacct, suspended_and_cancelled_by)
{
	struct prio_snapshot snap;

	load_file(&snap,
		  "tests/oracle/preemption-a-partition-suspend/sacct_a_P_X_4_cancelled.txt");
	cr_assert_eq(snap.sacct_count, 6);
	for (int id = 1000; id <= 1004; id++) {
		char buf[16];
		const struct prio_sacct_rec *r;

		snprintf(buf, sizeof(buf), "%d", id);
		r = find(&snap, buf);
		cr_assert_eq(r->state, PRIO_JOB_CANCELLED, "\"CANCELLED by 0\"");
		cr_assert_eq(r->suspended, id <= 1002 ? 60 : 0);
		cr_assert_eq(r->elapsed, id <= 1002 ? 23 : 83);
		cr_assert_eq(tres(&snap, &r->alloc_tres, "billing"), 8);
	}
	prio_snapshot_free(&snap);
}

Test(sacct, sreport_final_billing_roll_up)
{
	struct prio_snapshot snap;
	uint64_t billing = 0, billing_secs = 0;
	unsigned billed = 0;

	load_file(&snap, "tests/oracle/sreport-final/sacct_a_P_X_all_ft.txt");
	cr_assert_eq(snap.sacct_count, 43);
	for (uint32_t i = 0; i < snap.sacct_count; i++) {
		uint64_t b = tres(&snap, &snap.sacct[i].alloc_tres, "billing");

		if (b == UINT64_MAX)
			continue;
		billed++;
		billing += b;
		billing_secs += b * snap.sacct[i].elapsed;
	}
	cr_assert_eq(billed, 23);
	cr_assert_eq(billing, 122);
	cr_assert_eq(billing_secs, 101181);
	prio_snapshot_free(&snap);
}

/* sacct -p: the same rows with a '|' after the last field. */
Test(sacct, trailing_bar_form)
{
	struct prio_snapshot a, b;
	struct prio_source src;
	struct prio_error err;
	char msg[1024];
	const char *rel = "tests/oracle/fairtree-basic/sacct_a_P_X.txt";

	load_file(&a, rel);
	cr_assert_eq(prio_source_open(&src, test_path(rel), &err), 0);
	char *text = malloc(src.size * 2 + 1), *o = text;
	for (size_t i = 0; i < src.size; i++) {
		if (src.data[i] == '\n')
			*o++ = '|';
		*o++ = src.data[i];
	}
	*o = '\0';
	prio_source_close(&src);
	cr_assert_eq(load_text(&b, text, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(a.sacct_count, b.sacct_count);
	for (uint32_t i = 0; i < a.sacct_count; i++) {
		const struct prio_sacct_rec *x = &a.sacct[i], *y = &b.sacct[i];

		cr_assert_eq(x->job_id, y->job_id);
		cr_assert_eq(x->elapsed, y->elapsed);
		cr_assert_eq(x->end, y->end);
		cr_assert_eq(x->state, y->state);
		cr_assert_eq(x->alloc_tres.count, y->alloc_tres.count);
		cr_assert_str_eq(S(&a, x->user), S(&b, y->user));
		cr_assert_str_eq(S(&a, x->node_list), S(&b, y->node_list));
	}
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
	free(text);
}

static const char forms[] =
	"State|NodeList|Cluster|JobIDRaw|Elapsed|Timelimit|JobID|Extra|"
	"Submit|Start|End|TimelimitRaw|SubmitLine\n"
	"COMPLETED|n1|ft|15|1-02:03:04|1-00:00:00|12_3|x|2026-01-02T03:04:05|"
	"Unknown|None|1440|sbatch --wrap 'a|b'\n"
	"PENDING|None assigned|ft|12|00:00:00|UNLIMITED|12_[1-5%2]|||||UNLIMITED|\n"
	"COMPLETED|n1|ft|15.batch|00:00:10||12_3.batch|||||||\n"
	"COMPLETED|n1|ft|15.extern|00:00:10||12_3.extern|||||||\n"
	"COMPLETED|n2|ft|20|00:01:00|Partition_Limit|20|||||Partition_Limit|\n"
	"COMPLETED|n2|ft|20.0|00:01:00||20.0|||||||\n"
	"COMPLETED|n2|ft|20.interactive|00:01:00||20.interactive|||||||\n"
	"RUNNING|n3|ft|31|00:01:00|00:05:00|30+1|||||5|\n"
	"RUNNING|n3|ft|31.batch|00:01:00||30+1.batch|||||||\n"
	"OUT_OF_MEMORY|n3|ft|40|00:01:00|00:05:00|40|||||5|\n";

Test(sacct, job_id_forms_and_odd_values)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024], buf[64];

	cr_assert_eq(load_text(&snap, forms, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.sacct_count, 10);
	/* each JobID prints back as sacct printed it */
	static const char *const ids[] = {
		"12_3", "12_[1-5%2]", "12_3.batch", "12_3.extern", "20", "20.0",
		"20.interactive", "30+1", "30+1.batch", "40",
	};
	for (uint32_t i = 0; i < 10; i++)
		cr_assert_str_eq(prio_sacct_job_id_format(&snap, &snap.sacct[i], buf,
							  sizeof(buf)),
				 ids[i]);

	const struct prio_sacct_rec *r = &snap.sacct[0];
	cr_assert_eq(r->job_id, 15, "JobIDRaw wins");
	cr_assert_eq(r->array_job_id, 12);
	cr_assert_eq(r->array_task_id, 3);
	cr_assert_not(r->is_step);
	cr_assert_eq(r->elapsed, 93784); /* 1-02:03:04 */
	cr_assert_eq(r->time_limit, 1440);
	cr_assert_eq(r->submit, 1767323045);
	cr_assert_eq(r->start, 0);
	cr_assert_eq(r->end, 0);
	cr_assert_str_eq(S(&snap, r->cluster), "ft");
	cr_assert(snap.sacct_columns & PRIO_SACCT_CLUSTER);
	r = &snap.sacct[1];
	cr_assert_eq(r->state, PRIO_JOB_PENDING);
	cr_assert_eq(r->time_limit, PRIO_INFINITE);
	cr_assert_eq(r->node_list, PRIO_NO_ID);
	cr_assert_str_eq(S(&snap, r->array_task_text), "1-5%2");
	r = &snap.sacct[2];
	cr_assert(r->is_step);
	cr_assert_eq(r->job_id, 15);
	cr_assert_eq(r->step_id, PRIO_SACCT_STEP_BATCH);
	cr_assert_eq(snap.sacct[3].step_id, PRIO_SACCT_STEP_EXTERN);
	cr_assert_eq(snap.sacct[4].time_limit, PRIO_NO_VAL);
	cr_assert_eq(snap.sacct[5].step_id, 0);
	cr_assert_eq(snap.sacct[6].step_id, PRIO_SACCT_STEP_INTERACTIVE);
	r = &snap.sacct[7];
	cr_assert_eq(r->het_job_id, 30);
	cr_assert_eq(r->het_job_offset, 1);
	cr_assert_eq(r->job_id, 31);
	cr_assert_eq(r->time_limit, 5);
	cr_assert(snap.sacct[8].is_step);
	cr_assert_eq(snap.sacct[9].state, PRIO_JOB_OOM);
	prio_snapshot_free(&snap);
}

Test(sacct, missing_job_id_column)
{
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_eq(load_text(&snap, "User|Account\nalice|astro\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "JobID");
	prio_snapshot_free(&snap);

	/* sacct -n: no header at all */
	cr_assert_eq(load_text(&snap, "1|alice|astro\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "JobID");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "", &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "JobID");
	prio_snapshot_free(&snap);
}

Test(sacct, wrong_field_count)
{
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_eq(load_text(&snap,
			       "JobID|User|Account|State\n"
			       "1|alice|astro|COMPLETED\n"
			       "2|bob|astro\n",
			       &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "State");
	cr_assert_str_eq(err.message, "3 fields where the header has 4 columns");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap,
			       "JobID|User|Account|State\n"
			       "1|alice|astro|COMPLETED|extra\n",
			       &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "State");
	prio_snapshot_free(&snap);

	/* -p rows must end with '|' like the header */
	cr_assert_eq(load_text(&snap, "JobID|User|\n1|alice\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	prio_snapshot_free(&snap);

	/* keep_going: the short row is a warning, the rest loads */
	cr_assert_eq(load_text(&snap,
			       "JobID|User|Account|State\n"
			       "1|alice|astro|COMPLETED\n"
			       "2|bob|astro\n"
			       "3|carol|hep|FAILED\n",
			       &err, true),
		     0);
	cr_assert_eq(snap.sacct_count, 2);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 3);
	cr_assert_eq(snap.sacct[1].state, PRIO_JOB_FAILED);
	prio_snapshot_free(&snap);
}

Test(sacct, bad_values_name_the_column)
{
	struct prio_snapshot snap;
	struct prio_error err;
	static const struct {
		const char *text;
		const char *field;
		const char *message;
	} cases[] = {
		{ "JobID|ElapsedRaw\n1|12x\n", "ElapsedRaw",
		  "expected an unsigned integer, got \"12x\"" },
		{ "JobID|State\n1|WAITING\n", "State",
		  "expected a job state, got \"WAITING\"" },
		{ "JobID|Start\n1|yesterday\n", "Start",
		  "expected a timestamp (YYYY-MM-DDTHH:MM:SS, Unknown or None), "
		  "got \"yesterday\"" },
		{ "JobID|AllocTRES\n1|cpu=x\n", "AllocTRES",
		  "expected a TRES list like cpu=8,mem=8G, got \"cpu=x\"" },
		{ "JobID|Elapsed\n1|1-2-3\n", "Elapsed",
		  "expected a duration [D-]HH:MM:SS, got \"1-2-3\"" },
		{ "JobID|User\n12.batch.1|x\n", "JobID",
		  "expected a job id like 12, 12_3, 12_[1-5], 12+1 or 12.batch, "
		  "got \"12.batch.1\"" },
		{ "JobId|User\n12_|x\n", "JobId",
		  "expected a job id like 12, 12_3, 12_[1-5], 12+1 or 12.batch, "
		  "got \"12_\"" },
		{ "JobID|TimelimitRaw\n1|forever\n", "TimelimitRaw",
		  "expected minutes, UNLIMITED or Partition_Limit, got \"forever\"" },
		{ "JobID|NCPUS\n1|99999999999\n", "NCPUS",
		  "expected an unsigned integer, got \"99999999999\"" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert_eq(load_text(&snap, cases[i].text, &err, false),
			     PRIO_ERR_PARSE, "%s", cases[i].text);
		cr_assert_eq(err.line, 2);
		cr_assert_str_eq(err.field, cases[i].field);
		cr_assert_str_eq(err.message, cases[i].message);
		prio_snapshot_free(&snap);
	}
}

Test(sacct, nul_byte_and_long_line)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_source src;
	static const char text[] = "JobID|User\n1|alice\n2|b\0b\n3|carol\n";

	utc();
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "sacct.txt", text, sizeof(text) - 1);
	cr_assert_eq(prio_load_sacct(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(prio_load_sacct(&snap, &src, &err), 0);
	cr_assert_eq(snap.sacct_count, 2);
	cr_assert_eq(snap.warning_count, 1);
	prio_snapshot_free(&snap);

	size_t big = 1u << 20;
	char *huge = malloc(big + 64);
	strcpy(huge, "JobID|User\n1|");
	memset(huge + 13, 'x', big);
	strcpy(huge + 13 + big, "\n");
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "sacct.txt", huge, strlen(huge));
	cr_assert_eq(prio_load_sacct(&snap, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 2);
	prio_snapshot_free(&snap);
	free(huge);
}

Test(sacct, free_text_last_column_may_hold_bars)
{
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_eq(load_text(&snap,
			       "JobID|State|SubmitLine\n"
			       "1|COMPLETED|sbatch --wrap 'a | b | c'\n",
			       &err, false),
		     0);
	cr_assert_eq(snap.sacct_count, 1);
	prio_snapshot_free(&snap);
}

/* A large sacct output read through prio_load_role is given back as it is
 * read: its records are those of the same text read from memory, although
 * the values every row repeats were last seen in bytes given back. */
Test(sacct, given_back_input_reads_as_before)
{
	const unsigned n = 120000;
	size_t cap = (size_t)n * 200 + 256, len = 0;
	char *text = malloc(cap), path[] = "/tmp/prio-give-back.XXXXXX", msg[1024];
	struct prio_snapshot a, b;
	struct prio_error err;

	cr_assert_not_null(text);
	len += (size_t)snprintf(text, cap,
				"JobID|JobIDRaw|User|Account|Partition|QOS|"
				"Start|End|Elapsed|State|AllocTRES|NNodes|"
				"NCPUS|NodeList|Timelimit\n");
	for (unsigned i = 0; i < n; i++) {
		bool odd = i == n / 2;

		len += (size_t)snprintf(
		    text + len, cap - len,
		    "%u|%u|%s|%s|batch|normal|2026-11-22T03:37:17|"
		    "2026-11-22T03:46:18|00:09:01|COMPLETED|"
		    "billing=10,cpu=8,mem=%s,node=1|1|8|node%03u|00:30:00\n",
		    i + 1, i + 1, odd ? "bob" : "alice", odd ? "phys" : "astro",
		    odd ? "2G" : "8G", i % 7);
	}
	cr_assert_gt(len, (size_t)12 << 20);
	cr_assert_eq(test_temp_file(path, text, len), 0);

	utc();
	cr_assert_eq(prio_snapshot_init(&a), 0);
	cr_assert_eq(prio_load_role(&a, PRIO_ROLE_SACCT, path, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	unlink(path);
	cr_assert_eq(load_text(&b, text, &err, false), 0);
	cr_assert_eq(a.sacct_count, n);
	cr_assert_eq(b.sacct_count, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_sacct_rec *x = &a.sacct[i], *y = &b.sacct[i];

		cr_assert_eq(x->job_id, i + 1);
		cr_assert_str_eq(S(&a, x->user), i == n / 2 ? "bob" : "alice");
		cr_assert_str_eq(S(&a, x->account), S(&b, y->account));
		cr_assert_str_eq(S(&a, x->node_list), S(&b, y->node_list));
		cr_assert_eq(x->elapsed, 541);
		cr_assert_eq(x->start, y->start);
		cr_assert_eq(tres(&a, &x->alloc_tres, "mem"),
			     i == n / 2 ? 2048 : 8192, "job %u", x->job_id);
	}
	cr_assert_eq(a.strings.count, b.strings.count, "the same ids");
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
	free(text);
}
