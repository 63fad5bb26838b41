/* SPDX-License-Identifier: MIT */
/* The terminal chart of a series (chart.c): where each point lands (its
 * column band, its height in eighths or ASCII halves), the scale given or
 * found, a constant series, one point, values that cannot be drawn (+inf
 * Level FS of an association with no usage, NaN for a missing row), and
 * more points than columns. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "prio/chart.h"

/* The cell at column x of an ASCII line. */
static char at(const struct prio_chart *c, int y, int x)
{
	cr_assert_lt(x, (int)strlen(c->lines[y]));
	return c->lines[y][x];
}

/* Lines of a Unicode chart as cell strings: x-th UTF-8 character. */
static const char *ucell(const struct prio_chart *c, int y, int x,
			 char out[4])
{
	const unsigned char *p = (const unsigned char *)c->lines[y];

	for (int k = 0; k < x; k++)
		p += *p >= 0x80 ? 3 : 1;
	memset(out, 0, 4);
	memcpy(out, p, *p >= 0x80 ? 3 : 1);
	return out;
}

Test(chart, ascii_extremes_on_their_rows_and_columns)
{
	/* FairShare on a fixed 0..1 scale: 1.0 fills every line, 0.5 half */
	const double v[] = {0.5, 1.0, 0.0, 0.25};
	struct prio_chart c;
	int first, count;

	cr_assert_eq(prio_chart_draw(&c, v, 4, 20, 4, 0, 1, false), 0);
	cr_assert_eq(c.width, 20);
	cr_assert_eq(c.band, 5);
	cr_assert_eq(c.height, 4);
	for (int y = 0; y < 4; y++)
		cr_assert_eq(strlen(c.lines[y]), 20);
	/* point 1 (1.0) is full to the top in columns 5..9 */
	prio_chart_point_columns(&c, 4, 1, &first, &count);
	cr_assert_eq(first, 5);
	cr_assert_eq(count, 5);
	for (int y = 0; y < 4; y++)
		cr_assert_eq(at(&c, y, 7), '#');
	/* point 2 (0.0): one step, a '.' on the bottom line only */
	cr_assert_eq(at(&c, 3, 10), '.');
	cr_assert_eq(at(&c, 2, 10), ' ');
	/* point 0 (0.5): 1 + round(0.5 * 7) = 5 steps of 8: two whole lines
	 * and a half */
	cr_assert_eq(at(&c, 3, 0), '#');
	cr_assert_eq(at(&c, 2, 0), '#');
	cr_assert_eq(at(&c, 1, 0), '.');
	cr_assert_eq(at(&c, 0, 0), ' ');
	prio_chart_free(&c);
}

Test(chart, unicode_eighths_and_found_scale)
{
	/* no scale given: from the smallest (one eighth) to the largest
	 * (full) */
	const double v[] = {100, 300, 200};
	struct prio_chart c;
	char cell[4];

	cr_assert_eq(prio_chart_draw(&c, v, 3, 3, 2, NAN, NAN, true), 0);
	cr_assert_float_eq(c.lo, 100, 0);
	cr_assert_float_eq(c.hi, 300, 0);
	cr_assert_eq(c.band, 1);
	cr_assert_str_eq(ucell(&c, 1, 0, cell), "\xe2\x96\x81"); /* ▁ */
	cr_assert_str_eq(ucell(&c, 0, 0, cell), " ");
	cr_assert_str_eq(ucell(&c, 0, 1, cell), "\xe2\x96\x88"); /* █ */
	cr_assert_str_eq(ucell(&c, 1, 1, cell), "\xe2\x96\x88");
	/* 200: 1 + round(0.5 * 15) = 9 eighths: a full line and one */
	cr_assert_str_eq(ucell(&c, 1, 2, cell), "\xe2\x96\x88");
	cr_assert_str_eq(ucell(&c, 0, 2, cell), "\xe2\x96\x81");
	prio_chart_free(&c);
}

Test(chart, constant_series_at_half_height)
{
	const double v[] = {0.25, 0.25, 0.25};
	struct prio_chart c;

	cr_assert_eq(prio_chart_draw(&c, v, 3, 6, 4, NAN, NAN, false), 0);
	cr_assert_float_eq(c.lo, 0.25, 0);
	cr_assert_float_eq(c.hi, 0.25, 0);
	for (int x = 0; x < 6; x++) {
		cr_assert_eq(at(&c, 3, x), '#');
		cr_assert_eq(at(&c, 2, x), '#');
		cr_assert_eq(at(&c, 1, x), ' ');
	}
	prio_chart_free(&c);
}

Test(chart, one_point_takes_the_width)
{
	const double v[] = {0.75};
	struct prio_chart c;

	cr_assert_eq(prio_chart_draw(&c, v, 1, 7, 1, 0, 1, false), 0);
	cr_assert_eq(c.width, 7);
	cr_assert_str_eq(c.lines[0], "#######");
	prio_chart_free(&c);
}

Test(chart, infinite_and_missing_values_are_marked)
{
	/* Level FS: +inf for an association with no usage, NaN where the
	 * user is missing from a snapshot; the scale comes from the finite
	 * ones */
	const double v[] = {INFINITY, 2.0, NAN, 1.0};
	struct prio_chart c;
	char cell[4];

	cr_assert_eq(prio_chart_draw(&c, v, 4, 4, 3, NAN, NAN, false), 0);
	cr_assert_float_eq(c.lo, 1.0, 0);
	cr_assert_float_eq(c.hi, 2.0, 0);
	cr_assert_eq(at(&c, 0, 0), '^');
	cr_assert_eq(at(&c, 1, 0), '#');
	cr_assert_eq(at(&c, 2, 0), '#');
	cr_assert_eq(at(&c, 0, 2), ' ');
	cr_assert_eq(at(&c, 1, 2), ' ');
	cr_assert_eq(at(&c, 2, 2), '?');
	cr_assert_eq(at(&c, 0, 1), '#');
	cr_assert_eq(at(&c, 2, 3), '.');
	prio_chart_free(&c);
	/* the same marks, one column each, in a Unicode chart */
	cr_assert_eq(prio_chart_draw(&c, v, 4, 4, 3, NAN, NAN, true), 0);
	cr_assert_str_eq(ucell(&c, 0, 0, cell), "^");
	cr_assert_str_eq(ucell(&c, 2, 2, cell), "?");
	cr_assert_str_eq(ucell(&c, 2, 3, cell), "\xe2\x96\x81");
	prio_chart_free(&c);
	/* nothing finite at all: every column marked, nothing else */
	{
		const double w[] = {INFINITY, NAN};

		cr_assert_eq(prio_chart_draw(&c, w, 2, 2, 2, NAN, NAN, false),
			     0);
		cr_assert_str_eq(c.lines[0], "^ ");
		cr_assert_str_eq(c.lines[1], "#?");
		prio_chart_free(&c);
	}
}

Test(chart, more_points_than_columns_show_the_largest)
{
	/* 10 points in 4 columns: columns of points [0,2) [2,5) [5,7)
	 * [7,10); the peak (index 7, 1.0) lands in column 3 and only there is full */
	double v[10];
	struct prio_chart c;
	int first, count;

	for (int i = 0; i < 10; i++)
		v[i] = 0.1;
	v[7] = 1.0;
	cr_assert_eq(prio_chart_draw(&c, v, 10, 4, 2, 0, 1, false), 0);
	cr_assert_eq(c.width, 4);
	cr_assert_eq(c.per_column, 3);
	prio_chart_point_columns(&c, 10, 7, &first, &count);
	cr_assert_eq(first, 3);
	cr_assert_eq(count, 1);
	prio_chart_point_columns(&c, 10, 0, &first, &count);
	cr_assert_eq(first, 0);
	prio_chart_point_columns(&c, 10, 1, &first, &count);
	cr_assert_eq(first, 0);
	prio_chart_point_columns(&c, 10, 2, &first, &count);
	cr_assert_eq(first, 1);
	prio_chart_point_columns(&c, 10, 3, &first, &count);
	cr_assert_eq(first, 1);
	cr_assert_str_eq(c.lines[0], "   #");
	cr_assert_str_eq(c.lines[1], "...#");
	prio_chart_free(&c);
}

Test(chart, bad_frames_are_refused)
{
	const double v[] = {1};
	struct prio_chart c;

	cr_assert_eq(prio_chart_draw(&c, v, 0, 10, 10, 0, 1, false), -1);
	cr_assert_eq(prio_chart_draw(&c, v, 1, 0, 10, 0, 1, false), -1);
	cr_assert_eq(prio_chart_draw(&c, v, 1, 10, 0, 0, 1, false), -1);
	cr_assert_null(c.lines);
}
