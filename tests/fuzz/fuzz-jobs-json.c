/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_jobs_squeue_json. */
#define FUZZ_LOAD prio_load_jobs_squeue_json
#include "harness.h"
