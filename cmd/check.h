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

#endif
