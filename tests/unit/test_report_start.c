/* SPDX-License-Identifier: MIT */
/*
 * squeue --start's order and cells (report_start.h), on jobs made in
 * memory for the cases the oracles do not hold: a pending job's past
 * estimate sorts as now (squeue's _get_start_time), equal times keep the
 * controller's order, jobs without an estimate go last in that order; the
 * printed NumNodes where the loaders lowered min_nodes; %i of array tasks
 * and heterogeneous components as squeue's _print_job_job_id prints them.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "prio/report_start.h"
#include "prio/snapshot.h"

static struct prio_job *add(struct prio_snapshot *snap, uint32_t id,
			    enum prio_job_state st, time_t start)
{
	struct prio_job *j = prio_snapshot_new_job(snap);

	cr_assert_not_null(j);
	memset(j, 0, sizeof(*j));
	j->job_id = id;
	j->array_task_id = PRIO_NO_VAL;
	j->state = (uint8_t)st;
	j->start_time = start;
	j->min_nodes = 1;
	return j;
}

Test(report_start, squeue_order)
{
	struct prio_snapshot snap;
	const time_t now = 1795319730;
	uint32_t ix[6] = {0, 1, 2, 3, 4, 5};

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	add(&snap, 1, PRIO_JOB_PENDING, 0);
	add(&snap, 2, PRIO_JOB_PENDING, now - 100); /* past: as now */
	add(&snap, 3, PRIO_JOB_PENDING, now + 50);
	add(&snap, 4, PRIO_JOB_PENDING, now); /* ties with 2: after it */
	add(&snap, 5, PRIO_JOB_PENDING, 0);
	/* a held flavour of pending keeps its past time (state is not
	 * exactly PENDING for squeue's rule) */
	add(&snap, 6, PRIO_JOB_REQUEUE_HOLD, now - 200);
	cr_assert_eq(prio_start_sort(&snap, now, ix, 6), 0);
	cr_assert_eq(snap.jobs[ix[0]].job_id, 6);
	cr_assert_eq(snap.jobs[ix[1]].job_id, 2);
	cr_assert_eq(snap.jobs[ix[2]].job_id, 4);
	cr_assert_eq(snap.jobs[ix[3]].job_id, 3);
	cr_assert_eq(snap.jobs[ix[4]].job_id, 1);
	cr_assert_eq(snap.jobs[ix[5]].job_id, 5);
	prio_snapshot_free(&snap);
}

Test(report_start, listed_and_ids)
{
	struct prio_snapshot snap;
	struct prio_job *j;
	char buf[64];

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert(prio_start_listed(add(&snap, 1, PRIO_JOB_PENDING, 0)));
	cr_assert(prio_start_listed(add(&snap, 2, PRIO_JOB_REQUEUE_HOLD, 0)));
	cr_assert_not(prio_start_listed(add(&snap, 3, PRIO_JOB_RUNNING, 0)));
	j = add(&snap, 25, PRIO_JOB_PENDING, 0);
	j->array_job_id = 21;
	j->array_task_id = 4;
	cr_assert_str_eq(prio_start_job_id(&snap, j, buf, sizeof(buf)), "21_4");
	j = add(&snap, 30, PRIO_JOB_PENDING, 0);
	j->array_job_id = 30;
	j->array_task_text = prio_intern(&snap.strings, "0-9%2");
	cr_assert_str_eq(prio_start_job_id(&snap, j, buf, sizeof(buf)),
			 "30_[0-9%2]");
	cr_assert_str_eq(prio_start_job_id(&snap, &snap.jobs[0], buf,
					   sizeof(buf)),
			 "1");
	prio_snapshot_free(&snap);
}

Test(report_start, nodes_shown_and_format)
{
	struct prio_snapshot snap;
	struct prio_start_table t;
	struct prio_job_detail d;
	struct prio_job *j;
	char why[256];

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	/* `sbatch -n 12` on 8-CPU nodes: NumNodes=2 printed, node=1 asked;
	 * squeue's NODES shows the 2 */
	j = add(&snap, 7, PRIO_JOB_PENDING, 0);
	memset(&d, 0, sizeof(d));
	d.nodes_shown = 2;
	j->detail = &d;
	cr_assert_eq(prio_start_table_init(&t, "%.4i|%D|%Y|%S", false, 0, why,
					   sizeof(why)),
		     0, "%s", why);
	prio_start_row_cells(&t, &snap, j);
	cr_assert_str_eq(t.cells[1].s, "2");
	cr_assert_str_eq(t.cells[2].s, "(null)");
	cr_assert_str_eq(t.cells[3].s, "N/A");
	prio_start_table_free(&t);
	/* machine output: the integer id first, unknown values empty */
	cr_assert_eq(prio_start_table_init(&t, "%i %S %Y", true, 0, why,
					   sizeof(why)),
		     0);
	cr_assert_eq(t.ncols, 4);
	cr_assert_str_eq(t.cols[0].id, "job_id");
	prio_start_row_cells(&t, &snap, j);
	cr_assert_eq(t.cells[0].kind, PRIO_CELL_UINT);
	cr_assert_eq(t.cells[2].kind, PRIO_CELL_BLANK);
	cr_assert_eq(t.cells[3].kind, PRIO_CELL_BLANK);
	prio_start_table_free(&t);
	/* squeue has no '-' flag: "%-10P" is the letter '-' */
	cr_assert_eq(prio_start_table_init(&t, "%-10P", false, 0, why,
					   sizeof(why)),
		     -1);
	cr_assert(strstr(why, "%-") != NULL, "%s", why);
	j->detail = NULL;
	prio_snapshot_free(&snap);
}
