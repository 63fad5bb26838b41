/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --explain JOBID: "why is my job waiting?" in plain words and
 * numbers, from libprio's explanation (prio/explain.h).  Text by default;
 * with -P, --csv or --json the same lines become rows of (section,
 * partition, item, value, weight, points, detail), so scripts get the
 * numbers without parsing prose.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prio-calc.h"
#include "prio/explain_text.h"

/* The machine modes' table (text mode prints the detail lines only). */
static const struct prio_column explain_columns[] = {
    {.id = "section", .header = "SECTION"},
    {.id = "partition", .header = "PARTITION"},
    {.id = "item", .header = "ITEM"},
    {.id = "value", .header = "VALUE", .numfmt = PRIO_NUMFMT_FIXED7},
    {.id = "weight", .header = "WEIGHT", .numfmt = PRIO_NUMFMT_PLAIN},
    {.id = "points", .header = "POINTS", .numfmt = PRIO_NUMFMT_FIXED2},
    {.id = "detail", .header = "DETAIL"},
};

struct out {
	struct calc_opts *o;
	struct prio_writer *w;
};

/* One line of the explanation: printed as text, or one row in the machine
 * modes.  NAN value, weight or points leave the cell blank. */
static int say(void *ctx, const struct prio_explain_line *l)
{
	struct out *out = ctx;
	const char *detail = l->text;

	if (!out->w) {
		/* warnings go to stderr, one line each (issue 13); the
		 * machine modes keep them as rows of their own section */
		if (!strcmp(l->section, "warning"))
			cmd_warn(&out->o->c, "%s", l->text);
		else
			puts(l->text);
		return 0;
	}
	while (*detail == ' ')
		detail++;
	if (!*detail && isnan(l->value) && isnan(l->weight) && isnan(l->points))
		return 0; /* a blank line of the text */
	/* whole numbers (ids, ranks, seconds) print as integers */
#define NUM(v)                                                                 \
	(isnan(v)		     ? prio_cell_blank()                               \
	 : fabs(v) < 9e15 && (v) == floor(v) ? prio_cell_int((int64_t)(v))             \
					     : prio_cell_double(v))
	struct prio_cell cells[7] = {
	    prio_cell_str(l->section),
	    l->partition ? prio_cell_str(l->partition) : prio_cell_blank(),
	    l->item ? prio_cell_str(l->item) : prio_cell_blank(),
	    NUM(l->value),
	    NUM(l->weight),
	    isnan(l->points) ? prio_cell_blank() : prio_cell_double(l->points),
	    *detail ? prio_cell_str(detail) : prio_cell_blank(),
	};
	if (prio_writer_row(out->w, cells) < 0)
		cmd_die_write(&out->o->c);
	return 0;
}

int calc_explain(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot snap;
	struct prio_engine e;
	struct prio_queue q;
	struct prio_explain x;
	struct prio_error err;
	struct out out = {o, NULL};

	calc_load(o, &snap, &e, true);
	if (prio_queue_build(&e, &q, &err) < 0)
		cmd_die_error(c, &err);
	if (prio_explain_job(&e, &q, o->explain, &x, &err) < 0)
		cmd_die_error(c, &err);
	if (c->mode != CMD_OUT_TEXT) {
		out.w = prio_writer_new(
		    stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
		    explain_columns,
		    sizeof(explain_columns) / sizeof(explain_columns[0]),
		    !c->noheader, NULL);
		if (!out.w)
			cmd_die(c, "cannot start the table: %s",
				strerror(errno));
	}
	prio_explain_render(&e, &x, say, &out);
	if (out.w && prio_writer_finish(out.w) < 0)
		cmd_die_write(c);
	if (!out.w && (fflush(stdout) != 0 || ferror(stdout)))
		cmd_die_write(c);
	prio_explain_free(&x);
	prio_queue_free(&q);
	prio_engine_free(&e);
	prio_snapshot_free(&snap);
	return EXIT_OK;
}
