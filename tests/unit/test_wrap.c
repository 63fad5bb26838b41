/* SPDX-License-Identifier: MIT */
/* Prose folded to a width (wrap.c): cut at the last space that fits,
 * continuation lines indented two more columns than the line, columns
 * counted in UTF-8 characters, a word longer than the room cut where the
 * room ends, and every byte of the line in exactly one piece. */
#include <criterion/criterion.h>
#include <string.h>

#include "prio/wrap.h"

static void piece_is(const struct prio_wrap_piece *p, const char *text,
		     int indent)
{
	cr_assert_eq(p->len, strlen(text), "piece \"%.*s\", expected \"%s\"",
		     (int)p->len, p->start, text);
	cr_assert(memcmp(p->start, text, p->len) == 0);
	cr_assert_eq(p->indent, indent);
}

Test(wrap, cut_at_the_last_space_that_fits)
{
	struct prio_wrap_piece p[4];
	const char *line = "alpha beta gamma delta";

	cr_assert_eq(prio_wrap(line, 12, NULL), 3);
	cr_assert_eq(prio_wrap(line, 12, p), 3);
	piece_is(&p[0], "alpha beta", 0);
	piece_is(&p[1], "gamma", 2);
	piece_is(&p[2], "delta", 2);
}

Test(wrap, indented_lines_keep_their_indent_plus_two)
{
	struct prio_wrap_piece p[4];

	cr_assert_eq(prio_wrap("  one two three four", 12, p), 3);
	piece_is(&p[0], "  one two", 0);
	piece_is(&p[1], "three", 4);
	piece_is(&p[2], "four", 4);
}

Test(wrap, fits_whole_and_empty_line)
{
	struct prio_wrap_piece p[2];

	cr_assert_eq(prio_wrap("short", 80, p), 1);
	piece_is(&p[0], "short", 0);
	cr_assert_eq(prio_wrap("", 80, p), 1);
	piece_is(&p[0], "", 0);
}

Test(wrap, utf8_counts_characters_not_bytes)
{
	struct prio_wrap_piece p[2];

	/* "1.9× x": the × is two bytes and one column: 6 columns fit in 6 */
	cr_assert_eq(prio_wrap("1.9\xc3\x97 x", 6, p), 1);
	cr_assert_eq(p[0].len, 7);
}

Test(wrap, a_word_longer_than_the_room_is_cut)
{
	struct prio_wrap_piece p[3];

	cr_assert_eq(prio_wrap("abcdefghij", 4, p), 3);
	piece_is(&p[0], "abcd", 0);
	piece_is(&p[1], "efgh", 0); /* width 4: no room for an indent */
	piece_is(&p[2], "ij", 0);
}
