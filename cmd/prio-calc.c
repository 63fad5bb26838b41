/* SPDX-License-Identifier: MIT */
#include "config.h"
#include <stdio.h>
#include "prio/prio.h"
int main(void) { struct prio_snapshot s; prio_snapshot_init(&s); prio_snapshot_free(&s); return 0; }
