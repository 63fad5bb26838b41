/* SPDX-License-Identifier: MIT */
/* When the forecast's backfill passes run and stop: a bound another
 * thread sets (prio_forecast_opts.bound, the shorter-limit tries of
 * prio_forecast_when()) ends the pass where it falls behind, the first
 * included; so does the start of the last job watched; a priority
 * calculation wakes the backfill only where a job could start. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "prio/forecast.h"
#include "testutil.h"

#define NOW ((time_t)1767225600) /* 2026-01-01T00:00:00 */

/* One node of 4 CPUs; age the only factor (PriorityCalcPeriod 5 min, the
 * default). */
static const char conf[] =
    "ClusterName=t\nSlurmctldHost=h\n"
    "AccountingStorageType=accounting_storage/slurmdbd\n"
    "PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
    "PriorityMaxAge=60-0\nPriorityWeightFairshare=0\n"
    "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n"
    "SchedulerType=sched/backfill\n"
    "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN\n"
    "PartitionName=p Nodes=n1 Default=YES State=UP\n";

/* A record of job id: running since an hour before NOW, or pending,
 * submitted sub seconds from NOW; cpus CPUs, lim minutes. */
static void job(FILE *f, int id, bool running, int cpus, int lim, int sub)
{
	char s[32], e[32], b[32], l[32];
	time_t st = NOW - 3600, su = NOW + sub;

	strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", gmtime(&su));
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", gmtime(&st));
	st += lim * 60;
	strftime(e, sizeof(e), "%Y-%m-%dT%H:%M:%S", gmtime(&st));
	snprintf(l, sizeof(l), "%d-%02d:%02d:00", lim / 1440, lim / 60 % 24,
		 lim % 60);
	fprintf(f,
		"JobId=%d JobName=j%d UserId=u1(1001) GroupId=g(1001) "
		"Priority=1000 Nice=0 Account=a QOS=normal JobState=%s "
		"Reason=%s TimeLimit=%s SubmitTime=%s "
		"EligibleTime=%s AccrueTime=%s StartTime=%s EndTime=%s "
		"Partition=p NodeList=%s NumNodes=1 NumCPUs=%d NumTasks=%d "
		"CPUs/Task=1 TRES=cpu=%d,mem=%dM,node=1,billing=%d "
		"MinCPUsNode=1 MinMemoryCPU=100M OverSubscribe=OK\n",
		id, id, running ? "RUNNING" : "PENDING",
		running ? "None" : "Priority", l, b, b, b,
		running ? s : "Unknown", running ? e : "Unknown",
		running ? "n1" : "", cpus, cpus, cpus, cpus * 100, cpus);
}

struct run {
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_forecast fc;
};

/* The forecast of the snapshot whose jobs `jobs` writes, under bound,
 * watching job id `watch` (0: none). */
static void forecast_watching(struct run *r, void (*jobs)(FILE *),
			      const atomic_llong *bound, uint32_t watch)
{
	char dir[] = "/tmp/prio-passes.XXXXXX", path[4200], msg[1024];
	struct prio_error err;
	struct prio_forecast_opts fo = {.bound = bound};
	uint32_t watched = UINT32_MAX;
	FILE *f;

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(conf, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/NOW", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "%lld\n", (long long)NOW);
	fclose(f);
	snprintf(path, sizeof(path), "%s/jobs.txt", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	jobs(f);
	fclose(f);
	cr_assert_eq(prio_snapshot_init(&r->snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(&r->snap, dir, NULL, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	for (const char *n = "slurm.conf\0NOW\0jobs.txt\0"; *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		unlink(path);
	}
	rmdir(dir);
	cr_assert_eq(prio_snapshot_finish(&r->snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_engine_init(&r->e, &r->snap, r->snap.now, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	for (uint32_t i = 0; watch && i < r->snap.job_count; i++)
		if (r->snap.jobs[i].job_id == watch)
			watched = i;
	if (watch) {
		cr_assert_neq(watched, UINT32_MAX, "no job %u", watch);
		fo.watch = &watched;
		fo.watch_count = 1;
	}
	cr_assert_eq(prio_forecast_run(&r->e, &fo, &r->fc, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

static void forecast(struct run *r, void (*jobs)(FILE *),
		     const atomic_llong *bound)
{
	forecast_watching(r, jobs, bound, 0);
}

static const struct prio_forecast_row *row(const struct run *r, uint32_t id)
{
	for (uint32_t i = 0; i < r->snap.job_count; i++)
		if (r->snap.jobs[i].job_id == id)
			return prio_forecast_row_of(&r->fc, i);
	cr_assert_fail("no job %u", id);
	return NULL;
}

static void done(struct run *r)
{
	prio_forecast_free(&r->fc);
	prio_engine_free(&r->e);
	prio_snapshot_free(&r->snap);
}

/* 2 of the 4 CPUs busy until 01:00 (job 1).  Job 2 (the oldest, 4 CPUs,
 * 1 h) is reserved at 01:00; job 3 (2 CPUs, 30 min) ends before that and
 * is backfilled now (tests/cli/calc-forecast-cases.sh, case b). */
static void case_b(FILE *f)
{
	job(f, 1, true, 2, 120, -3600);
	job(f, 2, false, 4, 60, -900);
	job(f, 3, false, 2, 30, -600);
}

static uint8_t job3_status(const atomic_llong *bound, time_t *start)
{
	struct run r;
	const struct prio_forecast_row *x;
	uint8_t status;

	forecast(&r, case_b, bound);
	x = row(&r, 3);
	status = x->status;
	*start = x->start;
	cr_assert(status != PRIO_FC_STARTS || x->how == PRIO_FC_BACKFILL);
	done(&r);
	return status;
}

Test(forecast_passes, a_bound_behind_the_first_pass_ends_it)
{
	atomic_llong none = 0, behind = 1, ahead = NOW + 60;
	time_t start;

	/* unbounded, and with a bound still ahead: backfilled now */
	cr_assert_eq(job3_status(NULL, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, NOW);
	cr_assert_eq(job3_status(&none, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, NOW);
	cr_assert_eq(job3_status(&ahead, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, NOW);
	/* a bound already behind NOW (a try with nothing to beat): the
	 * first backfill pass stops before it tests a job */
	cr_assert_eq(job3_status(&behind, &start), PRIO_FC_HORIZON);
}

/* The node full for 30 days (job 1), jobs 2 to 9 waiting for it. */
static void full_for_a_month(FILE *f)
{
	job(f, 1, true, 4, 30 * 1440, -7200);
	for (int id = 2; id <= 9; id++)
		job(f, id, false, 4, 60, -id);
}

/* A calculation every 5 minutes for a month would wake the backfill 8640
 * times; with every CPU taken no order of the queue starts a job, so
 * none is queued until job 1 ends. */
Test(forecast_passes, a_full_cluster_is_not_woken_by_calculations)
{
	struct run r;
	const struct prio_forecast_row *x;

	forecast(&r, full_for_a_month, NULL);
	x = row(&r, 9); /* the oldest: the first to start */
	cr_assert_eq(x->status, PRIO_FC_STARTS);
	cr_assert_eq(x->start, NOW - 3600 + 30 * 86400);
	cr_assert_eq(x->how, PRIO_FC_MAIN);
	cr_assert_eq(row(&r, 8)->start, x->start + 3600);
	cr_assert_leq(r.fc.backfill_passes, 20, "%u backfill passes",
		      (unsigned)r.fc.backfill_passes);
	done(&r);
}

/* Case b with two small jobs: 3 and then 4 (1 CPU each, 30 min) both
 * backfill now, in one pass, beside job 1 and before job 2's reservation
 * at 01:00. */
static void case_b_two_small(FILE *f)
{
	job(f, 1, true, 2, 120, -3600);
	job(f, 2, false, 4, 60, -900);
	job(f, 3, false, 1, 30, -600);
	job(f, 4, false, 1, 30, -300);
}

/* A run that watches job 3 (--explain 3) ends its pass at 3's start:
 * 3's row is the whole forecast's, and job 4, tested after it, is left
 * at the horizon; watching 4, both start. */
Test(forecast_passes, the_watched_jobs_start_ends_the_pass)
{
	struct run r;
	const struct prio_forecast_row *x;

	forecast(&r, case_b_two_small, NULL);
	cr_assert_eq(row(&r, 3)->status, PRIO_FC_STARTS);
	cr_assert_eq(row(&r, 3)->start, NOW);
	cr_assert_eq(row(&r, 3)->how, PRIO_FC_BACKFILL);
	cr_assert_eq(row(&r, 4)->start, NOW);
	cr_assert_eq(row(&r, 2)->start, NOW - 3600 + 120 * 60);
	done(&r);

	forecast_watching(&r, case_b_two_small, NULL, 3);
	x = row(&r, 3);
	cr_assert_eq(x->status, PRIO_FC_STARTS);
	cr_assert_eq(x->start, NOW);
	cr_assert_eq(x->how, PRIO_FC_BACKFILL);
	cr_assert_str_eq(x->nodes, "n1");
	cr_assert_eq(row(&r, 4)->status, PRIO_FC_HORIZON);
	cr_assert_eq(row(&r, 2)->status, PRIO_FC_HORIZON);
	done(&r);

	forecast_watching(&r, case_b_two_small, NULL, 4);
	cr_assert_eq(row(&r, 3)->start, NOW);
	cr_assert_eq(row(&r, 4)->status, PRIO_FC_STARTS);
	cr_assert_eq(row(&r, 4)->start, NOW);
	done(&r);
}
