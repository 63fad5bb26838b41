/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "common.h"
