/* SPDX-License-Identifier: MIT */
/*
 * String interning with open addressing (FNV-1a, linear probing).  The table
 * stays at most half full, so a lookup touches one or two slots.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prio/intern.h"

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

int prio_intern_init(struct prio_intern *in, struct prio_arena *arena)
{
	memset(in, 0, sizeof(*in));
	in->arena = arena;
	in->capacity = 64;
	in->strings = calloc(in->capacity, sizeof(*in->strings));
	in->lengths = calloc(in->capacity, sizeof(*in->lengths));
	in->slot_mask = 127;
	in->slots = calloc(in->slot_mask + 1, sizeof(*in->slots));
	if (!in->strings || !in->lengths || !in->slots) {
		prio_intern_free(in);
		return -1;
	}
	in->strings[0] = "";
	in->count = 1;
	return 0;
}

void prio_intern_free(struct prio_intern *in)
{
	free(in->strings);
	free(in->lengths);
	free(in->slots);
	in->strings = NULL;
	in->lengths = NULL;
	in->slots = NULL;
	in->count = in->capacity = 0;
}

static uint32_t *find_slot(const struct prio_intern *in, const char *s,
			   size_t n)
{
	uint32_t i = hash_bytes(s, n) & in->slot_mask;

	for (;;) {
		uint32_t id = in->slots[i];

		if (id == 0)
			return &in->slots[i];
		if (in->lengths[id] == n && memcmp(in->strings[id], s, n) == 0)
			return &in->slots[i];
		i = (i + 1) & in->slot_mask;
	}
}

static int grow_slots(struct prio_intern *in)
{
	uint32_t new_mask = in->slot_mask * 2 + 1;
	uint32_t *slots = calloc((size_t)new_mask + 1, sizeof(*slots));

	if (!slots)
		return -1;
	for (uint32_t id = 1; id < in->count; id++) {
		uint32_t i = hash_bytes(in->strings[id], in->lengths[id]) & new_mask;

		while (slots[i])
			i = (i + 1) & new_mask;
		slots[i] = id;
	}
	free(in->slots);
	in->slots = slots;
	in->slot_mask = new_mask;
	return 0;
}

prio_id prio_intern_n(struct prio_intern *in, const char *s, size_t n)
{
	uint32_t *slot;
	char *copy;

	if (n == 0 || !in->slots || n > UINT32_MAX)
		return PRIO_NO_ID;
	slot = find_slot(in, s, n);
	if (*slot)
		return *slot;
	if (in->count == UINT32_MAX)
		return PRIO_NO_ID;
	/* Keep the table at most half full; grow before inserting. */
	if ((uint64_t)(in->count + 1) * 2 > (uint64_t)in->slot_mask + 1) {
		if (grow_slots(in) < 0)
			return PRIO_NO_ID;
		slot = find_slot(in, s, n);
	}
	if (in->count == in->capacity) {
		uint32_t cap = in->capacity * 2;
		const char **strings = realloc(in->strings, cap * sizeof(*strings));
		uint32_t *lengths;

		if (!strings)
			return PRIO_NO_ID;
		in->strings = strings;
		lengths = realloc(in->lengths, cap * sizeof(*lengths));
		if (!lengths)
			return PRIO_NO_ID;
		in->lengths = lengths;
		in->capacity = cap;
	}
	copy = prio_arena_strndup(in->arena, s, n);
	if (!copy)
		return PRIO_NO_ID;
	in->strings[in->count] = copy;
	in->lengths[in->count] = (uint32_t)n;
	*slot = in->count++;
	return in->count - 1;
}

prio_id prio_intern(struct prio_intern *in, const char *s)
{
	return prio_intern_n(in, s, strlen(s));
}

prio_id prio_intern_find(const struct prio_intern *in, const char *s, size_t n)
{
	if (n == 0 || !in->slots)
		return PRIO_NO_ID;
	return *find_slot(in, s, n);
}

const char *prio_intern_str(const struct prio_intern *in, prio_id id)
{
	if (id == PRIO_NO_ID || id >= in->count)
		return "";
	return in->strings[id];
}
