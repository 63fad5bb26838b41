/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_qos. */
#define FUZZ_LOAD prio_load_qos
#include "harness.h"
