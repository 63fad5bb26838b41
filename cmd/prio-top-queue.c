/* SPDX-License-Identifier: MIT */
/*
 * prio-top's queue view: pending jobs in scheduling order (or sorted by any
 * column), one line per job and partition, as prio-calc --rank and sprio
 * see them: rank, job, user, account, partition, QOS, priority, then one
 * bar of the priority's weighted terms (one letter per term, sprio's
 * letters: A age, B assoc, F fairshare, J jobsize, P partition, Q qos, T
 * tres, S site; the header's legend names them and their weights) scaled
 * to the largest priority of the queue, and Slurm's pending reason.  After
 * a what-if a MOVED column tells how many places each job moved in its
 * partition.
 *
 * Column widths come from the data (measured once per reload or what-if),
 * then fit the terminal: text columns shrink, then the least needed ones
 * go, so 80 columns keep every column of a usual site.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio-top.h"

/* Column order on screen. */
static const enum prio_top_col order[] = {
    PRIO_TOP_COL_RANK,	  PRIO_TOP_COL_MOVED,	 PRIO_TOP_COL_JOB,
    PRIO_TOP_COL_USER,	  PRIO_TOP_COL_ACCOUNT,	 PRIO_TOP_COL_PARTITION,
    PRIO_TOP_COL_QOS,	  PRIO_TOP_COL_PRIORITY, PRIO_TOP_COL_FORECAST,
    PRIO_TOP_COL_START,	  PRIO_TOP_COL_FACTORS,	 PRIO_TOP_COL_REASON,
};
#define NORDER (sizeof(order) / sizeof(order[0]))

/* Headers for columns narrower than their full header. */
static const char *const short_header[PRIO_TOP_COL_COUNT] = {
    [PRIO_TOP_COL_ACCOUNT] = "ACCT",  [PRIO_TOP_COL_PARTITION] = "PART",
    [PRIO_TOP_COL_PRIORITY] = "PRIO", [PRIO_TOP_COL_MOVED] = "MOVE",
    [PRIO_TOP_COL_START] = "START",
};

static const char *header_in(enum prio_top_col c, int width)
{
	const char *h = prio_top_col_info(c)->header;

	return scr_width(h) > width && short_header[c] ? short_header[c] : h;
}

/* Most a text column takes, and the least it shrinks to. */
static const int cap[PRIO_TOP_COL_COUNT] = {
    [PRIO_TOP_COL_USER] = 20,	   [PRIO_TOP_COL_ACCOUNT] = 20,
    [PRIO_TOP_COL_PARTITION] = 16, [PRIO_TOP_COL_QOS] = 16,
    /* Slurm's longest reasons are about 95 columns: a wide screen shows
     * them whole (layout: the bar gives way first) */
    [PRIO_TOP_COL_REASON] = 100,
};
static const int least[PRIO_TOP_COL_COUNT] = {
    [PRIO_TOP_COL_USER] = 5,	  [PRIO_TOP_COL_ACCOUNT] = 6,
    [PRIO_TOP_COL_PARTITION] = 5, [PRIO_TOP_COL_QOS] = 4,
    /* "Dependency", "Resources", "Priority" whole */
    [PRIO_TOP_COL_REASON] = 10,
};
#define BAR_LEAST 10

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Natural widths over every row: once per data change.  Numbers by their
 * largest value, names once per distinct string. */
static void measure(struct top_app *a)
{
	static const enum prio_top_col text[] = {
	    PRIO_TOP_COL_USER, PRIO_TOP_COL_ACCOUNT, PRIO_TOP_COL_PARTITION,
	    PRIO_TOP_COL_QOS, PRIO_TOP_COL_REASON};
	const struct prio_top *t = &a->model;
	const struct prio_snapshot *snap = t->snap;
	uint32_t nids = snap->strings.count + 1, max_job = 0, max_prio = 0,
		 max_moved = 0;
	int *idw;
	bool any_new = false;

	if (a->measured_gen == a->data_gen && a->measured_gen)
		return;
	for (size_t i = 0; i < NORDER; i++)
		a->natural[order[i]] = scr_width(header_in(order[i], 0));
	a->any_site = a->any_nice = a->any_start = false;
	idw = calloc(nids, sizeof(*idw)); /* width + 1; 0: not yet */
	for (uint32_t k = 0; k < t->njobs; k++) {
		const struct prio_top_job *j = &t->jobs[k];
		const struct prio_job *job = &snap->jobs[j->job];

		if (job->job_id > max_job)
			max_job = job->job_id;
		if (j->priority > max_prio)
			max_prio = j->priority;
		if (j->change == PRIO_TOP_MOVED &&
		    (uint32_t)(j->moved < 0 ? -j->moved : j->moved) > max_moved)
			max_moved =
			    (uint32_t)(j->moved < 0 ? -j->moved : j->moved);
		any_new = any_new || j->change == PRIO_TOP_NEW;
		for (int i = 0; i < 5; i++) {
			prio_id id = prio_top_cell_id(t, j, text[i]);
			int w;

			if (id == PRIO_NO_ID || id >= nids)
				continue;
			if (idw && idw[id])
				w = idw[id] - 1;
			else {
				w = scr_width(prio_snapshot_str(snap, id));
				if (idw)
					idw[id] = w + 1;
			}
			if (w > a->natural[text[i]])
				a->natural[text[i]] = w;
		}
		a->any_start = a->any_start || job->start_time != 0;
		/* (the widest, a whole timestamp, ends the search) */
		if (a->natural[PRIO_TOP_COL_FORECAST] < 19 &&
		    prio_top_forecast_row(t, j)) {
			char b[32];
			int w = scr_width(prio_top_cell(
			    t, j, PRIO_TOP_COL_FORECAST, b, sizeof(b)));

			if (w > a->natural[PRIO_TOP_COL_FORECAST])
				a->natural[PRIO_TOP_COL_FORECAST] = w;
		}
		a->any_site = a->any_site || j->points[PRIO_FACTOR_SITE] != 0;
		a->any_nice = a->any_nice || j->points[PRIO_FACTOR_NICE] != 0;
	}
	free(idw);
#define AT_LEAST(c, w)                                                         \
	do {                                                                   \
		if (a->natural[c] < (w))                                       \
			a->natural[c] = (w);                                   \
	} while (0)
	AT_LEAST(PRIO_TOP_COL_RANK, digits(t->njobs));
	AT_LEAST(PRIO_TOP_COL_JOB, digits(max_job));
	AT_LEAST(PRIO_TOP_COL_PRIORITY, digits(max_prio));
	AT_LEAST(PRIO_TOP_COL_MOVED, max_moved ? digits(max_moved) + 1 : 0);
	AT_LEAST(PRIO_TOP_COL_MOVED, any_new ? 3 : 0);
	/* a timestamp as squeue --start prints it */
	AT_LEAST(PRIO_TOP_COL_START, a->any_start ? 19 : 0);
#undef AT_LEAST
	for (int c = 0; c < PRIO_TOP_COL_COUNT; c++)
		if (cap[c] && a->natural[c] > cap[c])
			a->natural[c] = cap[c];
	a->measured_gen = a->data_gen;
}

/* Place the columns in `cols` screen columns (after the mark column). */
static void layout(struct top_app *a, int cols)
{
	static const enum prio_top_col shrink[] = {
	    PRIO_TOP_COL_REASON, PRIO_TOP_COL_ACCOUNT, PRIO_TOP_COL_USER,
	    PRIO_TOP_COL_QOS, PRIO_TOP_COL_PARTITION};
	/* our forecast's start after the reason: when a job starts matters
	 * more than Slurm's word for why it waits, less than whose it is */
	static const enum prio_top_col drop[] = {
	    PRIO_TOP_COL_ACCOUNT,  PRIO_TOP_COL_QOS,
	    PRIO_TOP_COL_REASON,   PRIO_TOP_COL_FORECAST,
	    PRIO_TOP_COL_USER,	   PRIO_TOP_COL_PARTITION,
	    PRIO_TOP_COL_MOVED};
	int w[PRIO_TOP_COL_COUNT] = {0};
	bool shown[PRIO_TOP_COL_COUNT] = {false};
	int used = 0, x = 1;
	/* the text columns at their width, the bar takes the rest: it gives
	 * way before any text is cut, down to BAR_LEAST (issue 16: a whole
	 * REASON matters more than a long bar) */
	int bar_least = BAR_LEAST;

	for (size_t i = 0; i < NORDER; i++) {
		enum prio_top_col c = order[i];

		/* Slurm's estimate only where there is room: placed after
		 * the others, below */
		shown[c] = (c != PRIO_TOP_COL_MOVED || a->model.before) &&
			   (c != PRIO_TOP_COL_FORECAST || a->model.forecast) &&
			   c != PRIO_TOP_COL_START;
		w[c] = a->natural[c];
	}
	for (;;) {
		used = 1;
		for (size_t i = 0; i < NORDER; i++)
			if (shown[order[i]] && order[i] != PRIO_TOP_COL_FACTORS)
				used += w[order[i]] + 1;
		if (cols - used >= bar_least)
			break;
		bool changed = false;
		for (size_t i = 0;
		     i < sizeof(shrink) / sizeof(shrink[0]) && !changed; i++)
			if (shown[shrink[i]] &&
			    w[shrink[i]] > least[shrink[i]]) {
				int need = bar_least - (cols - used);
				int room = w[shrink[i]] - least[shrink[i]];

				w[shrink[i]] -= need < room ? need : room;
				changed = true;
			}
		for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]) &&
				   !changed && cols - used < BAR_LEAST;
		     i++)
			if (shown[drop[i]]) {
				shown[drop[i]] = false;
				changed = true;
			}
		if (!changed)
			break;
	}
	/* Slurm's start estimate when some job has one and the bar keeps
	 * its least with it; never in place of another column */
	if (a->any_start) {
		int need = w[PRIO_TOP_COL_START] + 1;
		int room = cols - used - bar_least, take = 0;

		/* the reason may give way down to its least, nothing else */
		if (room < need && shown[PRIO_TOP_COL_REASON]) {
			take =
			    w[PRIO_TOP_COL_REASON] - least[PRIO_TOP_COL_REASON];
			if (take > need - room)
				take = need - room;
		}
		if (room + take >= need) {
			w[PRIO_TOP_COL_REASON] -= take;
			shown[PRIO_TOP_COL_START] = true;
			used += need - take;
		}
	}
	w[PRIO_TOP_COL_FACTORS] = cols - used > 1 ? cols - used : 1;
	for (size_t i = 0; i < NORDER; i++) {
		enum prio_top_col c = order[i];

		a->qx[c] = x;
		a->qw[c] = shown[c] ? w[c] : 0;
		if (shown[c])
			x += w[c] + 1;
	}
}

int top_queue_column_at(struct top_app *a, int x)
{
	for (size_t i = 0; i < NORDER; i++) {
		enum prio_top_col c = order[i];

		if (a->qw[c] && x >= a->qx[c] && x < a->qx[c] + a->qw[c] + 1)
			return c;
	}
	return -1;
}

/* The stacked bar: each positive term gets cells in proportion (largest
 * remainders), the whole bar in proportion to the queue's top priority. */
static void bar(struct top_app *a, int row, int x, int width,
		const struct prio_top_job *j)
{
	struct scr *s = &a->scr;
	double pos = 0, exact[PRIO_FACTOR_COUNT];
	int cells[PRIO_FACTOR_COUNT] = {0}, fill, given = 0;

	for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
		if (f != PRIO_FACTOR_NICE && j->points[f] > 0)
			pos += j->points[f];
	if (pos <= 0 || a->model.max_sum <= 0)
		return;
	fill =
	    (int)lround((j->sum > 0 ? j->sum : 0) / a->model.max_sum * width);
	if (fill < 1)
		fill = 1;
	if (fill > width)
		fill = width;
	for (int f = 0; f < PRIO_FACTOR_COUNT; f++) {
		exact[f] = f != PRIO_FACTOR_NICE && j->points[f] > 0
			       ? j->points[f] / pos * fill
			       : 0;
		cells[f] = (int)floor(exact[f]);
		given += cells[f];
	}
	while (given < fill) {
		int best = -1;

		for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
			if (exact[f] > 0 &&
			    (best < 0 ||
			     exact[f] - cells[f] > exact[best] - cells[best]))
				best = f;
		if (best < 0)
			break;
		cells[best]++;
		exact[best] =
		    cells[best]; /* no second cell from one remainder */
		given++;
	}
	for (int f = 0; f < PRIO_FACTOR_COUNT; f++) {
		scr_fill(
		    s, row, x, cells[f],
		    (uint32_t)prio_factor_info((enum prio_factor)f)->letter,
		    (enum scr_role)(SCR_FACTOR + f));
		x += cells[f];
	}
}

static void title(struct top_app *a, int y)
{
	struct scr *s = &a->scr;

	scr_fill(s, y, 0, s->cols, ' ', SCR_TITLE);
	for (size_t i = 0; i < NORDER; i++) {
		enum prio_top_col c = order[i];
		const struct prio_top_col_info *ci = prio_top_col_info(c);
		enum scr_role role =
		    c == a->model.sort ? SCR_SORTED : SCR_TITLE;

		if (!a->qw[c])
			continue;
		if (ci->numeric)
			scr_text_right(s, y, a->qx[c], a->qw[c], role,
				       header_in(c, a->qw[c]));
		else
			scr_text(s, y, a->qx[c], a->qw[c], role,
				 c == PRIO_TOP_COL_FACTORS
				     ? "FACTORS"
				     : header_in(c, a->qw[c]));
		if (role == SCR_SORTED)
			scr_paint(s, y, a->qx[c], a->qw[c], SCR_SORTED,
				  SCR_ROLE_COUNT);
	}
}

static void line(struct top_app *a, int y, uint32_t pos)
{
	struct scr *s = &a->scr;
	const struct prio_top_job *j = &a->model.jobs[a->model.view[pos]];
	uint32_t id = a->model.snap->jobs[j->job].job_id;
	bool marked = top_marked(a, id);
	enum scr_role text_role = marked ? SCR_MARKED : SCR_NORMAL;
	char buf[32];

	if (marked)
		scr_text(s, y, 0, 1, SCR_MARKED, "*");
	for (size_t i = 0; i < NORDER; i++) {
		enum prio_top_col c = order[i];
		const char *text;

		if (!a->qw[c])
			continue;
		if (c == PRIO_TOP_COL_FACTORS) {
			bar(a, y, a->qx[c], a->qw[c], j);
			continue;
		}
		text = prio_top_cell(&a->model, j, c, buf, sizeof(buf));
		if (c == PRIO_TOP_COL_MOVED && j->change == PRIO_TOP_MOVED) {
			/* the sign drawn as an arrow */
			enum scr_role r = j->moved > 0 ? SCR_UP : SCR_DOWN;
			int w = scr_width(text);

			scr_text_right(s, y, a->qx[c], a->qw[c], r, text);
			scr_fill(
			    s, y, a->qx[c] + a->qw[c] - w, 1,
			    scr_glyph(s, j->moved > 0 ? SCR_G_UP : SCR_G_DOWN),
			    r);
		} else if (c == PRIO_TOP_COL_MOVED) {
			scr_text_right(s, y, a->qx[c], a->qw[c], SCR_NEW, text);
		} else if (prio_top_col_info(c)->numeric) {
			scr_text_right(s, y, a->qx[c], a->qw[c], text_role,
				       text);
		} else {
			scr_text_cut(s, y, a->qx[c], a->qw[c], text_role, text,
				     true);
		}
	}
	/* the cursor's line; in colour the bar and the moves keep theirs */
	if (pos == a->queue.selected && a->view == TOP_VIEW_QUEUE)
		scr_paint(s, y, 0, s->cols, SCR_SELECTED,
			  s->color ? SCR_UP : SCR_ROLE_COUNT);
}

void top_queue_draw(struct top_app *a, int y, int height)
{
	struct top_panel *p = &a->queue;

	p->count = a->model.nview;
	p->height = height - 1;
	top_panel_fit(p);
	top_queue_forecast(a);
	measure(a);
	layout(a, a->scr.cols);
	title(a, y);
	for (int r = 0; r < p->height && p->first + (uint32_t)r < p->count; r++)
		line(a, y + 1 + r, p->first + (uint32_t)r);
	if (!p->count && height > 1)
		scr_text(&a->scr, y + 1, 1, -1, SCR_NORMAL,
			 a->model.njobs ? "No job matches the filter."
					: "No pending job is in the queue.");
}

void top_queue_legend(struct top_app *a,
		      void (*item)(void *ctx, enum scr_role key_role,
				   const char *key, const char *text),
		      void *ctx)
{
	const struct prio_engine *e = a->model.engine;
	const struct prio_config *conf = &a->model.snap->conf;

	measure(a);
	for (int f = 0; f < PRIO_FACTOR_COUNT; f++) {
		const struct prio_factor_info *fi =
		    prio_factor_info((enum prio_factor)f);
		char key[2] = {fi->letter, '\0'}, text[256];

		/* nice takes points off: it shortens a bar, it is no part */
		if (f == PRIO_FACTOR_NICE ||
		    (f == PRIO_FACTOR_SITE && !a->any_site))
			continue;
		if (f == PRIO_FACTOR_TRES) {
			if (!e->tres_count)
				continue;
			snprintf(text, sizeof(text), "%s %s", fi->name,
				 conf->weight_tres.text ? conf->weight_tres.text
							: "");
		} else if (f == PRIO_FACTOR_SITE) {
			snprintf(text, sizeof(text), "%s", fi->name);
		} else {
			if (!e->weight[f])
				continue;
			snprintf(text, sizeof(text), "%s %u", fi->name,
				 e->weight[f]);
		}
		item(ctx, (enum scr_role)(SCR_FACTOR + f), key, text);
	}
}
