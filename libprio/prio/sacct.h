/* SPDX-License-Identifier: MIT */
/*
 * Accounting records from `sacct -P` or `-p` (usage_sacct.c): a header line
 * naming the columns in any order, then one record per job (and, without
 * -X, per step).  Steps are kept and marked so that roll-ups can skip them.
 *
 * Ten million records is a normal history, so a record holds ids and
 * numbers only: the JobID text is kept as its parts (see
 * prio_sacct_job_id_format), names are interned, and identical TRES lists
 * share one arena copy.
 */
#ifndef PRIO_SACCT_H
#define PRIO_SACCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "intern.h"
#include "job.h"
#include "tres.h"

/* Columns a file may carry (bits of snapshot->sacct_columns). */
enum prio_sacct_col {
	PRIO_SACCT_JOBID = 1u << 0, PRIO_SACCT_JOBIDRAW = 1u << 1,
	PRIO_SACCT_USER = 1u << 2, PRIO_SACCT_ACCOUNT = 1u << 3,
	PRIO_SACCT_PARTITION = 1u << 4, PRIO_SACCT_QOS = 1u << 5,
	PRIO_SACCT_SUBMIT = 1u << 6, PRIO_SACCT_ELIGIBLE = 1u << 7,
	PRIO_SACCT_START = 1u << 8, PRIO_SACCT_END = 1u << 9,
	PRIO_SACCT_ELAPSED = 1u << 10, PRIO_SACCT_ELAPSEDRAW = 1u << 11,
	PRIO_SACCT_SUSPENDED = 1u << 12, PRIO_SACCT_STATE = 1u << 13,
	PRIO_SACCT_ALLOCTRES = 1u << 14, PRIO_SACCT_REQTRES = 1u << 15,
	PRIO_SACCT_NNODES = 1u << 16, PRIO_SACCT_NCPUS = 1u << 17,
	PRIO_SACCT_TIMELIMITRAW = 1u << 18, PRIO_SACCT_TIMELIMIT = 1u << 19,
	PRIO_SACCT_NODELIST = 1u << 20, PRIO_SACCT_CLUSTER = 1u << 21,
};

/* Step ids with a name, as Slurm numbers them ("12.batch" ...). */
#define PRIO_SACCT_STEP_INTERACTIVE 0xfffffffau
#define PRIO_SACCT_STEP_BATCH       0xfffffffbu
#define PRIO_SACCT_STEP_EXTERN      0xfffffffcu

struct prio_sacct_rec {
	uint32_t job_id;          /* JobIDRaw, else the number before _ + . */
	uint32_t array_job_id;    /* "12_3" -> 12; 0 when not an array */
	uint32_t array_task_id;   /* "12_3" -> 3; PRIO_NO_VAL otherwise */
	uint32_t het_job_id;      /* "12+1" -> 12; 0 when not heterogeneous */
	uint32_t het_job_offset;  /* "12+1" -> 1; PRIO_NO_VAL otherwise */
	uint32_t step_id;         /* "12.0" -> 0, PRIO_SACCT_STEP_*;
				     PRIO_NO_VAL when not a step */
	prio_id array_task_text;  /* "1-5%2" of "12_[1-5%2]" */
	prio_id user, account, qos, cluster;
	prio_id partition;        /* as printed (a pending job may list
				     several, comma-separated) */
	prio_id node_list;        /* PRIO_NO_ID for "None assigned" */
	uint32_t nnodes, ncpus;
	uint32_t time_limit;      /* minutes; PRIO_INFINITE, PRIO_NO_VAL */
	uint32_t elapsed;         /* seconds (ElapsedRaw, else Elapsed) */
	uint32_t suspended;       /* seconds */
	uint32_t line;
	uint8_t state;            /* enum prio_job_state ("CANCELLED by 0") */
	bool is_step;             /* "12.batch", "12.0", "12.extern" */
	time_t submit, eligible, start, end; /* 0 = Unknown/None */
	struct prio_tres_list alloc_tres, req_tres; /* billing as printed
						       (truncated) */
};

/* The JobID as sacct prints it ("12", "12_3", "12_[1-5%2]", "12+1",
 * "12.batch") into buf; returns buf. */
struct prio_snapshot;
const char *prio_sacct_job_id_format(const struct prio_snapshot *snap,
				     const struct prio_sacct_rec *rec,
				     char *buf, size_t size);

/*
 * Streaming (issue 17): the records of a sacct file handed one at a time
 * to fn, in file order (steps too), each forgotten when fn returns, so that
 * a roll-up of 100M records runs in bounded memory: the file (plain, gzip
 * or zstd) is read 2 MiB at a time, by two threads where the file is
 * larger and the process may use two CPUs; what a record names (users,
 * accounts, TRES lists) is interned in snap as prio_load_sacct() does, in
 * the same order.
 *
 * columns (PRIO_SACCT_*, 0 = all) may leave out the name columns fn does
 * not look at (User, Account, Partition, QOS, Cluster, NodeList): columns
 * whose value can be refused are always read, so that a file streams only
 * when prio_load_sacct() would take it whole.
 *
 * Returns 0 when every record was handed over: then snap notes the input
 * loaded (role sacct, the record count) as the loader does.  Returns
 * PRIO_SACCT_LOAD_WHOLE when the file must be judged whole instead: not a
 * regular file, any error or doubt (a refused row, a cut last line, an
 * empty file, a row that may repeat an earlier one, the file changed while
 * read...).  Then nothing was reported, fn may have seen some records (the
 * caller drops what it summed) and prio_load_role() gives the exact answer,
 * error or warning, as before.  Negative: fn's own error (err as fn set it).
 */
#define PRIO_SACCT_LOAD_WHOLE 1
typedef int (*prio_sacct_fn)(void *ctx, const struct prio_sacct_rec *rec,
			     struct prio_error *err);
int prio_sacct_stream(struct prio_snapshot *snap, const char *path,
		      uint32_t columns, prio_sacct_fn fn, void *ctx,
		      struct prio_error *err);

#endif
