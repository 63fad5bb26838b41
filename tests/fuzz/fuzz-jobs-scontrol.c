/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_jobs_scontrol. */
#define FUZZ_LOAD prio_load_jobs_scontrol
#include "harness.h"
