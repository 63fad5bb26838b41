/* SPDX-License-Identifier: MIT */
/*
 * sreport's start=/end= values and the hourly window they select.  The
 * forms are those sreport(1) lists for Start= and End= (the same parser
 * serves sacct -S/-E and scontrol BeginTime=); slurmdbd only holds
 * usage rolled up per hour, so a report window always starts and ends on
 * an hour, and its header prints end - 1 second ("03:00:00 - 03:59:59",
 * tests/oracle/sreport-final).
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/timestr.h"
#include "prio/window.h"

/* Digits at *p (at most max of them, at least one): value, or -1. */
static long digits(const char **p, int max)
{
	long v = 0;
	int n = 0;

	while (n < max && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

static time_t make_local(int year, int mon, int day, int hour, int min, int sec)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* A date and time the user typed, refused (-1) when no calendar has it:
 * Slurm's own parser lets mktime() carry 02/30 into March, which reports
 * a window the user did not ask for.  The DST edges follow the loaders'
 * rule (prio_local_time): a reading in the skipped hour is refused too,
 * one in the repeated hour is its first instant. */
static int given_local(long year, long mon, long day, int hour, int min,
		       int sec, time_t *out)
{
	if (year < 1900 || year > 9999 ||
	    !prio_timestamp_valid((int)year, (int)mon, (int)day, hour, min, sec))
		return -1;
	return prio_local_time((int)year, (int)mon, (int)day, hour, min, sec,
			       out) == 0
		   ? 0
		   : -1;
}

static bool valid_date(long mon, long day)
{
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

/* "HH:MM[:SS][AM|PM]" at *p; fills h, m, s.  -1 if not that form. */
static int clock_time(const char **p, int *h, int *m, int *s)
{
	const char *q = *p;
	long hh, mm, ss = 0;

	if ((hh = digits(&q, 2)) < 0 || *q != ':')
		return -1;
	q++;
	if ((mm = digits(&q, 2)) < 0)
		return -1;
	if (*q == ':') {
		q++;
		if ((ss = digits(&q, 2)) < 0)
			return -1;
	}
	while (*q == ' ')
		q++;
	if (strncasecmp(q, "am", 2) == 0 || strncasecmp(q, "pm", 2) == 0) {
		if (hh < 1 || hh > 12)
			return -1;
		hh %= 12;
		if (tolower((unsigned char)*q) == 'p')
			hh += 12;
		q += 2;
	}
	if (hh > 23 || mm > 59 || ss > 60)
		return -1;
	*h = (int)hh;
	*m = (int)mm;
	*s = (int)ss;
	*p = q;
	return 0;
}

/* "now[+-COUNT[unit]]" after "now". */
static int relative(const char *p, time_t now, time_t *out)
{
	static const struct {
		const char *name;
		long secs;
	} units[] = {
		{ "seconds", 1 }, { "minutes", 60 }, { "hours", 3600 },
		{ "days", 86400 }, { "weeks", 604800 },
	};
	int sign;
	long count, unit = 1;

	if (!*p) {
		*out = now;
		return 0;
	}
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p++ == '-' ? -1 : 1;
	if ((count = digits(&p, 9)) < 0)
		return -1;
	if (*p) {
		size_t n = strlen(p);
		bool found = false;

		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (n <= strlen(units[i].name) &&
			    strncasecmp(p, units[i].name, n) == 0) {
				unit = units[i].secs;
				found = true;
				break;
			}
		if (!found)
			return -1;
	}
	*out = now + sign * count * unit;
	return 0;
}

int prio_slurm_time_parse(const char *s, time_t now, time_t *out)
{
	struct tm today;
	const char *p = s;
	long a, b, c = -1;
	int h = 0, m = 0, sec = 0;

	if (!s || !*s)
		return -1;
	localtime_r(&now, &today);
	if (strncasecmp(s, "now", 3) == 0)
		return relative(s + 3, now, out);
	if (*s == '@') {
		char *end;
		long long v = strtoll(s + 1, &end, 10);

		if (end == s + 1 || *end)
			return -1;
		*out = (time_t)v;
		return 0;
	}
	{
		static const struct {
			const char *name;
			int day, hour;
		} words[] = {
			{ "today", 0, 0 }, { "midnight", 0, 0 }, { "noon", 0, 12 },
			{ "fika", 0, 15 }, { "teatime", 0, 16 }, { "tomorrow", 1, 0 },
		};
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strcasecmp(s, words[i].name) == 0) {
				*out = make_local(today.tm_year + 1900, today.tm_mon + 1,
						  today.tm_mday + words[i].day,
						  words[i].hour, 0, 0);
				return 0;
			}
	}
	/* YYYY-MM-DD[THH:MM[:SS]] */
	if (isdigit((unsigned char)s[0]) && strlen(s) >= 10 && s[4] == '-') {
		long y = digits(&p, 4);

		if (y < 0 || *p++ != '-' || (a = digits(&p, 2)) < 0 ||
		    *p++ != '-' || (b = digits(&p, 2)) < 0 || !valid_date(a, b))
			return -1;
		if (*p == 'T' || *p == ' ') {
			long hh, mm, ss = 0;

			p++;
			if ((hh = digits(&p, 2)) < 0 || hh > 23)
				return -1;
			if (*p == ':') {
				p++;
				if ((mm = digits(&p, 2)) < 0 || mm > 59)
					return -1;
				if (*p == ':') {
					p++;
					if ((ss = digits(&p, 2)) < 0 || ss > 60)
						return -1;
				}
			} else {
				mm = 0;
			}
			h = (int)hh;
			m = (int)mm;
			sec = (int)ss;
		}
		if (*p)
			return -1;
		return given_local(y, a, b, h, m, sec, out);
	}
	/* HH:MM[:SS][AM|PM]: today */
	if (strchr(s, ':') && !strchr(s, '/') && !strchr(s, '.') &&
	    !strchr(s, '-')) {
		if (clock_time(&p, &h, &m, &sec) < 0 || *p)
			return -1;
		return given_local(today.tm_year + 1900, today.tm_mon + 1,
				   today.tm_mday, h, m, sec, out);
	}
	/* MMDD[YY] */
	if (isdigit((unsigned char)s[0]) && strspn(s, "0123456789") == strlen(s)) {
		size_t n = strlen(s);

		if (n != 4 && n != 6)
			return -1;
		a = (s[0] - '0') * 10 + (s[1] - '0');
		b = (s[2] - '0') * 10 + (s[3] - '0');
		if (n == 6)
			c = 2000 + (s[4] - '0') * 10 + (s[5] - '0');
		if (!valid_date(a, b))
			return -1;
		return given_local(c > 0 ? c : today.tm_year + 1900, a, b, 0,
				   0, 0, out);
	}
	/* MM/DD[/YY][-HH:MM[:SS]] and MM.DD[.YY] */
	{
		char sep = strchr(s, '/') ? '/' : '.';

		if ((a = digits(&p, 2)) < 0 || *p++ != sep ||
		    (b = digits(&p, 2)) < 0 || !valid_date(a, b))
			return -1;
		if (*p == sep) {
			p++;
			if ((c = digits(&p, 4)) < 0)
				return -1;
			if (c < 100)
				c += 2000;
		}
		if (*p == '-' && sep == '/') {
			p++;
			if (clock_time(&p, &h, &m, &sec) < 0)
				return -1;
		}
		if (*p)
			return -1;
		return given_local(c > 0 ? c : today.tm_year + 1900, a, b, h,
				   m, sec, out);
	}
}

/*
 * A time sreport was given or defaults to, on the hour, the way its
 * release rounds it (slurmdb_report_set_start_end_time): to 24.11 a value
 * given is rounded to the nearest minute and then to the nearest hour (a
 * minute of 59:30 carries into the hour); from 25.05 a start is rounded
 * down and an end up.  `up` is false for a start.
 */
static time_t on_the_hour(struct tm *tm, bool round_outward, bool up,
			  bool given)
{
	if (round_outward && up) {
		if (tm->tm_sec != 0)
			tm->tm_min++;
		if (tm->tm_min != 0)
			tm->tm_hour++;
	} else if (!round_outward && given) {
		if (tm->tm_sec >= 30)
			tm->tm_min++;
		if (tm->tm_min >= 30)
			tm->tm_hour++;
	}
	tm->tm_min = 0;
	tm->tm_sec = 0;
	tm->tm_isdst = -1;
	return mktime(tm);
}

int prio_window_from_args(const char *start, const char *end, time_t now,
			  struct prio_window *w, const char **bad)
{
	return prio_window_from_args_in(start, end, now, false, w, bad);
}

int prio_window_from_args_in(const char *start, const char *end, time_t now,
			     bool round_outward, struct prio_window *w,
			     const char **bad)
{
	struct tm tm;
	time_t t;

	if (end) {
		if (prio_slurm_time_parse(end, now, &t) < 0) {
			*bad = end;
			return -1;
		}
		/* sreport never reports past its own clock */
		if (t > now)
			t = now;
		localtime_r(&t, &tm);
	} else {
		/* today 00:00 - but only the hour is reset, so that from
		 * 25.05 the clock's minutes and seconds round the default end
		 * up to 01:00 (unless the clock is on the hour) */
		localtime_r(&now, &tm);
		tm.tm_hour = 0;
	}
	w->end = on_the_hour(&tm, round_outward, true, end != NULL);
	if (start) {
		if (prio_slurm_time_parse(start, now, &t) < 0) {
			*bad = start;
			return -1;
		}
		localtime_r(&t, &tm);
	} else {
		/* yesterday 00:00 */
		localtime_r(&now, &tm);
		tm.tm_hour = 0;
		tm.tm_mday--;
	}
	w->start = on_the_hour(&tm, round_outward, false, start != NULL);
	if (w->end - w->start < 3600)
		w->end = w->start + 3600;
	return 0;
}

/* The first calendar boundary after t. */
static time_t next_boundary(time_t t, enum prio_bucket_by by)
{
	struct tm tm;

	localtime_r(&t, &tm);
	switch (by) {
	case PRIO_BY_DAY:
		return make_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday + 1, 0, 0, 0);
	case PRIO_BY_WEEK: {
		int to_monday = (8 - tm.tm_wday) % 7;

		if (to_monday == 0)
			to_monday = 7;
		return make_local(tm.tm_year + 1900, tm.tm_mon + 1,
				  tm.tm_mday + to_monday, 0, 0, 0);
	}
	case PRIO_BY_MONTH:
		return make_local(tm.tm_year + 1900, tm.tm_mon + 2, 1, 0, 0, 0);
	case PRIO_BY_NONE:
		break;
	}
	return (time_t)-1;
}

long prio_window_buckets(const struct prio_window *w, enum prio_bucket_by by,
			 time_t **bounds)
{
	size_t cap = 16, n = 0;
	time_t *b = malloc(cap * sizeof(*b)), t = w->start;

	if (!b)
		return -1;
	b[n++] = t;
	while (t < w->end) {
		time_t next = by == PRIO_BY_NONE ? w->end : next_boundary(t, by);

		if (next <= t || next > w->end)
			next = w->end;
		if (n == cap) {
			time_t *nb;

			if (cap >= 100001) {
				free(b);
				return -1;
			}
			cap *= 2;
			nb = realloc(b, cap * sizeof(*b));
			if (!nb) {
				free(b);
				return -1;
			}
			b = nb;
		}
		b[n++] = next;
		t = next;
	}
	*bounds = b;
	return (long)n - 1;
}
