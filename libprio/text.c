/* SPDX-License-Identifier: MIT */
/* Internal text helpers shared by the loaders (see text.h). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

void text_trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

const char *text_quote(const char *s, size_t n, char *buf, size_t size)
{
	size_t k = n > 40 ? 40 : n, i;

	if (size == 0)
		return buf;
	if (k > size - 1)
		k = size - 1;
	/* control bytes (a NUL, an escape) would break the one-line message */
	for (i = 0; i < k; i++) {
		unsigned char ch = (unsigned char)s[i];

		buf[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (n > 40 && k + 3 < size) {
		memcpy(buf + k, "...", 3);
		k += 3;
	}
	buf[k] = '\0';
	return buf;
}

int text_idset_reserve(struct text_idset *set, prio_id id)
{
	if ((size_t)id >= set->size) {
		size_t size = set->size ? set->size : 256;
		unsigned char *p;

		while (size <= (size_t)id)
			size *= 2;
		p = realloc(set->seen, size);
		if (!p)
			return -1;
		memset(p + set->size, 0, size - set->size);
		set->seen = p;
		set->size = size;
	}
	return 0;
}

int text_idset_mark(struct text_idset *set, prio_id id)
{
	if (text_idset_reserve(set, id) < 0)
		return -1;
	if (set->seen[id])
		return 1;
	set->seen[id] = 1;
	return 0;
}

bool text_idset_has(const struct text_idset *set, prio_id id)
{
	return (size_t)id < set->size && set->seen[id];
}

void text_idset_free(struct text_idset *set)
{
	free(set->seen);
	set->seen = NULL;
	set->size = 0;
}
