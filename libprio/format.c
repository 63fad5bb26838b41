/* SPDX-License-Identifier: MIT */
/*
 * Parsers for the column-selection grammars of sprio (-o "%.15i %9r ...")
 * and sshare (-o "Account%30,User,..."); see prio/format.h and
 * slurm-facts §6 and §7.  They split and match only: which letters and
 * field names exist is the commands' business, so one parser serves every
 * tool that mimics either command.
 *
 * Where Slurm is lax we are strict, because a silent guess prints a table
 * the user did not ask for: sshare reads a width with atoi() ("%x" is 0)
 * and an empty name matches the first field; here both are errors.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/error.h"
#include "prio/format.h"

static int fail(char *why, size_t why_size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *why, size_t why_size, int status, const char *fmt, ...)
{
	if (why && why_size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, why_size, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* Show at most this much of a user's item in a message. */
#define ECHO_MAX 64

/* ---- sprio -o ----------------------------------------------------------- */

void prio_sprio_format_free(struct prio_sprio_format *f)
{
	if (!f)
		return;
	free(f->items);
	free(f->storage_);
	memset(f, 0, sizeof(*f));
}

int prio_sprio_format_parse(const char *fmt, struct prio_sprio_format *out,
			    char *why, size_t why_size)
{
	memset(out, 0, sizeof(*out));
	if (!fmt)
		return fail(why, why_size, PRIO_ERR_USAGE, "no format given");

	/* One copy of fmt holds every prefix and suffix: the byte at each
	 * '%' becomes the NUL that ends the text before it.  Items are at
	 * most one per '%'. */
	size_t len = strlen(fmt);
	size_t npct = 0;
	for (const char *p = fmt; (p = strchr(p, '%')); p++)
		npct++;
	char *copy = malloc(len + 1);
	struct prio_sprio_item *items = calloc(npct ? npct : 1, sizeof(*items));
	if (!copy || !items) {
		free(copy);
		free(items);
		return fail(why, why_size, PRIO_ERR_NOMEM, "out of memory");
	}
	memcpy(copy, fmt, len + 1);

	size_t n = 0;
	char *p = strchr(copy, '%');
	const char *prefix = copy;
	if (p)
		*p = '\0';
	while (p) {
		size_t at = (size_t)(p - copy); /* offset of this '%' in fmt */
		struct prio_sprio_item *it = &items[n];
		char *q = p + 1;
		if (*q == '.') {
			it->right = true;
			q++;
		}
		long width = 0;
		while (isdigit((unsigned char)*q)) {
			width = width * 10 + (*q - '0');
			if (width > PRIO_FORMAT_MAX_WIDTH) {
				free(copy);
				free(items);
				return fail(why, why_size, PRIO_ERR_USAGE,
					    "field width too large at \"%.*s\" "
					    "(at most %d)",
					    ECHO_MAX, fmt + at,
					    PRIO_FORMAT_MAX_WIDTH);
			}
			q++;
		}
		if (*q == '\0') {
			free(copy);
			free(items);
			return fail(why, why_size, PRIO_ERR_USAGE,
				    "format ends with \"%.*s\" which has no "
				    "field letter",
				    ECHO_MAX, fmt + at);
		}
		it->width = (int)width;
		it->letter = *q++;
		it->suffix = q;
		p = strchr(q, '%');
		if (p)
			*p = '\0';
		n++;
	}
	out->prefix = prefix;
	out->items = items;
	out->nitems = n;
	out->storage_ = copy;
	return 0;
}

/* ---- sshare -o ---------------------------------------------------------- */

/* Same item, ignoring case (sshare lower-cases the whole list). */
static bool item_eq(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && strncasecmp(a, b, an) == 0;
}

static void lower_echo(char *dst, size_t size, const char *s, size_t n)
{
	size_t i = 0;
	if (!size)
		return;
	for (; i < n && i < ECHO_MAX && i + 1 < size; i++)
		dst[i] = (char)tolower((unsigned char)s[i]);
	dst[i] = '\0';
}

/* Parse "[+-]digits" exactly; false on anything else or out of range. */
static bool parse_width(const char *s, size_t n, int *width, bool *right)
{
	size_t i = 0;
	bool neg = false;
	long v = 0;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
		if (v > PRIO_FORMAT_MAX_WIDTH)
			return false;
	}
	*width = (int)v;
	*right = !neg;
	return true;
}

int prio_fieldlist_parse(const char *list, const struct prio_column *table,
			 size_t n, struct prio_field_sel *out, size_t cap,
			 size_t *nout, char *why, size_t why_size)
{
	size_t count = 0;
	char echo[ECHO_MAX + 1];

	*nout = 0;
	if (!list)
		return fail(why, why_size, PRIO_ERR_USAGE,
			    "no field list given");

	const char *p = list;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t ilen = end ? (size_t)(end - p) : strlen(p);
		const char *item = p;
		p = end ? end + 1 : p + ilen;
		if (ilen == 0)
			continue;

		const char *pct = memchr(item, '%', ilen);
		size_t nlen = pct ? (size_t)(pct - item) : ilen;
		lower_echo(echo, sizeof(echo), item, ilen);
		if (nlen == 0)
			return fail(why, why_size, PRIO_ERR_USAGE,
				    "Invalid field requested: \"%s\"", echo);

		size_t hit = n;
		for (size_t i = 0; i < n; i++) {
			const char *name = table[i].header;
			if (name && strlen(name) >= nlen &&
			    strncasecmp(name, item, nlen) == 0) {
				hit = i;
				break;
			}
		}
		if (hit == n)
			return fail(why, why_size, PRIO_ERR_USAGE,
				    "Invalid field requested: \"%s\"", echo);

		struct prio_column col = table[hit];
		if (pct) {
			int width;
			bool right;
			if (!parse_width(pct + 1, ilen - nlen - 1, &width,
					 &right))
				return fail(why, why_size, PRIO_ERR_USAGE,
					    "Invalid field width in \"%s\" "
					    "(want %%N or %%-N, N at most %d)",
					    echo, PRIO_FORMAT_MAX_WIDTH);
			col.width = width;
			col.right = right;
		}

		/* A repeat moves to the end, as slurm_addto_char_list does. */
		size_t k;
		for (k = 0; k < count; k++)
			if (item_eq(out[k].item, out[k].item_len, item, ilen))
				break;
		if (k < count) {
			memmove(&out[k], &out[k + 1],
				(count - k - 1) * sizeof(*out));
			count--;
		} else if (count == cap) {
			return fail(why, why_size, PRIO_ERR_USAGE,
				    "too many fields (at most %zu)", cap);
		}
		out[count].index = hit;
		out[count].col = col;
		out[count].item = item;
		out[count].item_len = ilen;
		count++;
	}
	*nout = count;
	return 0;
}
