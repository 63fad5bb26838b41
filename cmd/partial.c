/* SPDX-License-Identifier: MIT */
/*
 * The commands' side of privacy.c: one line when an output cannot be
 * computed from a snapshot that holds only what PrivateData let its
 * capturer see.  The rule (which output needs which view) is libprio's;
 * each command only says what it leaves blank or refuses.
 */
#include "config.h"

#include <stdlib.h>

#include "common.h"

bool cmd_partial(const struct cmd_common *c, const struct prio_snapshot *snap,
		 enum prio_needs need, const char *what, bool refuse)
{
	char why[768];

	if (!prio_privacy_blocked(snap, need, why, sizeof(why)))
		return false;
	if (refuse)
		cmd_die(c, "%s: cannot be computed from a partial snapshot: %s; "
			   "--assume-complete if it is whole",
			what, why);
	cmd_warn(c, "warning: %s left blank: %s; --assume-complete if the "
		    "snapshot is whole",
		 what, why);
	return true;
}
