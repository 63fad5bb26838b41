/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_slurmconf_source. */
#define FUZZ_LOAD prio_load_slurmconf_source
#include "harness.h"
