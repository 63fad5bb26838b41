/* SPDX-License-Identifier: MIT */
/* Compressed inputs (issue 17): gzip and zstd sources, told by their magic
 * bytes, read as their text; concatenated members and frames read whole; a
 * cut or corrupt one is one error naming the file, never a partial read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "testutil.h"

/* The first lines of the sample site's accounting (samples/site). */
static const char sacct_text[] =
    "JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Start|End|"
    "ElapsedRaw|State|AllocTRES\n"
    "1|1|alice|physics|batch|normal|2026-11-21T08:00:00|"
    "2026-11-21T08:00:00|2026-11-21T09:00:00|3600|COMPLETED|"
    "billing=4,cpu=4,mem=8G,node=1\n"
    "2|2|bob|chem|batch|normal|2026-11-21T08:30:00|"
    "2026-11-21T08:30:00|2026-11-21T10:30:00|7200|COMPLETED|"
    "billing=8,cpu=8,mem=16G,node=1\n";

/* gzip framing of text (one member). */
static size_t gz(const void *text, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				  Z_DEFAULT_STRATEGY),
		     Z_OK);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	deflateEnd(&z);
	return cap - z.avail_out;
}

static size_t zst(const void *text, size_t n, unsigned char *out, size_t cap)
{
	size_t r = ZSTD_compress(out, cap, text, n, 3);

	cr_assert(!ZSTD_isError(r));
	return r;
}

static char tmp_path[64];

static const char *write_tmp(const void *data, size_t n)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "/tmp/prio-z-XXXXXX");
	fd = mkstemp(tmp_path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, n), (ssize_t)n);
	close(fd);
	return tmp_path;
}

/* Open data written to a file; the text must be want. */
static void reads_as(const void *data, size_t n, const char *want,
		     size_t want_len)
{
	struct prio_source src;
	struct prio_error err;
	const char *path = write_tmp(data, n);

	cr_assert_eq(prio_source_open(&src, path, &err), 0, "%s", err.message);
	cr_assert_eq(src.size, want_len);
	cr_assert(memcmp(src.data, want, want_len) == 0);
	prio_source_close(&src);
	unlink(path);
}

/* Open data written to a file: refused with message. */
static void refused(const void *data, size_t n, const char *message)
{
	struct prio_source src;
	struct prio_error err;
	const char *path = write_tmp(data, n);

	cr_assert_eq(prio_source_open(&src, path, &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.message, message);
	cr_assert_str_eq(err.file, path);
	cr_assert_eq(err.line, 0);
	unlink(path);
}

Test(compressed, magic_bytes_decide_not_names)
{
	cr_assert_eq(prio_codec_detect("\x1f\x8b\x08", 3), PRIO_CODEC_GZIP);
	cr_assert_eq(prio_codec_detect("\x28\xb5\x2f\xfd\x24", 5),
		     PRIO_CODEC_ZSTD);
	cr_assert_eq(prio_codec_detect("\x28\xb5\x2f", 3), PRIO_CODEC_NONE);
	cr_assert_eq(prio_codec_detect("JobID|", 6), PRIO_CODEC_NONE);
	cr_assert_eq(prio_codec_detect("", 0), PRIO_CODEC_NONE);
}

Test(compressed, gzip_reads_as_its_text)
{
	unsigned char buf[4096];
	size_t n = gz(sacct_text, strlen(sacct_text), buf, sizeof(buf));

	reads_as(buf, n, sacct_text, strlen(sacct_text));
}

Test(compressed, zstd_reads_as_its_text)
{
	unsigned char buf[4096];
	size_t n = zst(sacct_text, strlen(sacct_text), buf, sizeof(buf));

	reads_as(buf, n, sacct_text, strlen(sacct_text));
}

/* gzip a b > c, and zstd's frames one after another: one text. */
Test(compressed, concatenated_members_and_frames_read_whole)
{
	unsigned char buf[8192];
	size_t len = strlen(sacct_text), half = len / 2, n;

	n = gz(sacct_text, half, buf, sizeof(buf));
	n += gz(sacct_text + half, len - half, buf + n, sizeof(buf) - n);
	reads_as(buf, n, sacct_text, len);
	n = zst(sacct_text, half, buf, sizeof(buf));
	n += zst(sacct_text + half, len - half, buf + n, sizeof(buf) - n);
	reads_as(buf, n, sacct_text, len);
	/* three members, the middle one empty */
	n = gz(sacct_text, half, buf, sizeof(buf));
	n += gz("", 0, buf + n, sizeof(buf) - n);
	n += gz(sacct_text + half, len - half, buf + n, sizeof(buf) - n);
	reads_as(buf, n, sacct_text, len);
}

/* Text that compresses 1000 to 1 outgrows any first guess of the buffer. */
Test(compressed, large_ratio_grows_the_buffer)
{
	size_t len = 8u << 20, cap = len / 10;
	char *text = malloc(len);
	unsigned char *buf = malloc(cap);

	cr_assert(text && buf);
	for (size_t i = 0; i < len; i++)
		text[i] = (i % 100) == 99 ? '\n' : 'a' + (char)(i % 7);
	reads_as(buf, gz(text, len, buf, cap), text, len);
	reads_as(buf, zst(text, len, buf, cap), text, len);
	free(text);
	free(buf);
}

Test(compressed, truncated_data_is_refused)
{
	unsigned char buf[4096];
	size_t n = gz(sacct_text, strlen(sacct_text), buf, sizeof(buf));

	/* cut in the deflate data, in the 8-byte trailer, after the magic */
	refused(buf, n / 2, "gzip data truncated");
	refused(buf, n - 3, "gzip data truncated");
	refused(buf, 2, "gzip data truncated");
	n = zst(sacct_text, strlen(sacct_text), buf, sizeof(buf));
	refused(buf, n / 2, "zstd data truncated");
	refused(buf, n - 1, "zstd data truncated");
	refused(buf, 4, "zstd data truncated");
	/* a whole member, then the start of a second one cut */
	n = gz(sacct_text, 40, buf, sizeof(buf));
	n += gz(sacct_text + 40, strlen(sacct_text) - 40, buf + n,
		sizeof(buf) - n);
	refused(buf, n - 10, "gzip data truncated");
}

Test(compressed, corrupt_data_is_refused)
{
	unsigned char buf[4096];
	size_t n = gz(sacct_text, strlen(sacct_text), buf, sizeof(buf));

	/* the CRC-32 in the trailer no longer matches the text */
	buf[n - 6] ^= 0xff;
	refused(buf, n, "gzip data corrupt: incorrect data check");
	n = gz(sacct_text, strlen(sacct_text), buf, sizeof(buf));
	/* garbage after a whole member is not a second member */
	memcpy(buf + n, "JobID|x\n", 8);
	refused(buf, n + 8, "gzip data corrupt: incorrect header check");
	n = zst(sacct_text, strlen(sacct_text), buf, sizeof(buf));
	/* a second frame whose header sets the reserved bit */
	memset(buf + n, 0, 24);
	memcpy(buf + n, "\x28\xb5\x2f\xfd\x08", 5);
	{
		struct prio_source src;
		struct prio_error err;
		const char *path = write_tmp(buf, n + 24);

		cr_assert_eq(prio_source_open(&src, path, &err),
			     PRIO_ERR_PARSE);
		cr_assert(strncmp(err.message, "zstd data corrupt: ", 19) == 0,
			  "%s", err.message);
		unlink(path);
	}
}

/* A compressed empty file is empty text: the loader's rule refuses it, as
 * it refuses a plain empty file. */
Test(compressed, empty_compressed_is_an_empty_input)
{
	unsigned char buf[256];
	struct prio_snapshot snap[1];
	struct prio_error err;
	const char *path;

	cr_assert_eq(prio_snapshot_init(snap), 0);
	reads_as(buf, gz("", 0, buf, sizeof(buf)), "", 0);
	reads_as(buf, zst("", 0, buf, sizeof(buf)), "", 0);
	path = write_tmp(buf, gz("", 0, buf, sizeof(buf)));
	cr_assert_eq(prio_load_role(snap, PRIO_ROLE_SACCT, path, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.message,
			 "empty input: expected sacct -P output with a header "
			 "line");
	cr_assert_eq(err.line, 1);
	unlink(path);
	prio_snapshot_free(snap);
}

/* The decoder fed a byte at a time into a small output gives the same
 * text: the streaming readers hand it whatever a read() returned. */
Test(compressed, byte_at_a_time)
{
	unsigned char buf[8192];
	size_t len = strlen(sacct_text), half = len / 3;

	for (int codec = PRIO_CODEC_GZIP; codec <= PRIO_CODEC_ZSTD; codec++) {
		size_t n, pos = 0, got = 0;
		char out[1024];
		struct prio_inflater inf;
		struct prio_error err;

		n = codec == PRIO_CODEC_GZIP
			? gz(sacct_text, half, buf, sizeof(buf))
			: zst(sacct_text, half, buf, sizeof(buf));
		n += codec == PRIO_CODEC_GZIP
			 ? gz(sacct_text + half, len - half, buf + n,
			      sizeof(buf) - n)
			 : zst(sacct_text + half, len - half, buf + n,
			       sizeof(buf) - n);
		cr_assert_eq(prio_inflater_init(&inf, codec, "x", &err), 0);
		for (;;) {
			size_t used, produced, step = pos < n ? 1 : 0;

			cr_assert_eq(prio_inflater_step(&inf, buf + pos, step,
							&used, out + got, 7,
							&produced, &err),
				     0, "%s", err.message);
			pos += used;
			got += produced;
			if (!used && !produced && pos == n)
				break;
		}
		cr_assert_eq(prio_inflater_finish(&inf, &err), 0);
		prio_inflater_free(&inf);
		cr_assert_eq(got, len);
		cr_assert(memcmp(out, sacct_text, len) == 0);
	}
}

/* A snapshot folder whose accounting is sacct.txt.zst (no sacct.txt):
 * loaded as sacct.txt would be. */
Test(compressed, snapshot_folder_takes_sacct_txt_zst)
{
	char dir[] = "/tmp/prio-zdir-XXXXXX", path[128], cmd[256];
	unsigned char buf[4096];
	size_t n = zst(sacct_text, strlen(sacct_text), buf, sizeof(buf));
	struct prio_snapshot snap[1];
	struct prio_error err;
	FILE *f;

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sacct.txt.zst", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, n, f), n);
	fclose(f);
	cr_assert_eq(prio_snapshot_load_sources(snap, dir, NULL, &err), 0,
		     "%s", err.message);
	cr_assert_eq(snap->sacct_count, 2);
	cr_assert_eq(snap->sacct[1].elapsed, 7200);
	prio_snapshot_free(snap);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}
