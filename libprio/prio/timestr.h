/* SPDX-License-Identifier: MIT */
/*
 * Slurm's time strings and timestamps.
 *  - durations: "min", "min:sec", "h:m:s", "d-h", "d-h:m", "d-h:m:s",
 *    "INFINITE"/"UNLIMITED"/"-1" (slurm-facts §10);
 *  - timestamps: "YYYY-MM-DDTHH:MM:SS" in local time, as scontrol, squeue and
 *    sacct print them, and "Unknown"/"None"/"N/A" for unset.
 */
#ifndef PRIO_TIMESTR_H
#define PRIO_TIMESTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define PRIO_NO_VAL   0xfffffffeu
#define PRIO_INFINITE 0xffffffffu
#define PRIO_NO_VAL16   0xfffeu
#define PRIO_INFINITE16 0xffffu
#define PRIO_NO_VAL64   0xfffffffffffffffeull
#define PRIO_INFINITE64 0xffffffffffffffffull

/* Parse a duration into seconds.  Returns 0 and *secs, PRIO_INFINITE in
 * *secs for INFINITE/UNLIMITED/-1, or -1 when s is not a time string. */
int prio_time_str2secs(const char *s, size_t n, uint32_t *secs);
/* Same, in whole minutes with seconds rounded up (Slurm's time_str2mins). */
int prio_time_str2mins(const char *s, size_t n, uint32_t *mins);

/* "D-HH:MM:SS" when days > 0, else "HH:MM:SS"; "UNLIMITED" for
 * PRIO_INFINITE; "INVALID" for negative. */
const char *prio_secs2time_str(int64_t secs, char *buf, size_t size);
const char *prio_mins2time_str(uint32_t mins, char *buf, size_t size);

/* Parse "YYYY-MM-DDTHH:MM:SS" (local time, also "YYYY-MM-DD HH:MM:SS",
 * "YYYY-MM-DDTHH:MM" and "YYYY-MM-DD", and a plain decimal epoch) into *t.
 * "Unknown", "None", "N/A", "(null)" and "" give *t = 0 and return 0.
 * Local means the process's zone, which is the snapshot's recorded zone
 * once one was loaded (prio_zone_use()).  A trailing "Z", "+HH:MM",
 * "+HHMM" or "+HH" (never printed by Slurm; what a user may type) makes
 * the time absolute.  At the DST edges: a reading in the repeated hour is
 * its first instant (still summer time); one in the skipped hour is no
 * time of that zone and returns -2.  Returns -1 when malformed. */
int prio_timestamp_parse(const char *s, size_t n, time_t *t);
/* A local reading (fields in range) to *out, with prio_timestamp_parse()'s
 * rule at the DST edges: the first instant of a repeated reading, -2 for a
 * skipped one. */
int prio_local_time(int year, int mon, int day, int hour, int min, int sec,
		    time_t *out);
/* Days from 1970-01-01 to y-m-d, proleptic Gregorian (m 1..12, d 1..31). */
int64_t prio_civil_days(int64_t y, unsigned m, unsigned d);
/* True when year-mon-day hh:mi:ss names a real local clock reading: month
 * 1..12, day within that month (Gregorian leap years), hour 0..23, minute
 * and second 0..59.  Slurm never prints anything else, and mktime() would
 * quietly turn 2026-02-30 into March 2nd. */
bool prio_timestamp_valid(int year, int mon, int day, int hour, int min,
			  int sec);
/* For an error about s, which prio_timestamp_parse() refused: what was
 * expected, saying "a real calendar day" or "a real time of day" when s
 * has the shape of a timestamp but no calendar has it (2026-02-30,
 * 25:00:00), or a time that exists when the clocks skipped it; NULL when
 * s is not shaped like one. */
const char *prio_timestamp_expected(const char *s, size_t n);
/* "YYYY-MM-DDTHH:MM:SS" in local time; "Unknown" for 0. */
const char *prio_timestamp_format(time_t t, char *buf, size_t size);

#endif
