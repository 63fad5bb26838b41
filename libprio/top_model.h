/* SPDX-License-Identifier: MIT */
/*
 * Internal: what the viewer model's files (top.c: the life of the model,
 * top_queue.c: the table as shown, top_tree.c: the tree) share.
 */
#ifndef PRIO_TOP_MODEL_H
#define PRIO_TOP_MODEL_H

#include "prio/advance.h"
#include "prio/top.h"

/* One computation's results, swapped in whole. */
struct prio_top_results {
	struct prio_engine engine;
	struct prio_queue queue;
	struct prio_top_job *jobs;
	struct prio_fs_result *own_fs; /* when the engine computed none */
	double max_sum;
	uint32_t max_priority;
	/* The incremental tick (top.c, tick()): per row, the factors its
	 * terms were computed from and its weighted TRES terms (tres_count
	 * each), moved with the rows; the first clock at which a job joins
	 * the queue or starts to accrue age (a full computation from there
	 * on; 0: none); buffers kept from one tick to the next. */
	struct prio_job_factors *factors;
	double *tres;
	struct prio_running *running; /* prio_snapshot_running */
	uint32_t nrunning;
	uint32_t tres_count;
	time_t horizon;
	uint32_t *moved, *runs;
	struct prio_queue_entry *entries2;
	struct prio_top_job *jobs2;
	struct prio_job_factors *factors2;
	double *tres2;
	uint8_t *assoc_changed, *is_moved;
	struct prio_assoc_factors *assoc_before;
	/* the tree and Fair Tree's last order, from one tick to the next
	 * (the results are rebuilt whenever the snapshot changes) */
	struct prio_fs_cache *fs_cache;
};

/* The queue before the last what-if: (job, partition) keys in ascending
 * order with their place in the partition. */
struct prio_top_place {
	uint64_t key; /* job index * (partition count + 1) + partition */
	uint32_t part_rank;
};
struct prio_top_before {
	struct prio_top_place *places;
	uint32_t count;
	uint32_t job_count; /* snapshot jobs then (indices must still hold) */
};
uint64_t top_place_key(const struct prio_top *t, const struct prio_top_job *j);

/* top_queue.c: order and view for the current rows (after every
 * computation), the moves against t->before. */
int top_table_build(struct prio_top *t);
void top_mark_moves(struct prio_top *t);
/* top_tree.c: nodes and tree_view for the current snapshot. */
int top_tree_build(struct prio_top *t);
void top_tree_view(struct prio_top *t);

#endif
