/* SPDX-License-Identifier: MIT */
/*
 * Accounting records from `sacct -P` (fields joined by '|') or `sacct -p`
 * (the same with a '|' after the last field).  The first line names the
 * columns, in any order; columns this toolkit does not use are skipped.
 *
 * What sacct prints (22.05, tests/oracle/ * /sacct_a_P*.txt):
 *  - JobID: "12", an array task "12_3", a pending array "12_[1-5%2]", a
 *    heterogeneous component "12+1", a step "12.batch" / "12.extern" /
 *    "12.interactive" / "12.0" (also "12_3.batch", "12+1.0");
 *    JobIDRaw: the job's own id ("15" for 12_3), steps "15.batch";
 *  - State: a state name, "CANCELLED by <uid>" after scancel;
 *  - Submit/Eligible/Start/End: timestamps, "Unknown" or "None" when unset;
 *  - Elapsed, Suspended: [D-]HH:MM:SS; ElapsedRaw: seconds;
 *  - AllocTRES/ReqTRES: "billing=10,cpu=8,mem=8G,node=1", billing already
 *    truncated to an integer by the controller;
 *  - Timelimit / TimelimitRaw: "00:30:00" / "30", "UNLIMITED",
 *    "Partition_Limit"; steps print nothing;
 *  - NodeList: "None assigned" before a job starts.
 * Free text (SubmitLine, Comment...) may itself hold '|'; when such a
 * column is the last one, the rest of the line is its value.
 *
 * Ten million records at 1 GB/s: the header is turned into one action per
 * column once, a row is split in one pass, and repeated values (users,
 * TRES strings, days of timestamps) are worked out once (loadcache.h).
 */
#include "config.h"

#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "loadcache.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

enum col_kind {
	C_IGNORE = 0,
	C_JOBID,
	C_JOBIDRAW,
	C_USER,
	C_ACCOUNT,
	C_PARTITION,
	C_QOS,
	C_SUBMIT,
	C_ELIGIBLE,
	C_START,
	C_END,
	C_ELAPSED,
	C_ELAPSEDRAW,
	C_SUSPENDED,
	C_STATE,
	C_ALLOCTRES,
	C_REQTRES,
	C_NNODES,
	C_NCPUS,
	C_TIMELIMITRAW,
	C_TIMELIMIT,
	C_NODELIST,
	C_CLUSTER,
	C_TEXT,
	C_KIND_COUNT
};

static const struct {
	const char *name;
	unsigned bit;
} columns[C_KIND_COUNT] = {
    [C_JOBID] = {"JobID", PRIO_SACCT_JOBID},
    [C_JOBIDRAW] = {"JobIDRaw", PRIO_SACCT_JOBIDRAW},
    [C_USER] = {"User", PRIO_SACCT_USER},
    [C_ACCOUNT] = {"Account", PRIO_SACCT_ACCOUNT},
    [C_PARTITION] = {"Partition", PRIO_SACCT_PARTITION},
    [C_QOS] = {"QOS", PRIO_SACCT_QOS},
    [C_SUBMIT] = {"Submit", PRIO_SACCT_SUBMIT},
    [C_ELIGIBLE] = {"Eligible", PRIO_SACCT_ELIGIBLE},
    [C_START] = {"Start", PRIO_SACCT_START},
    [C_END] = {"End", PRIO_SACCT_END},
    [C_ELAPSED] = {"Elapsed", PRIO_SACCT_ELAPSED},
    [C_ELAPSEDRAW] = {"ElapsedRaw", PRIO_SACCT_ELAPSEDRAW},
    [C_SUSPENDED] = {"Suspended", PRIO_SACCT_SUSPENDED},
    [C_STATE] = {"State", PRIO_SACCT_STATE},
    [C_ALLOCTRES] = {"AllocTRES", PRIO_SACCT_ALLOCTRES},
    [C_REQTRES] = {"ReqTRES", PRIO_SACCT_REQTRES},
    [C_NNODES] = {"NNodes", PRIO_SACCT_NNODES},
    [C_NCPUS] = {"NCPUS", PRIO_SACCT_NCPUS},
    [C_TIMELIMITRAW] = {"TimelimitRaw", PRIO_SACCT_TIMELIMITRAW},
    [C_TIMELIMIT] = {"Timelimit", PRIO_SACCT_TIMELIMIT},
    [C_NODELIST] = {"NodeList", PRIO_SACCT_NODELIST},
    [C_CLUSTER] = {"Cluster", PRIO_SACCT_CLUSTER},
};

/* Columns of free text that may contain '|' themselves. */
static const char *const text_columns[] = {
    "SubmitLine", "Comment",	 "AdminComment", "SystemComment",
    "WorkDir",	  "Constraints", "JobName",	 "Container",
    "StdOut",	  "StdErr",	 "StdIn",
};

#define MAX_COLUMNS 512u

/* Columns whose values go into the snapshot's tables (names, TRES lists):
 * only the thread that loads does that. */
static bool interns(int kind)
{
	switch (kind) {
	case C_USER:
	case C_ACCOUNT:
	case C_PARTITION:
	case C_QOS:
	case C_CLUSTER:
	case C_NODELIST:
	case C_ALLOCTRES:
	case C_REQTRES:
		return true;
	}
	return false;
}

struct sa_loader {
	struct prio_snapshot *snap;
	const char *name;
	struct prio_error *err;
	const char *limit; /* end of the input: words may be read up to it */
	struct lc_time_cache times;
	struct lc_table tres, t_user, t_account, t_part, t_qos, t_cluster;
	struct lc_last l_nodes, l_misc;
	uint64_t m_bar[PRIO_MAX_LINE / 64 + 1]; /* '|' of the current line */
	uint8_t kind[MAX_COLUMNS];
	const char
	    *col_name[MAX_COLUMNS]; /* for errors, as the header has it */
	char names[MAX_COLUMNS][24];
	uint32_t ncols;
	bool trailing_bar; /* sacct -p */
	bool last_is_text;
	unsigned long records;
	/* streaming (prio_sacct_stream): records go to fn, not the snapshot */
	prio_sacct_fn fn;
	void *ctx;
	struct prio_error *fn_err;
	bool fn_failed;
	bool have_header;
	bool have_raw_column;
	uint32_t want;	      /* columns asked for, 0 all */
	struct dup_set *dups; /* keys seen, for the duplicate check */
	unsigned long lines;  /* lines of the runs before */
	/* the second thread's loader (two threads, below): rows go to this
	 * run, their names are left to intern */
	struct sa_run *pre;
	uint16_t icol[MAX_COLUMNS]; /* the columns it leaves, in order */
	uint32_t ni;
};

static int pre_span(struct sa_run *run, const char *v, size_t n);
static int pre_row(struct sa_run *run, const struct prio_sacct_rec *r);

__attribute__((format(printf, 4, 5))) static int row_error(struct sa_loader *ld,
							   uint32_t line,
							   const char *field,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prio_error_setv(ld->err, PRIO_ERR_PARSE, ld->name, line, field, fmt,
			ap);
	va_end(ap);
	return -1;
}

static int header(struct sa_loader *ld, const struct prio_line *l)
{
	const char *p = l->text, *end = l->text + l->len;
	bool have_id = false;

	ld->trailing_bar = l->len > 0 && end[-1] == '|';
	if (ld->trailing_bar)
		end--;
	for (;;) {
		const char *q = memchr(p, '|', (size_t)(end - p));
		size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
		uint32_t c = ld->ncols;
		int kind = C_IGNORE;

		if (c >= MAX_COLUMNS)
			return prio_error_set(
			    ld->err, PRIO_ERR_LIMIT, ld->name, l->number, "",
			    "more than %u columns", MAX_COLUMNS);
		for (int k = 1; k < C_TEXT; k++)
			if (strlen(columns[k].name) == n &&
			    strncasecmp(columns[k].name, p, n) == 0)
				kind = k;
		for (size_t t = 0;
		     kind == C_IGNORE &&
		     t < sizeof(text_columns) / sizeof(text_columns[0]);
		     t++)
			if (strlen(text_columns[t]) == n &&
			    strncasecmp(text_columns[t], p, n) == 0)
				kind = C_TEXT;
		if (kind == C_JOBIDRAW)
			ld->have_raw_column = true;
		if (kind != C_IGNORE && kind != C_TEXT)
			ld->snap->sacct_columns |= columns[kind].bit;
		if (kind == C_JOBID || kind == C_JOBIDRAW)
			have_id = true;
		/* a name nobody looks at is not interned; columns whose
		 * values may be refused are always read */
		if (ld->want && !(ld->want & columns[kind].bit) &&
		    (kind == C_USER || kind == C_ACCOUNT || kind == C_PARTITION ||
		     kind == C_QOS || kind == C_CLUSTER || kind == C_NODELIST))
			kind = C_IGNORE;
		ld->kind[c] = (uint8_t)kind;
		snprintf(ld->names[c], sizeof(ld->names[c]), "%.*s",
			 (int)(n > 23 ? 23 : n), p);
		ld->col_name[c] = ld->names[c];
		ld->ncols++;
		if (!q)
			break;
		p = q + 1;
	}
	if (!have_id) {
		char q[48];

		return prio_error_set(
		    ld->err, PRIO_ERR_PARSE, ld->name, l->number, "JobID",
		    "expected a header line naming a JobID "
		    "column (sacct -P without -n), got \"%s\"",
		    text_quote(l->text, l->len, q, sizeof(q)));
	}
	ld->last_is_text = ld->kind[ld->ncols - 1] == C_TEXT;
	for (uint32_t c = 0; c < ld->ncols; c++)
		if (interns(ld->kind[c]))
			ld->icol[ld->ni++] = (uint16_t)c;
	return 0;
}

static inline int parse_num(const char *s, size_t n, const char **p,
			    uint32_t *out)
{
	const char *start = *p, *end = s + n;
	uint64_t v = 0;

	while (*p < end && **p >= '0' && **p <= '9' && *p - start < 10)
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	if (*p == start || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* "12", "12_3", "12_[1-5%2]", "12+1", "12.batch", "12_3.0" ... */
static int job_id(struct sa_loader *ld, const char *s, size_t n,
		  struct prio_sacct_rec *r)
{
	const char *p = s, *end = s + n;
	uint32_t a, b;

	if (parse_num(s, n, &p, &a) < 0)
		return -1;
	r->job_id = a;
	if (p < end && *p == '_') {
		p++;
		r->array_job_id = a;
		if (p < end && *p == '[') {
			const char *close = memchr(p, ']', (size_t)(end - p));

			if (!close || close == p + 1)
				return -1;
			if (ld->pre)
				return -2; /* interned by row() on the
					    * reading thread */
			if (lc_intern(ld->snap, &ld->l_misc, p + 1,
				      (size_t)(close - p - 1),
				      &r->array_task_text) < 0)
				return -2;
			p = close + 1;
		} else {
			if (parse_num(s, n, &p, &b) < 0)
				return -1;
			r->array_task_id = b;
		}
	}
	if (p < end && *p == '+') {
		p++;
		if (parse_num(s, n, &p, &b) < 0)
			return -1;
		r->het_job_id = a;
		r->het_job_offset = b;
	}
	if (p < end && *p == '.') {
		size_t rest;

		p++;
		rest = (size_t)(end - p);
		r->is_step = true;
		if (rest == 5 && memcmp(p, "batch", 5) == 0)
			r->step_id = PRIO_SACCT_STEP_BATCH;
		else if (rest == 6 && memcmp(p, "extern", 6) == 0)
			r->step_id = PRIO_SACCT_STEP_EXTERN;
		else if (rest == 11 && memcmp(p, "interactive", 11) == 0)
			r->step_id = PRIO_SACCT_STEP_INTERACTIVE;
		else if (parse_num(s, n, &p, &r->step_id) < 0 || p != end)
			return -1;
		p = end;
	}
	return p == end ? 0 : -1;
}

static int time_limit(const char *v, size_t n, bool raw, uint32_t *mins)
{
	uint32_t secs;

	if (n == 0 || (n == 15 && memcmp(v, "Partition_Limit", 15) == 0)) {
		*mins = PRIO_NO_VAL;
		return 0;
	}
	if (n == 9 && memcmp(v, "UNLIMITED", 9) == 0) {
		*mins = PRIO_INFINITE;
		return 0;
	}
	if (raw)
		return lc_u32(v, n, mins);
	if (lc_duration_secs(v, n, &secs) < 0)
		return -1;
	*mins = secs == PRIO_INFINITE ? PRIO_INFINITE : (secs + 59) / 60;
	return 0;
}

static int intern(struct sa_loader *ld, struct lc_table *t, const char *v,
		  size_t n, prio_id *id)
{
	return lc_intern_t(ld->snap, t, v, n, id);
}

/* A field of the columns interns() names; -1 bad value, -2 out of
 * memory.  Apart from field() (inlined in row(), where it is called for
 * every field), as the loading thread calls it alone on rows the second
 * thread read. */
static int name_field(struct sa_loader *ld, struct prio_sacct_rec *r,
		      int kind, const char *v, size_t n)
{
	const char *why;

	switch (kind) {
	case C_USER:
		return intern(ld, &ld->t_user, v, n, &r->user) < 0 ? -2 : 0;
	case C_ACCOUNT:
		return intern(ld, &ld->t_account, v, n, &r->account) < 0 ? -2
									 : 0;
	case C_PARTITION:
		return intern(ld, &ld->t_part, v, n, &r->partition) < 0 ? -2
									: 0;
	case C_QOS:
		return intern(ld, &ld->t_qos, v, n, &r->qos) < 0 ? -2 : 0;
	case C_CLUSTER:
		return intern(ld, &ld->t_cluster, v, n, &r->cluster) < 0 ? -2
									 : 0;
	case C_NODELIST:
		if (n == 13 && memcmp(v, "None assigned", 13) == 0)
			return 0;
		return lc_intern(ld->snap, &ld->l_nodes, v, n, &r->node_list) <
			       0
			   ? -2
			   : 0;
	case C_ALLOCTRES:
	case C_REQTRES: {
		int rc = lc_tres_list(
		    ld->snap, &ld->tres, v, n,
		    kind == C_ALLOCTRES ? &r->alloc_tres : &r->req_tres, &why);
		return rc == -2 ? -2 : rc < 0 ? -1 : 0;
	}
	}
	return 0;
}

/* One field of a row; -1 bad value, -2 out of memory. */
static inline int field(struct sa_loader *ld, struct prio_sacct_rec *r,
			int kind, const char *v, size_t n, uint32_t *raw_id,
			bool *have_raw, uint32_t *elapsed_raw,
			bool *have_elapsed_raw)
{
	if (interns(kind))
		return ld->pre ? pre_span(ld->pre, v, n)
			       : name_field(ld, r, kind, v, n);
	switch (kind) {
	case C_JOBID:
		return job_id(ld, v, n, r);
	case C_JOBIDRAW: {
		const char *dot = memchr(v, '.', n);

		*have_raw = true;
		return lc_u32(v, dot ? (size_t)(dot - v) : n, raw_id);
	}
	case C_SUBMIT:
		return lc_timestamp(&ld->times, v, n, &r->submit);
	case C_ELIGIBLE:
		return lc_timestamp(&ld->times, v, n, &r->eligible);
	case C_START:
		return lc_timestamp(&ld->times, v, n, &r->start);
	case C_END:
		return lc_timestamp(&ld->times, v, n, &r->end);
	case C_ELAPSED:
		return n ? lc_duration_secs(v, n, &r->elapsed) : 0;
	case C_ELAPSEDRAW:
		if (n == 0)
			return 0;
		*have_elapsed_raw = true;
		return lc_u32(v, n, elapsed_raw);
	case C_SUSPENDED:
		return n ? lc_duration_secs(v, n, &r->suspended) : 0;
	case C_STATE: {
		enum prio_job_state st;

		if (prio_job_state_parse(v, n, &st) < 0)
			return -1;
		r->state = (uint8_t)st;
		return 0;
	}
	case C_NNODES:
		return n ? lc_u32(v, n, &r->nnodes) : 0;
	case C_NCPUS:
		return n ? lc_u32(v, n, &r->ncpus) : 0;
	case C_TIMELIMITRAW:
		return time_limit(v, n, true, &r->time_limit);
	case C_TIMELIMIT:
		return time_limit(v, n, false, &r->time_limit);
	}
	return 0;
}

/* What a column's refused value v should have been. */
static const char *expectation(int kind, const char *v, size_t n)
{
	const char *want;

	switch (kind) {
	case C_JOBID:
		return "a job id like 12, 12_3, 12_[1-5], 12+1 or 12.batch";
	case C_JOBIDRAW:
		return "a job id";
	case C_SUBMIT:
	case C_ELIGIBLE:
	case C_START:
	case C_END:
		want = prio_timestamp_expected(v, n);
		return want ? want
			    : "a timestamp (YYYY-MM-DDTHH:MM:SS, Unknown or None)";
	case C_ELAPSED:
	case C_SUSPENDED:
		return "a duration [D-]HH:MM:SS";
	case C_STATE:
		return "a job state";
	case C_ALLOCTRES:
	case C_REQTRES:
		return "a TRES list like cpu=8,mem=8G";
	case C_TIMELIMIT:
		return "a time limit, UNLIMITED or Partition_Limit";
	case C_TIMELIMITRAW:
		return "minutes, UNLIMITED or Partition_Limit";
	}
	return "an unsigned integer";
}

/*
 * The '|' of a line as a bit mask (bit i = byte i), found sixteen bytes at
 * a time with SSE2, byte by byte elsewhere; NUL bytes are found in the same
 * pass.  Returns -1 when the line holds one.
 */
static int build_bars(struct sa_loader *ld, const char *p, size_t len)
{
	size_t words = (len + 63) / 64;
	uint64_t nul = 0;

	for (size_t w = 0; w < words; w++) {
		uint64_t b = 0, z = 0;
		size_t base = w * 64;
#ifdef __SSE2__
		const __m128i bar = _mm_set1_epi8('|'),
			      zero = _mm_setzero_si128();

		for (size_t k = 0; k < 64 && base + k < len; k += 16) {
			const char *q = p + base + k;
			__m128i x;

			if (ld->limit - q >= 16) {
				x = _mm_loadu_si128(
				    (const __m128i *)(const void *)q);
			} else {
				unsigned char tmp[16] = {0};

				memcpy(tmp, q, (size_t)(ld->limit - q));
				x = _mm_loadu_si128(
				    (const __m128i *)(const void *)tmp);
			}
			b |= (uint64_t)(unsigned)_mm_movemask_epi8(
				 _mm_cmpeq_epi8(x, bar))
			     << k;
			z |= (uint64_t)(unsigned)_mm_movemask_epi8(
				 _mm_cmpeq_epi8(x, zero))
			     << k;
		}
#else
		for (size_t k = 0; k < 64 && base + k < len; k++) {
			b |= (uint64_t)(p[base + k] == '|') << k;
			z |= (uint64_t)(p[base + k] == '\0') << k;
		}
#endif
		if (len - base < 64) {
			uint64_t keep = (1ull << (len - base)) - 1;

			b &= keep;
			z &= keep;
		}
		ld->m_bar[w] = b;
		nul |= z;
	}
	return nul ? -1 : 0;
}

/* The next '|' at or after pos, len if none. */
static inline size_t next_bar(const uint64_t *m, size_t pos, size_t len)
{
	size_t w = pos >> 6, words = (len + 63) >> 6;
	uint64_t x;

	if (pos >= len)
		return len;
	x = m[w] & (~0ull << (pos & 63));
	while (!x) {
		if (++w >= words)
			return len;
		x = m[w];
	}
	return (w << 6) + (size_t)__builtin_ctzll(x);
}

/*
 * Keys seen while streaming, in bounded memory, for the duplicate check
 * (refuse_duplicates() sorts all records, which streaming has not kept).
 * A job's own row and its batch, extern and interactive steps are one bit
 * each per job id, in pages of 65536 ids made when first touched (100M
 * jobs: 12.5 MB); any other key (numbered steps, heterogeneous parts,
 * pending arrays, array tasks without JobIDRaw) goes into a set of 64-bit
 * hashes.  A key seen before, or a hash that matches, makes the file be
 * loaded whole, where the exact check words the refusal: a false alarm
 * costs time, never a wrong answer; a key not seen is not a duplicate.
 */
#define DUP_KINDS 4
#define DUP_PAGE_BITS 16
struct dup_set {
	uint64_t *pages[DUP_KINDS][1u << (32 - DUP_PAGE_BITS)];
	uint64_t *slots; /* hashes, 0 = empty */
	size_t mask, count;
};

static void dup_set_free(struct dup_set *d)
{
	if (!d)
		return;
	for (unsigned k = 0; k < DUP_KINDS; k++)
		for (size_t p = 0; p < (1u << (32 - DUP_PAGE_BITS)); p++)
			free(d->pages[k][p]);
	free(d->slots);
	free(d);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* 1 when h was in the set (and is now), 0 when added, -1 out of memory */
static int dup_hash_seen(struct dup_set *d, uint64_t h)
{
	size_t i;

	h = h ? h : 1;
	if ((d->count + 1) * 4 > (d->mask + 1) * 3 || !d->slots) {
		size_t n = d->slots ? (d->mask + 1) * 2 : 1024;
		uint64_t *ns = calloc(n, sizeof(*ns));

		if (!ns)
			return -1;
		for (size_t j = 0; d->slots && j <= d->mask; j++) {
			if (!d->slots[j])
				continue;
			for (i = d->slots[j] & (n - 1); ns[i]; i = (i + 1) & (n - 1))
				;
			ns[i] = d->slots[j];
		}
		free(d->slots);
		d->slots = ns;
		d->mask = n - 1;
	}
	for (i = h & d->mask; d->slots[i]; i = (i + 1) & d->mask)
		if (d->slots[i] == h)
			return 1;
	d->slots[i] = h;
	d->count++;
	return 0;
}

static int dup_seen(struct sa_loader *ld, const struct prio_sacct_rec *r)
{
	struct dup_set *d = ld->dups;
	int kind = -1;

	if (!r->is_step)
		kind = 0;
	else if (r->step_id == PRIO_SACCT_STEP_BATCH)
		kind = 1;
	else if (r->step_id == PRIO_SACCT_STEP_EXTERN)
		kind = 2;
	else if (r->step_id == PRIO_SACCT_STEP_INTERACTIVE)
		kind = 3;
	/* the bit stands for the whole key when the job id alone tells
	 * jobs apart: JobIDRaw's own id for array tasks */
	if (kind >= 0 && r->array_task_text == PRIO_NO_ID &&
	    r->het_job_offset == PRIO_NO_VAL &&
	    (r->array_task_id == PRIO_NO_VAL || ld->have_raw_column)) {
		uint64_t **page = &d->pages[kind][r->job_id >> DUP_PAGE_BITS];
		uint32_t bit = r->job_id & ((1u << DUP_PAGE_BITS) - 1);
		uint64_t m = 1ull << (bit & 63);

		if (!*page &&
		    !(*page = calloc((1u << DUP_PAGE_BITS) / 64, sizeof(uint64_t))))
			return -1;
		if ((*page)[bit >> 6] & m)
			return 1;
		(*page)[bit >> 6] |= m;
		return 0;
	}
	{
		const uint32_t k[8] = {r->job_id,	   r->array_job_id,
				       r->array_task_id,   r->array_task_text,
				       r->het_job_id,	   r->het_job_offset,
				       r->step_id,	   r->is_step};
		uint64_t h = 0x9e3779b97f4a7c15ull;

		for (unsigned i = 0; i < 8; i++)
			h = mix64(h ^ k[i]) + i;
		return dup_hash_seen(d, h);
	}
}

/* A streamed record: checked against the keys seen, then handed over. */
static int stream_record(struct sa_loader *ld, const struct prio_sacct_rec *r)
{
	int rc = dup_seen(ld, r);

	if (rc != 0)
		return prio_error_set(ld->err, rc < 0 ? PRIO_ERR_NOMEM
						      : PRIO_ERR_PARSE,
				      ld->name, r->line, "JobID",
				      "may be listed twice");
	if ((rc = ld->fn(ld->ctx, r, ld->fn_err)) < 0) {
		ld->fn_failed = true;
		return rc;
	}
	ld->records++;
	return 0;
}

static int row(struct sa_loader *ld, const struct prio_line *l)
{
	struct prio_sacct_rec r, *slot;
	const char *p = l->text;
	size_t len = l->len, pos = 0;
	uint32_t line = (uint32_t)l->number, raw_id = 0, elapsed_raw = 0, i;
	bool have_raw = false, have_elapsed_raw = false;
	char q[48];

	memset(&r, 0, sizeof(r));
	r.array_task_id = PRIO_NO_VAL;
	r.het_job_offset = PRIO_NO_VAL;
	r.step_id = PRIO_NO_VAL;
	r.time_limit = PRIO_NO_VAL;
	r.line = line;
	if (ld->trailing_bar) {
		if (len == 0 || p[len - 1] != '|')
			return row_error(ld, line, ld->col_name[ld->ncols - 1],
					 "expected %u fields ending with '|' "
					 "(sacct -p), as in the header",
					 ld->ncols);
		len--;
	}
	for (i = 0;; i++) {
		size_t start = pos;
		int rc;

		if (i == ld->ncols - 1 && ld->last_is_text)
			pos = len;
		else
			pos = next_bar(ld->m_bar, pos, len);
		if (i >= ld->ncols)
			return row_error(
			    ld, line, ld->col_name[ld->ncols - 1],
			    "more fields than the %u columns of the "
			    "header",
			    ld->ncols);
		if (ld->kind[i] != C_IGNORE) {
			rc = field(ld, &r, ld->kind[i], p + start, pos - start,
				   &raw_id, &have_raw, &elapsed_raw,
				   &have_elapsed_raw);
			if (rc == -2)
				return prio_error_set(ld->err, PRIO_ERR_NOMEM,
						      ld->name, line, "",
						      "out of memory");
			if (rc < 0)
				return row_error(
				    ld, line, ld->col_name[i],
				    "expected %s, got \"%s\"",
				    expectation(ld->kind[i], p + start,
						pos - start),
				    text_quote(p + start, pos - start, q, sizeof(q)));
		}
		if (pos >= len)
			break;
		pos++; /* the '|' */
	}
	if (i + 1 < ld->ncols)
		return row_error(ld, line, ld->col_name[i + 1],
				 "%u fields where the header has %u columns",
				 i + 1, ld->ncols);
	/* time runs one way: a row that ends before it starts was edited,
	 * and its Elapsed would bill a span that never was */
	if (r.start && r.end && r.end < r.start)
		return row_error(ld, line, "End",
				 "the job ends before it starts (End before "
				 "Start)");
	if (have_raw)
		r.job_id = raw_id;
	if (have_elapsed_raw)
		r.elapsed = elapsed_raw;
	if (ld->pre)
		return pre_row(ld->pre, &r);
	if (ld->fn)
		return stream_record(ld, &r);
	slot = prio_snapshot_new_sacct(ld->snap);
	if (!slot)
		return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line,
				      "", "out of memory");
	*slot = r;
	ld->records++;
	return 0;
}

static int load(struct sa_loader *ld, const struct prio_source *src)
{
	struct lc_reader r;
	struct prio_line l;
	bool have_header = false;
	const char *kept = src->data;
	int rc;

	lc_reader_init(&r, src);
	for (;;) {
		/* the rows before are read: nothing reads their text again */
		lc_give_back(src, &kept, r.pos);
		rc = lc_line_next(&r, &l, ld->err);
		if (rc == 0)
			break;
		if (rc > 0 && build_bars(ld, l.text, l.len) < 0)
			rc = prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name,
					    l.number, "", "NUL byte in input");
		if (rc > 0 && l.len == 0)
			continue;
		if (rc > 0 && !have_header) {
			if ((rc = header(ld, &l)) < 0)
				return rc;
			have_header = true;
			continue;
		}
		if (rc > 0)
			rc = row(ld, &l);
		if (rc < 0) {
			if (!have_header || ld->err->status == PRIO_ERR_NOMEM)
				return rc;
			if ((rc = prio_snapshot_record_error(ld->snap,
							     ld->err)) < 0)
				return rc;
		}
	}
	if (!have_header)
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1,
				      "JobID",
				      "empty input: expected sacct -P output "
				      "with a header line");
	return 0;
}

/* What names a job or step in sacct's output, then the row's line. */
struct dup_key {
	uint32_t k[8];
	uint32_t line, index;
};

static int dup_cmp(const void *a, const void *b)
{
	const struct dup_key *x = a, *y = b;
	int c = memcmp(x->k, y->k, sizeof(x->k));

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* sacct (without --duplicates) prints each job and step once: a row
 * printed twice would count its usage twice.  Refused, or under
 * --keep-going dropped with a counted warning. */
static int refuse_duplicates(struct sa_loader *ld, uint32_t from)
{
	struct prio_snapshot *snap = ld->snap;
	uint32_t n = snap->sacct_count - from, kept = from;
	struct dup_key *keys;
	bool *drop;
	int rc = 0;

	if (n < 2)
		return 0;
	keys = calloc(n, sizeof(*keys));
	drop = calloc(n, sizeof(*drop));
	if (!keys || !drop) {
		free(keys);
		free(drop);
		return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, 0, "",
				      "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_sacct_rec *r = &snap->sacct[from + i];
		const uint32_t k[8] = {r->job_id,	  r->array_job_id,
				       r->array_task_id,  r->array_task_text,
				       r->het_job_id,	  r->het_job_offset,
				       r->step_id,	  r->is_step};

		memcpy(keys[i].k, k, sizeof(k));
		keys[i].line = r->line;
		keys[i].index = i;
	}
	qsort(keys, n, sizeof(*keys), dup_cmp);
	for (uint32_t i = 1; i < n && rc == 0; i++) {
		char id[64];

		if (memcmp(keys[i - 1].k, keys[i].k, sizeof(keys[i].k)) != 0)
			continue;
		prio_error_set(
		    ld->err, PRIO_ERR_PARSE, ld->name, keys[i].line, "JobID",
		    "job %s listed twice (also at line %u)",
		    prio_sacct_job_id_format(
			snap, &snap->sacct[from + keys[i].index], id,
			sizeof(id)),
		    keys[i - 1].line);
		rc = prio_snapshot_record_error(snap, ld->err);
		drop[keys[i].index] = true;
	}
	if (rc == 0) {
		for (uint32_t i = 0; i < n; i++)
			if (!drop[i])
				snap->sacct[kept++] = snap->sacct[from + i];
		ld->records -= snap->sacct_count - kept;
		snap->sacct_count = kept;
	}
	free(keys);
	free(drop);
	return rc;
}

/* The loader's caches of values worked out once: made, or freed. */
static void loader_tables(struct sa_loader *ld, bool make)
{
	struct lc_table *t[] = {&ld->tres,   &ld->t_user, &ld->t_account,
				&ld->t_part, &ld->t_qos,  &ld->t_cluster};

	if (make)
		lc_time_cache_init(&ld->times);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (make)
			lc_table_init(t[i]);
		else
			lc_table_free(t[i]);
	}
}

int prio_load_sacct(struct prio_snapshot *snap, const struct prio_source *src,
		    struct prio_error *err)
{
	uint32_t from = snap->sacct_count;
	struct sa_loader *ld = calloc(1, sizeof(*ld));
	int rc;

	if (!ld)
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory");
	ld->snap = snap;
	ld->name = src->name;
	ld->err = err;
	ld->limit = src->data + src->size;
	loader_tables(ld, true);
	rc = load(ld, src);
	if (rc == 0)
		rc = refuse_duplicates(ld, from);
	if (rc == 0)
		rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_SACCT,
					       src->name, ld->records);
	if (rc < 0 && err->status == PRIO_OK)
		prio_error_set(err, rc, src->name, 0, "", "out of memory");
	loader_tables(ld, false);
	free(ld);
	return rc;
}

const char *prio_sacct_job_id_format(const struct prio_snapshot *snap,
				     const struct prio_sacct_rec *rec,
				     char *buf, size_t size)
{
	size_t used = 0;
	int n;

#define PUT(...)                                                               \
	do {                                                                   \
		n = snprintf(buf + used, size - used, __VA_ARGS__);            \
		if (n < 0 || (size_t)n >= size - used)                         \
			return buf;                                            \
		used += (size_t)n;                                             \
	} while (0)
	if (!size)
		return buf;
	buf[0] = '\0';
	if (rec->het_job_offset != PRIO_NO_VAL)
		PUT("%u+%u", rec->het_job_id, rec->het_job_offset);
	else if (rec->array_task_text != PRIO_NO_ID)
		PUT("%u_[%s]", rec->array_job_id,
		    prio_snapshot_str(snap, rec->array_task_text));
	else if (rec->array_task_id != PRIO_NO_VAL)
		PUT("%u_%u", rec->array_job_id, rec->array_task_id);
	else
		PUT("%u", rec->job_id);
	if (rec->is_step) {
		switch (rec->step_id) {
		case PRIO_SACCT_STEP_BATCH:
			PUT(".batch");
			break;
		case PRIO_SACCT_STEP_EXTERN:
			PUT(".extern");
			break;
		case PRIO_SACCT_STEP_INTERACTIVE:
			PUT(".interactive");
			break;
		default:
			PUT(".%u", rec->step_id);
			break;
		}
	}
#undef PUT
	return buf;
}

/* The loader's last values point into the run they came from: a run read
 * into the same buffer, or a buffer used again, may hold other text there
 * (the tables would hand out the id of what was there before). */
static void forget_last(struct sa_loader *ld)
{
	struct lc_table *t[] = {&ld->tres,   &ld->t_user, &ld->t_account,
				&ld->t_part, &ld->t_qos,  &ld->t_cluster};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		t[i]->last_s = NULL;
	ld->l_nodes.s = NULL;
	ld->l_misc.s = NULL;
}

/* One run of whole lines; 0, or negative at the first error.  With
 * header_end, it stops after the header line (*header_end: its end). */
static int stream_lines(struct sa_loader *ld, const char *data, size_t size,
			size_t *header_end)
{
	struct prio_source src;
	struct lc_reader r;
	struct prio_line l;
	int rc;

	prio_source_from_memory(&src, ld->name, data, size);
	lc_reader_init(&r, &src);
	r.number = ld->lines;
	ld->limit = data + size;
	forget_last(ld);
	while ((rc = lc_line_next(&r, &l, ld->err)) > 0) {
		if (build_bars(ld, l.text, l.len) < 0)
			return -1;
		if (l.len == 0)
			continue;
		if (!ld->have_header) {
			if ((rc = header(ld, &l)) < 0)
				return rc;
			ld->have_header = true;
			if (header_end) {
				*header_end = (size_t)(r.pos - data);
				rc = 0;
				break;
			}
			continue;
		}
		if ((rc = row(ld, &l)) < 0)
			return rc;
	}
	ld->lines = r.number;
	return rc;
}

/* --- two threads --------------------------------------------------------- */

/*
 * A file of more than one run is read by two threads (issue 17: the
 * machines have two cores or more, and a roll-up is bound by the reading):
 * a second thread reads and decodes the next run and reads the rows of its
 * first part -- ids, times, durations, states, limits: all that needs no
 * snapshot -- while this one interns the names and TRES lists of those
 * rows of the run before, in column order, checks the keys, hands the
 * records to fn in file order, then reads the rest of that run itself as
 * one thread does.  The part is set run by run from the times each side
 * took, so that neither waits for the other (decoding zstd or gzip takes
 * the second thread a while).  Ids, what fn sees and the first error and
 * its line are what one thread gives: a row the second thread cannot read
 * whole (a refused value, a pending array's task text to intern, no
 * memory) is read again here by row(); at a line it cannot split (too
 * long, a NUL byte) it stops, and this thread reads on from there itself.
 * At most PIPE_RING runs and the one being read are in memory.
 */
#define PIPE_RING 3u

struct pre_row {
	struct prio_sacct_rec r; /* without its names when !redo; line: of
				    the run */
	uint32_t off, len;	 /* the line in the run */
	uint32_t span;		 /* its names: spans[span, span + 2 * ni) */
	bool redo;		 /* to be read again by row() */
};

struct sa_run {
	char *buf;	   /* the text (owned) */
	size_t from, size; /* the lines: buf[from, size) */
	int rc;		   /* 1 a run, 0 the end of the file, < 0 err */
	struct prio_error err;
	struct pre_row *rows;
	size_t nrows, cap;
	uint32_t *spans; /* offset and length of each name, row after row */
	size_t nspans, span_cap;
	size_t stop;		  /* where this thread reads on */
	unsigned long stop_lines; /* lines of the run before it */
	bool halted;		  /* the second thread stopped there */
	double fold_s, load_s;	  /* this thread's times (pipe_part()) */
};

struct sa_pipe {
	struct lc_ring q;
	struct sa_run ring[PIPE_RING];
	/* the second thread's */
	struct prio_chunks *ch;
	struct sa_loader *w;
	struct prio_error werr;
	size_t first_from, first_size;
	unsigned runs;
	double part;	      /* of a run read by the second thread */
	double read_s, row_s; /* its seconds a run, a byte of rows */
	/* this thread's seconds a byte, as it left them in the runs it
	 * took: rows handed over, rows read */
	double fold_s, load_s;
};

/* The seconds of work of the calling thread (not of waiting for the
 * other, nor of other programs on a shared machine). */
static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * The part of a run of size bytes the second thread reads the rows of, so
 * that both threads take as long: it reads the run (read_s) and the part
 * (row_s a byte); this thread hands over those rows (fold_s) and reads the
 * rest itself (load_s).
 */
static double pipe_part(const struct sa_pipe *pp, size_t size)
{
	double n = (double)size,
	       den = (pp->row_s + pp->load_s - pp->fold_s) * n, f;

	if (pp->row_s <= 0 || pp->load_s <= 0 || den <= 0)
		return pp->part;
	f = (pp->load_s * n - pp->read_s) / den;
	return f < 0.05 ? 0.05 : f > 1 ? 1 : f;
}

static int pre_span(struct sa_run *run, const char *v, size_t n)
{
	if (run->nspans + 2 > run->span_cap) {
		size_t cap = run->span_cap ? run->span_cap * 2 : 8192;
		uint32_t *ns = realloc(run->spans, cap * sizeof(*ns));

		if (!ns)
			return -2;
		run->spans = ns;
		run->span_cap = cap;
	}
	run->spans[run->nspans++] = (uint32_t)(v - run->buf);
	run->spans[run->nspans++] = (uint32_t)n;
	return 0;
}

static int pre_row(struct sa_run *run, const struct prio_sacct_rec *r)
{
	run->rows[run->nrows - 1].r = *r; /* the row being read */
	return 0;
}

/* The rows of run up to split, read by the second thread. */
static void pipe_read_rows(struct sa_pipe *pp, struct sa_run *run,
			   size_t split)
{
	struct sa_loader *w = pp->w;
	struct prio_source src;
	struct lc_reader r;
	struct prio_line l;

	prio_source_from_memory(&src, w->name, run->buf + run->from,
				split - run->from);
	lc_reader_init(&r, &src);
	r.number = 0; /* lines of the run: this thread adds those before */
	w->limit = run->buf + run->size;
	w->pre = run;
	run->nrows = 0;
	run->nspans = 0;
	run->halted = false;
	for (;;) {
		const char *at = r.pos;
		unsigned long before = r.number;
		struct pre_row *e;
		int rc = lc_line_next(&r, &l, &pp->werr);

		if (rc == 0)
			break;
		if (rc > 0 && build_bars(w, l.text, l.len) < 0)
			rc = -1;
		if (rc > 0 && l.len == 0)
			continue;
		if (rc > 0 && run->nrows == run->cap) {
			size_t cap = run->cap ? run->cap * 2 : 4096;
			struct pre_row *nr =
			    realloc(run->rows, cap * sizeof(*nr));

			if (nr) {
				run->rows = nr;
				run->cap = cap;
			} else
				rc = -1;
		}
		if (rc < 0) {
			run->stop = (size_t)(at - run->buf);
			run->stop_lines = before;
			run->halted = true;
			return;
		}
		e = &run->rows[run->nrows++];
		e->off = (uint32_t)(l.text - run->buf);
		e->len = (uint32_t)l.len;
		e->span = (uint32_t)run->nspans;
		e->redo = row(w, &l) < 0;
		if (e->redo) {
			e->r.line = (uint32_t)l.number;
			run->nspans = e->span;
		}
	}
	run->stop = split;
	run->stop_lines = r.number;
}

static void *pipe_main(void *arg)
{
	struct sa_pipe *pp = arg;

	for (;;) {
		int slot = lc_ring_slot(&pp->q);
		struct sa_run *run;
		const char *data;
		size_t size, split;
		double t0, t1, part;
		bool end;

		if (slot < 0)
			return NULL;
		run = &pp->ring[slot];
		if (run->fold_s > 0)
			pp->fold_s = run->fold_s;
		if (run->load_s > 0)
			pp->load_s = run->load_s;
		t0 = seconds();
		if (pp->runs++ == 0) {
			/* the run the loading thread read the header from */
			run->buf = prio_chunks_swap(pp->ch, run->buf);
			run->from = pp->first_from;
			run->size = pp->first_size;
			run->rc = 1;
		} else {
			run->rc = prio_chunks_next(pp->ch, &data, &size,
						   &run->err);
			if (run->rc > 0) {
				run->buf = prio_chunks_swap(pp->ch, run->buf);
				run->from = 0;
				run->size = size;
			}
		}
		t1 = seconds();
		pp->read_s = t1 - t0;
		part = run->rc > 0 ? pipe_part(pp, run->size - run->from) : 0;
		if (run->rc > 0) {
			/* a line break after the part */
			const char *nl;

			split = run->from +
				(size_t)(part * (double)(run->size - run->from));
			nl = split < run->size
				 ? memchr(run->buf + split, '\n',
					  run->size - split)
				 : NULL;
			split = nl ? (size_t)(nl - run->buf) + 1 : run->size;
			pipe_read_rows(pp, run, split);
		}
		end = run->rc <= 0 || run->halted;
		if (run->rc > 0 && !run->halted && run->stop > run->from)
			pp->row_s = (seconds() - t1) /
				    (double)(run->stop - run->from);
		lc_ring_filled(&pp->q);
		if (end)
			return NULL;
	}
}

static void pipe_free(struct sa_pipe *pp)
{
	for (unsigned i = 0; i < PIPE_RING; i++) {
		free(pp->ring[i].buf);
		free(pp->ring[i].rows);
		free(pp->ring[i].spans);
	}
	free(pp->w);
	free(pp);
}

/*
 * Start the second thread on the rows of the run next() gave (from byte
 * from, after the header), then on the runs after it; NULL when that fails
 * (this thread reads on alone: the run is where it was).  Its loader is a
 * copy of ld after the header with nothing shared: no snapshot, no tables.
 */
static struct sa_pipe *pipe_start(struct sa_loader *ld, struct prio_chunks *ch,
				  size_t from, size_t size)
{
	struct sa_pipe *pp = calloc(1, sizeof(*pp));
	size_t cap = prio_chunks_cap(ch);
	bool ok;

	if (!pp)
		return NULL;
	ok = (pp->w = malloc(sizeof(*pp->w))) != NULL;
	for (unsigned i = 0; ok && i < PIPE_RING; i++)
		ok = (pp->ring[i].buf = malloc(cap)) != NULL;
	if (!ok) {
		pipe_free(pp);
		return NULL;
	}
	memcpy(pp->w, ld, sizeof(*ld));
	pp->w->snap = NULL;
	pp->w->err = &pp->werr;
	pp->w->fn = NULL;
	pp->w->dups = NULL;
	memset(&pp->w->l_nodes, 0, sizeof(pp->w->l_nodes));
	memset(&pp->w->l_misc, 0, sizeof(pp->w->l_misc));
	{
		struct lc_table *t[] = {&pp->w->tres,	&pp->w->t_user,
					&pp->w->t_account, &pp->w->t_part,
					&pp->w->t_qos,	&pp->w->t_cluster};

		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
			memset(t[i], 0, sizeof(*t[i]));
	}
	pp->ch = ch;
	pp->first_from = from;
	pp->first_size = size;
	pp->part = 0.7; /* until both sides were timed */
	if (lc_ring_start(&pp->q, PIPE_RING, pipe_main, pp) < 0) {
		pipe_free(pp);
		return NULL;
	}
	return pp;
}

static void pipe_stop(struct sa_pipe *pp)
{
	lc_ring_stop(&pp->q);
	pipe_free(pp);
}

/* The records of a run read by the second thread, as row() makes them:
 * the names interned in column order, then the key check and fn. */
static int pipe_take(struct sa_loader *ld, struct sa_run *run,
		     double *fold_s, double *load_s)
{
	double t0 = seconds(), t1;
	unsigned long base = ld->lines; /* the lines of the runs before */
	int rc;

	forget_last(ld);
	ld->limit = run->buf + run->size;
	for (size_t i = 0; i < run->nrows; i++) {
		const struct pre_row *e = &run->rows[i];
		struct prio_sacct_rec r = e->r;

		rc = 0;
		r.line = (uint32_t)(base + e->r.line);
		for (uint32_t j = 0; !e->redo && rc == 0 && j < ld->ni; j++) {
			const uint32_t *sp = run->spans + e->span + 2 * j;

			rc = name_field(ld, &r, ld->kind[ld->icol[j]],
					run->buf + sp[0], sp[1]);
		}
		if (e->redo || rc < 0) {
			/* row() says what is wrong, as one thread does (a
			 * name interned twice keeps its id) */
			struct prio_line l;

			l.text = run->buf + e->off;
			l.len = e->len;
			l.number = base + e->r.line;
			if (build_bars(ld, l.text, l.len) < 0)
				return -1;
			rc = row(ld, &l);
		} else
			rc = stream_record(ld, &r);
		if (rc < 0)
			return rc;
	}
	/* the rest of the run, as one thread reads it */
	t1 = seconds();
	if (run->stop > run->from)
		*fold_s = (t1 - t0) / (double)(run->stop - run->from);
	ld->lines = base + run->stop_lines;
	rc = stream_lines(ld, run->buf + run->stop, run->size - run->stop,
			  NULL);
	if (run->stop < run->size)
		*load_s = (seconds() - t1) / (double)(run->size - run->stop);
	return rc;
}

/* Records are read this much text at a time: with PIPE_RING runs in
 * flight, both threads' text and rows stay in a shared cache (16 MiB runs
 * took 4 times the memory and no less time). */
#define STREAM_CHUNK ((size_t)2 << 20)

/*
 * The runs after the first by two threads: 0 at the end of the file, 1
 * when the second thread stopped before it (this one reads on), negative
 * at the first error.  *last: the last byte of the last run.
 */
static int stream_two(struct sa_loader *ld, struct sa_pipe *pp, char *last)
{
	struct sa_run *run = NULL;
	double fold_s = 0, load_s = 0;

	for (;;) {
		int rc;

		if (run) {
			/* left for the second thread in the run it frees */
			run->fold_s = fold_s;
			run->load_s = load_s;
		}
		run = &pp->ring[lc_ring_take(&pp->q)];
		if (run->rc <= 0) {
			if (run->rc < 0)
				*ld->err = run->err;
			return run->rc;
		}
		*last = run->buf[run->size - 1];
		fold_s = load_s = 0;
		if ((rc = pipe_take(ld, run, &fold_s, &load_s)) < 0)
			return rc;
		if (run->halted)
			return 1;
	}
}

int prio_sacct_stream(struct prio_snapshot *snap, const char *path,
		      uint32_t want, prio_sacct_fn fn, void *ctx,
		      struct prio_error *err)
{
	struct prio_error quiet; /* the whole-file load words every error */
	struct prio_chunks ch;
	struct sa_loader *ld;
	const char *data;
	size_t size, from = 0;
	char last = '\n';
	bool first = true;
	int rc;

	memset(&quiet, 0, sizeof(quiet));
	if (!path || strcmp(path, "-") == 0 ||
	    prio_chunks_open(&ch, path,
			     lc_test.stream_chunk ? lc_test.stream_chunk
						  : STREAM_CHUNK,
			     &quiet) < 0)
		return PRIO_SACCT_LOAD_WHOLE;
	ld = calloc(1, sizeof(*ld));
	if (ld)
		ld->dups = calloc(1, sizeof(*ld->dups));
	if (!ld || !ld->dups) {
		if (ld)
			free(ld);
		prio_chunks_close(&ch);
		return prio_error_set(err, PRIO_ERR_NOMEM, path, 0, "",
				      "out of memory");
	}
	ld->snap = snap;
	ld->name = path;
	ld->err = &quiet;
	ld->fn = fn;
	ld->ctx = ctx;
	ld->fn_err = err;
	ld->want = want;
	loader_tables(ld, true);
	while ((rc = prio_chunks_next(&ch, &data, &size, &quiet)) > 0) {
		last = data[size - 1];
		if (!first) {
			if ((rc = stream_lines(ld, data, size, NULL)) < 0)
				break;
			continue;
		}
		/* the header, then the rest of the first run by two threads
		 * when more runs follow (it was read full), else by one */
		first = false;
		if ((rc = stream_lines(ld, data, size, &from)) < 0)
			break;
		if (ld->have_header &&
		    (lc_test.pipe_min
			 ? (uint64_t)ch.before.st_size >= lc_test.pipe_min
			 : size + PRIO_MAX_LINE + 1 >= prio_chunks_cap(&ch))) {
			struct sa_pipe *pp = pipe_start(ld, &ch, from, size);

			if (pp) {
				rc = stream_two(ld, pp, &last);
				pipe_stop(pp);
				if (rc <= 0)
					break;
				continue;
			}
		}
		if (ld->have_header &&
		    (rc = stream_lines(ld, data + from, size - from, NULL)) < 0)
			break;
	}
	/* what the whole-file load would refuse or warn about: a cut last
	 * line, no header (an empty file), a file rewritten meanwhile */
	if (rc == 0 && (last != '\n' || !ld->have_header ||
			prio_chunks_finish(&ch, &quiet) < 0))
		rc = PRIO_SACCT_LOAD_WHOLE;
	if (rc < 0 && !ld->fn_failed)
		rc = PRIO_SACCT_LOAD_WHOLE;
	if (rc == PRIO_SACCT_LOAD_WHOLE && lc_test.stream_err)
		*lc_test.stream_err = quiet;
	if (rc == 0) {
		rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_SACCT, path,
					       ld->records);
		if (rc < 0)
			prio_error_set(err, rc, path, 0, "", "out of memory");
		else
			snap->roles_loaded |= 1u << PRIO_ROLE_SACCT;
	}
	loader_tables(ld, false);
	dup_set_free(ld->dups);
	free(ld);
	prio_chunks_close(&ch);
	return rc;
}
