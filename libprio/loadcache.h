/* SPDX-License-Identifier: MIT */
/*
 * Internal: what keeps the big loaders (jobs, sacct) near memory speed.
 * A million jobs repeat the same few timestamps' days, users, partitions
 * and TRES strings over and over, so each is worked out once:
 *  - timestamps: local midnight of a day is computed once (mktime is slow
 *    and takes the time-zone lock); a time of day is added to it unless the
 *    day has a DST change, where mktime decides as prio_timestamp_parse does;
 *  - text tables: a string of the input (a TRES list, a partition list)
 *    maps to what it parsed to, so identical strings share one arena copy;
 *  - last-value interning: a field equal to the previous record's value
 *    reuses its id without hashing.
 * Keys point into the source buffer, which outlives one load.  A last
 * value (lc_last, lc_table's last hit) may point into bytes a loader gave
 * back (lc_give_back): they read as NUL bytes then, which no input text
 * holds (the splitters refuse them), so the comparison misses and the
 * lookup goes on as for a new value.
 */
#ifndef PRIO_LOADCACHE_H
#define PRIO_LOADCACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "prio/snapshot.h"

#define LC_DAY_SLOTS 512

struct lc_time_cache {
	int64_t day[LC_DAY_SLOTS];    /* days since 1970-01-01, +1; 0 empty */
	time_t midnight[LC_DAY_SLOTS];
	bool uniform[LC_DAY_SLOTS];   /* no UTC offset change that day */
	char last_day[10];            /* "YYYY-MM-DD" of the last one parsed */
	unsigned last_slot;
};

void lc_time_cache_init(struct lc_time_cache *c);
/* prio_timestamp_parse(), faster for "YYYY-MM-DDTHH:MM:SS". */
int lc_timestamp(struct lc_time_cache *c, const char *s, size_t n, time_t *t);

/* Durations as Slurm prints them: "MM:SS", "HH:MM:SS", "D-HH:MM:SS" (and
 * anything prio_time_str2secs takes).  -1 when malformed. */
int lc_duration_secs(const char *s, size_t n, uint32_t *secs);
/* False when a minutes or seconds field of a [D-]HH:MM:SS duration is 60
 * or more: slurm.conf takes "00:99:00" (99 minutes, as Slurm reads it),
 * but no Slurm command prints it, so an output holding it was edited. */
bool lc_duration_printed(const char *s, size_t n);
/* Equality of two byte ranges of length n, inline: most keys compared
 * here are a few bytes long, where a call to memcmp costs more than the
 * comparison. */
static inline bool lc_same(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		uint64_t x, y;
		size_t i = 0;

		for (; i + 8 <= n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		if (i == n)
			return true;
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		uint32_t x, y, x2, y2;

		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		memcpy(&x2, a + n - 4, 4);
		memcpy(&y2, b + n - 4, 4);
		return x == y && x2 == y2;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Decimal digits only, no sign or suffix, at most UINT32_MAX. */
static inline int lc_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - (unsigned)'0';

		if (d > 9)
			return -1;
		v = v * 10 + d;
	}
	if (v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* A string -> pointer table.  Keys are copied into the table's own arena:
 * comparing with a copy packed beside the others is much faster than with
 * the first occurrence somewhere in a gigabyte of input. */
struct lc_entry {
	const char *s;
	uint32_t n;
	uint32_t hash;
	void *value;
};

struct lc_table {
	struct lc_entry *e;
	struct prio_arena keys;
	uint32_t mask;
	uint32_t count;
	/* the last hit, tried first */
	const char *last_s;
	size_t last_n;
	void *last_value;
};

void lc_table_init(struct lc_table *t);
void lc_table_free(struct lc_table *t);
/* The value stored for s[0..n), or NULL. */
void *lc_table_get(struct lc_table *t, const char *s, size_t n);
/* Store value for s[0..n) (not present yet); -1 on allocation failure. */
int lc_table_put(struct lc_table *t, const char *s, size_t n, void *value);

/* 0, or -1 with *why when list names a TRES twice (Slurm prints each once;
 * --tres says it its own way). */
int lc_tres_once(const struct prio_tres_list *list, const char **why);

/* Parse a TRES count list once per distinct text: *list gets a copy of the
 * shared list.  Returns 0, -1 with *why for a bad list, -2 out of memory. */
int lc_tres_list(struct prio_snapshot *snap, struct lc_table *t,
		 const char *s, size_t n, struct prio_tres_list *list,
		 const char **why);

/* A comma list of names ("batch,short") as shared interned ids. */
struct lc_id_list {
	prio_id *ids;
	uint32_t count;
};
/* Returns the list for s[0..n) (count 0 for "" and "(null)"), NULL out of
 * memory. */
const struct lc_id_list *lc_name_list(struct prio_snapshot *snap,
				      struct lc_table *t, const char *s,
				      size_t n);

/* Interning that first compares with the previous value of the field. */
struct lc_last {
	const char *s;
	size_t n;
	prio_id id;
};

/* The id of s[0..n); PRIO_NO_ID for "" (not an error).  Returns -1 when
 * out of memory. */
static inline int lc_intern(struct prio_snapshot *snap, struct lc_last *l,
			    const char *s, size_t n, prio_id *id)
{
	if (n == 0) {
		*id = PRIO_NO_ID;
		return 0;
	}
	if (l->s && n == l->n && lc_same(s, l->s, n)) {
		*id = l->id;
		return 0;
	}
	*id = prio_snapshot_intern(snap, s, n);
	if (*id == PRIO_NO_ID)
		return -1;
	l->s = s;
	l->n = n;
	l->id = *id;
	return 0;
}

/* Interning through a table of the input's strings: for fields with few
 * distinct values (users, accounts, QOS) that change from one record to
 * the next.  Fields whose values may all differ (job names) use lc_intern,
 * so that the table does not grow with the input. */
static inline int lc_intern_t(struct prio_snapshot *snap, struct lc_table *t,
			      const char *s, size_t n, prio_id *id)
{
	void *v;

	if (n == 0) {
		*id = PRIO_NO_ID;
		return 0;
	}
	v = lc_table_get(t, s, n);
	if (v) {
		*id = (prio_id)(uintptr_t)v;
		return 0;
	}
	*id = prio_snapshot_intern(snap, s, n);
	if (*id == PRIO_NO_ID || lc_table_put(t, s, n, (void *)(uintptr_t)*id) < 0)
		return -1;
	return 0;
}

/* "(null)", "None", "N/A", "Unknown" or empty: scontrol's ways of saying
 * that a field has no value. */
static inline bool lc_unset(const char *s, size_t n)
{
	switch (n) {
	case 0:
		return true;
	case 3:
		return memcmp(s, "N/A", 3) == 0;
	case 4:
		return memcmp(s, "None", 4) == 0;
	case 6:
		return memcmp(s, "(null)", 6) == 0;
	case 7:
		return memcmp(s, "Unknown", 7) == 0;
	}
	return false;
}

/* A size as scontrol prints memory: "8G", "1000M", "512" (MB), "2T", "0".
 * Returns 0 and MB, -1 when malformed. */
int lc_size_mb(const char *s, size_t n, uint64_t *mb);

/* Count the ids of a CPU id list ("0-7", "0-1,4-5", "6"); -1 if malformed
 * or absurd (more than 1<<20 CPUs). */
int lc_count_ids(const char *s, size_t n, uint32_t *count);

/* Lines of the input like prio_line_next(), but without its NUL check:
 * the loaders look at every byte of a line anyway and check for NUL bytes
 * in the same pass ("NUL byte in input" at that line).  Lines longer than
 * PRIO_MAX_LINE are an error; a '\r' before the newline is dropped. */
struct lc_reader {
	const char *pos, *end;
	const char *name;
	unsigned long number;
};

void lc_reader_init(struct lc_reader *r, const struct prio_source *src);

/* Ask for 2 MiB pages (LC_GIVE_BACK_UNIT) where the kernel has them, over
 * the whole ones inside a large buffer about to be written: one fault each
 * instead of 512, a tenth of the time a large queue takes to read. */
void lc_huge_pages(void *buf, size_t size);

/* Give back the memory of src's bytes from *kept up to upto, which the
 * loader has read and will not read again: a large input then does not sit
 * whole in memory beside what is made of it.  Only a source read once
 * (src->once) into its own buffer, some megabytes at a time: a call with
 * less does nothing, cheaply, and *kept moves on only when a step is
 * done. */
#define LC_GIVE_BACK_STEP ((size_t)4 << 20)
#define LC_GIVE_BACK_UNIT ((size_t)2 << 20) /* what is given back is whole
					      units of this, aligned */
void lc_give_back_pages(const struct prio_source *src, const char **kept,
			const char *upto);
static inline void lc_give_back(const struct prio_source *src,
				const char **kept, const char *upto)
{
	if (upto > *kept && (size_t)(upto - *kept) >= LC_GIVE_BACK_STEP)
		lc_give_back_pages(src, kept, upto);
}
int lc_line_next(struct lc_reader *r, struct prio_line *line,
		 struct prio_error *err);


/*
 * The order between two threads of a loader that reads a large input with
 * two (job_scontrol.c, usage_sacct.c): a second thread fills slots of a
 * ring in turn, this one takes them in the same order; at most size slots
 * are filled and not yet taken, and what a slot holds passes with it.
 */
struct lc_ring {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned produced, consumed, size;
	bool cancel, taking;
	pthread_t thread;
};
/* fn(arg) started on a second thread; -1 (nothing to stop) on failure. */
int lc_ring_start(struct lc_ring *q, unsigned size, void *(*fn)(void *),
		  void *arg);
/* The second thread: the next slot to fill, once it is free; -1 when it
 * is to stop. */
int lc_ring_slot(struct lc_ring *q);
/* The second thread: that slot is filled. */
void lc_ring_filled(struct lc_ring *q);
/* This thread: the slot taken before is free again; the next filled
 * one. */
unsigned lc_ring_take(struct lc_ring *q);
/* The second thread told to stop (at its next lc_ring_slot()), waited
 * for. */
void lc_ring_stop(struct lc_ring *q);

/*
 * The jobs of `scontrol show job` output in file path streamed into snap
 * (job_scontrol.c): a large regular file is read a run of lines at a time
 * into buffers used in turn, not whole, when it is one the whole load
 * would take without a word: plain text starting with "JobId=", ending
 * with a newline, every record good, not rewritten while it was read.
 * Returns 0 when it was loaded (noted as prio_load_jobs_scontrol() does);
 * LC_LOAD_WHOLE for any other file or at the first doubt, with snap's
 * jobs and Slurm version as they were: prio_load_role() then reads the
 * file whole and gives the exact answer, error or warning, as before.
 */
#define LC_LOAD_WHOLE 1
int lc_jobs_stream(struct prio_snapshot *snap, const char *path);

/*
 * Test hooks (tests/unit); all zero in a program.  The loaders that read a
 * large input with two threads (job_scontrol.c from PIPE_MIN_SIZE bytes,
 * usage_sacct.c's stream from its second run) do so from pipe_min bytes
 * when it is set, so that a test takes the threaded path on a small file;
 * stream_chunk streams in runs of that size (at least 2 * PRIO_MAX_LINE);
 * stream_err, when set, gets the error a stream gave up at (otherwise the
 * stream keeps it quiet: the whole load words it); no_stream has
 * lc_jobs_stream() decline every file, and jobs_streamed counts the job
 * files it loaded, so that a test knows which path a file took.
 */
struct lc_test_hooks {
	size_t pipe_min;
	size_t stream_chunk;
	struct prio_error *stream_err;
	bool no_stream;
	unsigned jobs_streamed;
};
extern struct lc_test_hooks lc_test;

#endif
