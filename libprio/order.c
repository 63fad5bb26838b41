/* SPDX-License-Identifier: MIT */
/*
 * Scheduling order and ranks (slurm-facts §1.6, sort_job_queue2 in
 * src/slurmctld/job_scheduler.c): one pass computes every pending job's
 * priority per partition with the priority engine, one sort orders the
 * queue, one pass numbers the entries overall and per partition.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prio/order.h"

void prio_queue_free(struct prio_queue *q)
{
	if (!q)
		return;
	free(q->entries);
	free(q->part_count);
	memset(q, 0, sizeof(*q));
}

static bool has_reservation(const struct prio_job *job)
{
	return job->detail && job->detail->reservation != PRIO_NO_ID;
}

static uint32_t sort_job_id(const struct prio_job *job)
{
	return job->array_job_id ? job->array_job_id : job->job_id;
}

int prio_queue_compare(const struct prio_snapshot *snap,
		       const struct prio_queue_entry *a,
		       const struct prio_queue_entry *b)
{
	const struct prio_job *ja = &snap->jobs[a->job];
	const struct prio_job *jb = &snap->jobs[b->job];
	uint16_t ta = snap->partitions[a->partition].tier;
	uint16_t tb = snap->partitions[b->partition].tier;
	bool ra = has_reservation(ja), rb = has_reservation(jb);
	bool xa = ja->state == PRIO_JOB_EXPEDITING;
	bool xb = jb->state == PRIO_JOB_EXPEDITING;

	/* 25.11: an expedited requeue sorts before everything, as if its
	 * priority were infinite; two of them fall back to the usual rules */
	if (xa != xb)
		return xa ? -1 : 1;
	if (ra != rb)
		return ra ? -1 : 1;
	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (ja->submit_time != jb->submit_time)
		return ja->submit_time < jb->submit_time ? -1 : 1;
	if (sort_job_id(ja) != sort_job_id(jb))
		return sort_job_id(ja) < sort_job_id(jb) ? -1 : 1;
	if (ja->array_task_id != jb->array_task_id)
		return ja->array_task_id < jb->array_task_id ? -1 : 1;
	if (a->job != b->job)
		return a->job < b->job ? -1 : 1;
	return a->partition < b->partition ? -1 : a->partition > b->partition;
}

/*
 * The sort runs over packed keys rather than calling prio_queue_compare:
 * the comparison chases two job records and two partitions per call, and
 * a viewer re-sorts 100k entries on every clock tick.  hi holds the
 * expediting and reservation flags, tier and priority (each complemented so
 * that smaller sorts first), lo the submit time with its sign bit flipped (so
 * that unsigned order is time order), then the full comparison breaks ties.
 */
struct sort_key {
	uint64_t hi, lo;
	uint32_t at; /* index into the unsorted entries */
};

static struct sort_key entry_key(const struct prio_snapshot *snap,
				 const struct prio_queue_entry *en, uint32_t at)
{
	const struct prio_job *job = &snap->jobs[en->job];
	uint64_t tier = snap->partitions[en->partition].tier;
	struct sort_key k;

	k.hi = (uint64_t)(job->state != PRIO_JOB_EXPEDITING) << 49 |
	       (uint64_t)!has_reservation(job) << 48 |
	       (uint64_t)(UINT16_MAX - tier) << 32 |
	       (uint64_t)(UINT32_MAX - en->priority);
	k.lo = (uint64_t)(int64_t)job->submit_time ^ (UINT64_C(1) << 63);
	k.at = at;
	return k;
}

struct sort_ctx {
	const struct prio_snapshot *snap;
	const char *records;
	size_t size;
};

static const struct prio_queue_entry *record(const struct sort_ctx *c,
					     uint32_t at)
{
	return (const struct prio_queue_entry *)(const void *)(c->records +
							       at * c->size);
}

static int cmp_keys(const void *pa, const void *pb, void *arg)
{
	const struct sort_key *a = pa, *b = pb;
	const struct sort_ctx *c = arg;

	int rc;

	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	rc = prio_queue_compare(c->snap, record(c, a->at), record(c, b->at));
	/* one job's QOS in one partition, equal priorities: as listed */
	if (rc == 0)
		rc = a->at < b->at ? -1 : a->at > b->at;
	return rc;
}

int prio_queue_sort(const struct prio_snapshot *snap, void *records,
		    uint32_t n, size_t size)
{
	struct sort_key *keys;
	char *sorted;
	struct sort_ctx c = {snap, records, size};

	if (n < 2)
		return 0;
	keys = malloc((size_t)n * sizeof(*keys));
	sorted = malloc((size_t)n * size);
	if (!keys || !sorted) {
		free(keys);
		free(sorted);
		return -1;
	}
	for (uint32_t k = 0; k < n; k++)
		keys[k] = entry_key(snap, record(&c, k), k);
	qsort_r(keys, n, sizeof(*keys), cmp_keys, &c);
	for (uint32_t k = 0; k < n; k++)
		memcpy(sorted + k * size, c.records + keys[k].at * size, size);
	memcpy(records, sorted, (size_t)n * size);
	free(keys);
	free(sorted);
	return 0;
}

int prio_queue_build(const struct prio_engine *e, struct prio_queue *q,
		     struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t *parts = NULL, cap = 0, n = 0;
	int rc = PRIO_OK;

	memset(q, 0, sizeof(*q));
	q->partition_count = snap->partition_count;
	q->part_count = calloc(snap->partition_count ? snap->partition_count : 1,
			       sizeof(*q->part_count));
	parts = malloc((size_t)e->max_job_partitions * sizeof(*parts));
	if (!q->part_count || !parts)
		goto nomem;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];
		struct prio_job_factors jf;
		uint32_t np, nq;

		if (!prio_job_state_pending(job->state) ||
		    !prio_job_listed(e, job))
			continue;
		np = prio_job_partitions(e, job, parts);
		if (!np)
			continue;
		nq = prio_job_qos_count(job);
		prio_job_factors(e, job, &jf);
		if (n + np * nq > cap) {
			uint32_t ncap = cap ? cap : 1024;
			while (ncap < n + np * nq)
				ncap *= 2;
			void *p = realloc(q->entries, (size_t)ncap * sizeof(*q->entries));
			if (!p)
				goto nomem;
			q->entries = p;
			cap = ncap;
		}
		/* partition-major, as the controller fills priority_array */
		for (uint32_t k = 0; k < np * nq; k++) {
			struct prio_job_factors jq;
			struct prio_row row;
			struct prio_queue_entry *en = &q->entries[n++];

			en->qos = prio_job_factors_at(e, job, &jf, k % nq, &jq);
			prio_row_compute(e, job, &jq, parts[k / nq], &row);
			en->job = i;
			en->partition = parts[k / nq];
			en->priority = row.priority;
		}
	}
	q->count = n;
	if (prio_queue_sort(snap, q->entries, n, sizeof(*q->entries)) < 0)
		goto nomem;
	for (uint32_t k = 0; k < n; k++) {
		struct prio_queue_entry *en = &q->entries[k];

		en->rank = k + 1;
		en->part_rank = ++q->part_count[en->partition];
	}
	free(parts);
	return rc;
nomem:
	free(parts);
	prio_queue_free(q);
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

const struct prio_queue_entry *prio_queue_find(const struct prio_queue *q,
					       uint32_t job, uint32_t partition)
{
	for (uint32_t k = 0; k < q->count; k++)
		if (q->entries[k].job == job &&
		    q->entries[k].partition == partition)
			return &q->entries[k];
	return NULL;
}

const struct prio_queue_entry *prio_queue_ahead(const struct prio_queue *q,
						const struct prio_queue_entry *at)
{
	for (const struct prio_queue_entry *en = at; en > q->entries;) {
		en--;
		if (en->partition == at->partition)
			return en;
	}
	return NULL;
}

const struct prio_queue_entry *prio_queue_top(const struct prio_queue *q,
					      uint32_t partition)
{
	for (uint32_t k = 0; k < q->count; k++)
		if (q->entries[k].partition == partition)
			return &q->entries[k];
	return NULL;
}
