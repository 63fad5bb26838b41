/* SPDX-License-Identifier: MIT */
/*
 * Are the loaded inputs enough for the weights in force?  A weight the
 * inputs cannot serve (a fairshare weight without associations, a QOS
 * weight without QOS, job size or TRES weights without nodes) is an input
 * error, not a silent 0.  Shared by prio-calc and prio-top.
 */
#ifndef PRIO_PRIORITY_INPUTS_H
#define PRIO_PRIORITY_INPUTS_H

#include <stdbool.h>

#include "error.h"
#include "priority.h"

/* Returns 0, or PRIO_ERR_MISSING with err naming the weight and the option
 * that would serve it.  Only when some job is listed (nothing to compute
 * otherwise).  *no_usage (may be NULL) tells that the fairshare weight
 * meets an association tree without RawUsage: worth a warning. */
int prio_engine_check_inputs(const struct prio_engine *e,
			     struct prio_error *err, bool *no_usage);

#endif
