/* SPDX-License-Identifier: MIT */
/* Placeholder. */
#include "config.h"
#include "prio/format.h"
int prio_format_placeholder_(void);
int prio_format_placeholder_(void) { return 0; }
