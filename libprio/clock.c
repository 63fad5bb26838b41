/* SPDX-License-Identifier: MIT */
/*
 * The snapshot's clock and zone.  Slurm's text outputs print local times
 * without an offset, so a folder read in another zone than the cluster's
 * shifts every submit time: the queue empties (submits after NOW) or every
 * AGE pins at its maximum, with nothing wrong in any single file.  These
 * checks turn that into words: the zone prio-snap recorded against ours,
 * pending jobs from the future, and a NOW that was only the wall clock.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prio/job.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

int prio_parse_utc_offset(const char *s, size_t len, long *out)
{
	long h, m;

	/* date +%z: a sign and exactly four digits */
	if (len != 5 || (s[0] != '+' && s[0] != '-'))
		return -1;
	for (size_t i = 1; i < 5; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	h = (s[1] - '0') * 10 + (s[2] - '0');
	m = (s[3] - '0') * 10 + (s[4] - '0');
	if (h > 23 || m > 59)
		return -1;
	*out = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
	return 0;
}

static void format_offset(long off, char *buf, size_t size)
{
	/* offsets stay within a day: keep the digits to two each */
	long a = (off < 0 ? -off : off) % 86400;

	snprintf(buf, size, "%c%02ld%02ld", off < 0 ? '-' : '+', a / 3600,
		 a / 60 % 60);
}

/* Our zone by the name a user would set (TZ), else its abbreviation at t. */
static void local_zone(time_t t, char *name, size_t size, long *off)
{
	const char *tz = getenv("TZ");
	struct tm tm;

	if (!localtime_r(&t, &tm)) {
		snprintf(name, size, "unknown");
		*off = 0;
		return;
	}
	*off = tm.tm_gmtoff;
	if (tz && *tz == ':')
		tz++;
	if (tz && *tz)
		snprintf(name, size, "%s", tz);
	else if (!strftime(name, size, "%Z", &tm))
		snprintf(name, size, "unknown");
}

void prio_snapshot_clock_notes(const struct prio_snapshot *snap,
			       struct prio_clock_notes *notes)
{
	uint32_t pending = 0, future = 0;
	const struct prio_job *first = NULL;
	char ours[64], a[24], b[24], now[32], when[32];
	long off;

	memset(notes, 0, sizeof(*notes));
	local_zone(snap->now, ours, sizeof(ours), &off);
	if (snap->zone_known && off != snap->zone_offset) {
		format_offset(snap->zone_offset, a, sizeof(a));
		format_offset(off, b, sizeof(b));
		snprintf(notes->zone, sizeof(notes->zone),
			 "MANIFEST: the snapshot was taken in zone %s (%s), "
			 "this process reads it in %s (%s): set TZ=%s",
			 snap->zone_name, a, ours, b, snap->zone_name);
	}
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *j = &snap->jobs[i];

		if (!prio_job_state_pending(j->state))
			continue;
		pending++;
		if (j->submit_time > snap->now) {
			future++;
			if (!first || j->submit_time < first->submit_time)
				first = j;
		}
	}
	if (future) {
		prio_timestamp_format(snap->now, now, sizeof(now));
		prio_timestamp_format(first->submit_time, when, sizeof(when));
		snprintf(notes->future, sizeof(notes->future),
			 "SubmitTime: %u of %u pending jobs submitted after "
			 "NOW %s (job %u at %s): read in another time zone "
			 "than the cluster's (set TZ to its zone, now %s) or "
			 "NOW is too early",
			 future, pending, now, first->job_id, when, ours);
		notes->all_future = future == pending;
	}
	if (snap->now_wall)
		snprintf(notes->wall, sizeof(notes->wall),
			 "NOW: not given (no NOW file, no --now): the wall "
			 "clock was used");
}
