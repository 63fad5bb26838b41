/* SPDX-License-Identifier: MIT */
/*
 * The snapshot's clock and zone.  Slurm's text outputs print local times
 * without an offset, so a folder read in another zone than the cluster's
 * shifts every submit time: the queue empties (submits after NOW) or every
 * AGE pins at its maximum, with nothing wrong in any single file.
 *
 * When prio-snap recorded the zone (MANIFEST "zone<TAB>NAME<TAB>+HHMM"),
 * that zone becomes the process's local time for the rest of the run
 * (prio_snapshot_use_zone): every local time of the text sources is read
 * in it, every local time printed is printed in it, so the answers are the
 * same whatever TZ the reader has.  The C library has no per-call zone
 * (mktime_z is not in glibc), and local time is used in many places (the
 * loaders, sreport windows, PriorityUsageResetPeriod, the writers): one
 * switch of TZ covers them all, where a zone argument threaded through
 * each would miss one sooner or later.  The commands are single-threaded.
 *
 * The name is preferred to the offset: Europe/Berlin knows that a job
 * submitted in July was on +0200 while the capture in November was on
 * +0100; the offset alone would put it an hour off.  The offset is the
 * fallback when the name is not in this machine's time zone database
 * (or is prio-snap's "unknown"), with a warning saying so.  A name whose
 * offset at the capture's NOW is not the recorded one is refused: the
 * cluster did not print in that zone, or its database is another.
 *
 * Without a recorded zone the process's own TZ is used, as before, and
 * the checks below turn a wrong one into words: pending jobs from the
 * future, and a NOW that was only the wall clock.
 */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prio/error.h"
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

/* --- the zone ----------------------------------------------------------- */

/* The TZ the process started with, to go back to when a snapshot without
 * a recorded zone is loaded after one with (prio-top reloading). */
static bool zone_switched;
static bool orig_tz_set;
static char orig_tz[1024];

void prio_zone_restore(void)
{
	if (!zone_switched)
		return;
	if (orig_tz_set)
		setenv("TZ", orig_tz, 1);
	else
		unsetenv("TZ");
	tzset();
	zone_switched = false;
}

static int zone_switch(const char *tz)
{
	if (!zone_switched) {
		const char *cur = getenv("TZ");

		orig_tz_set = cur != NULL;
		if (cur && strlen(cur) >= sizeof(orig_tz))
			return -1;
		snprintf(orig_tz, sizeof(orig_tz), "%s", cur ? cur : "");
	}
	if (setenv("TZ", tz, 1) != 0)
		return -1;
	tzset();
	zone_switched = true;
	return 0;
}

/* Whether name is a zone of the time zone database on this machine: a
 * TZif file under TZDIR (or /usr/share/zoneinfo).
 * glibc reads a name it cannot find as UTC without a word, so the file
 * is looked for here. */
static bool tzdb_has(const char *name)
{
	const char *dir = getenv("TZDIR");
	char path[4096], magic[4];
	bool ok;
	int fd;

	if (!*name || strstr(name, ".."))
		return false;
	snprintf(path, sizeof(path), "%s/%s",
		 dir && *dir ? dir : "/usr/share/zoneinfo", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = read(fd, magic, 4) == 4 && memcmp(magic, "TZif", 4) == 0;
	close(fd);
	return ok;
}

/* A POSIX TZ rule such as "CET-1CEST,M3.5.0,M10.5.0/3" or "JST-9": a
 * name of three letters or more (or <...>), then the offset's digits. */
static bool posix_rule(const char *s)
{
	size_t i = 0;

	if (*s == '<') {
		const char *gt = strchr(s, '>');

		if (!gt || gt - s < 4)
			return false;
		i = (size_t)(gt - s) + 1;
	} else {
		while (isalpha((unsigned char)s[i]))
			i++;
		if (i < 3)
			return false;
	}
	if (s[i] == '+' || s[i] == '-')
		i++;
	return isdigit((unsigned char)s[i]);
}

/* The names of UTC itself: a machine without the time zone database
 * (a minimal container) still knows them, as the POSIX rule UTC0. */
static bool utc_name(const char *name)
{
	static const char *const names[] = {
	    "UTC",     "GMT",	    "UCT",	 "GMT0",      "Universal",
	    "Zulu",    "Etc/UTC", "Etc/GMT", "Etc/UCT",   "Etc/GMT0",
	    "Etc/Universal", "Etc/Zulu"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

int prio_snapshot_use_zone(struct prio_snapshot *snap, time_t capture,
			   bool capture_known, struct prio_error *err)
{
	const char *name = snap->zone_name;
	char tz[80], a[24], b[24], when[32];
	struct tm tm;

	snap->zone_note[0] = '\0';
	if (!snap->zone_known) {
		prio_zone_restore();
		snap->zone_use = PRIO_ZONE_PROCESS;
		return PRIO_OK;
	}
	if (*name == ':')
		name++;
	/* TZ=:/usr/share/zoneinfo/Europe/Berlin names Europe/Berlin; any
	 * other path (/etc/localtime) is the reading machine's own zone,
	 * not the cluster's: no name */
	if (*name == '/') {
		const char *z = strstr(name, "zoneinfo/");

		name = z ? z + 9 : "";
	}
	if (*name && !tzdb_has(name) && utc_name(name))
		name = "UTC0";
	if (*name && strcmp(name, "unknown") != 0 &&
	    (tzdb_has(name) || posix_rule(name))) {
		if (zone_switch(name) < 0)
			return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					      "cannot set TZ=%s", name);
		snap->zone_use = PRIO_ZONE_NAMED;
		if (capture_known && localtime_r(&capture, &tm) &&
		    tm.tm_gmtoff != snap->zone_offset) {
			format_offset(tm.tm_gmtoff, a, sizeof(a));
			format_offset(snap->zone_offset, b, sizeof(b));
			prio_timestamp_format(capture, when, sizeof(when));
			prio_zone_restore();
			return prio_error_set(
			    err, PRIO_ERR_PARSE, snap->zone_file, snap->zone_line,
			    "zone",
			    "%s is %s at NOW %s, prio-snap recorded %s: the "
			    "cluster did not print in that zone, or this "
			    "machine's time zone database is not the cluster's",
			    name, a, when, b);
		}
		return PRIO_OK;
	}
	/* POSIX counts west: "<+0100>-01:00" is one hour east of UTC. */
	{
		long w = -snap->zone_offset, aw = w < 0 ? -w : w;

		format_offset(snap->zone_offset, a, sizeof(a));
		snprintf(tz, sizeof(tz), "<%s>%c%02ld:%02ld", a, w < 0 ? '-' : '+',
			 aw / 3600, aw / 60 % 60);
	}
	if (zone_switch(tz) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "cannot set TZ=%s", tz);
	snap->zone_use = PRIO_ZONE_FIXED;
	snprintf(snap->zone_note, sizeof(snap->zone_note),
		 "%s:%u: zone: \"%s\" is not in this machine's time zone "
		 "database: local times are read and printed at the offset "
		 "recorded at capture, %s (times across a DST change may be an "
		 "hour off)",
		 snap->zone_file, snap->zone_line, snap->zone_name, a);
	return PRIO_OK;
}

const char *prio_snapshot_zone_describe(const struct prio_snapshot *snap,
					char *buf, size_t size)
{
	char ours[64], off[24];
	long o;

	local_zone(snap->now, ours, sizeof(ours), &o);
	format_offset(o, off, sizeof(off));
	switch (snap->zone_use) {
	case PRIO_ZONE_NAMED:
		snprintf(buf, size, "%s (%s at NOW), from %s:%u", ours, off,
			 snap->zone_file, snap->zone_line);
		break;
	case PRIO_ZONE_FIXED:
		snprintf(buf, size, "%s fixed, from %s:%u (\"%s\" is not in "
			 "the time zone database)", off, snap->zone_file,
			 snap->zone_line, snap->zone_name);
		break;
	default:
		snprintf(buf, size, "%s (%s at NOW), this process's TZ: no "
			 "zone recorded in MANIFEST", ours, off);
		break;
	}
	return buf;
}

void prio_snapshot_clock_notes(const struct prio_snapshot *snap,
			       struct prio_clock_notes *notes)
{
	uint32_t pending = 0, future = 0;
	const struct prio_job *first = NULL;
	char ours[64], now[32], when[32], why[160];
	long off;

	memset(notes, 0, sizeof(*notes));
	local_zone(snap->now, ours, sizeof(ours), &off);
	snprintf(notes->zone, sizeof(notes->zone), "%s", snap->zone_note);
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
		/* with the recorded zone in force, TZ is not the cause */
		if (snap->zone_use == PRIO_ZONE_PROCESS)
			snprintf(why, sizeof(why),
				 "read in another time zone than the cluster's "
				 "(set TZ to its zone, now %s) or NOW is too "
				 "early", ours);
		else
			snprintf(why, sizeof(why),
				 "NOW is too early, or the cluster did not "
				 "print in the zone MANIFEST records (%s)",
				 snap->zone_name);
		snprintf(notes->future, sizeof(notes->future),
			 "SubmitTime: %u of %u pending jobs submitted after "
			 "NOW %s (job %u at %s): %s",
			 future, pending, now, first->job_id, when, why);
		notes->all_future = future == pending;
	}
	if (snap->now_wall)
		snprintf(notes->wall, sizeof(notes->wall),
			 "NOW: not given (no NOW file, no --now): the wall "
			 "clock was used");
}
