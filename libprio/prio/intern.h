/* SPDX-License-Identifier: MIT */
/*
 * String interning: each distinct user, account, partition, QOS or TRES name
 * is stored once and named by a small integer id.  Id 0 is "no string", so a
 * zeroed record has no name.  Comparison of names is comparison of ids.
 */
#ifndef PRIO_INTERN_H
#define PRIO_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef uint32_t prio_id;
#define PRIO_NO_ID ((prio_id)0)

struct prio_intern {
	struct prio_arena *arena; /* where the string bytes live */
	const char **strings;     /* id -> NUL-terminated string */
	uint32_t *lengths;        /* id -> length */
	uint32_t count;           /* ids in use, including 0 */
	uint32_t capacity;
	uint32_t *slots;          /* open addressing: id or 0 */
	uint32_t slot_mask;
};

int prio_intern_init(struct prio_intern *in, struct prio_arena *arena);
void prio_intern_free(struct prio_intern *in);
/* The id of s[0..n), adding it if new; PRIO_NO_ID on allocation failure or
 * when n is 0 (the empty string is "no string"). */
prio_id prio_intern_n(struct prio_intern *in, const char *s, size_t n);
prio_id prio_intern(struct prio_intern *in, const char *s);
/* The id if present, PRIO_NO_ID otherwise; never adds. */
prio_id prio_intern_find(const struct prio_intern *in, const char *s, size_t n);
/* "" for PRIO_NO_ID or an id out of range. */
const char *prio_intern_str(const struct prio_intern *in, prio_id id);

#endif
