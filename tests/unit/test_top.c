/* SPDX-License-Identifier: MIT */
/*
 * prio-top's model (prio/top.h) on the sample snapshot: it must say what
 * the engines say (prio-calc's queue, --at, --set, fstree-show's tree), keep
 * its data on errors, and sort, filter and fold as asked.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

static struct prio_error err;

static const char *msg(void)
{
	static char buf[1024];

	return prio_error_format(&err, buf, sizeof(buf));
}

/* The sample snapshot, with assignments applied before it is linked (as
 * --set does); heap-allocated, for the model to own. */
static struct prio_snapshot *load(const char *const *sets, size_t nsets)
{
	struct prio_snapshot *snap = calloc(1, sizeof(*snap));

	cr_assert(snap);
	setenv("TZ", "UTC", 1);
	tzset();
	prio_error_clear(&err);
	cr_assert_eq(prio_snapshot_init(snap), 0);
	snap->folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	cr_assert_eq(prio_snapshot_load_sources(snap, test_path("samples/site"),
						NULL, &err),
		     0, "%s", msg());
	for (size_t i = 0; i < nsets; i++)
		cr_assert_eq(prio_snapshot_set(snap, sets[i], "--set", &err), 0,
			     "%s: %s", sets[i], msg());
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s", msg());
	return snap;
}

static void top_at(struct prio_top *t, const char *const *sets, size_t nsets,
		   time_t now)
{
	cr_assert_eq(prio_top_init(t, load(sets, nsets), now, &err), 0, "%s",
		     msg());
}

static const char *job_user(const struct prio_top *t, uint32_t row)
{
	return prio_snapshot_str(t->snap, t->snap->jobs[t->jobs[row].job].user);
}

static uint32_t job_id(const struct prio_top *t, uint32_t row)
{
	return t->snap->jobs[t->jobs[row].job].job_id;
}

/* The queue as prio-calc --rank builds it, on its own snapshot. */
struct ref {
	struct prio_snapshot *snap;
	struct prio_engine e;
	struct prio_queue q;
};

static void ref_build(struct ref *r, const char *const *sets, size_t nsets,
		      time_t at)
{
	r->snap = load(sets, nsets);
	if (at > r->snap->now)
		cr_assert_eq(prio_snapshot_advance(r->snap, at, &err), 0, "%s",
			     msg());
	cr_assert_eq(
	    prio_engine_init(&r->e, r->snap, at ? at : r->snap->now, &err), 0,
	    "%s", msg());
	cr_assert_eq(prio_queue_build(&r->e, &r->q, &err), 0, "%s", msg());
}

static void ref_free(struct ref *r)
{
	prio_queue_free(&r->q);
	prio_engine_free(&r->e);
	prio_snapshot_free(r->snap);
	free(r->snap);
}

/* The model's rows are the reference queue, entry for entry. */
static void same_queue(const struct prio_top *t, const struct ref *r)
{
	cr_assert_eq(t->njobs, r->q.count);
	for (uint32_t k = 0; k < r->q.count; k++) {
		const struct prio_queue_entry *en = &r->q.entries[k];

		cr_assert_eq(job_id(t, k), r->snap->jobs[en->job].job_id,
			     "entry %u", k);
		cr_assert_eq(t->jobs[k].partition, en->partition, "entry %u",
			     k);
		cr_assert_eq(t->jobs[k].priority, en->priority, "entry %u", k);
		cr_assert_eq(t->jobs[k].rank, en->rank);
		cr_assert_eq(t->jobs[k].part_rank, en->part_rank);
	}
}

Test(top, rows_are_prio_calcs_queue_and_terms_add_up)
{
	struct prio_top t;
	struct ref r;

	top_at(&t, NULL, 0, 0);
	ref_build(&r, NULL, 0, 0);
	same_queue(&t, &r);
	cr_assert_gt(t.njobs, 10);
	for (uint32_t k = 0; k < t.njobs; k++) {
		double sum = 0;

		for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
			sum += t.jobs[k].points[f];
		cr_assert(fabs(sum - t.jobs[k].sum) < 1e-6, "row %u: %f vs %f",
			  k, sum, t.jobs[k].sum);
		cr_assert_leq(t.jobs[k].sum, t.max_sum);
	}
	/* job 30 of samples/site: sprio -l says 13406 = 227 age + 7333
	 * fairshare + 225 jobsize + 600 partition + 5000 qos + 18+4 tres */
	uint32_t at = prio_top_find_job(&t, 30, PRIO_NO_VAL);
	cr_assert_neq(at, UINT32_MAX);
	const struct prio_top_job *j = &t.jobs[t.view[at]];
	cr_assert_eq(j->priority, 13406);
	cr_assert_eq(lround(j->points[PRIO_FACTOR_FAIRSHARE]), 7333);
	cr_assert_eq(lround(j->points[PRIO_FACTOR_QOS]), 5000);
	cr_assert_eq(t.pending + t.running > t.njobs / 2, true);
	ref_free(&r);
	prio_top_free(&t);
}

Test(top, the_clock_moves_usage_and_age_like_prio_calc_at)
{
	struct prio_top t;
	struct ref r1, r2;
	time_t now;

	top_at(&t, NULL, 0, 0);
	now = t.snap->now;
	/* forward an hour, then half an hour: each from the usage as loaded */
	cr_assert_eq(prio_top_advance(&t, now + 3600, &err), 0, "%s", msg());
	ref_build(&r1, NULL, 0, now + 3600);
	same_queue(&t, &r1);
	cr_assert_eq(prio_top_advance(&t, now + 1800, &err), 0, "%s", msg());
	ref_build(&r2, NULL, 0, now + 1800);
	same_queue(&t, &r2);
	cr_assert_eq(t.now, now + 1800);
	for (uint32_t i = 0; i < t.snap->assoc_count; i++)
		cr_assert_eq(t.snap->assocs[i].usage_raw,
			     r2.snap->assocs[i].usage_raw, "assoc %u", i);
	ref_free(&r1);
	ref_free(&r2);
	prio_top_free(&t);
}

/* An assignment made after linking (the w key) gives what --set gives. */
static void what_if_equals_set(const char *assignment)
{
	struct prio_top t;
	struct ref r;
	const char *sets[] = {assignment};

	top_at(&t, NULL, 0, 0);
	cr_assert_eq(prio_top_set(&t, assignment, &err), 0, "%s: %s",
		     assignment, msg());
	ref_build(&r, sets, 1, 0);
	same_queue(&t, &r);
	cr_assert_eq(t.nedits, 1);
	cr_assert_str_eq(t.edits[0], assignment);
	ref_free(&r);
	prio_top_free(&t);
}

Test(top, what_if_after_linking_equals_set)
{
	static const char *const a[] = {
	    "PriorityWeightFairshare=0",
	    "PriorityWeightAge=90000",
	    "PriorityWeightTRES=CPU=5000",
	    "PriorityFlags=NO_FAIR_TREE",
	    "partition:short.PriorityJobFactor=1",
	    "partition:big.PriorityTier=1",
	    "partition:batch.TRESBillingWeights=CPU=4.0",
	    "qos:normal.Priority=400",
	    "assoc:chem.Fairshare=5",
	    "assoc:astro/alice.Fairshare=parent",
	    "assoc:hep/carol.RawUsage=0",
	    "job:36.Nice=-3000",
	    "job:36.Partition=batch,short",
	};

	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		what_if_equals_set(a[i]);
}

Test(top, what_if_tells_who_moved_as_compare_does)
{
	struct prio_top t;
	struct ref before, after;
	const char *sets[] = {"PriorityWeightFairshare=0"};
	uint32_t moved = 0;

	top_at(&t, NULL, 0, 0);
	cr_assert_eq(prio_top_set(&t, sets[0], &err), 0, "%s", msg());
	ref_build(&before, NULL, 0, 0);
	ref_build(&after, sets, 1, 0);
	for (uint32_t k = 0; k < t.njobs; k++) {
		const struct prio_top_job *j = &t.jobs[k];
		const struct prio_queue_entry *b =
		    prio_queue_find(&before.q, j->job, j->partition);

		cr_assert(b, "row %u was in the queue before", k);
		if (b->part_rank == j->part_rank) {
			cr_assert_eq(j->change, PRIO_TOP_SAME);
		} else {
			cr_assert_eq(j->change, PRIO_TOP_MOVED);
			cr_assert_eq(j->moved, (int32_t)b->part_rank -
						   (int32_t)j->part_rank);
			moved++;
		}
	}
	cr_assert_gt(moved, 0);
	cr_assert_eq(t.moved_count, moved);
	/* a clock tick keeps the marks; forgetting the edits drops them */
	cr_assert_eq(prio_top_advance(&t, t.now + 60, &err), 0, "%s", msg());
	cr_assert_eq(t.moved_count, moved);
	prio_top_clear_edits(&t);
	cr_assert_eq(t.moved_count, 0);
	cr_assert_eq(t.nedits, 0);
	for (uint32_t k = 0; k < t.njobs; k++)
		cr_assert_eq(t.jobs[k].change, PRIO_TOP_SAME);
	ref_free(&before);
	ref_free(&after);
	prio_top_free(&t);
}

Test(top, a_refused_what_if_changes_nothing)
{
	struct prio_top t;
	struct ref r;

	top_at(&t, NULL, 0, 0);
	cr_assert_eq(prio_top_advance(&t, t.snap->now + 600, &err), 0);
	cr_assert_lt(prio_top_set(&t, "PriorityWeightAge=lots", &err), 0);
	cr_assert_str_eq(err.field, "PriorityWeightAge");
	cr_assert_lt(prio_top_set(&t, "assoc:nosuch.Fairshare=3", &err), 0);
	cr_assert_lt(prio_top_set(&t, "qos:normal.Colour=blue", &err), 0);
	cr_assert_eq(t.nedits, 0);
	cr_assert(!prio_top_needs_reload(&t));
	ref_build(&r, NULL, 0, t.snap->now + 600);
	same_queue(&t, &r);
	for (uint32_t i = 0; i < t.snap->assoc_count; i++)
		cr_assert_eq(t.snap->assocs[i].usage_raw,
			     r.snap->assocs[i].usage_raw);
	ref_free(&r);
	prio_top_free(&t);
}

Test(top, sort_by_any_column_ties_in_scheduling_order)
{
	struct prio_top t;

	top_at(&t, NULL, 0, 0);
	prio_top_sort(&t, PRIO_TOP_COL_USER, false);
	cr_assert_eq(t.nview, t.njobs);
	for (uint32_t k = 1; k < t.nview; k++) {
		int c = strcmp(job_user(&t, t.view[k - 1]),
			       job_user(&t, t.view[k]));

		cr_assert_leq(c, 0);
		if (c == 0)
			cr_assert_lt(t.jobs[t.view[k - 1]].rank,
				     t.jobs[t.view[k]].rank);
	}
	prio_top_sort(&t, PRIO_TOP_COL_PRIORITY, true);
	for (uint32_t k = 1; k < t.nview; k++)
		cr_assert_geq(t.jobs[t.view[k - 1]].priority,
			      t.jobs[t.view[k]].priority);
	prio_top_sort(&t, PRIO_TOP_COL_JOB, false);
	for (uint32_t k = 1; k < t.nview; k++)
		cr_assert_leq(job_id(&t, t.view[k - 1]), job_id(&t, t.view[k]));
	prio_top_sort(&t, PRIO_TOP_COL_RANK, true);
	cr_assert_eq(t.jobs[t.view[0]].rank, t.njobs);
	prio_top_sort(&t, PRIO_TOP_COL_RANK, false);
	for (uint32_t k = 0; k < t.nview; k++)
		cr_assert_eq(t.view[k], k);
	enum prio_top_col c;
	cr_assert_eq(prio_top_col_parse("Priority", &c), 0);
	cr_assert_eq(c, PRIO_TOP_COL_PRIORITY);
	cr_assert_lt(prio_top_col_parse("colour", &c), 0);
	prio_top_free(&t);
}

Test(top, filters_keep_matching_rows_through_sorts)
{
	struct prio_top t;
	struct prio_top_filter f = {.user = "frank"};
	uint32_t frank = 0;

	top_at(&t, NULL, 0, 0);
	for (uint32_t k = 0; k < t.njobs; k++)
		frank += !strcmp(job_user(&t, k), "frank");
	cr_assert_gt(frank, 1);
	cr_assert_eq(prio_top_set_filter(&t, &f), 0);
	cr_assert_eq(t.nview, frank);
	prio_top_sort(&t, PRIO_TOP_COL_PRIORITY, false);
	cr_assert_eq(t.nview, frank);
	for (uint32_t k = 0; k < t.nview; k++)
		cr_assert_str_eq(job_user(&t, t.view[k]), "frank");
	cr_assert_eq(prio_top_set_filter(
			 &t, &(struct prio_top_filter){.user = "nobody"}),
		     0);
	cr_assert_eq(t.nview, 0);
	cr_assert_eq(prio_top_set_filter(
			 &t, &(struct prio_top_filter){.account = "GENOMICS",
						       .partition = "short"}),
		     0);
	for (uint32_t k = 0; k < t.nview; k++) {
		const struct prio_top_job *j = &t.jobs[t.view[k]];

		cr_assert_str_eq(
		    prio_snapshot_str(t.snap, t.snap->jobs[j->job].account),
		    "genomics");
		cr_assert_str_eq(
		    prio_snapshot_str(t.snap,
				      t.snap->partitions[j->partition].name),
		    "short");
	}
	cr_assert_gt(t.nview, 0);
	cr_assert_eq(
	    prio_top_set_filter(&t, &(struct prio_top_filter){.text = "HEP"}),
	    0);
	cr_assert_gt(t.nview, 0);
	for (uint32_t k = 0; k < t.nview; k++)
		cr_assert(prio_top_row_matches(&t, t.view[k], "hep"));
	/* job 30 is frank's, of orgchem: nothing in it says hep */
	cr_assert_eq(prio_top_find_job(&t, 30, PRIO_NO_VAL), UINT32_MAX);
	prio_top_free(&t);
}

Test(top, tree_in_sshare_order_folds)
{
	struct prio_top t;
	struct prio_sshare_filter all = {.all_users = true};
	struct prio_sshare_rows rows;
	uint32_t assoc, k = 0;
	unsigned indent;

	top_at(&t, NULL, 0, 0);
	cr_assert_eq(t.nnodes, t.snap->assoc_count);
	cr_assert_eq(prio_sshare_rows_init(&rows, t.snap, &all, &err), 0);
	while (prio_sshare_rows_next(&rows, &assoc, &indent))
		cr_assert_eq(t.nodes[k++].assoc, assoc, "line %u", k);
	prio_sshare_rows_free(&rows);
	cr_assert_eq(k, t.nnodes);
	cr_assert_eq(t.ntree_view, t.nnodes);

	/* physics is root's last child: its lines draw no bar at depth 1 */
	uint32_t physics = prio_snapshot_assoc(
	    t.snap, prio_intern_find(&t.snap->strings, "physics", 7),
	    PRIO_NO_ID, PRIO_NO_ID);
	uint32_t at = prio_top_tree_find(&t, physics), below = 0;
	cr_assert_neq(at, UINT32_MAX);
	cr_assert(t.nodes[t.tree_view[at]].last_mask & 2);
	for (uint32_t i = at + 1;
	     i < t.nnodes && t.nodes[i].depth > t.nodes[at].depth; i++)
		below++;
	cr_assert_gt(below, 3);
	prio_top_tree_collapse(&t, physics, true);
	cr_assert_eq(t.ntree_view, t.nnodes - below);
	cr_assert_eq(prio_top_tree_find(&t, physics), at);
	prio_top_tree_expand_all(&t);
	cr_assert_eq(t.ntree_view, t.nnodes);
	prio_top_free(&t);
}

Test(top, a_reload_keeps_edits_sort_filter_and_folds)
{
	struct prio_top t;
	struct ref r;
	const char *sets[] = {"PriorityWeightFairshare=0"};

	uint32_t moved;

	top_at(&t, NULL, 0, 0);
	cr_assert_eq(prio_top_set(&t, sets[0], &err), 0, "%s", msg());
	moved = t.moved_count;
	cr_assert_gt(moved, 0);
	prio_top_sort(&t, PRIO_TOP_COL_USER, true);
	cr_assert_eq(prio_top_set_filter(
			 &t, &(struct prio_top_filter){.partition = "batch"}),
		     0);
	prio_top_tree_collapse(&t, 0, true);
	cr_assert_eq(t.ntree_view, 1);
	cr_assert_eq(prio_top_replace(&t, load(NULL, 0), 0, &err), 0, "%s",
		     msg());
	cr_assert_eq(t.nedits, 1);
	/* the new data against itself without the edit: the same moves */
	cr_assert_eq(t.moved_count, moved);
	cr_assert_eq(t.sort, PRIO_TOP_COL_USER);
	cr_assert(t.desc);
	cr_assert_str_eq(t.filter.partition, "batch");
	cr_assert_eq(t.ntree_view, 1);
	ref_build(&r, sets, 1, 0);
	prio_top_sort(&t, PRIO_TOP_COL_RANK, false);
	prio_top_set_filter(&t, &(struct prio_top_filter){0});
	same_queue(&t, &r);
	ref_free(&r);
	prio_top_free(&t);
}

Test(top, detail_texts_are_the_commands)
{
	struct prio_top t;
	char *text;

	top_at(&t, NULL, 0, 0);
	text = prio_top_explain(&t, 36, &err);
	cr_assert(text, "%s", msg());
	cr_assert(strstr(text, "Job 36 (user oscar, account genomics"), "%s",
		  text);
	cr_assert(strstr(text, "2. Priority "));
	free(text);
	cr_assert_null(prio_top_explain(&t, 999999, &err));
	for (uint32_t i = 0; i < t.snap->assoc_count; i++) {
		const struct prio_assoc *a = &t.snap->assocs[i];

		if (!a->is_user ||
		    strcmp(prio_snapshot_str(t.snap, a->user), "ivan"))
			continue;
		text = prio_top_why(&t, i, false, &err);
		cr_assert(text, "%s", msg());
		cr_assert(strstr(text, "ivan"), "%s", text);
		free(text);
	}
	prio_top_free(&t);
}
