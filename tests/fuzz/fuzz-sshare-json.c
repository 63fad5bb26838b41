/* SPDX-License-Identifier: MIT */
/* libFuzzer target for prio_load_sshare_json. */
#define FUZZ_LOAD prio_load_sshare_json
#include "harness.h"
