/* SPDX-License-Identifier: MIT */
#include <criterion/criterion.h>

#include "testutil.h"
