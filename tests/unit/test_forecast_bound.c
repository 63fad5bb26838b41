/* SPDX-License-Identifier: MIT */
/* A forecast bounded by another thread (prio_forecast_opts.bound, the
 * shorter-limit tries of prio_forecast_when()) ends within the pass where
 * the bound falls behind it, its first pass included. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "prio/forecast.h"
#include "testutil.h"

/* One node of 4 CPUs, 2 busy until 01:00 (job 1).  Job 2 (the oldest, 4
 * CPUs, 1 h) is reserved at 01:00; job 3 (2 CPUs, 30 min) ends before
 * that and is backfilled now (tests/cli/calc-forecast-cases.sh, case b). */
static const char conf[] =
    "ClusterName=t\nSlurmctldHost=h\n"
    "AccountingStorageType=accounting_storage/slurmdbd\n"
    "PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
    "PriorityMaxAge=1-0\nPriorityWeightFairshare=0\n"
    "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n"
    "SchedulerType=sched/backfill\n"
    "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN\n"
    "PartitionName=p Nodes=n1 Default=YES State=UP\n";

static void job(FILE *f, int id, bool running, int cpus, int lim, int sub)
{
	const time_t now = 1767225600; /* 2026-01-01T00:00:00 */
	char s[32], e[32], b[32];
	time_t st = now - 3600, su = now + sub;

	strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", gmtime(&su));
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", gmtime(&st));
	st += lim * 60;
	strftime(e, sizeof(e), "%Y-%m-%dT%H:%M:%S", gmtime(&st));
	fprintf(f,
		"JobId=%d JobName=j%d UserId=u1(1001) GroupId=g(1001) "
		"Priority=1000 Nice=0 Account=a QOS=normal JobState=%s "
		"Reason=%s TimeLimit=%02d:%02d:00 SubmitTime=%s "
		"EligibleTime=%s AccrueTime=%s StartTime=%s EndTime=%s "
		"Partition=p NodeList=%s NumNodes=1 NumCPUs=%d NumTasks=%d "
		"CPUs/Task=1 TRES=cpu=%d,mem=%dM,node=1,billing=%d "
		"MinCPUsNode=1 MinMemoryCPU=100M OverSubscribe=OK\n",
		id, id, running ? "RUNNING" : "PENDING",
		running ? "None" : "Priority", lim / 60, lim % 60, b, b, b,
		running ? s : "Unknown", running ? e : "Unknown",
		running ? "n1" : "", cpus, cpus, cpus, cpus * 100, cpus);
}

static uint8_t job3_status(const atomic_llong *bound, time_t *start)
{
	char dir[] = "/tmp/prio-bound.XXXXXX", path[4200], msg[1024];
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_error err;
	struct prio_forecast_opts fo = {.bound = bound};
	struct prio_forecast fc;
	const struct prio_forecast_row *r = NULL;
	uint8_t status;
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
	fputs("1767225600\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/jobs.txt", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	job(f, 1, true, 2, 120, -3600);
	job(f, 2, false, 4, 60, -900);
	job(f, 3, false, 2, 30, -600);
	fclose(f);
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(&snap, dir, NULL, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_engine_init(&e, &snap, snap.now, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_forecast_run(&e, &fo, &fc, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	for (uint32_t i = 0; i < snap.job_count; i++)
		if (snap.jobs[i].job_id == 3)
			r = prio_forecast_row_of(&fc, i);
	cr_assert_not_null(r);
	status = r->status;
	*start = r->start;
	cr_assert(status != PRIO_FC_STARTS || r->how == PRIO_FC_BACKFILL);
	prio_forecast_free(&fc);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	for (const char *n = "slurm.conf\0NOW\0jobs.txt\0"; *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		unlink(path);
	}
	rmdir(dir);
	return status;
}

Test(forecast_bound, a_bound_behind_the_first_pass_ends_it)
{
	atomic_llong none = 0, behind = 1, ahead = 1767225600 + 60;
	time_t start;

	/* unbounded, and with a bound still ahead: backfilled now */
	cr_assert_eq(job3_status(NULL, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, 1767225600);
	cr_assert_eq(job3_status(&none, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, 1767225600);
	cr_assert_eq(job3_status(&ahead, &start), PRIO_FC_STARTS);
	cr_assert_eq(start, 1767225600);
	/* a bound already behind NOW (a try with nothing to beat): the
	 * first backfill pass stops before it tests a job */
	cr_assert_eq(job3_status(&behind, &start), PRIO_FC_HORIZON);
}
