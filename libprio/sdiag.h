/* SPDX-License-Identifier: MIT */
/*
 * A snapshot folder's sdiag.txt: what `sdiag` printed at capture, read for
 * the backfill scheduler's timer (when its last cycle started, and how
 * long it ran).
 */
#ifndef PRIO_SDIAG_H
#define PRIO_SDIAG_H

#include "prio/snapshot.h"
#include "prio/source.h"

/* Read path into snap->bf_last_cycle and snap->bf_last_cycle_us; < 0 with
 * err set (file, line, field) when it is not sdiag's output. */
int prio_load_sdiag(struct prio_snapshot *snap, const char *path,
		    struct prio_error *err);
/* The same from an open source (the fuzz target's way in). */
int prio_sdiag_read(struct prio_snapshot *snap, struct prio_source *src,
		    struct prio_error *err);

#endif
