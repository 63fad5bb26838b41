/* SPDX-License-Identifier: MIT */
/*
 * Prose folded to a width: prio-top's detail pane, and the explanations
 * prio-calc --explain and fstree-show --why print on a terminal.  A line is
 * cut at its last space that fits; continuation lines keep the line's
 * indentation and two more columns, so that a list stays readable.
 * Columns are counted as UTF-8 characters.
 */
#ifndef PRIO_WRAP_H
#define PRIO_WRAP_H

#include <stddef.h>
#include <stdint.h>

/* One screen line of a folded text line. */
struct prio_wrap_piece {
	const char *start; /* into the line */
	size_t len;        /* bytes */
	int indent;        /* columns before it */
};

/* Fold line (no newline in it) to width columns; put each piece into out
 * (NULL: only count).  Returns the number of pieces, at least 1. */
uint32_t prio_wrap(const char *line, int width, struct prio_wrap_piece *out);

#endif
