/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_sdiag_read (a snapshot folder's sdiag.txt). */
#include "sdiag.h"
#define FUZZ_LOAD prio_sdiag_read
#include "harness.h"
