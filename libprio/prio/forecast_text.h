/* SPDX-License-Identifier: MIT */
/*
 * The "When" part of an explanation in words (issue 15): Slurm's own start
 * estimate of a pending job, our forecast's (forecast.h), what it waits for
 * and what a shorter time limit would do.  prio-calc --explain prints it
 * after the priority's explanation, prio-top's detail view the same lines:
 * one text for both front ends.
 */
#ifndef PRIO_FORECAST_TEXT_H
#define PRIO_FORECAST_TEXT_H

#include "explain_text.h"
#include "forecast.h"

/*
 * Render the "When" lines of snapshot job `job` (section "when"; items
 * slurm_start, start, freed_by, shorter_limit, note) from the forecast fc
 * of the snapshot and sh, what prio_forecast_shorter found for it (its
 * tried_count 0 when it was not asked).  A job that is not pending has no
 * such part: nothing is rendered.  Returns 0, or the callback's non-zero
 * return that stopped it.
 */
int prio_forecast_when_render(const struct prio_snapshot *snap,
			      const struct prio_forecast *fc, uint32_t job,
			      const struct prio_forecast_shorter *sh,
			      prio_explain_line_fn fn, void *ctx);

#endif
