/* SPDX-License-Identifier: MIT */
/*
 * One input artefact in memory.  Files, pipes and stdin ("-") are read
 * whole into memory the source owns (never mapped: a file cut while mapped
 * would kill the process); either way a loader sees one contiguous buffer and
 * walks it line by line without copying (the big loaders give back the
 * pages they have read when the source is read once).  Safety limits (NUL
 * bytes, line length) are checked here once so that every loader reports
 * them alike.
 * Compressed inputs (gzip, zstd: told by their magic bytes, not their name)
 * are decompressed on open; a cut or corrupt one is refused, never read in
 * part.
 */
#ifndef PRIO_SOURCE_H
#define PRIO_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "error.h"

#define PRIO_MAX_LINE (256u * 1024u) /* longer lines are an error */

struct prio_source {
	const char *name;  /* as given by the user; "-" shows as "(stdin)" */
	const char *data;  /* contents; not NUL-terminated */
	size_t size;
	/* private */
	char *owned;
	char *name_owned;
	/* read once: its loader may give back the memory of what it has
	 * read (prio_load_role sets it; nothing reads a source it opened
	 * after the loader) */
	bool once;
};

/* Open path ("-" = stdin) and read it whole, decompressed when it is gzip
 * or zstd data.  On error fills err (file = path); a regular file whose size
 * or mtime moved during two reads in a row is refused ("changed while it was
 * read"): the check is on the file's own (compressed) bytes, read whole
 * before they are decoded. */
int prio_source_open(struct prio_source *src, const char *path,
		     struct prio_error *err);
/* A source over caller memory (tests, fuzzers, live command output).  The
 * memory must outlive the source. */
void prio_source_from_memory(struct prio_source *src, const char *name,
			     const char *data, size_t size);
void prio_source_close(struct prio_source *src);

/* Compression formats, told by the first bytes. */
enum prio_codec { PRIO_CODEC_NONE = 0, PRIO_CODEC_GZIP, PRIO_CODEC_ZSTD };
/* Which codec data (its first bytes, size of them) starts with. */
int prio_codec_detect(const void *data, size_t size);

/*
 * A decoder fed piece by piece (the streaming readers; prio_source_open
 * uses it over the whole file).  step() takes input from in (up to in_len;
 * *used taken) and writes text to out (up to cap; *produced written); it
 * may produce with no input left (output waiting in the decoder).  It has
 * nothing more to give when it takes and produces nothing.  finish() at the
 * end of input refuses data cut inside a gzip member or zstd frame ("gzip
 * data truncated"); concatenated members and frames read as one text.
 */
struct prio_inflater {
	int codec;
	const char *name;  /* for errors */
	void *state;
	bool at_boundary;  /* between members/frames: the input may end */
};
int prio_inflater_init(struct prio_inflater *inf, int codec, const char *name,
		       struct prio_error *err);
int prio_inflater_step(struct prio_inflater *inf, const void *in,
		       size_t in_len, size_t *used, void *out, size_t cap,
		       size_t *produced, struct prio_error *err);
int prio_inflater_finish(struct prio_inflater *inf, struct prio_error *err);
void prio_inflater_free(struct prio_inflater *inf);

/*
 * A regular file read as runs of whole lines, for loaders that fold each
 * record into totals and drop it (issue 17: years of accounting in bounded
 * memory).  The text is read and decoded (gzip, zstd) chunk bytes at a
 * time; next() gives the lines read so far up to the last newline (the
 * partial line is carried over into the next run; at the end of the file
 * a last line without its newline comes alone), 0 at the end.  A line
 * longer than the chunk is an error.  finish() after the last run: the
 * file's size and mtime as when it was opened, else "changed while it
 * was read".
 */
struct prio_chunks {
	const char *name;
	int fd;
	/* private */
	struct stat before;
	struct prio_inflater inf;
	int codec;
	bool started, eof, raw_eof;
	char *raw, *buf;
	size_t raw_len, raw_pos, cap, len, start;
};
int prio_chunks_open(struct prio_chunks *ch, const char *path, size_t chunk,
		     struct prio_error *err);
int prio_chunks_next(struct prio_chunks *ch, const char **data, size_t *size,
		     struct prio_error *err);
int prio_chunks_finish(struct prio_chunks *ch, struct prio_error *err);
/* The buffer holding the run next() gave, handed over so that the run can
 * be read while the next one is (a second thread): spare (malloc'd, as
 * large as the chunk given to open(), see prio_chunks_cap()) takes its
 * place; the caller frees what it gets. */
char *prio_chunks_swap(struct prio_chunks *ch, char *spare);
size_t prio_chunks_cap(const struct prio_chunks *ch);
void prio_chunks_close(struct prio_chunks *ch);

/* The first bytes, for format detection. */
bool prio_source_starts_with(const struct prio_source *src, const char *prefix);

struct prio_line {
	const char *text;    /* start of line, not NUL-terminated */
	size_t len;          /* without the newline (and without a \r before it) */
	unsigned long number; /* 1-based */
};

struct prio_line_reader {
	const struct prio_source *src;
	size_t pos;
	unsigned long number;
};

void prio_line_reader_init(struct prio_line_reader *r,
			   const struct prio_source *src);
/* 1 and *line filled, 0 at end of input, negative with err filled when a line
 * contains a NUL byte or is longer than PRIO_MAX_LINE. */
int prio_line_next(struct prio_line_reader *r, struct prio_line *line,
		   struct prio_error *err);
/* A whole capture: not empty ("empty input: expected WHAT") and ending in a
 * newline (else its last record was cut while it was written); 0, or < 0
 * with err naming the line. */
int prio_source_check_whole(const struct prio_source *src, const char *what,
			    struct prio_error *err);

#endif
