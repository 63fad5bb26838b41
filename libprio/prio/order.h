/* SPDX-License-Identifier: MIT */
/*
 * The scheduling order of pending jobs (slurm-facts §1.6): the queue Slurm's
 * main scheduler walks, one entry per job and partition (and QOS, for a job
 * of several: 24.11), sorted by an expedited requeue first (25.11's
 * EXPEDITING), then reservation, partition PriorityTier (higher first),
 * priority in that partition (higher first), submit time, job id (an array's
 * job id) and array task id.  Preemption, the first rule of Slurm's sort, is
 * left to the preemption planner: between two jobs of which one may preempt the
 * other, this order says nothing.
 *
 * Each entry gets its rank in its partition and overall (1 = first), so a
 * front end can say how many jobs are ahead of a job where it asked to run.
 */
#ifndef PRIO_ORDER_H
#define PRIO_ORDER_H

#include <stdint.h>

#include "error.h"
#include "priority.h"

struct prio_queue_entry {
	uint32_t job;       /* index into snap->jobs */
	uint32_t partition; /* index into snap->partitions */
	prio_id qos;	    /* the job's QOS, or one of its several (24.11) */
	uint32_t priority;  /* the job's priority in that partition and QOS */
	uint32_t rank;      /* 1-based, over the whole queue */
	uint32_t part_rank; /* 1-based, among entries of the partition */
};

struct prio_queue {
	struct prio_queue_entry *entries; /* in scheduling order */
	uint32_t count;
	uint32_t *part_count; /* entries per partition (partition_count) */
	uint32_t partition_count;
};

/* Build the queue of every pending job sprio would list, at the engine's
 * clock.  Returns 0, or PRIO_ERR_NOMEM with err filled. */
int prio_queue_build(const struct prio_engine *e, struct prio_queue *q,
		     struct prio_error *err);
void prio_queue_free(struct prio_queue *q);

/* Is entry a scheduled before entry b?  (-1 before, 1 after, 0 same
 * position: the same job and partition.) */
int prio_queue_compare(const struct prio_snapshot *snap,
		       const struct prio_queue_entry *a,
		       const struct prio_queue_entry *b);

/* Sort n records of `size` bytes, each starting with a struct
 * prio_queue_entry (a caller's record may carry more after it), as
 * prio_queue_compare orders them, equal ones as listed; through packed
 * keys, not a call of prio_queue_compare per comparison.  0, or -1 when
 * out of memory. */
int prio_queue_sort(const struct prio_snapshot *snap, void *records,
		    uint32_t n, size_t size);

/* The entry of a job (snapshot index) in a partition (snapshot index), or
 * NULL; for a job of several QOS, its best placed one.  Linear: for a few
 * lookups. */
const struct prio_queue_entry *prio_queue_find(const struct prio_queue *q,
					       uint32_t job,
					       uint32_t partition);

/* The entry just ahead of `at` in the same partition, and the first one of
 * that partition; NULL when there is none.  Linear. */
const struct prio_queue_entry *prio_queue_ahead(const struct prio_queue *q,
						const struct prio_queue_entry *at);
const struct prio_queue_entry *prio_queue_top(const struct prio_queue *q,
					      uint32_t partition);

#endif
