/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_sacct. */
#define FUZZ_LOAD prio_load_sacct
#include "harness.h"
