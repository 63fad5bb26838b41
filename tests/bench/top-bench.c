/* SPDX-License-Identifier: MIT */
/*
 * top-bench: time prio-top's clock tick and the model side of a redraw on
 * a snapshot folder (tests/bench/gen's M or L, or any prio-snap folder):
 *
 *   top-bench DIR [TICKS [DELAY]]
 *   top-bench --check DIR...
 *
 * loads DIR (without sacct.txt: the viewer needs RawUsage, which sshare.txt
 * holds), builds the model at the snapshot's clock, then moves the clock
 * TICKS times (default 20) by DELAY seconds (default 3, prio-top's -d) with
 * prio_top_advance(), as prio-top does every -d, and prints the median and
 * the slowest tick in milliseconds of CPU time (the machine may be shared:
 * CPU time moves less with the load than the wall clock).  A redraw is
 * timed as what the model gives a frame after a tick: the cells of the
 * first 60 rows of the view (prio-top measures its columns again only
 * when a tick changes a width); and a sort by priority (on a key press).
 *
 * --check is the test of the incremental tick (tests/cli/top-tick.sh):
 * for each folder, two models (sorted by rank from the snapshot's clock,
 * and by factors from 200 s before it) are moved through steps of 1 s to
 * 20 days (across PriorityCalcPeriod cycles, past PriorityMaxAge and
 * begin times) and, at each clock, compared with a model computed afresh
 * there: every row, its
 * rank, priority and terms to the bit, the order shown and the association
 * factors must be the same.  Exit 1 at the first difference.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prio/top.h"

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static void die(const struct prio_error *err)
{
	char buf[1024];

	fprintf(stderr, "top-bench: %s\n",
		prio_error_format(err, buf, sizeof(buf)));
	exit(1);
}

/* The cells a 60-row frame draws. */
static size_t draw(const struct prio_top *t)
{
	char buf[64];
	size_t bytes = 0;

	for (uint32_t k = 0; k < t->nview && k < 60; k++)
		for (int c = 0; c < PRIO_TOP_COL_COUNT; c++)
			bytes += strlen(prio_top_cell(
			    t, &t->jobs[t->view[k]], (enum prio_top_col)c, buf,
			    sizeof(buf)));
	return bytes;
}

static struct prio_snapshot *load(const char *dir)
{
	struct prio_snapshot *snap = calloc(1, sizeof(*snap));
	struct prio_error err;

	prio_error_clear(&err);
	if (!snap || prio_snapshot_init(snap) < 0) {
		fprintf(stderr, "top-bench: out of memory\n");
		exit(1);
	}
	snap->folder_roles &= ~(1u << PRIO_ROLE_SACCT);
	if (prio_snapshot_load_sources(snap, dir, NULL, &err) < 0 ||
	    prio_snapshot_finish(snap, &err) < 0)
		die(&err);
	return snap;
}

static int differ(const char *dir, time_t at, const char *what)
{
	fprintf(stderr, "top-bench: %s at %lld: %s differs from a full "
		"computation\n", dir, (long long)at, what);
	return 1;
}

/* The model moved by ticks (a) and computed at its clock (b). */
static int same(const char *dir, const struct prio_top *a,
		const struct prio_top *b)
{
	const struct prio_engine *ea = a->engine, *eb = b->engine;

	if (a->now != b->now)
		return differ(dir, b->now, "the clock");
	if (a->njobs != b->njobs || a->nview != b->nview)
		return differ(dir, b->now, "the row count");
	for (uint32_t k = 0; k < a->njobs; k++) {
		const struct prio_top_job *x = &a->jobs[k], *y = &b->jobs[k];

		if (x->job != y->job || x->partition != y->partition ||
		    x->qos != y->qos || x->rank != y->rank ||
		    x->part_rank != y->part_rank ||
		    x->priority != y->priority || x->change != y->change ||
		    x->moved != y->moved ||
		    memcmp(x->points, y->points, sizeof(x->points)) ||
		    memcmp(&x->sum, &y->sum, sizeof(x->sum)))
			return differ(dir, b->now, "a row");
		if (memcmp(&a->queue->entries[k], &b->queue->entries[k],
			   sizeof(a->queue->entries[k])))
			return differ(dir, b->now, "a queue entry");
	}
	if (a->njobs && (memcmp(a->order, b->order,
				a->njobs * sizeof(*a->order)) ||
			 memcmp(a->view, b->view, a->nview * sizeof(*a->view))))
		return differ(dir, b->now, "the table's order");
	if (memcmp(&a->max_sum, &b->max_sum, sizeof(a->max_sum)) ||
	    a->max_priority != b->max_priority)
		return differ(dir, b->now, "the largest sum or priority");
	if (a->snap->assoc_count && ea->assoc_factors && eb->assoc_factors &&
	    memcmp(ea->assoc_factors, eb->assoc_factors,
		   a->snap->assoc_count * sizeof(*ea->assoc_factors)))
		return differ(dir, b->now, "the association factors");
	if ((a->fs == NULL) != (b->fs == NULL))
		return differ(dir, b->now, "the tree");
	return 0;
}

static int check(int argc, char **argv)
{
	static const time_t steps[] = {1,   1,     3,	  3,	   3,
				       60,  299,   300,	  301,	   3600,
				       3,   86400, 3,	  7 * 86400, 3,
				       600, 20 * 86400, 3, 3,  1};
	struct prio_error err;
	int rows = 0;

	prio_error_clear(&err);
	for (int i = 0; i < argc * 2; i++) {
		/* sorted by rank from the capture's clock; sorted by factors
		 * from before it (Slurm's last calculation, prio_top_init) */
		struct prio_snapshot *snap = load(argv[i / 2]);
		enum prio_top_col col =
		    i % 2 ? PRIO_TOP_COL_FACTORS : PRIO_TOP_COL_RANK;
		struct prio_top a;

		if (prio_top_init(&a, snap, i % 2 ? snap->now - 200 : 0, &err) <
		    0)
			die(&err);
		prio_top_sort(&a, col, i % 2);
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			struct prio_top b;
			time_t at = a.now + steps[s];

			if (prio_top_advance(&a, at, &err) < 0 ||
			    prio_top_init(&b, load(argv[i / 2]), at, &err) < 0)
				die(&err);
			prio_top_sort(&b, col, i % 2);
			if (same(argv[i / 2], &a, &b))
				return 1;
			rows += (int)b.njobs;
			prio_top_free(&b);
		}
		prio_top_free(&a);
	}
	printf("top-bench --check: %d folders, %d rows compared, the same\n",
	       argc, rows);
	return 0;
}

int main(int argc, char **argv)
{
	struct prio_snapshot *snap;
	struct prio_error err;
	struct prio_top t;
	struct timespec t0;
	int ticks = argc > 2 ? atoi(argv[2]) : 20;
	double delay = argc > 3 ? atof(argv[3]) : 3.0, *ms;
	double load_ms, init_ms, redraw_ms, sort_ms;
	size_t bytes;

	if (argc > 1 && !strcmp(argv[1], "--check"))
		return check(argc - 2, argv + 2);
	if (argc < 2 || ticks < 1 || delay < 1) {
		fprintf(stderr, "usage: top-bench DIR [TICKS [DELAY]]\n"
				"       top-bench --check DIR...\n");
		return 2;
	}
	ms = calloc((size_t)ticks, sizeof(*ms));
	if (!ms)
		return 1;
	prio_error_clear(&err);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	snap = load(argv[1]);
	load_ms = ms_since(&t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (prio_top_init(&t, snap, 0, &err) < 0)
		die(&err);
	init_ms = ms_since(&t0);
	for (int k = 0; k < ticks; k++) {
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		if (prio_top_advance(&t, t.now + (time_t)delay, &err) < 0)
			die(&err);
		ms[k] = ms_since(&t0);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	bytes = draw(&t);
	redraw_ms = ms_since(&t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	prio_top_sort(&t, PRIO_TOP_COL_PRIORITY, true);
	sort_ms = ms_since(&t0);
	qsort(ms, (size_t)ticks, sizeof(*ms), cmp_double);
	printf("%u queue rows (%u pending, %u running jobs); load %.0f ms, "
	       "model %.1f ms\n",
	       t.njobs, t.pending, t.running, load_ms, init_ms);
	printf("tick (%d x %.0f s): median %.2f ms, slowest %.2f ms\n", ticks,
	       delay, ms[ticks / 2], ms[ticks - 1]);
	printf("redraw (%zu bytes of cells): %.3f ms; a sort by priority: "
	       "%.2f ms\n",
	       bytes, redraw_ms, sort_ms);
	prio_top_free(&t);
	free(ms);
	return 0;
}
