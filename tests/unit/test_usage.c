/* SPDX-License-Identifier: MIT */
/*
 * Usage over time (prio/usage.h) against an independent, cycle-by-cycle
 * simulation of slurm-facts §4: every PriorityCalcPeriod all usage decays
 * by d^Δ, then each running job adds Δ·d^Δ·billing; a job that ends adds
 * the part since the last cycle at once.  Also the reset periods, the
 * billing a record carries, Slurm's previous cycle, TRESRunMins.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "prio/usage.h"
#include "testutil.h"

#define T0 1795319730L /* 2026-11-22T03:55:30Z, the samples' clock */

static const char conf_text[] =
    "ClusterName=t\n"
    "PriorityType=priority/multifactor\n"
    "PriorityDecayHalfLife=00:10:00\n"
    "PriorityCalcPeriod=1\n"
    "AccountingStorageType=accounting_storage/slurmdbd\n"
    "AccountingStorageEnforce=associations,limits\n"
    "AccountingStorageTRES=cpu,mem,node,billing\n"
    "NodeName=n[1-2] CPUs=8 RealMemory=16000\n"
    "PartitionName=p Nodes=n[1-2] TRESBillingWeights=CPU=1.0,Mem=0.25G\n";

static const char tree_text[] = "Account|User|RawShares|RawUsage\n"
				"root|||0\n"
				" a||1|0\n"
				"  a|u1|1|0\n"
				"  a|u2|1|0\n";

static const char sacct_head[] = "JobID|JobIDRaw|User|Account|Partition|QOS|"
				 "Submit|Eligible|Start|End|ElapsedRaw|"
				 "State|AllocTRES|TimelimitRaw\n";

static void load(struct prio_snapshot *s, const char *sacct, const char *jobs,
		 const char *extra)
{
	struct prio_source src;
	struct prio_error err;
	char conf[2048];

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(conf, sizeof(conf), "%s%s", conf_text, extra ? extra : "");
	cr_assert_eq(prio_snapshot_init(s), 0);
	test_source(&src, "slurm.conf", conf);
	cr_assert_eq(prio_load_slurmconf_source(s, &src, &err), 0, "%s",
		     err.message);
	test_source(&src, "sshare.txt", tree_text);
	cr_assert_eq(prio_load_sshare(s, &src, &err), 0, "%s", err.message);
	if (sacct) {
		test_source(&src, "sacct.txt", sacct);
		cr_assert_eq(prio_load_sacct(s, &src, &err), 0, "%s",
			     err.message);
	}
	if (jobs) {
		test_source(&src, "jobs.txt", jobs);
		cr_assert_eq(prio_load_jobs_scontrol(s, &src, &err), 0, "%s",
			     err.message);
	}
	cr_assert_eq(prio_snapshot_finish(s, &err), 0, "%s", err.message);
	s->now = T0;
	s->now_known = true;
}

static const char *stamp(time_t t, char *buf)
{
	return prio_timestamp_format(t, buf, 32);
}

/* An sacct file with one job of user u1 in partition p. */
static char *one_job(time_t start, time_t end, const char *tres)
{
	static char buf[1024];
	char s[32], e[32];

	snprintf(
	    buf, sizeof(buf), "%s1|1|u1|a|p|normal|%s|%s|%s|%s|%ld|%s|%s|600\n",
	    sacct_head, stamp(start, s), stamp(start, s), stamp(start, s),
	    end ? stamp(end, e) : "Unknown", (long)((end ? end : T0) - start),
	    end ? "COMPLETED" : "RUNNING", tres);
	return buf;
}

/* Slurm's cycles, one by one: usage of one job of billing b at `at`,
 * cycles every p seconds ending at `at`. */
static double simulate(time_t start, time_t end, time_t at, double b, long p,
		       double d)
{
	double u = 0;
	time_t prev =
	    at - ((at - start) / p + 1) * p; /* a cycle before the start */

	for (time_t c = prev + p; c <= at; c += p) {
		/* a job ending between the previous cycle and this one adds
		 * its last part at its end, before this cycle's decay */
		if (end && end > prev && end <= c && end > start) {
			double delta =
			    (double)(end - (start > prev ? start : prev));
			u += delta * pow(d, delta) * b;
		}
		u *= pow(d, (double)p);
		if (start < c && (!end || end > c)) {
			double delta =
			    (double)(c - (start > prev ? start : prev));
			u += delta * pow(d, delta) * b;
		}
		prev = c;
	}
	return u;
}

Test(usage, decay_factor)
{
	cr_assert_float_eq((double)prio_usage_decay_factor(600),
			   1 - 0.693 / 600, 1e-15);
	cr_assert_float_eq((double)prio_usage_decay_factor(0), 1.0, 0);
}

Test(usage, replay_matches_a_cycle_by_cycle_simulation)
{
	/* cpu=2, mem=3G: billing 2 + 3 * 0.25 = 2.75 (the record says 2). */
	static const struct {
		long start_ago,
		    end_ago; /* seconds before T0; end 0 = running */
	} cases[] = {
	    {60, 0},   /* one whole cycle: 60 d^60 b, as slurmctld.log shows */
	    {600, 0},  /* ten cycles */
	    {3725, 0}, /* starts between cycles */
	    {3725, 1234}, /* and ends between cycles */
	    {120, 30},	  /* short */
	    {50, 10},	  /* within one cycle */
	    {7200, 3600}, /* ended an hour ago */
	};
	double d = 1 - 0.693 / 600;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct prio_snapshot s;
		struct prio_error err;
		time_t start = T0 - cases[k].start_ago,
		       end = cases[k].end_ago ? T0 - cases[k].end_ago : 0;

		load(&s, one_job(start, end, "billing=2,cpu=2,mem=3G,node=1"),
		     NULL, NULL);
		cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0,
			     "%s", err.message);
		double want = simulate(start, end, T0, 2.75, 60, d);
		uint32_t u1 = prio_snapshot_assoc(
		    &s, prio_intern_find(&s.strings, "a", 1),
		    prio_intern_find(&s.strings, "u1", 2), PRIO_NO_ID);
		cr_assert_float_eq((double)s.assocs[u1].usage_raw, want,
				   want * 1e-12, "case %zu: %.9f, want %.9f", k,
				   (double)s.assocs[u1].usage_raw, want);
		/* charged up to root, not to the sibling */
		cr_assert_float_eq((double)s.assocs[0].usage_raw, want,
				   want * 1e-12);
		cr_assert_float_eq((double)s.assocs[u1 + 1].usage_raw, 0, 0);
		if (k == 0)
			cr_assert_float_eq(want, 60 * pow(d, 60) * 2.75, 1e-9);
		prio_snapshot_free(&s);
	}
}

Test(usage, record_billing_wins_when_it_disagrees)
{
	/* billing=9 cannot come from these weights (2.75): Slurm charged 9. */
	struct prio_snapshot s;
	struct prio_error err;
	double d = 1 - 0.693 / 600;
	load(&s, one_job(T0 - 60, 0, "billing=9,cpu=2,mem=3G,node=1"), NULL,
	     NULL);
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw, 60 * pow(d, 60) * 9,
			   1e-9);
	prio_snapshot_free(&s);
}

Test(usage, qos_usage_factor_scales)
{
	struct prio_snapshot s;
	struct prio_error err;
	struct prio_source src;
	double d = 1 - 0.693 / 600;
	load(&s, one_job(T0 - 60, 0, "billing=2,cpu=2,mem=3G,node=1"), NULL,
	     NULL);
	prio_snapshot_free(&s);
	/* the same with a QOS that counts double */
	setenv("TZ", "UTC", 1);
	prio_snapshot_init(&s);
	test_source(&src, "slurm.conf", conf_text);
	cr_assert_eq(prio_load_slurmconf_source(&s, &src, &err), 0);
	test_source(&src, "qos.txt",
		    "Name|Priority|UsageFactor\nnormal|0|2.000000\n");
	cr_assert_eq(prio_load_qos(&s, &src, &err), 0, "%s", err.message);
	test_source(&src, "sshare.txt", tree_text);
	cr_assert_eq(prio_load_sshare(&s, &src, &err), 0);
	test_source(&src, "sacct.txt",
		    one_job(T0 - 60, 0, "billing=2,cpu=2,mem=3G,node=1"));
	cr_assert_eq(prio_load_sacct(&s, &src, &err), 0);
	cr_assert_eq(prio_snapshot_finish(&s, &err), 0, "%s", err.message);
	s.now = T0;
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw,
			   2 * 60 * pow(d, 60) * 2.75, 1e-9);
	prio_snapshot_free(&s);
}

Test(usage, reset_boundaries)
{
	struct tm tm;
	time_t t = T0; /* Sunday 2026-11-22 03:55:30 UTC */
	gmtime_r(&t, &tm);
	cr_assert_eq(tm.tm_wday, 0);
	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_DAILY, T0),
		     T0 - (3 * 3600 + 55 * 60 + 30));
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_WEEKLY, T0),
		     T0 - (3 * 3600 + 55 * 60 + 30));
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_WEEKLY, T0 - 86400),
		     T0 - (3 * 3600 + 55 * 60 + 30) - 7 * 86400);
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_MONTHLY, T0),
		     1793491200); /* 11-01 */
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_QUARTERLY, T0),
		     1790812800); /* 10-01 */
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_YEARLY, T0),
		     1767225600); /* 01-01 */
	cr_assert_eq(prio_usage_last_reset(PRIO_RESET_NONE, T0), 0);

	/* DAILY: a job that ran yesterday leaves nothing; today's counts. */
	struct prio_snapshot s;
	struct prio_error err;
	load(&s,
	     one_job(T0 - 6 * 3600, T0 - 5 * 3600,
		     "billing=2,cpu=2,mem=3G,node=1"),
	     NULL, "PriorityUsageResetPeriod=DAILY\nPriorityDecayHalfLife=0\n");
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw, 0, 0);
	prio_snapshot_free(&s);
	load(&s, one_job(T0 - 3600, T0 - 1800, "billing=2,cpu=2,mem=3G,node=1"),
	     NULL, "PriorityUsageResetPeriod=DAILY\nPriorityDecayHalfLife=0\n");
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw, 1800 * 2.75,
			   1e-6); /* no decay */
	prio_snapshot_free(&s);
}

static const char running_job[] =
    "JobId=7 JobName=blk\n"
    "   UserId=u1(1001) GroupId=u1(1001) MCS_label=N/A\n"
    "   Priority=100 Nice=0 Account=a QOS=normal\n"
    "   JobState=RUNNING Reason=None Dependency=(null)\n"
    "   RunTime=01:00:00 TimeLimit=02:00:00 TimeMin=N/A\n"
    "   SubmitTime=2026-11-22T02:55:30 EligibleTime=2026-11-22T02:55:30\n"
    "   StartTime=2026-11-22T02:55:30 EndTime=2026-11-22T04:55:30 "
    "Deadline=N/A\n"
    "   Partition=p AllocNode:Sid=localhost:1\n"
    "   NodeList=n1\n"
    "   NumNodes=1 NumCPUs=4 NumTasks=4 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
    "   TRES=cpu=4,mem=6G,node=1,billing=5\n"
    "\n";

Test(usage, running_job_from_the_job_list_and_future)
{
	/* Started an hour before T0, time limit 2 h: at T0 + 30 min it has
	 * run 90 min; with no_run it stopped at T0. */
	struct prio_snapshot s;
	struct prio_error err;
	double d = 1 - 0.693 / 600, b = 4 + 6 * 0.25;
	time_t start = T0 - 3600, later = T0 + 1800;
	load(&s, sacct_head, running_job, NULL);
	cr_assert_eq(prio_usage_replay(&s, later, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw,
			   simulate(start, 0, later, b, 60, d), 1e-6);
	cr_assert_eq(prio_usage_replay(&s, later, true, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw,
			   simulate(start, T0, later, b, 60, d), 1e-6);
	/* advance from T0 (usage as replayed at T0) gives the same */
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_eq(prio_usage_advance(&s, later, false, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw,
			   simulate(start, 0, later, b, 60, d),
			   1e-6 * s.assocs[0].usage_raw);
	/* ... and past the time limit the job stops adding */
	cr_assert_eq(prio_usage_replay(&s, T0 + 7200, false, NULL, &err), 0);
	cr_assert_float_eq((double)s.assocs[0].usage_raw,
			   simulate(start, T0 + 3600, T0 + 7200, b, 60, d),
			   1e-6);
	/* advancing backwards needs a replay */
	cr_assert_eq(prio_usage_advance(&s, T0 - 60, false, &err),
		     PRIO_ERR_USAGE);
	prio_snapshot_free(&s);
}

Test(usage, previous_cycle_and_tres_run_mins)
{
	struct prio_snapshot s;
	struct prio_error err;
	double d = 1 - 0.693 / 600, b = 5.5, scale;
	long double prev[4], prev2[4];
	uint64_t *run;
	load(&s, sacct_head, running_job, NULL);
	cr_assert_eq(prio_usage_replay(&s, T0, false, NULL, &err), 0);
	cr_assert_eq(prio_usage_previous_cycle(&s, 0, 1, prev, &scale, &err), 0);
	cr_assert_float_eq(
	    (double)prev[0],
	    ((double)s.assocs[0].usage_raw - 60 * pow(d, 60) * b) / pow(d, 60),
	    1e-6);
	cr_assert_float_eq(scale, 1 / pow(d, 60), 1e-12);
	/* one cycle back is what a replay one period earlier gives */
	cr_assert_eq(prio_usage_previous_cycle(&s, 0, 2, prev2, NULL, &err), 0);
	double at_prev = simulate(T0 - 3600, 0, T0 - 60, b, 60, d);
	cr_assert_float_eq((double)prev[0], at_prev, 1e-6 * at_prev);
	cr_assert_float_eq((double)prev2[0],
			   simulate(T0 - 3600, 0, T0 - 120, b, 60, d), 1e-3);
	/* TRESRunMins: an hour left of 4 CPUs = 240 CPU-minutes, up to root */
	run = calloc((size_t)s.assoc_count * s.tres.count, sizeof(*run));
	cr_assert_eq(prio_usage_tres_run_mins(&s, T0, run, &err), 0);
	cr_assert_eq(run[0 * s.tres.count + PRIO_TRES_CPU], 240);
	cr_assert_eq(run[0 * s.tres.count + PRIO_TRES_MEM], 6144 * 60);
	cr_assert_eq(run[0 * s.tres.count + PRIO_TRES_NODE], 60);
	/* without limits enforcement Slurm keeps no such counter */
	s.conf.accounting_storage_enforce = "associations";
	cr_assert_eq(prio_usage_tres_run_mins(&s, T0, run, &err), 0);
	cr_assert_eq(run[PRIO_TRES_CPU], 0);
	free(run);
	prio_snapshot_free(&s);
}
