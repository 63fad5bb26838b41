/* SPDX-License-Identifier: MIT */
/* QOS from sacctmgr -P/-p show qos: the oracle's captures, column subsets,
 * preemption fields, linking, and malformed input. */
#include <criterion/criterion.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

static const char *fmt(const struct prio_error *err)
{
	static char buf[1024];
	return prio_error_format(err, buf, sizeof(buf));
}

static int load_text(struct prio_snapshot *s, const char *text,
		     struct prio_error *err)
{
	struct prio_source src;
	test_source(&src, "qos.txt", text);
	return prio_load_qos(s, &src, err);
}

static void load_path(struct prio_snapshot *s, const char *path)
{
	struct prio_source src;
	struct prio_error err;
	int rc = prio_source_open(&src, path, &err);
	cr_assert_eq(rc, 0, "%s", fmt(&err));
	rc = prio_load_qos(s, &src, &err);
	prio_source_close(&src);
	cr_assert_eq(rc, 0, "%s", fmt(&err));
	cr_assert_eq(s->warning_count, 0);
}

/* Index and link, as prio_snapshot_finish does for QOS. */
static int finish(struct prio_snapshot *s, struct prio_error *err)
{
	return prio_snapshot_finish(s, err);
}

static struct prio_qos *qos(const struct prio_snapshot *s, const char *name)
{
	struct prio_qos *q = prio_snapshot_qos(
	    s, prio_intern_find(&s->strings, name, strlen(name)));
	cr_assert_not_null(q, "no QOS %s", name);
	return q;
}

static const char *preempt(const struct prio_snapshot *s,
			   const struct prio_qos *q)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = '\0';
	for (uint32_t k = 0; k < q->preempt_count; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      k ? "," : "",
				      prio_snapshot_str(s, q->preempt[k]));
	return buf;
}

Test(qos, fairtree_basic_show_qos)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	load_path(
	    &s, test_path("tests/oracle/fairtree-basic/sacctmgr_show_qos.txt"));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 7);
	cr_assert_eq(s.loaded[0].kind, PRIO_INPUT_QOS);
	cr_assert_eq(s.loaded[0].records, 7);
	cr_assert_eq(qos(&s, "normal")->priority, 10);
	cr_assert_eq(qos(&s, "high")->priority, 100);
	cr_assert_eq(qos(&s, "low")->priority, 1);
	cr_assert_eq(qos(&s, "urgent")->priority, 1000);
	cr_assert_eq(qos(&s, "urgent")->line, 5);
	cr_assert_eq(qos(&s, "urgent")->id, 0, "no ID column");

	/* The preemption QOS made by the preemption scenarios. */
	struct prio_qos *scav = qos(&s, "scav"), *scavc = qos(&s, "scavc"),
			*prem = qos(&s, "prem"), *normal = qos(&s, "normal");
	cr_assert_eq(scav->grace_time, 20);
	cr_assert_eq(scav->preempt_mode, PRIO_PREEMPT_REQUEUE);
	cr_assert_eq(scavc->preempt_mode, PRIO_PREEMPT_CANCEL);
	cr_assert_eq(scavc->grace_time, 0);
	cr_assert_eq(prem->preempt_mode, 0, "cluster = inherit");
	cr_assert_eq(prem->preempt_count, 2);
	cr_assert_str_eq(preempt(&s, prem), "scav,scavc");
	cr_assert_eq(prem->priority, 100);

	/* Defaults for blank cells. */
	cr_assert_eq(normal->preempt_count, 0);
	cr_assert_eq(normal->preempt_exempt_time, PRIO_INFINITE);
	cr_assert_eq(normal->flags, 0);
	cr_assert_null(normal->flags_text);
	cr_assert(isnan(normal->usage_threshold));
	cr_assert_float_eq(normal->usage_factor, 1.0, 1e-12);
	prio_snapshot_free(&s);
}

Test(qos, show_qos_all_has_ids_and_extra_columns)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	load_path(
	    &s,
	    test_path("tests/oracle/fairtree-basic/sacctmgr_show_qos_all.txt"));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 7);
	cr_assert_eq(qos(&s, "normal")->id, 1);
	cr_assert_eq(qos(&s, "urgent")->id, 4);
	cr_assert_eq(qos(&s, "urgent")->priority, 1000);
	cr_assert_eq(qos(&s, "prem")->id, 7);
	cr_assert_str_eq(preempt(&s, qos(&s, "prem")), "scav,scavc");
	prio_snapshot_free(&s);
}

Test(qos, every_scenario_capture)
{
	glob_t g;
	cr_assert_eq(glob(test_path("tests/oracle/*/sacctmgr_show_qos*.txt"), 0,
			  NULL, &g),
		     0);
	cr_assert_geq(g.gl_pathc, 16);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct prio_snapshot s;
		struct prio_error err;
		prio_snapshot_init(&s);
		load_path(&s, g.gl_pathv[i]);
		cr_assert_eq(finish(&s, &err), 0, "%s: %s", g.gl_pathv[i],
			     fmt(&err));
		cr_assert_eq(qos(&s, "urgent")->priority, 1000);
		if (strstr(g.gl_pathv[i], "/slurm-")) {
			/* the live scenarios of later releases (24.11:
			 * MaxTRESRunMinsPA/PU columns) have five QOS */
			cr_assert_eq(s.qos_count, 5, "%s", g.gl_pathv[i]);
			cr_assert_str_eq(preempt(&s, qos(&s, "urgent")),
					 "high,low,mid,normal");
		} else {
			cr_assert_eq(s.qos_count, 7, "%s", g.gl_pathv[i]);
			cr_assert_eq(qos(&s, "scav")->preempt_mode,
				     PRIO_PREEMPT_REQUEUE);
		}
		prio_snapshot_free(&s);
	}
	globfree(&g);
}

Test(qos, any_columns_trailing_bar_and_fields)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	/* -p (trailing '|'), columns in another order and case. */
	const char *text = "priority|NAME|flags|preemptexempttime|PreemptMode|"
			   "UsageFactor|UsageThreshold|GraceTime|Preempt|\n"
			   "5|a|NoDecay,DenyOnLimit|00:05:00|suspend,gang|0.5|"
			   "0.25|1-00:00:00|b|\n"
			   "7|b|OverPartQOS|||||||\n"
			   "0|c|OVERPARTQOS,NODECAY||off|||||\n";
	cr_assert_eq(load_text(&s, text, &err), 0, "%s", fmt(&err));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	struct prio_qos *a = qos(&s, "a"), *b = qos(&s, "b"), *c = qos(&s, "c");
	cr_assert_eq(a->priority, 5);
	cr_assert_eq(a->flags, PRIO_QOS_FLAG_NO_DECAY);
	cr_assert_str_eq(a->flags_text, "NoDecay,DenyOnLimit");
	cr_assert_eq(a->preempt_exempt_time, 300);
	cr_assert_eq(a->preempt_mode, PRIO_PREEMPT_SUSPEND | PRIO_PREEMPT_GANG);
	cr_assert_float_eq(a->usage_factor, 0.5, 1e-12);
	cr_assert_float_eq(a->usage_threshold, 0.25, 1e-12);
	cr_assert_eq(a->grace_time, 86400);
	cr_assert_str_eq(preempt(&s, a), "b");
	cr_assert_eq(b->flags, PRIO_QOS_FLAG_OVER_PART_QOS);
	cr_assert_eq(b->grace_time, 0);
	cr_assert_eq(b->preempt_exempt_time, PRIO_INFINITE);
	cr_assert_float_eq(b->usage_factor, 1.0, 1e-12);
	cr_assert_eq(c->flags,
		     PRIO_QOS_FLAG_NO_DECAY | PRIO_QOS_FLAG_OVER_PART_QOS);
	cr_assert_eq(c->preempt_mode, 0, "off, like cluster, is 0");
	prio_snapshot_free(&s);

	/* Only the name (format=Name prints no '|' at all). */
	prio_snapshot_init(&s);
	cr_assert_eq(load_text(&s, "Name\nx\ny\n", &err), 0, "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 2);
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(qos(&s, "y")->priority, 0);
	prio_snapshot_free(&s);
}

static void expect_error(const char *text, int status, unsigned long line,
			 const char *field, const char *needle)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	prio_error_clear(&err);
	int rc = load_text(&s, text, &err);
	if (rc == 0)
		rc = finish(&s, &err);
	cr_assert_eq(rc, status, "got %d: %s", rc, fmt(&err));
	cr_assert_str_eq(err.file, "qos.txt");
	cr_assert_eq(err.line, line, "%s", fmt(&err));
	cr_assert_str_eq(err.field, field, "%s", fmt(&err));
	if (needle)
		cr_assert(strstr(err.message, needle), "%s", fmt(&err));
	prio_snapshot_free(&s);
}

Test(qos, malformed)
{
	expect_error("Priority|GraceTime\n1|0\n", PRIO_ERR_PARSE, 1, "Name",
		     "no Name column");
	expect_error("Name Priority\nx 1\n", PRIO_ERR_PARSE, 1, "",
		     "sacctmgr -P");
	expect_error("Name|Name\n", PRIO_ERR_PARSE, 1, "Name", "twice");
	expect_error("", PRIO_ERR_PARSE, 1, "", "no sacctmgr");
	expect_error("Name|Priority\nx|1\ny|high\n", PRIO_ERR_PARSE, 3,
		     "Priority", "\"high\"");
	expect_error("Name|Priority\nx|-1\n", PRIO_ERR_PARSE, 2, "Priority",
		     NULL);
	expect_error("Name|GraceTime\nx|soon\n", PRIO_ERR_PARSE, 2, "GraceTime",
		     "\"soon\"");
	expect_error("Name|PreemptExemptTime\nx|1:2:3:4\n", PRIO_ERR_PARSE, 2,
		     "PreemptExemptTime", NULL);
	expect_error("Name|PreemptMode\nx|sometimes\n", PRIO_ERR_PARSE, 2,
		     "PreemptMode", "sometimes");
	expect_error("Name|PreemptMode\nx|cancel,requeue\n", PRIO_ERR_PARSE, 2,
		     "PreemptMode", "at most one");
	expect_error("Name|UsageFactor\nx|-2\n", PRIO_ERR_PARSE, 2,
		     "UsageFactor", NULL);
	expect_error("Name|UsageThres\nx|lots\n", PRIO_ERR_PARSE, 2,
		     "UsageThres", NULL);
	expect_error("Name|Preempt\nx|a,,b\n", PRIO_ERR_PARSE, 2, "Preempt",
		     "empty");
	expect_error("Name|Priority\n|1\n", PRIO_ERR_PARSE, 2, "Name",
		     "empty QOS name");
	/* Truncated lines. */
	expect_error("Name|Priority|GraceTime\nx|1|0\ny|2\n", PRIO_ERR_PARSE, 3,
		     "GraceTime", "truncated");
	expect_error("Name|Priority|\nx|1|\ny|2\n", PRIO_ERR_PARSE, 3, "",
		     "truncated");
	expect_error("Name|Priority\nx|1|2\n", PRIO_ERR_PARSE, 2, "",
		     "more fields");
	/* Linking: Preempt names a QOS nobody defined; duplicates. */
	expect_error("Name|Preempt\nx|\ny|x,ghost\n", PRIO_ERR_PARSE, 3,
		     "Preempt", "ghost");
	expect_error("Name\nx\ny\nx\n", PRIO_ERR_PARSE, 4, "Name", "duplicate");
}

Test(qos, nul_byte_huge_line_keep_going)
{
	struct prio_snapshot s;
	struct prio_source src;
	struct prio_error err;
	static const char nul[] = "Name|Priority\nx|1\ny|\0\n";
	prio_snapshot_init(&s);
	prio_source_from_memory(&src, "qos.txt", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_qos(&s, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "");
	prio_snapshot_free(&s);

	size_t big = 1u << 20;
	char *text = malloc(big + 64);
	size_t n = (size_t)sprintf(text, "Name|Priority\nx|");
	memset(text + n, '7', big);
	strcpy(text + n + big, "\nz|3\n");
	prio_snapshot_init(&s);
	test_source(&src, "qos.txt", text);
	cr_assert_eq(prio_load_qos(&s, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "");
	prio_snapshot_free(&s);

	/* With keep_going each bad line is a warning and the rest loads. */
	prio_snapshot_init(&s);
	s.keep_going = true;
	test_source(&src, "qos.txt", text);
	cr_assert_eq(prio_load_qos(&s, &src, &err), 0, "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 1);
	cr_assert_eq(s.warning_count, 1);
	cr_assert_eq(s.warnings[0].error.line, 2);
	cr_assert_eq(s.warnings[0].error.status, PRIO_ERR_LIMIT);
	prio_snapshot_free(&s);

	prio_snapshot_init(&s);
	s.keep_going = true;
	cr_assert_eq(load_text(&s, "Name|Priority\na|1\nb|x\nc|3\n", &err), 0,
		     "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 2);
	cr_assert_eq(s.warning_count, 1);
	cr_assert_str_eq(s.warnings[0].error.field, "Priority");
	cr_assert_eq(s.warnings[0].error.line, 3);
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(qos(&s, "c")->line, 4);
	prio_snapshot_free(&s);
	free(text);
}

/* sacctmgr 24.11 adds MaxTRESRunMinsPA and MaxTRESRunMinsPU: columns are
 * found by their header, wherever they are. */
Test(qos, slurm_2411_columns_by_name)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	load_path(&s, test_path("tests/cli/readers-data/slurm-24.11/qos.txt"));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(s.qos_count, 5);
	cr_assert_eq(qos(&s, "normal")->priority, 10);
	cr_assert_eq(qos(&s, "high")->priority, 100);
	cr_assert_eq(qos(&s, "low")->priority, 1);
	cr_assert_eq(qos(&s, "mid")->priority, 50);
	struct prio_qos *u = qos(&s, "urgent");
	cr_assert_eq(u->priority, 1000);
	cr_assert_str_eq(preempt(&s, u), "high,low,mid,normal");
	cr_assert_eq(u->preempt_mode, PRIO_PREEMPT_REQUEUE);
	cr_assert_eq(u->grace_time, 0);
	cr_assert_float_eq(u->usage_factor, 1.0, 1e-12);
	cr_assert_eq(qos(&s, "normal")->preempt_mode, 0, "cluster");
	prio_snapshot_free(&s);

	/* the same columns in another order, the new ones first */
	prio_snapshot_init(&s);
	cr_assert_eq(load_text(&s,
			       "MaxTRESRunMinsPU|MaxTRESRunMinsPA|Preempt|"
			       "PreemptMode|Name|Priority\n"
			       "cpu=100|cpu=200|low|requeue|urgent|1000\n"
			       "|||cluster|low|1\n",
			       &err),
		     0, "%s", fmt(&err));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	cr_assert_eq(qos(&s, "urgent")->priority, 1000);
	cr_assert_str_eq(preempt(&s, qos(&s, "urgent")), "low");
	cr_assert_eq(qos(&s, "low")->priority, 1);
	prio_snapshot_free(&s);
}

/* The limits the forecast applies: counts, TRES lists (mem in MB), the
 * first limit that moves with usage by name; blank is unset, and a QOS
 * without any keeps no limits at all. */
Test(qos, limits)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	const char *text =
	    "Name|GrpJobs|MaxJobsPU|MaxJobsPA|GrpTRES|MaxTRESPU|MaxTRESPA|"
	    "GrpTRESRunMins|MaxWall\n"
	    "a|4|2|3|cpu=64,mem=100G|node=2|gres/gpu=4||\n"
	    "b||||||cpu=8|cpu=1000|\n"
	    "c||||||||\n"
	    "d||||||||1-00:00:00\n";
	cr_assert_eq(load_text(&s, text, &err), 0, "%s", fmt(&err));
	cr_assert_eq(finish(&s, &err), 0, "%s", fmt(&err));
	const struct prio_limits *a = qos(&s, "a")->limits,
				 *b = qos(&s, "b")->limits;
	cr_assert_not_null(a);
	cr_assert_eq(a->grp_jobs, 4);
	cr_assert_eq(a->max_jobs_pu, 2);
	cr_assert_eq(a->max_jobs_pa, 3);
	cr_assert_eq(a->max_jobs, PRIO_NO_VAL, "a QOS has no MaxJobs");
	cr_assert_eq(prio_tres_list_get(&a->grp_tres, PRIO_TRES_CPU, 0), 64);
	cr_assert_eq(prio_tres_list_get(&a->grp_tres, PRIO_TRES_MEM, 0),
		     102400);
	cr_assert_eq(prio_tres_list_get(&a->max_tres_pu, PRIO_TRES_NODE, 0),
		     2);
	cr_assert_eq(a->max_tres_pa.count, 1);
	cr_assert_null(a->unmodelled);
	cr_assert(prio_limits_any(a));
	cr_assert_not_null(b);
	cr_assert_eq(b->grp_jobs, PRIO_NO_VAL);
	cr_assert_eq(prio_tres_list_get(&b->max_tres_pa, PRIO_TRES_CPU, 0), 8);
	cr_assert_str_eq(b->unmodelled, "GrpTRESRunMins");
	cr_assert_null(qos(&s, "c")->limits, "blank everywhere: none");
	cr_assert_null(qos(&s, "d")->limits, "MaxWall is per job: not kept");
	prio_snapshot_free(&s);

	expect_error("Name|MaxJobsPU\na|two\n", PRIO_ERR_PARSE, 2, "MaxJobsPU",
		     "expected a count of jobs, got \"two\"");
	expect_error("Name|GrpTRES\na|cpu\n", PRIO_ERR_PARSE, 2, "GrpTRES",
		     "expected TRES=count items");
}

/* An association's dump limits: -1 clears, MaxJobs and GrpTRES kept,
 * GrpTRESMins named as not modelled, a bad TRES list refused with its
 * key and value. */
Test(qos, assoc_dump_limits)
{
	struct prio_snapshot s;
	struct prio_limits l;
	const char *key = "", *val = "", *why = "";
	size_t vlen = 0;
	prio_snapshot_init(&s);
	cr_assert_eq(prio_limits_from_dump(&s,
					   "GrpJobs=-1:MaxJobs=3:GrpTRES=cpu=12,"
					   "node=2:GrpTRESMins=cpu=100",
					   &l, &key, &val, &vlen, &why),
		     0, "%s: %s", key, why);
	cr_assert_eq(l.grp_jobs, PRIO_NO_VAL);
	cr_assert_eq(l.max_jobs, 3);
	cr_assert_eq(prio_tres_list_get(&l.grp_tres, PRIO_TRES_CPU, 0), 12);
	cr_assert_eq(prio_tres_list_get(&l.grp_tres, PRIO_TRES_NODE, 0), 2);
	cr_assert_str_eq(l.unmodelled, "GrpTRESMins");
	cr_assert_eq(prio_limits_from_dump(&s, "MaxJobs=1:GrpTRES=cpu", &l,
					   &key, &val, &vlen, &why),
		     -1);
	cr_assert_str_eq(key, "GrpTRES");
	cr_assert_eq(vlen, 3);
	cr_assert(!strncmp(val, "cpu", 3));
	prio_snapshot_free(&s);
}
