/* SPDX-License-Identifier: MIT */
/*
 * The priority engine, the scheduling order, sprio's table and --at, on
 * small snapshots written here: the edge cases the oracle scenarios do not
 * reach (slurm-facts §1: FavorSmall wrap-around, SMALL_RELATIVE_TO_TIME,
 * NO_NORMAL_*, clamps, INCR_ONLY, ACCRUE_ALWAYS, CALCULATE_RUNNING,
 * multi-partition jobs, no slurmdbd).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "prio/advance.h"
#include "prio/explain.h"
#include "prio/order.h"
#include "prio/priority.h"
#include "prio/report_sprio.h"
#include "prio/usage.h"
#include "testutil.h"

#define NOW 1795319730L /* 2026-11-22T03:55:30Z */

/* Cluster: 4 nodes of 8 CPUs (C = 32, N = 4); partition a (job factor 10,
 * tier 1, all nodes), b (20, tier 2, two nodes), c (5, tier 1, MaxTime 2h). */
static const char *base_conf =
    "ClusterName=t\n"
    "AccountingStorageType=accounting_storage/slurmdbd\n"
    "AccountingStorageTRES=cpu,mem,node,billing\n"
    "PriorityType=priority/multifactor\n"
    "PriorityMaxAge=0-01:00:00\n"
    "PriorityDecayHalfLife=0-00:10:00\n"
    "PriorityCalcPeriod=1\n"
    "PriorityWeightAge=1000\n"
    "PriorityWeightFairshare=10000\n"
    "PriorityWeightJobSize=1000\n"
    "PriorityWeightPartition=1000\n"
    "PriorityWeightQOS=1000\n"
    "PriorityWeightAssoc=100\n"
    "PriorityWeightTRES=CPU=1000\n"
    "NodeName=n[1-4] CPUs=8 RealMemory=1000\n"
    "PartitionName=a Nodes=n[1-4] PriorityJobFactor=10 PriorityTier=1 Default=YES\n"
    "PartitionName=b Nodes=n[1-2] PriorityJobFactor=20 PriorityTier=2\n"
    "PartitionName=c Nodes=n[1-4] PriorityJobFactor=5 PriorityTier=1 MaxTime=02:00:00\n";

static const char *base_assoc =
    "Account|User|RawShares|RawUsage\n"
    "root|||1000\n"
    " acc||1|1000\n"
    "  acc|u1|1|800\n"
    "  acc|u2|1|200\n";

static const char *base_assoc_dump =
    "Cluster - 't':Fairshare=1:QOS='normal'\n"
    "Parent - 'root'\n"
    "Account - 'acc':Fairshare=1:Priority=50\n"
    "Parent - 'acc'\n"
    "User - 'u1':DefaultAccount='acc':Fairshare=1:Priority=100:QOS='normal,high'\n"
    "User - 'u2':DefaultAccount='acc':Fairshare=1\n";

static const char *base_qos = "Name|Priority\nnormal|10\nhigh|100\nidle|0\n";

/* A pending job line accruing since `accrue`, submitted at `submit`, with
 * the given extra fields. */
#define JOB_AT(id, user, submit, accrue, rest)                                 \
	"JobId=" #id " JobName=j UserId=" user "(100" #id ") Priority=100 "     \
	"Nice=0 Account=acc QOS=normal JobState=PENDING Reason=Priority "        \
	"SubmitTime=2026-11-22T" submit " EligibleTime=2026-11-22T" submit     \
	" AccrueTime=2026-11-22T" accrue " TimeLimit=01:00:00 " rest "\n"
#define JOB(id, user, rest) JOB_AT(id, user, "03:00:00", "03:25:30", rest)

static struct prio_snapshot snap;
static struct prio_engine eng;
static struct prio_error err;
static bool have_eng;

static void setup(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	snap.now = NOW;
	snap.now_known = true;
	have_eng = false;
}

static void teardown(void)
{
	if (have_eng)
		prio_engine_free(&eng);
	prio_snapshot_free(&snap);
}

TestSuite(priority, .init = setup, .fini = teardown);

static void load(int (*loader)(struct prio_snapshot *,
			       const struct prio_source *, struct prio_error *),
		 const char *name, const char *text)
{
	struct prio_source src;
	char msg[1024];

	test_source(&src, name, text);
	cr_assert_eq(loader(&snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

/* Load conf (+ extra lines), the tree, QOS and jobs, apply sets, finish,
 * and set the engine up at `now`. */
static void build(const char *extra_conf, const char *jobs,
		  const char *const *sets, time_t now)
{
	char conf[4096], msg[1024];

	snprintf(conf, sizeof(conf), "%s%s", base_conf,
		 extra_conf ? extra_conf : "");
	load(prio_load_slurmconf_source, "slurm.conf", conf);
	load(prio_load_assoc_dump, "assoc.cfg", base_assoc_dump);
	load(prio_load_sshare, "sshare.txt", base_assoc);
	load(prio_load_qos, "qos.txt", base_qos);
	load(prio_load_jobs_scontrol, "jobs.txt", jobs);
	for (; sets && *sets; sets++)
		cr_assert_eq(prio_snapshot_set(&snap, *sets, "--set", &err), 0,
			     "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_engine_init(&eng, &snap, now, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	have_eng = true;
}

static const struct prio_job *job(uint32_t id)
{
	const struct prio_job *j = prio_snapshot_find_job(&snap, id);
	cr_assert_not_null(j, "job %u", id);
	return j;
}

static uint32_t part(const char *name)
{
	const struct prio_partition *p = prio_snapshot_partition(
	    &snap, prio_intern_find(&snap.strings, name, strlen(name)));
	cr_assert_not_null(p);
	return (uint32_t)(p - snap.partitions);
}

static struct prio_row row_of(uint32_t id, const char *partition,
			      struct prio_job_factors *jf)
{
	struct prio_row row;

	prio_job_factors(&eng, job(id), jf);
	prio_row_compute(&eng, job(id), jf, part(partition), &row);
	return row;
}

#define EPS 1e-12

Test(priority, factors_and_weighted_sum)
{
	struct prio_job_factors jf;
	struct prio_row r;

	build(NULL,
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 "
			   "TRES=cpu=4,mem=100M,node=1"),
	      NULL, NOW);
	r = row_of(1, "a", &jf);
	/* accrued 30 min of a 60 min maximum */
	cr_assert_float_eq(jf.age, 0.5, EPS);
	/* (1/4 + 4/32) / 2 */
	cr_assert_float_eq(jf.jobsize, (0.25 + 0.125) / 2, EPS);
	/* job factor 10 of the highest 20 */
	cr_assert_float_eq(r.partition_factor, 0.5, EPS);
	/* QOS normal 10 of 100 */
	cr_assert_float_eq(jf.qos, 0.1, EPS);
	/* u1's own Priority=100 is the highest */
	cr_assert_float_eq(jf.assoc, 1.0, EPS);
	/* Fair Tree: u2 (less usage) first, u1 rank 1 of 2 */
	cr_assert_float_eq(jf.fairshare, 0.5, EPS);
	/* 4 of the partition's 32 CPUs, weight 1000 */
	cr_assert_float_eq(r.tres_sum, 125.0, EPS);
	cr_assert_float_eq(r.sum, 500 + 100 + 5000 + 187.5 + 500 + 100 + 125.0,
			   1e-9);
	cr_assert_eq(r.priority, 6512);
	/* the same job in b: factor 20/20, 4 of 16 CPUs */
	r = row_of(1, "b", &jf);
	cr_assert_float_eq(r.partition_factor, 1.0, EPS);
	cr_assert_float_eq(r.tres_sum, 250.0, EPS);
}

Test(priority, weights_zero_give_zero_factors_and_no_slurmdbd_drops_age_fs)
{
	struct prio_job_factors jf;

	build("AccountingStorageType=accounting_storage/none\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4"),
	      NULL, NOW);
	cr_assert(eng.no_dbd);
	cr_assert_eq(eng.weight[PRIO_FACTOR_AGE], 0);
	cr_assert_eq(eng.weight[PRIO_FACTOR_FAIRSHARE], 0);
	row_of(1, "a", &jf);
	cr_assert_eq(jf.age, 0.0);
	cr_assert_eq(jf.fairshare, 0.0);
	cr_assert_gt(jf.jobsize, 0.0);
}

Test(priority, favor_small_and_requests_beyond_the_cluster)
{
	struct prio_job_factors jf;

	build("PriorityFavorSmall=YES\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4")
	      JOB(2, "u1", "Partition=a NumNodes=8 NumCPUs=64 TRES=cpu=64"),
	      NULL, NOW);
	row_of(1, "a", &jf);
	cr_assert_float_eq(jf.jobsize, (3.0 / 4 + 28.0 / 32) / 2, EPS);
	/* unsigned subtraction wraps: Slurm clamps the result to 1 */
	row_of(2, "a", &jf);
	cr_assert_float_eq(jf.jobsize, 1.0, EPS);
}

Test(priority, default_size_is_clamped_for_oversized_requests)
{
	struct prio_job_factors jf;

	build(NULL, JOB(1, "u1", "Partition=a NumNodes=8 NumCPUs=64 TRES=cpu=64"),
	      NULL, NOW);
	row_of(1, "a", &jf);
	cr_assert_float_eq(jf.jobsize, 1.0, EPS);
}

Test(priority, small_relative_to_time)
{
	struct prio_job_factors jf;

	build("PriorityFlags=SMALL_RELATIVE_TO_TIME\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4")
	      JOB(2, "u1", "Partition=a NumNodes=1 NumCPUs=16 TRES=cpu=16"),
	      NULL, NOW);
	/* max(1 node × 32/4 CPUs, 4) = 8 CPUs over 60 minutes over 32 */
	row_of(1, "a", &jf);
	cr_assert_float_eq(jf.jobsize, 8.0 / 60 / 32, EPS);
	row_of(2, "a", &jf);
	cr_assert_float_eq(jf.jobsize, 16.0 / 60 / 32, EPS);
}

Test(priority, small_relative_to_time_with_favor_small)
{
	struct prio_job_factors jf;

	build("PriorityFlags=SMALL_RELATIVE_TO_TIME\nPriorityFavorSmall=YES\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4"),
	      NULL, NOW);
	row_of(1, "a", &jf);
	cr_assert_float_eq(jf.jobsize, 1.0 - 8.0 / 60 / 32, EPS);
}

Test(priority, no_normal_flags_use_raw_values)
{
	struct prio_job_factors jf;
	struct prio_row r;

	build("PriorityFlags=NO_NORMAL_ALL\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4"),
	      NULL, NOW);
	r = row_of(1, "a", &jf);
	cr_assert_float_eq(r.partition_factor, 10.0, EPS);
	cr_assert_float_eq(jf.qos, 10.0, EPS);
	cr_assert_float_eq(jf.assoc, 100.0, EPS);
	cr_assert_float_eq(r.tres_sum, 4.0 * 1000, EPS);
}

Test(priority, age_rules)
{
	struct prio_job_factors jf;

	build("PriorityMaxAge=0\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1"),
	      NULL, NOW);
	/* PriorityMaxAge=0: every accruing job has the full age factor */
	row_of(1, "a", &jf);
	cr_assert_float_eq(jf.age, 1.0, EPS);
}

Test(priority, accrue_always_counts_from_submit_and_lists_dependent_jobs)
{
	struct prio_job_factors jf;
	const char *jobs =
	    "JobId=5 JobName=j UserId=u1(1005) Priority=100 Nice=0 Account=acc "
	    "QOS=normal JobState=PENDING Reason=Dependency "
	    "Dependency=afterok:1(unfulfilled) SubmitTime=2026-11-22T03:25:30 "
	    "EligibleTime=Unknown AccrueTime=Unknown TimeLimit=01:00:00 "
	    "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1\n";

	build(NULL, jobs, NULL, NOW);
	cr_assert_not(prio_job_listed(&eng, job(5)));
	cr_assert_str_eq(prio_job_unlisted_reason(&eng, job(5)),
			 "not eligible yet (unsatisfied dependency)");
	row_of(5, "a", &jf);
	cr_assert_eq(jf.age, 0.0);
	prio_engine_free(&eng);
	have_eng = false;
	snap.conf.priority_flags |= PRIO_FLAG_ACCRUE_ALWAYS;
	cr_assert_eq(prio_engine_init(&eng, &snap, NOW, &err), 0);
	have_eng = true;
	cr_assert(prio_job_listed(&eng, job(5)));
	row_of(5, "a", &jf);
	cr_assert_float_eq(jf.age, 0.5, EPS);
}

Test(priority, which_jobs_sprio_lists)
{
	const char *jobs =
	    JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    "JobId=2 JobName=j UserId=u1(1002) Priority=0 Nice=0 Account=acc "
	    "QOS=normal JobState=PENDING Reason=JobHeldUser Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=Unknown "
	    "AccrueTime=Unknown TimeLimit=01:00:00 Partition=a NumNodes=1 "
	    "NumCPUs=1 TRES=cpu=1\n"
	    "JobId=3 JobName=j UserId=u1(1003) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=PENDING Reason=BeginTime Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T04:10:00 "
	    "AccrueTime=Unknown TimeLimit=01:00:00 Partition=a NumNodes=1 "
	    "NumCPUs=1 TRES=cpu=1\n"
	    "JobId=4 JobName=j UserId=u1(1004) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=RUNNING Reason=None Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:10:00 "
	    "EndTime=2026-11-22T04:10:00 TimeLimit=01:00:00 Partition=a "
	    "NumNodes=1 NumCPUs=1 TRES=cpu=1,node=1\n";

	build(NULL, jobs, NULL, NOW);
	cr_assert(prio_job_listed(&eng, job(1)));
	cr_assert_str_eq(prio_job_unlisted_reason(&eng, job(2)),
			 "held (priority 0)");
	cr_assert_str_eq(prio_job_unlisted_reason(&eng, job(3)),
			 "not eligible yet (begin time in the future)");
	cr_assert_not(prio_job_listed(&eng, job(4)));
	/* later than the begin time: listed, and ageing from it */
	prio_engine_free(&eng);
	cr_assert_eq(prio_engine_init(&eng, &snap, NOW + 1800, &err), 0);
	cr_assert(prio_job_listed(&eng, job(3)));
	cr_assert_eq(prio_job_accrue_time(&eng, job(3)),
		     (time_t)(NOW + 870)); /* 04:10:00 */
	/* CALCULATE_RUNNING lists running jobs too */
	prio_engine_free(&eng);
	snap.conf.priority_flags |= PRIO_FLAG_CALCULATE_RUNNING;
	cr_assert_eq(prio_engine_init(&eng, &snap, NOW, &err), 0);
	cr_assert(prio_job_listed(&eng, job(4)));
}

Test(priority, held_job_is_not_listed)
{
	const char *jobs =
	    "JobId=2 JobName=j UserId=u1(1002) Priority=0 Nice=0 Account=acc "
	    "QOS=normal JobState=PENDING Reason=JobHeldUser Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=Unknown TimeLimit=01:00:00 Partition=a NumNodes=1 "
	    "NumCPUs=1 TRES=cpu=1\n";

	build(NULL, jobs, NULL, NOW);
	cr_assert_str_eq(prio_job_unlisted_reason(&eng, job(2)),
			 "held (priority 0)");
}

Test(priority, sum_below_one_becomes_one_and_nice_subtracts)
{
	struct prio_job_factors jf;
	struct prio_row r;

	build(NULL,
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	      JOB(2, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1"),
	      (const char *const[]){"job:1.Nice=1000000", "job:2.Nice=100",
				    NULL},
	      NOW);
	r = row_of(1, "a", &jf);
	cr_assert_eq(jf.nice, 1000000);
	cr_assert_eq(r.sum, 1.0);
	cr_assert_eq(r.priority, 1);
	struct prio_row r2 = row_of(2, "a", &jf);
	struct prio_job_factors jf0;
	prio_job_factors(&eng, job(2), &jf0);
	jf0.nice = 0;
	struct prio_row r0;
	prio_row_compute(&eng, job(2), &jf0, part("a"), &r0);
	cr_assert_float_eq(r0.sum - r2.sum, 100.0, 1e-9);
}

Test(priority, clamp_to_32_bits_and_truncation)
{
	struct prio_job_factors jf;
	struct prio_row r;

	build("PriorityFlags=NO_NORMAL_QOS\n",
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1"),
	      (const char *const[]){"PriorityWeightQOS=4294967295",
				    "qos:normal.Priority=1000", NULL},
	      NOW);
	r = row_of(1, "a", &jf);
	cr_assert(r.clamped);
	cr_assert_eq(r.priority, UINT32_MAX);
	/* sprio's own sum is not clamped */
	cr_assert_gt(r.sum, 4294967295.0);
}

Test(priority, incr_only_keeps_the_stored_priority)
{
	struct prio_job_factors jf;
	struct prio_row r;

	build("PriorityFlags=INCR_ONLY\n",
	      "JobId=1 JobName=j UserId=u1(1001) Priority=999999 Nice=0 "
	      "Account=acc QOS=normal JobState=PENDING Reason=Priority "
	      "Dependency=(null) SubmitTime=2026-11-22T03:00:00 "
	      "EligibleTime=2026-11-22T03:00:00 AccrueTime=2026-11-22T03:25:30 "
	      "TimeLimit=01:00:00 Partition=a NumNodes=1 NumCPUs=1 "
	      "TRES=cpu=1\n",
	      NULL, NOW);
	r = row_of(1, "a", &jf);
	cr_assert_eq(r.priority, 999999);
	cr_assert_lt(r.sum, 999999.0); /* sprio shows the computed sum */
}

Test(priority, multi_partition_rows_in_tier_order)
{
	uint32_t parts[4];
	struct prio_job_factors jf;
	struct prio_row ra, rb;

	build(NULL,
	      JOB(1, "u1", "Partition=a,c,b NumNodes=1 NumCPUs=4 TRES=cpu=4"),
	      NULL, NOW);
	cr_assert_eq(eng.max_job_partitions, 3);
	cr_assert_eq(prio_job_partitions(&eng, job(1), parts), 3);
	/* tier 2 first, then the listed order among tier 1 */
	cr_assert_eq(parts[0], part("b"));
	cr_assert_eq(parts[1], part("a"));
	cr_assert_eq(parts[2], part("c"));
	ra = row_of(1, "a", &jf);
	rb = row_of(1, "b", &jf);
	/* partition term 500 vs 1000, TRES 125 vs 250 */
	cr_assert_float_eq(rb.sum - ra.sum, 500.0 + 125.0, 1e-9);
}

Test(priority, scheduling_order_and_ranks)
{
	struct prio_queue q;
	const struct prio_queue_entry *en;
	const char *jobs =
	    JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB(2, "u2", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB(3, "u1", "Partition=a,b NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB(4, "u1", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1");

	build(NULL, jobs, NULL, NOW);
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	cr_assert_eq(q.count, 5);
	/* tier 2 (b) first */
	cr_assert_eq(snap.jobs[q.entries[0].job].job_id, 3);
	cr_assert_eq(q.entries[0].partition, part("b"));
	cr_assert_eq(q.entries[0].rank, 1);
	cr_assert_eq(q.entries[0].part_rank, 1);
	/* in a: u2 (better fairshare) first, then equal priorities by job id */
	en = prio_queue_top(&q, part("a"));
	cr_assert_eq(snap.jobs[en->job].job_id, 2);
	en = prio_queue_find(&q, (uint32_t)(job(4) - snap.jobs), part("a"));
	cr_assert_eq(en->part_rank, 4);
	cr_assert_eq(snap.jobs[prio_queue_ahead(&q, en)->job].job_id, 3);
	cr_assert_eq(q.part_count[part("a")], 4);
	prio_queue_free(&q);
}

/* The queue sorts packed keys; its order must be prio_queue_compare's:
 * equal priorities fall to the earlier submit time, then the job id, and
 * a later accrue time (less age) sorts after an earlier one. */
Test(priority, scheduling_order_ties_by_submit_time_then_job_id)
{
	struct prio_queue q;
	const char *jobs =
	    JOB_AT(7, "u1", "03:10:00", "03:25:30", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB_AT(5, "u1", "03:20:00", "03:25:30", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB_AT(6, "u1", "03:10:00", "03:25:30", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB_AT(8, "u1", "03:00:00", "03:40:00", "Partition=a NumNodes=1 NumCPUs=1 TRES=cpu=1")
	    JOB_AT(9, "u1", "03:00:00", "03:25:30", "Partition=a,b NumNodes=1 NumCPUs=1 TRES=cpu=1");
	uint32_t want[] = { 9, 9, 6, 7, 5, 8 };

	build(NULL, jobs, NULL, NOW);
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	cr_assert_eq(q.count, 6);
	for (uint32_t k = 0; k < q.count; k++) {
		cr_assert_eq(snap.jobs[q.entries[k].job].job_id, want[k],
			     "entry %u: job %u, expected %u", k,
			     snap.jobs[q.entries[k].job].job_id, want[k]);
		if (k)
			cr_assert_lt(prio_queue_compare(&snap, &q.entries[k - 1],
							&q.entries[k]), 0);
	}
	cr_assert_gt(q.entries[4].priority, q.entries[5].priority);
	prio_queue_free(&q);
}

Test(priority, sprio_default_formats_follow_the_weights)
{
	char buf[512];
	struct prio_config conf;

	prio_config_defaults(&conf);
	conf.weight_fairshare = 1;
	conf.weight_partition = 1;
	cr_assert_str_eq(prio_sprio_default_format(&conf, false, false, false,
						   buf, sizeof(buf)),
			 "%.15i %9r %.10Y %.10S %.10F %.10P");
	cr_assert_str_eq(prio_sprio_default_format(&conf, false, true, true,
						   buf, sizeof(buf)),
			 "%.15i %9r %.8u %10y %10f %10p");
	conf.weight_tres.text = "CPU=1";
	cr_assert_str_eq(prio_sprio_default_format(&conf, false, false, false,
						   buf, sizeof(buf)),
			 "%.15i %9r %.10Y %.10S %.10F %.10P %.20T");
	cr_assert_str_eq(
	    prio_sprio_default_format(&conf, true, false, false, buf,
				      sizeof(buf)),
	    "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q "
	    "%.11N %.20T");
}

static char bad_letters[8];
static void note_bad(char l, void *ctx)
{
	(void)ctx;
	bad_letters[strlen(bad_letters)] = l;
}

Test(priority, sprio_table_drops_unknown_letters_and_sorts)
{
	struct prio_sprio_table t;
	struct prio_sprio_sort s;
	char why[128];

	memset(bad_letters, 0, sizeof(bad_letters));
	cr_assert_eq(prio_sprio_table_init(&t, ">%i|%n|%.5Y<", note_bad, NULL,
					   why, sizeof(why)),
		     0);
	cr_assert_str_eq(bad_letters, "n");
	cr_assert_eq(t.ncols, 2);
	cr_assert_str_eq(t.prefix, ">");
	cr_assert_str_eq(t.cols[0].suffix, "|");
	cr_assert_str_eq(t.cols[1].suffix, "<");
	cr_assert(t.cols[1].right);
	prio_sprio_table_free(&t);

	cr_assert_eq(prio_sprio_sort_parse("-y,i", &s, why, sizeof(why)), 0);
	cr_assert_eq(s.nkeys, 2);
	cr_assert(s.desc[0]);
	cr_assert_not(s.desc[1]);
	cr_assert_not(prio_sprio_sort_is_job_id(&s));
	cr_assert_eq(prio_sprio_sort_parse("B", &s, why, sizeof(why)),
		     PRIO_ERR_USAGE);
	cr_assert_str_eq(why, "Invalid sort specification: B");
}

Test(priority, sprio_rows_and_weights_row)
{
	struct prio_sprio_table t;
	struct prio_job_factors jf;
	struct prio_row r;
	char why[128];

	build(NULL, JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 TRES=cpu=4"),
	      NULL, NOW);
	cr_assert_eq(prio_sprio_table_init(&t, "%i %Y %y %A %a %T %t %N %S",
					   NULL, NULL, why, sizeof(why)),
		     0);
	r = row_of(1, "a", &jf);
	cr_assert_eq(prio_sprio_row_cells(&t, &eng, job(1), &jf, &r), 0);
	cr_assert_eq(t.cells[0].u, 1);
	cr_assert_eq(t.cells[1].i, 6512);
	cr_assert_float_eq(t.cells[2].d, r.sum / 4294967295.0, 1e-20);
	/* weighted factors: integers rounded as "%.0f" does, or, for JSON,
	 * the unrounded value */
	cr_assert_eq(t.cells[3].kind, PRIO_CELL_INT);
	cr_assert_eq(t.cells[3].i, 500);
	cr_assert_float_eq(t.cells[4].d, 0.5, EPS);
	t.exact = true;
	cr_assert_eq(prio_sprio_row_cells(&t, &eng, job(1), &jf, &r), 0);
	cr_assert_eq(t.cells[3].kind, PRIO_CELL_DOUBLE);
	cr_assert_float_eq(t.cells[3].d, 500.0, EPS);
	cr_assert_str_eq(t.cells[5].s, "cpu=125");
	cr_assert_str_eq(t.cells[6].s, "cpu=0.12");
	cr_assert_eq(prio_sprio_weights_cells(&t, &snap.conf), 0);
	cr_assert_str_eq(t.cells[0].s, "Weights");
	cr_assert_eq(t.cells[1].kind, PRIO_CELL_BLANK);
	cr_assert_eq(t.cells[3].u, 1000);
	cr_assert_str_eq(t.cells[5].s, "CPU=1000");
	cr_assert_eq(t.cells[6].kind, PRIO_CELL_BLANK);
	cr_assert_eq(t.cells[8].u, 1);
	prio_sprio_table_free(&t);
}

/* One job running from 03:50:00 to 04:10:10 on two CPUs. */
#define RUNNING_JOB_4                                                          \
	"JobId=4 JobName=j UserId=u1(1004) Priority=10 Nice=0 Account=acc "    \
	"QOS=normal JobState=RUNNING Reason=None Dependency=(null) "           \
	"SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "     \
	"AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:50:00 "        \
	"EndTime=2026-11-22T04:10:10 TimeLimit=00:20:10 Partition=a "          \
	"NumNodes=1 NumCPUs=2 TRES=cpu=2,node=1\n"

/* --at: usage decays by d^Δ and a running job adds, per cycle, L·d^L·billing,
 * decayed to the end: compare with the cycle-by-cycle sum. */
Test(priority, advance_decays_and_charges_running_jobs)
{
	const char *jobs = RUNNING_JOB_4;
	double d, want_u1, want_root, cyc_add = 0;
	double hl = 600, period = 60;
	time_t at = NOW + 3600 + 7; /* past the job's end, a short last cycle */

	build(NULL, jobs, NULL, NOW);
	d = 1.0 - 0.693 / hl;
	/* cycle by cycle: decay everything, then add what the job ran */
	for (time_t t0 = NOW; t0 < at; t0 += (time_t)period) {
		time_t t1 = t0 + (time_t)period < at ? t0 + (time_t)period : at;
		time_t end = 1795320610; /* 04:10:10 */
		double len = (double)((end < t1 ? end : t1) - t0);

		cyc_add *= pow(d, (double)(t1 - t0));
		if (len > 0) {
			double part = len * pow(d, len) * 2;
			/* a job ending inside the cycle is charged at its end,
			 * before that cycle's decay */
			if (end < t1)
				part *= pow(d, (double)(t1 - t0));
			cyc_add += part;
		}
	}
	want_u1 = 800 * pow(d, (double)(at - NOW)) + cyc_add;
	want_root = 1000 * pow(d, (double)(at - NOW)) + cyc_add;
	cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
	for (uint32_t i = 0; i < snap.assoc_count; i++) {
		const struct prio_assoc *a = &snap.assocs[i];
		if (i == 0)
			cr_assert_float_eq((double)a->usage_raw, want_root, 1e-6);
		else if (a->is_user && !strcmp(prio_snapshot_str(&snap, a->user), "u1"))
			cr_assert_float_eq((double)a->usage_raw, want_u1, 1e-6);
	}
	cr_assert_eq(prio_snapshot_advance(&snap, NOW - 1, &err), PRIO_ERR_USAGE);
}

/* Every association's usage into orig (at most n), and user u1's
 * association. */
static uint32_t keep_usage(long double *orig, uint32_t n)
{
	uint32_t u1 = UINT32_MAX;

	cr_assert(snap.assoc_count <= n);
	for (uint32_t i = 0; i < snap.assoc_count; i++) {
		const struct prio_assoc *a = &snap.assocs[i];
		orig[i] = a->usage_raw;
		if (a->is_user && !strcmp(prio_snapshot_str(&snap, a->user), "u1"))
			u1 = i;
	}
	cr_assert_neq(u1, UINT32_MAX);
	return u1;
}

/* Usage dated to Slurm's last calculation, 25 s before NOW (usage_at): the
 * first cycle ends a period after it, not after NOW, and the running job
 * is charged from it, as slurmctld charges "ran for 60 seconds" at its
 * next calculation. */
Test(priority, advance_counts_from_the_usage_time)
{
	const char *jobs = RUNNING_JOB_4;
	double d = 1.0 - 0.693 / 600;
	time_t calc = NOW - 25, at = calc + 60;
	double want_u1 = 800 * pow(d, 60) + 60 * pow(d, 60) * 2;
	long double orig[16];
	uint32_t u1;

	build(NULL, jobs, NULL, NOW);
	u1 = keep_usage(orig, 16);
	cr_assert_eq(prio_snapshot_usage_time(&snap), NOW);
	snap.usage_at = calc;
	cr_assert_eq(prio_snapshot_usage_time(&snap), calc);
	cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
	cr_assert_float_eq((double)snap.assocs[u1].usage_raw, want_u1, 1e-6);
	cr_assert_float_eq((double)snap.assocs[0].usage_raw,
			   1000 * pow(d, 60) + 60 * pow(d, 60) * 2, 1e-6);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		snap.assocs[i].usage_raw = orig[i];
	/* fstree-show's mover decays over the same 60 s (its charging of
	 * running jobs from the calculation: tests/cli/at-usage-last-calc) */
	cr_assert_eq(prio_usage_advance(&snap, at, true, &err), 0);
	cr_assert_float_eq((double)snap.assocs[u1].usage_raw, 800 * pow(d, 60),
			   1e-6);
	/* usage already moved to a later time: moving it there, or to
	 * an instant before, changes nothing */
	snap.usage_at = at;
	cr_assert_eq(prio_snapshot_usage_time(&snap), at);
	{
		long double kept = snap.assocs[u1].usage_raw;

		cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
		cr_assert_eq(prio_snapshot_advance(&snap, NOW, &err), 0);
		cr_assert_eq(snap.assocs[u1].usage_raw, kept);
	}
	/* --at still may not go before the snapshot's clock */
	snap.usage_at = calc;
	cr_assert_eq(prio_snapshot_advance(&snap, NOW - 1, &err), PRIO_ERR_USAGE);
}

/* Two jobs running on past `at`, usage dated 25 s before NOW: job 4 (u1)
 * from before that, job 5 (u2, 1 CPU) from 10 s before NOW, after it.
 * The charge every job running through the interval shares is computed
 * once; job 5 must not take it: it ran 45 s of the cycle, not 60. */
Test(priority, advance_charges_a_job_started_after_the_usage_time_its_own)
{
	const char *jobs =
	    RUNNING_JOB_4
	    "JobId=5 JobName=j UserId=u2(1005) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=RUNNING Reason=None Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:55:20 "
	    "EndTime=2026-11-22T05:00:00 TimeLimit=01:04:40 Partition=a "
	    "NumNodes=1 NumCPUs=1 TRES=cpu=1,node=1\n";
	double d = 1.0 - 0.693 / 600;
	time_t calc = NOW - 25, at = calc + 60;
	uint32_t u2 = UINT32_MAX;
	long double orig[16];
	uint32_t u1;

	build(NULL, jobs, NULL, NOW);
	u1 = keep_usage(orig, 16);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		if (snap.assocs[i].is_user &&
		    !strcmp(prio_snapshot_str(&snap, snap.assocs[i].user), "u2"))
			u2 = i;
	cr_assert_neq(u2, UINT32_MAX);
	snap.usage_at = calc;
	cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
	cr_assert_float_eq((double)snap.assocs[u1].usage_raw,
			   800 * pow(d, 60) + 60 * pow(d, 60) * 2, 1e-6);
	cr_assert_float_eq((double)snap.assocs[u2].usage_raw,
			   200 * pow(d, 60) + 45 * pow(d, 45), 1e-6);
	cr_assert_float_eq((double)snap.assocs[0].usage_raw,
			   1000 * pow(d, 60) + 60 * pow(d, 60) * 2 +
			       45 * pow(d, 45),
			   1e-6);
}

/* Both movers charge job 4 of `jobs` (2 CPUs, from 25 s before NOW, when
 * the usage is dated) alike, 60 s later: 60·d^60·2 onto u1's 800 decayed
 * (prio_usage_job_rate, prio_job_state_allocated). */
static void movers_agree(const char *jobs)
{
	double d = 1.0 - 0.693 / 600;
	time_t calc = NOW - 25, at = calc + 60;
	double want = 800 * pow(d, 60) + 60 * pow(d, 60) * 2;
	long double orig[16];
	uint32_t u1;

	build(NULL, jobs, NULL, NOW);
	u1 = keep_usage(orig, 16);
	snap.usage_at = calc;
	cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
	cr_expect_float_eq((double)snap.assocs[u1].usage_raw, want, 1e-6);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		snap.assocs[i].usage_raw = orig[i];
	cr_assert_eq(prio_usage_advance(&snap, at, false, &err), 0);
	cr_expect_float_eq((double)snap.assocs[u1].usage_raw, want, 1e-6);
}

/* A running job whose record gives requested TRES only (AllocTRES
 * missing from the input) is charged for them; fstree-show's mover used
 * to charge nothing. */
Test(priority, both_movers_charge_requested_tres_alike)
{
	movers_agree(
	    "JobId=4 JobName=j UserId=u1(1004) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=RUNNING Reason=None Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:50:00 "
	    "EndTime=2026-11-22T04:10:10 TimeLimit=00:20:10 Partition=a "
	    "NumNodes=1 NumCPUs=2 ReqTRES=cpu=2,node=1 AllocTRES=(null)\n");
	cr_expect_eq(snap.jobs[0].tres_alloc.count, 0);
}

/* A suspended job is charged as slurmctld's cycle charges it (running or
 * suspended, slurm-facts §4); prio-calc's mover used to skip it. */
Test(priority, both_movers_charge_a_suspended_job)
{
	movers_agree(
	    "JobId=4 JobName=j UserId=u1(1004) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=SUSPENDED Reason=None Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:50:00 "
	    "EndTime=2026-11-22T04:10:10 TimeLimit=00:20:10 Partition=a "
	    "NumNodes=1 NumCPUs=2 TRES=cpu=2,node=1\n");
	cr_expect_eq(snap.jobs[0].state, PRIO_JOB_SUSPENDED);
}

/* PriorityUsageResetPeriod=DAILY: moving past midnight zeroes every usage
 * at the first cycle at or after it (here the last one, at 00:00:30),
 * which then adds its own charge: a job running through adds its last
 * 60 s; one that ended before adds nothing.  fstree-show's mover did
 * this alone; prio-calc --at and the forecast now take the same path. */
Test(priority, advance_across_a_usage_reset)
{
	const char *through =
	    "JobId=4 JobName=j UserId=u1(1004) Priority=10 Nice=0 Account=acc "
	    "QOS=normal JobState=RUNNING Reason=None Dependency=(null) "
	    "SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "
	    "AccrueTime=2026-11-22T03:00:00 StartTime=2026-11-22T03:50:00 "
	    "EndTime=2026-11-23T03:50:00 TimeLimit=1-00:00:00 Partition=a "
	    "NumNodes=1 NumCPUs=2 TRES=cpu=2,node=1\n";
	double d = 1.0 - 0.693 / 600;
	time_t at = NOW + 72300; /* 2026-11-23T00:00:30 */
	long double orig[16];
	uint32_t u1;

	build(NULL, through, NULL, NOW);
	u1 = keep_usage(orig, 16);
	snap.conf.reset_period = PRIO_RESET_DAILY;
	cr_assert_eq(prio_snapshot_advance(&snap, at, &err), 0);
	cr_expect_float_eq((double)snap.assocs[u1].usage_raw,
			   60 * pow(d, 60) * 2, 1e-9);
	cr_expect_float_eq((double)snap.assocs[0].usage_raw,
			   60 * pow(d, 60) * 2, 1e-9);
	/* a second before midnight: no reset, everything decayed */
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		snap.assocs[i].usage_raw = orig[i];
	cr_assert_eq(prio_snapshot_advance(&snap, at - 31, &err), 0);
	cr_expect_gt((double)snap.assocs[u1].usage_raw, 800 * pow(d, 72269));
}

/* The job of RUNNING_JOB_4 ended at 04:10:10, before midnight: past the
 * reset nothing is left anywhere. */
Test(priority, advance_across_a_usage_reset_after_every_end)
{
	build(NULL, RUNNING_JOB_4, NULL, NOW);
	snap.conf.reset_period = PRIO_RESET_DAILY;
	cr_assert_gt((double)snap.assocs[0].usage_raw, 0.0);
	cr_assert_eq(prio_snapshot_advance(&snap, NOW + 72300, &err), 0);
	cr_expect_eq((double)snap.assocs[0].usage_raw, 0.0);
}

/* A memo of the decay's powers (the explanations' search over time) is
 * only a memo: at every instant, within it or past its end, whole periods
 * or not, the usage is the one computed without it, to the last bit. */
Test(priority, advance_with_a_decay_memo_changes_no_bit)
{
	const char *jobs = RUNNING_JOB_4;
	static const time_t after[] = {60, 61, 3600, 3607, 86400 * 3 + 1,
				       86400 * 40};

	build(NULL, jobs, NULL, NOW);
	uint32_t n = snap.assoc_count;
	long double *orig = malloc(n * sizeof(*orig));
	long double *plain = malloc(n * sizeof(*plain));
	struct prio_running *running =
	    malloc((snap.job_count + 1) * sizeof(*running));
	uint32_t nrunning = prio_snapshot_running(&snap, running);
	struct prio_decay_memo memo = {calloc(86400 * 4, sizeof(double)),
				       86400 * 4};

	cr_assert_eq(nrunning, 1);
	for (uint32_t i = 0; i < n; i++)
		orig[i] = snap.assocs[i].usage_raw;
	for (int round = 0; round < 2; round++) /* memo cold, then warm */
		for (size_t k = 0; k < sizeof(after) / sizeof(*after); k++) {
			cr_assert_eq(prio_snapshot_advance_running(
					 &snap, NOW + after[k], running,
					 nrunning, NULL, &err),
				     0);
			for (uint32_t i = 0; i < n; i++) {
				plain[i] = snap.assocs[i].usage_raw;
				snap.assocs[i].usage_raw = orig[i];
			}
			cr_assert_eq(prio_snapshot_advance_running(
					 &snap, NOW + after[k], running,
					 nrunning, &memo, &err),
				     0);
			for (uint32_t i = 0; i < n; i++) {
				cr_assert(snap.assocs[i].usage_raw == plain[i],
					  "%lld s later, association %u",
					  (long long)after[k], i);
				snap.assocs[i].usage_raw = orig[i];
			}
		}
	/* usage moved: the memo holds powers of this snapshot's decay */
	cr_assert(plain[0] < orig[0]);
	free(memo.pow);
	free(running);
	free(plain);
	free(orig);
}

/* --explain: the terms add up to the engine's sum, and the waiting time
 * found is the first second at which the job passes the one ahead. */
Test(priority, explain_terms_add_up_and_age_wait_is_exact)
{
	struct prio_queue q;
	struct prio_explain x;
	const char *jobs =
	    JOB_AT(1, "u1", "03:00:00", "03:05:30", "Partition=a NumNodes=1 "
						     "NumCPUs=1 TRES=cpu=1")
	    JOB_AT(2, "u1", "03:00:00", "03:45:30", "Partition=a NumNodes=1 "
						     "NumCPUs=1 TRES=cpu=1");

	/* job 1: age 50 of 60 min but nice 700; job 2: age 10 min */
	build(NULL, jobs, (const char *const[]){"job:1.Nice=700", NULL}, NOW);
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	cr_assert_eq(prio_explain_job(&eng, &q, 1, &x, &err), 0);
	cr_assert_eq(x.nparts, 1);
	const struct prio_explain_part *xp = &x.parts[0];
	double sum = 0;
	for (uint32_t i = 0; i < xp->terms.n; i++)
		sum += xp->terms.t[i].points;
	cr_assert_float_eq(sum, xp->terms.row.sum, 1e-9);
	cr_assert_eq(xp->terms.row.priority, (uint32_t)sum);
	cr_assert_eq(xp->part_rank, 2);
	cr_assert_eq(xp->ahead->job_id, 2);
	/* 33 points behind; job 1 reaches PriorityMaxAge first, after which
	 * job 2 keeps gaining: waiting never helps */
	cr_assert_not(xp->age_helps);
	cr_assert_eq(xp->ahead_ndiff, 2); /* age and nice */
	cr_assert_eq(xp->ahead_diff[0].factor, PRIO_FACTOR_NICE);
	cr_assert_float_eq(xp->ahead_diff[0].points, -700.0, 1e-9);
	prio_explain_free(&x);
	prio_queue_free(&q);
}

Test(priority, explain_age_wait_passes_at_the_first_second)
{
	struct prio_queue q;
	struct prio_explain x;
	/* job 1: capped already; job 2: 10 of 60 minutes */
	const char *jobs =
	    JOB_AT(1, "u1", "01:00:00", "01:00:00", "Partition=a NumNodes=1 "
						     "NumCPUs=1 TRES=cpu=1")
	    JOB_AT(2, "u1", "03:00:00", "03:45:30", "Partition=a NumNodes=1 "
						     "NumCPUs=1 TRES=cpu=1");

	build(NULL, jobs, (const char *const[]){"job:2.Nice=-700", NULL}, NOW);
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	cr_assert_eq(prio_explain_job(&eng, &q, 2, &x, &err), 0);
	const struct prio_explain_part *xp = &x.parts[0];
	cr_assert_eq(xp->ahead->job_id, 1);
	/* 133 points behind a capped job: age closes the gap */
	cr_assert(xp->age_helps);
	cr_assert_gt(xp->age_wait, 400);
	cr_assert_lt(xp->age_wait, 600);
	/* at that second it passes, one second earlier it does not */
	struct prio_engine later;
	struct prio_queue q2;
	cr_assert_eq(prio_engine_init(&later, &snap, NOW + xp->age_wait, &err), 0);
	cr_assert_eq(prio_queue_build(&later, &q2, &err), 0);
	cr_assert_eq(snap.jobs[prio_queue_top(&q2, part("a"))->job].job_id, 2);
	prio_queue_free(&q2);
	prio_engine_free(&later);
	cr_assert_eq(prio_engine_init(&later, &snap, NOW + xp->age_wait - 1, &err), 0);
	cr_assert_eq(prio_queue_build(&later, &q2, &err), 0);
	cr_assert_eq(snap.jobs[prio_queue_top(&q2, part("a"))->job].job_id, 1);
	prio_queue_free(&q2);
	prio_engine_free(&later);
	prio_explain_free(&x);
	prio_queue_free(&q);
}

Test(priority, reason_meanings)
{
	cr_assert_not_null(prio_reason_meaning("Priority"));
	cr_assert_not_null(prio_reason_meaning("QOSMaxJobsPerUserLimit"));
	cr_assert_null(prio_reason_meaning("SomethingNew"));
}

/* 24.11: a job of several QOS.  sprio prints one row per partition and
 * QOS; the list is sorted by QOS Priority (high 100, normal 10, idle 0),
 * the first is the job's QOS, and a QOS of Priority 0 keeps the job's own
 * QOS term (priority_multifactor.c _priority_each_qos). */
Test(release_2411, several_qos_rows, .init = setup, .fini = teardown)
{
	prio_id normal, idle, high, ids[4];
	struct prio_job_factors jf, own, per;
	struct prio_row r;

	build(NULL,
	      JOB(1, "u1", "Partition=a NumNodes=1 NumCPUs=4 "
			   "TRES=cpu=4,mem=100M,node=1"),
	      NULL, NOW);
	normal = prio_intern_find(&snap.strings, "normal", 6);
	idle = prio_intern_find(&snap.strings, "idle", 4);
	high = prio_intern_find(&snap.strings, "high", 4);
	ids[0] = normal;
	ids[1] = idle;
	ids[2] = high;
	ids[3] = normal;
	cr_assert_eq(prio_qos_sort_desc(&snap, ids, 4), 3, "a repeat dropped");
	cr_expect_eq(ids[0], high);
	cr_expect_eq(ids[1], normal);
	cr_expect_eq(ids[2], idle);

	/* the job's own factors are those of its first QOS, high */
	prio_job_factors(&eng, job(1), &jf);
	prio_job_factors_qos(&eng, &jf, high, &own);
	cr_expect_float_eq(own.qos, 1.0, EPS);
	/* the row of high: as factors_and_weighted_sum with QOS 1000 */
	prio_job_factors_qos(&eng, &own, high, &per);
	prio_row_compute(&eng, job(1), &per, part("a"), &r);
	cr_expect_eq(r.priority, 7412, "500+100+5000+187.5+500+1000+125");
	/* normal: 10 of 100 */
	prio_job_factors_qos(&eng, &own, normal, &per);
	cr_expect_float_eq(per.qos, 0.1, EPS);
	prio_row_compute(&eng, job(1), &per, part("a"), &r);
	cr_expect_eq(r.priority, 6512);
	/* idle has Priority 0: the job's own (high's) term stays */
	prio_job_factors_qos(&eng, &own, idle, &per);
	cr_expect_float_eq(per.qos, 1.0, EPS);
	prio_row_compute(&eng, job(1), &per, part("a"), &r);
	cr_expect_eq(r.priority, 7412);
}

/* A job record in the given state and nice (JOB's fields otherwise). */
#define JOB_STATE(id, user, nice, state, rest)                                 \
	"JobId=" #id " JobName=j UserId=" user "(100" #id ") Priority=100 "    \
	"Nice=" nice " Account=acc QOS=normal JobState=" state                 \
	" Reason=Priority "                                                    \
	"SubmitTime=2026-11-22T03:00:00 EligibleTime=2026-11-22T03:00:00 "     \
	"AccrueTime=2026-11-22T03:25:30 TimeLimit=01:00:00 " rest "\n"

/* 25.11: a requeued job whose requeue was expedited prints
 * JobState=EXPEDITING.  Its base state is PENDING, so sprio lists it with
 * the usual factors, and the main scheduler's queue puts it before every
 * other job whatever its priority (job_scheduler.c sort_job_queue2). */
Test(release_2511, expediting_is_pending_and_queued_first, .init = setup,
     .fini = teardown)
{
	struct prio_queue q;
	struct prio_row r1, r2;
	struct prio_job_factors jf;

	prio_snapshot_note_version(&snap, 2511, PRIO_VERSION_OPTION);
	build(NULL,
	      JOB(1, "u1",
		  "Partition=a NumNodes=1 NumCPUs=4 "
		  "TRES=cpu=4,mem=100M,node=1")
		  JOB_STATE(2, "u1", "2000", "EXPEDITING",
			    "Partition=a NumNodes=1 NumCPUs=4 "
			    "TRES=cpu=4,mem=100M,node=1"),
	      NULL, NOW);
	cr_assert_eq(job(2)->state, PRIO_JOB_EXPEDITING);
	cr_assert(prio_job_state_pending(job(2)->state));
	cr_assert(prio_job_listed(&eng, job(2)), "%s",
		  prio_job_unlisted_reason(&eng, job(2)));
	/* job 1 has the higher priority (job 2: the same, less its nice) */
	prio_job_factors(&eng, job(1), &jf);
	prio_row_compute(&eng, job(1), &jf, part("a"), &r1);
	prio_job_factors(&eng, job(2), &jf);
	prio_row_compute(&eng, job(2), &jf, part("a"), &r2);
	cr_assert_gt(r1.priority, r2.priority);
	/* ... and job 2 runs first */
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	cr_assert_eq(q.count, 2);
	cr_assert_eq(snap.jobs[q.entries[0].job].job_id, 2);
	cr_assert_eq(q.entries[0].rank, 1);
	cr_assert_eq(snap.jobs[prio_queue_top(&q, part("a"))->job].job_id, 2);
	prio_queue_free(&q);
}

/* Before 25.11 no Slurm prints EXPEDITING: refused, naming the record. */
Test(release_2511, expediting_refused_before_2511, .init = setup,
     .fini = teardown)
{
	struct prio_source src;
	char msg[1024];

	prio_snapshot_note_version(&snap, 2411, PRIO_VERSION_OPTION);
	test_source(&src, "jobs.txt",
		    JOB(1, "u1",
			"Partition=a NumNodes=1 NumCPUs=4 "
			"TRES=cpu=4,mem=100M,node=1")
			JOB_STATE(2, "u1", "0", "EXPEDITING",
				  "Partition=a NumNodes=1 NumCPUs=4 "
				  "TRES=cpu=4,mem=100M,node=1"));
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "jobs.txt");
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "JobState");
	cr_assert_str_eq(err.message, "job 2: state EXPEDITING (Slurm 24.11 "
				      "does not have it; it came with 25.11)");
}

/* The 24.11 capture with jobs of several QOS (tests/oracle/
 * slurm-24.11-multi-qos): at Slurm's last calculation (10:33:01) sprio -l
 * printed, per partition and QOS, highest QOS first:
 *   22 batch 4499 QOS high 200 / 4301 low 2       (--qos low,high)
 *   23 short 5315 mid 100 / 5235 normal 20 / 5217 low 2
 * and scontrol's Priority= is the last row's (4301, 5217). */
Test(release_2411, capture_rows_per_partition_and_qos, .init = setup,
     .fini = teardown)
{
	static const struct {
		enum prio_role role;
		const char *file;
	} files[] = {
	    {PRIO_ROLE_CONF, "scontrol_show_config.txt"},
	    {PRIO_ROLE_PARTITIONS, "scontrol_show_partition.txt"},
	    {PRIO_ROLE_NODES, "scontrol_show_node.txt"},
	    {PRIO_ROLE_QOS, "sacctmgr_show_qos.txt"},
	    {PRIO_ROLE_ASSOC, "sacctmgr_dump.cfg"},
	    {PRIO_ROLE_ASSOC, "sshare_a_l_P.txt"},
	    {PRIO_ROLE_JOBS, "scontrol_show_job_d.txt"},
	};
	static const struct {
		uint32_t job;
		const char *qos;
		uint32_t priority;
		double qos_points;
	} want[] = {
	    {22, "high", 4499, 200}, {22, "low", 4301, 2},
	    {23, "mid", 5315, 100},  {23, "normal", 5235, 20},
	    {23, "low", 5217, 2},
	};
	char path[512], msg[1024];
	uint32_t parts[4], w = 0;
	struct prio_queue q;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path),
			 "tests/oracle/slurm-24.11-multi-qos/%s",
			 files[i].file);
		cr_assert_eq(
		    prio_load_role(&snap, files[i].role, test_path(path), &err),
		    0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	}
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_slurm(&snap)->release, 2411);
	cr_assert_eq(prio_engine_init(&eng, &snap, 1795689181, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	have_eng = true;

	for (uint32_t id = 22; id <= 23; id++) {
		const struct prio_job *j = job(id);
		struct prio_job_factors own, jf;
		struct prio_row r;

		cr_assert_eq(prio_job_partitions(&eng, j, parts), 1);
		prio_job_factors(&eng, j, &own);
		/* the job's own priority: scontrol's Priority= */
		prio_row_compute(&eng, j, &own, parts[0], &r);
		cr_expect_eq(r.priority, j->priority, "job %u", id);
		for (uint32_t k = 0; k < prio_job_qos_count(j); k++, w++) {
			prio_id qos =
			    prio_job_factors_at(&eng, j, &own, k, &jf);

			prio_row_compute(&eng, j, &jf, parts[0], &r);
			cr_assert_eq(want[w].job, id);
			cr_expect_str_eq(prio_snapshot_str(&snap, qos),
					 want[w].qos);
			cr_expect_eq(r.priority, want[w].priority, "job %u %s",
				     id, want[w].qos);
			cr_expect_float_eq(
			    prio_weighted(&eng, PRIO_FACTOR_QOS, jf.qos),
			    want[w].qos_points, 1e-9);
		}
	}
	cr_assert_eq(w, 5);

	/* the queue holds an entry per QOS: 23's three, best first */
	cr_assert_eq(prio_queue_build(&eng, &q, &err), 0);
	w = 2;
	for (uint32_t k = 0; k < q.count; k++) {
		const struct prio_queue_entry *en = &q.entries[k];

		if (snap.jobs[en->job].job_id != 23)
			continue;
		cr_expect_str_eq(prio_snapshot_str(&snap, en->qos),
				 want[w].qos);
		cr_expect_eq(en->priority, want[w].priority);
		w++;
	}
	cr_assert_eq(w, 5);
	cr_expect_eq(
	    prio_queue_find(&q, (uint32_t)(job(23) - snap.jobs), parts[0])->qos,
	    job(23)->qos);
	prio_queue_free(&q);
}
