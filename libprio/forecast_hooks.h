/* SPDX-License-Identifier: MIT */
/*
 * Test hooks of the forecast (tests/unit); all zero in a program.  eager:
 * each backfill pass sweeps every job it tests in turn, none put off (no
 * may_fit_now() filter, no deferred sweeps): the plain rule the pass's
 * shortcuts must give the same starts and reservations as.
 */
#ifndef FORECAST_HOOKS_H
#define FORECAST_HOOKS_H

#include <stdbool.h>

struct fc_test_hooks {
	bool eager;
};
extern struct fc_test_hooks fc_test;

#endif
