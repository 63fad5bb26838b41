/* SPDX-License-Identifier: MIT */
/*
 * Preemption planning: Slurm's plan against the oracle (preemption-a,
 * preemption-b: the victims and the order slurmctld logged them in), the
 * document's examples, every rule of slurm-facts §9 on small built
 * clusters, and the minimal plan against Slurm's on random clusters.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdlib.h>

#include "testutil.h"
#include "prio/preempt.h"
#include "prio/report_preempt.h"

#define NOW 1795320000L

struct world {
	struct prio_snapshot snap;
	struct prio_resources res;
	struct prio_preempt_ctx ctx;
	struct prio_preempt_plan slurm, minimal;
	bool loaded, planned;
};

static void check(int rc, const struct prio_error *err)
{
	char msg[1024];

	cr_assert_geq(rc, 0, "%s", prio_error_format(err, msg, sizeof(msg)));
}

/* The Slurm release the next world is from (as --slurm-version); 0: what
 * the artefacts say (TRES= in the jobs: 22.05). */
static uint16_t world_release;

static void finish_load(struct world *w, time_t now)
{
	struct prio_error err;

	if (world_release)
		prio_snapshot_note_version(&w->snap, world_release,
					   PRIO_VERSION_OPTION);
	w->snap.now = now;
	w->snap.now_known = true;
	check(prio_snapshot_finish(&w->snap, &err), &err);
	check(prio_resources_build(&w->snap, &w->res, &err), &err);
	w->loaded = true;
}

/* A world from text: slurm.conf, `scontrol show job -d -o` lines, and
 * `sacctmgr -P show qos` (or NULL). */
static void world_text(struct world *w, const char *conf, const char *jobs,
		       const char *qos, time_t now)
{
	struct prio_source src;
	struct prio_error err;

	memset(w, 0, sizeof(*w));
	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&w->snap), 0);
	test_source(&src, "slurm.conf", conf);
	check(prio_load_slurmconf_source(&w->snap, &src, &err), &err);
	if (qos) {
		test_source(&src, "qos.txt", qos);
		check(prio_load_qos(&w->snap, &src, &err), &err);
	}
	test_source(&src, "jobs.txt", jobs);
	check(prio_load_jobs_scontrol(&w->snap, &src, &err), &err);
	finish_load(w, now);
}

/* A world from files of the source tree. */
static void world_files(struct world *w, const char *conf, const char *jobs,
			const char *qos, time_t now)
{
	struct prio_error err;

	memset(w, 0, sizeof(*w));
	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&w->snap), 0);
	check(prio_load_role(&w->snap, PRIO_ROLE_CONF, test_path(conf), &err),
	      &err);
	if (qos)
		check(prio_load_role(&w->snap, PRIO_ROLE_QOS, test_path(qos),
				     &err),
		      &err);
	check(prio_load_role(&w->snap, PRIO_ROLE_JOBS, test_path(jobs), &err),
	      &err);
	finish_load(w, now);
}

static void world_plan(struct world *w, const struct prio_preempt_request *req)
{
	struct prio_error err;

	check(prio_preempt_ctx_init(&w->ctx, &w->snap, &w->res, req, &err),
	      &err);
	check(prio_preempt_plan_slurm(&w->ctx, &w->slurm, &err), &err);
	check(
	    prio_preempt_plan_minimal(&w->ctx, &w->slurm, 0, &w->minimal, &err),
	    &err);
	w->planned = true;
}

static void world_free(struct world *w)
{
	if (w->planned) {
		prio_preempt_plan_free(&w->slurm);
		prio_preempt_plan_free(&w->minimal);
		prio_preempt_ctx_free(&w->ctx);
	}
	if (w->loaded)
		prio_resources_free(&w->res);
	prio_snapshot_free(&w->snap);
	w->planned = w->loaded = false;
}

static prio_id id_of(struct world *w, const char *s)
{
	return prio_snapshot_intern(&w->snap, s, strlen(s));
}

/* A described job: partition, nodes (0: any), tasks. */
static struct prio_preempt_request described(struct world *w, const char *part,
					     uint32_t nodes, uint32_t tasks)
{
	struct prio_preempt_request req;

	prio_preempt_request_init(&req);
	req.partition = id_of(w, part);
	req.min_nodes = nodes;
	req.ntasks = tasks;
	req.time_limit = 30;
	return req;
}

static uint32_t snap_job(const struct world *w, uint32_t job_id)
{
	for (uint32_t j = 0; j < w->snap.job_count; j++)
		if (w->snap.jobs[j].job_id == job_id)
			return j;
	cr_assert_fail("job %u not in the snapshot", job_id);
	return 0;
}

static const struct prio_preempt_entry *
entry(const struct world *w, const struct prio_preempt_plan *p, uint32_t job_id)
{
	uint32_t j = snap_job(w, job_id);

	for (uint32_t i = 0; i < p->entry_count; i++)
		if (p->entries[i].job == j)
			return &p->entries[i];
	cr_assert_fail("job %u holds no resources", job_id);
	return NULL;
}

/* "1002,1000,1001": the victims in the order Slurm acts on them. */
static const char *victims(const struct world *w,
			   const struct prio_preempt_plan *p, char *buf,
			   size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t v = 0; v < p->victim_count; v++)
		n += (size_t)snprintf(
		    buf + n, size - n, "%s%u", v ? "," : "",
		    w->snap.jobs[p->entries[p->victims[v]].job].job_id);
	return buf;
}

static const char *nodes(const struct world *w,
			 const struct prio_preempt_plan *p, char *buf,
			 size_t size)
{
	char *names[64];

	for (uint32_t i = 0; i < p->node_count && i < 64; i++)
		names[i] = (char *)prio_snapshot_str(
		    &w->snap, w->snap.nodes[p->nodes[i]].name);
	return prio_hostlist_compress(
	    names, p->node_count < 64 ? p->node_count : 64, buf, size);
}

/* The job ids of "preempted JobId=N" lines in a slurmctld log, in order,
 * for the preemptor `by`. */
static const char *logged_victims(const char *log, unsigned by, char *buf,
				  size_t size)
{
	FILE *f = fopen(test_path(log), "r");
	char line[1024], tail[64];
	size_t n = 0;

	cr_assert_not_null(f, "%s", log);
	buf[0] = '\0';
	snprintf(tail, sizeof(tail), "for JobId=%u", by);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "preempted JobId=");

		if (p && strstr(line, tail))
			n += (size_t)snprintf(
			    buf + n, size - n, "%s%u", n ? "," : "",
			    (unsigned)strtoul(p + 16, NULL, 10));
	}
	fclose(f);
	return buf;
}

/* --- the oracle -------------------------------------------------------- */

#define PRE_A "tests/oracle/preemption-a-partition-suspend/"
#define PRE_B "tests/oracle/preemption-b-three-partitions/"

/* One preemption of the oracle, planned from the snapshot taken before it
 * with the clock at the preemptor's start: Slurm's victims are the jobs
 * slurmctld logged as preempted for it, in its order, and the job gets
 * the nodes real Slurm gave it. */
static void oracle_step(struct world *w, const char *dir, const char *before,
			time_t now, const char *part, uint32_t nodes_wanted,
			unsigned preemptor, const char *want_victims,
			const char *want_nodes)
{
	struct prio_preempt_request req;
	char conf[256], jobs[256], log[256], got[256], want[256];

	snprintf(conf, sizeof(conf), "%sslurm.conf", dir);
	snprintf(jobs, sizeof(jobs), "%sscontrol_show_job_d_%s.txt", dir,
		 before);
	snprintf(log, sizeof(log), "%sslurmctld_preempt_lines.log", dir);
	world_files(w, conf, jobs, NULL, now);
	req = described(w, part, nodes_wanted, 0);
	world_plan(w, &req);
	cr_assert(w->slurm.can_start);
	cr_expect_str_eq(victims(w, &w->slurm, got, sizeof(got)),
			 logged_victims(log, preemptor, want, sizeof(want)));
	cr_expect_str_eq(got, want_victims);
	cr_expect_str_eq(nodes(w, &w->slurm, got, sizeof(got)), want_nodes);
}

Test(preempt, oracle_a_suspends_three_in_logged_order)
{
	struct world w;

	/* 1_before was captured at 1795318886; hip3 started at 03:41:27 */
	oracle_step(&w, PRE_A, "1_before", 1795318887, "hipri", 3, 1005,
		    "1002,1000,1001", "pren[1-3]");
	cr_expect_eq(w.slurm.action_count[PRIO_ACTION_SUSPEND], 3);
	cr_expect_eq(entry(&w, &w.slurm, 1003)->action, PRIO_ACTION_NONE);
	cr_expect_eq(entry(&w, &w.slurm, 1004)->why, PRIO_WHY_NOT_NEEDED);
	/* all resume when the 30-minute job ends */
	cr_expect_eq(entry(&w, &w.slurm, 1000)->resume_time,
		     1795318887 + 30 * 60);
	cr_expect_eq(w.slurm.reorders, 1);
	cr_expect_eq(w.minimal.victim_count, 3);
	world_free(&w);
}

Test(preempt, oracle_b_med_requeues_2000_2001)
{
	struct world w;

	oracle_step(&w, PRE_B, "1_low_running", 1795318998, "med", 2, 2005,
		    "2001,2000", "pren[1-2]");
	cr_expect_eq(w.slurm.action_count[PRIO_ACTION_REQUEUE], 2);
	/* requeued jobs may start again after the credential lifetime:
	 * the oracle's 03:43:18 -> 03:45:19 */
	cr_expect_eq(entry(&w, &w.slurm, 2000)->resume_time,
		     entry(&w, &w.slurm, 2000)->stop_time + 121);
	world_free(&w);
}

Test(preempt, oracle_b_hi_requeues_low_not_med)
{
	struct world w;
	char got[256];

	oracle_step(&w, PRE_B, "2_med_submitted", 1795319011, "hi", 2, 2006,
		    "2003,2002", "pren[3-4]");
	cr_expect_eq(entry(&w, &w.slurm, 2005)->action, PRIO_ACTION_NONE);
	cr_expect_eq(entry(&w, &w.slurm, 2005)->mode, PRIO_PREEMPT_SUSPEND);
	/* the minimal plan suspends the med job instead: one victim */
	cr_expect_str_eq(victims(&w, &w.minimal, got, sizeof(got)), "2005");
	cr_expect_eq(entry(&w, &w.minimal, 2005)->action, PRIO_ACTION_SUSPEND);
	cr_expect_str_eq(nodes(&w, &w.minimal, got, sizeof(got)), "pren[1-2]");
	cr_expect_eq(w.minimal.lost_cpu_seconds, 0);
	cr_expect_gt(w.slurm.lost_cpu_seconds, 0);
	world_free(&w);
}

/* --- the document's examples ------------------------------------------ */

Test(preempt, future_ideas_minimal_uses_n3_n5)
{
	struct world w;
	struct prio_preempt_request req;
	char got[256];

	world_files(&w, "samples/preempt-future/slurm.conf",
		    "samples/preempt-future/jobs.txt", NULL, NOW);
	prio_preempt_request_init(&req);
	check(prio_preempt_request_from_job(&w.snap, snap_job(&w, 20), &req,
					    &(struct prio_error){0}),
	      &(struct prio_error){0});
	world_plan(&w, &req);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "17,18,19");
	cr_expect_str_eq(nodes(&w, &w.slurm, got, sizeof(got)), "n[1-3]");
	cr_expect_str_eq(victims(&w, &w.minimal, got, sizeof(got)), "19");
	cr_expect_str_eq(nodes(&w, &w.minimal, got, sizeof(got)), "n[3-5]");
	cr_expect(w.minimal.exact);
	world_free(&w);
}

Test(preempt, three_partitions_hi_suspends_med)
{
	struct world w;
	struct prio_preempt_request req;
	struct prio_preempt_queue q;
	struct prio_error err;
	char got[256];

	world_files(&w, "samples/preempt-three/slurm.conf",
		    "samples/preempt-three/jobs.txt", NULL, NOW);
	prio_preempt_request_init(&req);
	check(prio_preempt_request_from_job(&w.snap, snap_job(&w, 96), &req,
					    &err),
	      &err);
	world_plan(&w, &req);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "95");
	cr_expect_eq(entry(&w, &w.slurm, 95)->action, PRIO_ACTION_SUSPEND);
	/* the queue as the document shows it after 96 starts */
	check(prio_preempt_queue_build(&w.ctx, &w.slurm, &q, &err), &err);
	cr_assert_eq(q.count, 3);
	cr_expect_eq(q.rows[0].job_id, 96);
	cr_expect_eq(q.rows[0].state, PRIO_JOB_RUNNING);
	cr_expect_eq(q.rows[1].job_id, 94);
	cr_expect_eq(q.rows[1].state, PRIO_JOB_PENDING);
	cr_expect_eq(q.rows[2].job_id, 95);
	cr_expect_eq(q.rows[2].state, PRIO_JOB_SUSPENDED);
	prio_preempt_queue_free(&q);
	world_free(&w);
}

/* --- rules on built clusters ------------------------------------------ */

static char jobs_buf[1 << 16];
static size_t jobs_len;

static void jobs_reset(void)
{
	jobs_len = 0;
	jobs_buf[0] = '\0';
}

/* One `scontrol show job -d -o` line of a running job: allocs as
 * "n1:4,n2:4" (node:CPUs). */
static void run_job(unsigned id, const char *part, const char *qos, long start,
		    const char *allocs, int requeue, unsigned prio)
{
	char nodelist[512] = "", detail[2048] = "", copy[512];
	unsigned cpus = 0, count = 0;
	size_t nl = 0, dl = 0;

	snprintf(copy, sizeof(copy), "%s", allocs);
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
		char *colon = strchr(tok, ':');
		unsigned c = (unsigned)atoi(colon + 1);

		*colon = '\0';
		nl += (size_t)snprintf(nodelist + nl, sizeof(nodelist) - nl,
				       "%s%s", nl ? "," : "", tok);
		dl +=
		    (size_t)snprintf(detail + dl, sizeof(detail) - dl,
				     "Nodes=%s CPU_IDs=0-%u Mem=%u GRES= ", tok,
				     c - 1, c * 1000);
		cpus += c;
		count++;
	}
	jobs_len += (size_t)snprintf(
	    jobs_buf + jobs_len, sizeof(jobs_buf) - jobs_len,
	    "JobId=%u JobName=j%u UserId=u(1000) GroupId=u(1000) "
	    "Priority=%u Nice=0 Account=a QOS=%s JobState=RUNNING "
	    "Reason=None Requeue=%d SubmitTime=%ld StartTime=%ld "
	    "Partition=%s TimeLimit=01:00:00 NodeList=%s NumNodes=%u "
	    "NumCPUs=%u NumTasks=%u CPUs/Task=1 TRES=cpu=%u,node=%u %s\n",
	    id, id, prio, qos, requeue, start, start, part, nodelist, count,
	    cpus, cpus, cpus, count, detail);
}

static void pending_job(unsigned id, const char *part, const char *qos,
			unsigned nodes, unsigned cpus, unsigned prio)
{
	jobs_len += (size_t)snprintf(
	    jobs_buf + jobs_len, sizeof(jobs_buf) - jobs_len,
	    "JobId=%u JobName=p%u UserId=u(1000) GroupId=u(1000) "
	    "Priority=%u Nice=0 Account=a QOS=%s JobState=PENDING "
	    "Reason=Resources Requeue=1 SubmitTime=%ld StartTime=Unknown "
	    "Partition=%s TimeLimit=00:30:00 NodeList= NumNodes=%u-%u "
	    "NumCPUs=%u NumTasks=%u CPUs/Task=1 TRES=cpu=%u,node=%u\n",
	    id, id, prio, qos, NOW, part, nodes, nodes, cpus, cpus, cpus,
	    nodes);
}

#define CONF_HEAD                                                              \
	"ClusterName=t\nSlurmctldHost=h\n"                                     \
	"SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"

/* partition_prio over 3 nodes of 4 CPUs: low (tier 1), hi (tier 2). */
static const char *tiers_conf(const char *extra, const char *low_mode)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 CONF_HEAD "PreemptType=preempt/partition_prio\n"
			   "PreemptMode=REQUEUE\n%s"
			   "NodeName=n[1-3] CPUs=4 RealMemory=4000\n"
			   "PartitionName=low Nodes=n[1-3] PriorityTier=1 "
			   "Default=YES PreemptMode=%s GraceTime=%s\n"
			   "PartitionName=hi Nodes=n[1-3] PriorityTier=2\n",
		 extra, low_mode, strcmp(low_mode, "CANCEL") ? "0" : "45");
	return buf;
}

/* tiers_conf's cluster with the jobs of jobs_buf, and the plans of a job
 * of partition hi. */
static void tiers_plan(struct world *w, const char *extra, const char *mode,
		       uint32_t nodes_wanted, uint32_t tasks)
{
	struct prio_preempt_request req;

	world_text(w, tiers_conf(extra, mode), jobs_buf, NULL, NOW);
	req = described(w, "hi", nodes_wanted, tasks);
	world_plan(w, &req);
}

Test(preempt, grace_time_delays_kill_and_start)
{
	struct world w;
	const struct prio_preempt_entry *e;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 600, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 600, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 600, "n3:4", 1, 100);
	tiers_plan(&w, "", "CANCEL", 1, 4);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->action, PRIO_ACTION_CANCEL);
	cr_expect_eq(e->grace, 45);
	cr_expect_eq(e->signal_time, NOW, "SIGCONT+SIGTERM at once");
	cr_expect_eq(e->stop_time, NOW + 45, "SIGKILL at the new end time");
	cr_expect_eq(w.slurm.start_time, NOW + 45);
	cr_expect_eq(e->lost_cpu_seconds, 4 * 600);
	cr_expect_eq(w.slurm.victim_count, 1);
	world_free(&w);
}

Test(preempt, non_requeueable_falls_back_to_cancel)
{
	struct world w;
	const struct prio_preempt_entry *e;
	char why[512];

	jobs_reset();
	run_job(1, "low", "normal", NOW - 600, "n1:4", 0, 100);
	run_job(2, "low", "normal", NOW - 600, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 600, "n3:4", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 2, 8);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->mode, PRIO_PREEMPT_REQUEUE);
	cr_expect_eq(e->action, PRIO_ACTION_CANCEL);
	cr_expect(e->requeue_fallback);
	cr_expect_eq(e->resume_time, 0, "a cancelled job does not come back");
	cr_expect_eq(entry(&w, &w.slurm, 2)->action, PRIO_ACTION_REQUEUE);
	cr_expect_eq(entry(&w, &w.slurm, 2)->resume_time, NOW + 121);
	prio_preempt_why_text(&w.ctx, &w.slurm, e, why, sizeof(why));
	cr_expect(strstr(why, "cannot be requeued") != NULL, "%s", why);
	world_free(&w);
}

Test(preempt, preempt_exempt_time)
{
	struct world w;
	const struct prio_preempt_entry *e;
	char why[512];

	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 900, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 60, "n3:4", 1, 100);
	tiers_plan(&w, "PreemptExemptTime=10:00\n", "REQUEUE", 1, 4);
	/* only job 2 has run 10 minutes */
	cr_expect_eq(w.ctx.cand_count, 1);
	cr_expect_eq(entry(&w, &w.slurm, 2)->action, PRIO_ACTION_REQUEUE);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->why, PRIO_WHY_EXEMPT);
	cr_expect_eq(e->detail, 300);
	cr_expect_str_eq(
	    prio_preempt_why_text(&w.ctx, &w.slurm, e, why, sizeof(why)),
	    "exempt for 5 more minutes (PreemptExemptTime)");
	cr_expect_eq(entry(&w, &w.slurm, 3)->detail, 540);
	world_free(&w);

	/* a job needing two nodes cannot start: one is preemptable */
	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 900, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 60, "n3:4", 1, 100);
	tiers_plan(&w, "PreemptExemptTime=10:00\n", "REQUEUE", 2, 8);
	cr_expect_not(w.slurm.can_start);
	cr_expect_not(w.minimal.can_start);
	cr_expect_eq(entry(&w, &w.slurm, 2)->why, PRIO_WHY_NOT_ENOUGH);
	cr_expect(strstr(w.slurm.why_not, "even with all 1 preemptable") !=
		      NULL,
		  "%s", w.slurm.why_not);
	world_free(&w);
}

Test(preempt, qos_exempt_time_overrides_cluster)
{
	static const char qos[] =
	    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode\n"
	    "normal|10|00:00:00|||cluster\n"
	    "quick|10|00:00:00||00:01:00|cluster\n"
	    "high|100|00:00:00|normal,quick||cluster\n";
	struct world w;
	struct prio_preempt_request req;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "quick", NOW - 300, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 300, "n3:4", 1, 100);
	world_text(&w, tiers_conf("PreemptExemptTime=10:00\n", "REQUEUE"),
		   jobs_buf, qos, NOW);
	req = described(&w, "hi", 1, 4);
	world_plan(&w, &req);
	/* QOS quick's one minute has passed; the cluster's ten have not */
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_EXEMPT);
	cr_expect_eq(entry(&w, &w.slurm, 2)->action, PRIO_ACTION_REQUEUE);
	world_free(&w);
}

Test(preempt, youngest_first)
{
	struct world w;
	char got[64];

	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 100, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 200, "n3:4", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 1, 4);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "1");
	world_free(&w);

	tiers_plan(&w, "SchedulerParameters=preempt_youngest_first\n",
		   "REQUEUE", 1, 4);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "2");
	cr_expect_eq(entry(&w, &w.slurm, 3)->rank, 2);
	world_free(&w);
}

Test(preempt, small_jobs_first_by_size)
{
	struct world w;
	char got[64];

	/* (tier << 16) + node count: the 1-node job goes before the 2-node
	 * one although its id is higher */
	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4,n2:4", 1, 100);
	run_job(2, "low", "normal", NOW - 300, "n3:4", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 1, 4);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "2");
	world_free(&w);
}

/* Four 2-CPU jobs on two 4-CPU nodes, n3 held by a same-tier job; the
 * job wants one whole node: X (n1), Y (n2), F (n2), Z (n1) in that
 * order.  The first walk fits when F goes (n2). */
static void reorder_world(struct world *w, const char *params)
{
	char extra[256];

	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:2", 1, 100); /* X */
	run_job(2, "low", "normal", NOW - 300, "n2:2", 1, 100); /* Y */
	run_job(3, "low", "normal", NOW - 300, "n2:2", 1, 100); /* F */
	run_job(4, "low", "normal", NOW - 300, "n1:2", 1, 100); /* Z */
	run_job(5, "hi", "normal", NOW - 300, "n3:4", 1, 100);
	snprintf(extra, sizeof(extra), "SchedulerParameters=%s\n", params);
	world_text(w, tiers_conf(extra, "REQUEUE"), jobs_buf, NULL, NOW);
}

Test(preempt, reorder_count)
{
	struct world w;
	struct prio_preempt_request req;
	char got[64];

	/* no reorder: the walk's own order, X removed but on n1 */
	reorder_world(&w, "preempt_reorder_count=0");
	req = described(&w, "hi", 1, 4);
	world_plan(&w, &req);
	cr_expect_eq(w.slurm.reorders, 0);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "2,3");
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_OFF_NODES);
	cr_expect_eq(entry(&w, &w.slurm, 3)->why, PRIO_WHY_FIT);
	world_free(&w);

	/* default (1): F first, then by overlap with n2 (Y), X, Z */
	reorder_world(&w, "bf_interval=30");
	req = described(&w, "hi", 1, 4);
	world_plan(&w, &req);
	cr_expect_eq(w.slurm.reorders, 1);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "3,2");
	cr_expect_eq(entry(&w, &w.slurm, 2)->why, PRIO_WHY_FIT);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_NOT_NEEDED);
	cr_expect_eq(entry(&w, &w.slurm, 1)->rank, 3);
	cr_expect_eq(entry(&w, &w.slurm, 5)->why, PRIO_WHY_TIER);
	world_free(&w);
}

Test(preempt, strict_order)
{
	struct world w;
	struct prio_preempt_request req;
	char got[64];

	/* F moves to the head, the others keep their order: X is walked
	 * over again (removed, but off the job's node) */
	reorder_world(&w, "preempt_strict_order");
	req = described(&w, "hi", 1, 4);
	world_plan(&w, &req);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)), "3,2");
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_OFF_NODES);
	cr_expect_eq(entry(&w, &w.slurm, 1)->rank, 2);
	cr_expect_eq(entry(&w, &w.slurm, 2)->rank, 3);
	world_free(&w);
}

static const char qos_list[] =
    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|"
    "UsageThres|UsageFactor\n"
    "normal|10|00:00:00|||cluster|||1.000000\n"
    "scav|0|00:00:20|||requeue|||1.000000\n"
    "scavc|0|00:00:00|||cancel|||1.000000\n"
    "prem|100|00:00:00|scav,scavc||cluster|||1.000000\n";

Test(preempt, qos_requeue_with_grace_and_cancel)
{
	struct world w;
	struct prio_preempt_request req;
	char got[128];
	struct prio_error err;

	/* the capture's QOS (fairtree-basic), preemption-c's cluster */
	world_files(&w, "samples/preempt-qos/slurm.conf",
		    "samples/preempt-qos/jobs.txt",
		    "tests/oracle/fairtree-basic/sacctmgr_show_qos.txt", NOW);
	prio_preempt_request_init(&req);
	check(prio_preempt_request_from_job(&w.snap, snap_job(&w, 3010), &req,
					    &err),
	      &err);
	world_plan(&w, &req);
	/* scav and scavc sort alike (priority 0, 1 node): job order */
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)),
			 "3002,3000,3001");
	for (unsigned id = 3000; id <= 3002; id++) {
		const struct prio_preempt_entry *e = entry(&w, &w.slurm, id);

		cr_expect_eq(e->action, PRIO_ACTION_REQUEUE, "%u", id);
		cr_expect_eq(e->grace, 20);
		cr_expect_eq(e->signal_time, NOW);
		cr_expect_eq(e->stop_time, NOW + 20);
		cr_expect_eq(e->resume_time, NOW + 20 + 121);
	}
	cr_expect_eq(w.slurm.start_time, NOW + 20);
	cr_expect_eq(entry(&w, &w.slurm, 3005)->mode, PRIO_PREEMPT_CANCEL);
	cr_expect_eq(entry(&w, &w.slurm, 3005)->grace, 0);
	/* the minimal plan also needs three, and loses the least work: the
	 * three youngest, scavc jobs, cancelled at once */
	cr_expect_str_eq(victims(&w, &w.minimal, got, sizeof(got)),
			 "3007,3008,3009");
	cr_expect_eq(w.minimal.action_count[PRIO_ACTION_CANCEL], 3);
	cr_expect_eq(w.minimal.start_time, NOW);
	cr_expect_lt(w.minimal.lost_cpu_seconds, w.slurm.lost_cpu_seconds);
	world_free(&w);
}

Test(preempt, qos_cancel_only)
{
	struct world w;
	struct prio_preempt_request req;
	char got[128];

	jobs_reset();
	for (unsigned i = 0; i < 10; i++) {
		char at[32];

		snprintf(at, sizeof(at), "n%u:4", 1 + i / 2);
		run_job(3011 + i, "all", "scavc", NOW - 100, at, 1, 100);
	}
	world_text(&w,
		   CONF_HEAD "PreemptType=preempt/qos\nPreemptMode=REQUEUE\n"
			     "NodeName=n[1-5] CPUs=8 RealMemory=16000\n"
			     "PartitionName=all Nodes=n[1-5] Default=YES\n",
		   jobs_buf, qos_list, NOW);
	req = described(&w, "all", 0, 12);
	req.qos = id_of(&w, "prem");
	world_plan(&w, &req);
	cr_expect_str_eq(victims(&w, &w.slurm, got, sizeof(got)),
			 "3013,3011,3012");
	cr_expect_eq(w.slurm.action_count[PRIO_ACTION_CANCEL], 3);
	cr_expect_eq(w.slurm.start_time, NOW, "no GraceTime: at once");
	cr_expect_eq(entry(&w, &w.slurm, 3011)->stop_time, NOW);
	world_free(&w);
}

/* preempt/qos, REQUEUE, three 4-CPU nodes in partition "all", the jobs
 * of jobs_buf. */
static void qos_world(struct world *w, const char *qos)
{
	world_text(w,
		   CONF_HEAD "PreemptType=preempt/qos\nPreemptMode=REQUEUE\n"
			     "NodeName=n[1-3] CPUs=4\n"
			     "PartitionName=all Nodes=n[1-3] Default=YES\n",
		   jobs_buf, qos, NOW);
}

Test(preempt, qos_rules)
{
	static const char qos[] =
	    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode\n"
	    "normal|10|00:00:00|||cluster\n"
	    "low|1|00:00:00|||off\n"
	    "high|100|00:00:00|low||cluster\n"
	    "peer|50|00:00:00|||within,requeue\n"
	    "bare|50|00:00:00|||within\n";
	struct world w;
	struct prio_preempt_request req;
	char why[512];

	jobs_reset();
	run_job(1, "all", "normal", NOW - 100, "n1:4", 1, 100);
	run_job(2, "all", "low", NOW - 100, "n2:4", 1, 100);
	run_job(3, "all", "high", NOW - 100, "n3:4", 1, 100);
	qos_world(&w, qos);
	req = described(&w, "all", 1, 4);
	req.qos = id_of(&w, "high");
	world_plan(&w, &req);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_QOS_NOT_LISTED);
	cr_expect_eq(entry(&w, &w.slurm, 3)->why, PRIO_WHY_QOS_SAME);
	cr_expect_str_eq(prio_preempt_why_text(&w.ctx, &w.slurm,
					       entry(&w, &w.slurm, 1), why,
					       sizeof(why)),
			 "QOS normal is not in QOS high's Preempt list");
	/* a QOS PreemptMode of OFF is 0, "the cluster's": REQUEUE here */
	cr_expect_eq(entry(&w, &w.slurm, 2)->mode, PRIO_PREEMPT_REQUEUE);
	cr_expect_eq(entry(&w, &w.slurm, 2)->action, PRIO_ACTION_REQUEUE);
	world_free(&w);

	/* nothing listed: cannot start */
	jobs_reset();
	run_job(1, "all", "normal", NOW - 100, "n1:4,n2:4,n3:4", 1, 100);
	qos_world(&w, qos);
	req = described(&w, "all", 1, 4);
	req.qos = id_of(&w, "high");
	world_plan(&w, &req);
	cr_expect_not(w.slurm.can_start);
	cr_expect(strstr(w.slurm.why_not, "no running job there may be "
					  "preempted") != NULL,
		  "%s", w.slurm.why_not);
	world_free(&w);

	/* WITHIN on the QOS: the same QOS preempts a lower job priority */
	jobs_reset();
	run_job(1, "all", "peer", NOW - 100, "n1:4", 1, 900);
	run_job(2, "all", "peer", NOW - 100, "n2:4", 1, 100);
	run_job(3, "all", "peer", NOW - 100, "n3:4", 1, 100);
	qos_world(&w, qos);
	req = described(&w, "all", 1, 4);
	req.qos = id_of(&w, "peer");
	req.priority = 500;
	world_plan(&w, &req);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_QOS_PRIORITY);
	cr_expect_eq(entry(&w, &w.slurm, 2)->action, PRIO_ACTION_REQUEUE);
	world_free(&w);

	/* a QOS mode of WITHIN alone is not 0, so the cluster's mode does
	 * not apply; stripped of WITHIN it is OFF */
	jobs_reset();
	run_job(1, "all", "bare", NOW - 100, "n1:4,n2:4,n3:4", 1, 100);
	qos_world(&w, qos);
	req = described(&w, "all", 1, 4);
	req.qos = id_of(&w, "bare");
	req.priority = 500;
	world_plan(&w, &req);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_MODE_OFF);
	cr_expect_not(w.slurm.can_start);
	world_free(&w);
}

Test(preempt, qos_suspend_uses_the_extra_row)
{
	static const char qos[] =
	    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode\n"
	    "normal|10|00:00:00|||suspend\n"
	    "high|100|00:00:00|normal||cluster\n";
	struct world w;
	struct prio_preempt_request req;

	jobs_reset();
	run_job(1, "normal", "normal", NOW - 100, "n1:4", 1, 100);
	run_job(2, "normal", "normal", NOW - 100, "n2:4", 1, 100);
	world_text(&w,
		   CONF_HEAD "PreemptType=preempt/qos\n"
			     "PreemptMode=SUSPEND,GANG\n"
			     "NodeName=n[1-2] CPUs=4\n"
			     "PartitionName=normal Nodes=n[1-2] Default=YES "
			     "OverSubscribe=FORCE:1\n",
		   jobs_buf, qos, NOW);
	req = described(&w, "normal", 1, 4);
	req.qos = id_of(&w, "high");
	world_plan(&w, &req);
	cr_assert(w.slurm.can_start);
	cr_expect_eq(w.slurm.victim_count, 1);
	cr_expect_eq(entry(&w, &w.slurm, 1)->action, PRIO_ACTION_SUSPEND);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_QOS_ROW);
	world_free(&w);
}

Test(preempt, gang_time_slicing_within_partition)
{
	struct world w;
	struct prio_preempt_request req;

	jobs_reset();
	run_job(1, "share", "normal", NOW - 100, "n1:4", 1, 100);
	world_text(&w,
		   CONF_HEAD "PreemptType=preempt/partition_prio\n"
			     "PreemptMode=SUSPEND,GANG\n"
			     "NodeName=n1 CPUs=4\n"
			     "PartitionName=share Nodes=n1 Default=YES "
			     "OverSubscribe=FORCE:2\n",
		   jobs_buf, NULL, NOW);
	req = described(&w, "share", 1, 4);
	world_plan(&w, &req);
	cr_assert(w.slurm.can_start);
	cr_expect_eq(w.slurm.victim_count, 0);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_TIMESLICE);
	cr_expect_eq(entry(&w, &w.slurm, 1)->action, PRIO_ACTION_NONE);
	world_free(&w);
}

Test(preempt, cannot_start)
{
	struct world w;
	struct prio_preempt_request req;

	/* more nodes than the partition has */
	jobs_reset();
	run_job(1, "low", "normal", NOW - 100, "n1:4", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 4, 0);
	cr_expect_not(w.slurm.can_start);
	cr_expect_not(w.minimal.can_start);
	cr_expect_str_eq(w.slurm.why_not,
			 "it needs 4 nodes; partition hi has 3 usable");
	world_free(&w);

	/* every node held by jobs of its own tier */
	jobs_reset();
	run_job(1, "hi", "normal", NOW - 100, "n1:4", 1, 100);
	run_job(2, "hi", "normal", NOW - 100, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 100, "n3:4", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 2, 0);
	cr_expect_not(w.slurm.can_start);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_TIER);
	cr_expect_eq(entry(&w, &w.slurm, 3)->why, PRIO_WHY_NOT_ENOUGH);
	cr_expect_eq(w.slurm.victim_count, 0);
	world_free(&w);

	/* preemption off */
	jobs_reset();
	run_job(1, "low", "normal", NOW - 100, "n1:4,n2:4,n3:4", 1, 100);
	world_text(&w,
		   CONF_HEAD "NodeName=n[1-3] CPUs=4\n"
			     "PartitionName=low Nodes=n[1-3] Default=YES\n",
		   jobs_buf, NULL, NOW);
	req = described(&w, "low", 1, 1);
	world_plan(&w, &req);
	cr_expect_not(w.slurm.can_start);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_DISABLED);
	cr_expect(strstr(w.slurm.why_not, "preemption is off") != NULL, "%s",
		  w.slurm.why_not);
	world_free(&w);
}

Test(preempt, fits_without_preemption)
{
	struct world w;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 100, "n1:2", 1, 100);
	tiers_plan(&w, "", "REQUEUE", 3, 6);
	cr_assert(w.slurm.can_start);
	cr_expect_eq(w.slurm.victim_count, 0);
	cr_expect_eq(entry(&w, &w.slurm, 1)->why, PRIO_WHY_FREE);
	cr_expect_eq(w.minimal.victim_count, 0);
	world_free(&w);
}

Test(preempt, pending_job_must_be_pending)
{
	struct world w;
	struct prio_preempt_request req;
	struct prio_error err;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 100, "n1:2", 1, 100);
	pending_job(2, "hi", "normal", 2, 8, 100);
	world_text(&w, tiers_conf("", "REQUEUE"), jobs_buf, NULL, NOW);
	prio_preempt_request_init(&req);
	cr_expect_eq(
	    prio_preempt_request_from_job(&w.snap, snap_job(&w, 1), &req, &err),
	    PRIO_ERR_USAGE);
	cr_expect_str_eq(err.message, "job 1 is RUNNING, not pending");
	cr_expect_eq(
	    prio_preempt_request_from_job(&w.snap, snap_job(&w, 2), &req, &err),
	    0);
	cr_expect_eq(req.min_nodes, 2);
	cr_expect_eq(req.min_cpus, 8);
	world_free(&w);
}

/* --- the minimal plan against Slurm's, on random clusters --------------- */

static uint64_t rng = 0x853c49e6748fea9bull;

static uint32_t rnd(uint32_t n)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return n ? (uint32_t)((z ^ (z >> 31)) % n) : 0;
}

/* One random cluster: returns its slurm.conf, fills jobs_buf. */
static const char *random_cluster(struct prio_preempt_request *shape, bool *qos)
{
	static const char *const modes[] = {"REQUEUE", "CANCEL", "SUSPEND"};
	static char conf[2048];
	uint32_t nodes = 2 + rnd(6), cpus = 2u << rnd(3);
	bool linear = rnd(4) == 0, mem = rnd(3) == 0;
	bool gang = rnd(2) == 0;
	uint32_t free_cpus[8];
	unsigned id = 100;

	*qos = rnd(3) == 0;
	snprintf(conf, sizeof(conf),
		 "ClusterName=r\nSlurmctldHost=h\nSelectType=select/%s\n"
		 "SelectTypeParameters=%s\nDefMemPerCPU=1000\n"
		 "PreemptType=preempt/%s\nPreemptMode=%s%s\n"
		 "NodeName=n[1-%u] CPUs=%u RealMemory=%u\n"
		 "PartitionName=low Nodes=n[1-%u] PriorityTier=1 Default=YES "
		 "PreemptMode=%s OverSubscribe=%s\n"
		 "PartitionName=mid Nodes=n[1-%u] PriorityTier=2 "
		 "PreemptMode=%s\n"
		 "PartitionName=hi Nodes=n[1-%u] PriorityTier=3 "
		 "PreemptMode=OFF\n",
		 linear ? "linear" : "cons_tres",
		 linear ? (mem ? "CR_Memory" : "CR_CPU")
			: (mem ? "CR_Core_Memory" : "CR_Core"),
		 *qos ? "qos" : "partition_prio", gang ? "SUSPEND" : "REQUEUE",
		 gang ? ",GANG" : "", nodes, cpus, cpus * 1000 * (1 + rnd(2)),
		 nodes, modes[rnd(gang ? 3 : 2)], rnd(2) ? "NO" : "FORCE:1",
		 nodes, modes[rnd(gang ? 3 : 2)], nodes);
	jobs_reset();
	for (uint32_t n = 0; n < nodes; n++)
		free_cpus[n] = cpus;
	for (uint32_t n = 0; n < nodes; n++) {
		while (free_cpus[n] && rnd(5)) {
			uint32_t c = linear ? cpus : 1 + rnd(free_cpus[n]);
			bool two = n + 1 < nodes && free_cpus[n + 1] >= c &&
				   rnd(4) == 0;
			char at[64];
			const char *part = rnd(3) ? "low" : "mid";
			const char *q = rnd(2) ? "lo" : "md";

			if (two)
				snprintf(at, sizeof(at), "n%u:%u,n%u:%u", n + 1,
					 c, n + 2, c);
			else
				snprintf(at, sizeof(at), "n%u:%u", n + 1, c);
			run_job(id++, part, q, NOW - 10 - (long)rnd(5000), at,
				rnd(5) != 0, 100);
			free_cpus[n] -= c;
			if (two)
				free_cpus[n + 1] -= c;
		}
	}
	*shape = (struct prio_preempt_request){0};
	shape->min_nodes = 1 + rnd(nodes);
	shape->ntasks = shape->min_nodes * (1 + rnd(cpus));
	if (rnd(4) == 0) {
		shape->ntasks = 1 + rnd(nodes * cpus);
		shape->min_nodes = 0;
	}
	return conf;
}

Test(preempt, minimal_never_worse_than_slurm, .timeout = 60)
{
	static const char qos[] =
	    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode\n"
	    "lo|1|00:00:00|||cluster\n"
	    "md|5|00:00:00|||requeue\n"
	    "top|100|00:00:00|lo,md||cluster\n";
	unsigned started = 0, better = 0, saved = 0, less_lost = 0, exact = 0;
	unsigned max_saved = 0;

	for (int round = 0; round < 1000; round++) {
		struct prio_preempt_request shape, req;
		struct world w;
		bool use_qos;
		const char *conf = random_cluster(&shape, &use_qos);

		world_text(&w, conf, jobs_buf, use_qos ? qos : NULL, NOW);
		prio_preempt_request_init(&req);
		req.partition = id_of(&w, use_qos ? "low" : "hi");
		req.qos = id_of(&w, "top");
		req.min_nodes = shape.min_nodes;
		req.ntasks = shape.ntasks;
		req.time_limit = 60;
		world_plan(&w, &req);
		if (w.slurm.can_start) {
			started++;
			cr_assert(w.minimal.can_start, "round %d", round);
			cr_assert_leq(w.minimal.victim_count,
				      w.slurm.victim_count, "round %d", round);
			if (w.minimal.victim_count < w.slurm.victim_count) {
				unsigned d = w.slurm.victim_count -
					     w.minimal.victim_count;

				better++;
				saved += d;
				max_saved = d > max_saved ? d : max_saved;
			} else if (w.minimal.lost_cpu_seconds <
				   w.slurm.lost_cpu_seconds) {
				less_lost++;
			}
			exact += w.minimal.exact;
		}
		/* Both plans place the job inside its partition with the
		 * CPUs it asked for. */
		for (int s = 0; s < 2; s++) {
			const struct prio_preempt_plan *p =
			    s ? &w.minimal : &w.slurm;
			uint64_t sum = 0;

			if (!p->can_start)
				continue;
			cr_assert_geq(p->node_count, w.ctx.need_nodes);
			cr_assert_leq(p->node_count, w.ctx.max_nodes);
			for (uint32_t i = 0; i < p->node_count; i++)
				sum += p->node_cpus[i];
			cr_assert_geq(sum, w.ctx.need_cpus, "round %d", round);
			for (uint32_t v = 0; v < p->victim_count; v++)
				cr_assert(p->entries[p->victims[v]].candidate);
		}
		world_free(&w);
	}
	cr_log_info("minimal vs slurm on 1000 random clusters: %u could "
		    "start, minimal strictly fewer victims in %u (%u victims "
		    "saved, at most %u in one), same count but less work lost "
		    "in %u, exact search in %u",
		    started, better, saved, max_saved, less_lost, exact);
	cr_expect_gt(started, 300);
	cr_expect_gt(better, 0);
}

/* --- behaviour that changed between releases ----------------------------- */

/* GraceTime 45 s on low's CANCEL jobs (tiers_conf): job 1 is cancelled
 * after SIGTERM.  From 24.05 an exit within the grace is PREEMPTED (and a
 * REQUEUE job requeued); the plan's times are the same in both. */
static void grace_world(struct world *w, uint16_t release)
{
	jobs_reset();
	run_job(1, "low", "normal", NOW - 600, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 600, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 600, "n3:4", 1, 100);
	world_release = release;
	tiers_plan(w, "", "CANCEL", 1, 4);
	world_release = 0;
}

Test(release_2405, grace_exit_counts_as_preempted)
{
	struct world w;
	const struct prio_preempt_entry *e;

	grace_world(&w, 2405);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->action, PRIO_ACTION_CANCEL);
	cr_expect_eq(e->signal_time, NOW);
	cr_expect_eq(e->stop_time, NOW + 45);
	cr_expect(e->grace_exit_preempted, "24.05: PREEMPTED");
	world_free(&w);
}

Test(release_2311, grace_exit_not_preempted)
{
	struct world w;
	const struct prio_preempt_entry *e;

	grace_world(&w, 2311);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->stop_time, NOW + 45, "same timing as 24.05");
	cr_expect_not(e->grace_exit_preempted, "23.11: ends as it exits");
	world_free(&w);
}

/* Three low jobs of priority 100, 5000, 100 on one node each; the hi job
 * (priority 1000) needs one node. */
static void priority_world(struct world *w, uint16_t release,
			   const char *extra, const char *hi_mode)
{
	static char conf[2048];
	struct prio_preempt_request req;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 600, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 600, "n2:4", 1, 5000);
	run_job(3, "low", "normal", NOW - 600, "n3:4", 1, 100);
	/* hi_mode goes on hi's line, the last one */
	snprintf(conf, sizeof(conf), "%s", tiers_conf(extra, "REQUEUE"));
	snprintf(conf + strlen(conf) - 1, sizeof(conf) - strlen(conf) + 1,
		 "%s\n", hi_mode);
	world_release = release;
	world_text(w, conf, jobs_buf, NULL, NOW);
	world_release = 0;
	req = described(w, "hi", 1, 4);
	req.priority = 1000;
	world_plan(w, &req);
}

Test(release_2505, preempt_mode_priority_partition)
{
	struct world w;
	char why[512];

	/* hi's own PreemptMode has PRIORITY: job 2 (5000 > 1000) is spared */
	priority_world(&w, 2505, "",
		       " PreemptMode=REQUEUE,PRIORITY");
	cr_expect_eq(w.ctx.cand_count, 2);
	cr_expect_eq(entry(&w, &w.slurm, 2)->why, PRIO_WHY_PRIORITY_MODE);
	cr_expect_str_eq(prio_preempt_why_text(&w.ctx, &w.slurm,
					       entry(&w, &w.slurm, 2), why,
					       sizeof(why)),
			 "PreemptMode PRIORITY: its priority 5000 is above the "
			 "job's 1000");
	cr_expect(entry(&w, &w.slurm, 1)->candidate);
	world_free(&w);

	/* the cluster's PreemptMode has it: the same */
	priority_world(&w, 2505, "PreemptMode=REQUEUE,PRIORITY\n", "");
	cr_expect_eq(w.ctx.cand_count, 2);
	cr_expect_eq(entry(&w, &w.slurm, 2)->why, PRIO_WHY_PRIORITY_MODE);
	world_free(&w);

	/* 25.05.1: a partition without its own PreemptMode does not imply
	 * PRIORITY -- higher tiers preempt every lower-tier job */
	priority_world(&w, 2505, "", "");
	cr_expect_eq(w.ctx.cand_count, 3);
	world_free(&w);
}

Test(release_2411, preempt_mode_priority_refused)
{
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	test_source(&src, "slurm.conf",
		    "PreemptType=preempt/partition_prio\n"
		    "PreemptMode=REQUEUE,PRIORITY\n");
	cr_assert_eq(prio_load_slurmconf_source(&snap, &src, &err), 0);
	prio_snapshot_note_version(&snap, 2411, PRIO_VERSION_OPTION);
	cr_expect_lt(prio_snapshot_finish(&snap, &err), 0);
	cr_expect_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "slurm.conf:2: PreemptMode: PreemptMode PRIORITY is "
			 "new in Slurm 25.05; the snapshot is Slurm 24.11 "
			 "(--slurm-version to say otherwise)");
	prio_snapshot_free(&snap);
}

Test(release_2411, higher_tier_preempts_any_priority)
{
	struct world w;

	/* no PRIORITY mode: job 2's priority 5000 does not protect it */
	priority_world(&w, 2411, "", "");
	cr_expect_eq(w.ctx.cand_count, 3);
	cr_expect(entry(&w, &w.slurm, 2)->candidate);
	world_free(&w);
}

Test(release_2302, min_exempt_priority)
{
	struct world w;
	char why[512];

	/* priority 5000 > 2000: never preempted; 100 may be */
	priority_world(&w, 2302, "PreemptParameters=min_exempt_priority=2000\n",
		       "");
	cr_expect_eq(w.snap.conf.preempt.min_exempt_priority, 2000);
	cr_expect_eq(w.ctx.cand_count, 2);
	cr_expect_eq(entry(&w, &w.slurm, 2)->why, PRIO_WHY_MIN_EXEMPT);
	cr_expect_str_eq(prio_preempt_why_text(&w.ctx, &w.slurm,
					       entry(&w, &w.slurm, 2), why,
					       sizeof(why)),
			 "its priority 5000 is above PreemptParameters "
			 "min_exempt_priority=2000");
	world_free(&w);
}

Test(release_2302, preempt_parameters_and_old_spelling)
{
	struct world w;

	/* reorder_count= wins over preempt_reorder_count=; booleans from
	 * either spelling */
	priority_world(&w, 2302,
		       "PreemptParameters=reorder_count=3,strict_order\n"
		       "SchedulerParameters=preempt_youngest_first,"
		       "preempt_reorder_count=5\n",
		       "");
	cr_expect_eq(w.ctx.reorder_count, 3);
	cr_expect(w.ctx.strict_order);
	cr_expect(w.ctx.youngest_first);
	cr_expect_eq(w.ctx.min_exempt_priority, PRIO_NO_VAL);
	world_free(&w);

	/* 22.05: the old spelling alone */
	priority_world(&w, 2205,
		       "SchedulerParameters=preempt_strict_order,"
		       "preempt_reorder_count=5\n",
		       "");
	cr_expect_eq(w.ctx.reorder_count, 5);
	cr_expect(w.ctx.strict_order);
	cr_expect_not(w.ctx.youngest_first);
	world_free(&w);
}

/* Job 1 started 5 minutes ago, 2 and 3 15 minutes ago; low is SUSPEND
 * under SUSPEND,GANG with PreemptExemptTime 10 minutes. */
static void exempt_world(struct world *w, uint16_t release)
{
	struct prio_preempt_request req;

	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 900, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 900, "n3:4", 1, 100);
	world_release = release;
	world_text(w,
		   tiers_conf("PreemptMode=SUSPEND,GANG\n"
			      "PreemptExemptTime=10:00\n",
			      "SUSPEND"),
		   jobs_buf, NULL, NOW);
	world_release = 0;
	req = described(w, "hi", 1, 4);
	world_plan(w, &req);
}

Test(release_2605, exempt_time_suspend_gang)
{
	struct world w;
	const struct prio_preempt_entry *e;

	exempt_world(&w, 2605);
	e = entry(&w, &w.slurm, 1);
	cr_expect_eq(e->why, PRIO_WHY_EXEMPT);
	cr_expect_eq(e->detail, 300);
	cr_expect_not(e->candidate);
	cr_expect_eq(w.ctx.cand_count, 2);
	world_free(&w);
}

Test(release_2511, exempt_time_ignored_for_suspend_gang)
{
	struct world w;
	const struct prio_preempt_entry *e;
	char why[512];

	exempt_world(&w, 2511);
	e = entry(&w, &w.slurm, 1);
	cr_expect(e->candidate, "the gang scheduler suspends it anyway");
	cr_expect(e->exempt_ignored);
	cr_expect_eq(e->detail, 300);
	cr_expect_eq(w.ctx.cand_count, 3);
	prio_preempt_why_text(&w.ctx, &w.slurm, e, why, sizeof(why));
	cr_expect(strstr(why, "(300 s left) does not protect a SUSPEND job") !=
		      NULL,
		  "%s", why);
	world_free(&w);
}

Test(release_2605, exempt_time_suspend_needs_the_cluster_value)
{
	static const char qos[] =
	    "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode\n"
	    "normal|10|00:00:00||00:10:00|cluster\n";
	struct world w;
	struct prio_preempt_request req;
	const struct prio_preempt_entry *e;
	char why[512];

	/* only the QOS has an exempt time: 26.05 rebuilds the exempt cores
	 * only when the cluster's PreemptExemptTime is set, so the gang
	 * scheduler still suspends job 1 */
	jobs_reset();
	run_job(1, "low", "normal", NOW - 300, "n1:4", 1, 100);
	run_job(2, "low", "normal", NOW - 900, "n2:4", 1, 100);
	run_job(3, "low", "normal", NOW - 900, "n3:4", 1, 100);
	world_release = 2605;
	world_text(&w, tiers_conf("PreemptMode=SUSPEND,GANG\n", "SUSPEND"),
		   jobs_buf, qos, NOW);
	world_release = 0;
	req = described(&w, "hi", 1, 4);
	world_plan(&w, &req);
	e = entry(&w, &w.slurm, 1);
	cr_expect(e->candidate);
	cr_expect(e->exempt_ignored);
	prio_preempt_why_text(&w.ctx, &w.slurm, e, why, sizeof(why));
	cr_expect(strstr(why, "without a cluster-wide PreemptExemptTime") !=
		      NULL,
		  "%s", why);
	world_free(&w);
}
