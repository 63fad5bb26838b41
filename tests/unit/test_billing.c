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
