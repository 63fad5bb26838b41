/* SPDX-License-Identifier: MIT */
/*
 * The two column-selection grammars users already know from Slurm:
 *
 *  - sprio -o (slurm-facts §6): "prefix%[.][width]Lsuffix%[.][width]L...".
 *    Text before the first '%' is printed once at the start of each line;
 *    after each field the text up to the next '%' is printed verbatim.  '.'
 *    means right-justified (the code's meaning; sprio's man page says the
 *    opposite), the width is a minimum and a maximum, no width means natural
 *    width.  There is no escape for a literal '%'.
 *
 *  - sshare -o (slurm-facts §7): "Name[%width],...": comma-separated, each
 *    item a case-insensitive prefix of a field name tried in table order
 *    (first hit wins: "A" is Account, "Eff" EffectvUsage), an optional
 *    "%N" sets the width (a sign picks the justification: "%30" right,
 *    "%-30" left), and a repeated item moves to its last position.
 *
 * The letter and field tables live in the commands; these parsers only
 * split and match.
 */
#ifndef PRIO_FORMAT_H
#define PRIO_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "write.h"

/* Widths beyond this are refused as nonsense (Slurm has no limit; a huge
 * width would only make gigabytes of spaces). */
#define PRIO_FORMAT_MAX_WIDTH 65535

/* One "%[.][width]L" of an sprio format and the literal text after it. */
struct prio_sprio_item {
	char letter; /* the byte after '%', '.' and the digits: any byte */
	int width;   /* 0 = natural width */
	bool right;  /* '.' was present */
	const char *suffix; /* text up to the next '%', "" if none */
};

struct prio_sprio_format {
	const char *prefix; /* text before the first '%', "" if none */
	struct prio_sprio_item *items;
	size_t nitems;
	char *storage_; /* owns prefix and suffix strings; internal */
};

/*
 * Parse an sprio "-o" format.  Every letter is returned, known or not: the
 * command checks them against its letter table and reports "Invalid job
 * format specification: %c" (Slurm then drops that field and its suffix).
 *
 * Errors (PRIO_ERR_USAGE, with a one-line reason in why): NULL fmt, a '%'
 * with no letter after it ("%", "%.10" at the end), a width above
 * PRIO_FORMAT_MAX_WIDTH.  PRIO_ERR_NOMEM on allocation failure.  On success
 * returns 0 and *out must be released with prio_sprio_format_free(); on
 * failure *out is left empty (freeing it is harmless).
 */
int prio_sprio_format_parse(const char *fmt, struct prio_sprio_format *out,
			    char *why, size_t why_size);

/* Free what prio_sprio_format_parse() allocated; leaves *f empty. */
void prio_sprio_format_free(struct prio_sprio_format *f);

/* One selected field of an sshare-style "-o" list. */
struct prio_field_sel {
	size_t index;		/* into the table given to the parser */
	struct prio_column col; /* table[index] with the "%N" width applied */
	const char *item; /* the item's text inside the list (not NUL-ended) */
	size_t item_len;
};

/*
 * Parse an sshare-style field list against table[0..n-1], matching each
 * item against table[i].header.  Empty items (",,", a trailing ',') are
 * skipped.  Items are compared case-insensitively, whole (width included),
 * to find repeats; a repeat removes the earlier one and is appended.
 * "name%N" sets col.width = |N| and col.right = N >= 0 (a bare "%0" gives
 * width 0, natural).  Results go to out[0..cap-1], their count to *nout;
 * out[].item points into list, which must outlive out.
 *
 * Errors (PRIO_ERR_USAGE, reason in why): an item matching no field, as
 * Slurm words it: Invalid field requested: "item" (lower-cased like
 * Slurm); an empty name ("%5"); a width that is not an integer or beyond
 * PRIO_FORMAT_MAX_WIDTH; more than cap distinct fields.
 */
int prio_fieldlist_parse(const char *list, const struct prio_column *table,
			 size_t n, struct prio_field_sel *out, size_t cap,
			 size_t *nout, char *why, size_t why_size);

#endif
