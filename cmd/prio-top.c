/* SPDX-License-Identifier: MIT */
/*
 * prio-top: top for Slurm priorities.  The ranked queue with each job's
 * priority as a bar of its weighted factors, the fairshare tree with Level
 * FS, and why any job waits, refreshed as the data changes and as the
 * clock runs (age grows, usage decays).  It computes nothing of its own:
 * libprio's viewer model runs prio-calc's and fstree-show's engines.
 *
 * This file is the screen manager (htop's ScreenManager): options, the
 * frame (header, view, status line, function bar), prompts, what keys do,
 * and the event loop.  -b/--once write frames as text instead of starting
 * curses.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "prio-top.h"
#include "prio/calc_time.h"

#define USAGE                                                                  \
	"prio-top [SOURCES | --live [--refresh S]] [--once | -b [-n COUNT]] "  \
	"[-d S] [--now T] [--speed X] [--size COLSxROWS] [--view V] "          \
	"[--select ID] [-s COL] [-u USER] [-A ACCT] [-p PART] [--filter "      \
	"TEXT] "                                                               \
	"[--change K=V] [--no-color] [--ascii] [--mouse]"

enum {
	OPT_ONCE = OPT_COMMON_LAST + 1,
	OPT_SPEED,
	OPT_SIZE,
	OPT_VIEW,
	OPT_SELECT,
	OPT_FILTER,
	OPT_CHANGE,
	OPT_NO_COLOR,
	OPT_ASCII,
	OPT_MOUSE,
	OPT_NO_MOUSE,
	OPT_REFRESH,
	OPT_LIST_KEYS,
	OPT_NO_FORECAST,
	OPT_FORECAST_HORIZON,
};

static void help(void)
{
	printf(
	    "Usage: %s\n\n"
	    "top for Slurm priorities: the queue in scheduling order with each "
	    "job's\npriority as a bar of its weighted factors, the fairshare "
	    "tree, and why any\njob waits; refreshed when the sources change "
	    "and as the clock runs.\nThe clock starts at Slurm's last "
	    "priority calculation (what sprio shows),\nfound from the stored "
	    "priorities, else at NOW; --now sets it.\n\n"
	    "Display:\n"
	    "      --once             one frame as text on standard output, "
	    "then exit\n"
	    "  -b, --batch            frames as text (no curses), every -d "
	    "seconds\n"
	    "  -n, --iterations=N     N frames, then exit\n"
	    "  -d, --delay=SECONDS    between screen updates (default 3)\n"
	    "      --size=COLSxROWS   the frame's size with --once and -b "
	    "(default\n"
	    "                         $COLUMNS x $LINES, else 80x24)\n"
	    "      --view=VIEW        start in queue, tree, detail or help\n"
	    "      --select=ID        the job (a number) or user association "
	    "(USER,\n"
	    "                         ACCOUNT/USER) under the cursor; detail "
	    "explains it\n"
	    "  -s, --sort=COLUMN      rank, moved, jobid, user, account, "
	    "partition, qos,\n"
	    "                         priority, factors, reason, start "
	    "(Slurm's),\n"
	    "                         forecast (ours); -COLUMN descending\n"
	    "  -u, --user=USER        only this user's jobs\n"
	    "  -A, --account=ACCOUNT  only this account's jobs\n"
	    "  -p, --partition=PART   only this partition's jobs\n"
	    "      --filter=TEXT      only jobs containing TEXT\n"
	    "      --change=KEY=VALUE a what-if, as the w key: the queue shows "
	    "who moved\n"
	    "                         (repeatable; --set changes the data "
	    "before it is shown)\n"
	    "      --no-color         no colours (also NO_COLOR)\n"
	    "      --ascii            ASCII characters only\n"
	    "      --mouse            mouse clicks and wheel (--no-mouse: "
	    "not)\n"
	    "      --list-keys        the key table, then exit\n"
	    "      --no-forecast      no START column (our forecast) and no "
	    "forecast in\n"
	    "                         the detail view's \"When\" part\n"
	    "      --forecast-horizon=MINUTES  forecast that far from the "
	    "snapshot's NOW\n"
	    "                         (default the scheduler's bf_window); "
	    "later: \"after\"\n"
	    "Clock and refresh:\n"
	    "      --speed=X          the clock runs X times real time (0: "
	    "stopped)\n"
	    "      --refresh=SECONDS  with --live, between captures (default "
	    "30; never\n"
	    "                         below the config file's live "
	    "min-interval)\n",
	    USAGE);
	cmd_common_help_sources(stdout);
	printf("      --help             this help, then exit\n"
	       "      --version          the version, then exit\n"
	       "\nKeys: F1 or h in the viewer, --list-keys, or prio-top(1).\n"
	       "Exit status: 0 success, 2 usage or input error.  See "
	       "prio-top(1).\n");
}

double top_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void top_status(struct top_app *a, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_error = error;
}

/* ---- marks ----------------------------------------------------------------
 */

static uint32_t mark_pos(const struct top_marks *m, uint32_t id)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool top_marked(const struct top_app *a, uint32_t job_id)
{
	uint32_t at = mark_pos(&a->marks, job_id);

	return at < a->marks.n && a->marks.ids[at] == job_id;
}

void top_mark_toggle(struct top_app *a, uint32_t job_id)
{
	struct top_marks *m = &a->marks;
	uint32_t at = mark_pos(m, job_id);

	if (at < m->n && m->ids[at] == job_id) {
		memmove(&m->ids[at], &m->ids[at + 1],
			(m->n - at - 1) * sizeof(*m->ids));
		m->n--;
		return;
	}
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 16;
		uint32_t *ids = realloc(m->ids, cap * sizeof(*ids));

		if (!ids) {
			top_status(a, true, "out of memory");
			return;
		}
		m->ids = ids;
		m->cap = cap;
	}
	memmove(&m->ids[at + 1], &m->ids[at], (m->n - at) * sizeof(*m->ids));
	m->ids[at] = job_id;
	m->n++;
}

/* ---- the frame ------------------------------------------------------------
 */

struct header {
	struct top_app *a;
	int row, col, rows_max;
	bool draw;
};

/* One "label value" item, on this line when it fits, else the next. */
static void item(struct header *h, enum scr_role key_role, const char *key,
		 const char *text)
{
	struct scr *s = &h->a->scr;
	int need = scr_width(key) + (*key ? 1 : 0) + scr_width(text);

	if (h->col > 0 && h->col + 2 + need > s->cols) {
		h->row++;
		h->col = 0;
	}
	if (h->row >= h->rows_max)
		return; /* over the header's share of the screen: left out */
	if (h->col > 0)
		h->col += 2;
	if (h->draw) {
		h->col += scr_text(s, h->row, h->col, -1, key_role, key);
		if (*key)
			h->col++;
		h->col += scr_text(s, h->row, h->col, -1, SCR_VALUE, text);
	} else {
		h->col += need;
	}
}

static void legend_item(void *h, enum scr_role role, const char *key,
			const char *text)
{
	item(h, role, key, text);
}

static void newline(struct header *h)
{
	if (h->col > 0 && h->row < h->rows_max) {
		h->row++;
		h->col = 0;
	}
}

/* A short duration: "0s", "45s", "12m05s", "3h07m", "2d04h". */
static const char *span(int64_t secs, char *buf, size_t size)
{
	const char *sign = secs < 0 ? "-" : "";
	uint64_t v = (uint64_t)(secs < 0 ? -secs : secs);

	if (v < 60)
		snprintf(buf, size, "%s%llus", sign, (unsigned long long)v);
	else if (v < 3600)
		snprintf(buf, size, "%s%llum%02llus", sign,
			 (unsigned long long)(v / 60),
			 (unsigned long long)(v % 60));
	else if (v < 86400)
		snprintf(buf, size, "%s%lluh%02llum", sign,
			 (unsigned long long)(v / 3600),
			 (unsigned long long)(v % 3600 / 60));
	else
		snprintf(buf, size, "%s%llud%02lluh", sign,
			 (unsigned long long)(v / 86400),
			 (unsigned long long)(v % 86400 / 3600));
	return buf;
}

static const char *clock_text(const struct top_app *a, char *buf, size_t size)
{
	time_t now = a->model.now, snap = a->model.snap->now;
	struct tm tn, ts;
	char t[32];
	long d = (long)(now - snap);

	localtime_r(&now, &tn);
	localtime_r(&snap, &ts);
	if (tn.tm_year == ts.tm_year && tn.tm_yday == ts.tm_yday)
		strftime(t, sizeof(t), "%H:%M:%S", &tn);
	else
		strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tn);
	if (a->speed == 0)
		snprintf(buf, size, "%s (stopped)", t);
	else if (a->speed != 1)
		snprintf(buf, size, "%s (%s%s, x%g)", t, d < 0 ? "" : "+",
			 span(d, (char[32]){0}, 32), a->speed);
	else
		/* before the snapshot: Slurm's last calculation */
		snprintf(buf, size, "%s (%s%s)", t, d < 0 ? "" : "+",
			 span(d, (char[32]){0}, 32));
	return buf;
}

/* The header: where and when, what the queue holds, the weights as the
 * bars' legend.  Returns the lines used (draw false: only counts).  It
 * takes at most a third of what the frame's three other lines leave (at
 * least a line): in a small pane the queue must show twice as many lines
 * (five at 80x10), and the items come in the order they matter, so the
 * legend goes first. */
static int header(struct top_app *a, bool draw)
{
	const struct prio_top *t = &a->model;
	const struct prio_snapshot *snap = t->snap;
	int budget = (a->scr.rows - 3) / 3;
	struct header h = {a, 0, 0, budget < 1 ? 1 : budget, draw};
	char buf[256], b2[64];
	const char *cluster = snap->conf.cluster_name;

	item(&h, SCR_HEADER, "cluster", cluster && *cluster ? cluster : "-");
	item(&h, SCR_HEADER, "snapshot",
	     prio_timestamp_format(snap->now, b2, sizeof(b2)));
	item(&h, SCR_HEADER, "clock", clock_text(a, buf, sizeof(buf)));
	snprintf(buf, sizeof(buf), "%s ago",
		 span((int64_t)(a->elapsed - a->reloaded_at), b2, sizeof(b2)));
	item(&h, SCR_HEADER, "read", buf);
	newline(&h);
	snprintf(buf, sizeof(buf), "%u pending, %u running", t->pending,
		 t->running);
	item(&h, SCR_HEADER, "jobs", buf);
	snprintf(buf, sizeof(buf), "%u entries", t->njobs);
	item(&h, SCR_HEADER, "queue", buf);
	snprintf(buf, sizeof(buf), "%s, %u users",
		 prio_fs_algorithm_name(t->fs_algorithm),
		 snap->user_assoc_count);
	item(&h, SCR_HEADER, "fairshare", buf);
	if (t->nedits) {
		snprintf(buf, sizeof(buf), "%s%s (%u moved)",
			 t->edits[t->nedits - 1], t->nedits > 1 ? " ..." : "",
			 t->moved_count);
		item(&h, SCR_HEADER, "what-if", buf);
	}
	newline(&h);
	top_queue_legend(a, legend_item, &h);
	newline(&h);
	return h.row;
}

int top_header_lines(struct top_app *a)
{
	return header(a, false);
}

/* Bar items and where they were drawn, for mouse clicks. */
struct bar_item {
	enum top_action action;
	int x0, x1;
};
static struct bar_item bar_items[TOP_A_COUNT];
static int nbar_items;

static void function_bar(struct top_app *a, int y)
{
	struct scr *s = &a->scr;
	int x = 0;

	nbar_items = 0;
	scr_fill(s, y, 0, s->cols, ' ', SCR_NORMAL);
	for (int k = 0; k < TOP_A_COUNT; k++) {
		const struct top_action_info *ai =
		    top_action_info((enum top_action)k);
		char key[16];
		int w;

		if (!ai->label || !(ai->views & TOP_IN(a->view)))
			continue;
		top_keymap_bar_key(&a->keys, (enum top_action)k, key,
				   sizeof(key));
		if (!*key)
			continue;
		w = scr_width(key) + scr_width(ai->label);
		if (x + w > s->cols)
			break;
		bar_items[nbar_items++] =
		    (struct bar_item){(enum top_action)k, x, x + w};
		x += scr_text(s, y, x, -1, SCR_KEY, key);
		x += scr_text(s, y, x, -1, SCR_LABEL, ai->label);
		x++;
	}
}

static const char *prompt_label(enum top_prompt p)
{
	switch (p) {
	case TOP_PROMPT_SEARCH:
		return "Search: ";
	case TOP_PROMPT_FILTER:
		return "Filter: ";
	case TOP_PROMPT_USER:
		return "User: ";
	case TOP_PROMPT_ACCOUNT:
		return "Account: ";
	case TOP_PROMPT_PARTITION:
		return "Partition: ";
	case TOP_PROMPT_WHATIF:
		return "What-if (Key=Value, as --set): ";
	default:
		return "";
	}
}

static void status_line(struct top_app *a, int y)
{
	struct scr *s = &a->scr;
	const struct prio_top *t = &a->model;
	char right[256] = "", buf[128];
	int x;

	scr_fill(s, y, 0, s->cols, ' ', SCR_STATUS);
	if (a->prompt) {
		x = scr_text(s, y, 0, -1, SCR_PROMPT, prompt_label(a->prompt));
		x += scr_text(s, y, x, -1, SCR_STATUS, a->line);
		scr_fill(s, y, x, 1, '_', SCR_PROMPT);
		return;
	}
	if (a->view == TOP_VIEW_QUEUE) {
		size_t len = 0;

		len += (size_t)snprintf(
		    right + len, sizeof(right) - len, "sort %s%s",
		    prio_top_col_info(t->sort)->id, t->desc ? " desc" : "");
		if (t->filter.user)
			len +=
			    (size_t)snprintf(right + len, sizeof(right) - len,
					     "  user=%s", t->filter.user);
		if (t->filter.account)
			len +=
			    (size_t)snprintf(right + len, sizeof(right) - len,
					     "  account=%s", t->filter.account);
		if (t->filter.partition)
			len += (size_t)snprintf(
			    right + len, sizeof(right) - len, "  partition=%s",
			    t->filter.partition);
		if (t->filter.text)
			len +=
			    (size_t)snprintf(right + len, sizeof(right) - len,
					     "  filter=%s", t->filter.text);
		if (a->follow)
			len +=
			    (size_t)snprintf(right + len, sizeof(right) - len,
					     "  follow %u", a->follow_job);
		snprintf(right + len, sizeof(right) - len, "  %u/%u",
			 a->queue.count ? a->queue.selected + 1 : 0,
			 a->queue.count);
	} else if (a->view == TOP_VIEW_TREE) {
		snprintf(right, sizeof(right), "%u/%u",
			 a->tree.count ? a->tree.selected + 1 : 0,
			 a->tree.count);
	} else {
		snprintf(right, sizeof(right), "line %u/%u",
			 a->detail.count ? a->detail.first + 1 : 0,
			 a->detail.count);
	}
	/* an error takes the whole line */
	snprintf(buf, sizeof(buf), "%s",
		 *a->status && a->status_error ? "" : right);
	x = scr_width(buf);
	if (*a->status)
		scr_text_cut(s, y, 0, s->cols - x - 1,
			     a->status_error ? SCR_ERROR : SCR_STATUS,
			     a->status, true);
	if (x < s->cols)
		scr_text(s, y, s->cols - x, x, SCR_STATUS, buf);
}

void top_draw(struct top_app *a)
{
	struct scr *s = &a->scr;
	int head, body;

	scr_clear(s);
	head = header(a, true);
	body = s->rows - head - 2;
	if (body < 1)
		body = 1;
	switch (a->view) {
	case TOP_VIEW_QUEUE:
		top_queue_draw(a, head, body);
		break;
	case TOP_VIEW_TREE:
		top_tree_draw(a, head, body);
		break;
	case TOP_VIEW_DETAIL:
	case TOP_VIEW_HELP:
		top_detail_draw(a, head, body);
		break;
	case TOP_VIEW_COUNT:
		break;
	}
	if (s->rows >= 3)
		status_line(a, s->rows - 2);
	if (s->rows >= 2)
		function_bar(a, s->rows - 1);
}

/* ---- data ------------------------------------------------------------------
 */

/* The job under the queue's cursor, NULL when none. */
static const struct prio_top_job *selected_job(const struct top_app *a)
{
	if (!a->model.nview || a->queue.selected >= a->model.nview)
		return NULL;
	return &a->model.jobs[a->model.view[a->queue.selected]];
}

static uint32_t selected_assoc(const struct top_app *a)
{
	if (!a->model.ntree_view || a->tree.selected >= a->model.ntree_view)
		return PRIO_ASSOC_NONE;
	return a->model.nodes[a->model.tree_view[a->tree.selected]].assoc;
}

/* After the rows changed (sorted, filtered, folded): follow the followed
 * job. */
static void rows_changed(struct top_app *a)
{
	a->queue.count = a->model.nview;
	a->tree.count = a->model.ntree_view;
	if (a->follow) {
		uint32_t at =
		    prio_top_find_job(&a->model, a->follow_job, a->follow_part);

		if (at == UINT32_MAX)
			at = prio_top_find_job(&a->model, a->follow_job,
					       PRIO_NO_VAL);
		if (at != UINT32_MAX)
			top_panel_select(&a->queue, at);
		else
			top_status(a, false,
				   "job %u is not in the queue as shown",
				   a->follow_job);
	}
	top_panel_fit(&a->queue);
	top_panel_fit(&a->tree);
}

/* After new numbers (a load, the clock, a what-if): columns are measured
 * again. */
static void data_changed(struct top_app *a)
{
	a->data_gen++;
	rows_changed(a);
}

static time_t model_clock(const struct top_app *a)
{
	return a->clock0 + (time_t)floor(a->speed * (a->elapsed - a->t0));
}

static void error_status(struct top_app *a, const char *what,
			 const struct prio_error *err)
{
	char buf[1024];

	top_status(a, true, "%s: %s", what,
		   prio_error_format(err, buf, sizeof(buf)));
}

/* New data failed: say why, and that the screen still shows the old. */
static void reload_failed(struct top_app *a, const char *what,
			  const struct prio_error *err, time_t shown)
{
	char buf[1024], when[32];

	top_status(a, true, "%s failed, still showing the data of %s: %s", what,
		   prio_timestamp_format(shown, when, sizeof(when)),
		   prio_error_format(err, buf, sizeof(buf)));
}

/* The clock a snapshot starts at: --now's, else Slurm's last priority
 * calculation found from the stored priorities (what sprio shows), else
 * NOW, said on stderr at the start and in the status line on a reload.
 * The snapshot's usage is dated to that calculation: as the clock runs,
 * usage moves from it (prio_snapshot_at_calc_time). */
static time_t start_clock(struct top_app *a, struct prio_snapshot *snap,
			  bool first)
{
	struct prio_calc_time ct;
	struct prio_error err;
	struct prio_snapshot plain;
	const struct prio_snapshot *from = snap;
	char buf[512], when[32];
	time_t at = snap->now;
	int rc;

	a->first_calc = 0;
	if (a->c.now_set)
		return at;
	prio_error_clear(&err);
	/* --set changes what the stored priorities are compared with: the
	 * files as they are, read again without it (not a --live capture,
	 * which is gone) */
	if (a->c.set_count && !a->src.live) {
		unsigned saved = a->c.set_count;

		a->c.set_count = 0;
		/* (a failed load leaves nothing to free) */
		if (cmd_load_snapshot_from(&a->c, NULL, &plain, &err) == 0) {
			if (plain.now == snap->now)
				from = &plain;
			else
				prio_snapshot_free(&plain);
		}
		a->c.set_count = saved;
		prio_error_clear(&err);
	}
	rc = prio_calc_time_find_snapshot(from, &ct, &err);
	if (from != snap)
		prio_snapshot_free(&plain);
	if (rc < 0)
		return at; /* the model's own computation will say why */
	at = ct.at;
	prio_snapshot_at_calc_time(snap, &ct);
	/* the forecast's first priority calculation, as prio-calc's */
	a->first_calc = prio_calc_time_next(&ct, snap->now,
					    snap->conf.calc_period);
	if (ct.status == PRIO_CALC_TIME_NO_JOBS ||
	    ct.status == PRIO_CALC_TIME_NO_MATCH) {
		prio_calc_time_describe(&ct, buf, sizeof(buf));
		prio_timestamp_format(snap->now, when, sizeof(when));
		if (first)
			cmd_warn(&a->c,
				 "warning: Slurm's last priority calculation "
				 "%s: computing at NOW %s (--now sets the "
				 "clock)",
				 buf, when);
		else
			top_status(a, false,
				   "Slurm's last priority calculation %s: "
				   "clock at NOW %s",
				   buf, when);
	}
	prio_calc_time_free(&ct);
	return at;
}

/* A new snapshot (heap-allocated: a snapshot cannot move, its strings
 * point into it) replaces the model's, which keeps its data on an error.
 * The clock starts again from a new snapshot time. */
static void take_snapshot(struct top_app *a, struct prio_snapshot *snap,
			  const char *what)
{
	struct prio_error err;
	time_t old = a->model.snap->now, clock0 = a->clock0;
	double t0 = a->t0;
	uint32_t warnings = snap->warning_count;

	top_forecast_stop(a); /* it reads the model about to change */
	if (snap->now != old) {
		a->clock0 = start_clock(a, snap, false);
		a->t0 = a->elapsed;
	} else {
		snap->usage_at = a->model.snap->usage_at; /* the same capture */
	}
	prio_error_clear(&err);
	if (prio_top_replace(&a->model, snap, model_clock(a), &err) < 0) {
		a->clock0 = clock0;
		a->t0 = t0;
		reload_failed(a, what, &err, old);
		return;
	}
	a->reloaded_at = a->elapsed;
	if (warnings)
		top_status(a, false,
			   "%s: %u warnings (prio-calc --check tells them)",
			   what, warnings);
	else if (a->status_error)
		top_status(a, false, "%s", "");
	data_changed(a);
}

static void reload(struct top_app *a, const char *what)
{
	struct prio_snapshot *snap = calloc(1, sizeof(*snap));
	struct prio_error err;

	prio_error_clear(&err);
	if (!snap || top_source_reload(&a->src, snap, &err) < 0) {
		if (!snap)
			prio_error_set(&err, PRIO_ERR_NOMEM, "", 0, "",
				       "out of memory");
		free(snap);
		reload_failed(a, what, &err, a->model.snap->now);
		return;
	}
	take_snapshot(a, snap, what);
}

/* --live: a capture ended (rc 1: snap holds it) or failed (rc -1). */
static void captured(struct top_app *a, int rc, struct prio_snapshot *snap,
		     const struct prio_error *err)
{
	if (rc > 0) {
		take_snapshot(a, snap, "--live");
		return;
	}
	free(snap);
	if (rc < 0)
		reload_failed(a, "--live", err, a->model.snap->now);
}

/* The clock moved: compute at the new time.  A tick that kept the rows
 * (prio_top_advance's rows_kept) changes no column's width unless the
 * largest priority gains a digit or what-if moves are shown (they change
 * as the order does): then the columns are not measured again over every
 * row, and the frame costs what its visible rows cost. */
static void tick(struct top_app *a)
{
	struct prio_error err;
	time_t now = model_clock(a);
	uint32_t max_priority = a->model.max_priority;
	uint32_t moved = a->model.moved_count;

	/* a forecast reads the model in its thread: the clock waits */
	if (now == a->model.now || prio_top_needs_reload(&a->model) ||
	    top_forecast_busy(a))
		return;
	prio_error_clear(&err);
	if (prio_top_advance(&a->model, now, &err) < 0)
		error_status(a, "clock", &err);
	else if (a->model.rows_kept && !moved && !a->model.moved_count &&
		 snprintf(NULL, 0, "%u", max_priority) ==
		     snprintf(NULL, 0, "%u", a->model.max_priority))
		rows_changed(a);
	else
		data_changed(a);
}

/* ---- actions ------------------------------------------------------------- */

static void start_prompt(struct top_app *a, enum top_prompt p, const char *init)
{
	a->prompt = p;
	snprintf(a->line, sizeof(a->line), "%s", init ? init : "");
	a->line_len = strlen(a->line);
}

/* The next row (from the cursor, wrapping) that matches the search. */
static void search(struct top_app *a, bool from_next)
{
	const struct prio_top *t = &a->model;

	if (!*a->search)
		return;
	if (a->view == TOP_VIEW_QUEUE) {
		for (uint32_t k = 0; k < t->nview; k++) {
			uint32_t at =
			    (a->queue.selected + k + from_next) % t->nview;

			if (prio_top_row_matches(t, t->view[at], a->search)) {
				top_panel_select(&a->queue, at);
				return;
			}
		}
	} else if (a->view == TOP_VIEW_TREE) {
		for (uint32_t k = 0; k < t->ntree_view; k++) {
			uint32_t at =
			    (a->tree.selected + k + from_next) % t->ntree_view;
			const struct prio_assoc *as =
			    &t->snap->assocs[t->nodes[t->tree_view[at]].assoc];

			if (strcasestr(prio_snapshot_str(
					   t->snap, as->is_user ? as->user
								: as->account),
				       a->search)) {
				top_panel_select(&a->tree, at);
				return;
			}
		}
	}
	top_status(a, false, "\"%s\": not found", a->search);
}

static void set_filter(struct top_app *a, enum top_prompt which,
		       const char *value)
{
	struct prio_top_filter f = a->model.filter;
	const char *v = value && *value ? value : NULL;

	switch (which) {
	case TOP_PROMPT_USER:
		f.user = v;
		break;
	case TOP_PROMPT_ACCOUNT:
		f.account = v;
		break;
	case TOP_PROMPT_PARTITION:
		f.partition = v;
		break;
	case TOP_PROMPT_FILTER:
		f.text = v;
		break;
	default:
		return;
	}
	if (prio_top_set_filter(&a->model, &f) < 0)
		top_status(a, true, "out of memory");
	rows_changed(a);
}

static void what_if(struct top_app *a, const char *assignment)
{
	struct prio_error err;

	prio_error_clear(&err);
	top_forecast_stop(a);
	a->fc_failed = NULL; /* new data: a forecast may work on them */
	if (prio_top_set(&a->model, assignment, &err) < 0) {
		error_status(a, "what-if", &err);
		if (prio_top_needs_reload(&a->model))
			reload(a, "what-if");
		return;
	}
	data_changed(a);
	top_status(a, false, "what-if %s: %u queue entries moved", assignment,
		   a->model.moved_count);
}

static void what_if_reset(struct top_app *a)
{
	if (!a->model.nedits) {
		top_status(a, false, "no what-if change to drop");
		return;
	}
	top_forecast_stop(a);
	prio_top_clear_edits(&a->model);
	reload(a, "what-if reset");
	if (!a->status_error)
		top_status(a, false, "what-if changes dropped");
}

/* The columns shown, in screen order, for < and >. */
static void sort_step(struct top_app *a, int step)
{
	static const enum prio_top_col seq[] = {
	    PRIO_TOP_COL_RANK,	  PRIO_TOP_COL_MOVED,	 PRIO_TOP_COL_JOB,
	    PRIO_TOP_COL_USER,	  PRIO_TOP_COL_ACCOUNT,	 PRIO_TOP_COL_PARTITION,
	    PRIO_TOP_COL_QOS,	  PRIO_TOP_COL_PRIORITY, PRIO_TOP_COL_FORECAST,
	    PRIO_TOP_COL_START,	  PRIO_TOP_COL_FACTORS,	 PRIO_TOP_COL_REASON};
	const int n = (int)(sizeof(seq) / sizeof(seq[0]));
	int at = 0;

	for (int i = 0; i < n; i++)
		if (seq[i] == a->model.sort)
			at = i;
	for (int k = 0; k < n; k++) {
		at = (at + step + n) % n;
		if (a->qw[seq[at]] || (!a->qw[PRIO_TOP_COL_RANK] &&
				       seq[at] != PRIO_TOP_COL_MOVED))
			break;
	}
	prio_top_sort(&a->model, seq[at],
		      prio_top_col_info(seq[at])->desc_first);
	rows_changed(a);
}

static void sort_by(struct top_app *a, enum prio_top_col col)
{
	bool desc = col == a->model.sort ? !a->model.desc
					 : prio_top_col_info(col)->desc_first;

	prio_top_sort(&a->model, col, desc);
	rows_changed(a);
}

static void detail(struct top_app *a)
{
	if (a->view == TOP_VIEW_QUEUE) {
		const struct prio_top_job *j = selected_job(a);

		if (j)
			top_detail_open_job(a,
					    a->model.snap->jobs[j->job].job_id);
	} else if (a->view == TOP_VIEW_TREE) {
		uint32_t as = selected_assoc(a);

		if (as == PRIO_ASSOC_NONE)
			return;
		if (!a->model.snap->assocs[as].is_user) {
			prio_top_tree_collapse(&a->model, as,
					       !a->model.collapsed[as]);
			rows_changed(a);
		} else {
			top_detail_open_assoc(a, as);
		}
	}
}

static void whatif_prompt(struct top_app *a)
{
	char init[256] = "";
	uint32_t as = selected_assoc(a);

	if (a->view == TOP_VIEW_TREE && as != PRIO_ASSOC_NONE && as != 0) {
		const struct prio_snapshot *snap = a->model.snap;
		const struct prio_assoc *x = &snap->assocs[as];

		if (x->is_user)
			snprintf(init, sizeof(init), "assoc:%s/%s.Fairshare=",
				 prio_snapshot_str(snap, x->account),
				 prio_snapshot_str(snap, x->user));
		else
			snprintf(init, sizeof(init), "assoc:%s.Fairshare=",
				 prio_snapshot_str(snap, x->account));
	}
	start_prompt(a, TOP_PROMPT_WHATIF, init);
}

static void filter_prompt(struct top_app *a, enum top_prompt p)
{
	const struct prio_top_filter *f = &a->model.filter;
	const struct prio_top_job *j = selected_job(a);
	const struct prio_snapshot *snap = a->model.snap;
	const char *cur = p == TOP_PROMPT_USER	    ? f->user
			  : p == TOP_PROMPT_ACCOUNT ? f->account
						    : f->partition;
	const char *init = "";

	/* no filter yet: offer the selected job's (Enter takes it) */
	if (!cur && j) {
		const struct prio_job *job = &snap->jobs[j->job];
		prio_id id = p == TOP_PROMPT_USER ? job->user
			     : p == TOP_PROMPT_ACCOUNT
				 ? job->account
				 : snap->partitions[j->partition].name;

		init = id == PRIO_NO_ID ? "" : prio_snapshot_str(snap, id);
	}
	start_prompt(a, p, init);
}

static void act(struct top_app *a, enum top_action k)
{
	struct top_panel *p = a->view == TOP_VIEW_QUEUE	 ? &a->queue
			      : a->view == TOP_VIEW_TREE ? &a->tree
							 : &a->detail;

	if (top_panel_move(p, k))
		return;
	switch (k) {
	case TOP_A_HELP:
		if (a->view == TOP_VIEW_HELP)
			top_detail_close(a);
		else
			top_detail_open_help(a);
		break;
	case TOP_A_QUEUE:
		top_detail_close(a);
		a->view = TOP_VIEW_QUEUE;
		break;
	case TOP_A_TREE:
		top_detail_close(a);
		a->view = TOP_VIEW_TREE;
		break;
	case TOP_A_SWITCH:
		a->view =
		    a->view == TOP_VIEW_QUEUE ? TOP_VIEW_TREE : TOP_VIEW_QUEUE;
		break;
	case TOP_A_BACK:
		top_detail_close(a);
		break;
	case TOP_A_SEARCH:
		start_prompt(a, TOP_PROMPT_SEARCH, "");
		break;
	case TOP_A_SEARCH_NEXT:
		search(a, true);
		break;
	case TOP_A_FILTER:
		start_prompt(a, TOP_PROMPT_FILTER, a->model.filter.text);
		break;
	case TOP_A_USER:
		filter_prompt(a, TOP_PROMPT_USER);
		break;
	case TOP_A_ACCOUNT:
		filter_prompt(a, TOP_PROMPT_ACCOUNT);
		break;
	case TOP_A_PARTITION:
		filter_prompt(a, TOP_PROMPT_PARTITION);
		break;
	case TOP_A_SORT_NEXT:
		sort_step(a, 1);
		break;
	case TOP_A_SORT_PREV:
		sort_step(a, -1);
		break;
	case TOP_A_SORT_INVERT:
		prio_top_sort(&a->model, a->model.sort, !a->model.desc);
		rows_changed(a);
		break;
	case TOP_A_FOLLOW: {
		const struct prio_top_job *j = selected_job(a);

		if (a->follow || !j) {
			a->follow = false;
			top_status(a, false, "following no job");
		} else {
			a->follow = true;
			a->follow_job = a->model.snap->jobs[j->job].job_id;
			a->follow_part = j->partition;
			top_status(a, false, "following job %u", a->follow_job);
		}
		break;
	}
	case TOP_A_MARK: {
		const struct prio_top_job *j = selected_job(a);

		if (j) {
			top_mark_toggle(a, a->model.snap->jobs[j->job].job_id);
			top_panel_move(&a->queue, TOP_A_DOWN);
		}
		break;
	}
	case TOP_A_UNMARK_ALL:
		a->marks.n = 0;
		break;
	case TOP_A_DETAIL:
		detail(a);
		break;
	case TOP_A_COLLAPSE:
	case TOP_A_EXPAND: {
		uint32_t as = selected_assoc(a);

		if (as != PRIO_ASSOC_NONE) {
			prio_top_tree_collapse(&a->model, as,
					       k == TOP_A_COLLAPSE);
			rows_changed(a);
		}
		break;
	}
	case TOP_A_EXPAND_ALL:
		prio_top_tree_expand_all(&a->model);
		rows_changed(a);
		break;
	case TOP_A_WHATIF:
		whatif_prompt(a);
		break;
	case TOP_A_WHATIF_RESET:
		what_if_reset(a);
		break;
	case TOP_A_RELOAD:
		if (a->src.live) {
			char why[256];

			if (top_source_capture_start(&a->src, top_monotonic(),
						     why, sizeof(why)) < 0)
				top_status(a, false, "--live: %s", why);
			else
				top_status(a, false, "--live: capturing...");
		} else {
			reload(a, "reload");
		}
		break;
	case TOP_A_REDRAW:
		scr_curses_repaint(&a->scr);
		break;
	case TOP_A_QUIT:
		a->quit = true;
		break;
	default:
		break;
	}
}

/* A key while a prompt is open. */
static void prompt_key(struct top_app *a, uint32_t key)
{
	enum top_prompt p = a->prompt;

	if (key == TOP_KEY_ESC) {
		a->prompt = TOP_PROMPT_NONE;
		return;
	}
	if (key == TOP_KEY_ENTER) {
		a->prompt = TOP_PROMPT_NONE;
		switch (p) {
		case TOP_PROMPT_SEARCH:
			snprintf(a->search, sizeof(a->search), "%s", a->line);
			search(a, false);
			break;
		case TOP_PROMPT_WHATIF:
			if (*a->line)
				what_if(a, a->line);
			break;
		default:
			set_filter(a, p, a->line);
			break;
		}
		return;
	}
	if (key == TOP_KEY_BACKSPACE) {
		while (a->line_len &&
		       ((unsigned char)a->line[a->line_len - 1] & 0xc0) == 0x80)
			a->line_len--;
		if (a->line_len)
			a->line_len--;
	} else if (key == 21) { /* C-u */
		a->line_len = 0;
	} else if (key >= ' ' && key < TOP_KEY_SPECIAL && key != 127) {
		char enc[5];
		size_t n = 0;

		if (key < 0x80)
			enc[n++] = (char)key;
		else if (key < 0x800) {
			enc[n++] = (char)(0xc0 | key >> 6);
			enc[n++] = (char)(0x80 | (key & 0x3f));
		} else if (key < 0x10000) {
			enc[n++] = (char)(0xe0 | key >> 12);
			enc[n++] = (char)(0x80 | (key >> 6 & 0x3f));
			enc[n++] = (char)(0x80 | (key & 0x3f));
		}
		if (a->line_len + n < sizeof(a->line)) {
			memcpy(a->line + a->line_len, enc, n);
			a->line_len += n;
		}
	} else {
		return;
	}
	a->line[a->line_len] = '\0';
	/* search and the text filter follow the typing */
	if (p == TOP_PROMPT_SEARCH) {
		snprintf(a->search, sizeof(a->search), "%s", a->line);
		search(a, false);
	} else if (p == TOP_PROMPT_FILTER) {
		set_filter(a, p, a->line);
	}
}

/* A mouse event: select a line, sort by a title, press a bar key. */
static void mouse(struct top_app *a, const struct scr_event *ev)
{
	int head = top_header_lines(a), y = ev->mouse_row;
	struct top_panel *p = a->view == TOP_VIEW_QUEUE	 ? &a->queue
			      : a->view == TOP_VIEW_TREE ? &a->tree
							 : &a->detail;

	if (ev->key == TOP_KEY_WHEEL_UP || ev->key == TOP_KEY_WHEEL_DOWN) {
		for (int i = 0; i < 3; i++)
			top_panel_move(p, ev->key == TOP_KEY_WHEEL_UP
					      ? TOP_A_UP
					      : TOP_A_DOWN);
		return;
	}
	if (y == a->scr.rows - 1) {
		for (int i = 0; i < nbar_items; i++)
			if (ev->mouse_col >= bar_items[i].x0 &&
			    ev->mouse_col < bar_items[i].x1)
				act(a, bar_items[i].action);
		return;
	}
	if (y == head && a->view == TOP_VIEW_QUEUE) {
		int c = top_queue_column_at(a, ev->mouse_col);

		if (c >= 0)
			sort_by(a, (enum prio_top_col)c);
		return;
	}
	if (y > head && y < a->scr.rows - 2 && a->view != TOP_VIEW_DETAIL &&
	    a->view != TOP_VIEW_HELP) {
		uint32_t line = p->first + (uint32_t)(y - head - 1);

		if (line < p->count) {
			p->selected = line;
			if (ev->key == TOP_KEY_MOUSE_DOUBLE)
				detail(a);
		}
	}
}

static void key(struct top_app *a, const struct scr_event *ev)
{
	int k;

	if (ev->key == TOP_KEY_RESIZE)
		return;
	if (a->prompt) {
		prompt_key(a, ev->key);
		return;
	}
	if (ev->key >= TOP_KEY_MOUSE_CLICK && ev->key <= TOP_KEY_WHEEL_DOWN) {
		mouse(a, ev);
		return;
	}
	if (!a->status_error)
		a->status[0] = '\0';
	k = top_keymap_action(&a->keys, ev->key, a->view);
	if (k >= 0)
		act(a, (enum top_action)k);
}

/* ---- options ---------------------------------------------------------------
 */

static double parse_seconds(struct top_app *a, const char *opt, const char *arg,
			    double least)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= least) || v > 86400 * 366)
		cmd_usage_error(
		    &a->c, USAGE,
		    "%s: expected a number of seconds%s, got \"%s\"", opt,
		    least > 0 ? " above 0" : "", arg);
	return v;
}

static void parse_size(struct top_app *a, const char *arg, int *cols, int *rows)
{
	char *end;
	long c, r;

	errno = 0;
	c = strtol(arg, &end, 10);
	if (end == arg || (*end != 'x' && *end != 'X'))
		goto bad;
	r = strtol(end + 1, &end, 10);
	if (*end || errno || c < 20 || r < 5 || c > 1000 || r > 1000)
		goto bad;
	*cols = (int)c;
	*rows = (int)r;
	return;
bad:
	cmd_usage_error(
	    &a->c, USAGE,
	    "--size: expected COLSxROWS, 20x5 to 1000x1000, got \"%s\"", arg);
}

static void print_key_line(const char *keys, const char *name,
			   const char *help_text, void *ctx)
{
	(void)ctx;
	printf("%s\t%s\t%s\n", keys, name, help_text);
}

/* The config file's key bindings and colours, against the tables. */
static void apply_config(struct top_app *a)
{
	const struct cmd_top_config *tc = cmd_top_config();
	char why[256];

	for (unsigned i = 0; i < tc->nkeys; i++)
		if (top_keymap_bind(&a->keys, tc->keys[i].name,
				    tc->keys[i].value, why, sizeof(why)) < 0)
			cmd_die(&a->c, "%s: top: keys: %s: %s",
				cmd_config_path(), tc->keys[i].name, why);
	for (unsigned i = 0; i < tc->ncolors; i++) {
		int role = scr_role_parse(tc->colors[i].name);

		if (role < 0)
			cmd_die(&a->c,
				"%s: top: colors: unknown element \"%s\"",
				cmd_config_path(), tc->colors[i].name);
		if (scr_set_style(&a->scr, (enum scr_role)role,
				  tc->colors[i].value, why, sizeof(why)) < 0)
			cmd_die(&a->c, "%s: top: colors: %s: %s",
				cmd_config_path(), tc->colors[i].name, why);
	}
}

/* --select: a job id in the queue, or a user association in the tree. */
static void select_start(struct top_app *a, const char *sel)
{
	const struct prio_snapshot *snap = a->model.snap;
	char *end;
	unsigned long id = strtoul(sel, &end, 10);

	if (*sel >= '0' && *sel <= '9' && !*end) {
		uint32_t at =
		    prio_top_find_job(&a->model, (uint32_t)id, PRIO_NO_VAL);

		if (at == UINT32_MAX)
			cmd_die(
			    &a->c,
			    "--select %s: no such job in the queue as shown",
			    sel);
		top_panel_select(&a->queue, at);
		a->view = a->view == TOP_VIEW_TREE ? TOP_VIEW_QUEUE : a->view;
		a->back = TOP_VIEW_QUEUE;
		return;
	}
	{
		const char *slash = strchr(sel, '/');
		const char *user = slash ? slash + 1 : sel;
		uint32_t found = PRIO_ASSOC_NONE, count = 0;

		for (uint32_t i = 0; i < snap->assoc_count; i++) {
			const struct prio_assoc *as = &snap->assocs[i];
			const char *name = prio_snapshot_str(
			    snap, as->is_user ? as->user : as->account);

			if (strcmp(name, user) != 0)
				continue;
			if (slash &&
			    (!as->is_user ||
			     strncasecmp(prio_snapshot_str(snap, as->account),
					 sel, (size_t)(slash - sel)) ||
			     prio_snapshot_str(snap, as->account)[slash - sel]))
				continue;
			if (!count++ ||
			    (!as->is_user && snap->assocs[found].is_user))
				found = i;
		}
		if (found == PRIO_ASSOC_NONE)
			cmd_die(&a->c,
				"--select %s: no such job, user or account",
				sel);
		top_panel_select(&a->tree,
				 prio_top_tree_find(&a->model, found));
		a->view = a->view == TOP_VIEW_QUEUE ? TOP_VIEW_TREE : a->view;
		a->back = TOP_VIEW_TREE;
	}
}

struct start {
	const char *view, *select, *sort, *user, *account, *partition, *filter;
	const char **changes;
	unsigned nchanges;
	bool list_keys;
};

static void parse_options(struct top_app *a, struct start *st, int argc,
			  char **argv)
{
	static const struct option own[] = {
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"batch", no_argument, NULL, 'b'},
	    {"iterations", required_argument, NULL, 'n'},
	    {"delay", required_argument, NULL, 'd'},
	    {"speed", required_argument, NULL, OPT_SPEED},
	    {"size", required_argument, NULL, OPT_SIZE},
	    {"view", required_argument, NULL, OPT_VIEW},
	    {"select", required_argument, NULL, OPT_SELECT},
	    {"sort", required_argument, NULL, 's'},
	    {"user", required_argument, NULL, 'u'},
	    {"account", required_argument, NULL, 'A'},
	    {"partition", required_argument, NULL, 'p'},
	    {"filter", required_argument, NULL, OPT_FILTER},
	    {"change", required_argument, NULL, OPT_CHANGE},
	    {"no-color", no_argument, NULL, OPT_NO_COLOR},
	    {"ascii", no_argument, NULL, OPT_ASCII},
	    {"mouse", no_argument, NULL, OPT_MOUSE},
	    {"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
	    {"refresh", required_argument, NULL, OPT_REFRESH},
	    {"list-keys", no_argument, NULL, OPT_LIST_KEYS},
	    {"no-forecast", no_argument, NULL, OPT_NO_FORECAST},
	    {"forecast-horizon", required_argument, NULL,
	     OPT_FORECAST_HORIZON},
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	struct option longopts[CMD_COMMON_LONG_OPTION_COUNT + NOWN + 1];
	size_t n = 0;
	bool once = false;
	int opt;

	/* the common options, less the table formats prio-top has no use for */
	for (size_t i = 0; i < CMD_COMMON_LONG_OPTION_COUNT; i++)
		if (cmd_common_long_options[i].val != OPT_CSV &&
		    cmd_common_long_options[i].val != OPT_JSON)
			longopts[n++] = cmd_common_long_options[i];
	memcpy(longopts + n, own, sizeof(own));
	memset(&longopts[n + NOWN], 0, sizeof(longopts[0]));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":bn:d:s:u:A:p:hV", longopts,
				  NULL)) != -1) {
		if (cmd_common_option(&a->c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_ONCE:
			once = true;
			break;
		case 'b':
			a->batch = true;
			break;
		case 'n': {
			char *end;

			errno = 0;
			a->frames = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || a->frames < 1)
				cmd_usage_error(
				    &a->c, USAGE,
				    "-n: expected a count of frames (1 or "
				    "more), got \"%s\"",
				    optarg);
			break;
		}
		case 'd':
			a->delay = parse_seconds(a, "-d", optarg, 0);
			break;
		case OPT_SPEED: {
			char *end;

			errno = 0;
			a->speed = strtod(optarg, &end);
			if (end == optarg || *end || errno ||
			    !(a->speed >= 0) || a->speed > 1e6)
				cmd_usage_error(&a->c, USAGE,
						"--speed: expected a factor "
						"from 0 to 1000000, got \"%s\"",
						optarg);
			break;
		}
		case OPT_SIZE:
			parse_size(a, optarg, &a->size_cols, &a->size_rows);
			break;
		case OPT_VIEW:
			st->view = optarg;
			break;
		case OPT_SELECT:
			st->select = optarg;
			break;
		case 's':
			st->sort = optarg;
			break;
		case 'u':
			st->user = optarg;
			break;
		case 'A':
			st->account = optarg;
			break;
		case 'p':
			st->partition = optarg;
			break;
		case OPT_FILTER:
			st->filter = optarg;
			break;
		case OPT_CHANGE: {
			const char **c = realloc(
			    st->changes, (st->nchanges + 1) * sizeof(*c));

			if (!c)
				cmd_die(&a->c, "out of memory");
			st->changes = c;
			c[st->nchanges++] = optarg;
			break;
		}
		case OPT_NO_COLOR:
			a->no_color = true;
			break;
		case OPT_ASCII:
			a->ascii = true;
			break;
		case OPT_MOUSE:
			a->mouse = true;
			break;
		case OPT_NO_MOUSE:
			a->mouse = false;
			break;
		case OPT_REFRESH:
			a->src.refresh =
			    parse_seconds(a, "--refresh", optarg, 0);
			break;
		case OPT_NO_FORECAST:
			a->no_forecast = true;
			break;
		case OPT_FORECAST_HORIZON: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 ||
			    v > 525600 || optarg[0] == '-')
				cmd_usage_error(&a->c, USAGE,
						"--forecast-horizon: expected "
						"minutes from 1 to 525600, got "
						"'%s'",
						optarg);
			a->fc_horizon = (uint32_t)v;
			break;
		}
		case OPT_LIST_KEYS:
			st->list_keys = true;
			break;
		case 'h':
		case OPT_HELP:
			help();
			exit(EXIT_OK);
		case 'V':
		case OPT_VERSION:
			printf("prio-top (prio-tools) %s\n", PACKAGE_VERSION);
			exit(EXIT_OK);
		case ':':
			cmd_usage_error(&a->c, USAGE,
					"option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(&a->c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd_usage_error(&a->c, USAGE, "unexpected argument '%s'",
				argv[optind]);
	if (once) {
		if (a->frames > 1)
			cmd_usage_error(&a->c, USAGE,
					"--once is one frame: no -n");
		a->batch = true;
		a->frames = 1;
	}
	if (a->size_cols && !a->batch)
		cmd_usage_error(
		    &a->c, USAGE,
		    "--size goes with --once or -b (a terminal has its own)");
	if (a->src.refresh && !a->c.live)
		cmd_usage_error(&a->c, USAGE, "--refresh goes with --live");
}

static enum top_view parse_view(struct top_app *a, const char *v)
{
	static const char *const names[TOP_VIEW_COUNT] = {"queue", "tree",
							  "detail", "help"};

	for (int i = 0; i < TOP_VIEW_COUNT; i++)
		if (!strcasecmp(names[i], v))
			return (enum top_view)i;
	cmd_usage_error(
	    &a->c, USAGE,
	    "--view: expected queue, tree, detail or help, got \"%s\"", v);
}

static enum prio_top_col parse_sort(struct top_app *a, const char *sort,
				    int *dir)
{
	const char *name = sort;
	enum prio_top_col col;

	*dir = 0;
	if (*name == '-' || *name == '+')
		*dir = *name++ == '-' ? -1 : 1;
	if (prio_top_col_parse(name, &col) < 0)
		cmd_usage_error(&a->c, USAGE,
				"--sort: expected rank, moved, jobid, "
				"user, account, "
				"partition, qos, priority, factors or "
				"reason, got \"%s\"",
				sort);
	return col;
}

/* A bad --view or --sort is a usage error before any source is read. */
static void check_start(struct top_app *a, const struct start *st)
{
	int dir;

	if (st->view)
		parse_view(a, st->view);
	if (st->sort)
		parse_sort(a, st->sort, &dir);
}

/* What the options ask for before the first frame. */
static void start_state(struct top_app *a, const struct start *st)
{
	struct prio_top_filter f = {st->user, st->account, st->partition,
				    st->filter};
	enum top_view view =
	    st->view ? parse_view(a, st->view) : TOP_VIEW_QUEUE;
	struct prio_error err;

	for (unsigned i = 0; i < st->nchanges; i++) {
		prio_error_clear(&err);
		if (prio_top_set(&a->model, st->changes[i], &err) < 0) {
			char buf[1024];

			cmd_die(&a->c, "--change %s: %s", st->changes[i],
				prio_error_format(&err, buf, sizeof(buf)));
		}
	}
	if (st->sort) {
		int dir; /* -1 desc, 1 asc, 0 the column's own */
		enum prio_top_col col = parse_sort(a, st->sort, &dir);

		prio_top_sort(&a->model, col,
			      dir ? dir < 0
				  : prio_top_col_info(col)->desc_first);
	}
	if (prio_top_set_filter(&a->model, &f) < 0)
		cmd_die(&a->c, "out of memory");
	a->view = view == TOP_VIEW_TREE ? TOP_VIEW_TREE : TOP_VIEW_QUEUE;
	a->back = a->view;
	data_changed(a);
	/* the panels' heights, for selecting in the middle of the screen */
	{
		int body = a->scr.rows - top_header_lines(a) - 3;

		a->queue.height = a->tree.height = body > 1 ? body : 1;
	}
	if (st->select)
		select_start(a, st->select);
	if (st->nchanges)
		top_status(a, false, "what-if %s: %u queue entries moved",
			   st->changes[st->nchanges - 1], a->model.moved_count);
	if (view == TOP_VIEW_DETAIL) {
		a->view = a->back;
		detail(a);
		if (a->view != TOP_VIEW_DETAIL)
			cmd_die(&a->c, "--view detail: %s",
				*a->status ? a->status
					   : "nothing selected to explain");
	} else if (view == TOP_VIEW_HELP) {
		top_detail_open_help(a);
	}
}

/* ---- the loops --------------------------------------------------------------
 */

/* Files changed, or a capture is due: new data before the frame. */
static void refresh_sources(struct top_app *a)
{
	if (a->src.live) {
		struct prio_snapshot *snap = calloc(1, sizeof(*snap));
		struct prio_error err;
		int rc = -1;

		prio_error_clear(&err);
		if (snap)
			rc = top_source_capture_wait(&a->src, top_monotonic(),
						     snap, &err);
		else
			prio_error_set(&err, PRIO_ERR_NOMEM, "", 0, "",
				       "out of memory");
		captured(a, rc, snap, &err);
		return;
	}
	if (top_source_changed(&a->src))
		reload(a, "reload");
}

static int batch(struct top_app *a)
{
	for (long k = 0; !a->frames || k < a->frames; k++) {
		if (k) {
			struct timespec ts = {
			    (time_t)a->delay,
			    (long)((a->delay - floor(a->delay)) * 1e9)};

			fputc('\n', stdout);
			fflush(stdout);
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
			a->elapsed = (double)k * a->delay;
			refresh_sources(a);
			tick(a);
		}
		top_draw(a);
		if (scr_write_text(&a->scr, stdout) < 0 || fflush(stdout) != 0)
			cmd_die_write(&a->c);
	}
	return EXIT_OK;
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int interactive(struct top_app *a)
{
	double start = top_monotonic(), next_tick;
	long frames = 0;
	char why[256];

	if (scr_curses_start(&a->scr, !a->no_color, a->mouse, why,
			     sizeof(why)) < 0)
		cmd_die(&a->c, "%s", why);
	apply_config(a); /* the colours, now that curses has them */
	/* the forecast off the keys' way from now on (a failed pipe: in
	 * line, as --once runs it) */
	top_forecast_async(a);
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	next_tick = a->delay;
	while (!a->quit && !stop_signal) {
		struct pollfd fds[4];
		nfds_t nfds = 0;
		struct scr_event ev;
		double now;
		int wait_ms;

		top_draw(a);
		scr_curses_show(&a->scr);
		now = top_monotonic() - start;
		wait_ms = (int)ceil((next_tick - now) * 1000);
		if (a->src.dirty && (now + start) - a->src.dirty_at < 0.2)
			wait_ms = wait_ms < 200 ? wait_ms
						: 200; /* settle, then look */
		else if (a->src.dirty)
			wait_ms = 0;
		fds[nfds++] =
		    (struct pollfd){scr_curses_fd(&a->scr), POLLIN, 0};
		if (a->src.inotify_fd >= 0)
			fds[nfds++] =
			    (struct pollfd){a->src.inotify_fd, POLLIN, 0};
		if (a->src.pid)
			fds[nfds++] =
			    (struct pollfd){a->src.pipe_fd, POLLIN, 0};
		if (a->fc_pipe[0] >= 0)
			fds[nfds++] =
			    (struct pollfd){a->fc_pipe[0], POLLIN, 0};
		if (poll(fds, nfds, wait_ms < 0 ? 0 : wait_ms) < 0 &&
		    errno != EINTR)
			break;
		now = top_monotonic() - start;
		a->elapsed = now;
		top_forecast_poll(a);
		while (scr_curses_event(&a->scr, &ev))
			key(a, &ev);
		if (a->src.inotify_fd >= 0)
			top_source_inotify(&a->src, now + start);
		if (a->src.pid) {
			struct prio_snapshot *snap = calloc(1, sizeof(*snap));
			struct prio_error err;
			int rc = -1;

			prio_error_clear(&err);
			if (snap)
				rc = top_source_capture_poll(&a->src, snap,
							     &err);
			else
				prio_error_set(&err, PRIO_ERR_NOMEM, "", 0, "",
					       "out of memory");
			captured(a, rc, snap, &err);
		}
		if (a->src.dirty && (now + start) - a->src.dirty_at >= 0.2) {
			a->src.dirty = false;
			if (top_source_changed(&a->src))
				reload(a, "reload");
		}
		if (now >= next_tick) {
			next_tick = now + a->delay;
			if (a->src.live) {
				top_source_capture_start(&a->src, now + start,
							 why, sizeof(why));
			} else if (top_source_changed(&a->src)) {
				reload(a, "reload");
			}
			tick(a);
			if (a->frames && ++frames >= a->frames)
				a->quit = true;
		}
	}
	scr_curses_end(&a->scr);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static struct top_app app;
	struct top_app *a = &app;
	struct prio_snapshot *snap;
	struct start st = {0};
	struct prio_error err;
	const char *nc = getenv("NO_COLOR"), *cs;
	int rc;

	setlocale(LC_ALL, "");
	cmd_common_init(&a->c, "prio-top");
	a->fc_pipe[0] = a->fc_pipe[1] = -1;
	a->delay = cmd_top_config()->delay;
	a->speed = 1;
	a->mouse = cmd_top_config()->mouse;
	a->no_color = !cmd_top_config()->color || (nc && *nc);
	top_keymap_init(&a->keys);
	parse_options(a, &st, argc, argv);
	check_start(a, &st);
	apply_config(a); /* the key bindings; colours are checked here */
	if (st.list_keys) {
		top_keys_list(&a->keys, print_key_line, NULL);
		free(st.changes);
		return EXIT_OK;
	}
	if (!a->src.refresh)
		a->src.refresh = (double)cmd_top_config()->refresh;
	/* Priorities never use job history: leave a folder's sacct.txt unread.
	 */
	a->c.folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	a->c.required_roles |= 1u << PRIO_ROLE_JOBS;
	cs = nl_langinfo(CODESET);
	a->scr.utf8 = !a->ascii && cs &&
		      (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));

	if (!(snap = calloc(1, sizeof(*snap))))
		cmd_die(&a->c, "out of memory");
	top_source_first(&a->src, &a->c, snap);
	for (uint32_t i = 0; i < snap->warning_count; i++) {
		char buf[1024];

		cmd_warn(&a->c, "warning: %s",
			 prio_error_format(&snap->warnings[i].error, buf,
					   sizeof(buf)));
	}
	if (!a->no_forecast)
		cmd_warn_sched_unmodelled(&a->c, snap);
	if (!snap->conf.priority_type ||
	    strcmp(snap->conf.priority_type, "priority/multifactor") != 0)
		cmd_die(&a->c,
			"PriorityType is %s: only priority/multifactor is "
			"supported",
			snap->conf.priority_type ? snap->conf.priority_type
						 : "(not set)");
	prio_error_clear(&err);
	if (prio_top_init(&a->model, snap, start_clock(a, snap, true), &err) <
	    0)
		cmd_die_error(&a->c, &err);
	{
		bool no_usage;

		if (prio_engine_check_inputs(a->model.engine, &err, &no_usage) <
		    0)
			cmd_die_error(&a->c, &err);
		if (no_usage)
			cmd_warn(
			    &a->c,
			    "warning: no RawUsage in the association input: "
			    "fairshare assumes no usage at all");
	}
	a->clock0 = a->model.now;

	if (a->batch) {
		const char *env_c = getenv("COLUMNS"), *env_l = getenv("LINES");
		int cols = a->size_cols, rows = a->size_rows;

		if (!cols) {
			cols = env_c && atoi(env_c) >= 20 ? atoi(env_c) : 80;
			rows = env_l && atoi(env_l) >= 5 ? atoi(env_l) : 24;
		}
		if (scr_resize(&a->scr, cols, rows) < 0)
			cmd_die(&a->c, "out of memory");
		start_state(a, &st);
		rc = batch(a);
	} else {
		if (!isatty(STDOUT_FILENO))
			cmd_die(&a->c, "standard output is not a terminal: use "
				       "--once or -b "
				       "for text frames");
		/* a provisional size for the start state; curses sets the real
		 * one */
		if (scr_resize(&a->scr, 80, 24) < 0)
			cmd_die(&a->c, "out of memory");
		start_state(a, &st);
		rc = interactive(a);
	}
	top_forecast_free(a); /* before the model it reads */
	top_detail_close(a);
	top_source_free(&a->src);
	prio_top_free(&a->model);
	scr_free(&a->scr);
	free(a->marks.ids);
	free(st.changes);
	return rc;
}
