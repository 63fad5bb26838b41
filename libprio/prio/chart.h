/* SPDX-License-Identifier: MIT */
/*
 * A terminal chart of one series (fstree-show --history, prio-calc
 * --history): a filled column chart, one column band per point, drawn with
 * Unicode's lower eighth blocks (U+2581..U+2588, eight steps per line) or,
 * without a UTF-8 locale, ASCII (two steps per line: '#' a whole cell, '.'
 * a lower half).  A pure function of the values and the frame, so
 * that the tests can check where each point lands.
 *
 * Scale: from lo to hi (both finite, lo < hi, e.g. 0..1 for FairShare), or
 * when either is NaN from the smallest to the largest finite value.  Every
 * finite value shows at least one step, so a point at the bottom of the
 * scale is still seen; a constant series draws at half height.
 *
 * Points and columns: with n points and width w >= n, point i takes the
 * columns [i*k, i*k+k) with k = w/n (the chart is n*k wide); with w < n
 * each column holds the points [c*n/w, (c+1)*n/w) and shows the largest
 * (the chart says so).  Values that cannot be drawn keep their column
 * recognisable: +inf (a Level FS with no usage) is a column full to the
 * top with '^' at the top; NaN (the value is not known: a user or job
 * missing from that snapshot) an empty column with '?' on the bottom line;
 * -inf an empty column with '_' on the bottom line.
 */
#ifndef PRIO_CHART_H
#define PRIO_CHART_H

#include <stdbool.h>
#include <stddef.h>

struct prio_chart {
	int width, height;  /* the drawing: columns used, lines */
	int per_column;     /* points per column (> 1: the largest shown) */
	int band;           /* columns per point (1 when per_column > 1) */
	double lo, hi;      /* the scale used */
	/* height lines, top first, each width columns (UTF-8 when unicode),
	 * no newline; owned, prio_chart_free. */
	char **lines;
};

/* Draw values[0..n) in at most width columns and exactly height lines
 * (width, height >= 1).  Returns 0, or -1 (n == 0, a bad frame, or no
 * memory) with c zeroed. */
int prio_chart_draw(struct prio_chart *c, const double *values, size_t n,
		    int width, int height, double lo, double hi, bool unicode);
/* The column band of point i (first column, count) in a drawn chart. */
void prio_chart_point_columns(const struct prio_chart *c, size_t n, size_t i,
			      int *first, int *count);
void prio_chart_free(struct prio_chart *c);

#endif
