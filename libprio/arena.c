/* SPDX-License-Identifier: MIT */
/*
 * Bump allocator.  Blocks double in size up to 64 MiB so that a small
 * snapshot costs a few KiB and a large one a few hundred allocations.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prio/arena.h"

struct prio_arena_block {
	struct prio_arena_block *next;
	size_t size;
	size_t used;
	/* 16-byte aligned payload follows */
	_Alignas(16) unsigned char data[];
};

#define ARENA_FIRST_BLOCK (16u * 1024u)
#define ARENA_MAX_BLOCK (64u * 1024u * 1024u)

void prio_arena_init(struct prio_arena *arena)
{
	arena->head = NULL;
	arena->block_size = ARENA_FIRST_BLOCK;
	arena->total = 0;
}

void prio_arena_free(struct prio_arena *arena)
{
	struct prio_arena_block *b = arena->head, *next;

	while (b) {
		next = b->next;
		free(b);
		b = next;
	}
	prio_arena_init(arena);
}

void *prio_arena_alloc(struct prio_arena *arena, size_t size)
{
	struct prio_arena_block *b = arena->head;
	size_t need = (size + 15u) & ~(size_t)15u;
	void *p;

	if (size == 0)
		need = 16;
	if (need < size)
		return NULL; /* overflow */
	if (!b || b->size - b->used < need) {
		size_t bsize = arena->block_size;

		while (bsize < need)
			bsize *= 2;
		b = calloc(1, sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		b->next = arena->head;
		arena->head = b;
		if (arena->block_size < ARENA_MAX_BLOCK)
			arena->block_size *= 2;
	}
	p = b->data + b->used;
	b->used += need;
	arena->total += need;
	return p;
}

char *prio_arena_strndup(struct prio_arena *arena, const char *s, size_t n)
{
	char *p = prio_arena_alloc(arena, n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *prio_arena_strdup(struct prio_arena *arena, const char *s)
{
	return prio_arena_strndup(arena, s, strlen(s));
}
