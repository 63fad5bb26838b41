/* SPDX-License-Identifier: MIT */
/*
 * Table writers: render rows of typed cells the way Slurm prints them, or in
 * a machine format.  One writer serves every tool (sprio-like, sshare-like,
 * sreport-like tables, prio-top's --once frame).
 *
 * Text output comes in two styles because Slurm has two printers:
 *  - PRIO_STYLE_SPRIO follows sprio's own printer (src/sprio/print.c, see
 *    slurm-facts §6): an optional literal prefix, then per field the value
 *    right-justified ("%.10Y") or left-justified ("%10y"), cut to the width
 *    (the width is also a maximum), then the field's literal suffix text.
 *    Width 0 is the natural width.  The header follows the same rules.
 *  - PRIO_STYLE_SSHARE follows src/common/print_fields.c (slurm-facts §7):
 *    every field printed in its width and followed by one space, a header
 *    row of names and a row of dashes, strings longer than the width cut
 *    with a '+' as the last character, doubles in "%f" falling back to an
 *    exponent form that fits the width.  Integers and doubles are never
 *    cut (printf widths are minimums).  Width 0 means natural width: the
 *    whole header name and as many dashes.
 *
 * Machine formats: PARSABLE ("|" after every field, sshare -p), PARSABLE2
 * ("|" between fields, sshare -P / sacctmgr -P), CSV (RFC 4180 quoting via
 * libcsv) and JSON (via jansson).  Numbers keep the column's number format
 * in PARSABLE and CSV output (what -P prints) but are not padded or cut.
 *
 * Writing streams: one row in, one line out, nothing kept but a reusable
 * line buffer, so a million-row table costs no more memory than one row.
 */
#ifndef PRIO_WRITE_H
#define PRIO_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* PRIO_NO_VAL, PRIO_INFINITE, PRIO_NO_VAL64, PRIO_INFINITE64: Slurm's "unset"
 * and "unlimited" sentinels, which print_fields prints as blanks. */
#include "timestr.h"

enum prio_cell_kind {
	PRIO_CELL_BLANK =
	    0, /* nothing: spaces in text, "" when parsable, null in JSON */
	PRIO_CELL_STR,	  /* s (NULL prints like BLANK) */
	PRIO_CELL_INT,	  /* i */
	PRIO_CELL_UINT,	  /* u */
	PRIO_CELL_DOUBLE, /* d, printed with the column's number format */
	PRIO_CELL_BOOL,	  /* b: "yes" or "no" as text, true or false in JSON */
};


/* One value of one row.  Strings are borrowed: they must live until
 * prio_writer_row() returns. */
struct prio_cell {
	enum prio_cell_kind kind;
	union {
		const char *s;
		int64_t i;
		uint64_t u;
		double d;
		bool b;
	};
	/* STR only: what Slurm prints in place of a value (sprio's "(null)"
	 * of a job without account, "Weights" in the JOBID column of -w):
	 * the text as given, null in JSON */
	bool label;
};

/* Cell constructors, for "cells[k] = prio_cell_uint(job->id);". */
static inline struct prio_cell prio_cell_blank(void)
{
	return (struct prio_cell){.kind = PRIO_CELL_BLANK};
}
static inline struct prio_cell prio_cell_str(const char *s)
{
	return (struct prio_cell){.kind = PRIO_CELL_STR, .s = s};
}
static inline struct prio_cell prio_cell_label(const char *s)
{
	return (struct prio_cell){.kind = PRIO_CELL_STR, .s = s, .label = true};
}
static inline struct prio_cell prio_cell_int(int64_t i)
{
	return (struct prio_cell){.kind = PRIO_CELL_INT, .i = i};
}
static inline struct prio_cell prio_cell_uint(uint64_t u)
{
	return (struct prio_cell){.kind = PRIO_CELL_UINT, .u = u};
}
static inline struct prio_cell prio_cell_bool(bool b)
{
	return (struct prio_cell){.kind = PRIO_CELL_BOOL, .b = b};
}
static inline struct prio_cell prio_cell_double(double d)
{
	return (struct prio_cell){.kind = PRIO_CELL_DOUBLE, .d = d};
}

/*
 * How a column prints numbers.  Integer cells always print as "%lld" /
 * "%llu"; the fixed formats apply to DOUBLE cells.  Infinity and NaN print
 * as printf prints them ("inf", "-inf", "nan", "-nan").
 */
enum prio_numfmt {
	PRIO_NUMFMT_PLAIN = 0, /* doubles "%f" */
	PRIO_NUMFMT_FIXED0,    /* "%.0f": sprio weighted factors, NICE, SITE
				* (round half to even, as printf does) */
	PRIO_NUMFMT_FIXED2,    /* "%.2f" */
	PRIO_NUMFMT_FIXED7,    /* "%.7f": sprio normalised factors (-n) */
	PRIO_NUMFMT_PRIO16,    /* "%16.14f": sprio normalised PRIORITY (%y);
				* the sprio style then cuts it to the width */
	PRIO_NUMFMT_PF,	       /* print_fields: doubles "%*f", exponent form
				* when that is wider than the column; doubles
				* equal to NO_VAL, INFINITE, NO_VAL64 or
				* INFINITE64 and integers equal to NO_VAL64 or
				* INFINITE64 print blank (print_fields_uint64) */
	PRIO_NUMFMT_PF32,      /* as PF, and integers equal to NO_VAL or
				* INFINITE print blank too (print_fields_uint32) */
};

struct prio_column {
	const char *id;	    /* stable snake_case key: JSON keys, CSV header */
	const char *header; /* Slurm's header text ("JOBID", "RawShares") */
	int width;	    /* >= 0; 0 = natural width */
	bool right;	    /* right-justify in text output */
	enum prio_numfmt numfmt;
	/* sprio style, TEXT mode only: literal text after the field, or
	 * NULL.  PARSABLE/CSV/JSON leave it out. */
	const char *suffix;
};

enum prio_output_mode {
	PRIO_OUT_TEXT = 0,  /* fixed-width text in a prio_text_style */
	PRIO_OUT_PARSABLE,  /* "a|b|c|" (sshare -p) */
	PRIO_OUT_PARSABLE2, /* "a|b|c"  (sshare -P) */
	PRIO_OUT_CSV,	    /* RFC 4180 */
	PRIO_OUT_JSON,	    /* [ {"id": value, ...}, ... ] */
};

enum prio_text_style {
	PRIO_STYLE_SPRIO = 0,
	PRIO_STYLE_SSHARE,
};

struct prio_writer;

/*
 * Start a table on out.  cols (ncols of them) must stay valid until
 * prio_writer_finish(); the writer keeps the pointer, not a copy.
 *
 * header: print the header (TEXT: header row, plus the dash row in the
 *   SSHARE style; PARSABLE/PARSABLE2: the headers joined by '|'; CSV: the
 *   column ids).  JSON has no header and ignores it.
 * prefix: sprio style only, literal text printed at the start of every text
 *   line (header included); NULL for none.  Ignored by other modes.
 *
 * Column ids and headers must be valid UTF-8 (they are ours, not input).
 * The header (and JSON's opening "[") is written here.  JSON keys and the
 * CSV header are the column ids; a missing id falls back to the header, and
 * a repeated id gets "_2", "_3"... appended so JSON objects keep every
 * column.
 *
 * Returns NULL with errno set (ENOMEM, EINVAL for a bad mode or style).
 */
struct prio_writer *prio_writer_new(FILE *out, enum prio_output_mode mode,
				    enum prio_text_style style,
				    const struct prio_column *cols,
				    size_t ncols, bool header,
				    const char *prefix);

/*
 * Write one row: cells[0..ncols-1] in column order.
 *
 * TEXT/PARSABLE/PARSABLE2/CSV: the row is assembled in a reused buffer and
 * written with one fwrite (no allocation per row once the buffer has grown).
 * CSV: fields containing ',', '"', CR or LF, or starting or ending with a
 * space, are quoted with "" doubling (libcsv csv_write); lines end in "\n"
 * (not CRLF: the usual Unix convention, accepted by RFC 4180 readers).
 * JSON: one compact object per line, numbers as JSON numbers, BLANK, empty
 * strings, labels and print_fields sentinels as null, BOOL as true
 * or false, strings as strings (invalid UTF-8 bytes
 * replaced by U+FFFD).  JSON has no infinity or NaN: those are written as
 * the strings "inf", "-inf", "nan".  Doubles are written with 15 significant
 * digits (DBL_DIG: no binary noise); unsigned values above INT64_MAX are written as doubles.
 *
 * Returns 0, PRIO_ERR_IO once the stream has failed (EPIPE, disk full;
 * errno is set to the saved cause), or PRIO_ERR_NOMEM.
 */
int prio_writer_row(struct prio_writer *w, const struct prio_cell *cells);

/*
 * JSON only, before the first row: the key of the columns whose id is id
 * becomes key, where a table's CSV header keeps an id whose JSON key is
 * another tool's concept (sprio's QOS factor is "qos" in the CSV header
 * but "qos_prio" in JSON, where "qos" is the QOS name everywhere).  A
 * no-op in other modes.  Returns 0 or PRIO_ERR_NOMEM.
 */
int prio_writer_json_key(struct prio_writer *w, const char *id, const char *key);

/*
 * End the table (JSON: the closing "]"), flush, and free the writer.  Does
 * not close out.  Returns 0, or PRIO_ERR_IO if any write or the flush failed,
 * with errno set to the saved cause (e.g. EPIPE, ENOSPC).  NULL is a no-op.
 */
int prio_writer_finish(struct prio_writer *w);

/*
 * Render one cell's value as the column's number format gives it, without
 * width or cutting (what PARSABLE output prints).  width is the column width
 * used by PRIO_NUMFMT_PF's exponent rule (0 = none).  Writes at most size-1
 * bytes plus NUL into buf, like snprintf (size >= 512 never truncates a
 * number; strings are copied and may be).  Returns the length of the full
 * text, or -1 when the cell prints blank (BLANK, NULL string, print_fields
 * sentinel).  Exposed for prio-top and the tests.
 */
int prio_cell_render(const struct prio_column *col,
		     const struct prio_cell *cell, int width, char *buf,
		     size_t size);

#endif
