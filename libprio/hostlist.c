/* SPDX-License-Identifier: MIT */
/*
 * Slurm hostlists (slurm-facts §10, behaviour of Slurm's hostlist.c).
 *
 * Expansion.  A list is split into tokens at commas, spaces and tabs that are
 * not inside brackets.  In a token the last '[' opens the final bracket; the
 * first ']' after it must end the token ("n[1-2]x" is refused).  Its text is
 * a comma list of "lo" or "lo-hi" decimal ranges, zero-padded to the width of
 * the "lo" text.  The text before the final bracket (the prefix) may hold more
 * groups: walking right to left, a prefix whose last '[' has a ']' after it
 * yields one more group, and the rest of the prefix is examined the same way;
 * the first '[' without a ']' stops the walk and everything left of it is
 * literal.  Slurm expands the prefix group nearest the final bracket in the
 * outermost loop and recurses leftwards, so the nesting from outside in is
 * P1 (nearest the final bracket), P2, ..., Pk (leftmost), then the final
 * bracket varying fastest: "a[1-2]b[3-4]c[5-6]" gives a1b3c5, a1b3c6,
 * a2b3c5, a2b3c6, a1b4c5, ...  A token with a '[' but no ']' after it is one
 * literal name with a ']' appended.
 *
 * Compression is for display only: names are sorted by prefix and number
 * and runs of consecutive numbers become "lo-hi" ranges ("n[1-5,7]").
 *
 * Both directions are bounded: more than PRIO_HOSTLIST_MAX names, or more
 * than HOSTLIST_MAX_BYTES of name text, is refused before any allocation.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/hostlist.h"

#define HOSTLIST_MAX_BYTES (64u * 1024u * 1024u) /* total name text */
#define HOSTLIST_MAX_DIGITS 18 /* a range bound fits in uint64 */

struct hl_range {
	uint64_t lo, hi;
	int width; /* digits of the lo text: zero padding */
};

/* One bracket group: the literal text before it, then its ranges. */
struct hl_group {
	const char *text; /* literal text between the previous group and '[' */
	size_t text_len;
	struct hl_range *ranges;
	size_t range_count;
	uint64_t values; /* how many numbers the ranges hold */
	int max_digits;	 /* widest number it prints */
};

/* A parsed token: groups[0] is the leftmost, groups[count-1] the final
 * bracket; lead is the literal text left of groups[0]. */
struct hl_token {
	struct hl_group *groups;
	size_t count, capacity;
};

static int digits_of(uint64_t v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* Parse "lo[-hi]" in s[0..n). */
static int parse_range(const char *s, size_t n, struct hl_range *r,
		       const char **why)
{
	const char *dash = memchr(s, '-', n);
	size_t lo_len = dash ? (size_t)(dash - s) : n;
	uint64_t lo = 0, hi = 0;

	if (lo_len == 0 || (dash && (size_t)(dash - s) + 1 == n)) {
		*why = "empty range bound";
		return -1;
	}
	if (lo_len > HOSTLIST_MAX_DIGITS ||
	    (dash && n - lo_len - 1 > HOSTLIST_MAX_DIGITS)) {
		*why = "range bound too long";
		return -1;
	}
	for (size_t i = 0; i < lo_len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			*why = "range bounds must be decimal numbers";
			return -1;
		}
		lo = lo * 10 + (uint64_t)(s[i] - '0');
	}
	if (dash) {
		for (size_t i = lo_len + 1; i < n; i++) {
			if (s[i] < '0' || s[i] > '9') {
				*why = "range bounds must be decimal numbers";
				return -1;
			}
			hi = hi * 10 + (uint64_t)(s[i] - '0');
		}
	} else {
		hi = lo;
	}
	if (lo > hi) {
		*why = "range low bound is greater than its high bound";
		return -1;
	}
	r->lo = lo;
	r->hi = hi;
	r->width = (int)lo_len;
	return 0;
}

/* Parse the range list s[0..n) of one bracket into g. */
static int parse_group(const char *s, size_t n, struct hl_group *g,
		       const char **why)
{
	size_t items = 1, k = 0, i = 0;

	for (size_t j = 0; j < n; j++)
		if (s[j] == ',')
			items++;
	g->ranges = malloc(items * sizeof(*g->ranges));
	if (!g->ranges) {
		*why = "out of memory";
		return -1;
	}
	g->values = 0;
	g->max_digits = 0;
	while (k < items) {
		const char *comma = memchr(s + i, ',', n - i);
		size_t len = comma ? (size_t)(comma - (s + i)) : n - i;
		struct hl_range *r = &g->ranges[k];
		int d;

		if (parse_range(s + i, len, r, why) < 0)
			return -1;
		if (r->hi - r->lo >= PRIO_HOSTLIST_MAX) {
			*why = "too many host names";
			return -1;
		}
		g->values += r->hi - r->lo + 1;
		if (g->values > PRIO_HOSTLIST_MAX) {
			*why = "too many host names";
			return -1;
		}
		d = digits_of(r->hi);
		if (d < r->width)
			d = r->width;
		if (d > g->max_digits)
			g->max_digits = d;
		k++;
		i += len + 1;
	}
	g->range_count = items;
	return 0;
}

static void token_free(struct hl_token *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->groups[i].ranges);
	free(t->groups);
	memset(t, 0, sizeof(*t));
}

static struct hl_group *token_push(struct hl_token *t)
{
	if (t->count == t->capacity) {
		size_t cap = t->capacity ? t->capacity * 2 : 4;
		struct hl_group *g = realloc(t->groups, cap * sizeof(*g));

		if (!g)
			return NULL;
		t->groups = g;
		t->capacity = cap;
	}
	memset(&t->groups[t->count], 0, sizeof(t->groups[0]));
	return &t->groups[t->count++];
}

static const char *last_char(const char *s, size_t n, char c)
{
	while (n--)
		if (s[n] == c)
			return s + n;
	return NULL;
}

/* Split token s[0..n) into groups, right to left (then reversed so that
 * groups[0] is leftmost).  A token without a complete final bracket has
 * no groups and is one plain name, lead[0..lead_len). */
static int token_parse(const char *s, size_t n, struct hl_token *t,
		       const char **lead, size_t *lead_len, const char **why)
{
	const char *open = last_char(s, n, '['), *close;
	size_t prefix_len;

	memset(t, 0, sizeof(*t));
	*lead = s;
	*lead_len = n;
	if (!open)
		return 0;
	close = memchr(open, ']', (size_t)(s + n - open));
	if (!close)
		return 0; /* literal; the caller appends ']' */
	if (close != s + n - 1) {
		*why = "text after ']' in a host name";
		return -1;
	}
	/* Final bracket. */
	{
		struct hl_group *g = token_push(t);

		if (!g) {
			*why = "out of memory";
			return -1;
		}
		if (parse_group(open + 1, (size_t)(close - open - 1), g, why) <
		    0)
			return -1;
	}
	prefix_len = (size_t)(open - s);
	/* Groups of the prefix, nearest the final bracket first.  The text of
	 * each group is what lies between its ']' and the next '['. */
	{
		const char *text_end = open; /* '[' of the group to the right */

		for (;;) {
			const char *po = last_char(s, prefix_len, '['), *pc;
			struct hl_group *g;

			if (!po)
				break;
			pc = last_char(po, (size_t)(s + prefix_len - po), ']');
			if (!pc)
				break;
			t->groups[t->count - 1].text = pc + 1;
			t->groups[t->count - 1].text_len =
			    (size_t)(text_end - pc - 1);
			g = token_push(t);
			if (!g) {
				*why = "out of memory";
				return -1;
			}
			if (parse_group(po + 1, (size_t)(pc - po - 1), g, why) <
			    0)
				return -1;
			text_end = po;
			prefix_len = (size_t)(po - s);
		}
		t->groups[t->count - 1].text = s;
		t->groups[t->count - 1].text_len = (size_t)(text_end - s);
	}
	*lead = s;
	*lead_len = 0;
	/* Reverse: groups[0] leftmost, groups[count-1] the final bracket. */
	for (size_t i = 0, j = t->count - 1; i < j; i++, j--) {
		struct hl_group tmp = t->groups[i];

		t->groups[i] = t->groups[j];
		t->groups[j] = tmp;
	}
	return 0;
}

/* Next token of s[*pos..n): separators outside brackets. */
static int next_token(const char *s, size_t n, size_t *pos, const char **tok,
		      size_t *len)
{
	size_t i = *pos, start;
	int depth = 0;

	while (i < n && (s[i] == ',' || s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n) {
		*pos = n;
		return 0;
	}
	start = i;
	for (; i < n; i++) {
		char c = s[i];

		if (c == '[')
			depth++;
		else if (c == ']' && depth > 0)
			depth--;
		else if (depth == 0 && (c == ',' || c == ' ' || c == '\t'))
			break;
	}
	*tok = s + start;
	*len = i - start;
	*pos = i;
	return 1;
}

/* The value at position idx (0-based) of group g. */
static void group_value(const struct hl_group *g, uint64_t idx, uint64_t *v,
			int *width)
{
	for (size_t r = 0; r < g->range_count; r++) {
		uint64_t span = g->ranges[r].hi - g->ranges[r].lo + 1;

		if (idx < span) {
			*v = g->ranges[r].lo + idx;
			*width = g->ranges[r].width;
			return;
		}
		idx -= span;
	}
	*v = 0;
	*width = 0;
}

/* Emit the names of one parsed token into hl (room already checked). */
static int token_emit(struct prio_arena *arena, const struct hl_token *t,
		      struct prio_hostlist *hl, size_t max_len,
		      const char **why)
{
	/* Odometer over the groups in nesting order: the final bracket is
	 * the fastest digit, then the leftmost prefix group, then the next
	 * one to the right, ..., the prefix group nearest the final bracket
	 * the slowest. */
	size_t k = t->count;
	uint64_t *idx = calloc(k, sizeof(*idx));
	char *buf = malloc(max_len + 1);
	int rc = 0;

	if (!idx || !buf) {
		*why = "out of memory";
		rc = -1;
		goto out;
	}
	for (;;) {
		size_t len = 0;
		char *name;

		for (size_t g = 0; g < k; g++) {
			uint64_t v;
			int width, n;

			memcpy(buf + len, t->groups[g].text,
			       t->groups[g].text_len);
			len += t->groups[g].text_len;
			group_value(&t->groups[g], idx[g], &v, &width);
			n = snprintf(buf + len, max_len + 1 - len, "%0*llu",
				     width, (unsigned long long)v);
			len += (size_t)n;
		}
		name = prio_arena_strndup(arena, buf, len);
		if (!name) {
			*why = "out of memory";
			rc = -1;
			goto out;
		}
		hl->names[hl->count++] = name;
		/* Advance: final group, then groups 0, 1, ..., k-2. */
		if (++idx[k - 1] < t->groups[k - 1].values)
			continue;
		idx[k - 1] = 0;
		{
			size_t g = 0;

			while (g + 1 < k) {
				if (++idx[g] < t->groups[g].values)
					break;
				idx[g] = 0;
				g++;
			}
			if (g + 1 >= k)
				break;
		}
	}
out:
	free(idx);
	free(buf);
	return rc;
}

/* Count names and bytes of token s[0..n) (parsed in t). */
static int token_size(const struct hl_token *t, size_t lit_len, uint64_t *names,
		      uint64_t *bytes, size_t *max_len, const char **why)
{
	uint64_t count = 1;
	size_t len = 0;

	if (t->count == 0) {
		*names = 1;
		*bytes = lit_len + 2;
		*max_len = lit_len + 1;
		return 0;
	}
	for (size_t g = 0; g < t->count; g++) {
		count *= t->groups[g].values;
		if (count > PRIO_HOSTLIST_MAX) {
			*why = "too many host names";
			return -1;
		}
		len += t->groups[g].text_len + (size_t)t->groups[g].max_digits;
	}
	*names = count;
	*bytes = count * (uint64_t)(len + 1);
	*max_len = len;
	return 0;
}

int prio_hostlist_expand(struct prio_arena *arena, const char *s, size_t n,
			 struct prio_hostlist *hl, const char **why)
{
	uint64_t total = 0, bytes = 0;
	size_t pos = 0, len;
	const char *tok;

	hl->names = NULL;
	hl->count = 0;
	/* Pass 1: validate and size everything before allocating. */
	while (next_token(s, n, &pos, &tok, &len)) {
		struct hl_token t;
		const char *lead;
		size_t lead_len, max_len;
		uint64_t c, b;

		if (token_parse(tok, len, &t, &lead, &lead_len, why) < 0 ||
		    token_size(&t, lead_len, &c, &b, &max_len, why) < 0) {
			token_free(&t);
			return -1;
		}
		token_free(&t);
		total += c;
		bytes += b;
		if (total > PRIO_HOSTLIST_MAX || bytes > HOSTLIST_MAX_BYTES) {
			*why = "too many host names";
			return -1;
		}
	}
	if (total == 0)
		return 0;
	hl->names = prio_arena_alloc(arena, (size_t)total * sizeof(*hl->names));
	if (!hl->names) {
		*why = "out of memory";
		return -1;
	}
	/* Pass 2: emit. */
	pos = 0;
	while (next_token(s, n, &pos, &tok, &len)) {
		struct hl_token t;
		const char *lead;
		size_t lead_len, max_len;
		uint64_t c, b;
		int rc;

		if (token_parse(tok, len, &t, &lead, &lead_len, why) < 0 ||
		    token_size(&t, lead_len, &c, &b, &max_len, why) < 0) {
			token_free(&t);
			return -1;
		}
		if (t.count == 0) {
			/* A '[' without ']' is kept, and a ']' appended. */
			bool open = memchr(lead, '[', lead_len) != NULL;
			char *name = prio_arena_alloc(arena, lead_len + 2);

			if (!name) {
				token_free(&t);
				*why = "out of memory";
				return -1;
			}
			memcpy(name, lead, lead_len);
			if (open)
				name[lead_len] = ']';
			hl->names[hl->count++] = name;
			rc = 0;
		} else {
			rc = token_emit(arena, &t, hl, max_len, why);
		}
		token_free(&t);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* --- compression ------------------------------------------------------- */

struct hl_name {
	const char *name;
	size_t prefix_len; /* up to the trailing digits */
	uint64_t num;
	int digits;  /* 0: no numeric suffix */
	bool padded; /* suffix starts with '0' and has >1 digit */
};

static int name_cmp(const void *a, const void *b)
{
	const struct hl_name *x = a, *y = b;
	size_t n =
	    x->prefix_len < y->prefix_len ? x->prefix_len : y->prefix_len;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->prefix_len != y->prefix_len)
		return x->prefix_len < y->prefix_len ? -1 : 1;
	if (!x->digits != !y->digits)
		return x->digits ? 1 : -1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	if (x->digits != y->digits)
		return x->digits < y->digits ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct hl_out {
	char *buf;
	size_t size, used;
	bool full;
};

static void out_put(struct hl_out *o, const char *s, size_t n)
{
	if (o->full)
		return;
	if (o->used + n + 1 > o->size) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

static void out_num(struct hl_out *o, uint64_t v, int width)
{
	char tmp[32];
	int n =
	    snprintf(tmp, sizeof(tmp), "%0*llu", width, (unsigned long long)v);

	out_put(o, tmp, (size_t)n);
}

char *prio_hostlist_compress(char *const *names, size_t count, char *buf,
			     size_t size)
{
	struct hl_out o = {buf, size, 0, false};
	struct hl_name *v;
	size_t i = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!count)
		return buf;
	v = malloc(count * sizeof(*v));
	if (!v) {
		/* No room to sort: list the names as they are. */
		for (size_t k = 0; k < count; k++) {
			if (k)
				out_put(&o, ",", 1);
			out_put(&o, names[k], strlen(names[k]));
		}
		goto done;
	}
	for (size_t k = 0; k < count; k++) {
		const char *s = names[k];
		size_t len = strlen(s), d = len;

		while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
			d--;
		v[k].name = s;
		v[k].prefix_len = d;
		v[k].digits = (int)(len - d);
		v[k].num = 0;
		v[k].padded = false;
		if (v[k].digits > HOSTLIST_MAX_DIGITS) {
			/* Too long to be a number: keep it as a plain name. */
			v[k].prefix_len = len;
			v[k].digits = 0;
		}
		for (size_t j = v[k].prefix_len; j < len; j++)
			v[k].num = v[k].num * 10 + (uint64_t)(s[j] - '0');
		v[k].padded = v[k].digits > 1 && s[v[k].prefix_len] == '0';
	}
	qsort(v, count, sizeof(*v), name_cmp);
	while (i < count) {
		size_t j = i, ranges = 0;

		if (i)
			out_put(&o, ",", 1);
		if (!v[i].digits) {
			out_put(&o, v[i].name, strlen(v[i].name));
			i++;
			continue;
		}
		/* All names with this prefix and a number. */
		while (j < count && v[j].digits &&
		       v[j].prefix_len == v[i].prefix_len &&
		       !memcmp(v[j].name, v[i].name, v[i].prefix_len))
			j++;
		out_put(&o, v[i].name, v[i].prefix_len);
		if (j - i > 1)
			out_put(&o, "[", 1);
		for (size_t k = i; k < j;) {
			/* A run: consecutive numbers that print correctly
			 * with the width of its first element. */
			int width = v[k].padded ? v[k].digits : 0;
			size_t e = k;

			while (e + 1 < j && v[e + 1].num == v[e].num + 1 &&
			       (v[e + 1].padded ? v[e + 1].digits == width
						: v[e + 1].digits >= width))
				e++;
			if (ranges++)
				out_put(&o, ",", 1);
			out_num(&o, v[k].num, width);
			if (e > k) {
				out_put(&o, "-", 1);
				out_num(&o, v[e].num, width);
			}
			k = e + 1;
		}
		if (j - i > 1)
			out_put(&o, "]", 1);
		i = j;
	}
	free(v);
done:
	if (o.full) {
		/* Mark the cut. */
		size_t keep = size > 4 ? size - 4 : 0;

		if (o.used > keep)
			o.used = keep;
		buf[o.used] = '\0';
		if (size > 3)
			strcat(buf, "...");
	}
	return buf;
}
