/* SPDX-License-Identifier: MIT */
/*
 * prio-top's parts, in htop's roles:
 *  - the table of rows: libprio's viewer model (prio/top.h);
 *  - a scrollable panel (prio-top-panel.c): a cursor over N lines;
 *  - the views that draw the panels: the queue (prio-top-queue.c) and the
 *    tree (prio-top-tree.c), and the detail screens (prio-top-detail.c:
 *    --explain / --why text, the help screen);
 *  - the screen manager (prio-top.c): header, function bar, status line,
 *    prompts, keys, the event loop; the sources (prio-top-source.c) that
 *    reload the data when it changes;
 *  - the screen layer (prio-top-screen.c) and the key table
 *    (prio-top-keys.c).
 */
#ifndef PRIO_TOP_CMD_H
#define PRIO_TOP_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common.h"
#include "prio-top-keys.h"
#include "prio-top-screen.h"
#include "prio/top.h"

/* ---- panel --------------------------------------------------------------- */

/* A cursor over `count` lines of which `height` show, from `first`. */
struct top_panel {
	uint32_t count, selected, first;
	int height;
};

/* Keep the cursor in range and on screen. */
void top_panel_fit(struct top_panel *p);
/* Move for a navigation action; true when it was one. */
bool top_panel_move(struct top_panel *p, enum top_action a);
/* Put the cursor on a line (centred when it was off screen). */
void top_panel_select(struct top_panel *p, uint32_t line);

/* ---- sources ------------------------------------------------------------- */

struct top_watch {
	char *path;
	bool exists;
	bool was_read; /* there at the last good load: must still be */
	struct stat st;
};

struct top_source {
	struct cmd_common *c;
	bool live;
	char live_dir[PATH_MAX]; /* the last good capture, "" none */
	double refresh;		 /* --live: seconds between captures */
	double last_capture;	 /* monotonic seconds of the last start */
	pid_t pid;		 /* a capture running, 0 none */
	int pipe_fd;		 /* its output */
	char out[1024];
	size_t out_len;
	/* files read, to notice changes */
	struct top_watch *watch;
	size_t nwatch;
	int inotify_fd;	 /* -1: mtime polling only */
	bool stdin_used; /* a source is "-": read once only */
	bool loaded;	 /* the first load is done */
	bool dirty;	 /* inotify saw something */
	double dirty_at;
};

/* The first load: exits 2 with the message on an error. */
void top_source_first(struct top_source *s, struct cmd_common *c,
		      struct prio_snapshot *snap);
/* Load the sources again (files, or the last capture); 0 or an error. */
int top_source_reload(struct top_source *s, struct prio_snapshot *snap,
		      struct prio_error *err);
/* Have the watched files changed since the last load?  (Re-stats them.) */
bool top_source_changed(struct top_source *s);
/* Drain inotify events (when its fd is readable). */
void top_source_inotify(struct top_source *s, double now);
/* --live: start a capture in the background (0), or say why not yet. */
int top_source_capture_start(struct top_source *s, double now, char *why,
			     size_t why_size);
/* --live: the capture ended (its fd was readable to EOF): 1 and a snapshot
 * loaded from it, 0 still running, -1 failed with err. */
int top_source_capture_poll(struct top_source *s, struct prio_snapshot *snap,
			    struct prio_error *err);
/* --live, batch mode: capture now and wait. */
int top_source_capture_wait(struct top_source *s, double now,
			    struct prio_snapshot *snap, struct prio_error *err);
void top_source_free(struct top_source *s);

/* ---- the application ---------------------------------------------------- */

struct top_fc_run; /* prio-top-forecast.c */
struct top_marks {
	uint32_t *ids; /* job ids, ascending */
	uint32_t n, cap;
};

enum top_prompt {
	TOP_PROMPT_NONE = 0,
	TOP_PROMPT_SEARCH,
	TOP_PROMPT_FILTER,
	TOP_PROMPT_USER,
	TOP_PROMPT_ACCOUNT,
	TOP_PROMPT_PARTITION,
	TOP_PROMPT_WHATIF,
};

struct top_app {
	struct cmd_common c;
	struct prio_top model;
	struct scr scr;
	struct top_keymap keys;
	struct top_source src;

	/* options */
	bool batch;   /* plain text frames, no curses */
	long frames;  /* -n: frames, then exit; 0: no limit */
	double delay; /* -d */
	double speed; /* --speed */
	bool ascii, no_color, mouse;
	int size_cols, size_rows; /* --size; 0: terminal / environment */
	/* our forecast (the START column, the detail's "When"): off with
	 * --no-forecast; run until --forecast-horizon minutes after the
	 * snapshot's NOW (0: the scheduler's bf_window) or until the jobs
	 * it watches started */
	bool no_forecast;
	uint32_t fc_horizon;

	/* views */
	enum top_view view, back;
	struct top_panel queue, tree, detail;
	char *detail_text;
	char **detail_lines;
	uint32_t ndetail;
	char detail_title[256];
	/* a job's detail: its explanation, and the job whose "When" part
	 * comes after it (from the forecast thread) */
	char *detail_expl;
	uint32_t detail_job;

	/* the queue view's state beyond the model */
	bool follow;
	uint32_t follow_job, follow_part; /* id, snapshot index */
	struct top_marks marks;
	char search[256];
	/* the queue's layout: natural widths measured once per data change
	 * (data_gen), then columns placed per frame */
	unsigned data_gen, measured_gen;
	int natural[PRIO_TOP_COL_COUNT];
	bool any_site, any_nice;
	bool any_start; /* some job has Slurm's start estimate */
	/* The forecast: run when the data change (the model drops it then),
	 * never at a clock tick, watching the jobs on screen (fc_watch,
	 * snapshot indices; sorted); run again when the screen shows jobs
	 * it stopped before.  first_calc as prio-calc passes it (Slurm's
	 * last calculation not found: NOW + PriorityCalcPeriod / 2). */
	time_t first_calc;
	uint32_t *fc_watch, nfc_watch;
	const void *fc_failed; /* the snapshot a run failed on: not again */
	double fc_seconds;     /* the last run's time */
	struct top_fc_run *fc_run; /* running in a thread; NULL none */
	bool fc_async;		   /* runs in a thread (a terminal) */
	int fc_pipe[2];		   /* the thread wakes the event loop */
	int qx[PRIO_TOP_COL_COUNT], qw[PRIO_TOP_COL_COUNT]; /* 0: hidden */
	unsigned tree_measured_gen;
	int tree_name_width;

	/* prompt */
	enum top_prompt prompt;
	char line[256];
	size_t line_len;

	/* status line */
	char status[512];
	bool status_error;

	/* clocks: the model's clock runs from clock0 at `speed` per second
	 * of real time (batch mode: per frame delay) from t0 */
	time_t clock0;
	double t0, elapsed; /* real seconds, since t0 */
	double reloaded_at; /* elapsed at the last reload */
	bool quit;
};

/* Seconds since an arbitrary start (CLOCK_MONOTONIC). */
double top_monotonic(void);

/* The frame: header, the view, status line and function bar. */
void top_draw(struct top_app *a);
/* Lines the header takes at the current width. */
int top_header_lines(struct top_app *a);

/* Views: draw in rows [y, y + height). */
void top_queue_draw(struct top_app *a, int y, int height);
void top_tree_draw(struct top_app *a, int y, int height);
void top_detail_draw(struct top_app *a, int y, int height);
/* Our forecast for the rows on screen in the queue (prio-top-queue.c):
 * run when the model has none (new data) or the rows shown were not
 * watched by the last run; the forecast's options for a job's "When". */
void top_queue_forecast(struct top_app *a);
struct prio_forecast_opts top_forecast_opts(const struct top_app *a);
/* The "When" part of a job's detail: run now (--once, -b) or in the
 * thread; top_detail_when() shows it (when: malloc'ed, taken). */
void top_forecast_when(struct top_app *a, uint32_t job_id);
void top_detail_when(struct top_app *a, uint32_t job_id, char *when);
/* Runs in a thread from now on (the terminal's loop); -1: no pipe. */
int top_forecast_async(struct top_app *a);
/* A run in the thread: busy (the model must not change), stop it (and
 * wait: before the model changes), its end (the loop's wake-up). */
bool top_forecast_busy(const struct top_app *a);
void top_forecast_stop(struct top_app *a);
void top_forecast_poll(struct top_app *a);
void top_forecast_free(struct top_app *a);
/* The queue's column under a screen column (mouse), -1 none. */
int top_queue_column_at(struct top_app *a, int x);
/* The legend of the queue's bars (factors with a weight), as header
 * items: item(ctx, role of the key, key, text). */
void top_queue_legend(struct top_app *a,
		      void (*item)(void *ctx, enum scr_role key_role,
				   const char *key, const char *text),
		      void *ctx);

/* Detail screens: the selected job's --explain or association's --why,
 * and the help screen.  0, or -1 with the status line set. */
int top_detail_open_job(struct top_app *a, uint32_t job_id);
int top_detail_open_assoc(struct top_app *a, uint32_t assoc);
void top_detail_open_help(struct top_app *a);
void top_detail_close(struct top_app *a);

/* Marks, by job id. */
bool top_marked(const struct top_app *a, uint32_t job_id);
void top_mark_toggle(struct top_app *a, uint32_t job_id);

/* Set the status line (printf-style); error picks the error colour. */
void top_status(struct top_app *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
