/* SPDX-License-Identifier: MIT */
/*
 * Slurm time strings (slurm-facts §10, parse_time.c behaviour): durations
 * "[days-]hours[:min[:sec]]", "min[:sec]", "h:m:s", INFINITE; and the
 * "YYYY-MM-DDTHH:MM:SS" local timestamps every Slurm command prints.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "prio/timestr.h"
#include "prio/value.h"

int prio_time_str2secs(const char *s, size_t n, uint32_t *secs)
{
	uint64_t part[4] = { 0, 0, 0, 0 };
	int groups = 0, dashes = 0, colons = 0;
	bool digit_seen = false;
	uint64_t days = 0, hours = 0, mins = 0, sec = 0, total;

	if (prio_word_eq(s, n, "-1") || prio_word_eq(s, n, "INFINITE") ||
	    prio_word_eq(s, n, "UNLIMITED")) {
		*secs = PRIO_INFINITE;
		return 0;
	}
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9') {
			if (part[groups] > 100000000u)
				return -1;
			part[groups] = part[groups] * 10 + (uint64_t)(c - '0');
			digit_seen = true;
		} else if (c == '-' || c == ':') {
			if (!digit_seen || groups == 3)
				return -1;
			if (c == '-') {
				if (dashes || colons)
					return -1;
				dashes++;
			} else {
				if (++colons > 2)
					return -1;
			}
			groups++;
			digit_seen = false;
		} else {
			return -1;
		}
	}
	if (!digit_seen)
		return -1;
	if (dashes) {
		/* days-hours[:minutes[:seconds]] */
		days = part[0];
		hours = part[1];
		if (colons >= 1)
			mins = part[2];
		if (colons == 2)
			sec = part[3];
	} else if (colons == 2) {
		hours = part[0];
		mins = part[1];
		sec = part[2];
	} else {
		mins = part[0];
		if (colons == 1)
			sec = part[1];
	}
	total = ((days * 24 + hours) * 60 + mins) * 60 + sec;
	if (total >= PRIO_NO_VAL)
		return -1;
	*secs = (uint32_t)total;
	return 0;
}

int prio_time_str2mins(const char *s, size_t n, uint32_t *mins)
{
	uint32_t secs;

	if (prio_time_str2secs(s, n, &secs) < 0)
		return -1;
	if (secs == PRIO_INFINITE)
		*mins = PRIO_INFINITE;
	else
		*mins = (secs + 59) / 60;
	return 0;
}

const char *prio_secs2time_str(int64_t secs, char *buf, size_t size)
{
	if (secs == (int64_t)PRIO_INFINITE) {
		snprintf(buf, size, "UNLIMITED");
	} else if (secs < 0) {
		snprintf(buf, size, "INVALID");
	} else {
		int64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60,
			s = secs % 60;
		if (d > 0)
			snprintf(buf, size, "%lld-%02lld:%02lld:%02lld", (long long)d,
				 (long long)h, (long long)m, (long long)s);
		else
			snprintf(buf, size, "%02lld:%02lld:%02lld", (long long)h,
				 (long long)m, (long long)s);
	}
	return buf;
}

const char *prio_mins2time_str(uint32_t mins, char *buf, size_t size)
{
	if (mins == PRIO_INFINITE || mins == PRIO_NO_VAL)
		return prio_secs2time_str(mins == PRIO_INFINITE ? (int64_t)PRIO_INFINITE
								: -1, buf, size);
	return prio_secs2time_str((int64_t)mins * 60, buf, size);
}

static int digits(const char *s, size_t n, int *out)
{
	int v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

bool prio_timestamp_valid(int year, int mon, int day, int hour, int min,
			  int sec)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30,
				       31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	if (mon < 1 || mon > 12 || day < 1 || hour < 0 || hour > 23 ||
	    min < 0 || min > 59 || sec < 0 || sec > 59)
		return false;
	return day <= mdays[mon - 1] + (mon == 2 && leap ? 1 : 0);
}

int64_t prio_civil_days(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* mktime() with a definite answer at the two DST edges.  A reading in the
 * hour the clocks repeat names two instants; mktime(tm_isdst = -1) picks
 * either, depending on what it converted before (glibc guesses from its
 * last call), so the same file could load two ways.  Both candidates are
 * tried and each kept only if it converts back to the same reading; of
 * two, the earlier wins (the first pass through the hour, still on summer
 * time).  A reading in the hour the clocks skip converts back to nothing:
 * no clock of that zone ever showed it, and -2 says so. */
int prio_local_time(int year, int mon, int day, int hour, int min, int sec,
		    time_t *out)
{
	bool found = false;
	time_t best = 0;

	for (int isdst = 1; isdst >= -1; isdst--) {
		struct tm tm, back;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		tm.tm_year = year - 1900;
		tm.tm_mon = mon - 1;
		tm.tm_mday = day;
		tm.tm_hour = hour;
		tm.tm_min = min;
		tm.tm_sec = sec;
		tm.tm_isdst = isdst;
		t = mktime(&tm);
		if (t == (time_t)-1)
			continue;
		if (!localtime_r(&t, &back) || back.tm_year != year - 1900 ||
		    back.tm_mon != mon - 1 || back.tm_mday != day ||
		    back.tm_hour != hour || back.tm_min != min ||
		    back.tm_sec != sec)
			continue;
		if (!found || t < best)
			best = t;
		found = true;
	}
	if (!found)
		return -2;
	*out = best;
	return 0;
}

/* A trailing "Z", "+HH:MM", "+HHMM" or "+HH" (ISO 8601): the offset in
 * seconds east, and how many bytes it took; 0 bytes when there is none. */
static size_t utc_suffix(const char *s, size_t n, long *off)
{
	int h, m = 0;

	if (n >= 17 && s[n - 1] == 'Z') {
		*off = 0;
		return 1;
	}
	for (size_t len = 6; len >= 3; len--) {
		const char *p = s + n - len;

		if (n < 16 + len || (p[0] != '+' && p[0] != '-'))
			continue;
		if (digits(p + 1, 2, &h) ||
		    (len == 6 && (p[3] != ':' || digits(p + 4, 2, &m))) ||
		    (len == 5 && digits(p + 3, 2, &m)) || len == 4 || h > 23 ||
		    m > 59)
			return 0;
		*off = (p[0] == '-' ? -1L : 1L) * (h * 3600L + m * 60L);
		return len;
	}
	return 0;
}

int prio_timestamp_parse(const char *s, size_t n, time_t *t)
{
	int year, mon, day, hour = 0, min = 0, sec = 0;
	int64_t epoch;
	size_t suffix;
	long off = 0;

	if (n == 0 || prio_word_eq(s, n, "Unknown") || prio_word_eq(s, n, "None") ||
	    prio_word_eq(s, n, "N/A") || prio_word_eq(s, n, "(null)")) {
		*t = 0;
		return 0;
	}
	if (prio_parse_int64(s, n, &epoch) == 0) {
		if (epoch < 0)
			return -1;
		*t = (time_t)epoch;
		return 0;
	}
	/* an offset makes the reading absolute: no zone is consulted */
	suffix = utc_suffix(s, n, &off);
	n -= suffix;
	/* YYYY-MM-DD[(T| )HH:MM[:SS]] */
	if (n < 10 || s[4] != '-' || s[7] != '-' || digits(s, 4, &year) ||
	    digits(s + 5, 2, &mon) || digits(s + 8, 2, &day))
		return -1;
	if (n > 10) {
		if ((s[10] != 'T' && s[10] != ' ') || (n != 16 && n != 19) ||
		    s[13] != ':' || digits(s + 11, 2, &hour) ||
		    digits(s + 14, 2, &min))
			return -1;
		if (n == 19 && (s[16] != ':' || digits(s + 17, 2, &sec)))
			return -1;
	} else if (suffix) {
		return -1; /* "2026-11-22Z": a day has no offset */
	}
	if (!prio_timestamp_valid(year, mon, day, hour, min, sec))
		return -1;
	if (suffix) {
		epoch = ((prio_civil_days(year, (unsigned)mon, (unsigned)day) * 24 + hour) * 60 + min) * 60 +
			sec - off;
		if (epoch <= 0)
			return -1;
		*t = (time_t)epoch;
		return 0;
	}
	return prio_local_time(year, mon, day, hour, min, sec, t);
}

const char *prio_timestamp_expected(const char *s, size_t n)
{
	int year, mon, day, hour = 0, min = 0, sec = 0;
	time_t t;

	if (n < 10 || s[4] != '-' || s[7] != '-' || digits(s, 4, &year) ||
	    digits(s + 5, 2, &mon) || digits(s + 8, 2, &day))
		return NULL;
	if (n > 10 && ((s[10] != 'T' && s[10] != ' ') || (n != 16 && n != 19) ||
		       s[13] != ':' || digits(s + 11, 2, &hour) ||
		       digits(s + 14, 2, &min) ||
		       (n == 19 && (s[16] != ':' || digits(s + 17, 2, &sec)))))
		return NULL;
	if (!prio_timestamp_valid(year, mon, day, 0, 0, 0))
		return "a real calendar day";
	if (!prio_timestamp_valid(year, mon, day, hour, min, sec))
		return "a real time of day (00:00:00 to 23:59:59)";
	if (prio_local_time(year, mon, day, hour, min, sec, &t) == -2)
		return "a local time that exists in the zone (the clocks "
		       "skipped this one at a DST change)";
	return NULL;
}

const char *prio_timestamp_format(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (t == 0 || !localtime_r(&t, &tm)) {
		snprintf(buf, size, "Unknown");
		return buf;
	}
	strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	return buf;
}
