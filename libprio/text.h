/* SPDX-License-Identifier: MIT */
/*
 * Internal: small text helpers every loader needs, written once.
 *  - text_trim: drop blanks at both ends of a (pointer, length) span;
 *  - text_quote: a piece of bad input, cut to 40 bytes ("...") with control
 *    bytes shown as '?', for one-line error messages;
 *  - struct text_idset: a growable "seen" mark per interned id, to find
 *    names defined twice in one pass.
 */
#ifndef PRIO_TEXT_H
#define PRIO_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "prio/intern.h"

#define TEXT_QUOTE_SIZE 48 /* enough for text_quote's 40 bytes + "..." */

void text_trim(const char **s, size_t *n);
/* Copy of s[0..n) for a message into buf (size >= TEXT_QUOTE_SIZE keeps
 * all 40 bytes); returns buf. */
const char *text_quote(const char *s, size_t n, char *buf, size_t size);

struct text_idset {
	unsigned char *seen;
	size_t size;
};

/* Room for id (its byte then reads 0 until set); -1 out of memory.  The
 * bytes are the caller's to use as bit sets too. */
int text_idset_reserve(struct text_idset *set, prio_id id);
/* 1 if id was marked before, 0 if it is marked now, -1 out of memory. */
int text_idset_mark(struct text_idset *set, prio_id id);
/* Whether id is marked. */
bool text_idset_has(const struct text_idset *set, prio_id id);
void text_idset_free(struct text_idset *set);

#endif
