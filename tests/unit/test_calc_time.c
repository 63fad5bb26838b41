/* SPDX-License-Identifier: MIT */
/*
 * Slurm's last priority calculation found from the stored priorities
 * (prio/calc_time.h), on samples/site: the fairtree-basic capture of a real
 * Slurm 22.05 cluster, NOW 2026-11-22T03:55:30, whose slurmctld.log
 * (DebugFlags=Priority, tests/oracle/fairtree-basic) logged its last
 * calculation before the capture at 2026-11-22T03:55:13 (1795319713).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "prio/calc_time.h"
#include "testutil.h"

static struct prio_snapshot snap;

static void load_site(void)
{
	struct prio_error err;
	const char *paths[PRIO_ROLE_COUNT] = {NULL};

	setenv("TZ", "UTC", 1);
	prio_snapshot_init(&snap);
	/* the folder as prio-calc --snapshot reads it, NOW file included */
	cr_assert_eq(prio_snapshot_load_sources(
			 &snap, test_path("samples/site"), paths, &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", err.message);
	cr_assert_eq(snap.now, 1795319730);
}

static void unload_site(void)
{
	prio_snapshot_free(&snap);
}

TestSuite(calc_time, .init = load_site, .fini = unload_site);

Test(calc_time, finds_the_logged_calculation)
{
	struct prio_calc_time ct;
	struct prio_error err;
	char buf[512];

	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_assert_eq(ct.status, PRIO_CALC_TIME_FOUND, "%s",
		     prio_calc_time_describe(&ct, buf, sizeof(buf)));
	cr_expect_eq(ct.at, 1795319713, "found %lld",
		     (long long)ct.at);
	/* one second only: the ages of 19 jobs at 1000 points per 20 min
	 * pin it */
	cr_expect_eq(ct.first, ct.last);
	/* 20 pending jobs, one held (priority 0) left out; all agree */
	cr_expect_eq(ct.jobs, 19);
	cr_expect_eq(ct.agree, 19);
	cr_expect_eq(ct.ndisagree, 0);
	/* PriorityCalcPeriod=1 (minute): the minute and 30 s before NOW, 5
	 * s after */
	cr_expect_eq(ct.from, 1795319730 - 60 - 30);
	cr_expect_eq(ct.to, 1795319730 + 5);
	prio_calc_time_free(&ct);
}

/* A job whose stored priority the data cannot explain (as one an
 * administrator set) is listed; the instant still stands. */
Test(calc_time, a_job_set_by_hand_disagrees)
{
	struct prio_calc_time ct;
	struct prio_error err;
	struct prio_job *job = NULL;

	for (uint32_t i = 0; i < snap.job_count; i++)
		if (snap.jobs[i].job_id == 35)
			job = &snap.jobs[i];
	cr_assert_not_null(job);
	/* sprio showed 3358 for job 35 at the calculation */
	cr_assert_eq(job->priority, 3358);
	job->priority = 100000;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.at, 1795319713);
	cr_expect_eq(ct.agree, 18);
	cr_assert_eq(ct.ndisagree, 1);
	cr_expect_eq(snap.jobs[ct.disagree[0].job].job_id, 35);
	cr_expect_eq(ct.disagree[0].stored, 100000);
	cr_expect_eq(ct.disagree[0].ours, 3358);
	prio_calc_time_free(&ct);
}

/* Priorities no instant explains (a weight changed since): not found, the
 * clock stays NOW. */
Test(calc_time, a_changed_weight_matches_no_instant)
{
	struct prio_calc_time ct;
	struct prio_error err;

	snap.conf.weight_fairshare = 20000;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_NO_MATCH);
	cr_expect_eq(ct.at, 1795319730);
	prio_calc_time_free(&ct);
}

/* Held jobs only: nothing to compare. */
Test(calc_time, no_pending_job_with_a_priority)
{
	struct prio_calc_time ct;
	struct prio_error err;

	for (uint32_t i = 0; i < snap.job_count; i++)
		snap.jobs[i].priority = 0;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_NO_JOBS);
	cr_expect_eq(ct.jobs, 0);
	cr_expect_eq(ct.at, 1795319730);
	prio_calc_time_free(&ct);
}

/* Some jobs computed by Slurm a few seconds after its pass (issue 14: a
 * tenth of a large queue, AGE 2 points on): listed, the instant stands. */
Test(calc_time, jobs_computed_outside_the_pass_disagree)
{
	struct prio_calc_time ct;
	struct prio_error err;
	uint32_t bumped = 0;

	for (uint32_t i = 0; i < snap.job_count; i++) {
		struct prio_job *j = &snap.jobs[i];

		if (j->job_id >= 25 && j->job_id <= 27) {
			j->priority += 2;
			bumped++;
		}
	}
	cr_assert_eq(bumped, 3);
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.at, 1795319713);
	cr_expect_eq(ct.agree, 16);
	cr_expect_eq(ct.ndisagree, 3);
	prio_calc_time_free(&ct);
}

/* Every stored priority 7 points up: the aging jobs would fit 8 s later,
 * but the jobs whose priority does not move with the clock (dependent,
 * not accruing) disagree everywhere: not Slurm's clock. */
Test(calc_time, a_common_offset_is_not_a_clock)
{
	struct prio_calc_time ct;
	struct prio_error err;

	for (uint32_t i = 0; i < snap.job_count; i++)
		if (snap.jobs[i].priority)
			snap.jobs[i].priority += 7;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_NO_MATCH);
	cr_expect_gt(ct.fixed, 1);
	cr_expect_eq(ct.fixed_agree, 0);
	cr_expect_eq(ct.at, 1795319730);
	prio_calc_time_free(&ct);
}

/* INCR_ONLY: Slurm keeps a stored priority unless the new one is larger,
 * so a value only bounds the clock from above; with every job's value
 * from the same pass the last second where none exceeds it is the pass
 * (seconds before it fit as well, and lie in the same run). */
Test(calc_time, incr_only_bounds_from_above)
{
	struct prio_calc_time ct;
	struct prio_error err;

	snap.conf.priority_flags |= PRIO_FLAG_INCR_ONLY;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.at, 1795319713, "found %lld", (long long)ct.at);
	cr_expect_eq(ct.first, 1795319730 - 60 - 30);
	cr_expect_eq(ct.agree, 19);
	prio_calc_time_free(&ct);
}

/* The forecast's first calculation after NOW from what was found: a
 * second pinned gives one period after it; a range the middle of its part
 * within the last period, plus a period; no pin, or a range as long as the
 * period, half a period after NOW. */
Test(calc_time, next_calculation_from_what_was_found)
{
	struct prio_calc_time ct = {.status = PRIO_CALC_TIME_FOUND};
	time_t now = 1000000;

	ct.first = ct.last = now - 20;
	cr_assert_eq(prio_calc_time_next(&ct, now, 60), now + 40);
	/* 79 seconds fit, [now-91, now-12]: within the last period
	 * [now-60, now-12], middle now-36, next now+24 */
	ct.first = now - 91;
	ct.last = now - 12;
	cr_assert_eq(prio_calc_time_next(&ct, now, 60), now + 24);
	/* [now-70, now-5] is [now-60, now-5] within the last period:
	 * middle now-33, next now+27 */
	ct.first = now - 70;
	ct.last = now - 5;
	cr_assert_eq(prio_calc_time_next(&ct, now, 60), now + 27);
	/* a range spanning a period: the phase is unknown */
	ct.first = now - 59;
	ct.last = now;
	cr_assert_eq(prio_calc_time_next(&ct, now, 60), now + 30);
	/* a calculation found a few seconds after NOW (the capture read the
	 * clock first): the next is a period after it */
	ct.first = ct.last = now + 3;
	cr_assert_eq(prio_calc_time_next(&ct, now, 300), now + 303);
	ct.status = PRIO_CALC_TIME_ANY;
	cr_assert_eq(prio_calc_time_next(&ct, now, 300), now + 150);
	ct.status = PRIO_CALC_TIME_NO_MATCH;
	cr_assert_eq(prio_calc_time_next(&ct, now, 300), now + 150);
	/* no periodic calculation */
	cr_assert_eq(prio_calc_time_next(&ct, now, 0), 0);
}

/* slurmctld's record of its last cycle (priority_last_decay_ran), against
 * the logged calculation at 1795319713 that the priorities pin. */
Test(calc_time, the_record_agreeing_is_taken)
{
	struct prio_calc_time ct;
	struct prio_error err;
	char buf[512];

	snap.last_decay_ran = 1795319713;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_USED);
	cr_expect_eq(ct.at, 1795319713);
	cr_expect_eq(ct.first, ct.last);
	cr_expect_eq(ct.agree, 19);
	cr_expect_str_eq(prio_calc_time_describe(&ct, buf, sizeof(buf)),
			 "2026-11-22T03:55:13 (1795319713), slurmctld's record "
			 "of it (priority_last_decay_ran), where 19 of 19 "
			 "pending jobs' stored priorities agree");
	prio_calc_time_free(&ct);
}

/* A record from before NOW that the stored priorities do not fit (ten
 * seconds off, ages of 19 jobs moved) is still the last cycle: taken, and
 * the instant the priorities pin is named.  One after NOW (a cycle that
 * ran while the snapshot was read) is newer than the priorities: it stands
 * aside and the search's instant stays. */
Test(calc_time, a_record_before_now_is_taken_where_the_priorities_pin_another)
{
	struct prio_calc_time ct;
	struct prio_error err;
	char buf[512];

	snap.last_decay_ran = 1795319703;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_USED);
	cr_expect(ct.unfit);
	cr_expect_eq(ct.fit_at, 1795319713);
	cr_expect_eq(ct.at, 1795319703);
	prio_calc_time_describe(&ct, buf, sizeof(buf));
	cr_expect(strstr(buf, "2026-11-22T03:55:03 (1795319703), slurmctld's "
			      "record of it (priority_last_decay_ran), where ") ==
		      buf,
		  "%s", buf);
	cr_expect(strstr(buf, "(more agree with ours at 2026-11-22T03:55:13)") !=
		      NULL,
		  "%s", buf);
	prio_calc_time_free(&ct);

	snap.last_decay_ran = 1795319733; /* NOW + 3 */
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_DISAGREES);
	cr_expect_eq(ct.at, 1795319713);
	prio_calc_time_describe(&ct, buf, sizeof(buf));
	cr_expect(strstr(buf, "; slurmctld's record (priority_last_decay_ran) "
			      "says 2026-11-22T03:55:33, where the stored "
			      "priorities do not fit") != NULL, "%s", buf);
	prio_calc_time_free(&ct);
}

/* A stale record (an hour before NOW: the cycle stopped, or another
 * cluster's file) is outside the window and not taken. */
Test(calc_time, a_stale_record_is_outside)
{
	struct prio_calc_time ct;
	struct prio_error err;

	char buf[512];

	snap.last_decay_ran = 1795319730 - 3600;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_OUTSIDE);
	cr_expect_eq(ct.at, 1795319713);
	prio_calc_time_describe(&ct, buf, sizeof(buf));
	cr_expect(strstr(buf, "says 2026-11-22T02:55:30, before the window "
			      "searched (a stale file?)") != NULL, "%s", buf);
	/* and one after NOW beyond the slack: a cycle that ran while the
	 * snapshot was read */
	snap.last_decay_ran = 1795319730 + 6;
	prio_calc_time_free(&ct);
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_OUTSIDE);
	prio_calc_time_describe(&ct, buf, sizeof(buf));
	cr_expect(strstr(buf, "says 2026-11-22T03:55:36, after the window "
			      "searched (a calculation that ran while the "
			      "snapshot was read?)") != NULL, "%s", buf);
	prio_calc_time_free(&ct);
}

/* Where no pending job has a stored priority the record alone gives the
 * instant (where nothing moves with the clock, PriorityWeightAge=0, the
 * priorities agree everywhere and it does the same: the cli test
 * forecast-decay-record on a live 22.05 capture). */
Test(calc_time, the_record_pins_what_the_priorities_cannot)
{
	struct prio_calc_time ct;
	struct prio_error err;
	char buf[512];

	for (uint32_t i = 0; i < snap.job_count; i++)
		snap.jobs[i].priority = 0;
	snap.last_decay_ran = 1795319700;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_USED);
	cr_expect_eq(ct.at, 1795319700);
	cr_expect_eq(ct.jobs, 0);
	cr_expect_str_eq(prio_calc_time_describe(&ct, buf, sizeof(buf)),
			 "2026-11-22T03:55:00 (1795319700), slurmctld's record "
			 "of it (priority_last_decay_ran); no pending job's "
			 "stored priority to check it against");
	/* the next calculation a period after it */
	cr_expect_eq(prio_calc_time_next(&ct, snap.now, 60), 1795319760);
	prio_calc_time_free(&ct);
}

/* Stored priorities that fit no instant (our fairshare off: here a weight
 * changed) refute nothing: a record from before NOW is the clock, said to
 * be unfit; one after NOW, of a cycle that ran while the snapshot was
 * read, is newer than the priorities and stays aside. */
Test(calc_time, a_record_before_now_is_taken_where_no_instant_fits)
{
	struct prio_calc_time ct;
	struct prio_error err;
	char buf[512];

	snap.conf.weight_fairshare = 20000;
	snap.last_decay_ran = 1795319713;
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_FOUND);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_USED);
	cr_expect(ct.unfit);
	cr_expect_eq(ct.fit_at, 0);
	cr_expect_eq(ct.at, 1795319713);
	cr_expect_eq(ct.first, ct.last);
	cr_expect_lt(ct.agree * 2, ct.jobs);
	prio_calc_time_describe(&ct, buf, sizeof(buf));
	cr_expect(strstr(buf, "2026-11-22T03:55:13 (1795319713), slurmctld's "
			      "record of it (priority_last_decay_ran), where ") ==
		      buf,
		  "%s", buf);
	cr_expect(strstr(buf, "(at no instant do more than half agree with "
			      "ours)") != NULL,
		  "%s", buf);
	prio_calc_time_free(&ct);

	snap.last_decay_ran = 1795319733; /* NOW + 3 */
	cr_assert_eq(prio_calc_time_find_snapshot(&snap, &ct, &err), 0);
	cr_expect_eq(ct.status, PRIO_CALC_TIME_NO_MATCH);
	cr_expect_eq(ct.record, PRIO_CALC_RECORD_DISAGREES);
	cr_expect_not(ct.unfit);
	cr_expect_eq(ct.at, 1795319730);
	prio_calc_time_free(&ct);
}
