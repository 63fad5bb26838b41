/* SPDX-License-Identifier: MIT */
/*
 * Slurm's preemption decision for one pending job (slurm-facts §9).
 *
 * Candidates (slurm_find_preemptable_jobs): every running or suspended job
 * on a node of the pending job's partition that the preempt plugin allows,
 *  - preempt/partition_prio: its partition's PriorityTier strictly lower,
 *    its PreemptMode (partition's, else the cluster's, GANG stripped) not
 *    OFF, GraceTime from its partition;
 *  - preempt/qos: both jobs have a QOS; the same QOS only with WITHIN (on
 *    the preemptor's QOS or cluster-wide) and a lower job priority, else
 *    the preemptor QOS's Preempt list names it; PreemptMode and GraceTime
 *    from its QOS (0 = the cluster's mode);
 * and whose PreemptExemptTime has passed (job QOS, partition QOS -- that
 * order flipped without OverPartQOS --, else the cluster's; for every
 * mode).  Order: youngest first with SchedulerParameters
 * preempt_youngest_first, else ascending (tier or QOS priority) << 16 plus
 * node count; Slurm's qsort leaves ties unspecified, we keep snapshot
 * order (job ids).
 *
 * The select plugin (job_test.c _run_now of each select plugin):
 *  1. the job fits as things are: nothing preempted;
 *  2. cons_tres with preempt/partition_prio and GANG: lower-tier jobs'
 *     resources are usable, after a try that avoids them; the gang
 *     scheduler then suspends, requeues or cancels the jobs under the
 *     newcomer's CPUs ("shadows");
 *     cons_tres with preempt/qos when the first candidate's mode is
 *     SUSPEND: one more row (the "QOS row") lets the job overlap, gang
 *     suspends what it overlaps;
 *  3. otherwise candidates are removed one by one in order from a copy of
 *     the resources (cons_tres: REQUEUE/CANCEL ones only; select/linear:
 *     every mode, a suspended job keeping its memory) until the job fits;
 *     then the candidate that made it fit moves first (strict order) or
 *     all are re-sorted by how many of the chosen nodes they hold (that
 *     one first), and the walk is repeated, preempt_reorder_count times.
 *     The victims are the candidates up to the last one removed that hold
 *     one of the chosen nodes.
 *
 * Reorder passes: the facts read Slurm's "pass_count++ > count" test as
 * count+1 passes; the oracle says count.  With the default (1) Slurm
 * preempted 1002, 1000, 1001 (preemption-a), 2001, 2000 and 2003, 2002
 * (preemption-b): one reorder -- the job that made it fit first, then
 * the others -- and no second one, which would have put 1001, 2000 and
 * 2002 first.  We follow the oracle.
 *
 * Acting (node_scheduler.c _preempt_jobs, slurm_job_preempt): SUSPEND
 * with GANG leaves it to the gang scheduler, which resumes the job when
 * the preemptor ends; CANCEL and REQUEUE first give GraceTime (SIGCONT and
 * SIGTERM, the end time moved to now + grace; the docs say CANCEL only,
 * the code does both), then kill or requeue; a job that cannot be
 * requeued is killed.  A requeued job is pending again with a begin time
 * one credential lifetime (AuthInfo cred_expire, 120 s) plus a second
 * later: the oracle's 03:43:18 -> 03:45:19.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "preempt_sim.h"
#include "prio/conf.h"
#include "prio/preempt.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

const char *prio_preempt_action_name(enum prio_preempt_action a)
{
	switch (a) {
	case PRIO_ACTION_SUSPEND:
		return "suspend";
	case PRIO_ACTION_REQUEUE:
		return "requeue";
	case PRIO_ACTION_CANCEL:
		return "cancel";
	default:
		return "none";
	}
}

void prio_preempt_request_init(struct prio_preempt_request *req)
{
	memset(req, 0, sizeof(*req));
	req->job_index = UINT32_MAX;
	req->time_limit = PRIO_NO_VAL;
}

int prio_preempt_request_from_job(const struct prio_snapshot *snap, uint32_t j,
				  struct prio_preempt_request *req,
				  struct prio_error *err)
{
	const struct prio_job *job = &snap->jobs[j];

	if (!prio_job_state_pending(job->state))
		return prio_error_set(err, PRIO_ERR_USAGE, job->file, job->line,
				      "JobState", "job %u is %s, not pending",
				      job->job_id,
				      prio_job_state_name(job->state));
	req->job_index = j;
	if (!req->job_id)
		req->job_id = job->job_id;
	if (!req->name)
		req->name = PSIM_JOB_NAME(snap, job);
	if (!req->user)
		req->user = job->user;
	if (!req->account)
		req->account = job->account;
	if (!req->qos)
		req->qos = job->qos;
	if (!req->partition && job->partition_count)
		req->partition = job->partitions[0];
	/* "NumNodes=2-2" was -N 2; a bare "NumNodes=1" is no -N at all: the
	 * job may spread over as many nodes as it has tasks. */
	if (!req->min_nodes && (job->max_nodes || job->min_nodes > 1)) {
		req->min_nodes = job->min_nodes;
		if (!req->max_nodes)
			req->max_nodes = job->max_nodes;
		if (!req->max_nodes) {
			uint32_t tasks = job->num_tasks != PRIO_NO_VAL
					     ? job->num_tasks
					     : job->num_cpus;

			req->max_nodes =
			    tasks > job->min_nodes ? tasks : job->min_nodes;
		}
	}
	if (!req->cpus_per_task && job->cpus_per_task)
		req->cpus_per_task = job->cpus_per_task;
	if (!req->ntasks && job->num_tasks != PRIO_NO_VAL)
		req->ntasks = job->num_tasks;
	if (!req->min_cpus)
		req->min_cpus = job->num_cpus;
	if (!req->mem_mb && job->min_memory) {
		req->mem_mb = job->min_memory;
		req->mem_per_cpu = job->mem_per_cpu;
	}
	if (req->time_limit == PRIO_NO_VAL)
		req->time_limit = job->time_limit;
	if (!req->priority)
		req->priority = job->priority;
	return 0;
}

/* --- the question ------------------------------------------------------ */

static const struct prio_partition *
default_partition(const struct prio_snapshot *snap)
{
	for (uint32_t i = 0; i < snap->partition_count; i++)
		if (snap->partitions[i].is_default)
			return &snap->partitions[i];
	return snap->partition_count ? &snap->partitions[0] : NULL;
}

static uint32_t requeue_delay(const struct prio_config *conf)
{
	const struct prio_conf_kv *kv = prio_config_find(conf, "AuthInfo");
	const char *hit = kv ? strcasestr(kv->value, "cred_expire=") : NULL;
	long v = hit ? strtol(hit + 12, NULL, 10) : 120;

	return (uint32_t)(v > 0 ? v : 120) + 1;
}

static uint32_t resolve_rows(const struct prio_partition *p, bool wants)
{
	uint16_t share = p->max_share & (uint16_t)~PRIO_SHARED_FORCE;

	if (share <= 1)
		return 1;
	return (p->max_share & PRIO_SHARED_FORCE) || wants ? share : 1;
}

static int resolve_request(struct prio_preempt_ctx *ctx, struct prio_error *err)
{
	const struct prio_snapshot *snap = ctx->snap;
	struct prio_preempt_request *req = &ctx->req;
	const struct prio_partition *p;
	uint64_t per_task_cpus;

	p = req->partition ? prio_snapshot_partition(snap, req->partition)
			   : default_partition(snap);
	if (!p)
		return prio_error_set(
		    err, PRIO_ERR_USAGE, "", 0, "partition",
		    req->partition ? "no partition named \"%s\" in the snapshot"
				   : "the snapshot defines no partition%s",
		    req->partition ? prio_snapshot_str(snap, req->partition)
				   : "");
	ctx->partition = p;
	ctx->partition_index = (uint32_t)(p - snap->partitions);
	req->partition = p->name;
	if (!req->qos) {
		/* Slurm gives the association's default QOS; "normal" is
		 * the usual one. */
		prio_id normal = prio_intern_find(&snap->strings, "normal", 6);

		if (normal && prio_snapshot_qos(snap, normal))
			req->qos = normal;
	}
	ctx->qos = req->qos ? prio_snapshot_qos(snap, req->qos) : NULL;
	if (req->qos && !ctx->qos && snap->qos_count)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "qos",
				      "no QOS named \"%s\" in the snapshot",
				      prio_snapshot_str(snap, req->qos));
	if (!req->job_id) {
		uint32_t max = 0;

		for (uint32_t i = 0; i < snap->job_count; i++)
			if (snap->jobs[i].job_id > max)
				max = snap->jobs[i].job_id;
		req->job_id = max + 1;
	}
	ctx->cpus_per_task = req->cpus_per_task ? req->cpus_per_task : 1;
	ctx->need_nodes = req->min_nodes ? req->min_nodes : 1;
	if (!req->ntasks)
		req->ntasks = req->min_cpus
				  ? (req->min_cpus + ctx->cpus_per_task - 1) /
					ctx->cpus_per_task
				  : ctx->need_nodes;
	per_task_cpus = (uint64_t)req->ntasks * ctx->cpus_per_task;
	if (per_task_cpus < (uint64_t)ctx->need_nodes * ctx->cpus_per_task)
		per_task_cpus = (uint64_t)ctx->need_nodes * ctx->cpus_per_task;
	if (per_task_cpus < req->min_cpus)
		per_task_cpus = req->min_cpus;
	if (per_task_cpus > UINT32_MAX)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "ntasks",
				      "%llu CPUs: too many",
				      (unsigned long long)per_task_cpus);
	ctx->need_cpus = (uint32_t)per_task_cpus;
	if (req->max_nodes >= ctx->need_nodes)
		ctx->max_nodes = req->max_nodes;
	else if (req->min_nodes)
		ctx->max_nodes = ctx->need_nodes;
	else
		ctx->max_nodes = req->ntasks > ctx->need_nodes
				     ? req->ntasks
				     : ctx->need_nodes;
	if (req->mem_mb) {
		if (req->mem_per_cpu)
			ctx->mem_per_cpu = req->mem_mb;
		else
			ctx->mem_per_node = req->mem_mb;
	} else if (snap->conf.def_mem_per_cpu) {
		ctx->mem_per_cpu = snap->conf.def_mem_per_cpu;
	}
	if (req->time_limit == PRIO_NO_VAL || req->time_limit == 0)
		req->time_limit = p->default_time != PRIO_NO_VAL
				      ? p->default_time
				      : p->max_time;
	ctx->whole_nodes = ctx->res->select == PRIO_SELECT_LINEAR ||
			   req->exclusive || p->max_share == 0;
	ctx->rows = resolve_rows(p, req->oversubscribe);
	return 0;
}

/* Reasons the job can never start in its partition, whatever runs. */
static void check_possible(struct prio_preempt_ctx *ctx)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_partition *p = ctx->partition;
	const char *pname = prio_snapshot_str(snap, p->name);
	uint32_t up = 0;
	uint64_t cpus = 0;
	char a[32], b[32];

	for (uint32_t i = 0; i < p->node_count; i++)
		if (ctx->res->node_up[p->nodes[i]]) {
			up++;
			cpus += ctx->res->node_cpus[p->nodes[i]];
		}
	if (p->state && strcasecmp(p->state, "UP") != 0)
		snprintf(ctx->impossible, sizeof(ctx->impossible),
			 "partition %s is %s", pname, p->state);
	else if (p->max_time != PRIO_INFINITE &&
		 ctx->req.time_limit != PRIO_INFINITE &&
		 ctx->req.time_limit > p->max_time)
		snprintf(ctx->impossible, sizeof(ctx->impossible),
			 "its time limit %s exceeds partition %s's MaxTime %s "
			 "(PartitionTimeLimit)",
			 prio_mins2time_str(ctx->req.time_limit, a, sizeof(a)),
			 pname, prio_mins2time_str(p->max_time, b, sizeof(b)));
	else if (up < ctx->need_nodes)
		snprintf(ctx->impossible, sizeof(ctx->impossible),
			 "it needs %u nodes; partition %s has %u usable",
			 ctx->need_nodes, pname, up);
	else if (cpus < ctx->need_cpus)
		snprintf(ctx->impossible, sizeof(ctx->impossible),
			 "it needs %u CPUs; partition %s has %llu on its "
			 "usable nodes",
			 ctx->need_cpus, pname, (unsigned long long)cpus);
}

/* --- candidates -------------------------------------------------------- */

static uint16_t strip_mode(uint16_t mode)
{
	return mode & (uint16_t) ~(PRIO_PREEMPT_GANG | PRIO_PREEMPT_WITHIN |
				   PRIO_PREEMPT_PRIORITY);
}

/* PreemptExemptTime in force for a job, seconds (0 none). */
static uint32_t exempt_time(const struct prio_snapshot *snap,
			    const struct prio_job *job,
			    const struct prio_partition *jp)
{
	const struct prio_qos *jq =
	    job->qos ? prio_snapshot_qos(snap, job->qos) : NULL;
	const struct prio_qos *pq =
	    jp && jp->qos ? prio_snapshot_qos(snap, jp->qos) : NULL;
	const struct prio_qos *order[2];

	if (jq && (jq->flags & PRIO_QOS_FLAG_OVER_PART_QOS)) {
		order[0] = jq;
		order[1] = pq;
	} else {
		order[0] = pq;
		order[1] = jq;
	}
	for (int i = 0; i < 2; i++)
		if (order[i] && order[i]->preempt_exempt_time != PRIO_INFINITE)
			return order[i]->preempt_exempt_time;
	return snap->conf.preempt_exempt_time;
}

/*
 * PreemptExemptTime of a SUSPEND job under preempt/partition_prio with
 * GANG (cons_tres): the select plugin lays the pending job over every
 * lower-tier job's cores and the gang scheduler suspends what lies under
 * it, without asking whether the job is exempt.  26.05 takes the cores of
 * exempt SUSPEND jobs out first -- only when the cluster's
 * PreemptExemptTime is set (job_test.c rebuilds the exempt cores under
 * that condition alone; a QOS's exempt time without it is ignored as
 * before).  CANCEL/REQUEUE jobs keep the candidate list's exemption.
 */
static bool suspend_exempt_ignored(const struct prio_preempt_ctx *ctx,
				   uint16_t mode)
{
	const struct prio_snapshot *snap = ctx->snap;
	uint32_t cluster = snap->conf.preempt_exempt_time;

	if (snap->conf.preempt_type != PRIO_PREEMPT_TYPE_PARTITION_PRIO ||
	    !ctx->gang || ctx->res->select == PRIO_SELECT_LINEAR ||
	    mode != PRIO_PREEMPT_SUSPEND)
		return false;
	return !(prio_snapshot_slurm(snap)->exempt_time_suspend &&
		 cluster != 0 && cluster != PRIO_INFINITE);
}

/* The plugin's verdict on one job; 0 (PRIO_WHY_NONE) when it may be
 * preempted, with its mode, grace and sort key filled. */
static uint8_t plugin_check(const struct prio_preempt_ctx *ctx,
			    const struct prio_job *job,
			    const struct prio_partition *jp, uint32_t nodes,
			    struct prio_preempt_cand *cd, int64_t *detail)
{
	const struct prio_snapshot *snap = ctx->snap;
	uint16_t cluster = snap->conf.preempt_mode;
	uint64_t size = nodes > 0xffff ? 0xffff : nodes;

	if (snap->conf.preempt_type == PRIO_PREEMPT_TYPE_PARTITION_PRIO) {
		uint16_t own = ctx->partition->preempt_mode;

		/* 25.05: PreemptMode PRIORITY on the preemptor's partition
		 * (set there, not inherited: 25.05.1) or the cluster's; an
		 * equal priority may still preempt. */
		if (((own != PRIO_NO_VAL16 && (own & PRIO_PREEMPT_PRIORITY)) ||
		     (cluster & PRIO_PREEMPT_PRIORITY)) &&
		    ctx->req.priority < job->priority)
			return PRIO_WHY_PRIORITY_MODE;
		if (!jp)
			return PRIO_WHY_NO_PARTITION;
		if (jp->tier >= ctx->partition->tier) {
			*detail = jp->tier;
			return PRIO_WHY_TIER;
		}
		cd->mode = strip_mode(jp->preempt_mode != PRIO_NO_VAL16
					  ? jp->preempt_mode
					  : cluster);
		if (cd->mode == PRIO_PREEMPT_OFF)
			return PRIO_WHY_MODE_OFF;
		cd->grace = jp->grace_time;
		cd->tier = jp->tier;
		cd->key = ((uint64_t)jp->tier << 16) + size;
		return PRIO_WHY_NONE;
	}
	{
		const struct prio_qos *jq =
		    job->qos ? prio_snapshot_qos(snap, job->qos) : NULL;
		const struct prio_qos *pq = ctx->qos;
		uint32_t prio;

		if (!jq || !pq)
			return PRIO_WHY_NO_QOS;
		if (jq == pq) {
			if (!((pq->preempt_mode | cluster) &
			      PRIO_PREEMPT_WITHIN))
				return PRIO_WHY_QOS_SAME;
			if (!(ctx->req.priority > job->priority))
				return PRIO_WHY_QOS_PRIORITY;
		} else {
			bool listed = false;

			for (uint32_t k = 0; k < pq->preempt_count; k++)
				listed = listed || pq->preempt[k] == jq->name;
			if (!listed)
				return PRIO_WHY_QOS_NOT_LISTED;
		}
		/* 25.05: PreemptMode PRIORITY on the preemptor's QOS or the
		 * cluster: only a strictly lower job priority */
		if (((pq->preempt_mode | cluster) & PRIO_PREEMPT_PRIORITY) &&
		    !(ctx->req.priority > job->priority))
			return PRIO_WHY_PRIORITY_MODE;
		cd->mode =
		    strip_mode(jq->preempt_mode ? jq->preempt_mode : cluster);
		if (cd->mode == PRIO_PREEMPT_OFF)
			return PRIO_WHY_MODE_OFF;
		cd->grace = jq->grace_time;
		prio = jq->priority > 0xffff ? 0xffff : jq->priority;
		cd->tier = jq->priority;
		cd->key = ((uint64_t)prio << 16) + size;
		return PRIO_WHY_NONE;
	}
}

/* Nodes a job holds; stamp[] (one per node) remembers the last job that
 * counted a node, so a node listed twice counts once. */
static uint32_t distinct_nodes(const struct prio_resources *res,
			       const struct prio_res_job *rj, uint32_t *stamp,
			       uint32_t mark)
{
	uint32_t count = 0;

	for (uint32_t a = rj->first_alloc;
	     a < rj->first_alloc + rj->alloc_count; a++) {
		uint32_t n = res->allocs[a].node;

		count += stamp[n] != mark;
		stamp[n] = mark;
	}
	return count;
}

static int classify(struct prio_preempt_ctx *ctx, struct prio_error *err)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_resources *res = ctx->res;
	uint8_t *in_part = calloc(res->node_count ? res->node_count : 1, 1);
	uint32_t *stamp =
	    calloc(res->node_count ? res->node_count : 1, sizeof(*stamp));
	struct psim_keyed *order;
	struct prio_preempt_cand *tmp;
	uint32_t n = 0;

	ctx->entries =
	    calloc(res->job_count ? res->job_count : 1, sizeof(*ctx->entries));
	tmp = calloc(res->job_count ? res->job_count : 1, sizeof(*tmp));
	order = calloc(res->job_count ? res->job_count : 1, sizeof(*order));
	ctx->cands =
	    calloc(res->job_count ? res->job_count : 1, sizeof(*ctx->cands));
	if (!in_part || !stamp || !ctx->entries || !tmp || !order ||
	    !ctx->cands) {
		free(in_part);
		free(stamp);
		free(tmp);
		free(order);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t i = 0; i < ctx->partition->node_count; i++)
		in_part[ctx->partition->nodes[i]] = 1;
	ctx->entry_count = res->job_count;
	for (uint32_t r = 0; r < res->job_count; r++) {
		const struct prio_res_job *rj = &res->jobs[r];
		const struct prio_job *job = &snap->jobs[rj->job];
		const struct prio_partition *jp =
		    rj->partition != UINT32_MAX
			? &snap->partitions[rj->partition]
			: NULL;
		struct prio_preempt_entry *e = &ctx->entries[r];
		struct prio_preempt_cand cd = {.entry = r, .res_job = r};
		bool overlap = false;
		uint32_t x;
		uint8_t why;

		e->job = rj->job;
		e->res_job = r;
		for (uint32_t a = rj->first_alloc;
		     a < rj->first_alloc + rj->alloc_count && !overlap; a++)
			overlap = in_part[res->allocs[a].node];
		if (rj->completing)
			why = PRIO_WHY_COMPLETING;
		else if (!ctx->preempt_enabled)
			why = PRIO_WHY_DISABLED;
		else if (!overlap)
			why = PRIO_WHY_NO_OVERLAP;
		else
			why = plugin_check(
			    ctx, job, jp, distinct_nodes(res, rj, stamp, r + 1),
			    &cd, &e->detail);
		/* interfaces/preempt.c: above min_exempt_priority never */
		if (why == PRIO_WHY_NONE &&
		    ctx->min_exempt_priority != PRIO_NO_VAL &&
		    job->priority > ctx->min_exempt_priority) {
			why = PRIO_WHY_MIN_EXEMPT;
			e->detail = ctx->min_exempt_priority;
		}
		if (why == PRIO_WHY_NONE && (x = exempt_time(snap, job, jp)) &&
		    job->start_time &&
		    snap->now < job->start_time + (time_t)x) {
			e->detail =
			    (int64_t)(job->start_time + (time_t)x - snap->now);
			if (suspend_exempt_ignored(ctx, cd.mode))
				e->exempt_ignored = true;
			else
				why = PRIO_WHY_EXEMPT;
		}
		e->why = why;
		if (why != PRIO_WHY_NONE)
			continue;
		e->candidate = true;
		e->mode = cd.mode;
		e->grace = cd.grace;
		cd.start_time = job->start_time;
		cd.usable =
		    (cd.mode & (PRIO_PREEMPT_REQUEUE | PRIO_PREEMPT_CANCEL)) ||
		    (cd.mode == PRIO_PREEMPT_SUSPEND && ctx->gang);
		tmp[n] = cd;
		/* youngest first: the latest start first */
		order[n] = (struct psim_keyed){
		    ctx->youngest_first
			? (uint64_t)INT64_MAX - (uint64_t)job->start_time
			: cd.key,
		    n};
		n++;
	}
	qsort(order, n, sizeof(*order), psim_cmp_keyed);
	for (uint32_t i = 0; i < n; i++)
		ctx->cands[i] = tmp[order[i].idx];
	ctx->cand_count = n;
	free(in_part);
	free(stamp);
	free(tmp);
	free(order);
	return 0;
}

int prio_preempt_ctx_init(struct prio_preempt_ctx *ctx,
			  const struct prio_snapshot *snap,
			  const struct prio_resources *res,
			  const struct prio_preempt_request *req,
			  struct prio_error *err)
{
	const struct prio_config *conf = &snap->conf;
	int rc;

	memset(ctx, 0, sizeof(*ctx));
	ctx->snap = snap;
	ctx->res = res;
	ctx->req = *req;
	rc = resolve_request(ctx, err);
	if (rc < 0)
		return rc;
	ctx->preempt_enabled = conf->preempt_type != PRIO_PREEMPT_TYPE_NONE &&
			       strip_mode(conf->preempt_mode) != 0;
	ctx->gang = (conf->preempt_mode & PRIO_PREEMPT_GANG) != 0;
	/* PreemptParameters and SchedulerParameters=preempt_*, merged by
	 * prio_config_link() */
	ctx->youngest_first = conf->preempt.youngest_first;
	ctx->strict_order = conf->preempt.strict_order;
	ctx->reorder_count = conf->preempt.reorder_count;
	ctx->min_exempt_priority = conf->preempt.min_exempt_priority;
	ctx->requeue_delay = requeue_delay(conf);
	check_possible(ctx);
	rc = classify(ctx, err);
	if (rc < 0)
		prio_preempt_ctx_free(ctx);
	return rc;
}

void prio_preempt_ctx_free(struct prio_preempt_ctx *ctx)
{
	free(ctx->entries);
	free(ctx->cands);
	ctx->entries = NULL;
	ctx->cands = NULL;
}

/* --- plans ------------------------------------------------------------- */

int pplan_init(const struct prio_preempt_ctx *ctx,
	       struct prio_preempt_plan *plan,
	       enum prio_preempt_strategy strategy, struct prio_error *err)
{
	uint32_t pn = ctx->partition->node_count;

	memset(plan, 0, sizeof(*plan));
	plan->strategy = strategy;
	plan->entry_count = ctx->entry_count;
	plan->entries = malloc((ctx->entry_count ? ctx->entry_count : 1) *
			       sizeof(*plan->entries));
	plan->victims = malloc((ctx->entry_count ? ctx->entry_count : 1) *
			       sizeof(*plan->victims));
	plan->nodes = malloc((pn ? pn : 1) * sizeof(*plan->nodes));
	plan->node_cpus = malloc((pn ? pn : 1) * sizeof(*plan->node_cpus));
	if (!plan->entries || !plan->victims || !plan->nodes ||
	    !plan->node_cpus) {
		prio_preempt_plan_free(plan);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	memcpy(plan->entries, ctx->entries,
	       ctx->entry_count * sizeof(*plan->entries));
	for (uint32_t c = 0; c < ctx->cand_count; c++)
		plan->entries[ctx->cands[c].entry].rank = c + 1;
	return 0;
}

int pplan_end(const struct prio_preempt_ctx *ctx,
	      struct prio_preempt_plan *plan, int rc, struct prio_error *err)
{
	if (rc < 0) {
		prio_preempt_plan_free(plan);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	if (rc == 0) {
		pplan_cannot(ctx, plan);
		return 0;
	}
	rc = pplan_finish(ctx, plan, err);
	if (rc < 0)
		prio_preempt_plan_free(plan);
	return rc;
}

int pplan_begin(const struct prio_preempt_ctx *ctx,
		struct prio_preempt_plan *plan,
		enum prio_preempt_strategy strategy, struct psim *s,
		struct prio_error *err)
{
	int rc = pplan_init(ctx, plan, strategy, err);

	if (rc < 0)
		return rc;
	if (ctx->impossible[0]) {
		pplan_cannot(ctx, plan);
		return 0;
	}
	rc = psim_init(s, ctx, err);
	if (rc < 0) {
		prio_preempt_plan_free(plan);
		return rc;
	}
	return 1;
}

void prio_preempt_plan_free(struct prio_preempt_plan *plan)
{
	free(plan->entries);
	free(plan->victims);
	free(plan->nodes);
	free(plan->node_cpus);
	memset(plan, 0, sizeof(*plan));
}

void pplan_add_victim(const struct prio_preempt_ctx *ctx,
		      struct prio_preempt_plan *plan, uint32_t c, uint8_t why)
{
	const struct prio_preempt_cand *cd = &ctx->cands[c];
	struct prio_preempt_entry *e = &plan->entries[cd->entry];
	const struct prio_job *job = &ctx->snap->jobs[e->job];

	if (e->action != PRIO_ACTION_NONE)
		return;
	if (cd->mode == PRIO_PREEMPT_SUSPEND) {
		e->action = PRIO_ACTION_SUSPEND;
	} else if (cd->mode == PRIO_PREEMPT_REQUEUE && job->requeue) {
		e->action = PRIO_ACTION_REQUEUE;
	} else {
		e->action = PRIO_ACTION_CANCEL;
		e->requeue_fallback = cd->mode == PRIO_PREEMPT_REQUEUE;
	}
	e->why = why;
	plan->victims[plan->victim_count++] = cd->entry;
}

bool pplan_place(struct psim *s, struct prio_preempt_plan *plan)
{
	plan->node_count = psim_select(s, plan->nodes, plan->node_cpus);
	plan->can_start = plan->node_count > 0;
	return plan->can_start;
}

void pplan_cannot(const struct prio_preempt_ctx *ctx,
		  struct prio_preempt_plan *plan)
{
	plan->can_start = false;
	plan->node_count = 0;
	plan->victim_count = 0;
	for (uint32_t i = 0; i < plan->entry_count; i++) {
		struct prio_preempt_entry *e = &plan->entries[i];

		e->action = PRIO_ACTION_NONE;
		e->requeue_fallback = false;
		if (e->candidate)
			e->why = PRIO_WHY_NOT_ENOUGH;
	}
	if (ctx->impossible[0])
		snprintf(plan->why_not, sizeof(plan->why_not), "%s",
			 ctx->impossible);
	else if (!ctx->preempt_enabled)
		snprintf(plan->why_not, sizeof(plan->why_not),
			 "not enough free resources in partition %s, and "
			 "preemption is off (PreemptType=%s)",
			 prio_snapshot_str(ctx->snap, ctx->partition->name),
			 ctx->snap->conf.preempt_type_text
			     ? ctx->snap->conf.preempt_type_text
			     : "preempt/none");
	else if (!ctx->cand_count)
		snprintf(plan->why_not, sizeof(plan->why_not),
			 "not enough free resources in partition %s, and no "
			 "running job there may be preempted by it",
			 prio_snapshot_str(ctx->snap, ctx->partition->name));
	else
		snprintf(plan->why_not, sizeof(plan->why_not),
			 "not enough resources in partition %s even with all "
			 "%u preemptable jobs preempted (it needs %u node%s, "
			 "%u CPUs)",
			 prio_snapshot_str(ctx->snap, ctx->partition->name),
			 ctx->cand_count, ctx->need_nodes,
			 ctx->need_nodes == 1 ? "" : "s", ctx->need_cpus);
}

/* Jobs of its own partition it shares CPUs with (gang time-slicing), once
 * the victims are gone. */
static int mark_timeslice(const struct prio_preempt_ctx *ctx,
			  struct prio_preempt_plan *plan,
			  struct prio_error *err)
{
	const struct prio_resources *res = ctx->res;
	struct psim s;
	int rc = psim_init(&s, ctx, err);

	if (rc < 0)
		return rc;
	for (uint32_t v = 0; v < plan->victim_count; v++) {
		const struct prio_preempt_entry *e =
		    &plan->entries[plan->victims[v]];

		psim_set(&s, e->res_job,
			 e->action == PRIO_ACTION_SUSPEND ? PSIM_MEM
							  : PSIM_GONE);
	}
	for (uint32_t i = 0; i < plan->node_count; i++) {
		uint32_t node = plan->nodes[i];

		if (plan->node_cpus[i] <= psim_free_cpus(&s, node))
			continue;
		for (uint32_t k = res->node_first[node];
		     k < res->node_first[node + 1]; k++) {
			uint32_t rj = res->allocs[res->node_allocs[k]].job;

			if (s.level[rj] != PSIM_HELD ||
			    res->jobs[rj].partition != ctx->partition_index)
				continue;
			if (plan->entries[rj].action == PRIO_ACTION_NONE)
				plan->entries[rj].why = PRIO_WHY_TIMESLICE;
		}
	}
	psim_free(&s);
	return 0;
}

int pplan_finish(const struct prio_preempt_ctx *ctx,
		 struct prio_preempt_plan *plan, struct prio_error *err)
{
	const struct prio_snapshot *snap = ctx->snap;
	time_t now = snap->now;
	uint32_t grace = 0;
	int rc;

	memset(plan->action_count, 0, sizeof(plan->action_count));
	plan->lost_cpu_seconds = 0;
	if (!plan->can_start) {
		plan->start_time = plan->end_time = 0;
		return 0;
	}
	rc = mark_timeslice(ctx, plan, err);
	if (rc < 0)
		return rc;
	for (uint32_t v = 0; v < plan->victim_count; v++) {
		const struct prio_preempt_entry *e =
		    &plan->entries[plan->victims[v]];

		if (e->action != PRIO_ACTION_SUSPEND && e->grace > grace)
			grace = e->grace;
	}
	plan->start_time = now + grace;
	plan->end_time =
	    ctx->req.time_limit == PRIO_INFINITE
		? 0
		: plan->start_time + (time_t)ctx->req.time_limit * 60;
	for (uint32_t v = 0; v < plan->victim_count; v++) {
		struct prio_preempt_entry *e = &plan->entries[plan->victims[v]];
		const struct prio_job *job = &snap->jobs[e->job];

		plan->action_count[e->action]++;
		if (e->action == PRIO_ACTION_SUSPEND) {
			e->stop_time = plan->start_time;
			e->resume_time = plan->end_time;
			continue;
		}
		if (e->grace) {
			e->signal_time = now;
			e->grace_exit_preempted =
			    prio_snapshot_slurm(snap)->grace_counts_preempted;
		}
		e->stop_time = now + e->grace;
		if (e->action == PRIO_ACTION_REQUEUE)
			e->resume_time = e->stop_time + ctx->requeue_delay;
		if (job->start_time && now > job->start_time)
			e->lost_cpu_seconds =
			    (uint64_t)(now - job->start_time) *
			    ctx->res->jobs[e->res_job].cpus;
		plan->lost_cpu_seconds += e->lost_cpu_seconds;
	}
	return 0;
}

/* --- Slurm's plan ------------------------------------------------------ */

/* Candidates whose CPUs the job takes, in candidate order: on each chosen
 * node, enough of them (all, for whole nodes) to cover what it needs
 * beyond the CPUs nobody holds.  `s` is at the base level. */
static int displace(const struct prio_preempt_ctx *ctx, struct psim *s,
		    struct prio_preempt_plan *plan, const bool *usable,
		    uint8_t why)
{
	const struct prio_resources *res = ctx->res;
	bool *chosen = calloc(ctx->cand_count ? ctx->cand_count : 1, 1);
	uint32_t most = 1;
	struct psim_keyed *on; /* candidate, its CPUs there */

	for (uint32_t i = 0; i < plan->node_count; i++) {
		uint32_t node = plan->nodes[i];
		uint32_t k = res->node_first[node + 1] - res->node_first[node];

		if (k > most)
			most = k;
	}
	on = malloc(most * sizeof(*on));
	if (!chosen || !on) {
		free(chosen);
		free(on);
		return -1;
	}
	for (uint32_t i = 0; i < plan->node_count; i++) {
		uint32_t node = plan->nodes[i], m = 0;
		int64_t need =
		    (int64_t)plan->node_cpus[i] - psim_free_cpus(s, node);

		for (uint32_t k = res->node_first[node];
		     k < res->node_first[node + 1]; k++) {
			const struct prio_res_alloc *al =
			    &res->allocs[res->node_allocs[k]];
			uint32_t c = s->cand_of[al->job];

			if (c != UINT32_MAX && usable[c])
				on[m++] = (struct psim_keyed){c, al->cpus};
		}
		qsort(on, m, sizeof(*on), psim_cmp_keyed);
		for (uint32_t k = 0; k < m; k++)
			if (chosen[on[k].key])
				need -= on[k].idx;
		for (uint32_t k = 0; k < m && (need > 0 || ctx->whole_nodes);
		     k++) {
			if (chosen[on[k].key])
				continue;
			chosen[on[k].key] = true;
			need -= on[k].idx;
		}
	}
	for (uint32_t c = 0; c < ctx->cand_count; c++)
		if (chosen[c])
			pplan_add_victim(ctx, plan, c, why);
	free(chosen);
	free(on);
	return 0;
}

/* Step 2: the job overlaps preemptable jobs and the gang scheduler sorts
 * them out.  partition_prio: every usable lower-tier candidate's CPUs are
 * open to it; qos: one more row of its own partition. */
static int gang_path(const struct prio_preempt_ctx *ctx, struct psim *s,
		     struct prio_preempt_plan *plan, bool qos_row)
{
	bool *usable = calloc(ctx->cand_count ? ctx->cand_count : 1, 1);
	uint8_t why = qos_row ? PRIO_WHY_QOS_ROW : PRIO_WHY_SHADOW;

	if (!usable)
		return -1;
	psim_reset(s, qos_row ? ctx->rows + 1 : ctx->rows);
	for (uint32_t c = 0; c < ctx->cand_count; c++) {
		const struct prio_preempt_cand *cd = &ctx->cands[c];

		if (!cd->usable ||
		    (qos_row && cd->mode != PRIO_PREEMPT_SUSPEND))
			continue;
		usable[c] = true;
		if (!qos_row)
			psim_set(s, cd->res_job,
				 cd->mode == PRIO_PREEMPT_SUSPEND ? PSIM_MEM
								  : PSIM_GONE);
	}
	if (!pplan_place(s, plan)) {
		free(usable);
		return 0;
	}
	psim_reset(s, ctx->rows);
	if (displace(ctx, s, plan, usable, why) < 0) {
		free(usable);
		return -1;
	}
	free(usable);
	return 1;
}

struct reorder_item {
	uint32_t key, pos, cand;
};

static int cmp_reorder(const void *a, const void *b)
{
	const struct reorder_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* How many of the chosen nodes a job holds. */
static uint32_t overlap_count(const struct psim *s, uint32_t rj,
			      const uint32_t *nodes, uint32_t count)
{
	const struct prio_res_job *job = &s->res->jobs[rj];
	uint32_t n = 0;

	for (uint32_t a = job->first_alloc;
	     a < job->first_alloc + job->alloc_count; a++)
		n += bsearch(&s->res->allocs[a].node, nodes, count,
			     sizeof(*nodes), psim_cmp_u32) != NULL;
	return n;
}

/* Step 3: the walk with its reorder passes. */
static int walk(const struct prio_preempt_ctx *ctx, struct psim *s,
		struct prio_preempt_plan *plan)
{
	bool linear = ctx->res->select == PRIO_SELECT_LINEAR;
	uint32_t n = ctx->cand_count, fit = UINT32_MAX;
	uint32_t *order = malloc((n ? n : 1) * sizeof(*order));
	struct reorder_item *items = malloc((n ? n : 1) * sizeof(*items));

	if (!order || !items) {
		free(order);
		free(items);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	plan->reorders = 0;
	for (;;) {
		psim_reset(s, ctx->rows);
		fit = UINT32_MAX;
		for (uint32_t i = 0; i < n; i++) {
			const struct prio_preempt_cand *cd =
			    &ctx->cands[order[i]];

			if (!cd->usable ||
			    (!linear && cd->mode == PRIO_PREEMPT_SUSPEND))
				continue;
			psim_set(s, cd->res_job,
				 cd->mode == PRIO_PREEMPT_SUSPEND ? PSIM_MEM
								  : PSIM_GONE);
			if (psim_fits(s)) {
				fit = i;
				break;
			}
		}
		if (fit == UINT32_MAX || !pplan_place(s, plan))
			break;
		if (plan->reorders >= ctx->reorder_count || n <= 1)
			break;
		plan->reorders++;
		if (ctx->strict_order) {
			uint32_t moved = order[fit];

			memmove(order + 1, order, fit * sizeof(*order));
			order[0] = moved;
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			items[i] = (struct reorder_item){
			    i == fit ? 99999u
			    : i < fit
				? overlap_count(s, ctx->cands[order[i]].res_job,
						plan->nodes, plan->node_count)
				: 0,
			    i, order[i]};
		qsort(items, n, sizeof(*items), cmp_reorder);
		for (uint32_t i = 0; i < n; i++)
			order[i] = items[i].cand;
	}
	if (fit != UINT32_MAX && plan->can_start) {
		for (uint32_t i = 0; i <= fit; i++) {
			const struct prio_preempt_cand *cd =
			    &ctx->cands[order[i]];

			if (!cd->usable ||
			    (!linear && cd->mode == PRIO_PREEMPT_SUSPEND))
				continue;
			if (psim_job_on_nodes(s, cd->res_job, plan->nodes,
					      plan->node_count))
				pplan_add_victim(ctx, plan, order[i],
						 i == fit ? PRIO_WHY_FIT
							  : PRIO_WHY_REMOVED);
			else
				plan->entries[cd->entry].why =
				    PRIO_WHY_OFF_NODES;
		}
		for (uint32_t i = fit + 1; i < n; i++)
			plan->entries[ctx->cands[order[i]].entry].why =
			    PRIO_WHY_NOT_NEEDED;
	}
	/* Ranks as Slurm left the list. */
	for (uint32_t i = 0; i < n; i++)
		plan->entries[ctx->cands[order[i]].entry].rank = i + 1;
	free(order);
	free(items);
	return fit != UINT32_MAX && plan->can_start;
}

void pplan_explain(const struct prio_preempt_ctx *ctx,
		   struct prio_preempt_plan *plan, bool fit_free,
		   uint8_t otherwise)
{
	bool linear = ctx->res->select == PRIO_SELECT_LINEAR;

	for (uint32_t c = 0; c < ctx->cand_count; c++) {
		const struct prio_preempt_cand *cd = &ctx->cands[c];
		struct prio_preempt_entry *e = &plan->entries[cd->entry];

		if (e->action != PRIO_ACTION_NONE || e->why != PRIO_WHY_NONE)
			continue;
		if (fit_free)
			e->why = PRIO_WHY_FREE;
		else if (cd->mode == PRIO_PREEMPT_SUSPEND && !ctx->gang)
			e->why = PRIO_WHY_NO_GANG;
		else if (ctx->res->jobs[cd->res_job].suspended)
			e->why = PRIO_WHY_ALREADY_SUSPENDED;
		else if (!linear && cd->mode == PRIO_PREEMPT_SUSPEND &&
			 plan->strategy == PRIO_STRATEGY_SLURM)
			e->why = PRIO_WHY_SKIPPED_SUSPEND;
		else
			e->why = otherwise;
	}
}

int prio_preempt_plan_slurm(const struct prio_preempt_ctx *ctx,
			    struct prio_preempt_plan *plan,
			    struct prio_error *err)
{
	const struct prio_config *conf = &ctx->snap->conf;
	bool linear = ctx->res->select == PRIO_SELECT_LINEAR;
	struct psim s;
	int rc = pplan_begin(ctx, plan, PRIO_STRATEGY_SLURM, &s, err);
	bool fit_free = false;

	if (rc <= 0)
		return rc;
	if (pplan_place(&s, plan)) {
		fit_free = true;
		rc = 1;
	} else if (!ctx->preempt_enabled || !ctx->cand_count) {
		rc = 0;
	} else if (!linear && ctx->gang &&
		   conf->preempt_type == PRIO_PREEMPT_TYPE_PARTITION_PRIO) {
		rc = gang_path(ctx, &s, plan, false);
	} else {
		rc = 0;
		if (!linear && ctx->gang &&
		    conf->preempt_type == PRIO_PREEMPT_TYPE_QOS &&
		    ctx->cands[0].mode == PRIO_PREEMPT_SUSPEND)
			rc = gang_path(ctx, &s, plan, true);
		if (rc == 0)
			rc = walk(ctx, &s, plan);
	}
	psim_free(&s);
	if (rc > 0)
		pplan_explain(ctx, plan, fit_free, PRIO_WHY_NOT_NEEDED);
	return pplan_end(ctx, plan, rc, err);
}
