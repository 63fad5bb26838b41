/* SPDX-License-Identifier: MIT */
/*
 * Job states and the jobs' cross-references.
 *
 * States: Slurm prints each base state by a full name (scontrol JobState=,
 * squeue --json job_state, sacct State) and by a short code (squeue %t);
 * sacct adds the canceller ("CANCELLED by 0").  Flag states that replace
 * the name in 22.05 output (COMPLETING, CONFIGURING, REQUEUED, RESIZING,
 * REQUEUE_HOLD, SPECIAL_EXIT, ...) have an enum value of their own.
 *
 * prio_jobs_link() runs in prio_snapshot_finish() once the name indices
 * exist: every partition and QOS a job names must have been loaded (when
 * partitions or QOS were loaded at all; a job that can still run and names
 * a partition needs partitions loaded), and a job id may appear once.
 * What only later releases print is refused there too, once the
 * snapshot's release is known from every input: several QOS (24.11,
 * prio_slurm_release.multi_qos) and the EXPEDITING state (25.11,
 * .job_state_expediting).  A job's several QOS are sorted there, as the
 * controller sorts them at submission.  A job that can still run must have
 * an association when associations were loaded (link_job_assoc).
 * With keep_going a job that fails is dropped with a warning, so engines
 * never meet a partition they cannot look up.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/job.h"
#include "prio/priority.h"
#include "prio/slurm_version.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

#define STATE(e, n, c) [e] = {n, c, sizeof(n) - 1, sizeof(c) - 1}

static const struct {
	const char *name;
	const char *code;
	uint8_t name_len, code_len;
} states[PRIO_JOB_STATE_COUNT] = {
    STATE(PRIO_JOB_PENDING, "PENDING", "PD"),
    STATE(PRIO_JOB_RUNNING, "RUNNING", "R"),
    STATE(PRIO_JOB_SUSPENDED, "SUSPENDED", "S"),
    STATE(PRIO_JOB_COMPLETE, "COMPLETED", "CD"),
    STATE(PRIO_JOB_CANCELLED, "CANCELLED", "CA"),
    STATE(PRIO_JOB_FAILED, "FAILED", "F"),
    STATE(PRIO_JOB_TIMEOUT, "TIMEOUT", "TO"),
    STATE(PRIO_JOB_NODE_FAIL, "NODE_FAIL", "NF"),
    STATE(PRIO_JOB_PREEMPTED, "PREEMPTED", "PR"),
    STATE(PRIO_JOB_BOOT_FAIL, "BOOT_FAIL", "BF"),
    STATE(PRIO_JOB_DEADLINE, "DEADLINE", "DL"),
    STATE(PRIO_JOB_OOM, "OUT_OF_MEMORY", "OOM"),
    STATE(PRIO_JOB_COMPLETING, "COMPLETING", "CG"),
    STATE(PRIO_JOB_CONFIGURING, "CONFIGURING", "CF"),
    STATE(PRIO_JOB_REQUEUED, "REQUEUED", "RQ"),
    STATE(PRIO_JOB_RESIZING, "RESIZING", "RS"),
    STATE(PRIO_JOB_REVOKED, "REVOKED", "RV"),
    STATE(PRIO_JOB_SIGNALING, "SIGNALING", "SI"),
    STATE(PRIO_JOB_STAGE_OUT, "STAGE_OUT", "SO"),
    STATE(PRIO_JOB_STOPPED, "STOPPED", "ST"),
    STATE(PRIO_JOB_REQUEUE_HOLD, "REQUEUE_HOLD", "RH"),
    STATE(PRIO_JOB_REQUEUE_FED, "REQUEUE_FED", "RF"),
    STATE(PRIO_JOB_SPECIAL_EXIT, "SPECIAL_EXIT", "SE"),
    STATE(PRIO_JOB_RESV_DEL_HOLD, "RESV_DEL_HOLD", "RD"),
    /* squeue %t prints the base state's code: the parser meets PENDING's
     * "PD" first */
    STATE(PRIO_JOB_EXPEDITING, "EXPEDITING", "PD"),
};

int prio_job_state_parse(const char *s, size_t n, enum prio_job_state *st)
{
	size_t w = 0;

	/* "CANCELLED by 0": the state is the first word */
	while (w < n && s[w] != ' ')
		w++;
	if (w == 0)
		return -1;
	/* the table is in the order of frequency in any queue or history */
	for (int i = 0; i < PRIO_JOB_STATE_COUNT; i++) {
		if ((states[i].name_len == w &&
		     memcmp(states[i].name, s, w) == 0) ||
		    (states[i].code_len == w &&
		     memcmp(states[i].code, s, w) == 0)) {
			*st = (enum prio_job_state)i;
			return 0;
		}
	}
	return -1;
}

const char *prio_job_state_name(enum prio_job_state st)
{
	return (unsigned)st < PRIO_JOB_STATE_COUNT ? states[st].name
						   : "UNKNOWN";
}

const char *prio_job_state_short(enum prio_job_state st)
{
	return (unsigned)st < PRIO_JOB_STATE_COUNT ? states[st].code : "?";
}

bool prio_job_state_pending(enum prio_job_state st)
{
	return st == PRIO_JOB_PENDING || st == PRIO_JOB_EXPEDITING;
}

bool prio_job_state_allocated(enum prio_job_state st)
{
	return st == PRIO_JOB_RUNNING || st == PRIO_JOB_SUSPENDED;
}

int prio_job_qos_list_parse(struct prio_snapshot *snap, const char *s, size_t n,
			    uint32_t line, struct prio_job_qos_list **out)
{
	struct prio_job_qos_list *l;
	uint32_t items = 1, k = 0;
	size_t i = 0;

	for (size_t j = 0; j < n; j++)
		items += s[j] == ',';
	l = prio_arena_alloc(&snap->arena,
			     sizeof(*l) + (size_t)items * sizeof(l->ids[0]));
	if (!l)
		return -1;
	while (k < items) {
		size_t start = i;
		prio_id id;

		while (i < n && s[i] != ',')
			i++;
		if (i == start)
			return -2;
		id = prio_snapshot_intern(snap, s + start, i - start);
		if (id == PRIO_NO_ID)
			return -1;
		l->ids[k++] = id;
		i++;
	}
	l->line = line;
	l->count = k;
	*out = l;
	return 0;
}

int prio_job_set_qos_list(struct prio_snapshot *snap, struct prio_job *job,
			  struct prio_job_qos_list *l)
{
	struct prio_job_detail *d;

	if (!l && !prio_job_qos_list(job))
		return 0;
	d = prio_arena_alloc(&snap->arena, sizeof(*d));
	if (!d)
		return -1;
	if (job->detail) {
		*d = *job->detail;
	} else {
		memset(d, 0, sizeof(*d));
		d->het_job_offset = PRIO_NO_VAL;
	}
	d->qos_list = l;
	job->detail = d;
	if (l)
		job->qos = l->ids[0];
	return 0;
}

/* An open-addressing set of job ids; returns the index of an earlier job
 * with the same id, or UINT32_MAX after adding this one. */
static uint32_t seen_before(uint32_t *slots, uint32_t mask,
			    const struct prio_job *jobs, uint32_t i)
{
	uint32_t id = jobs[i].job_id;
	uint32_t h = (id * 2654435761u) & mask;

	while (slots[h]) {
		if (jobs[slots[h] - 1].job_id == id)
			return slots[h] - 1;
		h = (h + 1) & mask;
	}
	slots[h] = i + 1;
	return UINT32_MAX;
}

/* "low,high" as the job's record printed it (before sorting), for errors. */
static const char *qos_list_text(const struct prio_snapshot *snap,
				 const struct prio_job_qos_list *l, char *buf,
				 size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < l->count && len < size; k++) {
		int m = snprintf(buf + len, size - len, "%s%s", k ? "," : "",
				 prio_snapshot_str(snap, l->ids[k]));

		if (m < 0)
			break;
		len += (size_t)m;
	}
	return buf;
}

/* Several QOS: allowed by the release, each known, then sorted as the
 * controller keeps them, the job's own QOS being the first. */
static int link_qos_list(struct prio_snapshot *snap, struct prio_job *job,
			 struct prio_error *err)
{
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);
	struct prio_job_qos_list *l = prio_job_qos_list(job);
	char text[64];

	if (!rel->multi_qos)
		return prio_error_set(
		    err, PRIO_ERR_PARSE, job->file, l->line, "QOS",
		    "job %u: several QOS \"%s\" (Slurm %s has one QOS per "
		    "job; several came with 24.11)",
		    job->job_id, qos_list_text(snap, l, text, sizeof(text)),
		    rel->name);
	for (uint32_t k = 0; snap->qos_count && k < l->count; k++)
		if (!prio_snapshot_qos(snap, l->ids[k]))
			return prio_error_set(
			    err, PRIO_ERR_PARSE, job->file, l->line, "QOS",
			    "job %u: unknown QOS \"%.40s\"", job->job_id,
			    prio_snapshot_str(snap, l->ids[k]));
	l->count = prio_qos_sort_desc(snap, l->ids, l->count);
	job->qos = l->ids[0];
	return 0;
}

/* Slurm refuses a job without an association when AccountingStorageEnforce
 * has "associations"; "limits", "qos", "safe" and "wckeys" imply it
 * (slurm.conf(5)). */
static bool enforce_associations(const struct prio_snapshot *snap)
{
	static const char *const implying[] = { "associations", "limits", "qos",
						"safe", "wckeys" };
	const char *e = snap->conf.accounting_storage_enforce;

	for (size_t i = 0; e && i < sizeof(implying) / sizeof(implying[0]); i++)
		if (strcasestr(e, implying[i]))
			return true;
	return false;
}

/* Why a job may lack its association, for the refusal: the likelier cause
 * first.  PrivateData=usage shows an ordinary user only their own part of
 * the tree; without enforcement Slurm runs such jobs. */
static const char *missing_assoc_hint(const struct prio_snapshot *snap)
{
	const struct prio_conf_kv *pd =
	    prio_config_find(&snap->conf, "PrivateData");

	if (pd && pd->value && strcasestr(pd->value, "usage"))
		return " (PrivateData=usage: sshare shows an ordinary user "
		       "only their own associations; capture as an operator)";
	if (!enforce_associations(snap))
		return " (AccountingStorageEnforce lacks associations: Slurm "
		       "would give it FAIRSHARE and ASSOC 0; the tree may be "
		       "from another moment)";
	return "";
}

/*
 * A job that can still run (pending, running, suspended) must have an
 * association in the loaded tree, for each partition it lists: without
 * one its FAIRSHARE and ASSOC factors would silently be 0 (unless the
 * controller says so itself: Reason=InvalidAccount).  Finished jobs
 * are history whose association may since have been deleted: kept, and
 * the engines find no association for them.  Without any association
 * input there is nothing to check (and no fair-share to compute).
 */
static int link_job_assoc(struct prio_snapshot *snap, const struct prio_job *job,
			  struct prio_error *err)
{
	uint32_t parts = job->partition_count ? job->partition_count : 1;

	if (!snap->assoc_count || job->user == PRIO_NO_ID ||
	    !(prio_job_state_pending(job->state) ||
	      prio_job_state_allocated(job->state)))
		return 0;
	/* The controller itself holds such a job when its association
	 * vanished under it (a restart with the association gone:
	 * set_job_failed_assoc_qos_ptr): pending for good with
	 * Reason=InvalidAccount, no association, FAIRSHARE and ASSOC 0. */
	if (job->reason != PRIO_NO_ID &&
	    strcmp(prio_snapshot_str(snap, job->reason), "InvalidAccount") == 0)
		return 0;
	for (uint32_t p = 0; p < parts; p++) {
		prio_id part =
		    job->partition_count ? job->partitions[p] : PRIO_NO_ID;
		char where[64] = "";

		if (prio_snapshot_job_assoc(snap, job, part) != PRIO_ASSOC_NONE)
			continue;
		if (snap->assoc_slots && part != PRIO_NO_ID &&
		    job->partition_count > 1)
			snprintf(where, sizeof(where), " (partition %.40s)",
				 prio_snapshot_str(snap, part));
		return prio_error_set(
		    err, PRIO_ERR_PARSE, job->file, job->line, "Account",
		    "job %u: no association for user %.40s in account "
		    "%.40s%s%s",
		    job->job_id, prio_snapshot_str(snap, job->user),
		    job->account != PRIO_NO_ID
			? prio_snapshot_str(snap, job->account)
			: "(none)",
		    where, missing_assoc_hint(snap));
	}
	return 0;
}

static int link_job(struct prio_snapshot *snap, struct prio_job *job,
		    struct prio_error *err)
{
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);

	if (job->state == PRIO_JOB_EXPEDITING && !rel->job_state_expediting)
		return prio_error_set(err, PRIO_ERR_PARSE, job->file, job->line,
				      "JobState",
				      "job %u: state EXPEDITING (Slurm %s does "
				      "not have it; it came with 25.11)",
				      job->job_id, rel->name);
	/* A job that can still run is placed by its partition (tier,
	 * PriorityJobFactor, billing): with no partition loaded at all every
	 * such job would silently vanish from the queue.  Only once a
	 * configuration was loaded: jobs read alone have nothing to place. */
	if (snap->have_config && !snap->partition_count &&
	    job->partition_count &&
	    (prio_job_state_pending(job->state) ||
	     prio_job_state_allocated(job->state)))
		return prio_error_set(
		    err, PRIO_ERR_PARSE, job->file, job->line, "Partition",
		    "job %u: partition \"%.40s\" but no partitions were "
		    "loaded (give --partitions or a slurm.conf with them)",
		    job->job_id, prio_snapshot_str(snap, job->partitions[0]));
	if (snap->partition_count) {
		for (uint32_t p = 0; p < job->partition_count; p++)
			if (!prio_snapshot_partition(snap, job->partitions[p]))
				return prio_error_set(
				    err, PRIO_ERR_PARSE, job->file, job->line,
				    "Partition",
				    "job %u: unknown partition \"%.40s\"",
				    job->job_id,
				    prio_snapshot_str(snap,
						      job->partitions[p]));
	}
	if (prio_job_qos_list(job)) {
		int rc = link_qos_list(snap, job, err);

		if (rc < 0)
			return rc;
	} else if (snap->qos_count && job->qos != PRIO_NO_ID &&
		   !prio_snapshot_qos(snap, job->qos)) {
		return prio_error_set(err, PRIO_ERR_PARSE, job->file, job->line,
				      "QOS", "job %u: unknown QOS \"%.40s\"",
				      job->job_id,
				      prio_snapshot_str(snap, job->qos));
	}
	return link_job_assoc(snap, job, err);
}

uint32_t prio_job_requested_nodes(struct prio_job *job)
{
	uint64_t n;
	uint32_t shown = job->min_nodes;

	/* Seen live: `sbatch -n 12` on 8-CPU nodes prints NumNodes=2 and
	 * TRES=...,node=1, and sprio's JOBSIZE is that of one node. */
	if (!prio_job_state_pending(job->state) || job->max_nodes)
		return 0;
	n = prio_tres_list_get(&job->tres_req, PRIO_TRES_NODE, 0);
	if (!n || n >= job->min_nodes)
		return 0;
	job->min_nodes = (uint32_t)n;
	return shown;
}

int prio_jobs_link(struct prio_snapshot *snap, struct prio_error *err)
{
	uint32_t *slots, mask = 15, keep = 0;
	int rc = 0;

	if (!snap->job_count)
		return 0;
	while (mask / 2 < snap->job_count)
		mask = mask * 2 + 1;
	slots = calloc((size_t)mask + 1, sizeof(*slots));
	if (!slots)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	for (uint32_t i = 0; i < snap->job_count; i++) {
		struct prio_job *job = &snap->jobs[i];
		uint32_t first;

		rc = link_job(snap, job, err);
		if (rc == 0) {
			first = seen_before(slots, mask, snap->jobs, i);
			if (first != UINT32_MAX)
				rc = prio_error_set(
				    err, PRIO_ERR_PARSE, job->file, job->line,
				    "JobId",
				    "job %u listed twice (also at %s:%u)",
				    job->job_id, snap->jobs[first].file,
				    snap->jobs[first].line);
		}
		if (rc < 0) {
			rc = prio_snapshot_record_error(snap, err);
			if (rc < 0)
				break;
			continue; /* dropped, with a warning */
		}
		if (keep != i) {
			/* the set refers to indices: move the slot too */
			snap->jobs[keep] = *job;
			for (uint32_t h = (job->job_id * 2654435761u) & mask;;
			     h = (h + 1) & mask)
				if (slots[h] == i + 1) {
					slots[h] = keep + 1;
					break;
				}
		}
		keep++;
	}
	free(slots);
	if (rc < 0)
		return rc;
	snap->job_count = keep;
	return 0;
}
