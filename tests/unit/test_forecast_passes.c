/* SPDX-License-Identifier: MIT */
/* When the forecast's backfill passes run and stop: a bound another
 * thread sets (prio_forecast_opts.bound, the shorter-limit tries of
 * prio_forecast_when()) ends the pass where it falls behind, the first
 * included; so does the start of the last job watched; a priority
 * calculation wakes the backfill only where a job could start. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "forecast_hooks.h"
#include "prio/forecast.h"
#include "testutil.h"

#define NOW ((time_t)1767225600) /* 2026-01-01T00:00:00 */

/* Age the only factor (PriorityCalcPeriod 5 min, the default). */
#define CONF_HEAD                                                              \
	"ClusterName=t\nSlurmctldHost=h\n"                                      \
	"AccountingStorageType=accounting_storage/slurmdbd\n"                   \
	"PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"           \
	"PriorityMaxAge=60-0\nPriorityWeightFairshare=0\n"                      \
	"SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n"    \
	"SchedulerType=sched/backfill\n"

/* One node of 4 CPUs. */
static const char conf[] =
    CONF_HEAD
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

/* The slurm.conf the runs below read (conf unless a test sets another)
 * and the Slurm release they take (0: as the inputs say). */
static const char *run_conf = conf;
static uint16_t run_release;

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
	fputs(run_conf, f);
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
	if (run_release)
		prio_snapshot_note_version(&r->snap, run_release,
					   PRIO_VERSION_OPTION);
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

/*
 * A backfill pass puts off the sweep of a job that cannot start now (its
 * counts with the ends due by now given back, or a shorter limit of its
 * shape that could not, or a try at now under the reservations so far)
 * until a job below it might start now, and then sweeps the jobs put off
 * in order only until one of their reservations keeps that job from
 * starting now.  Every start and reservation must be those of the plain
 * rule, each job swept in turn (fc_test.eager): checked on random queues
 * of one- to three-node jobs over two partitions of eight nodes, with
 * running jobs past their limits (ends due at the first pass), as 22.05,
 * 24.11 and 25.05 test them.
 */
static const char conf_two[] =
    CONF_HEAD
    "NodeName=n[1-6] CPUs=8 RealMemory=16000 State=UNKNOWN\n"
    "NodeName=m[1-2] CPUs=16 RealMemory=32000 State=UNKNOWN\n"
    "PartitionName=p Nodes=n[1-6],m[1-2] Default=YES State=UP\n"
    "PartitionName=q Nodes=n[4-6],m[1-2] State=UP\n";

static char *rand_jobs;

static void write_rand_jobs(FILE *f)
{
	fputs(rand_jobs, f);
}

static unsigned rnd(unsigned long *x, unsigned n)
{
	*x = *x * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(*x >> 33) % n;
}

/* A job of lim minutes submitted at sub, running from st to en on
 * nodelist or pending (st "Unknown"): nodes nodes, cpus CPUs, cpn a node. */
static size_t rand_record(char *buf, size_t cap, int id, int lim,
			  const char *sub, const char *st, const char *en,
			  const char *part, const char *nodelist, int nodes,
			  int cpus, int cpn)
{
	bool pending = strcmp(st, "Unknown") == 0;

	return (size_t)snprintf(
	    buf, cap,
	    "JobId=%d JobName=r UserId=u1(1001) GroupId=g(1001) "
	    "Priority=1000 Nice=0 Account=a QOS=normal JobState=%s "
	    "Reason=%s TimeLimit=%02d:%02d:00 SubmitTime=%s "
	    "EligibleTime=%s AccrueTime=%s StartTime=%s EndTime=%s "
	    "Partition=%s NodeList=%s NumNodes=%d NumCPUs=%d NumTasks=%d "
	    "CPUs/Task=1 TRES=cpu=%d,mem=%dM,node=%d,billing=%d "
	    "MinCPUsNode=%d MinMemoryCPU=100M OverSubscribe=OK\n",
	    id, pending ? "PENDING" : "RUNNING", pending ? "Priority" : "None",
	    lim / 60, lim % 60, sub, sub, sub, st, en, part, nodelist, nodes,
	    cpus, cpus, cpus, cpus * 100, nodes, cpus, cpn);
}

static void rand_queue(unsigned long seed)
{
	static const int lims[] = {10, 20, 30, 45, 60, 90, 120, 240, 600};
	const char *names[8] = {"n1", "n2", "n3", "n4", "n5", "n6", "m1", "m2"};
	int cpus[8] = {8, 8, 8, 8, 8, 8, 16, 16};
	size_t cap = 1 << 16, len = 0;
	unsigned long x = seed;
	int id = 1;

	free(rand_jobs);
	cr_assert_not_null(rand_jobs = malloc(cap));
	for (int i = 0, n = 8 + (int)rnd(&x, 8); i < n; i++) {
		int node = (int)rnd(&x, 8), c = 1 + (int)rnd(&x, 8);
		int lim = lims[rnd(&x, 9)];
		/* started 30 min to 5 h ago: a short limit is past */
		time_t st = NOW - 1800 - (time_t)rnd(&x, 16200), en = st + lim * 60;
		char s1[32], s2[32];

		if (c > cpus[node])
			continue;
		cpus[node] -= c;
		strftime(s1, sizeof(s1), "%Y-%m-%dT%H:%M:%S", gmtime(&st));
		strftime(s2, sizeof(s2), "%Y-%m-%dT%H:%M:%S", gmtime(&en));
		len += rand_record(rand_jobs + len, cap - len, id++, lim, s1, s1,
				   s2, "p", names[node], 1, c, 1);
	}
	for (int i = 0, n = 12 + (int)rnd(&x, 14); i < n; i++) {
		int nodes = 1 + (int)rnd(&x, 3), cpn = 1 + (int)rnd(&x, 8);
		int lim = lims[rnd(&x, 9)], c = nodes * cpn;
		time_t su = NOW - 60 * (time_t)(1 + rnd(&x, 600));
		char b[32];

		strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S", gmtime(&su));
		len += rand_record(rand_jobs + len, cap - len, id++, lim, b,
				   "Unknown", "Unknown", rnd(&x, 3) ? "p" : "q",
				   "", nodes, c, cpn);
		cr_assert_lt(len, cap);
	}
}

Test(forecast_passes, putting_off_sweeps_is_sweeping_all_in_turn)
{
	static const uint16_t releases[] = {2205, 2411, 2505};
	unsigned started = 0, reserved_later = 0, cases = 0;

	run_conf = conf_two;
	for (unsigned long seed = 1; seed <= 60; seed++) {
		rand_queue(seed);
		for (size_t v = 0; v < sizeof(releases) / sizeof(*releases); v++) {
			struct run lazy, eager;

			run_release = releases[v];
			forecast(&lazy, write_rand_jobs, NULL);
			fc_test.eager = true;
			forecast(&eager, write_rand_jobs, NULL);
			fc_test.eager = false;
			cr_assert_eq(lazy.fc.count, eager.fc.count);
			for (uint32_t i = 0; i < lazy.fc.count; i++) {
				const struct prio_forecast_row *a = &lazy.fc.rows[i],
							       *b = &eager.fc.rows[i];
				uint32_t id = lazy.snap.jobs[a->job].job_id;

				cr_assert_eq(a->job, b->job, "seed %lu %u: order",
					     seed, releases[v]);
				cr_assert_eq(a->status, b->status,
					     "seed %lu %u job %u", seed,
					     releases[v], id);
				cr_assert_eq(a->start, b->start,
					     "seed %lu %u job %u", seed,
					     releases[v], id);
				cr_assert_eq(a->how, b->how);
				cr_assert_str_eq(a->nodes ? a->nodes : "",
						 b->nodes ? b->nodes : "",
						 "seed %lu %u job %u", seed,
						 releases[v], id);
				started += a->status == PRIO_FC_STARTS;
				reserved_later += a->status == PRIO_FC_STARTS &&
						  a->how == PRIO_FC_BACKFILL &&
						  a->start > NOW;
			}
			cases++;
			done(&lazy);
			done(&eager);
		}
	}
	run_conf = conf;
	run_release = 0;
	free(rand_jobs);
	rand_jobs = NULL;
	/* the queues start jobs, some backfilled later than now */
	cr_assert_eq(cases, 180);
	cr_assert_gt(started, 1000, "%u started", started);
	cr_assert_gt(reserved_later, 100, "%u backfilled later", reserved_later);
}
