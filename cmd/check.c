/* SPDX-License-Identifier: MIT */
/*
 * --check: what a snapshot holds, and every problem found while loading it.
 * One table of (what, item, count, detail) rows so that -P, --csv and --json
 * work like everywhere else.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const struct prio_column check_columns[] = {
	{ .id = "what", .header = "WHAT", .width = 8, .right = false },
	{ .id = "item", .header = "ITEM", .width = 22, .right = false },
	{ .id = "count", .header = "COUNT", .width = 9, .right = true },
	{ .id = "detail", .header = "DETAIL", .width = 0, .right = false },
};

static void row(struct prio_writer *w, const char *what, const char *item,
		long long count, const char *detail)
{
	struct prio_cell cells[4];

	cells[0] = (struct prio_cell){ .kind = PRIO_CELL_STR, .s = what };
	cells[1] = (struct prio_cell){ .kind = PRIO_CELL_STR, .s = item };
	if (count < 0)
		cells[2] = (struct prio_cell){ .kind = PRIO_CELL_BLANK };
	else
		cells[2] = (struct prio_cell){ .kind = PRIO_CELL_INT, .i = count };
	if (detail && *detail)
		cells[3] = (struct prio_cell){ .kind = PRIO_CELL_STR, .s = detail };
	else
		cells[3] = (struct prio_cell){ .kind = PRIO_CELL_BLANK };
	prio_writer_row(w, cells);
}

void cmd_check_row(struct prio_writer *w, const char *what, const char *item,
		   long long count, const char *detail)
{
	row(w, what, item, count, detail);
}

int cmd_check_report(const struct cmd_common *c,
		     const struct prio_snapshot *snap)
{
	return cmd_check_report_with(c, snap, NULL, NULL);
}

int cmd_check_report_with(const struct cmd_common *c,
			  const struct prio_snapshot *snap,
			  cmd_check_more more, void *ctx)
{
	struct prio_writer *w;
	uint32_t by_state[PRIO_JOB_STATE_COUNT] = { 0 };
	uint32_t accounts = 0, users = 0, steps = 0;
	uint32_t distinct_users = 0;
	unsigned char *seen;
	char buf[1024], when[64];

	w = prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    check_columns, 4, !c->noheader, NULL);
	if (!w)
		cmd_die(c, "out of memory");

	for (uint32_t i = 0; i < snap->loaded_count; i++)
		row(w, "input", prio_input_kind_name(snap->loaded[i].kind),
		    (long long)snap->loaded[i].records, snap->loaded[i].name);
	snprintf(buf, sizeof(buf), "%s (%lld)",
		 prio_timestamp_format(snap->now, when, sizeof(when)),
		 (long long)snap->now);
	row(w, "clock", "now", -1, buf);
	row(w, "clock", "zone", -1,
	    prio_snapshot_zone_describe(snap, buf, sizeof(buf)));
	if (more)
		more(ctx, w, 0);
	{
		const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);
		char name[16];

		snprintf(buf, sizeof(buf), "%s (from %s)",
			 snap->slurm_release ? prio_slurm_version_name(snap->slurm_release, name, sizeof(name))
					     : rel->name,
			 prio_slurm_version_source_name(snap->slurm_release_source));
		row(w, "slurm", "version", -1, buf);
	}

	if (snap->have_config) {
		char flags[256];

		row(w, "config", "cluster", -1, snap->conf.cluster_name);
		row(w, "config", "priority type", -1, snap->conf.priority_type);
		row(w, "config", "priority flags", -1,
		    prio_priority_flags_format(snap->conf.priority_flags, flags,
					       sizeof(flags)));
		/* as this release's scontrol show config prints them: before
		 * 25.11.1 any NO_NORMAL_* flag reads NO_NORMAL_ALL */
		row(w, "config", "scontrol flags", -1,
		    prio_priority_flags_slurm(snap->conf.priority_flags,
					      prio_snapshot_slurm(snap), flags,
					      sizeof(flags)));
	}
	row(w, "count", "partitions", snap->partition_count, NULL);
	row(w, "count", "nodes", snap->node_count, NULL);
	row(w, "count", "qos", snap->qos_count, NULL);

	seen = calloc(snap->strings.count ? snap->strings.count : 1, 1);
	if (!seen)
		cmd_die(c, "out of memory");
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		const struct prio_assoc *a = &snap->assocs[i];

		if (a->is_user) {
			users++;
			if (!seen[a->user]) {
				seen[a->user] = 1;
				distinct_users++;
			}
		} else if (a->parent != PRIO_ASSOC_NONE) {
			accounts++;
		}
	}
	free(seen);
	row(w, "count", "associations", snap->assoc_count, NULL);
	row(w, "count", "accounts", accounts, "excluding root");
	row(w, "count", "user associations", users, NULL);
	row(w, "count", "users", distinct_users, "distinct names");

	for (uint32_t i = 0; i < snap->job_count; i++)
		by_state[snap->jobs[i].state]++;
	row(w, "count", "jobs", snap->job_count, NULL);
	for (int s = 0; s < PRIO_JOB_STATE_COUNT; s++)
		if (by_state[s])
			row(w, "jobs", prio_job_state_name((enum prio_job_state)s),
			    by_state[s], NULL);
	for (uint32_t i = 0; i < snap->sacct_count; i++)
		steps += snap->sacct[i].is_step;
	row(w, "count", "sacct records", snap->sacct_count - steps, "jobs");
	if (steps)
		row(w, "count", "sacct steps", steps, NULL);

	for (uint32_t i = 0; i < snap->warning_count; i++)
		row(w, "problem", snap->warnings[i].error.field, -1,
		    prio_error_format(&snap->warnings[i].error, buf, sizeof(buf)));
	/* The clock: not problems of a record (the exit status stays), but
	 * what makes every age and the queue itself wrong. */
	{
		struct prio_clock_notes notes;

		prio_snapshot_clock_notes(snap, &notes);
		if (*notes.zone)
			row(w, "warning", "zone", -1, notes.zone);
		if (*notes.future)
			row(w, "warning", "SubmitTime", -1, notes.future);
		if (*notes.wall)
			row(w, "warning", "NOW", -1, notes.wall);
	}
	/* What PrivateData hid from the capturer (privacy.c): the outputs
	 * that depend on it are blank or refused, not wrong. */
	{
		static const char *const view_item[PRIO_VIEW_COUNT] = {
			[PRIO_VIEW_USAGE] = "partial usage",
			[PRIO_VIEW_JOBS] = "partial jobs",
			[PRIO_VIEW_HISTORY] = "partial sacct",
		};

		for (int v = 0; v < PRIO_VIEW_COUNT; v++)
			if (prio_privacy_view_partial(snap, v, buf, sizeof(buf)))
				row(w, "warning", view_item[v], -1, buf);
	}
	if (more)
		more(ctx, w, 1);
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	return snap->warning_count ? EXIT_ERROR : EXIT_OK;
}
