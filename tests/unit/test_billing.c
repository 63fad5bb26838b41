/* SPDX-License-Identifier: MIT */
/* TRES billing: Slurm's SUM and MAX_TRES rules against what it stored. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "testutil.h"

static void load(struct prio_snapshot *snap, const char *conf, const char *sacct)
{
	struct prio_error err;
	char msg[1024];

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(prio_load_role(snap, PRIO_ROLE_CONF, test_path(conf), &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	if (sacct)
		cr_assert_eq(prio_load_role(snap, PRIO_ROLE_SACCT, test_path(sacct), &err),
			     0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

/* Every job record of the file: billing recomputed from its other
 * allocated TRES and its partition's weights equals what Slurm stored. */
static unsigned check_records(struct prio_snapshot *snap, unsigned first_id,
			      unsigned last_id, const unsigned *want)
{
	bool max_tres = snap->conf.priority_flags & PRIO_FLAG_MAX_TRES;
	unsigned checked = 0;

	for (uint32_t i = 0; i < snap->sacct_count; i++) {
		const struct prio_sacct_rec *r = &snap->sacct[i];
		const struct prio_partition *p = prio_snapshot_partition(snap, r->partition);
		double b;

		if (r->is_step || r->job_id < first_id || r->job_id > last_id)
			continue;
		cr_assert_not_null(p, "job %u: partition", r->job_id);
		b = prio_billing_list(&snap->tres, &r->alloc_tres, &p->billing_weights,
				      max_tres);
		cr_assert_eq(prio_billing_truncate(b),
			     prio_tres_list_get(&r->alloc_tres, PRIO_TRES_BILLING, 0),
			     "job %u: billing %.3f", r->job_id, b);
		cr_assert_eq(prio_billing_truncate(b), want[r->job_id - first_id],
			     "job %u", r->job_id);
		checked++;
	}
	return checked;
}

Test(billing, sum_of_weighted_tres_truncated)
{
	/* 4 CPU + 1G + 1 node on sum: 4 + 0.25 + 2 = 6.25 -> 6 */
	static const unsigned want[] = { 6, 6, 6, 11, 6 };
	struct prio_snapshot snap;

	load(&snap, "tests/oracle/billing-max-tres/slurm.conf.default",
	     "tests/oracle/billing-max-tres/sacct_a_P_X.txt");
	cr_assert_eq(check_records(&snap, 4000, 4004, want), 5);
	prio_snapshot_free(&snap);
}

Test(billing, max_tres_takes_the_largest_node_tres)
{
	/* the same shapes with MAX_TRES: 4 CPU + 1G + 1 node -> max(4, 0.25, 2) */
	static const unsigned want[] = { 4, 3, 4, 10, 4 };
	struct prio_snapshot snap;

	load(&snap, "tests/oracle/billing-max-tres/slurm.conf.max_tres",
	     "tests/oracle/billing-max-tres/sacct_a_P_X.txt");
	cr_assert_eq(check_records(&snap, 4100, 4104, want), 5);
	prio_snapshot_free(&snap);
}

Test(billing, no_weights_is_the_cpu_count_and_unrounded_for_usage)
{
	struct prio_snapshot snap;
	struct prio_tres_list list;
	struct prio_tres_weights w = { 0 };
	const char *why;
	char msg[256];

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_tres_list_parse(&snap.arena, &snap.tres, "cpu=6,mem=3G,node=2", 19,
					  &list, &why), 0);
	cr_assert_float_eq(prio_billing_list(&snap.tres, &list, &w, false), 6.0, 1e-12);
	cr_assert_float_eq(prio_billing_list(&snap.tres, &list, NULL, true), 6.0, 1e-12);
	/* weights: CPU=1.0,Mem=0.25G -> 6 + 3072 MB * 0.25/1024 = 6.75 */
	cr_assert_eq(prio_tres_weights_parse(&snap.arena, &snap.tres, "CPU=1.0,Mem=0.25G", 17,
					     &w, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_float_eq(prio_billing_list(&snap.tres, &list, &w, false), 6.75, 1e-12);
	cr_assert_eq(prio_billing_truncate(6.75), 6);
	cr_assert_float_eq(prio_billing_list(&snap.tres, &list, &w, true), 6.0, 1e-12);
	/* a TRES weighted twice keeps its last weight */
	cr_assert_eq(prio_tres_weights_parse(&snap.arena, &snap.tres, "CPU=1,CPU=3", 11, &w,
					     msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_float_eq(prio_billing_list(&snap.tres, &list, &w, false), 18.0, 1e-12);
	cr_assert_eq(prio_billing_truncate(-1.0), 0);
	cr_assert_eq(prio_billing_truncate(1e300), UINT64_MAX);
	prio_snapshot_free(&snap);
}

/* --- PriorityFlags=MAX_TRES_GRES (25.05) --------------------------------- */

/* One partition weighing CPU 1, Mem 0.5 per GB, a GPU 3, a node 2 and a
 * license 1.5, read as `release`.  finish_rc: what finishing returned. */
static bool keep_going;

static int load_weights(struct prio_snapshot *snap, const char *flags,
			uint16_t release, struct prio_error *err)
{
	struct prio_source src;
	char conf[1024];

	snprintf(conf, sizeof(conf),
		 "AccountingStorageTRES=gres/gpu,license/foo\n"
		 "Licenses=foo:4\n"
		 "PriorityFlags=%s\n"
		 "NodeName=g1 CPUs=8 RealMemory=64000 Gres=gpu:4\n"
		 "PartitionName=p Nodes=g1 TRESBillingWeights="
		 "CPU=1.0,Mem=0.5G,GRES/gpu=3.0,Node=2,License/foo=1.5\n",
		 flags);
	cr_assert_eq(prio_snapshot_init(snap), 0);
	test_source(&src, "slurm.conf", conf);
	cr_assert_eq(prio_load_slurmconf_source(snap, &src, err), 0);
	prio_snapshot_note_version(snap, release, PRIO_VERSION_OPTION);
	snap->keep_going = keep_going;
	return prio_snapshot_finish(snap, err);
}

/* cpu=4 (4), mem=8G (8 x 0.5 = 4), gres/gpu=2 (6), node=1 (2),
 * license/foo=2 (3): SUM 19; MAX_TRES 6 + 3 = 9; MAX_TRES_GRES
 * MAX(4, 4, 2) + 6 + 3 = 13. */
static const char job[] = "cpu=4,mem=8G,node=1,gres/gpu=2,license/foo=2";

static double job_billing(struct prio_snapshot *snap)
{
	const struct prio_partition *p = &snap->partitions[0];
	struct prio_tres_list list;
	const char *why = NULL;

	cr_assert_eq(prio_tres_list_parse(&snap->arena, &snap->tres, job,
					  strlen(job), &list, &why),
		     0, "%s", why ? why : "");
	return prio_billing_list(&snap->tres, &list, &p->billing_weights,
				 prio_billing_rule_of(&snap->conf));
}

Test(release_2505, max_tres_gres_billing)
{
	struct prio_snapshot snap;
	struct prio_billing_term terms[8];
	struct prio_billing_detail d;
	struct prio_tres_list list;
	struct prio_error err;
	char msg[1024];
	const char *why;

	cr_assert_eq(load_weights(&snap, "MAX_TRES_GRES", 2505, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	/* the longer name is not also MAX_TRES */
	cr_expect_eq(snap.conf.priority_flags &
			 (PRIO_FLAG_MAX_TRES | PRIO_FLAG_MAX_TRES_GRES),
		     PRIO_FLAG_MAX_TRES_GRES);
	cr_expect_float_eq(job_billing(&snap), 13.0, 1e-9);
	cr_assert_eq(prio_tres_list_parse(&snap.arena, &snap.tres, job,
					  strlen(job), &list, &why),
		     0);
	prio_billing_explain(&snap.tres, &list,
			     &snap.partitions[0].billing_weights,
			     PRIO_BILL_MAX_TRES_GRES, terms, &d);
	cr_expect_float_eq(d.node_max, 4.0, 1e-9);
	cr_expect_float_eq(d.gres, 6.0, 1e-9);
	cr_expect_float_eq(d.others, 3.0, 1e-9);
	cr_expect_eq(d.truncated, 13);
	/* the node's own billing (CfgTRES): 8 CPU (8), 62.5 GB (31.25),
	 * 4 GPU (12), a node (2): MAX(8, 31.25, 2) + 12 = 43.25 -> 43 */
	cr_expect_eq(snap.partitions[0].tres_total[PRIO_TRES_BILLING], 43 + 6,
		     "plus the partition's 4 licenses x 1.5");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_weights(&snap, "MAX_TRES", 2505, &err), 0);
	cr_expect_float_eq(job_billing(&snap), 9.0, 1e-9);
	prio_snapshot_free(&snap);
	cr_assert_eq(load_weights(&snap, "FAIR_TREE", 2505, &err), 0);
	cr_expect_float_eq(job_billing(&snap), 19.0, 1e-9);
	prio_snapshot_free(&snap);
}

Test(release_2411, max_tres_gres_refused)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	/* 24.11 finds "MAX_TRES" inside it and would bill 9: refused */
	cr_expect_lt(load_weights(&snap, "MAX_TRES_GRES", 2411, &err), 0);
	cr_expect_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "slurm.conf:3: PriorityFlags: MAX_TRES_GRES is new in "
			 "Slurm 25.05; the snapshot is Slurm 24.11 "
			 "(--slurm-version to say otherwise)");
	prio_snapshot_free(&snap);
	/* and MAX_TRES still holds there */
	cr_assert_eq(load_weights(&snap, "MAX_TRES", 2411, &err), 0);
	cr_expect_float_eq(job_billing(&snap), 9.0, 1e-9);
	prio_snapshot_free(&snap);
	/* --keep-going: a warning, and billed as 24.11 reads the flag */
	keep_going = true;
	cr_assert_eq(load_weights(&snap, "MAX_TRES_GRES", 2411, &err), 0);
	keep_going = false;
	cr_expect_eq(snap.warning_count, 1);
	cr_expect_float_eq(job_billing(&snap), 9.0, 1e-9);
	prio_snapshot_free(&snap);
}
