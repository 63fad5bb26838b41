/* SPDX-License-Identifier: MIT */
/*
 * Report windows as sreport takes them: start= and end= in Slurm's time
 * formats (sreport(1) "OPTIONS FOR ALL REPORT TYPES"), rounded down to
 * the hour because slurmdbd rolls usage up by the hour, and cut into
 * calendar buckets (day, week, month) for series.  Local time throughout,
 * as Slurm prints and parses it.
 */
#ifndef PRIO_WINDOW_H
#define PRIO_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * Parse one of the time forms sreport, sacct and scontrol accept, relative
 * to now (local time):
 *   YYYY-MM-DD[THH:MM[:SS]]     MMDD[YY]      MM/DD[/YY]      MM.DD[.YY]
 *   MM/DD[/YY]-HH:MM[:SS]       HH:MM[:SS][AM|PM] (today)
 *   now[{+|-}COUNT[seconds|minutes|hours|days|weeks]]  (unit prefixes ok)
 *   today, midnight (today 00:00), noon, fika (15:00), teatime (16:00),
 *   tomorrow (tomorrow 00:00), and a Unix time written as "@SECONDS".
 * Returns 0 and *out, or -1 when s is none of these.
 */
int prio_slurm_time_parse(const char *s, time_t now, time_t *out);

/* The window of an hourly roll-up: [start, end). */
struct prio_window {
	time_t start, end;
};

/*
 * The window sreport reports for start=/end= (either may be NULL for its
 * default: start 00:00 of the previous day, end 00:00 of today; an end
 * after `now` is now), on the hour as the release rounds it: to 24.11 a
 * given time to the nearest hour, from 25.05 (round_outward, the release
 * table's sreport_round_outward) a start down and an end up - the default
 * end too, which then is 01:00 today unless `now` is on the hour.  A
 * window shorter than an hour becomes start plus one hour.  Returns 0, or
 * -1 with *bad set to the text that did not parse.  prio_window_from_args()
 * is 22.05's sreport.
 */
int prio_window_from_args_in(const char *start, const char *end, time_t now,
			     bool round_outward, struct prio_window *w,
			     const char **bad);
int prio_window_from_args(const char *start, const char *end, time_t now,
			  struct prio_window *w, const char **bad);

enum prio_bucket_by {
	PRIO_BY_NONE = 0, /* one bucket: the window */
	PRIO_BY_DAY,      /* local midnight to midnight */
	PRIO_BY_WEEK,     /* Monday 00:00 to Monday 00:00 */
	PRIO_BY_MONTH,    /* the 1st 00:00 to the next 1st */
};

/*
 * Cut w into buckets at calendar boundaries (the first and last may be
 * partial).  Writes count+1 bounds to *bounds (malloc'ed, caller frees):
 * bucket i is [bounds[i], bounds[i+1]).  Returns the bucket count, or -1 on
 * allocation failure or more than 100000 buckets.
 */
long prio_window_buckets(const struct prio_window *w, enum prio_bucket_by by,
			 time_t **bounds);

#endif
