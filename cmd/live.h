/* SPDX-License-Identifier: MIT */
/*
 * --live: take a snapshot of the running cluster with prio-snap(1) into a
 * private temporary folder, so every tool asks Slurm exactly what prio-snap
 * asks and reads it with the same loaders as a saved snapshot.
 */
#ifndef PRIO_CMD_LIVE_H
#define PRIO_CMD_LIVE_H

#include <stddef.h>

#include "common.h"

/* Run prio-snap into a new temporary folder; its path goes to dir.  On a
 * missing command, a non-zero exit or a controller error prints one line
 * naming the command and its error, and exits 2. */
void cmd_live_capture(const struct cmd_common *c, char *dir, size_t size);
/* Remove the folder cmd_live_capture() made. */
void cmd_live_cleanup(const char *dir);

#endif
