/* SPDX-License-Identifier: MIT */
/*
 * Scalar parsing with Slurm's rules (slurm-facts §1.0, §10): strtoul base 0,
 * a k/K multiplier, UNLIMITED/INFINITE, negatives refused.  Every function
 * takes an exact byte range so loaders never copy a token to NUL-terminate.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/timestr.h"
#include "prio/value.h"

bool prio_word_eq(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* Copy a short token to a NUL-terminated buffer; -1 if too long/empty. */
static int to_buf(const char *s, size_t n, char *buf, size_t size)
{
	if (n == 0 || n >= size)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

static int parse_unsigned(const char *s, size_t n, uint64_t max, bool k_ok,
			  uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	const char *p;

	if (to_buf(s, n, buf, sizeof(buf)) < 0)
		return -1;
	if (prio_word_eq(s, n, "UNLIMITED") || prio_word_eq(s, n, "INFINITE")) {
		*out = max;
		return 0;
	}
	p = buf;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' || *p == '+' || *p == '\0')
		return -1;
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno || end == p)
		return -1;
	if ((*end == 'k' || *end == 'K') && k_ok) {
		if (v > max / 1024)
			return -1;
		v *= 1024;
		end++;
	}
	if (*end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

int prio_parse_uint16(const char *s, size_t n, uint16_t *out)
{
	uint64_t v;

	if (parse_unsigned(s, n, UINT16_MAX, false, &v) < 0)
		return -1;
	*out = (uint16_t)v;
	return 0;
}

int prio_parse_uint32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v;

	if (parse_unsigned(s, n, UINT32_MAX, true, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int prio_parse_uint64(const char *s, size_t n, uint64_t *out)
{
	return parse_unsigned(s, n, UINT64_MAX, true, out);
}

int prio_parse_int64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v = 0;

	if (n == 0)
		return -1;
	if (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-';
		i = 1;
		if (n == 1)
			return -1;
	}
	for (; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)v;
	}
	return 0;
}

int prio_parse_double(const char *s, size_t n, double *out)
{
	char buf[128], *end;
	double v;

	if (to_buf(s, n, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (end == buf || *end != '\0')
		return -1;
	if (errno == ERANGE && isinf(v))
		return -1;
	*out = v;
	return 0;
}

int prio_parse_bool(const char *s, size_t n, bool *out)
{
	static const char *const yes[] = { "yes", "up", "true", "1" };
	static const char *const no[] = { "no", "down", "false", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (prio_word_eq(s, n, yes[i])) {
			*out = true;
			return 0;
		}
		if (prio_word_eq(s, n, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}
