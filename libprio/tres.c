/* SPDX-License-Identifier: MIT */
/*
 * TRES table, count lists and weight strings (slurm-facts §5).
 * Count lists are what scontrol/squeue/sacct print ("cpu=8,mem=8G,node=1");
 * weight strings are TRESBillingWeights and PriorityWeightTRES, with Slurm's
 * unit rule: only the first character after the number is a unit, and the
 * divisor is relative to MB for mem and bb, to 1 otherwise.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/tres.h"

static const char *const builtin_names[PRIO_TRES_BUILTIN_COUNT] = {
	"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages",
};

int prio_tres_table_init(struct prio_tres_table *t)
{
	memset(t, 0, sizeof(*t));
	for (uint32_t i = 0; i < PRIO_TRES_BUILTIN_COUNT; i++) {
		if (prio_tres_add(t, builtin_names[i], strlen(builtin_names[i])) < 0) {
			prio_tres_table_free(t);
			return -1;
		}
		t->configured[i] = true;
	}
	return 0;
}

void prio_tres_table_free(struct prio_tres_table *t)
{
	for (uint32_t i = 0; i < t->count; i++)
		free(t->names[i]);
	free(t->names);
	free(t->configured);
	memset(t, 0, sizeof(*t));
}

int prio_tres_find(const struct prio_tres_table *t, const char *s, size_t n)
{
	for (uint32_t i = 0; i < t->count; i++)
		if (strlen(t->names[i]) == n && strncasecmp(t->names[i], s, n) == 0)
			return (int)i;
	return -1;
}

int prio_tres_add(struct prio_tres_table *t, const char *s, size_t n)
{
	int found = prio_tres_find(t, s, n);
	char *name;

	if (found >= 0)
		return found;
	if (n == 0 || t->count >= PRIO_TRES_MAX)
		return -1;
	if (t->count == t->capacity) {
		uint32_t cap = t->capacity ? t->capacity * 2 : 16;
		char **names = realloc(t->names, cap * sizeof(*names));
		bool *conf;

		if (!names)
			return -1;
		t->names = names;
		conf = realloc(t->configured, cap * sizeof(*conf));
		if (!conf)
			return -1;
		t->configured = conf;
		t->capacity = cap;
	}
	name = malloc(n + 1);
	if (!name)
		return -1;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)s[i]);
	name[n] = '\0';
	t->names[t->count] = name;
	t->configured[t->count] = false;
	return (int)t->count++;
}

bool prio_tres_is_node_tres(const struct prio_tres_table *t, uint32_t tres)
{
	if (tres == PRIO_TRES_CPU || tres == PRIO_TRES_MEM || tres == PRIO_TRES_NODE)
		return true;
	return tres < t->count && strncmp(t->names[tres], "gres/", 5) == 0;
}

static bool is_mb_based(const struct prio_tres_table *t, uint32_t tres)
{
	return tres == PRIO_TRES_MEM ||
	       (tres < t->count && strncmp(t->names[tres], "bb/", 3) == 0);
}

/* Index of a unit letter in K,M,G,T,P order (1..5), 0 for none, -1 bad. */
static int unit_index(char c)
{
	switch (toupper((unsigned char)c)) {
	case 'K': return 1;
	case 'M': return 2;
	case 'G': return 3;
	case 'T': return 4;
	case 'P': return 5;
	}
	return -1;
}

int prio_tres_list_parse(struct prio_arena *arena, struct prio_tres_table *t,
			 const char *s, size_t n, struct prio_tres_list *list,
			 const char **why)
{
	uint32_t items = 1, k = 0;
	size_t i = 0;

	list->items = NULL;
	list->count = 0;
	if (n == 0 || (n == 6 && memcmp(s, "(null)", 6) == 0))
		return 0;
	for (size_t j = 0; j < n; j++)
		if (s[j] == ',')
			items++;
	list->items = prio_arena_alloc(arena, items * sizeof(*list->items));
	if (!list->items) {
		*why = "out of memory";
		return -1;
	}
	while (i < n) {
		size_t start = i, eq = 0, end;
		uint64_t v = 0;
		int id;
		bool any = false;

		while (i < n && s[i] != ',') {
			if (s[i] == '=' && !eq)
				eq = i;
			i++;
		}
		end = i;
		if (i < n)
			i++; /* skip ',' */
		if (end == start)
			continue;
		if (!eq || eq == start) {
			*why = "expected TRES=count items";
			return -1;
		}
		id = prio_tres_add(t, s + start, eq - start);
		if (id < 0) {
			*why = "too many distinct TRES";
			return -1;
		}
		{
			size_t p = eq + 1;

			while (p < end && s[p] >= '0' && s[p] <= '9') {
				unsigned d = (unsigned)(s[p] - '0');

				if (v > (UINT64_MAX - d) / 10) {
					*why = "TRES count out of range";
					return -1;
				}
				v = v * 10 + d;
				p++;
				any = true;
			}
			if (!any) {
				*why = "TRES count is not a number";
				return -1;
			}
			/* scontrol prints sizes that are not a whole number of
			 * units with two decimals ("mem=62.50G"): a fraction
			 * is allowed before a unit. */
			if (p < end && s[p] == '.') {
				size_t q = p + 1;
				double frac = 0.0, scale = 0.1;

				while (q < end && s[q] >= '0' && s[q] <= '9') {
					frac += (s[q] - '0') * scale;
					scale /= 10;
					q++;
				}
				if (q == p + 1 || q + 1 != end || unit_index(s[q]) < 0) {
					*why = "TRES count is not a number";
					return -1;
				}
				{
					int u = unit_index(s[q]);
					int base = is_mb_based(t, (uint32_t)id) ? 2 : 0;
					double d = (double)v + frac;

					for (int x = base; x < u; x++)
						d *= 1024;
					for (int x = u; x < base; x++)
						d /= 1024;
					if (!(d < 1.8e19)) {
						*why = "TRES count out of range";
						return -1;
					}
					v = (uint64_t)llround(d);
				}
				p = end;
			}
			if (p < end) {
				int u = unit_index(s[p]);
				int base = is_mb_based(t, (uint32_t)id) ? 2 : 0;

				if (u < 0 || p + 1 != end) {
					*why = "unknown unit in TRES count";
					return -1;
				}
				for (int x = base; x < u; x++) {
					if (v > UINT64_MAX / 1024) {
						*why = "TRES count out of range";
						return -1;
					}
					v *= 1024;
				}
				for (int x = u; x < base; x++)
					v /= 1024;
			}
		}
		list->items[k].tres = (uint32_t)id;
		list->items[k].count = v;
		k++;
	}
	list->count = k;
	return 0;
}

uint64_t prio_tres_list_get(const struct prio_tres_list *list, uint32_t tres,
			    uint64_t dflt)
{
	for (uint32_t i = 0; i < list->count; i++)
		if (list->items[i].tres == tres)
			return list->items[i].count;
	return dflt;
}

int prio_tres_weights_parse(struct prio_arena *arena,
			    const struct prio_tres_table *t, const char *s,
			    size_t n, struct prio_tres_weights *w, char *why,
			    size_t why_size)
{
	uint32_t items = 1, k = 0;
	size_t i = 0;

	memset(w, 0, sizeof(*w));
	w->text = prio_arena_strndup(arena, s, n);
	if (!w->text) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	if (n == 0)
		return 0;
	for (size_t j = 0; j < n; j++)
		if (s[j] == ',')
			items++;
	w->items = prio_arena_alloc(arena, items * sizeof(*w->items));
	if (!w->items) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	while (i < n) {
		size_t start = i, eq = 0, end;
		char num[64], *stop;
		double v;
		int id;

		while (i < n && s[i] != ',') {
			if (s[i] == '=' && !eq)
				eq = i;
			i++;
		}
		end = i;
		if (i < n)
			i++;
		if (end == start)
			continue;
		if (!eq || eq + 1 == end) {
			snprintf(why, why_size, "\"%.*s\" is an invalid TRES weight entry",
				 (int)(end - start), s + start);
			return -1;
		}
		id = prio_tres_find(t, s + start, eq - start);
		if (id < 0 || !t->configured[id]) {
			const char *slash = memchr(s + start, '/', eq - start);

			if (slash)
				snprintf(why, why_size,
					 "TRES weight '%.*s:%.*s' is not a configured TRES type.",
					 (int)(slash - (s + start)), s + start,
					 (int)(s + eq - slash - 1), slash + 1);
			else
				snprintf(why, why_size,
					 "TRES weight '%.*s' is not a configured TRES type.",
					 (int)(eq - start), s + start);
			return -1;
		}
		if (end - eq - 1 >= sizeof(num)) {
			snprintf(why, why_size, "TRES weight value too long");
			return -1;
		}
		memcpy(num, s + eq + 1, end - eq - 1);
		num[end - eq - 1] = '\0';
		errno = 0;
		v = strtod(num, &stop);
		if (stop == num || !isfinite(v)) {
			snprintf(why, why_size, "\"%.*s\" is an invalid TRES weight entry",
				 (int)(end - start), s + start);
			return -1;
		}
		if (*stop) {
			int u = unit_index(*stop);
			int base = is_mb_based(t, (uint32_t)id) ? 2 : 0;

			if (u < 0) {
				snprintf(why, why_size, "Invalid unit type '%c' in TRES weight '%.*s'",
					 *stop, (int)(end - start), s + start);
				return -1;
			}
			/* Only the first unit character counts; below the base
			 * unit there is no conversion (slurm-facts §5). */
			if (u > base)
				v /= pow(1024.0, u - base);
		}
		w->items[k].tres = (uint32_t)id;
		w->items[k].weight = v;
		k++;
	}
	w->count = k;
	return 0;
}

double prio_tres_weights_get(const struct prio_tres_weights *w, uint32_t tres)
{
	for (uint32_t i = 0; i < w->count; i++)
		if (w->items[i].tres == tres)
			return w->items[i].weight;
	return 0.0;
}
