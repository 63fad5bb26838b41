/* SPDX-License-Identifier: MIT */
/*
 * Internal: caches for the big loaders (see loadcache.h).  Nothing here
 * changes what a value means -- each function gives what the plain parser
 * (prio_timestamp_parse, prio_tres_list_parse, prio_intern_n) would, only
 * without repeating the work for a string already seen.
 */
#include "config.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "loadcache.h"
#include "prio/timestr.h"

struct lc_test_hooks lc_test;

/* --- two threads -------------------------------------------------------- */

int lc_ring_start(struct lc_ring *q, unsigned size, void *(*fn)(void *),
		  void *arg)
{
#ifdef CPU_COUNT
	cpu_set_t cpus;

	/* on one CPU (taskset, a cpuset) the threads would take turns: one
	 * thread does the same work without handing it over */
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	    CPU_COUNT(&cpus) < 2)
		return -1;
#endif
	memset(q, 0, sizeof(*q));
	q->size = size;
	if (pthread_mutex_init(&q->mu, NULL) != 0)
		return -1;
	if (pthread_cond_init(&q->cv, NULL) != 0) {
		pthread_mutex_destroy(&q->mu);
		return -1;
	}
	if (pthread_create(&q->thread, NULL, fn, arg) != 0) {
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
		return -1;
	}
	return 0;
}

int lc_ring_slot(struct lc_ring *q)
{
	int slot;

	pthread_mutex_lock(&q->mu);
	while (q->produced - q->consumed == q->size && !q->cancel)
		pthread_cond_wait(&q->cv, &q->mu);
	slot = q->cancel ? -1 : (int)(q->produced % q->size);
	pthread_mutex_unlock(&q->mu);
	return slot;
}

void lc_ring_filled(struct lc_ring *q)
{
	pthread_mutex_lock(&q->mu);
	q->produced++;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

unsigned lc_ring_take(struct lc_ring *q)
{
	unsigned slot;

	pthread_mutex_lock(&q->mu);
	if (q->taking) {
		q->consumed++;
		pthread_cond_broadcast(&q->cv);
	}
	q->taking = true;
	while (q->produced == q->consumed)
		pthread_cond_wait(&q->cv, &q->mu);
	slot = q->consumed % q->size;
	pthread_mutex_unlock(&q->mu);
	return slot;
}

void lc_ring_stop(struct lc_ring *q)
{
	pthread_mutex_lock(&q->mu);
	q->cancel = true;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->thread, NULL);
	pthread_cond_destroy(&q->cv);
	pthread_mutex_destroy(&q->mu);
}

/* --- timestamps --------------------------------------------------------- */

void lc_time_cache_init(struct lc_time_cache *c)
{
	memset(c, 0, sizeof(*c));
}

static inline int two(const char *s)
{
	unsigned a = (unsigned char)s[0] - (unsigned)'0';
	unsigned b = (unsigned char)s[1] - (unsigned)'0';

	return a > 9 || b > 9 ? -1 : (int)(a * 10 + b);
}

int lc_timestamp(struct lc_time_cache *c, const char *s, size_t n, time_t *t)
{
	int y1, y2, mon, day, h, mi, sec;
	int64_t days;
	unsigned slot;

	if (n != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return prio_timestamp_parse(s, n, t);
	y1 = two(s);
	y2 = two(s + 2);
	mon = two(s + 5);
	day = two(s + 8);
	h = two(s + 11);
	mi = two(s + 14);
	sec = two(s + 17);
	if (y1 < 0 || y2 < 0 ||
	    !prio_timestamp_valid(y1 * 100 + y2, mon, day, h, mi, sec))
		return -1;
	if (memcmp(s, c->last_day, 10) == 0) {
		slot = c->last_slot;
		goto have_day;
	}
	days = prio_civil_days(y1 * 100 + y2, (unsigned)mon, (unsigned)day);
	slot = (unsigned)((uint64_t)days % LC_DAY_SLOTS);
	if (c->day[slot] != days + 1) {
		time_t t0 = 0, t1 = 0;
		/* a day whose midnight or last second the clocks skip or
		 * repeat is not uniform: each time is converted alone */
		bool ok = prio_local_time(y1 * 100 + y2, mon, day, 0, 0, 0, &t0) == 0 &&
			  prio_local_time(y1 * 100 + y2, mon, day, 23, 59, 59, &t1) == 0;

		c->day[slot] = days + 1;
		c->midnight[slot] = t0;
		c->uniform[slot] = ok && t1 - t0 == 86399;
	}
	memcpy(c->last_day, s, 10);
	c->last_slot = slot;
have_day:
	if (!c->uniform[slot])
		return prio_timestamp_parse(s, n, t);
	*t = c->midnight[slot] + h * 3600 + mi * 60 + sec;
	return 0;
}

int lc_duration_secs(const char *s, size_t n, uint32_t *secs)
{
	const char *p = s;
	uint32_t days = 0;
	int h, m, sec;

	/* [D-]HH:MM:SS, the only shape sacct and scontrol print */
	if (n >= 8) {
		const char *dash = memchr(s, '-', n - 8);

		if (dash) {
			if (lc_u32(s, (size_t)(dash - s), &days) < 0 ||
			    days > 49000)
				return prio_time_str2secs(s, n, secs);
			p = dash + 1;
		}
		if (s + n - p == 8 && p[2] == ':' && p[5] == ':') {
			h = two(p);
			m = two(p + 3);
			sec = two(p + 6);
			if (h >= 0 && m >= 0 && sec >= 0) {
				*secs = days * 86400u + (uint32_t)h * 3600u +
					(uint32_t)m * 60u + (uint32_t)sec;
				return 0;
			}
		}
	}
	return prio_time_str2secs(s, n, secs);
}

/* --- text tables -------------------------------------------------------- */

static inline uint64_t load64(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

static inline uint64_t load32(const char *s)
{
	uint32_t w;

	memcpy(&w, s, 4);
	return w;
}

/* A multiply-xorshift hash read in whole words (overlapping at the end),
 * so that the short strings hashed here cost a few instructions. */
static uint32_t hash_slice(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	if (n >= 8) {
		size_t i = 0;

		for (; i + 8 < n; i += 8) {
			h = (h ^ load64(s + i)) * 0xff51afd7ed558ccdull;
			h ^= h >> 32;
		}
		w = load64(s + n - 8);
	} else if (n >= 4) {
		w = load32(s) | load32(s + n - 4) << 32;
	} else {
		w = 0;
		for (size_t i = 0; i < n; i++)
			w = w << 8 | (unsigned char)s[i];
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 32;
	return (uint32_t)h;
}

void lc_table_init(struct lc_table *t)
{
	memset(t, 0, sizeof(*t));
	prio_arena_init(&t->keys);
}

void lc_table_free(struct lc_table *t)
{
	free(t->e);
	prio_arena_free(&t->keys);
	memset(t, 0, sizeof(*t));
}

void *lc_table_get(struct lc_table *t, const char *s, size_t n)
{
	uint32_t h, i;

	if (t->last_s && n == t->last_n && lc_same(s, t->last_s, n))
		return t->last_value;
	if (!t->e)
		return NULL;
	h = hash_slice(s, n);
	for (i = h & t->mask;; i = (i + 1) & t->mask) {
		struct lc_entry *e = &t->e[i];

		if (!e->s)
			return NULL;
		if (e->hash == h && e->n == n && lc_same(e->s, s, n)) {
			t->last_s = s;
			t->last_n = n;
			t->last_value = e->value;
			return e->value;
		}
	}
}

static void place(struct lc_entry *e, uint32_t mask, const struct lc_entry *x)
{
	uint32_t i = x->hash & mask;

	while (e[i].s)
		i = (i + 1) & mask;
	e[i] = *x;
}

int lc_table_put(struct lc_table *t, const char *s, size_t n, void *value)
{
	struct lc_entry x;

	if (n > UINT32_MAX)
		return -1;
	/* keep the table at most half full */
	if (!t->e || (uint64_t)(t->count + 1) * 2 > (uint64_t)t->mask + 1) {
		uint32_t mask = t->e ? t->mask * 2 + 1 : 63;
		struct lc_entry *e;

		if (mask < t->mask)
			return -1;
		e = calloc((size_t)mask + 1, sizeof(*e));
		if (!e)
			return -1;
		for (uint32_t i = 0; t->e && i <= t->mask; i++)
			if (t->e[i].s)
				place(e, mask, &t->e[i]);
		free(t->e);
		t->e = e;
		t->mask = mask;
	}
	x.s = prio_arena_strndup(&t->keys, s, n);
	if (!x.s)
		return -1;
	x.n = (uint32_t)n;
	x.hash = hash_slice(s, n);
	x.value = value;
	place(t->e, t->mask, &x);
	t->count++;
	t->last_s = s;
	t->last_n = n;
	t->last_value = value;
	return 0;
}

bool lc_duration_printed(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v = 0;

		if (s[i] != ':')
			continue;
		for (size_t j = i + 1; j < n && s[j] >= '0' && s[j] <= '9'; j++)
			if ((v = v * 10 + (unsigned)(s[j] - '0')) >= 60)
				return false;
	}
	return true;
}

int lc_tres_once(const struct prio_tres_list *list, const char **why)
{
	/* Slurm prints each TRES of a list once: a second count would be
	 * dropped or summed, either a guess */
	for (uint32_t i = 1; i < list->count; i++)
		for (uint32_t j = 0; j < i; j++)
			if (list->items[j].tres == list->items[i].tres) {
				*why = "a TRES named twice in the list";
				return -1;
			}
	return 0;
}

int lc_tres_list(struct prio_snapshot *snap, struct lc_table *t, const char *s,
		 size_t n, struct prio_tres_list *list, const char **why)
{
	struct prio_tres_list *shared = lc_table_get(t, s, n);

	if (!shared) {
		shared = prio_arena_alloc(&snap->arena, sizeof(*shared));
		if (!shared) {
			*why = "out of memory";
			return -2;
		}
		if (prio_tres_list_parse(&snap->arena, &snap->tres, s, n,
					 shared, why) < 0)
			return strcmp(*why, "out of memory") == 0 ? -2 : -1;
		if (lc_tres_once(shared, why) < 0)
			return -1;
		if (lc_table_put(t, s, n, shared) < 0) {
			*why = "out of memory";
			return -2;
		}
	}
	*list = *shared;
	return 0;
}

const struct lc_id_list *lc_name_list(struct prio_snapshot *snap,
				      struct lc_table *t, const char *s,
				      size_t n)
{
	struct lc_id_list *l = lc_table_get(t, s, n);
	uint32_t items = 1, k = 0;
	size_t i = 0;

	if (l)
		return l;
	l = prio_arena_alloc(&snap->arena, sizeof(*l));
	if (!l)
		return NULL;
	if (!lc_unset(s, n)) {
		for (size_t j = 0; j < n; j++)
			items += s[j] == ',';
		l->ids =
		    prio_arena_alloc(&snap->arena, items * sizeof(*l->ids));
		if (!l->ids)
			return NULL;
		while (i < n) {
			size_t start = i;

			while (i < n && s[i] != ',')
				i++;
			if (i > start) {
				prio_id id = prio_snapshot_intern(
				    snap, s + start, i - start);
				if (id == PRIO_NO_ID)
					return NULL;
				l->ids[k++] = id;
			}
			i++;
		}
	}
	l->count = k;
	if (lc_table_put(t, s, n, l) < 0)
		return NULL;
	return l;
}

/* --- lines -------------------------------------------------------------- */

void lc_reader_init(struct lc_reader *r, const struct prio_source *src)
{
	r->pos = src->data;
	r->end = src->data + src->size;
	r->name = src->name;
	r->number = 0;
}

void lc_huge_pages(void *buf, size_t size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t unit = LC_GIVE_BACK_UNIT;
	uintptr_t a = ((uintptr_t)buf + unit - 1) & ~(unit - 1);
	uintptr_t e = ((uintptr_t)buf + size) & ~(unit - 1);

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)buf;
	(void)size;
#endif
}

void lc_give_back_pages(const struct prio_source *src, const char **kept,
			const char *upto)
{
	const uintptr_t unit = LC_GIVE_BACK_UNIT;
	uintptr_t a, e;

	/* only a buffer the source owns from its first byte: memory of the
	 * caller's (prio_source_from_memory) is not ours to clear; *kept
	 * moves on all the same, so that the next calls stay cheap */
	if (!src->once || !src->owned || src->data != src->owned) {
		*kept = upto;
		return;
	}
	/* whole 2 MiB pages (source.c asks for them; none is split), and
	 * never the buffer's ends, which share their pages with the
	 * allocator's own words */
	a = ((uintptr_t)*kept + unit - 1) & ~(unit - 1);
	e = (uintptr_t)upto & ~(unit - 1);
	/* private anonymous memory reads as zeros afterwards; a failure only
	 * keeps the pages */
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
	*kept = (const char *)e;
}

int lc_line_next(struct lc_reader *r, struct prio_line *line,
		 struct prio_error *err)
{
	const char *nl;
	size_t len;

	if (r->pos >= r->end)
		return 0;
	nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
	len = nl ? (size_t)(nl - r->pos) : (size_t)(r->end - r->pos);
	line->text = r->pos;
	line->number = ++r->number;
	r->pos += len + (nl ? 1 : 0);
	if (len > PRIO_MAX_LINE)
		return prio_error_set(err, PRIO_ERR_LIMIT, r->name, r->number,
				      "", "line longer than %u bytes",
				      PRIO_MAX_LINE);
	if (len && line->text[len - 1] == '\r')
		len--;
	line->len = len;
	return 1;
}

/* --- small value shapes ------------------------------------------------- */

int lc_size_mb(const char *s, size_t n, uint64_t *mb)
{
	uint64_t v = 0;
	size_t i = 0;
	int shift = 0; /* powers of 1024 relative to MB */

	if (n == 0)
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	if (i + 1 == n) {
		switch (s[i]) {
		case 'K':
		case 'k':
			shift = -1;
			break;
		case 'M':
		case 'm':
			shift = 0;
			break;
		case 'G':
		case 'g':
			shift = 1;
			break;
		case 'T':
		case 't':
			shift = 2;
			break;
		case 'P':
		case 'p':
			shift = 3;
			break;
		default:
			return -1;
		}
	} else if (i != n) {
		return -1;
	}
	if (shift < 0) {
		v /= 1024;
	} else {
		for (int k = 0; k < shift; k++) {
			if (v > UINT64_MAX / 1024)
				return -1;
			v *= 1024;
		}
	}
	*mb = v;
	return 0;
}

int lc_count_ids(const char *s, size_t n, uint32_t *count)
{
	uint64_t total = 0;
	size_t i = 0;

	if (n == 0)
		return -1;
	while (i < n) {
		uint64_t lo = 0, hi;
		size_t start = i;

		while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 9)
			lo = lo * 10 + (uint64_t)(s[i++] - '0');
		if (i == start)
			return -1;
		hi = lo;
		if (i < n && s[i] == '-') {
			size_t hstart = ++i;

			hi = 0;
			while (i < n && s[i] >= '0' && s[i] <= '9' &&
			       i - hstart < 9)
				hi = hi * 10 + (uint64_t)(s[i++] - '0');
			if (i == hstart || hi < lo)
				return -1;
		}
		total += hi - lo + 1;
		if (total > (1u << 20))
			return -1;
		if (i < n) {
			if (s[i] != ',' || i + 1 == n)
				return -1;
			i++;
		}
	}
	*count = (uint32_t)total;
	return 0;
}

