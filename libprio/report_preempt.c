/* SPDX-License-Identifier: MIT */
/*
 * Tables of a preemption plan (report_preempt.h): reasons in words, the
 * machine rows of preempt-plan -P/--csv/--json, and the queue afterwards
 * in squeue's layout.
 *
 * The queue follows what the oracle's squeue printed after each
 * preemption: suspended victims "S" with their nodes, requeued ones "PD"
 * with reason BeginTime, TIME 0:00 and their requested node count (they
 * are pending again), killed ones "PR" (PREEMPTED), the preemptor "R" on
 * its nodes.  squeue's default order is partition, state, priority
 * (descending); its ties are qsort's, ours go by job id.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preempt_sim.h"
#include "prio/conf.h"
#include "prio/hostlist.h"
#include "prio/report_preempt.h"
#include "prio/snapshot.h"

const char *prio_preempt_mode_name(uint16_t mode)
{
	switch (mode) {
	case PRIO_PREEMPT_SUSPEND:
		return "SUSPEND";
	case PRIO_PREEMPT_REQUEUE:
		return "REQUEUE";
	case PRIO_PREEMPT_CANCEL:
		return "CANCEL";
	default:
		return "";
	}
}

/* Why the plugin lets the preemptor preempt this job. */
static int allowed_text(const struct prio_preempt_ctx *ctx,
			const struct prio_job *job,
			const struct prio_partition *jp, char *buf, size_t size)
{
	const struct prio_snapshot *snap = ctx->snap;
	const char *pn = prio_snapshot_str(snap, ctx->partition->name);

	if (snap->conf.preempt_type == PRIO_PREEMPT_TYPE_PARTITION_PRIO)
		return snprintf(buf, size,
				"partition %s (PriorityTier %u) is below %s "
				"(%u)",
				jp ? prio_snapshot_str(snap, jp->name) : "?",
				jp ? jp->tier : 0, pn, ctx->partition->tier);
	if (job->qos == ctx->req.qos)
		return snprintf(buf, size,
				"same QOS %s with WITHIN, and its priority %u "
				"is below %u",
				prio_snapshot_str(snap, job->qos),
				job->priority, ctx->req.priority);
	return snprintf(buf, size, "QOS %s may preempt QOS %s",
			prio_snapshot_str(snap, ctx->req.qos),
			prio_snapshot_str(snap, job->qos));
}

const char *prio_preempt_why_text(const struct prio_preempt_ctx *ctx,
				  const struct prio_preempt_plan *plan,
				  const struct prio_preempt_entry *e, char *buf,
				  size_t size)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_res_job *rj = &ctx->res->jobs[e->res_job];
	const struct prio_job *job = &snap->jobs[e->job];
	const struct prio_partition *jp = rj->partition != UINT32_MAX
					      ? &snap->partitions[rj->partition]
					      : NULL;
	const char *pn = prio_snapshot_str(snap, ctx->partition->name);
	const char *jpn = jp ? prio_snapshot_str(snap, jp->name) : "?";
	const char *qn = prio_snapshot_str(snap, ctx->req.qos);
	const char *jqn = prio_snapshot_str(snap, job->qos);
	char allowed[256];
	int n = 0;

	if (e->candidate)
		allowed_text(ctx, job, jp, allowed, sizeof(allowed));
	else
		allowed[0] = '\0';
	switch ((enum prio_preempt_why)e->why) {
	case PRIO_WHY_FIT:
		n = snprintf(buf, size,
			     "%s; preempting it made the job fit "
			     "(candidate %u of %u)",
			     allowed, e->rank, ctx->cand_count);
		break;
	case PRIO_WHY_REMOVED:
		n = snprintf(buf, size,
			     "%s; preempted on the way to the fit "
			     "(candidate %u of %u) and on the job's nodes",
			     allowed, e->rank, ctx->cand_count);
		break;
	case PRIO_WHY_SHADOW:
		n = snprintf(buf, size,
			     "%s; the job takes its CPUs and the "
			     "gang scheduler preempts it",
			     allowed);
		break;
	case PRIO_WHY_QOS_ROW:
		n = snprintf(buf, size,
			     "%s; the job overlaps it through the "
			     "extra QOS row and the gang scheduler suspends "
			     "it",
			     allowed);
		break;
	case PRIO_WHY_MINIMAL:
		n = snprintf(buf, size,
			     "%s; one of the fewest jobs whose "
			     "preemption lets the job start",
			     allowed);
		break;
	case PRIO_WHY_FREE:
		n = snprintf(buf, size,
			     "%s, but the job fits without "
			     "preempting anything",
			     allowed);
		break;
	case PRIO_WHY_NOT_NEEDED:
		n = snprintf(buf, size,
			     "%s, but the job fit before Slurm "
			     "reached it (candidate %u of %u)",
			     allowed, e->rank, ctx->cand_count);
		break;
	case PRIO_WHY_OFF_NODES:
		n = snprintf(buf, size,
			     "%s; removed in Slurm's simulation "
			     "(candidate %u of %u), but the job's nodes are "
			     "elsewhere",
			     allowed, e->rank, ctx->cand_count);
		break;
	case PRIO_WHY_SPARED:
		n = snprintf(buf, size, "%s, but not needed", allowed);
		break;
	case PRIO_WHY_NOT_ENOUGH:
		n = snprintf(buf, size,
			     "%s, but the job cannot start even "
			     "with it preempted",
			     allowed);
		break;
	case PRIO_WHY_SKIPPED_SUSPEND:
		n = snprintf(buf, size,
			     "%s, but its PreemptMode is SUSPEND, "
			     "which the select plugin's simulation skips",
			     allowed);
		break;
	case PRIO_WHY_NO_GANG:
		n = snprintf(buf, size,
			     "%s, but its PreemptMode SUSPEND needs "
			     "the cluster's PreemptMode to include GANG",
			     allowed);
		break;
	case PRIO_WHY_TIMESLICE:
		n = snprintf(buf, size,
			     "shares CPUs with the job by gang "
			     "time-slicing (OverSubscribe=%s, %u s slices)",
			     ctx->partition->oversubscribe_text
				 ? ctx->partition->oversubscribe_text
				 : "FORCE",
			     snap->conf.sched_time_slice);
		break;
	case PRIO_WHY_ALREADY_SUSPENDED:
		n = snprintf(buf, size,
			     "%s; already suspended, its CPUs are "
			     "free for the job",
			     allowed);
		break;
	case PRIO_WHY_DISABLED:
		n = snprintf(buf, size,
			     "preemption is off (PreemptType=%s, "
			     "PreemptMode=%s)",
			     snap->conf.preempt_type_text
				 ? snap->conf.preempt_type_text
				 : "preempt/none",
			     snap->conf.preempt_mode ? "set" : "OFF");
		break;
	case PRIO_WHY_NO_OVERLAP:
		n = snprintf(buf, size, "runs on no node of partition %s", pn);
		break;
	case PRIO_WHY_NO_PARTITION:
		n = snprintf(buf, size, "its partition is not in the snapshot");
		break;
	case PRIO_WHY_TIER:
		n = snprintf(
		    buf, size,
		    "%s tier: partition %s has "
		    "PriorityTier %u, not below %s's %u",
		    e->detail == ctx->partition->tier ? "same" : "higher", jpn,
		    (unsigned)e->detail, pn, ctx->partition->tier);
		break;
	case PRIO_WHY_MODE_OFF:
		n = snprintf(
		    buf, size, "%s %s has PreemptMode=OFF",
		    snap->conf.preempt_type == PRIO_PREEMPT_TYPE_PARTITION_PRIO
			? "partition"
			: "QOS",
		    snap->conf.preempt_type == PRIO_PREEMPT_TYPE_PARTITION_PRIO
			? jpn
			: jqn);
		break;
	case PRIO_WHY_NO_QOS:
		n = snprintf(buf, size, "preempt/qos needs a QOS on both jobs");
		break;
	case PRIO_WHY_QOS_NOT_LISTED:
		n = snprintf(buf, size,
			     "QOS %s is not in QOS %s's Preempt "
			     "list",
			     jqn, qn);
		break;
	case PRIO_WHY_QOS_SAME:
		n = snprintf(buf, size,
			     "same QOS %s, and PreemptMode WITHIN "
			     "is not set",
			     qn);
		break;
	case PRIO_WHY_QOS_PRIORITY:
		n = snprintf(buf, size,
			     "same QOS %s (WITHIN), but its "
			     "priority %u is not below %u",
			     qn, job->priority, ctx->req.priority);
		break;
	case PRIO_WHY_EXEMPT:
		if (e->detail < 60)
			n = snprintf(buf, size,
				     "exempt for %lld more seconds "
				     "(PreemptExemptTime)",
				     (long long)e->detail);
		else
			n = snprintf(buf, size,
				     "exempt for %lld more minutes "
				     "(PreemptExemptTime)",
				     (long long)(e->detail + 59) / 60);
		break;
	case PRIO_WHY_COMPLETING:
		n = snprintf(buf, size, "completing: it cannot be preempted");
		break;
	case PRIO_WHY_PRIORITY_MODE:
		n = snprintf(buf, size,
			     "PreemptMode PRIORITY: its priority %u is above "
			     "the job's %u",
			     job->priority, ctx->req.priority);
		break;
	case PRIO_WHY_MIN_EXEMPT:
		n = snprintf(buf, size,
			     "its priority %u is above PreemptParameters "
			     "min_exempt_priority=%lld",
			     job->priority, (long long)e->detail);
		break;
	default:
		n = snprintf(buf, size, "%s", allowed);
		break;
	}
	(void)plan;
	if (e->requeue_fallback && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n,
			      "; it cannot be requeued (Requeue=0), so "
			      "REQUEUE cancels it");
	if (e->exempt_ignored && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n,
			 "; its PreemptExemptTime (%lld s left) does not "
			 "protect a SUSPEND job from the gang scheduler %s",
			 (long long)e->detail,
			 prio_snapshot_slurm(snap)->exempt_time_suspend
			     ? "without a cluster-wide PreemptExemptTime"
			     : "before Slurm 26.05");
	return buf;
}

const struct prio_column prio_preempt_columns[PRIO_PCOL_COUNT] = {
    [PRIO_PCOL_JOBID] = {"jobid", "JOBID", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_ACTION] = {"action", "ACTION", 0, false, PRIO_NUMFMT_PLAIN,
			  NULL},
    [PRIO_PCOL_MODE] = {"mode", "MODE", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_GRACE] = {"grace", "GRACE", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_NODES] = {"nodes", "NODES", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_REASON] = {"reason", "REASON", 0, false, PRIO_NUMFMT_PLAIN,
			  NULL},
    [PRIO_PCOL_PARTITION] = {"partition", "PARTITION", 0, false,
			     PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_USER] = {"user", "USER", 0, false, PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_MIN_ACTION] = {"minimal_action", "MINIMAL_ACTION", 0, false,
			      PRIO_NUMFMT_PLAIN, NULL},
    [PRIO_PCOL_MIN_REASON] = {"minimal_reason", "MINIMAL_REASON", 0, false,
			      PRIO_NUMFMT_PLAIN, NULL},
};

void prio_preempt_row(const struct prio_preempt_ctx *ctx,
		      const struct prio_preempt_plan *plan,
		      const struct prio_preempt_plan *other, uint32_t i,
		      struct prio_cell *cells,
		      struct prio_preempt_row_text *text)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_preempt_entry *e = &plan->entries[i];
	const struct prio_job *job = &snap->jobs[e->job];

	cells[PRIO_PCOL_JOBID] = prio_cell_uint(job->job_id);
	cells[PRIO_PCOL_ACTION] =
	    prio_cell_str(prio_preempt_action_name(e->action));
	cells[PRIO_PCOL_MODE] =
	    e->candidate ? prio_cell_str(prio_preempt_mode_name(e->mode))
			 : prio_cell_blank();
	cells[PRIO_PCOL_GRACE] =
	    e->candidate ? prio_cell_uint(e->grace) : prio_cell_blank();
	cells[PRIO_PCOL_NODES] =
	    prio_cell_str(prio_snapshot_str(snap, job->node_list));
	cells[PRIO_PCOL_REASON] = prio_cell_str(prio_preempt_why_text(
	    ctx, plan, e, text->reason, sizeof(text->reason)));
	cells[PRIO_PCOL_PARTITION] = prio_cell_str(
	    job->partition_count ? prio_snapshot_str(snap, job->partitions[0])
				 : "");
	cells[PRIO_PCOL_USER] =
	    prio_cell_str(prio_snapshot_str(snap, job->user));
	if (!other)
		return;
	cells[PRIO_PCOL_MIN_ACTION] =
	    prio_cell_str(prio_preempt_action_name(other->entries[i].action));
	cells[PRIO_PCOL_MIN_REASON] = prio_cell_str(
	    prio_preempt_why_text(ctx, other, &other->entries[i],
				  text->min_reason, sizeof(text->min_reason)));
}

/* --- the queue afterwards ---------------------------------------------- */

static int cmp_queue(const void *a, const void *b)
{
	const struct prio_preempt_queue_row *x = a, *y = b;
	int c = strcmp(x->partition, y->partition);

	if (c)
		return c;
	if (x->state != y->state)
		return x->state < y->state ? -1 : 1;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

static int64_t since(time_t t, time_t from)
{
	return from && t > from ? (int64_t)(t - from) : 0;
}

int prio_preempt_queue_build(const struct prio_preempt_ctx *ctx,
			     const struct prio_preempt_plan *plan,
			     struct prio_preempt_queue *q,
			     struct prio_error *err)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_resources *res = ctx->res;
	time_t at = plan->can_start ? plan->start_time : snap->now;
	uint32_t n = 0;

	memset(q, 0, sizeof(*q));
	q->rows = calloc(snap->job_count + 1, sizeof(*q->rows));
	if (!q->rows)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		struct prio_preempt_queue_row *r = &q->rows[n];
		uint32_t rj = res->by_snap_job[j];
		const struct prio_preempt_entry *e =
		    rj != UINT32_MAX ? &plan->entries[rj] : NULL;

		if (j == ctx->req.job_index)
			continue;
		r->job = j;
		r->job_id = job->job_id;
		r->priority = job->priority;
		r->partition = job->partition_count
				   ? prio_snapshot_str(snap, job->partitions[0])
				   : "";
		r->state = job->state;
		r->nodes = job->min_nodes;
		r->cpus = job->num_cpus;
		r->nodelist = prio_snapshot_str(snap, job->node_list);
		r->reason = prio_snapshot_str(snap, job->reason);
		if (prio_job_state_pending(job->state)) {
			r->nodelist = "";
		} else if (job->state == PRIO_JOB_RUNNING ||
			   job->state == PRIO_JOB_CONFIGURING) {
			r->run_secs = since(at, job->start_time);
		} else if (job->state == PRIO_JOB_SUSPENDED) {
			r->run_secs =
			    since(job->suspend_time ? job->suspend_time : at,
				  job->start_time);
		} else {
			r->run_secs = since(job->end_time, job->start_time);
		}
		if (e && e->action == PRIO_ACTION_SUSPEND) {
			r->state = PRIO_JOB_SUSPENDED;
			r->run_secs = since(at, job->start_time);
		} else if (e && e->action == PRIO_ACTION_REQUEUE) {
			r->state = PRIO_JOB_PENDING;
			r->run_secs = 0;
			r->nodelist = "";
			r->reason = "BeginTime";
		} else if (e && e->action == PRIO_ACTION_CANCEL) {
			r->state = PRIO_JOB_PREEMPTED;
			r->run_secs = since(e->stop_time, job->start_time);
		}
		n++;
	}
	{
		struct prio_preempt_queue_row *r = &q->rows[n++];
		char **names = malloc(
		    (plan->node_count ? plan->node_count : 1) * sizeof(*names));
		uint32_t k = plan->node_count;

		if (!names) {
			free(q->rows);
			q->rows = NULL;
			return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					      "out of memory");
		}

		r->job = UINT32_MAX;
		r->job_id = ctx->req.job_id;
		r->priority = ctx->req.priority;
		r->partition = prio_snapshot_str(snap, ctx->partition->name);
		r->state =
		    plan->can_start ? PRIO_JOB_RUNNING : PRIO_JOB_PENDING;
		r->nodes = plan->can_start ? plan->node_count : ctx->need_nodes;
		r->cpus = ctx->need_cpus;
		if (plan->can_start) {
			uint64_t cpus = 0;

			for (uint32_t i = 0; i < plan->node_count; i++) {
				names[i] = (char *)prio_snapshot_str(
				    snap, snap->nodes[plan->nodes[i]].name);
				cpus += plan->node_cpus[i];
			}
			r->cpus = (uint32_t)cpus;
			prio_hostlist_compress(names, k, q->preemptor_nodes,
					       sizeof(q->preemptor_nodes));
		}
		free(names);
		r->nodelist = q->preemptor_nodes;
		r->reason = plan->can_start ? "None" : "Resources";
	}
	qsort(q->rows, n, sizeof(*q->rows), cmp_queue);
	q->count = n;
	return 0;
}

void prio_preempt_queue_free(struct prio_preempt_queue *q)
{
	free(q->rows);
	q->rows = NULL;
	q->count = 0;
}

const char *prio_squeue_time(int64_t secs, char *buf, size_t size)
{
	int64_t d, h, m, s;

	if (secs < 0)
		secs = 0;
	d = secs / 86400;
	h = secs / 3600 % 24;
	m = secs / 60 % 60;
	s = secs % 60;
	if (d)
		snprintf(buf, size, "%lld-%02lld:%02lld:%02lld", (long long)d,
			 (long long)h, (long long)m, (long long)s);
	else if (h)
		snprintf(buf, size, "%lld:%02lld:%02lld", (long long)h,
			 (long long)m, (long long)s);
	else
		snprintf(buf, size, "%lld:%02lld", (long long)m, (long long)s);
	return buf;
}

static const struct {
	char letter;
	const char *header;
} squeue_letters[] = {
    {'i', "JOBID"},    {'P', "PARTITION"},  {'j', "NAME"},
    {'u', "USER"},     {'t', "ST"},	    {'T', "STATE"},
    {'M', "TIME"},     {'D', "NODES"},	    {'R', "NODELIST(REASON)"},
    {'N', "NODELIST"}, {'C', "CPUS"},	    {'q', "QOS"},
    {'a', "ACCOUNT"},  {'l', "TIME_LIMIT"}, {'r', "REASON"},
    {'Q', "PRIORITY"},
};

int prio_squeue_table_init(struct prio_squeue_table *t, const char *format,
			   char *why, size_t why_size)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = prio_sprio_format_parse(format, &t->fmt, why, why_size);
	if (rc < 0)
		return rc;
	t->cols = calloc(t->fmt.nitems ? t->fmt.nitems : 1, sizeof(*t->cols));
	if (!t->cols) {
		prio_sprio_format_free(&t->fmt);
		snprintf(why, why_size, "out of memory");
		return PRIO_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->fmt.nitems; i++) {
		const struct prio_sprio_item *it = &t->fmt.items[i];
		const char *header = NULL;

		for (size_t k = 0;
		     k < sizeof(squeue_letters) / sizeof(squeue_letters[0]);
		     k++)
			if (squeue_letters[k].letter == it->letter)
				header = squeue_letters[k].header;
		if (!header) {
			snprintf(why, why_size,
				 "Invalid job format specification: %c "
				 "(known: iPjutTMDRNCqalrQ)",
				 it->letter);
			prio_squeue_table_free(t);
			return PRIO_ERR_USAGE;
		}
		t->cols[i] = (struct prio_column){.id = header,
						  .header = header,
						  .width = it->width,
						  .right = it->right,
						  .numfmt = PRIO_NUMFMT_PLAIN,
						  .suffix = it->suffix};
	}
	t->ncols = t->fmt.nitems;
	return 0;
}

void prio_squeue_table_free(struct prio_squeue_table *t)
{
	prio_sprio_format_free(&t->fmt);
	free(t->cols);
	t->cols = NULL;
	t->ncols = 0;
}

void prio_squeue_cells(const struct prio_squeue_table *t,
		       const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_queue *q,
		       const struct prio_preempt_queue_row *row,
		       struct prio_cell *cells, char (*bufs)[160])
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_job *job =
	    row->job != UINT32_MAX ? &snap->jobs[row->job] : NULL;
	const struct prio_preempt_request *req = &ctx->req;

	(void)q;
	for (size_t i = 0; i < t->ncols; i++) {
		char *b = bufs[i];
		const char *s = NULL;

		switch (t->fmt.items[i].letter) {
		case 'i':
			cells[i] = prio_cell_uint(row->job_id);
			continue;
		case 'P':
			s = row->partition;
			break;
		case 'j':
			s = job ? PSIM_JOB_NAME(snap, job) : req->name;
			break;
		case 'u':
			s = prio_snapshot_str(snap,
					      job ? job->user : req->user);
			break;
		case 't':
			s = prio_job_state_short(row->state);
			break;
		case 'T':
			s = prio_job_state_name(row->state);
			break;
		case 'M':
			s = prio_squeue_time(row->run_secs, b, 160);
			break;
		case 'D':
			cells[i] = prio_cell_uint(row->nodes);
			continue;
		case 'C':
			cells[i] = prio_cell_uint(row->cpus);
			continue;
		case 'Q':
			cells[i] = prio_cell_uint(row->priority);
			continue;
		case 'R':
			if (prio_job_state_pending(row->state)) {
				snprintf(b, 160, "(%s)", row->reason);
				s = b;
			} else {
				s = row->nodelist;
			}
			break;
		case 'N':
			s = row->nodelist;
			break;
		case 'q':
			s = prio_snapshot_str(snap, job ? job->qos : req->qos);
			break;
		case 'a':
			s = prio_snapshot_str(snap, job ? job->account
							: req->account);
			break;
		case 'l': {
			uint32_t lim = job ? job->time_limit : req->time_limit;

			s = lim == PRIO_INFINITE || lim == PRIO_NO_VAL
				? "UNLIMITED"
				: prio_squeue_time((int64_t)lim * 60, b, 160);
			break;
		}
		case 'r':
			s = row->reason;
			break;
		}
		cells[i] = prio_cell_str(s ? s : "");
	}
}
