/* SPDX-License-Identifier: MIT */
/*
 * Slurm's own start estimate, printed as `squeue --start` prints it
 * (prio-calc --start, prio-top).  What squeue does, read in its source
 * (src/squeue/opts.c, print.c, sort.c; the same in 22.05 and 24.11):
 *
 *  - --start lists pending jobs only (state filter PD) with the default
 *    format "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R" and sort "S";
 *  - the format grammar is sprio's (format.h): '.' right-justifies, the
 *    width is a minimum and a maximum, no width is the natural width;
 *  - START_TIME is the job record's StartTime: backfill's estimate for a
 *    pending job, "N/A" when it is 0 (scontrol prints that as Unknown);
 *  - SCHEDNODES is SchedNodeList (backfill's planned nodes), "(null)" when
 *    there is none (printf of a NULL string);
 *  - NODELIST(REASON) of a pending job is "(" state_desc ")" when the
 *    controller set a description, else "(" reason ")";
 *  - NODES is the job's num_nodes as scontrol prints it in NumNodes.
 *
 * The order ("S"): squeue sorts twice with one comparison, first reversed
 * (sort_jobs_by_start_time) then as asked; a job whose StartTime is 0
 * compares after every other, even after another such job.  With glibc's
 * qsort (a stable merge sort) two passes give: jobs with a start time by
 * that time (a pending job's past estimate counts as now), ties in the
 * controller's order, then the jobs without one in the controller's order
 * (the order of the snapshot's job records).
 */
#ifndef PRIO_REPORT_START_H
#define PRIO_REPORT_START_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "format.h"
#include "job.h"
#include "write.h"

struct prio_snapshot;

#define PRIO_START_DEFAULT_FORMAT "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R"

/* The letters prio-calc --start knows: "iAPjuUaqtTSeVDYRQC". */
extern const char prio_start_letters[];

struct prio_start_table {
	struct prio_sprio_format fmt;
	struct prio_column *cols;
	char *letters; /* per column; 0 for machine-only columns */
	struct prio_cell *cells;
	char (*bufs)[160]; /* per column, for built strings */
	size_t ncols;
	bool machine;		/* -P/CSV/JSON: typed values, no squeue text */
	bool shows_sched_nodes; /* a %Y column */
	time_t now;		/* END_TIME's NONE rule */
};

/*
 * Parse format (NULL: the default) into columns.  machine: -P, CSV or JSON
 * output, where %i gives job_id (an integer) and job (squeue's text,
 * "21_[0-2]"), times are blank (null) when unknown instead of "N/A" and
 * the reason has no parentheses.  A letter outside prio_start_letters or
 * a bad format is refused: -1 with a one-line reason in why.
 */
int prio_start_table_init(struct prio_start_table *t, const char *format,
			  bool machine, time_t now, char *why, size_t why_size);
void prio_start_table_free(struct prio_start_table *t);

/* Fill t->cells for job (strings point into t->bufs or the snapshot). */
void prio_start_row_cells(struct prio_start_table *t,
			  const struct prio_snapshot *snap,
			  const struct prio_job *job);

/* Does squeue --start list the job (its state's base is PENDING)? */
bool prio_start_listed(const struct prio_job *job);

/* Sort ix[0..n-1] (snapshot job indices, in the snapshot's order) as
 * squeue --start does at now (see above).  0, or -1 out of memory. */
int prio_start_sort(const struct prio_snapshot *snap, time_t now, uint32_t *ix,
		    size_t n);

/* Text helpers shared with prio-calc --brief and prio-top: */
/* The reason as squeue prints it, without parentheses. */
const char *prio_start_reason(const struct prio_snapshot *snap,
			      const struct prio_job *job, char *buf,
			      size_t size);
/* The job's partitions joined with ',' as scontrol prints them. */
const char *prio_start_partitions(const struct prio_snapshot *snap,
				  const struct prio_job *job, char *buf,
				  size_t size);
/* The job id as squeue prints it: "21_[0-2]", "21_3", "7+1", "42". */
const char *prio_start_job_id(const struct prio_snapshot *snap,
			      const struct prio_job *job, char *buf,
			      size_t size);

#endif
