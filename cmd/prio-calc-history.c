/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --history DIR -j JOBID: one job's priority and each weighted
 * term, sprio -l's columns, in each snapshot of a series (prio-snap
 * --every) where it is pending, each snapshot computed at its own NOW, and
 * a chart of PRIORITY over time.  A snapshot where the job is not pending
 * (not yet submitted, running, gone) has a row that says so.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "prio-calc.h"

/* sprio -l's columns from 23.02 (with ACCOUNT and the QOS name): one
 * layout for the whole series, whatever release took each snapshot. */
#define HISTORY_FORMAT                                                         \
	"%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P "      \
	"%.10n %.10Q %.11N %.20T"

static const struct prio_column head[] = {
    {"time", "TIME", 20, false, PRIO_NUMFMT_PLAIN, " "},
    {"now", "NOW", 10, true, PRIO_NUMFMT_PLAIN, " "},
};
static const struct prio_column note_col = {"note", "NOTE", 0, false,
					    PRIO_NUMFMT_PLAIN, NULL};

static void table_init(struct calc_opts *o, struct prio_sprio_table *t)
{
	char why[512];

	if (prio_sprio_table_init_in(t, prio_sprio_release(PRIO_SLURM_NEWEST),
				     HISTORY_FORMAT, NULL, NULL, why,
				     sizeof(why)) < 0)
		cmd_die(&o->c, "internal: %s", why);
	t->exact = o->c.mode == CMD_OUT_JSON;
}

static int letter_column(const struct prio_sprio_table *t, char letter)
{
	for (size_t k = 0; k < t->ncols; k++)
		if (t->letters[k] == letter)
			return (int)k;
	return -1;
}

/* Grow the kept rows by one: its cells, zeroed. */
static struct prio_cell *new_row(struct calc_opts *o, struct prio_cell **rows,
				 size_t *nrows, size_t *cap, size_t ncols)
{
	if (*nrows == *cap) {
		struct prio_cell *m;

		*cap = *cap ? 2 * *cap : 16;
		if (!(m = realloc(*rows, *cap * ncols * sizeof(**rows))))
			cmd_die(&o->c, "out of memory");
		*rows = m;
	}
	memset(*rows + *nrows * ncols, 0, ncols * sizeof(**rows));
	return *rows + (*nrows)++ * ncols;
}

int calc_history(struct calc_opts *o, const char *dir, uint32_t job_id,
		 int view, bool ascii)
{
	struct cmd_common *c = &o->c;
	struct cmd_history h;
	struct prio_sprio_table t, hdr;
	struct prio_column *cols;
	struct prio_cell *rows = NULL;
	size_t nrows = 0, cap = 0, ncols, found = 0, seen = 0;
	double *prio;
	char when[32], title[256];
	bool table, chart;
	int ci, cu;

	cmd_history_view(c, CALC_USAGE, (enum cmd_history_view)view, &table,
			 &chart);
	cmd_history_list(c, dir, &h);
	/* the columns (their headers point into the format: one table
	 * for them, kept to the end, and one per snapshot for the cells) */
	table_init(o, &hdr);
	table_init(o, &t);
	ncols = 2 + hdr.ncols + 1;
	ci = letter_column(&hdr, 'i');
	cu = letter_column(&hdr, 'u');
	cols = malloc(ncols * sizeof(*cols));
	prio = malloc(h.count * sizeof(*prio));
	if (!cols || !prio)
		cmd_die(c, "out of memory");
	cols[0] = head[0];
	cols[1] = head[1];
	memcpy(cols + 2, hdr.cols, hdr.ncols * sizeof(*cols));
	cols[ncols - 1] = note_col;
	/* the project's keys (issue 16): qos is the QOS's name everywhere,
	 * its weighted term qos_prio beside partition_prio */
	for (size_t k = 0; k < hdr.ncols; k++)
		if (hdr.letters[k] == 'n')
			cols[2 + k].id = "qos";
		else if (hdr.letters[k] == 'Q')
			cols[2 + k].id = "qos_prio";
	/* the last column before NOTE ends the sprio layout without a
	 * separator: give it one */
	cols[ncols - 2].suffix = " ";
	for (size_t i = 0; i < h.count; i++) {
		struct prio_snapshot snap;
		struct prio_engine e;
		struct prio_error err;
		const struct prio_job *job;
		const char *unlisted = NULL;
		struct prio_cell *cells;

		prio_error_clear(&err);
		cmd_load_snapshot_dir(c, h.dirs[i], &snap);
		h.nows[i] = snap.now;
		prio[i] = NAN;
		if (!snap.conf.priority_type ||
		    strcmp(snap.conf.priority_type, "priority/multifactor") != 0)
			cmd_die(c, "%s: PriorityType is %s: only "
				   "priority/multifactor is supported",
				h.dirs[i],
				snap.conf.priority_type ? snap.conf.priority_type
							: "(null)");
		if (prio_engine_init_fs(&e, &snap, snap.now,
					o->no_lag ? PRIO_FS_NO_LAG : 0,
					&err) < 0)
			cmd_die_error(c, &err);
		cmd_partial(c, &snap, PRIO_NEEDS_FAIRSHARE, "FAIRSHARE and "
			    "PRIORITY", true);
		job = prio_snapshot_find_job(&snap, job_id);
		if (job) {
			seen++;
			unlisted = prio_job_unlisted_reason(&e, job);
		}
		if (!job || unlisted) {
			cells = new_row(o, &rows, &nrows, &cap, ncols);
			if (ci >= 0)
				cells[2 + ci] = prio_cell_uint(job_id);
			if (job && cu >= 0)
				cells[2 + cu] = prio_cell_str(
				    prio_snapshot_str(&snap, job->user));
			cells[ncols - 1] =
			    prio_cell_str(job ? unlisted
					      : "not in this snapshot");
		} else {
			struct prio_job_factors own, jf;
			uint32_t *parts =
			    malloc((size_t)(e.max_job_partitions + 1) *
				   sizeof(*parts));
			uint32_t np, nq = prio_job_qos_count(job);

			if (!parts)
				cmd_die(c, "out of memory");
			found++;
			np = prio_job_partitions(&e, job, parts);
			prio_job_factors(&e, job, &own);
			/* a row per partition and QOS, as sprio lists them */
			for (uint32_t k = 0; k < np * nq; k++) {
				struct prio_row row;
				prio_id qos =
				    prio_job_factors_at(&e, job, &own, k % nq,
							&jf);

				prio_row_compute(&e, job, &jf, parts[k / nq],
						 &row);
				if (prio_sprio_row_cells_qos(&t, &e, job, &jf,
							     &row, qos) < 0)
					cmd_die(c, "out of memory");
				cells = new_row(o, &rows, &nrows, &cap, ncols);
				memcpy(cells + 2, t.cells,
				       t.ncols * sizeof(*cells));
				if (isnan(prio[i]) || row.sum > prio[i])
					prio[i] = floor(row.sum);
				cells[0] = prio_cell_str(cmd_history_time(
				    snap.now, when, sizeof(when)));
				cells[1] = prio_cell_int((int64_t)snap.now);
				cmd_history_keep_cells(c, cells, ncols);
			}
			free(parts);
			/* the TRES cells point into the table's buffers:
			 * a fresh table for the next snapshot */
			prio_sprio_table_free(&t);
			table_init(o, &t);
			prio_engine_free(&e);
			prio_snapshot_free(&snap);
			continue;
		}
		cells[0] = prio_cell_str(
		    cmd_history_time(snap.now, when, sizeof(when)));
		cells[1] = prio_cell_int((int64_t)snap.now);
		cmd_history_keep_cells(c, cells, ncols);
		prio_engine_free(&e);
		prio_snapshot_free(&snap);
	}
	if (!seen)
		cmd_die(c, "--history: no job %u in any of the %zu snapshots",
			job_id, h.count);
	if (table) {
		struct prio_writer *w = prio_writer_new(
		    stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO, cols,
		    ncols, !c->noheader, NULL);

		if (!w)
			cmd_die(c, "cannot start the table: %s",
				strerror(errno));
		for (size_t r = 0; r < nrows; r++)
			if (prio_writer_row(w, rows + r * ncols) < 0)
				cmd_die_write(c);
		if (prio_writer_finish(w) < 0)
			cmd_die_write(c);
	}
	if (chart && !found) {
		/* the rows said why: nothing to draw */
		printf("%sjob %u is pending in none of the snapshots: no "
		       "chart\n",
		       table ? "\n" : "", job_id);
	} else if (chart) {
		if (table)
			putchar('\n');
		snprintf(title, sizeof(title),
			 "PRIORITY of job %u (its highest partition), %zu "
			 "snapshots",
			 job_id, h.count);
		cmd_history_chart(c, title, h.nows, prio, h.count, NAN, NAN,
				  ascii);
	}
	cmd_history_free_cells(rows, nrows * ncols);
	prio_sprio_table_free(&t);
	prio_sprio_table_free(&hdr);
	free(cols);
	free(prio);
	cmd_history_free(&h);
	return EXIT_OK;
}
