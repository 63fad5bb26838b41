/* SPDX-License-Identifier: MIT */
/*
 * --check: load a snapshot and report what it holds (inputs, record counts,
 * jobs by state) and every problem found, as a table of (section, item,
 * value) rows in any output mode.  Shared by every command.
 */
#ifndef PRIO_CMD_CHECK_H
#define PRIO_CMD_CHECK_H

#include "common.h"

/* Print the report; returns the exit status (0 clean, 2 problems). */
int cmd_check_report(const struct cmd_common *c,
		     const struct prio_snapshot *snap);

/* The same with a command's own rows: more(ctx, w, 0) right after the
 * clock row, more(ctx, w, 1) at the end.  It adds them with
 * cmd_check_row(). */
typedef void (*cmd_check_more)(void *ctx, struct prio_writer *w, int where);
int cmd_check_report_with(const struct cmd_common *c,
			  const struct prio_snapshot *snap,
			  cmd_check_more more, void *ctx);
/* One row (what, item, count, detail); count < 0 leaves it blank. */
void cmd_check_row(struct prio_writer *w, const char *what, const char *item,
		   long long count, const char *detail);

#endif
