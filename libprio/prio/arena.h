/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator: records of one snapshot are carved from large blocks and
 * freed all at once, so loading a million jobs costs a few hundred mallocs.
 */
#ifndef PRIO_ARENA_H
#define PRIO_ARENA_H

#include <stddef.h>

struct prio_arena_block;

struct prio_arena {
	struct prio_arena_block *head;
	size_t block_size;   /* size of the next block to allocate */
	size_t total;        /* bytes handed out, for statistics */
};

void prio_arena_init(struct prio_arena *arena);
void prio_arena_free(struct prio_arena *arena);
/* Zeroed, 16-byte aligned memory; NULL when out of memory. */
void *prio_arena_alloc(struct prio_arena *arena, size_t size);
char *prio_arena_strndup(struct prio_arena *arena, const char *s, size_t n);
char *prio_arena_strdup(struct prio_arena *arena, const char *s);

#endif
