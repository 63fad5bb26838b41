/* SPDX-License-Identifier: MIT */
/* Streaming accounting (issue 17): a file read as runs of whole lines,
 * records handed over one at a time and folded into a roll-up give what
 * the whole-file load gives; whatever the stream cannot judge alone is
 * handed back to the whole load (PRIO_SACCT_LOAD_WHOLE). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "loadcache.h"
#include "prio/rollup.h"
#include "testutil.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

/* Files through the library's own reader and writer calls. */
static char *slurp(const char *path, size_t *n)
{
	struct prio_source src;
	struct prio_error err;
	char *copy;

	cr_assert_eq(prio_source_open(&src, path, &err), 0, "%s", err.message);
	copy = malloc(src.size + 1);
	cr_assert_not_null(copy);
	memcpy(copy, src.data, src.size);
	*n = src.size;
	prio_source_close(&src);
	return copy;
}

static void spill(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	cr_assert_geq(fd, 0, "%s", path);
	cr_assert_eq(write(fd, data, n), (ssize_t)n);
	cr_assert_eq(close(fd), 0);
}

/* data compressed whole by codec into a new buffer (*out_n bytes) */
static void *squeeze(int codec, const void *data, size_t n, size_t *out_n)
{
	size_t cap = n + n / 10 + 65536;
	unsigned char *out = malloc(cap);

	cr_assert_not_null(out);
	if (codec == PRIO_CODEC_ZSTD) {
		*out_n = ZSTD_compress(out, cap, data, n, 1);
		cr_assert(!ZSTD_isError(*out_n));
	} else {
		z_stream z;

		memset(&z, 0, sizeof(z));
		cr_assert_eq(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
					  Z_DEFAULT_STRATEGY),
			     Z_OK);
		z.next_in = (Bytef *)(uintptr_t)data;
		z.avail_in = (uInt)n;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
		*out_n = cap - z.avail_out;
		deflateEnd(&z);
	}
	return out;
}

/* A file of lines of every length up to 3000 bytes, crossing runs. */
Test(stream, runs_are_whole_lines_and_join_to_the_file)
{
	size_t n = 6u << 20, pos = 0;
	char *text = malloc(n), path[] = "/tmp/prio-runs-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(text && fd >= 0);
	close(fd);
	for (unsigned k = 0; pos < n; k++) {
		size_t len = (k * 7919u) % 3000;

		for (size_t i = 0; i < len && pos < n - 1; i++)
			text[pos++] = (char)('a' + (k + i) % 26);
		text[pos++] = '\n';
	}
	for (int codec = PRIO_CODEC_NONE; codec <= PRIO_CODEC_ZSTD; codec++) {
		struct prio_chunks ch;
		struct prio_error err;
		const char *data;
		size_t size, got = 0, runs = 0, zn = n;
		void *z = codec ? squeeze(codec, text, n, &zn) : text;
		int rc;

		spill(path, z, zn);
		/* the smallest run (twice the longest line allowed) */
		cr_assert_eq(prio_chunks_open(&ch, path, 1, &err), 0);
		while ((rc = prio_chunks_next(&ch, &data, &size, &err)) > 0) {
			cr_assert_eq(data[size - 1], '\n');
			cr_assert(memcmp(data, text + got, size) == 0,
				  "run %zu differs", runs);
			got += size;
			runs++;
		}
		cr_assert_eq(rc, 0, "%s", err.message);
		cr_assert_eq(got, n);
		cr_assert_gt(runs, 5);
		cr_assert_eq(prio_chunks_finish(&ch, &err), 0);
		prio_chunks_close(&ch);
		if (codec)
			free(z);
	}
	/* cut compressed data is the decoder's error, in the stream too */
	{
		struct prio_chunks ch;
		struct prio_error err;
		const char *data;
		size_t size, zn;
		void *z = squeeze(PRIO_CODEC_GZIP, text, n, &zn);
		int rc;

		spill(path, z, zn / 2);
		cr_assert_eq(prio_chunks_open(&ch, path, 1, &err), 0);
		while ((rc = prio_chunks_next(&ch, &data, &size, &err)) > 0)
			;
		cr_assert_eq(rc, PRIO_ERR_PARSE);
		cr_assert_str_eq(err.message, "gzip data truncated");
		prio_chunks_close(&ch);
		free(z);
	}
	unlink(path);
	free(text);
}

struct collect {
	struct prio_sacct_rec *recs;
	size_t n, cap;
};

static int collect_one(void *ctx, const struct prio_sacct_rec *rec,
		       struct prio_error *err)
{
	struct collect *c = ctx;

	(void)err;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->recs = realloc(c->recs, c->cap * sizeof(*c->recs));
		cr_assert_not_null(c->recs);
	}
	c->recs[c->n++] = *rec;
	return 0;
}

/* The records streamed are the records loaded, in order, field by field
 * (ids interned in the same snapshot compare as numbers). */
static void same_records(const char *path)
{
	struct prio_snapshot whole, streamed;
	struct prio_error err;
	struct collect c = {0};

	utc();
	cr_assert_eq(prio_snapshot_init(&whole), 0);
	cr_assert_eq(prio_load_role(&whole, PRIO_ROLE_SACCT, path, &err), 0,
		     "%s", err.message);
	cr_assert_eq(prio_snapshot_init(&streamed), 0);
	cr_assert_eq(prio_sacct_stream(&streamed, path, 0, collect_one, &c,
				       &err),
		     0);
	cr_assert(streamed.roles_loaded & (1u << PRIO_ROLE_SACCT));
	cr_assert_eq(streamed.sacct_count, 0, "the stream keeps no record");
	cr_assert_eq(c.n, whole.sacct_count);
	for (size_t i = 0; i < c.n; i++) {
		const struct prio_sacct_rec *a = &whole.sacct[i], *b = &c.recs[i];
		char ia[64], ib[64];

		cr_assert_str_eq(prio_sacct_job_id_format(&whole, a, ia, sizeof(ia)),
				 prio_sacct_job_id_format(&streamed, b, ib,
							  sizeof(ib)));
		cr_assert_eq(a->line, b->line);
		cr_assert_eq(a->start, b->start);
		cr_assert_eq(a->end, b->end);
		cr_assert_eq(a->elapsed, b->elapsed);
		cr_assert_eq(a->state, b->state);
		cr_assert_str_eq(prio_snapshot_str(&whole, a->user),
				 prio_snapshot_str(&streamed, b->user));
		cr_assert_str_eq(prio_snapshot_str(&whole, a->account),
				 prio_snapshot_str(&streamed, b->account));
		cr_assert_eq(a->alloc_tres.count, b->alloc_tres.count);
		for (uint32_t t = 0; t < a->alloc_tres.count; t++)
			cr_assert_eq(a->alloc_tres.items[t].count,
				     b->alloc_tres.items[t].count);
	}
	free(c.recs);
	prio_snapshot_free(&whole);
	prio_snapshot_free(&streamed);
}

Test(stream, records_are_the_loaded_ones)
{
	size_t n, zn;
	char *text = slurp(test_path("samples/site/sacct.txt"), &n), *z;
	char path[] = "/tmp/prio-stream-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	same_records(test_path("samples/site/sacct.txt"));
	same_records(test_path("tests/oracle/slurm-24.11-fairtree/sacct_a_P_X.txt"));
	z = squeeze(PRIO_CODEC_ZSTD, text, n, &zn);
	spill(path, z, zn);
	same_records(path);
	free(z);
	unlink(path);
	free(text);
}

/* Everything the whole load refuses or warns about, and what the stream
 * cannot read again, is handed back to the whole load. */
Test(stream, doubts_go_to_the_whole_load)
{
	static const char *const cases[] = {
	    /* a refused value */
	    "JobID|User|ElapsedRaw\n1|alice|x\n",
	    /* the last line cut */
	    "JobID|User|ElapsedRaw\n1|alice|10\n2|bob|2",
	    /* listed twice: a job, then a numbered step, then an array task
	     * without JobIDRaw */
	    "JobID|User|ElapsedRaw\n1|alice|10\n2|bob|5\n1|alice|10\n",
	    "JobID|User|ElapsedRaw\n1.0|alice|10\n1.0|alice|10\n",
	    "JobID|User|ElapsedRaw\n7_1|alice|10\n7_2|alice|10\n7_1|alice|1\n",
	    /* empty, blank, no header */
	    "", "\n\n", "1|alice|10\n",
	};
	char path[] = "/tmp/prio-doubt-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	utc();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct prio_snapshot snap;
		struct prio_error err;
		struct collect c = {0};

		spill(path, cases[i], strlen(cases[i]));
		cr_assert_eq(prio_snapshot_init(&snap), 0);
		cr_assert_eq(prio_sacct_stream(&snap, path, 0, collect_one, &c,
					       &err),
			     PRIO_SACCT_LOAD_WHOLE, "case %zu", i);
		cr_assert(!(snap.roles_loaded & (1u << PRIO_ROLE_SACCT)));
		free(c.recs);
		prio_snapshot_free(&snap);
	}
	/* array tasks told apart by JobIDRaw, steps of one job, the tasks of
	 * two arrays without JobIDRaw: no duplicate, streamed */
	{
		static const char *const fine[] = {
		    "JobID|JobIDRaw|User\n7_1|8|a\n7_2|9|a\n8|10|a\n"
		    "7_1.batch|8.batch|a\n7_1.0|8.0|a\n7_1.1|8.1|a\n",
		    "JobID|User\n7_1|a\n7_2|a\n8_1|a\n7_[3-4]|a\n7_1.0|a\n",
		};

		for (size_t i = 0; i < 2; i++) {
			struct prio_snapshot snap;
			struct prio_error err;
			struct collect c = {0};

			spill(path, fine[i], strlen(fine[i]));
			cr_assert_eq(prio_snapshot_init(&snap), 0);
			cr_assert_eq(prio_sacct_stream(&snap, path, 0,
						       collect_one, &c, &err),
				     0, "fine %zu", i);
			cr_assert_eq(c.n, i ? 5 : 6);
			free(c.recs);
			prio_snapshot_free(&snap);
		}
	}
	/* standard input and a folder: never streamed */
	{
		struct prio_snapshot snap;
		struct prio_error err;
		struct collect c = {0};

		cr_assert_eq(prio_snapshot_init(&snap), 0);
		cr_assert_eq(prio_sacct_stream(&snap, "-", 0, collect_one, &c,
					       &err),
			     PRIO_SACCT_LOAD_WHOLE);
		cr_assert_eq(prio_sacct_stream(&snap, "/tmp", 0, collect_one,
					       &c, &err),
			     PRIO_SACCT_LOAD_WHOLE);
		/* a FIFO with no writer: declined at once, not waited on */
		unlink(path);
		cr_assert_eq(mkfifo(path, 0600), 0);
		cr_assert_eq(prio_sacct_stream(&snap, path, 0, collect_one, &c,
					       &err),
			     PRIO_SACCT_LOAD_WHOLE);
		prio_snapshot_free(&snap);
	}
	unlink(path);
}

struct fold {
	struct prio_rollup *r;
	const struct prio_snapshot *snap;
};

static int fold_one(void *ctx, const struct prio_sacct_rec *rec,
		    struct prio_error *err)
{
	struct fold *f = ctx;

	return prio_rollup_add(f->r, f->snap, rec, err);
}

/* The roll-up the tests ask for: two days of samples/site, decayed too. */
static void two_days(struct prio_rollup_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->window.start = 1795219200; /* 2026-11-21 */
	o->window.end = 1795392000;   /* 2026-11-23 */
	o->by = PRIO_BY_DAY;
	o->now = 1795392000;
	o->decayed = true;
}

/* Two roll-ups' counts and sums, to the bit. */
static void same_sums(const struct prio_rollup *a, const struct prio_rollup *b)
{
	cr_assert_eq(a->records, b->records);
	cr_assert_eq(a->records_used, b->records_used);
	cr_assert_eq(a->entry_count, b->entry_count);
	cr_assert_eq(a->bucket_count, b->bucket_count);
	cr_assert(memcmp(a->alloc, b->alloc,
			 sizeof(*a->alloc) * a->bucket_count * a->tres_count) ==
		  0);
	cr_assert(memcmp(a->alloc_decayed, b->alloc_decayed,
			 sizeof(*a->alloc_decayed) * a->bucket_count *
			     a->tres_count) == 0);
}

/* The roll-up of streamed records is the roll-up of loaded ones, to the
 * bit, decayed sums too (the same additions in the same order). */
Test(stream, rollup_streamed_is_the_rollup)
{
	struct prio_snapshot whole, streamed;
	struct prio_rollup a, b;
	struct prio_rollup_opts o;
	struct prio_error err;
	struct fold f;
	const char *conf = test_path("samples/site/slurm.conf"),
		   *sacct = test_path("samples/site/sacct.txt");

	utc();
	cr_assert_eq(prio_snapshot_init(&whole), 0);
	cr_assert_eq(prio_load_role(&whole, PRIO_ROLE_CONF, conf, &err), 0,
		     "%s", err.message);
	cr_assert_eq(prio_load_role(&whole, PRIO_ROLE_SACCT, sacct, &err), 0);
	cr_assert_eq(prio_snapshot_init(&streamed), 0);
	cr_assert_eq(prio_load_role(&streamed, PRIO_ROLE_CONF, conf, &err), 0);
	two_days(&o);
	cr_assert_eq(prio_rollup_run(&whole, &o, &a, &err), 0, "%s", err.message);
	cr_assert_eq(prio_rollup_begin(&streamed, &o, &b, &err), 0);
	f.r = &b;
	f.snap = &streamed;
	cr_assert_eq(prio_sacct_stream(&streamed, sacct, 0, fold_one, &f, &err),
		     0);
	cr_assert_gt(a.records_used, 10);
	same_sums(&a, &b);
	for (uint32_t i = 0; i < a.entry_count; i++) {
		cr_assert_str_eq(prio_snapshot_str(&whole, a.entries[i].user),
				 prio_snapshot_str(&streamed, b.entries[i].user));
		cr_assert(memcmp(a.entries[i].secs, b.entries[i].secs,
				 sizeof(uint64_t) * a.tres_count) == 0);
		cr_assert(memcmp(a.entries[i].decayed, b.entries[i].decayed,
				 sizeof(double) * a.tres_count) == 0);
	}
	prio_rollup_free(&a);
	prio_rollup_free(&b);
	prio_snapshot_free(&whole);
	prio_snapshot_free(&streamed);
}

/* --- two threads (issue 17) ---------------------------------------------- */

/*
 * A file of several runs, in the shape sacct -P prints: jobs, their batch
 * steps, array tasks, a pending array now and then (its task text is
 * interned by the loading thread), twenty users, a TRES list per size.
 * With bad_line, the State of that line is one sacct never prints.
 */
static char *many_rows(unsigned rows, unsigned bad_line, size_t *n)
{
	size_t cap = (size_t)rows * 256 + 512, used = 0;
	char *text = malloc(cap);
	unsigned line = 1, job = 100;

	cr_assert_not_null(text);
	used += (size_t)snprintf(text, cap,
				 "JobID|JobIDRaw|User|Account|Partition|QOS|"
				 "Submit|Eligible|Start|End|Elapsed|ElapsedRaw|"
				 "Suspended|State|AllocTRES|ReqTRES|NNodes|"
				 "NCPUS|TimelimitRaw\n");
	while (line < rows + 1) {
		/* from 2026-11-21T00:00:00 UTC on */
		time_t start = 1795219200 + (time_t)(job * 37 % 150000);
		unsigned secs = job * 13 % 20000 + 60, cpus = 1u << (job % 4);
		struct tm a, b;
		char ts[20], te[20], id[32];
		const char *state = ++line == bad_line ? "FINISHED" : "COMPLETED";

		gmtime_r(&start, &a);
		start += secs;
		gmtime_r(&start, &b);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &a);
		strftime(te, sizeof(te), "%Y-%m-%dT%H:%M:%S", &b);
		job++;
		if (job % 40 == 0) {
			used += (size_t)snprintf(
			    text + used, cap - used,
			    "%u_[1-3]|%u|u%02u|acct%u|batch|normal|%s|%s|Unknown|"
			    "Unknown|00:00:00|0|00:00:00|PENDING||"
			    "billing=%u,cpu=%u,mem=%uM,node=1|1|%u|60\n",
			    job, job, job % 20, job % 7, ts, ts, cpus * 2, cpus,
			    cpus * 1000, cpus);
			continue;
		}
		if (job % 9 == 0)
			snprintf(id, sizeof(id), "%u_%u|%u", job - 1, job % 5, job);
		else
			snprintf(id, sizeof(id), "%u|%u", job, job);
		used += (size_t)snprintf(
		    text + used, cap - used,
		    "%s|u%02u|acct%u|batch|normal|%s|%s|%s|%s|%02u:%02u:%02u|%u|"
		    "00:00:00|%s|billing=%u,cpu=%u,mem=%uM,node=1|"
		    "billing=%u,cpu=%u,mem=%uM,node=1|1|%u|600\n",
		    id, job % 20, job % 7, ts, ts, ts, te, secs / 3600,
		    secs / 60 % 60, secs % 60, secs, state, cpus * 2, cpus,
		    cpus * 1000, cpus * 2, cpus, cpus * 1000, cpus);
		if (job % 3 == 0 && ++line < rows + 1)
			used += (size_t)snprintf(
			    text + used, cap - used,
			    "%u.batch|%u.batch||acct%u|||%s|%s|%s|%s|%02u:%02u:%02u|"
			    "%u|00:00:00|%s|cpu=%u,mem=%uM,node=1||1|%u|\n",
			    job, job, job % 7, ts, ts, ts, te, secs / 3600,
			    secs / 60 % 60, secs % 60, secs,
			    line == bad_line ? "FINISHED" : "COMPLETED", cpus,
			    cpus * 1000, cpus);
		cr_assert_lt(used, cap);
	}
	*n = used;
	return text;
}

struct counted {
	struct fold f;
	unsigned long records;
	uint32_t last_line;
};

static int count_fold(void *ctx, const struct prio_sacct_rec *rec,
		      struct prio_error *err)
{
	struct counted *c = ctx;

	c->records++;
	c->last_line = rec->line;
	return fold_one(&c->f, rec, err);
}

struct streamed {
	struct prio_snapshot snap;
	struct prio_rollup r;
	struct counted c;
	struct prio_error gave_up; /* the error the stream stopped at */
	int rc;
};

/* path streamed into a roll-up by one thread (pipe_min past the file) or
 * two (pipe_min 1), in runs of 512 KiB (the smallest). */
static void stream_into(struct streamed *s, const char *path, bool two)
{
	struct prio_rollup_opts o;
	struct prio_error err;

	utc();
	memset(s, 0, sizeof(*s));
	cr_assert_eq(prio_snapshot_init(&s->snap), 0);
	cr_assert_eq(prio_load_role(&s->snap, PRIO_ROLE_CONF,
				    test_path("samples/site/slurm.conf"), &err),
		     0, "%s", err.message);
	two_days(&o);
	cr_assert_eq(prio_rollup_begin(&s->snap, &o, &s->r, &err), 0);
	s->c.f.r = &s->r;
	s->c.f.snap = &s->snap;
	lc_test.pipe_min = two ? 1 : SIZE_MAX;
	lc_test.stream_chunk = 512 * 1024;
	lc_test.stream_err = &s->gave_up;
	s->rc = prio_sacct_stream(&s->snap, path, 0, count_fold, &s->c, &err);
	memset(&lc_test, 0, sizeof(lc_test));
}

static void same_rollups(const struct streamed *a, const struct streamed *b)
{
	cr_assert_eq(a->c.records, b->c.records);
	cr_assert_eq(a->c.last_line, b->c.last_line);
	same_sums(&a->r, &b->r);
	/* names are interned in the same order: the same ids */
	for (uint32_t i = 0; i < a->r.entry_count; i++) {
		cr_assert_eq(a->r.entries[i].user, b->r.entries[i].user);
		cr_assert_eq(a->r.entries[i].account, b->r.entries[i].account);
		cr_assert(memcmp(a->r.entries[i].secs, b->r.entries[i].secs,
				 sizeof(uint64_t) * a->r.tres_count) == 0);
	}
	cr_assert_eq(a->snap.strings.count, b->snap.strings.count);
}

static void streamed_free(struct streamed *s)
{
	prio_rollup_free(&s->r);
	prio_snapshot_free(&s->snap);
}

/* Two threads give what one gives: the same records to fn, the same
 * roll-up to the bit, and a bad record in the second half stops both at
 * its line, the line the whole load refuses, after the same records. */
Test(stream, two_threads_are_one)
{
	const unsigned rows = 14000, bad = 11003;
	char path[] = "/tmp/prio-stream-XXXXXX";
	struct streamed one, two;
	struct prio_snapshot whole;
	struct prio_error err;
	size_t n, zn;
	char *text, *z;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	text = many_rows(rows, 0, &n);
	cr_assert_gt(n, 4u * 512 * 1024, "several runs");
	spill(path, text, n);
	stream_into(&one, path, false);
	stream_into(&two, path, true);
	cr_assert_eq(one.rc, 0);
	cr_assert_eq(two.rc, 0);
	cr_assert_eq(one.c.records, rows, "every row is a record");
	cr_assert_gt(one.r.records_used, rows / 2);
	same_rollups(&one, &two);
	streamed_free(&one);
	streamed_free(&two);
	/* compressed: decoded by the second thread */
	z = squeeze(PRIO_CODEC_ZSTD, text, n, &zn);
	spill(path, z, zn);
	free(z);
	stream_into(&one, path, false);
	stream_into(&two, path, true);
	cr_assert_eq(two.rc, 0);
	cr_assert_eq(two.c.records, rows);
	same_rollups(&one, &two);
	streamed_free(&one);
	streamed_free(&two);
	free(text);

	text = many_rows(rows, bad, &n);
	cr_assert_gt((size_t)(strstr(text, "FINISHED") - text), n / 2,
		     "in the second half");
	spill(path, text, n);
	cr_assert_eq(prio_snapshot_init(&whole), 0);
	cr_assert_lt(prio_load_role(&whole, PRIO_ROLE_SACCT, path, &err), 0);
	cr_assert_eq(err.line, bad);
	cr_assert_str_eq(err.field, "State");
	stream_into(&one, path, false);
	stream_into(&two, path, true);
	cr_assert_eq(one.rc, PRIO_SACCT_LOAD_WHOLE);
	cr_assert_eq(two.rc, PRIO_SACCT_LOAD_WHOLE);
	cr_assert_eq(one.gave_up.line, bad);
	cr_assert_eq(two.gave_up.line, bad);
	cr_assert_str_eq(two.gave_up.message, one.gave_up.message);
	cr_assert_str_eq(two.gave_up.message, err.message);
	cr_assert_eq(two.c.records, bad - 2, "the rows before it, no more");
	cr_assert_eq(two.c.last_line, bad - 1);
	same_rollups(&one, &two);
	streamed_free(&one);
	streamed_free(&two);
	prio_snapshot_free(&whole);
	unlink(path);
	free(text);
}
