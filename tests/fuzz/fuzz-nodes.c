/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_scontrol_nodes. */
#define FUZZ_LOAD prio_load_scontrol_nodes
#include "harness.h"
