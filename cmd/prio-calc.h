/* SPDX-License-Identifier: MIT */
/*
 * prio-calc's pieces: the sprio table (prio-calc.c), --explain
 * (prio-calc-explain.c) and --compare (prio-calc-compare.c) share the
 * parsed options and the job filters.
 */
#ifndef PRIO_CMD_PRIO_CALC_H
#define PRIO_CMD_PRIO_CALC_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "prio/calc_time.h"
#include "prio/forecast.h"
#include "prio/runtime.h"
#include "prio/order.h"
#include "prio/priority.h"
#include "prio/report_sprio.h"

struct calc_opts {
	struct cmd_common c;
	bool long_format, norm, weights;
	const char *format;    /* -o */
	const char *sort;      /* -S */
	const char *jobs;      /* -j list */
	bool jobs_given;       /* -j, with or without a list */
	const char *users;     /* -u list */
	const char *partitions; /* -p list */
	bool check;
	bool at_set;           /* --at */
	time_t at;
	uint32_t explain;      /* --explain JOBID[,JOBID...]: the first, 0 none */
	uint32_t *explain_ids; /* ... all of them, in the order given */
	uint32_t explain_count;
	bool compare;
	bool rank;             /* --rank: scheduling order */
	/* The clock when neither --now nor --at sets one: Slurm's last
	 * priority calculation, found once from the snapshot as loaded
	 * (without --set) by calc_load. */
	bool calc_known;
	struct prio_calc_time calc;
	bool no_lag;           /* --no-lag: fairshare of the next cycle */
	bool start;            /* --start: squeue --start */
	bool brief;            /* --brief: one line per job of -u */
	bool mine;             /* --mine: --brief for the invoking user */
	bool forecast;         /* --forecast: the queue's start times */
	time_t forecast_until; /* --forecast-until, 0 none */
	bool forecast_history; /* --forecast-ends history */
	/* ... the users' Elapsed / Timelimit, built by calc_forecast_opts */
	struct prio_runtime_history runtime;
	bool runtime_built;
	bool sched_warned;   /* the unmodelled SchedulerParameters said */
};

#define CALC_USAGE                                                             \
	"prio-calc [SOURCES] [-l] [-n] [-w] [-o FORMAT] [-S SORT] [-u USERS] "  \
	"[-j[JOBS]] [-p PARTITIONS] [-h] [-P|--csv|--json] [--now T] [--at T] " \
	"[--no-lag] [--set K=V] [--explain JOBS | --compare | --rank | "        \
	"--start | --mine | -u USER --brief | --forecast [--forecast-until T] " \
	"[--forecast-ends limit|history] | "                                   \
	"--check | --history DIR -j JOBID [--chart|--table] [--ascii]]"

/* The -j, -u and -p filters, parsed against a snapshot. */
struct calc_filter {
	uint32_t *job_ids;
	uint32_t *task_ids; /* PRIO_NO_VAL: the whole job */
	size_t njobs;
	prio_id *users;     /* interned names */
	uint32_t *uids;
	size_t nusers, nuids;
	bool users_given;
	const char **partitions;
	size_t nparts;
};

void calc_filter_init(struct calc_filter *f, const struct calc_opts *o,
		      const struct prio_snapshot *snap);
void calc_filter_free(struct calc_filter *f);
bool calc_filter_job(const struct calc_filter *f, const struct prio_job *job);
bool calc_filter_partition(const struct calc_filter *f, const char *name);

/* Load the snapshot (with --at applied) and set the engine up; exits 2 on
 * error.  with_sets=false loads it without the what-if assignments.
 * Without --now and --at the engine's clock is Slurm's last priority
 * calculation (o->calc), else NOW with a warning when it is not found. */
/* The options every forecast of prio-calc shares: its first priority
 * calculation after NOW (first_calc) and, with --forecast-ends history,
 * the users' run times (runtime); exits 2 when history has no sacct. */
void calc_forecast_opts(struct calc_opts *o, const struct prio_snapshot *snap,
			struct prio_forecast_opts *fo);
void calc_load(struct calc_opts *o, struct prio_snapshot *snap,
	       struct prio_engine *e, bool with_sets);

/* --explain JOBID: exit status. */
int calc_explain(struct calc_opts *o);
/* --compare: exit status. */
int calc_compare(struct calc_opts *o);
/* --start (squeue --start) and --mine / --brief: exit status. */
int calc_start(struct calc_opts *o);
int calc_brief(struct calc_opts *o);
/* --forecast: exit status. */
int calc_forecast(struct calc_opts *o);
/* --history DIR -j JOBID: exit status (view: enum cmd_history_view). */
int calc_history(struct calc_opts *o, const char *dir, uint32_t job_id,
		 int view, bool ascii);

#endif
