/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_assoc_dump. */
#define FUZZ_LOAD prio_load_assoc_dump
#include "harness.h"
