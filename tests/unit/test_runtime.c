/* SPDX-License-Identifier: MIT */
/* Users' Elapsed / Timelimit from sacct (--forecast-ends history). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "prio/runtime.h"
#include "testutil.h"

static void load(struct prio_snapshot *snap, const char *text)
{
	struct prio_source src;
	struct prio_error err;
	char msg[1024];

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	prio_error_clear(&err);
	test_source(&src, "sacct.txt", text);
	cr_assert_eq(prio_load_sacct(snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

static prio_id user(struct prio_snapshot *snap, const char *name)
{
	return prio_intern_find(&snap->strings, name, strlen(name));
}

#define HDR "JobID|User|State|Start|End|ElapsedRaw|TimelimitRaw\n"
#define T0 "2026-11-20T00:00:00"
#define T1 "2026-11-20T01:00:00"

/* ann: 3 jobs (0.5, 0.25, 1 capped from a TIMEOUT over its limit) -> odd
 * median 0.5; bob: 4 (0.1 0.2 0.4 0.6) -> even median 0.3; cid: 2 jobs,
 * fewer than 3 -> the cluster's median over all 9 counted jobs.  Not
 * counted: a step, a PREEMPTED job, one never started, an UNLIMITED
 * limit, a running job. */
static const char history[] = HDR
    "1|ann|COMPLETED|" T0 "|" T1 "|1800|60\n"
    "1.batch|ann|COMPLETED|" T0 "|" T1 "|10|60\n"
    "2|ann|COMPLETED|" T0 "|" T1 "|900|60\n"
    "3|ann|TIMEOUT|" T0 "|" T1 "|3700|60\n"
    "4|ann|PREEMPTED|" T0 "|" T1 "|60|60\n"
    "5|bob|COMPLETED|" T0 "|" T1 "|360|60\n"
    "6|bob|FAILED|" T0 "|" T1 "|720|60\n"
    "7|bob|CANCELLED by 1001|" T0 "|" T1 "|1440|60\n"
    "8|bob|COMPLETED|" T0 "|" T1 "|2160|60\n"
    "9|bob|CANCELLED by 1001|None|" T1 "|0|60\n"
    "10|cid|COMPLETED|" T0 "|" T1 "|3600|120\n"
    "11|cid|COMPLETED|" T0 "|" T1 "|600|UNLIMITED\n"
    "12|cid|OUT_OF_MEMORY|" T0 "|" T1 "|720|120\n"
    "13|cid|RUNNING|" T0 "|Unknown|100|60\n";

Test(runtime, medians_per_user_and_cluster)
{
	struct prio_snapshot snap;
	struct prio_runtime_history h;
	struct prio_error err;
	enum prio_runtime_source src;

	load(&snap, history);
	prio_error_clear(&err);
	cr_assert_eq(prio_runtime_history_build(&snap, 3, &h, &err), 0);
	/* ann 0.25 0.5 1 */
	cr_assert_float_eq(prio_runtime_ratio(&h, user(&snap, "ann"), &src),
			   0.5, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_USER);
	cr_assert_eq(h.by_user[user(&snap, "ann")].jobs, 3);
	/* bob 0.1 0.2 0.4 0.6 */
	cr_assert_float_eq(prio_runtime_ratio(&h, user(&snap, "bob"), &src),
			   0.3, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_USER);
	/* all: 0.1 0.1 0.2 0.25 0.4 0.5 0.5 0.6 1 -> 0.4 */
	cr_assert_eq(h.cluster_jobs, 9);
	cr_assert_float_eq(prio_runtime_ratio(&h, user(&snap, "cid"), &src),
			   0.4, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_CLUSTER);
	/* a user with no history at all */
	cr_assert_float_eq(prio_runtime_ratio(&h, PRIO_NO_ID, &src), 0.4,
			   1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_CLUSTER);
	prio_runtime_history_free(&h);
	prio_snapshot_free(&snap);
}

Test(runtime, too_little_history_means_the_limit)
{
	struct prio_snapshot snap;
	struct prio_runtime_history h;
	struct prio_error err;
	enum prio_runtime_source src;

	load(&snap, HDR "1|ann|COMPLETED|" T0 "|" T1 "|600|60\n"
			"2|ann|COMPLETED|" T0 "|" T1 "|1200|60\n");
	prio_error_clear(&err);
	cr_assert_eq(prio_runtime_history_build(&snap, 3, &h, &err), 0);
	cr_assert_eq(h.cluster_jobs, 2);
	cr_assert_float_eq(prio_runtime_ratio(&h, user(&snap, "ann"), &src),
			   1.0, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_LIMIT);
	prio_runtime_history_free(&h);
	/* with a threshold of 2 the same two jobs make ann's median */
	cr_assert_eq(prio_runtime_history_build(&snap, 2, &h, &err), 0);
	cr_assert_float_eq(prio_runtime_ratio(&h, user(&snap, "ann"), &src),
			   0.25, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_USER);
	prio_runtime_history_free(&h);
	prio_snapshot_free(&snap);
}

Test(runtime, empty_history)
{
	struct prio_snapshot snap;
	struct prio_runtime_history h;
	struct prio_error err;
	enum prio_runtime_source src;

	load(&snap, HDR);
	prio_error_clear(&err);
	cr_assert_eq(prio_runtime_history_build(&snap, 3, &h, &err), 0);
	cr_assert_eq(h.cluster_jobs, 0);
	cr_assert_float_eq(prio_runtime_ratio(&h, 1, &src), 1.0, 1e-12);
	cr_assert_eq(src, PRIO_RUNTIME_LIMIT);
	prio_runtime_history_free(&h);
	prio_snapshot_free(&snap);
}
