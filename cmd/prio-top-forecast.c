/* SPDX-License-Identifier: MIT */
/*
 * prio-top's forecast (issue 15): the START column and the detail view's
 * "When" part, from libprio's forecast on the model's engine.
 *
 * The forecast of a big queue costs seconds (5 s per simulated hour on 100k
 * pending jobs), so it is bounded and kept off the keys' way:
 *  - bounded: until --forecast-horizon minutes after the snapshot's NOW
 *    (default the scheduler's bf_window, the farthest Slurm's backfill
 *    plans), and only until the jobs on screen (and a page below) started,
 *    as prio-calc --mine watches the user's jobs;
 *  - run when the data change (the model drops its forecast on a new
 *    snapshot or a what-if), or when the screen shows rows the last run
 *    stopped before without watching them; never at a clock tick;
 *  - on a terminal, in a thread: the model does not change while it runs
 *    (clock ticks wait, a reload or a what-if stops it first), the screen
 *    keeps answering keys; --once and -b run it in line, so frames are
 *    complete and repeatable.
 * One run at a time: the queue's, or one job's "When" for the detail view
 * (that one first: the user asked for it; the queue's runs again after).
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prio-top.h"

enum { FC_QUEUE = 1, FC_WHEN };

struct top_fc_run {
	pthread_t thread;
	int kind;		   /* FC_QUEUE or FC_WHEN */
	atomic_int stop;	   /* set: the run ends at its next event */
	/* set by the thread as it ends (release: its results are written
	 * before; the loop reads it with acquire before taking them) */
	atomic_int done;
	const struct prio_top *model; /* read only while it runs */
	struct prio_forecast_opts opts;
	uint32_t *watch, nwatch; /* FC_QUEUE: sorted snapshot indices */
	uint32_t job_id;	 /* FC_WHEN */
	/* results */
	int rc;
	struct prio_error err;
	struct prio_forecast fc; /* FC_QUEUE */
	char *when;		 /* FC_WHEN */
	double t0;
	int wake; /* write end of a->fc_pipe */
};

struct prio_forecast_opts top_forecast_opts(const struct top_app *a)
{
	const struct prio_snapshot *snap = a->model.snap;
	uint32_t h = a->fc_horizon ? a->fc_horizon : snap->conf.sched.bf_window;

	return (struct prio_forecast_opts){
	    .until = snap->now + (time_t)h * 60,
	    .first_calc = a->first_calc,
	};
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;

	return x < y ? -1 : x > y;
}

/* A row the last forecast stopped before without watching it. */
static bool unreached(const struct top_app *a, const struct prio_top_job *j)
{
	const struct prio_forecast_row *r = prio_top_forecast_row(&a->model, j);

	return r && r->status == PRIO_FC_HORIZON &&
	       !bsearch(&j->job, a->fc_watch, a->nfc_watch,
			sizeof(*a->fc_watch), cmp_u32);
}

static void *run(void *arg)
{
	struct top_fc_run *r = arg;

	if (r->kind == FC_QUEUE) {
		r->rc = prio_forecast_run(r->model->engine, &r->opts, &r->fc,
					  &r->err);
	} else {
		r->when = prio_top_when(r->model, r->job_id, &r->opts, &r->err);
		r->rc = r->when ? 0 : -1;
	}
	atomic_store_explicit(&r->done, 1, memory_order_release);
	/* wake the event loop (a full pipe has woken it already) */
	if (r->wake >= 0 && write(r->wake, "", 1) < 0) {
	}
	return NULL;
}

/* The queue's forecast ended (rc, fc): kept by the model, or said. */
static void queue_done(struct top_app *a, struct top_fc_run *r)
{
	char buf[1024];

	if (r->rc < 0 || r->stop) {
		if (!r->stop) {
			a->fc_failed = a->model.snap;
			top_status(a, true, "forecast: %s",
				   prio_error_format(&r->err, buf,
						     sizeof(buf)));
		}
		prio_forecast_free(&r->fc);
		free(r->watch);
		return;
	}
	a->fc_seconds = top_monotonic() - r->t0;
	a->fc_failed = NULL;
	if (prio_top_forecast_adopt(&a->model, &r->fc, &r->err) < 0) {
		top_status(a, true, "forecast: %s",
			   prio_error_format(&r->err, buf, sizeof(buf)));
		free(r->watch);
		return;
	}
	free(a->fc_watch);
	a->fc_watch = r->watch;
	a->nfc_watch = r->nwatch;
	/* the column's width comes from its values */
	a->data_gen++;
}

static void when_done(struct top_app *a, struct top_fc_run *r)
{
	char buf[1024];

	if (r->stop) {
		free(r->when);
		return;
	}
	if (!r->when)
		top_status(a, true, "forecast: %s",
			   prio_error_format(&r->err, buf, sizeof(buf)));
	top_detail_when(a, r->job_id, r->when);
}

/* Start a run: in a thread on a terminal, else in line (then ended). */
static void start(struct top_app *a, struct top_fc_run *r)
{
	r->model = &a->model;
	r->wake = a->fc_pipe[1];
	r->t0 = top_monotonic();
	prio_error_clear(&r->err);
	if (a->fc_async && pthread_create(&r->thread, NULL, run, r) == 0) {
		a->fc_run = r;
		return;
	}
	r->wake = -1;
	run(r);
	if (r->kind == FC_QUEUE)
		queue_done(a, r);
	else
		when_done(a, r);
	free(r);
}

/* The run in the thread ended or is stopped: join it, take its results. */
static void finish(struct top_app *a)
{
	struct top_fc_run *r = a->fc_run;

	if (!r)
		return;
	pthread_join(r->thread, NULL);
	a->fc_run = NULL;
	if (r->kind == FC_QUEUE)
		queue_done(a, r);
	else
		when_done(a, r);
	free(r);
}

void top_forecast_stop(struct top_app *a)
{
	if (!a->fc_run)
		return;
	a->fc_run->stop = 1;
	finish(a);
}

bool top_forecast_busy(const struct top_app *a)
{
	return a->fc_run != NULL;
}

void top_forecast_poll(struct top_app *a)
{
	char buf[64];

	if (a->fc_pipe[0] >= 0)
		while (read(a->fc_pipe[0], buf, sizeof(buf)) > 0)
			;
	if (a->fc_run && a->fc_run->done)
		finish(a);
}

int top_forecast_async(struct top_app *a)
{
	if (pipe(a->fc_pipe) < 0)
		return -1;
	for (int k = 0; k < 2; k++)
		fcntl(a->fc_pipe[k], F_SETFL,
		      fcntl(a->fc_pipe[k], F_GETFL) | O_NONBLOCK);
	a->fc_async = true;
	return 0;
}

void top_forecast_free(struct top_app *a)
{
	top_forecast_stop(a);
	for (int k = 0; k < 2; k++)
		if (a->fc_pipe[k] >= 0)
			close(a->fc_pipe[k]);
	a->fc_pipe[0] = a->fc_pipe[1] = -1;
	free(a->fc_watch);
	a->fc_watch = NULL;
}

void top_forecast_when(struct top_app *a, uint32_t job_id)
{
	struct top_fc_run *r;

	/* the user's question first: the queue's forecast runs again after */
	top_forecast_stop(a);
	if (a->no_forecast) {
		top_detail_when(a, job_id,
				prio_top_when(&a->model, job_id, NULL,
					      &(struct prio_error){0}));
		return;
	}
	if (!(r = calloc(1, sizeof(*r)))) {
		top_status(a, true, "out of memory");
		return;
	}
	r->kind = FC_WHEN;
	r->job_id = job_id;
	r->opts = top_forecast_opts(a);
	r->opts.stop = &r->stop;
	start(a, r);
}

void top_queue_forecast(struct top_app *a)
{
	struct top_panel *p = &a->queue;
	struct prio_top *t = &a->model;
	struct top_fc_run *r;
	uint32_t n = 0;
	bool need = !t->forecast;

	if (a->no_forecast || a->fc_run || prio_top_needs_reload(t) ||
	    (need && a->fc_failed == (const void *)t->snap))
		return;
	for (uint32_t k = p->first;
	     !need && k < p->count && k < p->first + (uint32_t)p->height; k++)
		need = unreached(a, &t->jobs[t->view[k]]);
	if (!need)
		return;
	if (!(r = calloc(1, sizeof(*r))) ||
	    !(r->watch = malloc(((uint32_t)p->height * 2 + 1) *
				sizeof(*r->watch)))) {
		free(r);
		top_status(a, true, "out of memory");
		return;
	}
	/* the jobs on screen and a page below, for a scroll: the forecast
	 * stops once they started, as --mine's does */
	for (uint32_t k = p->first;
	     k < p->count && k < p->first + 2 * (uint32_t)p->height; k++)
		r->watch[n++] = t->jobs[t->view[k]].job;
	qsort(r->watch, n, sizeof(*r->watch), cmp_u32);
	r->nwatch = n;
	r->kind = FC_QUEUE;
	r->opts = top_forecast_opts(a);
	r->opts.watch = r->watch;
	r->opts.watch_count = n;
	r->opts.stop = &r->stop;
	start(a, r);
}
