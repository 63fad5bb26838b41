/* SPDX-License-Identifier: MIT */
/*
 * The explanation of a job's priority (explain.h) in words: the text of
 * prio-calc --explain, shared with prio-top's detail screen.  Each line also
 * carries the numbers it states, so a front end can turn the same lines into
 * table rows (-P, --csv, --json) without parsing prose.
 */
#ifndef PRIO_EXPLAIN_TEXT_H
#define PRIO_EXPLAIN_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "explain.h"

/* One line of the explanation.  NAN value, weight or points: none. */
struct prio_explain_line {
	const char *section;   /* "job", "part", "place", "term", "sum",
				* "ahead", "ahead_all", "top", "why", "change",
				* "warning" */
	const char *partition; /* NULL when not about one partition */
	const char *item;      /* "age", "tres cpu", "job"..., or NULL */
	double value, weight, points;
	const char *text; /* the printed line ("" for a blank line) */
};

/* Called per line; a non-zero return stops the rendering. */
typedef int (*prio_explain_line_fn)(void *ctx,
				    const struct prio_explain_line *line);

/* Render x (from prio_explain_job on e's snapshot) line by line.  Returns 0,
 * or the callback's non-zero return that stopped it. */
int prio_explain_render(const struct prio_engine *e,
			const struct prio_explain *x, prio_explain_line_fn fn,
			void *ctx);

/* The whole text, one line per '\n' (malloc'ed; NULL on ENOMEM). */
char *prio_explain_text(const struct prio_engine *e,
			const struct prio_explain *x);

/* Lines gathered in one text, '\n' after each: the ctx of
 * prio_explain_text_line, which appends a line (1 out of memory: nomem
 * set).  s is malloc'ed, NULL until a line came. */
struct prio_explain_text_buf {
	char *s;
	size_t len, cap;
	bool nomem;
};
int prio_explain_text_line(void *ctx, const struct prio_explain_line *line);

#endif
