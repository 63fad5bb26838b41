/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_scontrol_partitions. */
#define FUZZ_LOAD prio_load_scontrol_partitions
#include "harness.h"
