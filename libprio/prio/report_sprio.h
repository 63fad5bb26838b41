/* SPDX-License-Identifier: MIT */
/*
 * sprio's table (slurm-facts §6), defined once for every front end that
 * shows it (prio-calc prints it, prio-top draws it): the letter table and
 * which letters each Slurm release knows, the default formats sprio picks
 * from the weights, the columns a "-o" format gives, the cells of one job
 * row and of the -w "Weights" row, and the -S sort keys.
 *
 * The functions without "_in" are 22.05's sprio; the "_in" ones take the
 * row of prio_sprio_release() for the snapshot's release
 * (prio_snapshot_slurm(snap)->release).
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
#include "slurm_version.h"
#include "write.h"

/* One sprio letter. */
struct prio_sprio_letter {
	char letter;        /* 'A' */
	const char *id;     /* JSON/CSV key: "age" */
	const char *header; /* "AGE" */
	const char *help;   /* one line, for --help and the man page */
};

/* What one Slurm release's sprio accepts and prints where releases differ
 * (the short default formats, widths, -w and -n did not change). */
struct prio_sprio_release {
	uint16_t since;               /* first release (YYMM) of this row */
	const char *letters;          /* every letter -o accepts */
	const char *sort_keys;        /* every -S key */
	const char *long_format;      /* -l */
	const char *long_norm_format; /* -l -n */
	/* -j/-u/-p filter in sprio, after the controller sent every job
	 * (23.02): -j matching none of them prints the header alone, the
	 * "Unable to find jobs" message only comes when there is no job */
	bool client_filter;
};

/* The row of a release (YYMM): the newest row not after it; 22.05's for
 * anything older. */
const struct prio_sprio_release *prio_sprio_release(uint16_t release);

/* The letter table (every release's letters, 22.05's first, in sprio's man
 * page order); *n gets the count. */
const struct prio_sprio_letter *prio_sprio_letters(size_t *n);
/* The entry of a letter, NULL when 22.05 does not know it. */
const struct prio_sprio_letter *prio_sprio_letter(char letter);
/* The entry of a letter, NULL when that release does not know it. */
const struct prio_sprio_letter *
prio_sprio_letter_in(const struct prio_sprio_release *rel, char letter);

/* The format sprio uses when no -o is given: -l (long), -n (norm), and a
 * USER column when users were named (-u); otherwise one column per factor
 * whose configured weight is not 0 (slurm-facts §6 "Default formats"). */
const char *prio_sprio_default_format(const struct prio_config *conf,
				      bool long_format, bool norm,
				      bool user_column, char *buf,
				      size_t size);
const char *prio_sprio_default_format_in(const struct prio_sprio_release *rel,
					 const struct prio_config *conf,
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
 * Build the table of format `format`.  Letters the release does not know
 * are left out with their suffix text, as sprio does; each is reported
 * through `invalid` (with `ctx`) so the caller can print sprio's "Invalid
 * job format specification" message.  Returns 0, or PRIO_ERR_USAGE with
 * the format parser's reason in why (also for %s, SLUID: the inputs do not
 * carry job SLUIDs, and a blank column would say the jobs have none), or
 * PRIO_ERR_NOMEM.  prio_sprio_table_init() is 22.05's sprio.
 */
int prio_sprio_table_init_in(struct prio_sprio_table *t,
			     const struct prio_sprio_release *rel,
			     const char *format,
			     void (*invalid)(char letter, void *ctx), void *ctx,
			     char *why, size_t why_size);
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
/* The same for the row of one of the job's QOS (24.11 prints a row per
 * partition and QOS, QOSNAME naming it); jf are that QOS's factors. */
int prio_sprio_row_cells_qos(struct prio_sprio_table *t,
			     const struct prio_engine *e,
			     const struct prio_job *job,
			     const struct prio_job_factors *jf,
			     const struct prio_row *row, prio_id qos);

/* Fill t->cells with sprio -w's "Weights" row (configured weights). */
int prio_sprio_weights_cells(struct prio_sprio_table *t,
			     const struct prio_config *conf);

/* One computed row, for sorting. */
struct prio_sprio_rec {
	const struct prio_job *job;
	struct prio_job_factors jf;
	struct prio_row row;
	prio_id qos; /* the row's QOS (-S n): the job's, or one of several */
	uint32_t seq; /* position before sorting: ties keep it */
};

/* A parsed -S specification: keys left to right, '-' for descending. */
struct prio_sprio_sort {
	char keys[32];
	bool desc[32];
	size_t nkeys;
};

/*
 * Parse -S: the release's key letters (22.05: c i N r u a A f F j J p P q Q
 * t T y Y; 23.02 adds n and o), each optionally preceded by '-'
 * (descending); ',' and '+' are separators.  Returns 0, or PRIO_ERR_USAGE
 * with sprio's message in why ("Invalid sort specification: b").
 * prio_sprio_sort_parse() is 22.05's sprio.
 */
int prio_sprio_sort_parse_in(const struct prio_sprio_release *rel,
			     const char *spec, struct prio_sprio_sort *s,
			     char *why, size_t why_size);
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
