/* SPDX-License-Identifier: MIT */
/*
 * The terminal chart of a series (prio/chart.h): the picture an admin would
 * otherwise draw in a spreadsheet from fstree-show --history or prio-calc
 * --history.  Drawn cell by cell into fixed lines so that tests can read
 * back where each point landed.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prio/chart.h"

/* U+2581..U+2588: one to eight eighths of a cell, filled from the bottom. */
static const char *const eighths[9] = {
    " ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
    "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"};

void prio_chart_free(struct prio_chart *c)
{
	if (c->lines)
		for (int y = 0; y < c->height; y++)
			free(c->lines[y]);
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

/* The value a column shows: its points' largest (+inf wins, NaN only
 * when every point is NaN). */
static double column_value(const double *v, size_t from, size_t to)
{
	double best = NAN;

	for (size_t i = from; i < to; i++)
		if (!isnan(v[i]) && (isnan(best) || v[i] > best))
			best = v[i];
	return best;
}

void prio_chart_point_columns(const struct prio_chart *c, size_t n, size_t i,
			      int *first, int *count)
{
	if (c->per_column > 1) {
		/* the column whose range [c*n/w, (c+1)*n/w) holds i */
		size_t w = (size_t)c->width, col = i * w / n;

		while (col + 1 < w && (col + 1) * n / w <= i)
			col++;
		while (col > 0 && col * n / w > i)
			col--;
		*first = (int)col;
		*count = 1;
		return;
	}
	*first = (int)i * c->band;
	*count = c->band;
}

int prio_chart_draw(struct prio_chart *c, const double *values, size_t n,
		    int width, int height, double lo, double hi, bool unicode)
{
	int steps_per_line = unicode ? 8 : 2, cols, top;
	double *colv;
	size_t cell = unicode ? 3 : 1;

	memset(c, 0, sizeof(*c));
	if (!n || width < 1 || height < 1)
		return -1;
	if ((size_t)width >= n) {
		c->band = (int)((size_t)width / n);
		c->per_column = 1;
		cols = c->band * (int)n;
	} else {
		c->band = 1;
		c->per_column = (int)((n + (size_t)width - 1) / (size_t)width);
		cols = width;
	}
	c->width = cols;
	c->height = height;
	if (isnan(lo) || isnan(hi)) {
		lo = INFINITY;
		hi = -INFINITY;
		for (size_t i = 0; i < n; i++)
			if (isfinite(values[i])) {
				lo = values[i] < lo ? values[i] : lo;
				hi = values[i] > hi ? values[i] : hi;
			}
		if (lo > hi)
			lo = hi = 0;
	}
	c->lo = lo;
	c->hi = hi;
	colv = malloc((size_t)cols * sizeof(*colv));
	c->lines = calloc((size_t)height, sizeof(*c->lines));
	if (!colv || !c->lines) {
		free(colv);
		prio_chart_free(c);
		return -1;
	}
	for (int y = 0; y < height; y++)
		if (!(c->lines[y] = malloc((size_t)cols * cell + 1))) {
			free(colv);
			prio_chart_free(c);
			return -1;
		}
	for (int x = 0; x < cols; x++) {
		size_t from, to;

		if (c->per_column > 1) {
			from = (size_t)x * n / (size_t)width;
			to = (size_t)(x + 1) * n / (size_t)width;
		} else {
			from = (size_t)(x / c->band);
			to = from + 1;
		}
		colv[x] = column_value(values, from, to);
	}
	top = height * steps_per_line;
	for (int x = 0; x < cols; x++) {
		double v = colv[x];
		int level; /* steps filled from the bottom */
		char mark = 0;

		if (isnan(v)) {
			level = 0;
			mark = '?';
		} else if (v == INFINITY) {
			level = top;
			mark = '^';
		} else if (v == -INFINITY) {
			level = 0;
			mark = '_';
		} else if (hi > lo) {
			double f = (v - lo) / (hi - lo);

			f = f < 0 ? 0 : f > 1 ? 1 : f;
			level = 1 + (int)lround(f * (top - 1));
		} else {
			level = top / 2 > 0 ? top / 2 : 1;
		}
		for (int y = 0; y < height; y++) {
			/* line y (0 at the top) holds the steps from
			 * (height-1-y)*steps_per_line */
			int below = (height - 1 - y) * steps_per_line;
			int in = level - below;
			char *at = c->lines[y] + (size_t)x * cell;

			in = in < 0 ? 0 : in > steps_per_line ? steps_per_line : in;
			if (mark == '^' && y == 0)
				in = -1;
			else if ((mark == '?' || mark == '_') && y == height - 1)
				in = -1;
			if (in < 0) {
				/* one column wide in either alphabet */
				memset(at, ' ', cell);
				at[0] = mark;
				if (unicode) {
					at[1] = ' ';
					at[2] = ' ';
				}
			} else if (unicode) {
				memcpy(at, eighths[in], in ? 3 : 1);
				if (!in)
					memset(at, ' ', 3);
			} else {
				*at = in == 2 ? '#' : in == 1 ? '.' : ' ';
			}
		}
	}
	/* A Unicode cell is 3 bytes wide in memory but one column on screen:
	 * marks and blanks took 3 spaces; squeeze each line to its text. */
	for (int y = 0; y < height; y++) {
		char *line = c->lines[y];
		size_t out = 0;

		for (int x = 0; x < cols; x++) {
			const char *at = line + (size_t)x * cell;

			if ((unsigned char)at[0] >= 0x80) {
				memmove(line + out, at, 3);
				out += 3;
			} else {
				line[out++] = at[0];
			}
		}
		line[out] = '\0';
	}
	free(colv);
	return 0;
}
