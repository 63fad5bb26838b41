/* SPDX-License-Identifier: MIT */
/*
 * sprio's table (slurm-facts §6), defined once for every front end that
 * shows it (prio-calc prints it, prio-top draws it): the 22.05 letter table,
 * the default formats sprio picks from the weights, the columns a "-o"
 * format gives, the cells of one job row and of the -w "Weights" row, and
 * the -S sort keys.
 *
 * A table is built from a format string; rows are then filled one at a
 * time from the priority engine's results (cells borrow the table's
 * buffers, valid until the next row), so a caller can stream them to a
 * prio_writer in the sprio text style.
 */
#ifndef PRIO_REPORT_SPRIO_H
#define PRIO_REPORT_SPRIO_H

#include <stdbool.h>
#include <stddef.h>

#include "format.h"
#include "priority.h"
#include "write.h"

/* One 22.05 sprio letter. */
struct prio_sprio_letter {
	char letter;        /* 'A' */
	const char *id;     /* JSON/CSV key: "age" */
	const char *header; /* "AGE" */
	const char *help;   /* one line, for --help and the man page */
};

/* The letter table, in sprio's man page order; *n gets the count. */
const struct prio_sprio_letter *prio_sprio_letters(size_t *n);
/* The entry of a letter, NULL when 22.05 does not know it. */
const struct prio_sprio_letter *prio_sprio_letter(char letter);

/* The format sprio uses when no -o is given: -l (long), -n (norm), and a
 * USER column when users were named (-u); otherwise one column per factor
 * whose configured weight is not 0 (slurm-facts §6 "Default formats"). */
const char *prio_sprio_default_format(const struct prio_config *conf,
				      bool long_format, bool norm,
				      bool user_column, char *buf,
				      size_t size);

struct prio_sprio_table {
	struct prio_column *cols; /* for prio_writer_new() */
	char *letters;            /* letter of each column */
	size_t ncols;
	const char *prefix;       /* the format's prefix (owned by fmt) */
	struct prio_sprio_format fmt;
	struct prio_cell *cells;  /* one row, filled by the row functions */
	char **bufs;              /* per-column text of TRES cells */
	size_t *buf_sizes;
	double *tres_factor;      /* scratch, one per engine TRES */
	/* Cells keep weighted factors as unrounded doubles (for JSON);
	 * otherwise they are integers rounded as "%.0f" rounds them, which
	 * prints the same and costs no printf. */
	bool exact;
};

/*
 * Build the table of format `format`.  Letters 22.05 does not know are left
 * out with their suffix text, as sprio does; each is reported through
 * `invalid` (with `ctx`) so the caller can print sprio's "Invalid job format
 * specification" message.  Returns 0, or PRIO_ERR_USAGE with the format
 * parser's reason in why, or PRIO_ERR_NOMEM.
 */
int prio_sprio_table_init(struct prio_sprio_table *t, const char *format,
			  void (*invalid)(char letter, void *ctx), void *ctx,
			  char *why, size_t why_size);
void prio_sprio_table_free(struct prio_sprio_table *t);

/* Fill t->cells for one job in one partition.  The engine must be set up
 * on the same snapshot; tres_factor scratch is sized on first use. */
int prio_sprio_row_cells(struct prio_sprio_table *t,
			 const struct prio_engine *e,
			 const struct prio_job *job,
			 const struct prio_job_factors *jf,
			 const struct prio_row *row);

/* Fill t->cells with sprio -w's "Weights" row (configured weights). */
int prio_sprio_weights_cells(struct prio_sprio_table *t,
			     const struct prio_config *conf);

/* One computed row, for sorting. */
struct prio_sprio_rec {
	const struct prio_job *job;
	struct prio_job_factors jf;
	struct prio_row row;
	uint32_t seq; /* position before sorting: ties keep it */
};

/* A parsed -S specification: keys left to right, '-' for descending. */
struct prio_sprio_sort {
	char keys[32];
	bool desc[32];
	size_t nkeys;
};

/*
 * Parse -S: key letters c i N r u a A f F j J p P q Q t T y Y, each
 * optionally preceded by '-' (descending); ',' and '+' are separators.
 * Returns 0, or PRIO_ERR_USAGE with sprio's message in why ("Invalid sort
 * specification: b").
 */
int prio_sprio_sort_parse(const char *spec, struct prio_sprio_sort *s,
			  char *why, size_t why_size);
/* Does the spec only order by job id ascending (the default)? */
bool prio_sprio_sort_is_job_id(const struct prio_sprio_sort *s);
/* Sort recs by the spec as sprio's successive sorts would, keeping the
 * given order among rows equal on every key.  Doubles compare equal within
 * sprio's tolerance (1e-5). */
int prio_sprio_sort_recs(const struct prio_engine *e,
			 const struct prio_sprio_sort *s,
			 struct prio_sprio_rec *recs, size_t n);

#endif
