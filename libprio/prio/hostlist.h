/* SPDX-License-Identifier: MIT */
/*
 * Slurm hostlists: "n[1-5,07-09],gpu[01-02]x[1-2]" (slurm-facts §10).
 * Expansion keeps Slurm's order; compression turns sorted names back into
 * bracket form for display.
 */
#ifndef PRIO_HOSTLIST_H
#define PRIO_HOSTLIST_H

#include <stddef.h>

#include "arena.h"

#define PRIO_HOSTLIST_MAX 1000000u /* refuse to expand more names than this */

struct prio_hostlist {
	char **names;   /* expanded host names, in arena memory */
	size_t count;
};

/* Expand s[0..n) into hl (names allocated from arena).  Returns 0, or -1
 * with a reason in why (static string) when the list is malformed or too
 * large. */
int prio_hostlist_expand(struct prio_arena *arena, const char *s, size_t n,
			 struct prio_hostlist *hl, const char **why);

/* Compress names (any order; equal prefixes with numeric suffixes are
 * grouped) into buf; returns buf, truncated with "..." if it does not fit. */
char *prio_hostlist_compress(char *const *names, size_t count, char *buf,
			     size_t size);

#endif
