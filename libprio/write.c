/* SPDX-License-Identifier: MIT */
/* Placeholder. */
#include "config.h"
#include "prio/write.h"
int prio_write_placeholder_(void);
int prio_write_placeholder_(void) { return 0; }
