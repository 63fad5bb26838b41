/* SPDX-License-Identifier: MIT */
/* Jobs: scontrol show job (multi-line, -d, -o), squeue --json, job states,
 * linking, and malformed input. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdlib.h>
#include <unistd.h>

#include "loadcache.h"
#include "testutil.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

/* Load one file with the given loader into a fresh snapshot. */
static void load_file(struct prio_snapshot *snap, const char *rel,
		      int (*loader)(struct prio_snapshot *,
				    const struct prio_source *,
				    struct prio_error *))
{
	struct prio_source src;
	struct prio_error err;
	char msg[1024];

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(prio_source_open(&src, test_path(rel), &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(loader(snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	prio_source_close(&src);
}

static int load_text(struct prio_snapshot *snap, const char *text,
		     struct prio_error *err, bool keep_going)
{
	struct prio_source src;

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	snap->keep_going = keep_going;
	prio_error_clear(err);
	test_source(&src, "jobs.txt", text);
	return prio_load_jobs_scontrol(snap, &src, err);
}

static int load_json_text(struct prio_snapshot *snap, const char *text,
			  struct prio_error *err)
{
	struct prio_source src;

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	prio_error_clear(err);
	test_source(&src, "jobs.json", text);
	return prio_load_jobs_squeue_json(snap, &src, err);
}

static const struct prio_job *find_job(const struct prio_snapshot *snap,
				       uint32_t id)
{
	for (uint32_t i = 0; i < snap->job_count; i++)
		if (snap->jobs[i].job_id == id)
			return &snap->jobs[i];
	cr_assert_fail("job %u not loaded", id);
	return NULL;
}

static const char *S(const struct prio_snapshot *snap, prio_id id)
{
	return prio_snapshot_str(snap, id);
}

static uint64_t tres(const struct prio_snapshot *snap,
		     const struct prio_tres_list *l, const char *name)
{
	int t = prio_tres_find(&snap->tres, name, strlen(name));

	return t < 0 ? UINT64_MAX : prio_tres_list_get(l, (uint32_t)t, UINT64_MAX);
}

/* The -o form of a multi-line capture: each record's lines joined by one
 * space, as `scontrol -o show job -d` prints them. */
static char *one_line_form(const char *rel)
{
	struct prio_source src;
	struct prio_error err;
	char *out, *o;
	bool line_start = true, have = false;

	cr_assert_eq(prio_source_open(&src, test_path(rel), &err), 0);
	out = o = malloc(src.size + 2);
	for (size_t i = 0; i < src.size; i++) {
		char c = src.data[i];

		if (c == '\n') {
			line_start = true;
			continue;
		}
		if (line_start && (c == ' ' || c == '\t'))
			continue;
		if (line_start) {
			line_start = false;
			if (strncmp(src.data + i, "JobId=", 6) == 0) {
				if (have)
					*o++ = '\n';
				have = true;
			} else {
				*o++ = ' ';
			}
		}
		*o++ = c;
	}
	*o++ = '\n';
	*o = '\0';
	prio_source_close(&src);
	/* trailing blanks of each record ("Power= ") stay, as scontrol's */
	return out;
}

static void assert_tres_equal(const struct prio_snapshot *a,
			      const struct prio_tres_list *la,
			      const struct prio_snapshot *b,
			      const struct prio_tres_list *lb, uint32_t job,
			      const char *what)
{
	cr_assert_eq(la->count, lb->count, "job %u %s: %u vs %u TRES", job, what,
		     la->count, lb->count);
	for (uint32_t i = 0; i < la->count; i++) {
		const char *name = a->tres.names[la->items[i].tres];
		int tb = prio_tres_find(&b->tres, name, strlen(name));

		cr_assert_geq(tb, 0, "job %u %s: %s", job, what, name);
		cr_assert_eq(prio_tres_list_get(lb, (uint32_t)tb, UINT64_MAX),
			     la->items[i].count, "job %u %s %s", job, what, name);
	}
}

static void assert_names_equal(const struct prio_snapshot *a, prio_id ia,
			       const struct prio_snapshot *b, prio_id ib,
			       uint32_t job, const char *what)
{
	cr_assert_str_eq(S(a, ia), S(b, ib), "job %u %s", job, what);
}

/* 22.05's and 24.11's squeue --json say "Resources" where scontrol and squeue -o
 * print the reason WAIT_NODE_NOT_AVAIL in full (every scenario shows it for
 * the same jobs at the same second). */
static bool known_reason_difference(const char *scontrol, const char *json)
{
	size_t n = strlen(json);

	if (strcmp(scontrol, "Nodes_required_for_job_are_DOWN,_DRAINED_or_"
			     "reserved_for_jobs_in_higher_priority_"
			     "partitions") == 0 &&
	    strcmp(json, "Resources") == 0)
		return true;
	/* 24.11: scontrol adds the description of ReqNodeNotAvail
	 * ("ReqNodeNotAvail,_May_be_reserved_for_other_job"), the JSON
	 * gives the reason alone */
	return n && strncmp(scontrol, json, n) == 0 && scontrol[n] == ',';
}

/* The fields both loaders carry, job by job. */
static void assert_common_fields(const struct prio_snapshot *a,
				 const struct prio_job *x,
				 const struct prio_snapshot *b,
				 const struct prio_job *y)
{
	uint32_t id = x->job_id;

	cr_assert_eq(x->job_id, y->job_id);
	cr_assert_eq(x->array_job_id, y->array_job_id, "job %u", id);
	cr_assert_eq(x->array_task_id, y->array_task_id, "job %u", id);
	assert_names_equal(a, x->array_task_text, b, y->array_task_text, id,
			   "array");
	cr_assert_eq(x->het_job_id, y->het_job_id, "job %u", id);
	cr_assert_str_eq(x->name ? x->name : "", y->name ? y->name : "", "job %u name", id);
	assert_names_equal(a, x->user, b, y->user, id, "user");
	cr_assert_eq(x->uid, y->uid, "job %u uid", id);
	assert_names_equal(a, x->account, b, y->account, id, "account");
	assert_names_equal(a, x->qos, b, y->qos, id, "qos");
	cr_assert_eq(x->partition_count, y->partition_count, "job %u", id);
	for (uint32_t p = 0; p < x->partition_count; p++)
		assert_names_equal(a, x->partitions[p], b, y->partitions[p], id,
				   "partition");
	cr_assert_eq(x->state, y->state, "job %u state %s vs %s", id,
		     prio_job_state_name(x->state), prio_job_state_name(y->state));
	if (!known_reason_difference(S(a, x->reason), S(b, y->reason)))
		assert_names_equal(a, x->reason, b, y->reason, id, "reason");
	cr_assert_eq(x->priority, y->priority, "job %u priority", id);
	cr_assert_eq(x->nice, y->nice, "job %u nice", id);
	cr_assert_eq(x->submit_time, y->submit_time, "job %u submit", id);
	cr_assert_eq(x->eligible_time, y->eligible_time, "job %u eligible", id);
	cr_assert_eq(x->accrue_time, y->accrue_time, "job %u accrue", id);
	cr_assert_eq(x->start_time, y->start_time, "job %u start", id);
	cr_assert_eq(x->end_time, y->end_time, "job %u end", id);
	cr_assert_eq(x->suspend_time, y->suspend_time, "job %u suspend", id);
	cr_assert_eq(x->preempt_time, y->preempt_time, "job %u preempt", id);
	cr_assert_eq(x->time_limit, y->time_limit, "job %u time limit", id);
	cr_assert_eq(x->min_nodes, y->min_nodes, "job %u nodes", id);
	cr_assert_eq(x->max_nodes, y->max_nodes, "job %u max nodes", id);
	cr_assert_eq(x->num_cpus, y->num_cpus, "job %u cpus", id);
	cr_assert_eq(x->max_cpus, y->max_cpus, "job %u max cpus", id);
	cr_assert_eq(x->num_tasks, y->num_tasks, "job %u tasks", id);
	cr_assert_eq(x->requeue, y->requeue, "job %u requeue", id);
	cr_assert_eq(x->held, y->held, "job %u held", id);
	assert_names_equal(a, x->node_list, b, y->node_list, id, "nodes");
	assert_names_equal(a, x->dependency, b, y->dependency, id, "dependency");
	assert_names_equal(a, x->oversubscribe, b, y->oversubscribe, id,
			   "oversubscribe");
	cr_assert_eq(x->min_memory, y->min_memory, "job %u memory", id);
	cr_assert_eq(x->mem_per_cpu, y->mem_per_cpu, "job %u memory", id);
}

/* How many hosts "ftn[2-3,5]" or "ftn4" names (enough for the captures). */
static uint32_t host_count(const char *hl)
{
	const char *b = strchr(hl, '[');
	uint32_t n = 0;

	if (!b)
		return *hl ? 1 : 0;
	for (const char *p = b + 1; *p && *p != ']';) {
		unsigned lo = (unsigned)strtoul(p, (char **)&p, 10), hi = lo;

		if (*p == '-')
			hi = (unsigned)strtoul(p + 1, (char **)&p, 10);
		n += hi - lo + 1;
		if (*p == ',')
			p++;
	}
	return n;
}

static uint32_t alloc_cpus(const struct prio_snapshot *snap,
			   const struct prio_job *j)
{
	uint32_t total = 0;

	if (!j->detail)
		return 0;
	for (uint32_t i = 0; i < j->detail->alloc_count; i++)
		total += j->detail->allocs[i].cpus *
			 host_count(S(snap, j->detail->allocs[i].nodes));
	return total;
}

/* --- scontrol show job -d: real values ------------------------------------ */

Test(jobs, fairtree_basic_queue)
{
	struct prio_snapshot snap;
	unsigned pending = 0;

	load_file(&snap, "tests/oracle/fairtree-basic/scontrol_show_job_d.txt",
		  prio_load_jobs_scontrol);
	cr_assert_eq(snap.job_count, 44);
	for (uint32_t i = 0; i < snap.job_count; i++)
		pending += snap.jobs[i].state == PRIO_JOB_PENDING;
	cr_assert_eq(pending, 20);
	cr_assert_eq(snap.loaded_count, 1);
	cr_assert_eq(snap.loaded[0].kind, PRIO_INPUT_JOBS_SCONTROL);
	cr_assert_eq(snap.loaded[0].records, 44);

	const struct prio_job *j = find_job(&snap, 29);
	cr_assert_eq(j->nice, 100);
	cr_assert_str_eq(j->name, "p_erin_low_nice100");
	cr_assert_str_eq(S(&snap, j->user), "erin");
	cr_assert_eq(j->uid, 1005);
	cr_assert_str_eq(S(&snap, j->account), "hep_th");
	cr_assert_str_eq(S(&snap, j->qos), "low");
	cr_assert_eq(j->partition_count, 1);
	cr_assert_str_eq(S(&snap, j->partitions[0]), "short");
	cr_assert_eq(j->priority, 7510);
	cr_assert_eq(j->time_limit, 30);
	cr_assert_eq(j->submit_time, 1795319458); /* 2026-11-22T03:50:58 */
	cr_assert_eq(j->accrue_time, 1795319458);
	cr_assert_eq(j->num_cpus, 2);
	cr_assert_eq(j->min_nodes, 1);
	cr_assert_eq(j->max_nodes, 0);
	cr_assert_str_eq(S(&snap, j->reason), "Priority");
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 4);
	cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 2000);
	cr_assert_eq(j->tres_alloc.count, 0);
	cr_assert_eq(j->min_memory, 1000);
	cr_assert(j->mem_per_cpu);
	cr_assert(j->requeue);
	cr_assert_eq(j->node_list, PRIO_NO_ID);
	/* backfill's plan: StartTime=2026-11-22T07:02:00 SchedNodeList=ftn2,
	 * the only detail this pending job has */
	cr_assert_eq(j->start_time, 1795330920);
	cr_assert_not_null(j->detail);
	cr_assert_str_eq(S(&snap, prio_job_sched_nodes(j)), "ftn2");
	cr_assert_eq(j->detail->state_desc, PRIO_NO_ID);
	cr_assert_eq(prio_job_nodes_shown(j), 1);
	cr_assert_eq(j->line, 855);
	cr_assert_str_eq(j->file,
			 test_path("tests/oracle/fairtree-basic/scontrol_show_job_d.txt"));

	/* the unsplit array 40_[0-2] is one record, as sprio lists it */
	j = find_job(&snap, 40);
	cr_assert_eq(j->array_job_id, 40);
	cr_assert_eq(j->array_task_id, PRIO_NO_VAL);
	cr_assert_str_eq(S(&snap, j->array_task_text), "0-2");
	cr_assert_eq(j->eligible_time, 1795319460);

	/* held by its user: priority 0 */
	j = find_job(&snap, 41);
	cr_assert_eq(j->priority, 0);
	cr_assert(j->held);
	cr_assert_not(j->held_by_admin);
	cr_assert_str_eq(S(&snap, j->reason), "JobHeldUser");
	cr_assert_eq(j->eligible_time, 0);
	cr_assert_eq(j->accrue_time, 0);

	/* dependent: no eligible time, does not accrue */
	j = find_job(&snap, 42);
	cr_assert_str_eq(S(&snap, j->dependency), "afterok:13(unfulfilled)");
	cr_assert_str_eq(S(&snap, j->reason), "Dependency");
	cr_assert_eq(j->eligible_time, 0);
	cr_assert_eq(j->accrue_time, 0);
	cr_assert_not(j->held);

	/* --begin=now+20minutes */
	j = find_job(&snap, 43);
	cr_assert_str_eq(S(&snap, j->reason), "BeginTime");
	cr_assert_eq(j->eligible_time, 1795320659); /* 04:10:59 */
	cr_assert_eq(j->accrue_time, 0);

	/* negative nice, as root */
	j = find_job(&snap, 44);
	cr_assert_eq(j->nice, -50);
	cr_assert_str_eq(S(&snap, j->user), "root");
	cr_assert_eq(j->uid, 0);

	/* NumNodes=2-2 */
	j = find_job(&snap, 27);
	cr_assert_eq(j->min_nodes, 2);
	cr_assert_eq(j->max_nodes, 2);
	cr_assert_eq(j->num_cpus, 16);
	cr_assert_eq(j->time_limit, 120);

	/* a running blocker split over two nodes: allocated TRES and the -d
	 * detail lines, 2 CPUs and 6 GB on each node */
	j = find_job(&snap, 13);
	cr_assert_eq(j->state, PRIO_JOB_RUNNING);
	cr_assert_str_eq(S(&snap, j->node_list), "ftn[2-3]");
	cr_assert_eq(tres(&snap, &j->tres_alloc, "cpu"), 4);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "mem"), 12288);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "node"), 2);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "billing"), 7);
	cr_assert_eq(j->tres_req.count, 0);
	cr_assert_not_null(j->detail);
	cr_assert_str_eq(S(&snap, j->detail->batch_host), "ftn2");
	cr_assert_eq(j->detail->alloc_count, 2);
	cr_assert_str_eq(S(&snap, j->detail->allocs[0].nodes), "ftn2");
	cr_assert_eq(j->detail->allocs[0].cpus, 2);
	cr_assert_eq(j->detail->allocs[0].mem_mb, 6144);
	cr_assert_str_eq(S(&snap, j->detail->allocs[1].nodes), "ftn3");
	cr_assert_eq(j->detail->allocs[1].cpus, 2);
	cr_assert_eq(j->start_time, 1795318938); /* 03:42:18 */
	cr_assert_eq(j->min_memory, 6144);
	cr_assert_not(j->mem_per_cpu);

	/* CPU_IDs=0-7 and CPU_IDs=6 */
	cr_assert_eq(find_job(&snap, 1)->detail->allocs[0].cpus, 8);
	cr_assert_eq(find_job(&snap, 4)->detail->allocs[0].cpus, 1);
	cr_assert_eq(find_job(&snap, 1)->state, PRIO_JOB_COMPLETE);
	/* cancelled before it started: TRES= is the request */
	j = find_job(&snap, 14);
	cr_assert_eq(j->state, PRIO_JOB_CANCELLED);
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 5);
	cr_assert_eq(j->tres_alloc.count, 0);
	prio_snapshot_free(&snap);
}

Test(jobs, pending_array_in_restart_scenarios)
{
	static const char *const files[] = {
		"tests/oracle/fairtree-restart/scontrol_show_job_d.txt",
		"tests/oracle/classic/scontrol_show_job_d.txt",
		"tests/oracle/depth-oblivious/scontrol_show_job_d.txt",
	};

	for (size_t i = 0; i < 3; i++) {
		struct prio_snapshot snap;

		load_file(&snap, files[i], prio_load_jobs_scontrol);
		cr_assert_eq(snap.job_count, 42, "%s", files[i]);
		const struct prio_job *j = find_job(&snap, 38);
		cr_assert_eq(j->array_job_id, 38);
		cr_assert_str_eq(S(&snap, j->array_task_text), "0-2");
		cr_assert_eq(j->state, PRIO_JOB_PENDING);
		prio_snapshot_free(&snap);
	}
}

Test(jobs, preemption_suspended_jobs)
{
	struct prio_snapshot snap;
	unsigned suspended = 0;

	load_file(&snap,
		  "tests/oracle/preemption-a-partition-suspend/scontrol_show_job_d_2_during.txt",
		  prio_load_jobs_scontrol);
	cr_assert_eq(snap.job_count, 6);
	for (uint32_t id = 1000; id <= 1002; id++) {
		const struct prio_job *j = find_job(&snap, id);
		char node[8];

		snprintf(node, sizeof(node), "pren%u", id - 999);
		cr_assert_eq(j->state, PRIO_JOB_SUSPENDED, "job %u", id);
		cr_assert_str_eq(S(&snap, j->node_list), node);
		cr_assert_eq(j->suspend_time, 1795318887); /* 03:41:27 */
		cr_assert_eq(j->preempt_time, 1795318887);
		cr_assert_eq(j->start_time, 1795318878);
		cr_assert_eq(j->detail->preempt_eligible_time, 1795318878);
		cr_assert_eq(j->detail->allocs[0].cpus, 8);
		cr_assert_str_eq(S(&snap, j->oversubscribe), "NO");
		cr_assert_str_eq(S(&snap, j->partitions[0]), "active");
	}
	for (uint32_t i = 0; i < snap.job_count; i++)
		suspended += snap.jobs[i].state == PRIO_JOB_SUSPENDED;
	cr_assert_eq(suspended, 3);
	const struct prio_job *hip = find_job(&snap, 1005);
	cr_assert_eq(hip->state, PRIO_JOB_RUNNING);
	cr_assert_str_eq(S(&snap, hip->node_list), "pren[1-3]");
	cr_assert_str_eq(S(&snap, hip->partitions[0]), "hipri");
	cr_assert_eq(alloc_cpus(&snap, hip), 24);
	cr_assert_eq(find_job(&snap, 1003)->state, PRIO_JOB_RUNNING);
	cr_assert_eq(find_job(&snap, 1003)->suspend_time, 0);
	prio_snapshot_free(&snap);
}

/* -o gives exactly what the multi-line form gives, for every capture. */
Test(jobs, one_line_form_matches_multi_line)
{
	glob_t g;
	unsigned files = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_job_d*.txt"), 0,
			  NULL, &g), 0);
	for (size_t f = 0; f < g.gl_pathc; f++) {
		const char *rel = strstr(g.gl_pathv[f], "tests/oracle/");
		struct prio_snapshot a, b;
		struct prio_error err;
		char msg[1024];
		char *text = one_line_form(rel);

		load_file(&a, rel, prio_load_jobs_scontrol);
		cr_assert_eq(load_text(&b, text, &err, false), 0, "%s -o: %s", rel,
			     prio_error_format(&err, msg, sizeof(msg)));
		cr_assert_eq(a.job_count, b.job_count, "%s", rel);
		for (uint32_t i = 0; i < a.job_count; i++) {
			const struct prio_job *x = &a.jobs[i], *y = &b.jobs[i];

			assert_common_fields(&a, x, &b, y);
			cr_assert_eq(y->line, i + 1, "one record per line");
			cr_assert_eq(x->cpus_per_task, y->cpus_per_task);
			cr_assert_eq(x->held_by_admin, y->held_by_admin);
			assert_tres_equal(&a, &x->tres_req, &b, &y->tres_req,
					  x->job_id, "req");
			assert_tres_equal(&a, &x->tres_alloc, &b, &y->tres_alloc,
					  x->job_id, "alloc");
			cr_assert_eq(!x->detail, !y->detail, "job %u", x->job_id);
			if (x->detail) {
				const struct prio_job_detail *dx = x->detail,
							     *dy = y->detail;

				cr_assert_eq(dx->alloc_count, dy->alloc_count);
				for (uint32_t k = 0; k < dx->alloc_count; k++) {
					cr_assert_eq(dx->allocs[k].cpus, dy->allocs[k].cpus);
					cr_assert_eq(dx->allocs[k].mem_mb,
						     dy->allocs[k].mem_mb);
					assert_names_equal(&a, dx->allocs[k].nodes, &b,
							   dy->allocs[k].nodes,
							   x->job_id, "alloc");
				}
				assert_names_equal(&a, dx->batch_host, &b,
						   dy->batch_host, x->job_id, "host");
				cr_assert_eq(dx->preempt_eligible_time,
					     dy->preempt_eligible_time);
			}
		}
		prio_snapshot_free(&a);
		prio_snapshot_free(&b);
		free(text);
		files++;
	}
	globfree(&g);
	cr_assert_geq(files, 20);
}

/* squeue --json and scontrol show job -d of the same second agree on every
 * field both carry, job by job. */
Test(jobs, squeue_json_agrees_with_scontrol)
{
	glob_t g;
	unsigned scenarios = 0, compared = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/squeue_json.txt"), 0, NULL, &g),
		     0);
	for (size_t f = 0; f < g.gl_pathc; f++) {
		char rel[512], sc[512];
		struct prio_snapshot a, b;

		snprintf(rel, sizeof(rel), "%s", strstr(g.gl_pathv[f], "tests/oracle/"));
		snprintf(sc, sizeof(sc), "%.*sscontrol_show_job_d.txt",
			 (int)(strrchr(rel, '/') + 1 - rel), rel);
		if (access(test_path(sc), R_OK) != 0)
			continue;
		load_file(&a, sc, prio_load_jobs_scontrol);
		load_file(&b, rel, prio_load_jobs_squeue_json);
		cr_assert_eq(b.loaded[0].kind, PRIO_INPUT_JOBS_JSON);
		/* 22.05's squeue --json lists every job the controller
		 * holds; from 23.02 it applies squeue's own filter and
		 * leaves finished jobs out, which scontrol still shows
		 * (MinJobAge): the jobs not yet finished must be the same */
		uint32_t live = 0;
		for (uint32_t i = 0; i < a.job_count; i++)
			live += a.jobs[i].state <= PRIO_JOB_SUSPENDED;
		if (prio_snapshot_slurm(&b)->release == 2205)
			cr_assert_eq(a.job_count, b.job_count, "%s", rel);
		else
			cr_assert_eq(live, b.job_count, "%s", rel);
		for (uint32_t i = 0; i < a.job_count; i++) {
			const struct prio_job *x = &a.jobs[i];
			if (x->state > PRIO_JOB_SUSPENDED && a.job_count != b.job_count)
				continue;
			const struct prio_job *y = find_job(&b, x->job_id);

			assert_common_fields(&a, x, &b, y);
			/* 22.05's scontrol prints one TRES= list: the
			 * allocation once the job has nodes, else the request;
			 * 23.02 and later both, as squeue --json */
			if (prio_snapshot_slurm(&a)->job_req_alloc_tres) {
				assert_tres_equal(&a, &x->tres_req, &b,
						  &y->tres_req, x->job_id, "req");
				assert_tres_equal(&a, &x->tres_alloc, &b,
						  &y->tres_alloc, x->job_id,
						  "alloc");
			} else if (x->node_list != PRIO_NO_ID)
				assert_tres_equal(&a, &x->tres_alloc, &b,
						  &y->tres_alloc, x->job_id, "alloc");
			else
				assert_tres_equal(&a, &x->tres_req, &b, &y->tres_req,
						  x->job_id, "req");
			cr_assert_eq(alloc_cpus(&a, x), alloc_cpus(&b, y),
				     "job %u allocated CPUs", x->job_id);
			cr_assert_eq(!x->detail || !x->detail->batch_host,
				     !y->detail || !y->detail->batch_host);
			if (x->detail && x->detail->batch_host)
				assert_names_equal(&a, x->detail->batch_host, &b,
						   y->detail->batch_host, x->job_id,
						   "batch host");
			compared++;
		}
		prio_snapshot_free(&a);
		prio_snapshot_free(&b);
		scenarios++;
	}
	globfree(&g);
	cr_assert_geq(scenarios, 8);
	cr_assert_gt(compared, 300);
}

Test(jobs, squeue_json_values)
{
	struct prio_snapshot snap;

	load_file(&snap, "tests/oracle/fairtree-basic/squeue_json.txt",
		  prio_load_jobs_squeue_json);
	cr_assert_eq(snap.job_count, 44);
	const struct prio_job *j = find_job(&snap, 13);
	/* both lists: requested one node, got two */
	cr_assert_eq(tres(&snap, &j->tres_req, "node"), 1);
	cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 6144);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "node"), 2);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "mem"), 12288);
	cr_assert_eq(j->detail->alloc_count, 2);
	cr_assert_str_eq(S(&snap, j->detail->allocs[1].nodes), "ftn3");
	cr_assert_eq(j->detail->allocs[1].cpus, 2);
	cr_assert_eq(j->detail->allocs[1].mem_mb, 6144);
	j = find_job(&snap, 44);
	cr_assert_eq(j->nice, -50); /* printed as 4294967246 */
	cr_assert_eq(find_job(&snap, 29)->nice, 100);
	cr_assert_eq(find_job(&snap, 1)->nice, 0); /* printed as null */
	j = find_job(&snap, 40);
	cr_assert_str_eq(S(&snap, j->array_task_text), "0-2");
	cr_assert_eq(j->array_task_id, PRIO_NO_VAL);
	cr_assert(find_job(&snap, 41)->held);
	cr_assert_eq(find_job(&snap, 41)->line > 1, 1);
	prio_snapshot_free(&snap);
}

/* --- shapes the captures do not have ------------------------------------- */

static const char two_jobs[] =
	"JobId=7 ArrayJobId=5 ArrayTaskId=2 JobName=my job name UserId=u1(501) "
	"GroupId=g(1) MCS_label=N/A Priority=100 Nice=0 Account=a1 QOS=(null) "
	"JobState=PENDING Reason=JobHeldAdmin Dependency=(null) Requeue=0 "
	"Restarts=3 SubmitTime=2026-01-02T03:04:05 EligibleTime=Unknown "
	"AccrueTime=Unknown StartTime=Unknown EndTime=Unknown "
	"SuspendTime=None Partition=batch,short TimeLimit=UNLIMITED "
	"NumNodes=2-4 NumCPUs=4-8 NumTasks=N/A CPUs/Task=2 TRES=cpu=4,node=2 "
	"Comment=free text with Key-like=words? no MinMemoryNode=2G "
	"Reservation=maint Licenses=matlab:2 Features=(null)\n"
	"JobId=8 JobName=x UserId=u2(502) Priority=0 Nice=-5 Account=a1 "
	"QOS=normal JobState=PD Reason=JobHeldAdmin SubmitTime=2026-01-02T03:04:05 "
	"Partition=batch,short TimeLimit=1-00:00:00 NumNodes=1 NumCPUs=1 "
	"TRES=cpu=1 HetJobId=8 HetJobOffset=0\n";

Test(jobs, one_line_shapes)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(load_text(&snap, two_jobs, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.job_count, 2);
	const struct prio_job *a = &snap.jobs[0], *b = &snap.jobs[1];
	cr_assert_eq(a->array_job_id, 5);
	cr_assert_eq(a->array_task_id, 2);
	cr_assert_eq(a->array_task_text, PRIO_NO_ID);
	cr_assert_str_eq(a->name, "my job name");
	cr_assert_eq(a->qos, PRIO_NO_ID);
	cr_assert_eq(a->partition_count, 2);
	cr_assert_str_eq(S(&snap, a->partitions[0]), "batch");
	cr_assert_str_eq(S(&snap, a->partitions[1]), "short");
	/* identical lists are shared, not copied per job */
	cr_assert_eq(a->partitions, b->partitions);
	cr_assert_eq(a->time_limit, PRIO_INFINITE);
	cr_assert_eq(a->min_nodes, 2);
	cr_assert_eq(a->max_nodes, 4);
	cr_assert_eq(a->num_cpus, 4);
	cr_assert_eq(a->max_cpus, 8);
	cr_assert_eq(a->num_tasks, PRIO_NO_VAL);
	cr_assert_eq(a->cpus_per_task, 2);
	cr_assert_not(a->requeue);
	cr_assert_not(a->held, "priority 100: not held whatever the reason");
	cr_assert_eq(a->min_memory, 2048);
	cr_assert_eq(a->detail->restarts, 3);
	cr_assert_str_eq(S(&snap, a->detail->reservation), "maint");
	cr_assert_str_eq(S(&snap, a->detail->licenses), "matlab:2");
	cr_assert_eq(a->detail->features, PRIO_NO_ID);
	cr_assert_eq(a->detail->het_job_offset, PRIO_NO_VAL);
	cr_assert_eq(a->submit_time, 1767323045);
	cr_assert_eq(a->eligible_time, 0);
	cr_assert_eq(b->nice, -5);
	cr_assert(b->held);
	cr_assert(b->held_by_admin);
	cr_assert_eq(b->time_limit, 1440);
	cr_assert_eq(b->het_job_id, 8);
	cr_assert_eq(b->detail->het_job_offset, 0);
	cr_assert_eq(b->line, 2);
	prio_snapshot_free(&snap);

	/* "No jobs in the system" is an empty queue, not an error */
	cr_assert_eq(load_text(&snap, "No jobs in the system\n", &err, false), 0);
	cr_assert_eq(snap.job_count, 0);
	cr_assert_eq(snap.loaded[0].records, 0);
	prio_snapshot_free(&snap);
}

/* Keys and values at every offset around the 64-byte words the splitter
 * works in, with values holding spaces, tabs, '=' and key-like words. */
Test(jobs, splitting_at_every_offset)
{
	for (int pad = 0; pad < 140; pad++) {
		struct prio_snapshot snap;
		struct prio_error err;
		char text[1024], msg[1024], name[160];

		memset(name, 'n', (size_t)pad);
		name[pad] = '\0';
		snprintf(text, sizeof(text),
			 "JobId=%d JobName=x%s y  z=w\t-k=v UserId=u(7)  "
			 "Priority=3\tNice=-2 Account=acc QOS=q JobState=PENDING "
			 "Reason=None SubmitTime=2026-01-02T03:04:05 Partition=p "
			 "TimeLimit=5 NumNodes=1 NumCPUs=2 TRES=cpu=2,mem=1G "
			 "Comment=a=b c d Features=(null)   \n",
			 pad + 1, name);
		cr_assert_eq(load_text(&snap, text, &err, false), 0, "pad %d: %s",
			     pad, prio_error_format(&err, msg, sizeof(msg)));
		cr_assert_eq(snap.job_count, 1);
		const struct prio_job *j = &snap.jobs[0];
		char want[200];
		snprintf(want, sizeof(want), "x%s y", name);
		/* "z=w" looks like a key (a letter, then '='): it is one, as in
		 * kvscan; "-k=v" does not and stays in its value */
		cr_assert_str_eq(j->name, want, "pad %d", pad);
		cr_assert_eq(j->job_id, (uint32_t)pad + 1);
		cr_assert_str_eq(S(&snap, j->user), "u");
		cr_assert_eq(j->uid, 7);
		cr_assert_eq(j->priority, 3);
		cr_assert_eq(j->nice, -2);
		cr_assert_str_eq(S(&snap, j->account), "acc");
		cr_assert_str_eq(S(&snap, j->qos), "q");
		cr_assert_eq(j->time_limit, 5);
		cr_assert_eq(j->num_cpus, 2);
		cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 1024);
		cr_assert_eq(j->submit_time, 1767323045);
		prio_snapshot_free(&snap);
	}
}

Test(jobs, state_names_and_codes)
{
	enum prio_job_state st;

	for (int s = 0; s < PRIO_JOB_STATE_COUNT; s++) {
		const char *name = prio_job_state_name((enum prio_job_state)s);
		const char *code = prio_job_state_short((enum prio_job_state)s);

		cr_assert_eq(prio_job_state_parse(name, strlen(name), &st), 0, "%s",
			     name);
		cr_assert_eq(st, s);
		cr_assert_eq(prio_job_state_parse(code, strlen(code), &st), 0, "%s",
			     code);
		/* 25.11's EXPEDITING has no code of its own: squeue prints
		 * its base state's, PD */
		cr_assert_eq(st,
			     s == PRIO_JOB_EXPEDITING ? PRIO_JOB_PENDING : s);
	}
	static const char *const codes[] = { "PD", "R", "S", "CG", "CD", "CA",
					     "F", "TO", "NF", "PR", "BF", "DL",
					     "OOM", "CF", "RQ", "RS", "RV", "SI",
					     "SO", "ST" };
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		cr_assert_eq(prio_job_state_parse(codes[i], strlen(codes[i]), &st),
			     0, "%s", codes[i]);
	cr_assert_eq(prio_job_state_parse("OOM", 3, &st), 0);
	cr_assert_eq(st, PRIO_JOB_OOM);
	cr_assert_str_eq(prio_job_state_name(PRIO_JOB_OOM), "OUT_OF_MEMORY");
	cr_assert_eq(prio_job_state_parse("CANCELLED by 0", 14, &st), 0);
	cr_assert_eq(st, PRIO_JOB_CANCELLED);
	cr_assert_eq(prio_job_state_parse("COMPLETED", 9, &st), 0);
	cr_assert_eq(st, PRIO_JOB_COMPLETE);
	cr_assert_eq(prio_job_state_parse("BOGUS", 5, &st), -1);
	cr_assert_eq(prio_job_state_parse("", 0, &st), -1);
	cr_assert_eq(prio_job_state_parse("pending", 7, &st), -1);
}

/* --- linking --------------------------------------------------------------- */

static void add_partition(struct prio_snapshot *snap, const char *name)
{
	struct prio_partition *p = prio_snapshot_new_partition(snap);

	p->name = prio_snapshot_intern(snap, name, strlen(name));
	p->job_factor = p->tier = 1;
	p->max_time = PRIO_INFINITE;
	p->default_time = PRIO_NO_VAL;
	p->preempt_mode = PRIO_NO_VAL16;
	p->max_share = 1;
	p->file = "partitions.txt";
	p->line = 1;
}

static void add_qos(struct prio_snapshot *snap, const char *name)
{
	struct prio_qos *q = prio_snapshot_new_qos(snap);

	q->name = prio_snapshot_intern(snap, name, strlen(name));
	q->usage_factor = 1.0;
	q->preempt_exempt_time = PRIO_INFINITE;
	q->file = "qos.txt";
	q->line = 2;
}

Test(jobs, link_checks_partitions_and_qos)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	/* both partitions of the two jobs exist, QOS normal exists */
	cr_assert_eq(load_text(&snap, two_jobs, &err, false), 0);
	add_partition(&snap, "batch");
	add_partition(&snap, "short");
	add_qos(&snap, "normal");
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.job_count, 2);
	prio_snapshot_free(&snap);

	/* partition short unknown: job 7 (line 1) is the first to name it */
	cr_assert_eq(load_text(&snap, two_jobs, &err, false), 0);
	add_partition(&snap, "batch");
	cr_assert_eq(prio_snapshot_finish(&snap, &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "jobs.txt");
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "Partition");
	cr_assert_str_eq(err.message, "job 7: unknown partition \"short\"");
	prio_snapshot_free(&snap);

	/* unknown QOS: job 8 on line 2; keep_going drops it with a warning */
	cr_assert_eq(load_text(&snap, two_jobs, &err, true), 0);
	add_partition(&snap, "batch");
	add_partition(&snap, "short");
	add_qos(&snap, "high");
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0);
	cr_assert_eq(snap.job_count, 1);
	cr_assert_eq(snap.jobs[0].job_id, 7);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 2);
	cr_assert_str_eq(snap.warnings[0].error.field, "QOS");
	prio_snapshot_free(&snap);

	/* without partitions or QOS loaded there is nothing to check */
	cr_assert_eq(load_text(&snap, two_jobs, &err, false), 0);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0);
	prio_snapshot_free(&snap);
}

Test(jobs, duplicate_job_id)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char text[2048];

	snprintf(text, sizeof(text), "%s%s", two_jobs,
		 strchr(two_jobs, '\n') + 1); /* job 8 twice */
	cr_assert_eq(load_text(&snap, text, &err, false), 0);
	cr_assert_eq(snap.job_count, 3);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "JobId");
	cr_assert_str_eq(err.message, "job 8 listed twice (also at jobs.txt:2)");
	prio_snapshot_free(&snap);
}

/* --- malformed input ------------------------------------------------------ */

static const char *multi =
	"JobId=1 JobName=a\n"
	"   UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A\n"
	"   Priority=10 Nice=0 Account=astro QOS=normal\n"
	"   JobState=PENDING Reason=Priority Dependency=(null)\n"
	"   SubmitTime=2026-11-22T03:50:58 EligibleTime=2026-11-22T03:50:58\n"
	"   Partition=batch AllocNode:Sid=localhost:2399\n"
	"   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
	"   TimeLimit=00:30:00 TRES=cpu=2,mem=2000M,node=1,billing=4\n"
	"   \n"
	"\n"
	"JobId=2 JobName=b\n"
	"   UserId=bob(1002) GroupId=bob(1002) MCS_label=N/A\n"
	"   Priority=11 Nice=%s Account=astro QOS=normal\n"
	"   JobState=PENDING Reason=Priority Dependency=(null)\n"
	"   SubmitTime=2026-11-22T03:50:58 EligibleTime=%s\n"
	"   Partition=batch AllocNode:Sid=localhost:2399\n"
	"   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
	"   TimeLimit=00:30:00 TRES=cpu=2,mem=2000M,node=1,billing=4\n"
	"   \n"
	"\n";

static int load_multi(struct prio_snapshot *snap, struct prio_error *err,
		      const char *nice, const char *eligible, bool keep_going)
{
	static char text[4096];

	snprintf(text, sizeof(text), multi, nice, eligible);
	return load_text(snap, text, err, keep_going);
}

Test(jobs, bad_number_names_line_and_field)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(load_multi(&snap, &err, "0", "Unknown", false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.job_count, 2);
	cr_assert_eq(snap.jobs[1].line, 11);
	prio_snapshot_free(&snap);

	cr_assert_eq(load_multi(&snap, &err, "x", "Unknown", false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "jobs.txt");
	cr_assert_eq(err.line, 13);
	cr_assert_str_eq(err.field, "Nice");
	cr_assert_str_eq(err.message, "expected an integer, got \"x\"");
	cr_assert_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "jobs.txt:13: Nice: expected an integer, got \"x\"");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_multi(&snap, &err, "0", "2026-13-01T00:00:00", false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 15);
	cr_assert_str_eq(err.field, "EligibleTime");
	prio_snapshot_free(&snap);

	/* keep_going: the bad record becomes a warning, the good one stays */
	cr_assert_eq(load_multi(&snap, &err, "99999999999", "Unknown", true), 0);
	cr_assert_eq(snap.job_count, 1);
	cr_assert_eq(snap.jobs[0].job_id, 1);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 13);
	cr_assert_str_eq(snap.warnings[0].error.field, "Nice");
	prio_snapshot_free(&snap);
}

Test(jobs, record_without_job_id)
{
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_eq(load_text(&snap,
			       "JobName=x UserId=a(1) Priority=1\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "JobId");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "   Priority=1 Nice=0\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "JobId");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "JobId=abc JobName=x\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "JobId");
	cr_assert_str_eq(err.message, "expected a job id, got \"abc\"");
	prio_snapshot_free(&snap);
}

Test(jobs, truncated_record)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char text[4096];

	snprintf(text, sizeof(text), multi, "0", "Unknown");
	/* cut job 2 after its Partition= line (line 16) */
	char *cut = strstr(strstr(text, "   NumNodes=") + 1, "   NumNodes=");
	cr_assert_not_null(cut);
	*cut = '\0';
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 16);
	cr_assert_str_eq(err.field, "TimeLimit");
	cr_assert_str_eq(err.message,
			 "job 2: input ends before TimeLimit= (truncated record?)");
	prio_snapshot_free(&snap);

	/* the same in the middle of the input */
	cr_assert_eq(load_text(&snap, "JobId=3 JobName=x\nJobId=4 JobName=y\n",
			       &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.field, "UserId");
	cr_assert_str_eq(err.message, "job 3: record has no UserId=");
	prio_snapshot_free(&snap);
}

Test(jobs, nul_byte_and_long_line)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_source src;
	char text[4096];
	size_t n;

	snprintf(text, sizeof(text), multi, "0", "Unknown");
	n = strlen(text);
	text[strstr(text, "Nice=0 Account=astro") - text + 5] = '\0'; /* line 3 */
	utc();
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "jobs.txt", text, n);
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);

	/* keep_going: job 1 is dropped with a warning, job 2 loads */
	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), 0);
	cr_assert_eq(snap.job_count, 1);
	cr_assert_eq(snap.jobs[0].job_id, 2);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 3);
	prio_snapshot_free(&snap);

	/* a 1 MB line (a JobName of a million bytes) */
	size_t big = 1u << 20;
	char *huge = malloc(big + 64);
	memcpy(huge, "JobId=1 JobName=", 16);
	memset(huge + 16, 'x', big);
	strcpy(huge + 16 + big, "\n");
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "jobs.txt", huge, strlen(huge));
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 1);
	prio_snapshot_free(&snap);
	free(huge);
}

Test(jobs, bad_values_in_detail_and_tres)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char text[4096];

	snprintf(text, sizeof(text), multi, "0", "Unknown");
	strcat(text, "JobId=3 JobName=c UserId=c(3) Priority=1 Nice=0 Account=a "
		     "QOS=normal JobState=RUNNING Reason=None SubmitTime=None "
		     "Partition=batch TimeLimit=5 NumNodes=1 NumCPUs=1 TRES=cpu=1 "
		     "NodeList=n1 Nodes=n1 CPU_IDs=0-x Mem=10\n");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 21);
	cr_assert_str_eq(err.field, "CPU_IDs");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap,
			       "JobId=3 JobName=c UserId=c(3) Priority=1 Nice=0 "
			       "TRES=cpu=1,mem=abc\n",
			       &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "TRES");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "JobId=3 JobState=WAITING\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "JobState");
	cr_assert_str_eq(err.message, "unknown job state \"WAITING\"");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "JobId=3 NumNodes=2-\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "NumNodes");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "JobId=3 UserId=alice(x)\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "UserId");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_text(&snap, "JobId=3 TimeLimit=soon\n", &err, false),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "TimeLimit");
	prio_snapshot_free(&snap);
}

/* --- squeue --json malformed ------------------------------------------------ */

Test(jobs, json_errors_name_line_and_member)
{
	struct prio_snapshot snap;
	struct prio_error err;

	/* cut short: jansson's line */
	cr_assert_eq(load_json_text(&snap,
				    "{\n  \"meta\": {},\n  \"errors\": [],\n"
				    "  \"jobs\": [\n    {\n      \"job_id\": 1,\n",
				    &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 7);
	cr_assert_str_eq(err.file, "jobs.json");
	cr_assert(strstr(err.message, "invalid JSON") != NULL, "%s", err.message);
	prio_snapshot_free(&snap);

	/* a member of the wrong type: the line of that job's object */
	cr_assert_eq(load_json_text(&snap,
				    "{\"jobs\": [\n"
				    " {\"job_id\": 1, \"job_state\": \"PENDING\", "
				    "\"priority\": 5, \"partition\": \"batch\", "
				    "\"user_name\": \"a\"},\n"
				    " {\"job_id\": 2, \"job_state\": \"PENDING\",\n"
				    "  \"priority\": \"high\", \"partition\": \"b\", "
				    "\"user_name\": \"a\"}\n"
				    "]}\n",
				    &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "priority");
	cr_assert_str_eq(err.message, "expected an integer, got a string");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_json_text(&snap, "{\"meta\": {}}", &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "jobs");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_json_text(&snap, "{\"jobs\": [{\"job_state\": \"R\"}]}",
				    &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "job_id");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_json_text(&snap,
				    "{\"errors\": [{\"error\": \"Access denied\"}],"
				    " \"jobs\": []}",
				    &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "errors");
	cr_assert_str_eq(err.message, "squeue reported an error: Access denied");
	prio_snapshot_free(&snap);

	/* duplicate members are refused (jansson JSON_REJECT_DUPLICATES) */
	cr_assert_eq(load_json_text(&snap, "{\"jobs\": [], \"jobs\": []}", &err),
		     PRIO_ERR_PARSE);
	prio_snapshot_free(&snap);

	/* a NUL byte, with its line */
	static const char nul[] = "{\n\"jobs\": [\0]}";
	struct prio_source src;
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "jobs.json", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_jobs_squeue_json(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);
}

/* Seen on a live 22.05 cluster: `sbatch -n 12` on 8-CPU nodes.  NumNodes is
 * the scheduler's estimate; TRES node= the requested minimum, which job
 * size uses (sprio's JOBSIZE was that of one node). */
Test(jobs, pending_numnodes_is_an_estimate_tres_node_the_request)
{
	static const char text[] =
	    "JobId=14 JobName=wrap UserId=pllive2(1002) GroupId=pllive2(1002) "
	    "Priority=5713 Nice=0 Account=acca QOS=low JobState=PENDING Reason=Priority "
	    "TimeLimit=01:00:00 SubmitTime=2026-11-23T17:33:00 EligibleTime=2026-11-23T17:33:00 "
	    "AccrueTime=2026-11-23T17:33:00 Partition=short NodeList= NumNodes=2 NumCPUs=12 "
	    "NumTasks=12 CPUs/Task=1 TRES=cpu=12,mem=12000M,node=1,billing=29\n"
	    "JobId=15 JobName=wrap UserId=pllive2(1002) GroupId=pllive2(1002) "
	    "Priority=5713 Nice=0 Account=acca QOS=low JobState=PENDING Reason=Priority "
	    "TimeLimit=01:00:00 SubmitTime=2026-11-23T17:33:00 EligibleTime=2026-11-23T17:33:00 "
	    "AccrueTime=2026-11-23T17:33:00 Partition=short NodeList= NumNodes=2-2 NumCPUs=12 "
	    "NumTasks=12 CPUs/Task=1 TRES=cpu=12,mem=12000M,node=2,billing=29\n";
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;
	char msg[512];

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	test_source(&src, "jobs.txt", text);
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.job_count, 2);
	cr_assert_eq(snap.jobs[0].min_nodes, 1, "-n 12: one node requested");
	cr_assert_eq(snap.jobs[1].min_nodes, 2, "-N 2: the range stands");
	cr_assert_eq(snap.jobs[1].max_nodes, 2);
	prio_snapshot_free(&snap);
}

/* --- Slurm 23.02 and later: ReqTRES= and AllocTRES= ------------------------ */

#define DATA_2411 "tests/cli/readers-data/slurm-24.11/"

/* A live 24.11.5 cluster (4 drained nodes, 14 pending jobs, 7 completed):
 * a pending job's AllocTRES=(null), a finished one's allocation. */
Test(jobs, slurm_2411_req_and_alloc_tres)
{
	struct prio_snapshot snap;
	unsigned pending = 0;

	load_file(&snap, DATA_2411 "jobs.txt", prio_load_jobs_scontrol);
	cr_assert_eq(snap.job_count, 21);
	for (uint32_t i = 0; i < snap.job_count; i++)
		pending += snap.jobs[i].state == PRIO_JOB_PENDING;
	cr_assert_eq(pending, 14);
	/* only 23.02 and later print ReqTRES= */
	cr_assert_eq(snap.slurm_release, 2302);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_FORMAT);

	/* pending, 12 CPUs: sprio -l shows JOBSIZE 625, TRES cpu=262 */
	const struct prio_job *j = find_job(&snap, 12);
	cr_assert_eq(j->state, PRIO_JOB_PENDING);
	cr_assert_eq(tres(&snap, &j->tres_req, "cpu"), 12);
	cr_assert_eq(tres(&snap, &j->tres_req, "mem"), 12000);
	cr_assert_eq(tres(&snap, &j->tres_req, "node"), 1);
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 14);
	cr_assert_eq(j->tres_alloc.count, 0, "AllocTRES=(null)");
	cr_assert_eq(j->priority, 8593);
	cr_assert_eq(j->nice, 400);
	cr_assert_eq(j->node_list, PRIO_NO_ID);

	/* held by its user */
	j = find_job(&snap, 20);
	cr_assert(j->held);
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 1);

	/* completed on lvn1: both lists, and the -d detail line */
	j = find_job(&snap, 1);
	cr_assert_eq(j->state, PRIO_JOB_COMPLETE);
	cr_assert_str_eq(S(&snap, j->node_list), "lvn1");
	cr_assert_eq(tres(&snap, &j->tres_req, "cpu"), 5);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "cpu"), 5);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "mem"), 5000);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "billing"), 6);
	cr_assert_not_null(j->detail);
	cr_assert_eq(j->detail->alloc_count, 1);
	cr_assert_eq(j->detail->allocs[0].cpus, 5);
	cr_assert_eq(j->detail->allocs[0].mem_mb, 5000);
	/* PreemptEligibleTime=2026-11-26T09:59:49 */
	cr_assert_eq(j->detail->preempt_eligible_time, 1795687189);
	cr_assert_eq(j->preempt_time, 0, "PreemptTime=None");
	prio_snapshot_free(&snap);
}

/* `scontrol -o show job -d` of the same second: the same jobs. */
Test(jobs, slurm_2411_one_line_matches_multi_line)
{
	struct prio_snapshot a, b;

	load_file(&a, DATA_2411 "jobs.txt", prio_load_jobs_scontrol);
	load_file(&b, DATA_2411 "jobs_o.txt", prio_load_jobs_scontrol);
	cr_assert_eq(a.job_count, b.job_count);
	for (uint32_t i = 0; i < a.job_count; i++) {
		const struct prio_job *x = &a.jobs[i], *y = &b.jobs[i];

		assert_common_fields(&a, x, &b, y);
		cr_assert_eq(y->line, i + 1, "one record per line");
		assert_tres_equal(&a, &x->tres_req, &b, &y->tres_req, x->job_id,
				  "req");
		assert_tres_equal(&a, &x->tres_alloc, &b, &y->tres_alloc,
				  x->job_id, "alloc");
		cr_assert_eq(alloc_cpus(&a, x), alloc_cpus(&b, y), "job %u",
			     x->job_id);
	}
	cr_assert_eq(tres(&b, &find_job(&b, 1)->tres_alloc, "billing"), 6);
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
}

/* Job 1 of the 24.11 capture as it printed while it ran (-o form), and the
 * same job still pending (AllocTRES=(null)). */
static const char running_2411[] =
    "JobId=1 JobName=wrap UserId=pllive1(1000) GroupId=pllive1(1000) "
    "MCS_label=N/A Priority=4089 Nice=0 Account=acca QOS=normal "
    "JobState=RUNNING Reason=None Dependency=(null) Requeue=1 Restarts=0 "
    "BatchFlag=1 Reboot=0 ExitCode=0:0 DerivedExitCode=0:0 RunTime=00:00:39 "
    "TimeLimit=00:10:00 TimeMin=N/A SubmitTime=2026-11-26T09:59:48 "
    "EligibleTime=2026-11-26T09:59:48 AccrueTime=2026-11-26T09:59:48 "
    "StartTime=2026-11-26T09:59:49 EndTime=2026-11-26T10:09:49 Deadline=N/A "
    "PreemptEligibleTime=2026-11-26T09:59:49 PreemptTime=None "
    "SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-26T09:59:49 "
    "Scheduler=Main Partition=batch AllocNode:Sid=localhost:1220 "
    "ReqNodeList=(null) ExcNodeList=(null) NodeList=lvn1 BatchHost=lvn1 "
    "NumNodes=1 NumCPUs=5 NumTasks=5 CPUs/Task=1 ReqB:S:C:T=0:0:*:* "
    "ReqTRES=cpu=5,mem=5000M,node=1,billing=6 "
    "AllocTRES=cpu=5,mem=5000M,node=1,billing=6 Socks/Node=* "
    "NtasksPerN:B:S:C=0:0:*:* CoreSpec=* JOB_GRES=(null)   Nodes=lvn1 "
    "CPU_IDs=0-4 Mem=5000 GRES= MinCPUsNode=1 MinMemoryCPU=1000M "
    "MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK "
    "Contiguous=0 Licenses=(null) Network=(null) Command=(null) WorkDir=/tmp "
    "StdErr=/dev/null StdIn=/dev/null StdOut=/dev/null \n";

Test(jobs, slurm_2411_running_job_alloc_tres)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(load_text(&snap, running_2411, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	const struct prio_job *j = find_job(&snap, 1);
	cr_assert_eq(j->state, PRIO_JOB_RUNNING);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "cpu"), 5);
	cr_assert_eq(tres(&snap, &j->tres_alloc, "billing"), 6);
	cr_assert_eq(tres(&snap, &j->tres_req, "billing"), 6);
	cr_assert_eq(j->end_time, 1795687789); /* 10:09:49 */
	cr_assert_eq(j->detail->allocs[0].cpus, 5);
	prio_snapshot_free(&snap);
}

/* The engines read tres_alloc when it has counts, else tres_req: the list
 * 22.05 printed as TRES= (the allocation once there is one).  The same
 * records in both formats give them the same list. */
Test(jobs, slurm_2205_and_2302_formats_give_the_engines_one_list)
{
	static const char *const tail[][2] = {
	    {"TRES=cpu=1,mem=1000M,node=1,billing=1 ",
	     "ReqTRES=cpu=1,mem=1000M,node=1,billing=1 AllocTRES=(null) "},
	    {"TRES=cpu=4,mem=4000M,node=1,billing=9 ",
	     "ReqTRES=cpu=2,mem=2000M,node=1,billing=2 "
	     "AllocTRES=cpu=4,mem=4000M,node=1,billing=9 "},
	};
	static const char *const state[] = {"PENDING NodeList=(null)",
					    "RUNNING NodeList=lvn2"};

	for (int i = 0; i < 2; i++) {
		struct prio_snapshot a, b;
		struct prio_error err;
		char ta[1024], tb[1024], msg[1024];
		const char *head =
		    "JobId=2 JobName=wrap UserId=pllive2(1001) Priority=4031 "
		    "Nice=0 Account=acca QOS=normal Reason=None "
		    "SubmitTime=2026-11-26T09:59:48 Partition=short "
		    "TimeLimit=00:10:00 NumNodes=1 NumCPUs=4 JobState=";

		snprintf(ta, sizeof(ta), "%s%s %s\n", head, state[i], tail[i][0]);
		snprintf(tb, sizeof(tb), "%s%s %s\n", head, state[i], tail[i][1]);
		cr_assert_eq(load_text(&a, ta, &err, false), 0, "%s",
			     prio_error_format(&err, msg, sizeof(msg)));
		cr_assert_eq(load_text(&b, tb, &err, false), 0, "%s",
			     prio_error_format(&err, msg, sizeof(msg)));
		cr_assert_eq(a.slurm_release, 2205);
		cr_assert_eq(b.slurm_release, 2302);
		const struct prio_job *x = &a.jobs[0], *y = &b.jobs[0];
		assert_tres_equal(&a, x->tres_alloc.count ? &x->tres_alloc
							  : &x->tres_req,
				  &b,
				  y->tres_alloc.count ? &y->tres_alloc
						      : &y->tres_req,
				  2, "engine");
		prio_snapshot_free(&a);
		prio_snapshot_free(&b);
	}
}

/* A record must hold its format's TRES keys: cut, mixed or doubled ones
 * are refused, naming the key. */
Test(jobs, slurm_2302_tres_keys_required)
{
	static const char head[] =
	    "JobId=%d JobName=a UserId=a(1) Priority=1 Nice=0 Account=x "
	    "QOS=normal JobState=PENDING Reason=None SubmitTime=None "
	    "Partition=batch TimeLimit=5 NumNodes=1 NumCPUs=1 %s\n";
	struct prio_snapshot snap;
	struct prio_error err;
	char text[2048];
	int n;

	/* AllocTRES= missing (the line after ReqTRES= lost) */
	snprintf(text, sizeof(text), head, 1, "ReqTRES=cpu=1");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "AllocTRES");
	cr_assert_str_eq(err.message,
			 "job 1: input ends before AllocTRES= (truncated record?)");
	prio_snapshot_free(&snap);

	/* neither key: after a 23.02 record, ReqTRES= is what is missing */
	n = snprintf(text, sizeof(text), head, 1,
		     "ReqTRES=cpu=1 AllocTRES=(null)");
	snprintf(text + n, sizeof(text) - (size_t)n, head, 2, "");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "ReqTRES");
	prio_snapshot_free(&snap);

	/* ... and after a 22.05 record, TRES= */
	n = snprintf(text, sizeof(text), head, 1, "TRES=cpu=1");
	snprintf(text + n, sizeof(text) - (size_t)n, head, 2, "");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "TRES");
	prio_snapshot_free(&snap);

	/* both formats in one record */
	snprintf(text, sizeof(text), head, 1,
		 "TRES=cpu=1 ReqTRES=cpu=1 AllocTRES=(null)");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "TRES");
	cr_assert(strstr(err.message, "ReqTRES= (23.02 and later)"), "%s",
		  err.message);
	prio_snapshot_free(&snap);

	/* a bad list names its key */
	snprintf(text, sizeof(text), head, 1,
		 "ReqTRES=cpu=1 AllocTRES=cpu=x");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "AllocTRES");
	prio_snapshot_free(&snap);
}

/* Values are unquoted: text that looks like a key we read (a comment in -o
 * output) must not replace the real value. */
Test(jobs, key_text_inside_a_value)
{
	static const char head[] =
	    "JobId=1 JobName=a UserId=a(1) Priority=%s Nice=0 Account=x "
	    "QOS=normal JobState=PENDING Reason=None SubmitTime=None "
	    "Partition=batch TimeLimit=5 NumNodes=1 NumCPUs=1 "
	    "ReqTRES=cpu=1 AllocTRES=(null)%s\n";
	struct prio_snapshot snap;
	struct prio_error err;
	char text[2048], msg[1024];

	/* -o: the comment's Priority=99999 is a second Priority= */
	snprintf(text, sizeof(text), head, "10",
		 " Comment=rerun with Priority=99999");
	cr_assert_eq(load_text(&snap, text, &err, false), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "Priority");
	cr_assert_str_eq(err.message,
			 "a second Priority= in the record of job 1 (a value "
			 "holding \"Priority=\"?)");
	prio_snapshot_free(&snap);

	/* multi-line: a free-text line is text, whatever it holds */
	snprintf(text, sizeof(text), head, "10",
		 "\n   Command=/bin/run Priority=99999 ReqTRES=cpu=64"
		 "\n   SubmitLine=sbatch --wrap=x JobState=RUNNING"
		 "\n   WorkDir=/tmp/QOS=high"
		 "\n   Comment=Account=y Partition=z"
		 "\n   StdOut=/tmp/NumCPUs=9");
	cr_assert_eq(load_text(&snap, text, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(snap.jobs[0].priority, 10);
	cr_assert_eq(snap.jobs[0].state, PRIO_JOB_PENDING);
	cr_assert_eq(snap.jobs[0].num_cpus, 1);
	cr_assert_eq(tres(&snap, &snap.jobs[0].tres_req, "cpu"), 1);
	cr_assert_str_eq(S(&snap, snap.jobs[0].account), "x");
	prio_snapshot_free(&snap);
}

/* Keys 23.02 to 26.05 added or dropped are read past: each ends the value
 * before it. */
Test(jobs, keys_of_later_releases)
{
	static const char text[] =
	    "JobId=7 JobName=a b UserId=a(1) GroupId=a(1) MCS_label=N/A\n"
	    "   SLUID=sabc123\n"
	    "   Priority=77 Nice=0 Account=x QOS=normal\n"
	    "   JobState=PENDING Reason=Priority FailedNode=n3 "
	    "Dependency=(null)\n"
	    "   SubmitTime=2026-11-26T09:59:48 EligibleTime=2026-11-26T09:59:48\n"
	    "   Partition=batch AllocNode:Sid=localhost:1220\n"
	    "   StepMgrEnabled=Yes\n"
	    "   NumNodes=1 NumCPUs=3 NumTasks=3 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
	    "   TimeLimit=00:10:00 ReqTRES=cpu=3,node=1 AllocTRES=(null)\n"
	    "   OverSubscribe=OK Exclusive=NO Contiguous=0 Licenses=(null) "
	    "LicensesAlloc=(null) Network=(null)\n"
	    "   GresAllowTaskSharing=Yes KillOnInvalidDependent=No "
	    "ExpeditedRequeue=Yes\n"
	    "   OOMKillStep=1 SegmentSize=4 SpreadSegments=Yes\n"
	    "   ContainerType=oci Container=/c ContainerID=x ResvPorts=(null)\n"
	    "   \n"
	    "\n";
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(load_text(&snap, text, &err, false), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	const struct prio_job *j = &snap.jobs[0];
	cr_assert_str_eq(j->name, "a b");
	cr_assert_str_eq(S(&snap, j->reason), "Priority");
	cr_assert_eq(j->priority, 77);
	cr_assert_eq(j->num_cpus, 3);
	cr_assert_eq(tres(&snap, &j->tres_req, "cpu"), 3);
	cr_assert_eq(j->oversubscribe != PRIO_NO_ID, true);
	cr_assert_str_eq(S(&snap, j->oversubscribe), "OK");
	prio_snapshot_free(&snap);
}

/* --- several QOS (24.11) ---------------------------------------------------
 */

#define MULTI_QOS "tests/oracle/slurm-24.11-multi-qos/"

/* The QOS names of a job's list, "high,low". */
static const char *qos_names(const struct prio_snapshot *snap,
			     const struct prio_job *j, char *buf, size_t size)
{
	size_t len = 0;

	cr_assert_not_null(prio_job_qos_list(j), "job %u has one QOS",
			   j->job_id);
	buf[0] = '\0';
	for (uint32_t k = 0; k < prio_job_qos_count(j); k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					k ? "," : "",
					S(snap, prio_job_qos_at(j, k)));
	return buf;
}

static void load_qos_file(struct prio_snapshot *snap, const char *rel)
{
	struct prio_error err;
	char msg[1024];

	cr_assert_eq(prio_load_role(snap, PRIO_ROLE_QOS, test_path(rel), &err),
		     0, "%s", prio_error_format(&err, msg, sizeof(msg)));
}

/* Jobs 22 (sbatch --qos low,high) and 23 (--qos mid,normal,low) of the
 * 24.11 capture: scontrol prints the request as given; linking sorts it by
 * QOS Priority (sacctmgr: high 100, mid 50, normal 10, low 1) as sprio's
 * rows come, and the job's QOS is the first. */
Test(jobs, slurm_2411_several_qos_sorted_by_priority)
{
	static const char *const forms[] = {MULTI_QOS "scontrol_show_job_d.txt",
					    MULTI_QOS
					    "scontrol_show_job_d_o.txt"};

	for (size_t f = 0; f < 2; f++) {
		struct prio_snapshot snap;
		struct prio_error err;
		char msg[1024], names[128];
		const struct prio_job *j;

		load_file(&snap, forms[f], prio_load_jobs_scontrol);
		/* a QOS list is a 24.11 format: it raises ReqTRES='s 23.02 */
		cr_assert_eq(snap.slurm_release, 2411);
		cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_FORMAT);
		j = find_job(&snap, 22);
		cr_assert_str_eq(qos_names(&snap, j, names, sizeof(names)),
				 "low,high", "as printed until linked");
		cr_assert_eq(prio_job_qos_list(j)->line, f ? 22 : 619);
		cr_assert_eq(j->priority, 4301);
		/* a single QOS stays a plain id */
		cr_assert_null(prio_job_qos_list(find_job(&snap, 8)));
		cr_assert_str_eq(S(&snap, find_job(&snap, 8)->qos), "high");

		load_qos_file(&snap, MULTI_QOS "sacctmgr_show_qos.txt");
		cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
			     prio_error_format(&err, msg, sizeof(msg)));
		j = find_job(&snap, 22);
		cr_assert_str_eq(qos_names(&snap, j, names, sizeof(names)),
				 "high,low");
		cr_assert_str_eq(S(&snap, j->qos), "high");
		cr_assert_eq(prio_job_qos_count(j), 2);
		j = find_job(&snap, 23);
		cr_assert_str_eq(qos_names(&snap, j, names, sizeof(names)),
				 "mid,normal,low");
		cr_assert_str_eq(S(&snap, j->qos), "mid");
		cr_assert_eq(prio_job_qos_count(find_job(&snap, 8)), 1);
		prio_snapshot_free(&snap);
	}
}

/* squeue --json prints the same list in "qos" (job 22 of the capture's
 * squeue_json.txt: "qos": "low,high"); the reader keeps it as scontrol's. */
Test(jobs, several_qos_in_squeue_json)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char names[128], msg[1024];

	cr_assert_eq(
	    load_json_text(&snap,
			   "{\"jobs\": [\n"
			   " {\"job_id\": 22, \"job_state\": \"PENDING\", "
			   "\"priority\": 4301, \"partition\": \"batch\", "
			   "\"user_name\": \"pllive3\", "
			   "\"qos\": \"low,high\"}\n"
			   "]}\n",
			   &err),
	    0, "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_str_eq(qos_names(&snap, &snap.jobs[0], names, sizeof(names)),
			 "low,high");
	cr_assert_eq(prio_job_qos_list(&snap.jobs[0])->line, 2);
	prio_snapshot_free(&snap);
}

/* Before 24.11 a job has one QOS: the list is refused where it was read,
 * naming the release; with --keep-going the two jobs are dropped. */
Test(jobs, slurm_2311_refuses_several_qos)
{
	struct prio_snapshot snap;
	struct prio_error err;

	for (int keep = 0; keep < 2; keep++) {
		utc();
		cr_assert_eq(prio_snapshot_init(&snap), 0);
		snap.keep_going = keep;
		prio_snapshot_note_version(&snap, 2311, PRIO_VERSION_OPTION);
		cr_assert_eq(prio_load_role(
				 &snap, PRIO_ROLE_JOBS,
				 test_path(MULTI_QOS "scontrol_show_job_d.txt"),
				 &err),
			     0);
		load_qos_file(&snap, MULTI_QOS "sacctmgr_show_qos.txt");
		if (!keep) {
			cr_assert_eq(prio_snapshot_finish(&snap, &err),
				     PRIO_ERR_PARSE);
			cr_assert(strstr(err.file, "scontrol_show_job_d.txt"));
			cr_assert_eq(err.line, 619);
			cr_assert_str_eq(err.field, "QOS");
			cr_assert_str_eq(err.message,
					 "job 22: several QOS \"low,high\" "
					 "(Slurm 23.11 has one QOS per job; "
					 "several came with 24.11)");
		} else {
			cr_assert_eq(prio_snapshot_finish(&snap, &err), 0);
			cr_assert_eq(snap.warning_count, 2);
			cr_assert_eq(snap.warnings[1].error.line, 647);
			cr_assert_null(prio_snapshot_find_job(&snap, 22));
			cr_assert_null(prio_snapshot_find_job(&snap, 23));
			cr_assert_not_null(prio_snapshot_find_job(&snap, 8));
		}
		prio_snapshot_free(&snap);
	}
}

/* A QOS of the list that sacctmgr does not know is refused like a single
 * unknown QOS; an empty name is a bad value where it was read. */
Test(jobs, several_qos_unknown_or_empty)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char *text = one_line_form(MULTI_QOS "scontrol_show_job_d.txt");
	char *at = strstr(text, "QOS=low,high");

	cr_assert_not_null(at);
	/* "QOS=low,high" -> "QOS=low,hig," is no name; ",igh": empty */
	memcpy(at, "QOS=low,,igh", 12);
	cr_assert_lt(load_text(&snap, text, &err, false), 0);
	cr_assert_str_eq(err.field, "QOS");
	cr_assert_eq(err.line, 22);
	cr_assert(strstr(err.message, "empty name"), "%s", err.message);
	prio_snapshot_free(&snap);

	memcpy(at, "QOS=low,gold", 12);
	cr_assert_eq(load_text(&snap, text, &err, false), 0);
	load_qos_file(&snap, MULTI_QOS "sacctmgr_show_qos.txt");
	cr_assert_eq(prio_snapshot_finish(&snap, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 22);
	cr_assert_str_eq(err.field, "QOS");
	cr_assert_str_eq(err.message, "job 22: unknown QOS \"gold\"");
	prio_snapshot_free(&snap);
	free(text);
}

/* --- large inputs: the second thread (issue 17) -------------------------- */

/* The 21 jobs of a real 24.11 capture (`scontrol show job -d -o`) repeated
 * with new job ids until the input passes the 4 MiB from which a second
 * thread splits the lines: *lines of them, *size bytes. */
#define BIG_COPIES 200u
static char *big_input(size_t *size, unsigned *lines)
{
	struct prio_source src;
	struct prio_error err;
	size_t cap, len = 0;
	char *out;

	cr_assert_eq(prio_source_open(&src, test_path("tests/oracle/"
						      "slurm-24.11-fairtree/"
						      "scontrol_show_job_d_o.txt"),
				      &err),
		     0);
	cap = src.size * BIG_COPIES + BIG_COPIES * 21 * 8 + 1;
	out = malloc(cap);
	cr_assert_not_null(out);
	*lines = 0;
	for (unsigned c = 0; c < BIG_COPIES; c++) {
		const char *p = src.data, *end = src.data + src.size;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *rest = p + 6;
			unsigned id = (unsigned)strtoul(rest, NULL, 10);

			cr_assert_not_null(nl);
			cr_assert(strncmp(p, "JobId=", 6) == 0);
			while (*rest >= '0' && *rest <= '9')
				rest++;
			len += (size_t)snprintf(out + len, cap - len, "JobId=%u",
						c * 100 + id);
			memcpy(out + len, rest, (size_t)(nl + 1 - rest));
			len += (size_t)(nl + 1 - rest);
			p = nl + 1;
			++*lines;
		}
	}
	prio_source_close(&src);
	cr_assert_gt(len, (size_t)4 << 20);
	*size = len;
	return out;
}

/* Where line `line` (1-based) of text starts. */
static char *line_at(char *text, unsigned line)
{
	while (--line)
		text = strchr(text, '\n') + 1;
	return text;
}

static int load_big(struct prio_snapshot *snap, const char *text,
		    size_t size, struct prio_error *err, bool keep_going)
{
	struct prio_source src;

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	snap->keep_going = keep_going;
	prio_error_clear(err);
	prio_source_from_memory(&src, "jobs.txt", text, size);
	return prio_load_jobs_scontrol(snap, &src, err);
}

/* Every job of a large input, in input order, with the capture's values. */
Test(jobs, large_input_threaded)
{
	struct prio_snapshot snap;
	struct prio_error err;
	size_t size;
	unsigned lines;
	char *text = big_input(&size, &lines);
	const struct prio_job *j;

	cr_assert_eq(load_big(&snap, text, size, &err, false), 0, "%s",
		     err.message);
	cr_assert_eq(snap.job_count, lines);
	/* the last copy's job 1: pllive1's, Priority=4089 as captured */
	j = &snap.jobs[lines - 21];
	cr_assert_eq(j->job_id, (BIG_COPIES - 1) * 100 + 1);
	cr_assert_eq(j->priority, 4089);
	cr_assert_str_eq(S(&snap, j->user), "pllive1");
	cr_assert_eq(j->line, lines - 20);
	for (unsigned i = 1; i < lines; i++)
		cr_assert_eq(snap.jobs[i].line, snap.jobs[i - 1].line + 1);
	prio_snapshot_free(&snap);
	free(text);
}

/* Late in a large input, the first error by line is the one reported, and
 * keep_going warns of each in line order: a NUL byte (found by the
 * splitting thread, read on by the loading one), then a bad Priority. */
Test(jobs, large_input_first_error)
{
	struct prio_snapshot snap;
	struct prio_error err;
	size_t size;
	unsigned lines;
	char *text = big_input(&size, &lines);
	char *bad = strstr(line_at(text, lines - 7), " Priority=");

	cr_assert_not_null(bad);
	bad[10] = 'x';
	cr_assert_lt(load_big(&snap, text, size, &err, false), 0);
	cr_assert_eq(err.line, lines - 7);
	cr_assert_str_eq(err.field, "Priority");
	cr_assert(strncmp(err.message, "expected an unsigned integer, got \"x",
			  36) == 0,
		  "%s", err.message);
	prio_snapshot_free(&snap);

	line_at(text, lines - 9)[40] = '\0';
	cr_assert_lt(load_big(&snap, text, size, &err, false), 0);
	cr_assert_eq(err.line, lines - 9);
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);

	cr_assert_eq(load_big(&snap, text, size, &err, true), 0);
	cr_assert_eq(snap.warning_count, 2);
	cr_assert_eq(snap.warnings[0].error.line, lines - 9);
	cr_assert_eq(snap.warnings[1].error.line, lines - 7);
	/* lost: the bad Priority's job, the NUL's and the one before it (a
	 * line that cannot be read spoils the record open there, as in one
	 * thread) */
	cr_assert_eq(snap.job_count, lines - 3);
	prio_snapshot_free(&snap);
	free(text);
}

/* The splitting thread of a large input (issue 17; lc_test.pipe_min takes
 * it on small ones) gives what one thread gives: the same jobs, and the
 * same first error at the same line. */
Test(jobs, two_threads_are_one)
{
	glob_t g;
	unsigned files = 0;
	struct prio_snapshot a, b;
	struct prio_error err, err2;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_job_d*.txt"), 0,
			  NULL, &g), 0);
	for (size_t f = 0; f < g.gl_pathc; f++) {
		const char *rel = strstr(g.gl_pathv[f], "tests/oracle/");

		load_file(&a, rel, prio_load_jobs_scontrol);
		lc_test.pipe_min = 1;
		load_file(&b, rel, prio_load_jobs_scontrol);
		lc_test.pipe_min = 0;
		cr_assert_eq(a.job_count, b.job_count, "%s", rel);
		for (uint32_t i = 0; i < a.job_count; i++) {
			assert_common_fields(&a, &a.jobs[i], &b, &b.jobs[i]);
			cr_assert_eq(a.jobs[i].line, b.jobs[i].line);
		}
		cr_assert_eq(a.strings.count, b.strings.count, "the same ids");
		prio_snapshot_free(&a);
		prio_snapshot_free(&b);
		files++;
	}
	globfree(&g);
	cr_assert_geq(files, 20);

	cr_assert_eq(load_multi(&a, &err, "x", "Unknown", false), PRIO_ERR_PARSE);
	lc_test.pipe_min = 1;
	cr_assert_eq(load_multi(&b, &err2, "x", "Unknown", false), PRIO_ERR_PARSE);
	lc_test.pipe_min = 0;
	cr_assert_eq(err2.line, 13);
	cr_assert_str_eq(err2.field, err.field);
	cr_assert_str_eq(err2.message, err.message);
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
}

/* A large input read whole through prio_load_role (the stream declines
 * it: lc_test.no_stream) is given back as it is read (lc_give_back): the
 * jobs are those of the same text read from memory, where nothing is given
 * back, although the fields every record repeats (user, account, QOS,
 * TRES, partition) were last seen in bytes given back long before. */
Test(jobs, given_back_input_reads_as_before)
{
	const unsigned n = 60000;
	size_t cap = (size_t)n * 400, len = 0;
	char *text = malloc(cap), path[] = "/tmp/prio-give-back.XXXXXX", msg[1024];
	struct prio_snapshot a, b;
	struct prio_error err;

	cr_assert_not_null(text);
	for (unsigned i = 0; i < n; i++) {
		/* one record in the middle differs, then the first values
		 * come back */
		bool odd = i == n / 2;

		len += (size_t)snprintf(
		    text + len, cap - len,
		    "JobId=%u JobName=job%u UserId=%s Priority=%u Nice=0 "
		    "Account=%s QOS=normal JobState=PENDING Reason=Priority "
		    "SubmitTime=2026-01-02T03:04:05 Partition=batch "
		    "TimeLimit=60 NumNodes=1 NumCPUs=4 ReqNodeList=(null) "
		    "TRES=cpu=4,mem=%s,node=1 Comment=padding-to-three-hundred-"
		    "bytes-a-record-as-scontrol-prints-them\n",
		    i + 1, i, odd ? "v(8)" : "u(7)", 1000 + i % 97,
		    odd ? "other" : "acc", odd ? "2G" : "8G");
	}
	cr_assert_gt(len, (size_t)3 * LC_GIVE_BACK_STEP);
	cr_assert_eq(test_temp_file(path, text, len), 0);

	cr_assert_eq(prio_snapshot_init(&a), 0);
	lc_test.no_stream = true;
	cr_assert_eq(prio_load_role(&a, PRIO_ROLE_JOBS, path, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
	lc_test.no_stream = false;
	cr_assert_eq(load_text(&b, text, &err, false), 0);
	unlink(path);
	cr_assert_eq(a.job_count, n);
	cr_assert_eq(b.job_count, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_job *x = &a.jobs[i];

		assert_common_fields(&a, x, &b, &b.jobs[i]);
		cr_assert_str_eq(S(&a, x->user), i == n / 2 ? "v" : "u");
		cr_assert_str_eq(S(&a, x->account), i == n / 2 ? "other" : "acc");
		cr_assert_eq(tres(&a, &x->tres_req, "mem"),
			     i == n / 2 ? 2048 : 8192, "job %u", x->job_id);
	}
	cr_assert_eq(a.strings.count, b.strings.count, "the same ids");
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
	free(text);
}

/* What is given back: whole 2 MiB units of a source read once into its own
 * buffer, from where the last step ended; nothing of any other source. */
Test(jobs, give_back_takes_whole_pages_of_sources_read_once)
{
	size_t size = 3 * LC_GIVE_BACK_STEP, unit = LC_GIVE_BACK_UNIT;
	char path[] = "/tmp/prio-give-back.XXXXXX", *fill = malloc(size);
	struct prio_source src;
	struct prio_error err;
	const char *kept, *upto;

	cr_assert_not_null(fill);
	memset(fill, 'x', size);
	cr_assert_eq(test_temp_file(path, fill, size), 0);

	/* not read once: the bytes stay */
	cr_assert_eq(prio_source_open(&src, path, &err), 0);
	kept = src.data;
	lc_give_back(&src, &kept, src.data + 2 * LC_GIVE_BACK_STEP);
	cr_assert_eq(memcmp(src.data, fill, size), 0);
	prio_source_close(&src);

	cr_assert_eq(prio_source_open(&src, path, &err), 0);
	unlink(path);
	src.once = true;
	kept = src.data;
	/* less than a step: nothing yet */
	lc_give_back(&src, &kept, src.data + LC_GIVE_BACK_STEP - 1);
	cr_assert_eq(kept, src.data);
	upto = src.data + 2 * LC_GIVE_BACK_STEP + 100;
	lc_give_back(&src, &kept, upto);
	cr_assert_eq((uintptr_t)kept % unit, 0);
	cr_assert_leq(kept, upto);
	cr_assert_gt(kept + unit, upto);
	/* from the first whole unit on, what is given back reads as zeros */
	for (const char *p = src.data + unit; p < kept; p += 4096)
		cr_assert_eq(*p, 0, "offset %td", p - src.data);
	/* from kept on, the bytes are those read */
	cr_assert_eq(memcmp(kept, fill, (size_t)(src.data + size - kept)), 0);
	prio_source_close(&src);
	free(fill);
}

/*
 * The stream (lc_jobs_stream: a large file read a run at a time into
 * buffers used in turn) as runs of exactly 2048 records of 256 bytes
 * (lc_test.stream_chunk 512 KiB), so that each run's records lie where the
 * run six back had its own, in the same buffer.  The first six runs repeat
 * one user, account, partition and TRES; from the seventh on they change
 * to values of the same length, and back at the tenth.  Only the first
 * record of runs 0, 6 and 9 has a dependency, each at the same place in
 * its buffer: 11, 22, then 11.  Every job must be the whole load's: the
 * dependency remembered from run 0 (the field's last value), whose bytes
 * run 6 wrote over with its own and which nothing read in between, would
 * compare equal there and give run 0's value.
 */
static char *fixed_records(unsigned n, unsigned per_run, size_t *len)
{
	char *text = malloc((size_t)n * 256 + 1);
	size_t at = 0;

	cr_assert_not_null(text);
	for (unsigned i = 0; i < n; i++) {
		unsigned run = i / per_run;
		bool b = run >= 6 && run < 9;
		int k = snprintf(
		    text + at, 257,
		    "JobId=%07u JobName=j UserId=%s(7) Priority=%05u Nice=0 "
		    "Account=%s QOS=normal JobState=PENDING Reason=Priority "
		    "Dependency=%s SubmitTime=2026-01-02T03:04:05 "
		    "Partition=%s TimeLimit=60 NumNodes=1 NumCPUs=4 "
		    "TRES=cpu=4,mem=%s,node=1 Comment=",
		    i + 1, b ? "v" : "u", 1000 + i % 97, b ? "bbb" : "aaa",
		    i % per_run || (run != 0 && run != 6 && run != 9)
			? "(null)"
			: run == 6 ? "afterok:22" : "afterok:11",
		    b ? "short" : "batch", b ? "2G" : "8G");

		cr_assert(k > 0 && k < 255);
		memset(text + at + k, 'x', (size_t)(255 - k));
		text[at + 255] = '\n';
		at += 256;
	}
	text[at] = '\0';
	*len = at;
	return text;
}

static void load_path(struct prio_snapshot *snap, const char *path,
		      bool keep_going, int want_rc, struct prio_error *err)
{
	char msg[1024];

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	snap->keep_going = keep_going;
	prio_error_clear(err);
	cr_assert_eq(prio_load_role(snap, PRIO_ROLE_JOBS, path, err), want_rc,
		     "%s", prio_error_format(err, msg, sizeof(msg)));
}

Test(jobs, streamed_runs_read_as_the_whole_file)
{
	const unsigned per_run = 2048, n = 12 * per_run;
	char path[] = "/tmp/prio-stream.XXXXXX", *text;
	struct prio_snapshot a, b;
	struct prio_error err;
	size_t len;
	unsigned streamed = lc_test.jobs_streamed;

	text = fixed_records(n, per_run, &len);
	cr_assert_eq(test_temp_file(path, text, len), 0);
	lc_test.pipe_min = 1;
	lc_test.stream_chunk = (size_t)per_run * 256;
	load_path(&a, path, false, 0, &err);
	cr_assert_eq(lc_test.jobs_streamed, streamed + 1, "not streamed");
	lc_test.no_stream = true;
	load_path(&b, path, false, 0, &err);
	lc_test.no_stream = false;
	lc_test.pipe_min = 0;
	lc_test.stream_chunk = 0;
	unlink(path);
	cr_assert_eq(a.job_count, n);
	cr_assert_eq(b.job_count, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_job *x = &a.jobs[i];
		bool changed = i / per_run >= 6 && i / per_run < 9;

		assert_common_fields(&a, x, &b, &b.jobs[i]);
		cr_assert_eq(x->line, i + 1);
		cr_assert_str_eq(S(&a, x->user), changed ? "v" : "u", "job %u",
				 x->job_id);
		cr_assert_str_eq(S(&a, x->account), changed ? "bbb" : "aaa",
				 "job %u", x->job_id);
		cr_assert_str_eq(S(&a, x->partitions[0]),
				 changed ? "short" : "batch", "job %u", x->job_id);
		if (i % per_run)
			cr_assert_eq(x->dependency, PRIO_NO_ID, "job %u",
				     x->job_id);
		else if (i / per_run == 0 || i / per_run == 6 ||
			 i / per_run == 9)
			cr_assert_str_eq(S(&a, x->dependency),
					 i / per_run == 6 ? "afterok:22"
							  : "afterok:11",
					 "job %u", x->job_id);
		cr_assert_eq(tres(&a, &x->tres_req, "mem"), changed ? 2048 : 8192,
			     "job %u", x->job_id);
	}
	cr_assert_eq(a.strings.count, b.strings.count, "the same ids");
	prio_snapshot_free(&a);
	prio_snapshot_free(&b);
	free(text);
}

/* A file the stream cannot take whole (a bad record in its tenth run, a
 * NUL byte, a cut last line) gets the whole load's answer: the same error
 * at the same line, or under --keep-going the same warnings and jobs, and
 * nothing of what the stream read before it gave up. */
Test(jobs, streamed_file_with_a_flaw_is_judged_whole)
{
	const unsigned per_run = 2048, n = 12 * per_run;
	static const struct {
		const char *what;
		size_t at; /* byte offset in the text */
		const char *put;
	} flaws[] = {
	    {"a bad priority", 9 * 2048 * 256 + 5 * 256 + 48, "x"},
	    {"a NUL byte", 10 * 2048 * 256 + 7 * 256 + 60, "\0"},
	    {"a line longer than a run", 3 * 2048 * 256 + 255, " "},
	    {"a cut last line", 12 * 2048 * 256 - 1, "x"},
	};

	for (size_t f = 0; f < sizeof(flaws) / sizeof(*flaws); f++) {
		char path[] = "/tmp/prio-stream.XXXXXX", *text;
		size_t len;
		unsigned streamed = lc_test.jobs_streamed;

		text = fixed_records(n, per_run, &len);
		if (strcmp(flaws[f].what, "a line longer than a run") == 0)
			/* no newline for two runs and more */
			for (size_t i = 0; i < 2 * 2048 + 5; i++)
				text[3 * 2048 * 256 + 255 + i * 256] = ' ';
		else
			text[flaws[f].at] = flaws[f].put[0];
		cr_assert_eq(test_temp_file(path, text, len), 0);
		for (int kg = 0; kg < 2; kg++) {
			struct prio_snapshot a, b;
			struct prio_error ea, eb;
			int rc;

			lc_test.no_stream = true;
			utc();
			cr_assert_eq(prio_snapshot_init(&b), 0);
			b.keep_going = kg;
			rc = prio_load_role(&b, PRIO_ROLE_JOBS, path, &eb);
			lc_test.no_stream = false;
			lc_test.pipe_min = 1;
			lc_test.stream_chunk = (size_t)per_run * 256;
			load_path(&a, path, kg, rc, &ea);
			lc_test.pipe_min = 0;
			lc_test.stream_chunk = 0;
			cr_assert_eq(lc_test.jobs_streamed, streamed, "%s streamed",
				     flaws[f].what);
			if (rc < 0) {
				cr_assert_eq(ea.line, eb.line, "%s", flaws[f].what);
				cr_assert_str_eq(ea.field, eb.field);
				cr_assert_str_eq(ea.message, eb.message);
			} else {
				cr_assert(kg, "%s: loaded without keep-going",
					  flaws[f].what);
			}
			cr_assert_eq(a.job_count, b.job_count, "%s", flaws[f].what);
			cr_assert_eq(a.warning_count, b.warning_count);
			for (uint32_t w = 0; w < a.warning_count; w++)
				cr_assert_str_eq(a.warnings[w].error.message,
						 b.warnings[w].error.message);
			for (uint32_t i = 0; i < a.job_count; i++)
				assert_common_fields(&a, &a.jobs[i], &b,
						     &b.jobs[i]);
			prio_snapshot_free(&a);
			prio_snapshot_free(&b);
		}
		unlink(path);
		free(text);
	}
}
