/* SPDX-License-Identifier: MIT */
/*
 * --history DIR (fstree-show, prio-cal; issue 16): the snapshot folders of
 * a series (prio-snap --every or --keep), in the order of their NOW, and
 * the chart of one value over them.  Each command loads each folder in
 * turn, computes at that folder's own NOW, and prints one row per folder.
 */
#ifndef PRIO_CMD_HISTORY_H
#define PRIO_CMD_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "common.h"

struct cmd_history {
	char **dirs;  /* DIR/NAME of each snapshot, by NOW then name */
	time_t *nows; /* each one's NOW file */
	size_t count;
};

/* The snapshot folders of dir: its sub-folders (not symbolic links such
 * as latest, not hidden ones such as a capture under way) that hold a NOW
 * file; a sub-folder without one is named in a warning.  Exits 2 when dir
 * cannot be read or holds no snapshot. */
void cmd_history_list(const struct cmd_common *c, const char *dir,
		      struct cmd_history *h);
void cmd_history_free(struct cmd_history *h);

/* Source files named by options (--conf, --assoc, ...): they would stand
 * in for every snapshot's own, which --history refuses. */
bool cmd_history_sources_given(const struct cmd_common *c);

/* What --history prints: a table, a chart, or both (the default on a
 * terminal in text mode: the table, then the chart). */
enum cmd_history_view {
	CMD_HISTORY_AUTO = 0,
	CMD_HISTORY_TABLE,
	CMD_HISTORY_CHART,
};
/* Settle the view from --chart/--table and the output mode (a usage
 * error for --chart with -p, -P, --csv or --json): *table and *chart say
 * what to print. */
void cmd_history_view(const struct cmd_common *c, const char *usage,
		      enum cmd_history_view view, bool *table, bool *chart);

/* Rows are kept until every snapshot is read: copy the strings of
 * cells[0..n) (they point into a snapshot about to be freed), and free
 * them. */
void cmd_history_keep_cells(const struct cmd_common *c,
			    struct prio_cell *cells, size_t n);
void cmd_history_free_cells(struct prio_cell *cells, size_t n);

/* A time as ISO-8601 UTC with Z ("2026-11-26T19:36:45Z"). */
const char *cmd_history_time(time_t t, char *buf, size_t size);

/* Draw values over the series' times on stdout: a title line, the chart
 * with its scale on the left, the first and last time under it, and what
 * its marks mean.  lo and hi fix the scale (NaN: from the values);
 * ascii forces ASCII (else Unicode blocks in a UTF-8 locale). */
void cmd_history_chart(const struct cmd_common *c, const char *title,
		       const time_t *times, const double *values, size_t n,
		       double lo, double hi, bool ascii);

#endif
