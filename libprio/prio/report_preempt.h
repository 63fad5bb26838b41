/* SPDX-License-Identifier: MIT */
/*
 * Tables of a preemption plan, for preempt-plan and prio-top: the reason
 * text of each job, the machine-readable rows (one per job holding
 * resources), and the queue once the plan has acted, in squeue's layout
 * and `squeue -o` grammar.
 */
#ifndef PRIO_REPORT_PREEMPT_H
#define PRIO_REPORT_PREEMPT_H

#include <stddef.h>

#include "format.h"
#include "preempt.h"
#include "write.h"

/* Field comments are aligned by hand. */
/* clang-format off */

/* One line saying why a job is, or is not, preempted ("partition low
 * (PriorityTier 10) is below hi (30); its removal made the job fit"). */
const char *prio_preempt_why_text(const struct prio_preempt_ctx *ctx,
				  const struct prio_preempt_plan *plan,
				  const struct prio_preempt_entry *e,
				  char *buf, size_t size);

/* "SUSPEND", "REQUEUE", "CANCEL", "" */
const char *prio_preempt_mode_name(uint16_t mode);

/* Machine rows: JOBID, ACTION, MODE, GRACE, NODES, REASON, PARTITION,
 * USER, then with a second plan MINIMAL_ACTION, MINIMAL_REASON. */
enum {
	PRIO_PCOL_JOBID = 0,
	PRIO_PCOL_ACTION,
	PRIO_PCOL_MODE,
	PRIO_PCOL_GRACE,
	PRIO_PCOL_NODES,
	PRIO_PCOL_REASON,
	PRIO_PCOL_PARTITION,
	PRIO_PCOL_USER,
	PRIO_PCOL_MIN_ACTION,
	PRIO_PCOL_MIN_REASON,
	PRIO_PCOL_COUNT
};
extern const struct prio_column prio_preempt_columns[PRIO_PCOL_COUNT];

/* Strings a row borrows until it is written. */
struct prio_preempt_row_text {
	char reason[512];
	char min_reason[512];
};

/* Cells of entry i of plan (and of `other`, the minimal plan, when not
 * NULL: then all PRIO_PCOL_COUNT cells, else PRIO_PCOL_MIN_ACTION). */
void prio_preempt_row(const struct prio_preempt_ctx *ctx,
		      const struct prio_preempt_plan *plan,
		      const struct prio_preempt_plan *other, uint32_t i,
		      struct prio_cell *cells,
		      struct prio_preempt_row_text *text);

/* --- the queue afterwards ------------------------------------------------ */

/* One job as squeue would show it once the plan has acted (the preemptor
 * started, victims suspended, requeued or killed). */
struct prio_preempt_queue_row {
	uint32_t job;        /* snap->jobs index; UINT32_MAX: the preemptor */
	uint32_t job_id;
	uint32_t priority;
	const char *partition;
	uint8_t state;       /* enum prio_job_state */
	int64_t run_secs;    /* TIME */
	uint32_t nodes;      /* NODES */
	uint32_t cpus;       /* CPUS */
	const char *nodelist; /* node list ("" pending) */
	const char *reason;  /* pending reason, "None" otherwise */
};

struct prio_preempt_queue {
	struct prio_preempt_queue_row *rows;
	uint32_t count;
	char preemptor_nodes[4096];
};

/* Every job of the snapshot (as `squeue -t all` lists them) and the
 * preemptor, at the moment the plan has acted (the preemptor's start),
 * sorted like squeue's default (partition, state, priority descending,
 * then job id). */
int prio_preempt_queue_build(const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_plan *plan,
		       struct prio_preempt_queue *q, struct prio_error *err);
void prio_preempt_queue_free(struct prio_preempt_queue *q);

/* squeue's default output format. */
#define PRIO_SQUEUE_DEFAULT_FORMAT "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"

/* A parsed `squeue -o` format: letters i P j u t T M D R N C q a l r Q. */
struct prio_squeue_table {
	struct prio_sprio_format fmt;
	struct prio_column *cols;
	size_t ncols;
};

int prio_squeue_table_init(struct prio_squeue_table *t, const char *format,
			   char *why, size_t why_size);
void prio_squeue_table_free(struct prio_squeue_table *t);

/* Cells of one queue row; bufs gives each column 160 bytes of room. */
void prio_squeue_cells(const struct prio_squeue_table *t,
		       const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_queue *q,
		       const struct prio_preempt_queue_row *row,
		       struct prio_cell *cells, char (*bufs)[160]);

/* squeue's TIME: "M:SS", "H:MM:SS", "D-HH:MM:SS". */
const char *prio_squeue_time(int64_t secs, char *buf, size_t size);

/* clang-format on */

#endif
