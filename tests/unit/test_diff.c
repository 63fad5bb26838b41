/* SPDX-License-Identifier: MIT */
/* prio-diff's comparison (diff.c): a snapshot against itself has no
 * difference and --all lists unchanged values as unchanged; a job of the
 * same id but another submit time is another job; the section words. */
#include <criterion/criterion.h>
#include <string.h>

#include "testutil.h"

static void load_site(struct prio_snapshot *snap)
{
	const char *paths[PRIO_ROLE_COUNT] = {0};
	struct prio_error err;

	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(snap, test_path("samples/site"),
						paths, &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s", err.message);
}

Test(diff, section_words)
{
	cr_assert_eq(prio_diff_section_parse("ranks", 5), PRIO_DIFF_RANKS);
	cr_assert_eq(prio_diff_section_parse("CONFIG", 6), PRIO_DIFF_CONFIG);
	cr_assert_eq(prio_diff_section_parse("rank", 4), -1);
	cr_assert_str_eq(prio_diff_section_name(PRIO_DIFF_ASSOC), "assoc");
}

Test(diff, same_snapshot_no_difference)
{
	struct prio_snapshot a, b;
	struct prio_diff d;
	struct prio_error err;
	struct prio_diff_options o = {0};
	bool weight = false;

	load_site(&a);
	load_site(&b);
	cr_assert_eq(prio_diff_same_cluster(&a, &b, &err), 0);
	cr_assert_eq(prio_diff_compute(&a, &b, &o, &d, &err), 0, "%s",
		     err.message);
	cr_assert_eq(d.count, 0);
	cr_assert_eq(d.changed, 0);
	prio_diff_free(&d);
	/* --all: every setting, association value and pending job, none
	 * changed; samples/site's PriorityWeightAge=1000 among them */
	o.all = true;
	cr_assert_eq(prio_diff_compute(&a, &b, &o, &d, &err), 0);
	cr_assert_gt(d.count, 0);
	cr_assert_eq(d.changed, 0);
	for (uint32_t i = 0; i < d.count; i++) {
		const struct prio_diff_change *c = &d.v[i];

		cr_assert(!c->changed);
		if (c->key && !strcmp(c->key, "PriorityWeightAge")) {
			cr_assert_str_eq(c->old_text, "1000");
			cr_assert_str_eq(c->new_text, "1000");
			weight = true;
		}
		if (c->section == PRIO_DIFF_RANKS)
			cr_assert_eq(c->old_rank, c->new_rank);
	}
	cr_assert(weight);
	prio_diff_free(&d);
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
}

/* A controller started afresh gives job 25's id to another job: it ended,
 * the other was submitted, and neither has a rank move. */
Test(diff, same_id_other_submit_time)
{
	struct prio_snapshot a, b;
	struct prio_diff d;
	struct prio_error err;
	struct prio_diff_options o = {.sections = 1u << PRIO_DIFF_JOBS |
						  1u << PRIO_DIFF_RANKS};
	struct prio_job *j;
	bool ended = false, submitted = false;

	load_site(&a);
	load_site(&b);
	j = (struct prio_job *)prio_snapshot_find_job(&b, 25);
	cr_assert_not_null(j);
	j->submit_time += 3600;
	cr_assert_eq(prio_diff_compute(&a, &b, &o, &d, &err), 0);
	for (uint32_t i = 0; i < d.count; i++) {
		const struct prio_diff_change *c = &d.v[i];

		cr_assert_eq(c->job_id, 25, "job %u moved too", c->job_id);
		if (c->section == PRIO_DIFF_JOBS) {
			ended = ended || !strcmp(c->change, "ended");
			submitted = submitted || !strcmp(c->change, "submitted");
		}
	}
	cr_assert(ended && submitted);
	prio_diff_free(&d);
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
}
