/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_sshare. */
#define FUZZ_LOAD prio_load_sshare
#include "harness.h"
