/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_scontrol_config. */
#define FUZZ_LOAD prio_load_scontrol_config
#include "harness.h"
