/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --forecast: the whole queue's forecast (libprio forecast.h) as a
 * table, one row per pending job, earliest start first.  The filters -j, -u
 * and -p choose the rows printed, never the jobs simulated: every job takes
 * its share of the cluster whatever is shown.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio-calc.h"
#include "prio/forecast.h"

/* Laid out like the other sprio-style tables of prio-calc. */
static const struct prio_column fc_columns[] = {
    {.id = "job_id", .header = "JOBID", .width = 10, .right = true,
     .suffix = " "},
    {.id = "partition", .header = "PARTITION", .width = 9, .suffix = " "},
    {.id = "user", .header = "USER", .width = 8, .suffix = " "},
    {.id = "start", .header = "START", .width = 19, .suffix = " "},
    {.id = "end", .header = "END", .width = 19, .suffix = " "},
    {.id = "nodes", .header = "NODES", .width = 12, .suffix = " "},
    {.id = "by", .header = "BY", .width = 8, .suffix = " "},
    {.id = "slurm_start", .header = "SLURM_START", .width = 19,
     .suffix = " "},
    {.id = "reason", .header = "REASON", .width = 20, .suffix = " "},
    {.id = "freed_by", .header = "FREED_BY", .width = 14, .suffix = " "},
    {.id = "note", .header = "NOTE"},
    /* JSON only (last): starts, held, never or after, the word the text
     * prints in START when there is no time */
    {.id = "outcome", .header = "OUTCOME"},
};
enum { FC_NCOLS = sizeof(fc_columns) / sizeof(fc_columns[0]) };

/* The ids of the jobs whose end frees the nodes, "12,13" (at most a few,
 * then "+N"). */
static const char *freed_text(const struct prio_snapshot *snap,
			      const struct prio_forecast_row *r, char *buf,
			      size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < r->freed_count && n < size; k++) {
		if (k == 4) {
			snprintf(buf + n, size - n, ",+%u", r->freed_count - k);
			break;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%u", k ? "," : "",
				      snap->jobs[r->freed_by[k]].job_id);
	}
	return buf;
}

int calc_forecast(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_error err;
	struct prio_forecast fc;
	struct prio_forecast_opts fo = {0};
	struct calc_filter f;
	struct prio_writer *w;
	bool any = false;

	calc_load(o, &snap, &e, true);
	calc_filter_init(&f, o, &snap);
	prio_error_clear(&err);
	calc_forecast_opts(o, &snap, &fo);
	if (prio_forecast_run(&e, &fo, &fc, &err) < 0)
		cmd_die_error(c, &err);
	w = prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    fc_columns, FC_NCOLS - (c->mode != CMD_OUT_JSON), !c->noheader,
			    NULL);
	if (!w)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	/* JSON: "nodes" is a node count in every tool, the names nodelist;
	 * times are start_time and end_time as in --start */
	if (prio_writer_json_key(w, "nodes", "nodelist") < 0 ||
	    prio_writer_json_key(w, "start", "start_time") < 0 ||
	    prio_writer_json_key(w, "end", "end_time") < 0)
		cmd_die(c, "out of memory");
	for (uint32_t k = 0; k < fc.count; k++) {
		const struct prio_forecast_row *r = &fc.rows[k];
		const struct prio_job *job = &snap.jobs[r->job];
		const struct prio_partition *p =
		    r->partition != UINT32_MAX
			? &snap.partitions[r->partition]
			: prio_snapshot_partition(&snap, job->partitions[0]);
		const char *pname =
		    p ? prio_snapshot_str(&snap, p->name)
		      : prio_snapshot_str(&snap, job->partitions[0]);
		struct prio_cell cells[FC_NCOLS];
		char start[32], end[32], slurm[32], freed[128];

		if (!calc_filter_job(&f, job) || !calc_filter_partition(&f, pname))
			continue;
		any = true;
		cells[0] = prio_cell_uint(job->job_id);
		cells[1] = prio_cell_str(pname);
		cells[2] = prio_cell_str(prio_snapshot_str(&snap, job->user));
		if (r->status == PRIO_FC_STARTS) {
			cells[3] = prio_cell_str(
			    prio_timestamp_format(r->start, start, sizeof(start)));
			cells[4] = r->end ? prio_cell_str(prio_timestamp_format(
						r->end, end, sizeof(end)))
					  : prio_cell_label("Unknown");
			cells[5] = prio_cell_str(r->nodes);
			cells[6] = prio_cell_str(prio_forecast_how_name(r->how));
		} else {
			cells[3] = prio_cell_label(prio_forecast_status_name(
			    (enum prio_forecast_status)r->status));
			cells[4] = prio_cell_blank();
			cells[5] = prio_cell_blank();
			cells[6] = prio_cell_blank();
		}
		/* Slurm's own estimate (StartTime of a pending job), as
		 * the job record holds it */
		cells[7] = job->start_time
			       ? prio_cell_str(prio_timestamp_format(
				     job->start_time, slurm, sizeof(slurm)))
			       : prio_cell_blank();
		cells[FC_NCOLS - 1] = prio_cell_str(
		    prio_forecast_status_name((enum prio_forecast_status)r->status));
		cells[8] = job->reason != PRIO_NO_ID
			       ? prio_cell_str(prio_snapshot_str(&snap,
								 job->reason))
			       : prio_cell_blank();
		cells[9] = r->freed_count ? prio_cell_str(freed_text(
						&snap, r, freed, sizeof(freed)))
					  : prio_cell_blank();
		cells[10] = r->note ? prio_cell_str(r->note) : prio_cell_blank();
		if (prio_writer_row(w, cells) < 0)
			cmd_die_write(c);
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	prio_forecast_free(&fc);
	calc_filter_free(&f);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return any || !o->jobs ? EXIT_OK : EXIT_NO;
}
