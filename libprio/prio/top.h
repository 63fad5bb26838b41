/* SPDX-License-Identifier: MIT */
/*
 * The model behind prio-top, the live viewer: one finished snapshot and what
 * the engines say about it at a clock, kept as the tables a front end draws.
 * Nothing is computed here that the engines do not compute for prio-calc
 * and fstree-show: the priority engine and the scheduling order give the
 * queue (prio_engine_init, prio_queue_build), its factors and sprio's sum
 * give each row's weighted terms, the fairshare engine gives the tree, and
 * explain / fairtree_why give the detail texts.
 *
 *  - The clock: usage as loaded is kept aside; prio_top_advance() restores
 *    it and moves it to a later time (prio_snapshot_advance, as prio-calc
 *    --at does), then recomputes, so age grows and usage decays on screen.
 *  - What-if: prio_top_set() applies one assignment (prio_snapshot_set, the
 *    --set grammar) to the loaded snapshot, links it again and recomputes;
 *    every row then says how many places it moved in its partition.  The
 *    assignments are kept, so a reloaded snapshot gets them again.
 *  - The table as shown: rows sorted by any column (once per change, not
 *    per frame) and filtered by user, account, partition or a text, as an
 *    array of row indices; a front end draws only the rows it can show.
 *  - The tree: associations in sshare's order, with depth and the "last
 *    child" flags a drawing needs, and collapsed branches left out.
 *
 * Every computing call is all-or-nothing: on an error the model keeps its
 * previous results (a viewer keeps its last good data on screen).
 */
#ifndef PRIO_TOP_H
#define PRIO_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "fairshare.h"
#include "forecast.h"
#include "order.h"
#include "priority.h"
#include "snapshot.h"

/* The queue's columns: what a row shows and what it can be sorted by. */
enum prio_top_col {
	PRIO_TOP_COL_RANK = 0, /* place in the whole queue (1 = first) */
	PRIO_TOP_COL_MOVED,    /* places gained by the last what-if */
	PRIO_TOP_COL_JOB,
	PRIO_TOP_COL_USER,
	PRIO_TOP_COL_ACCOUNT,
	PRIO_TOP_COL_PARTITION,
	PRIO_TOP_COL_QOS,
	PRIO_TOP_COL_PRIORITY, /* the priority in that partition */
	PRIO_TOP_COL_FACTORS,  /* the weighted terms (a bar); sorts by sum */
	PRIO_TOP_COL_REASON,   /* Slurm's pending reason */
	PRIO_TOP_COL_START,    /* Slurm's start estimate (StartTime) */
	PRIO_TOP_COL_FORECAST, /* our forecast's start (prio_top_forecast) */
	PRIO_TOP_COL_COUNT
};

struct prio_top_col_info {
	const char *id;	    /* "rank": --sort, the config file */
	const char *header; /* "RANK" */
	bool numeric;	    /* right-justified */
	bool desc_first;    /* a first sort on it is descending */
};
const struct prio_top_col_info *prio_top_col_info(enum prio_top_col col);
/* The column of an id (case-insensitive); -1 when none. */
int prio_top_col_parse(const char *id, enum prio_top_col *out);

/* How a row compares with the queue before the last what-if. */
enum prio_top_change {
	PRIO_TOP_SAME = 0, /* no what-if, or the same place */
	PRIO_TOP_MOVED,	   /* `moved` places up (negative: down) */
	PRIO_TOP_NEW,	   /* not in that partition's queue before */
};

/* One queue entry: a pending job in one partition. */
struct prio_top_job {
	uint32_t job;	    /* snapshot index */
	uint32_t partition; /* snapshot index */
	prio_id qos;	    /* the job's, or one of its several (24.11) */
	uint32_t rank, part_rank, priority;
	/* The weighted terms by enum prio_factor, as sprio prints them: nice
	 * is -nice, TRES the sum of the weighted TRES. */
	double points[PRIO_FACTOR_COUNT];
	double sum;	/* sprio's PRIORITY (the terms' sum) */
	int32_t moved;	/* with PRIO_TOP_MOVED: places up (< 0: down) */
	uint8_t change; /* enum prio_top_change */
};

/* Which rows the table shows; NULL fields match everything.  Names match
 * exactly (accounts case-insensitively, as Slurm matches them); text is a
 * case-insensitive substring of the job id, user, account, partition, QOS
 * or reason. */
struct prio_top_filter {
	const char *user, *account, *partition, *text;
};

/* One line of the tree. */
struct prio_top_node {
	uint32_t assoc; /* snapshot index */
	uint16_t depth; /* root 0 */
	bool has_children;
	/* bit k (k <= depth): the association's ancestor at depth k (itself
	 * at k = depth) is its parent's last child. */
	uint64_t last_mask;
};

struct prio_top_results; /* internal: one computation's results */
struct prio_top_before;	 /* internal: the queue before a what-if */

struct prio_top {
	struct prio_snapshot *snap; /* owned */
	time_t now;		    /* the clock of the results */
	/* The earliest clock: the snapshot's, or the earlier one the model
	 * started at (Slurm's last priority calculation, calc_time.h). */
	time_t earliest;
	struct prio_top_results *r; /* engine, queue, rows, fairshare */

	/* Read-only views of r, for front ends. */
	const struct prio_engine *engine;
	const struct prio_queue *queue;
	const struct prio_top_job *jobs; /* one per queue entry, in order */
	uint32_t njobs;
	const struct prio_fs_result *fs; /* per association; NULL: no tree */
	enum prio_fs_algorithm fs_algorithm;
	double max_sum;		   /* the largest row sum (bars' scale) */
	uint32_t max_priority;	   /* the largest row priority */
	/* The last computation kept the rows (a clock tick between begin
	 * times, prio_top_advance): the same jobs, partitions and QOS, only
	 * priorities, terms, ranks and places moved. */
	bool rows_kept;
	uint32_t pending, running; /* jobs by state in the snapshot */

	/* The table as shown: every row in sort order, then the filtered
	 * ones (indices into jobs). */
	enum prio_top_col sort;
	bool desc;
	uint32_t *order;
	uint32_t *view;
	uint32_t nview;
	struct prio_top_filter filter; /* owned copies */

	/* The tree, in sshare's order, and the lines not hidden by a
	 * collapsed branch (indices into nodes). */
	struct prio_top_node *nodes;
	uint32_t nnodes;
	bool *collapsed; /* per association */
	uint32_t *tree_view;
	uint32_t ntree_view;

	/* What-if: the assignments applied since loading, in order, and the
	 * queue before the last one (to tell who moved). */
	char **edits;
	uint32_t nedits;
	uint32_t moved_count; /* rows that moved or are new */

	/* Our forecast of the queue (prio_top_forecast), NULL until one is
	 * run and after every change of the data (a new snapshot, a
	 * what-if: its rows name the old snapshot's jobs); never moved by
	 * the clock. */
	const struct prio_forecast *forecast;

	/* internal */
	struct prio_top_before *before;
	struct prio_forecast *fc;	 /* owned: forecast */
	const struct prio_forecast_row **fc_rows; /* per snapshot job */
	long double *usage0; /* usage as loaded (in the snapshot's arena) */
	bool broken;	     /* a what-if left the snapshot unlinked */
};

/*
 * Take a finished snapshot (the model owns it from now on, error or not)
 * and compute everything at `now` (the snapshot's clock when 0; earlier
 * than it, Slurm's last priority calculation before the capture, with the
 * usage as loaded: it becomes the earliest clock).  Sorted by rank,
 * unfiltered, the tree fully expanded.  Returns 0, or a negative status
 * with err filled and the model empty (free it).
 */
int prio_top_init(struct prio_top *t, struct prio_snapshot *snap, time_t now,
		  struct prio_error *err);
void prio_top_free(struct prio_top *t);

/*
 * A reloaded snapshot replaces the current one: the what-if assignments
 * are applied to it again, everything is computed at `now` (0: its own
 * clock), the sort, filter and collapsed branches (by name) carry over.
 * The model owns snap either way; on an error it is freed and the model
 * keeps its current data.
 */
int prio_top_replace(struct prio_top *t, struct prio_snapshot *snap, time_t now,
		     struct prio_error *err);

/* Compute at another clock (>= t->earliest): usage as loaded moved to
 * `now`, then every engine again.  On an error nothing changes. */
int prio_top_advance(struct prio_top *t, time_t now, struct prio_error *err);

/*
 * What-if: apply one assignment (whatif.h) to the snapshot, link it again
 * and recompute at the same clock; rows then tell how they moved.  A bad
 * assignment is refused with nothing changed (PRIO_ERR_USAGE or
 * PRIO_ERR_PARSE).  When the snapshot cannot be linked with it, the error
 * is returned and t->snap must be reloaded (prio_top_needs_reload()).
 */
int prio_top_set(struct prio_top *t, const char *assignment,
		 struct prio_error *err);
bool prio_top_needs_reload(const struct prio_top *t);
/* Forget the what-if assignments (the caller reloads the snapshot to
 * undo them) and the moves they made. */
void prio_top_clear_edits(struct prio_top *t);

/*
 * Our forecast of the queue from the data shown (prio_forecast_run with
 * opts on the model's engine): its rows give the FORECAST column.  Run it
 * when the data change, not at every clock tick: the forecast of a big
 * queue costs seconds, so bound it (opts->until, opts->watch).  Returns 0,
 * or a negative status with err filled and no forecast kept.
 */
int prio_top_forecast(struct prio_top *t, const struct prio_forecast_opts *opts,
		      struct prio_error *err);
/* Take a forecast run on the model's engine and data (another thread may
 * run it while the model does not change): the model owns fc from now on,
 * error or not.  Returns 0 or PRIO_ERR_NOMEM with err filled. */
int prio_top_forecast_adopt(struct prio_top *t, struct prio_forecast *fc,
			    struct prio_error *err);
/* Drop the forecast (the column goes blank). */
void prio_top_forecast_clear(struct prio_top *t);
/* The forecast's row of a queue row's job; NULL when none was run or it
 * has none. */
const struct prio_forecast_row *
prio_top_forecast_row(const struct prio_top *t, const struct prio_top_job *j);

/* What a row shows in a column: its text (numbers as decimals, MOVED as
 * "+3", "-2", "new" or "", FACTORS "", FORECAST the start as the clock
 * shows time, "05:43:21" on the snapshot's day and "2026-11-23T01:02:03"
 * else, or the word prio-calc --forecast prints: "after", "never",
 * "held"; blank without a forecast), in buf or the snapshot's strings;
 * and for the name columns (user, account, partition, QOS, reason) the
 * interned id, PRIO_NO_ID for the others. */
const char *prio_top_cell(const struct prio_top *t,
			  const struct prio_top_job *j, enum prio_top_col col,
			  char *buf, size_t size);
prio_id prio_top_cell_id(const struct prio_top *t, const struct prio_top_job *j,
			 enum prio_top_col col);

/* Sort every row by a column (ties: scheduling order), then filter again. */
void prio_top_sort(struct prio_top *t, enum prio_top_col col, bool desc);
/* Show only the rows matching f (copied).  Returns 0 or PRIO_ERR_NOMEM. */
int prio_top_set_filter(struct prio_top *t, const struct prio_top_filter *f);
/* Does row (index into jobs) contain text (case-insensitive substring of
 * job id, user, account, partition, QOS or reason)? */
bool prio_top_row_matches(const struct prio_top *t, uint32_t row,
			  const char *text);
/* The position in view of a job id (in partition `partition`, a snapshot
 * index, or in any with PRIO_NO_VAL); UINT32_MAX when not shown. */
uint32_t prio_top_find_job(const struct prio_top *t, uint32_t job_id,
			   uint32_t partition);

/* Collapse or expand the branch below an association (tree_view is
 * rebuilt); expand every branch. */
void prio_top_tree_collapse(struct prio_top *t, uint32_t assoc, bool collapsed);
void prio_top_tree_expand_all(struct prio_top *t);
/* The tree_view position of an association, UINT32_MAX when hidden. */
uint32_t prio_top_tree_find(const struct prio_top *t, uint32_t assoc);

/* Detail texts (malloc'ed, '\n' after each line; NULL with err filled):
 * prio-calc --explain JOBID, and fstree-show --why for an association
 * (utf8 allows "×" and "…"). */
char *prio_top_explain(const struct prio_top *t, uint32_t job_id,
		       struct prio_error *err);
char *prio_top_why(const struct prio_top *t, uint32_t assoc, bool utf8,
		   struct prio_error *err);
/* The "When" part of prio-calc --explain JOBID (forecast_text.h): the
 * forecast run as --explain runs it, until the job starts (opts, the job
 * watched), and what a shorter limit would do; opts NULL: no forecast, only
 * Slurm's estimate.  The text starts with a blank line; "" for a job that
 * is not pending. */
char *prio_top_when(const struct prio_top *t, uint32_t job_id,
		    const struct prio_forecast_opts *opts,
		    struct prio_error *err);

#endif
