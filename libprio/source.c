/* SPDX-License-Identifier: MIT */
/*
 * Input artefacts in memory.  Regular files are read whole into one buffer
 * of their size (checked unchanged after the read); stdin and pipes are read
 * into a growing buffer.  Sites keep accounting dumps compressed: a source
 * whose first bytes are gzip's (1f 8b) or zstd's (28 b5 2f fd) magic is
 * decompressed, whatever its name, and its text replaces it.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "loadcache.h"
#include "prio/source.h"

/* --- compressed inputs ----------------------------------------------- */

int prio_codec_detect(const void *data, size_t size)
{
	const unsigned char *p = data;

	if (size >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return PRIO_CODEC_GZIP;
	if (size >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd)
		return PRIO_CODEC_ZSTD;
	return PRIO_CODEC_NONE;
}

static const char *codec_name(int codec)
{
	return codec == PRIO_CODEC_GZIP ? "gzip" : "zstd";
}

int prio_inflater_init(struct prio_inflater *inf, int codec, const char *name,
		       struct prio_error *err)
{
	memset(inf, 0, sizeof(*inf));
	inf->codec = codec;
	inf->name = name;
	if (codec == PRIO_CODEC_GZIP) {
		z_stream *z = calloc(1, sizeof(*z));

		/* 16 + 15: gzip framing only, the largest window */
		if (!z || inflateInit2(z, 16 + MAX_WBITS) != Z_OK) {
			free(z);
			return prio_error_set(err, PRIO_ERR_NOMEM, name, 0, "",
					      "out of memory");
		}
		inf->state = z;
		/* nothing decoded yet: an end here is a cut member */
		inf->at_boundary = false;
	} else if (codec == PRIO_CODEC_ZSTD) {
		ZSTD_DStream *zs = ZSTD_createDStream();

		if (!zs || ZSTD_isError(ZSTD_initDStream(zs))) {
			ZSTD_freeDStream(zs);
			return prio_error_set(err, PRIO_ERR_NOMEM, name, 0, "",
					      "out of memory");
		}
		inf->state = zs;
		inf->at_boundary = false;
	} else {
		return prio_error_set(err, PRIO_ERR_USAGE, name, 0, "",
				      "not compressed data");
	}
	return PRIO_OK;
}

int prio_inflater_step(struct prio_inflater *inf, const void *in,
		       size_t in_len, size_t *used, void *out, size_t cap,
		       size_t *produced, struct prio_error *err)
{
	*used = 0;
	*produced = 0;
	if (inf->codec == PRIO_CODEC_GZIP) {
		z_stream *z = inf->state;

		while (*produced < cap) {
			size_t in_chunk = in_len - *used, out_chunk =
							      cap - *produced;
			int zr;

			/* concatenated members (gzip a b > c, pigz, logrotate
			 * appending) are one stream of text */
			if (inf->at_boundary) {
				if (!in_chunk)
					break;
				if (inflateReset(z) != Z_OK)
					return prio_error_set(
					    err, PRIO_ERR_NOMEM, inf->name, 0,
					    "", "out of memory");
				inf->at_boundary = false;
			}
			z->next_in = (Bytef *)(uintptr_t)((const char *)in +
							  *used);
			z->avail_in = (uInt)(in_chunk > UINT32_MAX ? UINT32_MAX
								   : in_chunk);
			z->next_out = (Bytef *)out + *produced;
			z->avail_out = (uInt)(out_chunk > UINT32_MAX
						  ? UINT32_MAX
						  : out_chunk);
			in_chunk = z->avail_in;
			out_chunk = z->avail_out;
			zr = inflate(z, Z_NO_FLUSH);
			*used += in_chunk - z->avail_in;
			*produced += out_chunk - z->avail_out;
			if (zr == Z_STREAM_END) {
				inf->at_boundary = true;
				continue;
			}
			if (zr == Z_MEM_ERROR)
				return prio_error_set(err, PRIO_ERR_NOMEM,
						      inf->name, 0, "",
						      "out of memory");
			if (zr != Z_OK && zr != Z_BUF_ERROR)
				return prio_error_set(
				    err, PRIO_ERR_PARSE, inf->name, 0, "",
				    "gzip data corrupt: %s",
				    z->msg ? z->msg : "not gzip data");
			/* no progress, or all input taken and all its
			 * output given: the caller brings more */
			if (zr == Z_BUF_ERROR ||
			    (z->avail_out && *used == in_len))
				break;
		}
		return PRIO_OK;
	}
	{
		ZSTD_inBuffer zin = {in, in_len, 0};
		ZSTD_outBuffer zout = {out, cap, 0};

		/* a frame ends in the middle of the input: the next one,
		 * if any, follows (zstd a b > c); with no input left,
		 * output may still wait inside the decoder */
		while (zout.pos < zout.size &&
		       (zin.pos < zin.size || !inf->at_boundary)) {
			size_t before_in = zin.pos, before_out = zout.pos,
			       r = ZSTD_decompressStream(inf->state, &zout, &zin);

			if (ZSTD_isError(r))
				return prio_error_set(
				    err, PRIO_ERR_PARSE, inf->name, 0, "",
				    "zstd data corrupt: %s",
				    ZSTD_getErrorName(r));
			inf->at_boundary = r == 0;
			if (zin.pos == before_in && zout.pos == before_out)
				break;
		}
		*used = zin.pos;
		*produced = zout.pos;
	}
	return PRIO_OK;
}

int prio_inflater_finish(struct prio_inflater *inf, struct prio_error *err)
{
	/* input ended inside a member or frame: never a partial read taken
	 * for the whole */
	if (!inf->at_boundary)
		return prio_error_set(err, PRIO_ERR_PARSE, inf->name, 0, "",
				      "%s data truncated",
				      codec_name(inf->codec));
	return PRIO_OK;
}

void prio_inflater_free(struct prio_inflater *inf)
{
	if (inf->state && inf->codec == PRIO_CODEC_GZIP) {
		inflateEnd(inf->state);
		free(inf->state);
	} else if (inf->state) {
		ZSTD_freeDStream(inf->state);
	}
	inf->state = NULL;
}

/*
 * Replace src's compressed bytes with their text, decoded whole into a
 * growing buffer (capped like any input at 1 TiB: a small bomb must not
 * fill the memory before it is refused).
 */
static int decompress_source(struct prio_source *src, int codec,
			     struct prio_error *err)
{
	struct prio_inflater inf;
	size_t cap = src->size * 4 + 65536, len = 0, pos = 0;
	char *buf;
	int rc;

	if ((rc = prio_inflater_init(&inf, codec, src->name, err)) < 0)
		return rc;
	buf = malloc(cap + 1);
	if (!buf) {
		prio_inflater_free(&inf);
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory reading input");
	}
	for (;;) {
		size_t used, produced;

		if (len == cap) {
			char *nb;

			if (cap > ((size_t)1 << 40)) {
				rc = prio_error_set(err, PRIO_ERR_LIMIT,
						    src->name, 0, "",
						    "input larger than 1 TiB");
				break;
			}
			nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				rc = prio_error_set(
				    err, PRIO_ERR_NOMEM, src->name, 0, "",
				    "out of memory reading input");
				break;
			}
			buf = nb;
			cap *= 2;
		}
		rc = prio_inflater_step(&inf, src->data + pos, src->size - pos,
					&used, buf + len, cap - len, &produced,
					err);
		if (rc < 0)
			break;
		pos += used;
		len += produced;
		if (!used && !produced && len < cap) {
			rc = prio_inflater_finish(&inf, err);
			break;
		}
	}
	prio_inflater_free(&inf);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	free(src->owned);
	src->owned = buf;
	src->data = buf;
	src->size = len;
	return PRIO_OK;
}

static int read_all(int fd, struct prio_source *src, struct prio_error *err)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory reading input");
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > ((size_t)1 << 40)) {
				free(buf);
				return prio_error_set(err, PRIO_ERR_LIMIT, src->name, 0,
						      "", "input larger than 1 TiB");
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0,
						      "", "out of memory reading input");
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return prio_error_set(err, PRIO_ERR_IO, src->name, 0, "",
					      "read error: %s", strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	src->owned = buf;
	src->data = buf;
	src->size = len;
	return PRIO_OK;
}

/* Whether the file behind fd still is what fstat said before the read. */
static bool same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * A regular file, read whole into a buffer the source owns.  Not mmap():
 * a file truncated while mapped kills the process with SIGBUS on the next
 * touch of a page past its new end, and `cp new jobs.txt` truncates then
 * writes, which is how sites refresh their captures.  One fstat, one
 * allocation of the size plus one byte (a byte read there means the file
 * grew), one read loop; then fstat again: a size or mtime that moved means
 * a writer was at work and the bytes may mix two versions.  One retry,
 * then a refusal -- never a half-read file loaded as complete.
 * Returns 1 when the file changed during both reads.
 */
static int read_regular(int fd, struct prio_source *src,
			struct prio_error *err)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		struct stat before, after;
		size_t want, len = 0;
		char *buf;

		if (fstat(fd, &before) != 0)
			return prio_error_set(err, PRIO_ERR_IO, src->name, 0, "",
					      "cannot read: %s", strerror(errno));
		if ((uint64_t)before.st_size > ((uint64_t)1 << 40))
			return prio_error_set(err, PRIO_ERR_LIMIT, src->name, 0,
					      "", "input larger than 1 TiB");
		want = (size_t)before.st_size;
		if (attempt && lseek(fd, 0, SEEK_SET) != 0)
			return prio_error_set(err, PRIO_ERR_IO, src->name, 0, "",
					      "cannot read: %s", strerror(errno));
		buf = malloc(want + 1);
		if (!buf)
			return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0,
					      "", "out of memory reading input");
		/* written whole at once: a fault per 2 MiB, not per 4 KiB */
		lc_huge_pages(buf, want + 1);
		while (len <= want) {
			ssize_t n = read(fd, buf + len, want + 1 - len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				free(buf);
				return prio_error_set(err, PRIO_ERR_IO, src->name,
						      0, "", "read error: %s",
						      strerror(errno));
			}
			if (n == 0)
				break;
			len += (size_t)n;
		}
		if (len == want && fstat(fd, &after) == 0 &&
		    same_file_state(&before, &after)) {
			buf[len] = '\0';
			src->owned = buf;
			src->data = buf;
			src->size = len;
			return PRIO_OK;
		}
		free(buf);
	}
	return 1;
}

int prio_source_open(struct prio_source *src, const char *path,
		     struct prio_error *err)
{
	struct stat st;
	int fd, rc;

	memset(src, 0, sizeof(*src));
	if (!path || !*path)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "empty file name");
	src->name_owned = strdup(strcmp(path, "-") == 0 ? "(stdin)" : path);
	if (!src->name_owned)
		return prio_error_set(err, PRIO_ERR_NOMEM, path, 0, "", "out of memory");
	src->name = src->name_owned;
	if (strcmp(path, "-") == 0) {
		/* a closed standard input (<&-) is EBADF here: an error that
		 * must not keep the name it was given */
		rc = read_all(STDIN_FILENO, src, err);
		if (rc == 0 && prio_codec_detect(src->data, src->size))
			rc = decompress_source(
			    src, prio_codec_detect(src->data, src->size), err);
		if (rc < 0)
			prio_source_close(src);
		return rc;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = prio_error_set(err, errno == ENOENT ? PRIO_ERR_MISSING : PRIO_ERR_IO,
				    path, 0, "", "cannot open: %s", strerror(errno));
		prio_source_close(src);
		return rc;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		prio_source_close(src);
		return prio_error_set(err, PRIO_ERR_IO, path, 0, "",
				      "is a directory, expected a file");
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		rc = read_regular(fd, src, err);
		if (rc > 0)
			rc = prio_error_set(err, PRIO_ERR_IO, path, 0, "",
					    "changed while it was read");
	} else {
		/* pipes, FIFOs, /dev/stdin, <(command): read to the end */
		rc = read_all(fd, src, err);
	}
	close(fd);
	/* the file's bytes were checked whole above; their text follows */
	if (rc == 0 && prio_codec_detect(src->data, src->size))
		rc = decompress_source(src, prio_codec_detect(src->data, src->size),
				       err);
	if (rc < 0)
		prio_source_close(src);
	return rc;
}

/* --- runs of whole lines (the streaming readers) ----------------------- */

/* The compressed bytes are read this much at a time. */
#define RAW_CHUNK ((size_t)1 << 20)

int prio_chunks_open(struct prio_chunks *ch, const char *path, size_t chunk,
		     struct prio_error *err)
{
	memset(ch, 0, sizeof(*ch));
	ch->fd = -1;
	ch->name = path;
	/* a line must fit: the loaders refuse longer ones anyway */
	ch->cap = chunk > 2 * (size_t)PRIO_MAX_LINE ? chunk
						    : 2 * (size_t)PRIO_MAX_LINE;
	/* a FIFO's open() waits for a writer: only regular files here */
	if (stat(path, &ch->before) != 0 || !S_ISREG(ch->before.st_mode))
		return prio_error_set(err, PRIO_ERR_IO, path, 0, "",
				      "not a regular file");
	ch->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ch->fd < 0)
		return prio_error_set(err, errno == ENOENT ? PRIO_ERR_MISSING
							   : PRIO_ERR_IO,
				      path, 0, "", "cannot open: %s",
				      strerror(errno));
	if (fstat(ch->fd, &ch->before) != 0 || !S_ISREG(ch->before.st_mode)) {
		prio_chunks_close(ch);
		return prio_error_set(err, PRIO_ERR_IO, path, 0, "",
				      "not a regular file");
	}
	ch->buf = malloc(ch->cap);
	ch->raw = malloc(RAW_CHUNK);
	if (!ch->buf || !ch->raw) {
		prio_chunks_close(ch);
		return prio_error_set(err, PRIO_ERR_NOMEM, path, 0, "",
				      "out of memory reading input");
	}
	return PRIO_OK;
}

/* read() that retries on EINTR; bytes read, 0 at the end, -1 on error */
static ssize_t read_some(int fd, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);

		if (r >= 0 || errno != EINTR)
			return r;
	}
}

/* More raw bytes behind raw_pos; 0 at the end of the file. */
static int chunks_read_raw(struct prio_chunks *ch, struct prio_error *err)
{
	ssize_t n;

	if (ch->raw_pos < ch->raw_len)
		memmove(ch->raw, ch->raw + ch->raw_pos, ch->raw_len - ch->raw_pos);
	ch->raw_len -= ch->raw_pos;
	ch->raw_pos = 0;
	n = read_some(ch->fd, ch->raw + ch->raw_len, RAW_CHUNK - ch->raw_len);
	if (n < 0)
		return prio_error_set(err, PRIO_ERR_IO, ch->name, 0, "",
				      "read error: %s", strerror(errno));
	ch->raw_len += (size_t)n;
	ch->raw_eof = n == 0;
	return n > 0;
}

/* Fill buf up to cap with text, decoding when the file is compressed. */
static int chunks_fill(struct prio_chunks *ch, struct prio_error *err)
{
	int rc;

	while (ch->len < ch->cap && !ch->eof) {
		size_t used, produced;

		if (!ch->started) {
			/* the first bytes tell plain text from gzip/zstd */
			while (ch->raw_len < 4 && !ch->raw_eof)
				if ((rc = chunks_read_raw(ch, err)) < 0)
					return rc;
			ch->started = true;
			ch->codec = prio_codec_detect(ch->raw, ch->raw_len);
			if (ch->codec &&
			    (rc = prio_inflater_init(&ch->inf, ch->codec,
						     ch->name, err)) < 0)
				return rc;
		}
		if (!ch->codec) {
			/* plain: what was read to look at, then the file */
			if (ch->raw_pos < ch->raw_len) {
				size_t n = ch->raw_len - ch->raw_pos;

				if (n > ch->cap - ch->len)
					n = ch->cap - ch->len;
				memcpy(ch->buf + ch->len, ch->raw + ch->raw_pos, n);
				ch->raw_pos += n;
				ch->len += n;
				continue;
			}
			if (ch->raw_eof) {
				ch->eof = true;
				break;
			}
			{
				ssize_t n = read_some(ch->fd, ch->buf + ch->len,
						      ch->cap - ch->len);

				if (n < 0)
					return prio_error_set(
					    err, PRIO_ERR_IO, ch->name, 0, "",
					    "read error: %s", strerror(errno));
				ch->len += (size_t)n;
				ch->eof = n == 0;
			}
			continue;
		}
		rc = prio_inflater_step(&ch->inf, ch->raw + ch->raw_pos,
					ch->raw_len - ch->raw_pos, &used,
					ch->buf + ch->len, ch->cap - ch->len,
					&produced, err);
		if (rc < 0)
			return rc;
		ch->raw_pos += used;
		ch->len += produced;
		if (used || produced)
			continue;
		if (!ch->raw_eof) {
			if ((rc = chunks_read_raw(ch, err)) < 0)
				return rc;
			continue;
		}
		if ((rc = prio_inflater_finish(&ch->inf, err)) < 0)
			return rc;
		ch->eof = true;
	}
	return PRIO_OK;
}

int prio_chunks_next(struct prio_chunks *ch, const char **data, size_t *size,
		     struct prio_error *err)
{
	const char *nl;
	int rc;

	/* the partial last line of the run before goes first */
	if (ch->start) {
		memmove(ch->buf, ch->buf + ch->start, ch->len - ch->start);
		ch->len -= ch->start;
		ch->start = 0;
	}
	if ((rc = chunks_fill(ch, err)) < 0)
		return rc;
	if (!ch->len)
		return 0;
	nl = memrchr(ch->buf, '\n', ch->len);
	if (nl) {
		ch->start = (size_t)(nl - ch->buf) + 1;
	} else if (ch->eof) {
		ch->start = ch->len;
	} else {
		return prio_error_set(err, PRIO_ERR_LIMIT, ch->name, 0, "",
				      "line longer than %u bytes",
				      PRIO_MAX_LINE);
	}
	*data = ch->buf;
	*size = ch->start;
	return 1;
}

int prio_chunks_finish(struct prio_chunks *ch, struct prio_error *err)
{
	struct stat after;

	/* as prio_source_open(): a writer at work during the read may have
	 * mixed two versions */
	if (fstat(ch->fd, &after) != 0 || !same_file_state(&ch->before, &after))
		return prio_error_set(err, PRIO_ERR_IO, ch->name, 0, "",
				      "changed while it was read");
	return PRIO_OK;
}

char *prio_chunks_swap(struct prio_chunks *ch, char *spare)
{
	char *run = ch->buf;

	/* the partial line after the run goes with the buffer that stays */
	memcpy(spare, ch->buf + ch->start, ch->len - ch->start);
	ch->buf = spare;
	ch->len -= ch->start;
	ch->start = 0;
	return run;
}

size_t prio_chunks_cap(const struct prio_chunks *ch)
{
	return ch->cap;
}

void prio_chunks_close(struct prio_chunks *ch)
{
	if (ch->fd >= 0)
		close(ch->fd);
	if (ch->codec)
		prio_inflater_free(&ch->inf);
	free(ch->buf);
	free(ch->raw);
	memset(ch, 0, sizeof(*ch));
	ch->fd = -1;
}

void prio_source_from_memory(struct prio_source *src, const char *name,
			     const char *data, size_t size)
{
	memset(src, 0, sizeof(*src));
	src->name = name;
	src->data = data;
	src->size = size;
}

void prio_source_close(struct prio_source *src)
{
	free(src->owned);
	free(src->name_owned);
	memset(src, 0, sizeof(*src));
}

bool prio_source_starts_with(const struct prio_source *src, const char *prefix)
{
	size_t n = strlen(prefix);

	return src->size >= n && memcmp(src->data, prefix, n) == 0;
}

void prio_line_reader_init(struct prio_line_reader *r,
			   const struct prio_source *src)
{
	r->src = src;
	r->pos = 0;
	r->number = 0;
}

int prio_line_next(struct prio_line_reader *r, struct prio_line *line,
		   struct prio_error *err)
{
	const char *data = r->src->data;
	size_t size = r->src->size, start = r->pos, len;
	const char *nl;

	if (start >= size)
		return 0;
	nl = memchr(data + start, '\n', size - start);
	len = nl ? (size_t)(nl - (data + start)) : size - start;
	r->number++;
	r->pos = start + len + (nl ? 1 : 0);
	if (len > PRIO_MAX_LINE)
		return prio_error_set(err, PRIO_ERR_LIMIT, r->src->name, r->number,
				      "", "line longer than %u bytes",
				      PRIO_MAX_LINE);
	if (memchr(data + start, '\0', len))
		return prio_error_set(err, PRIO_ERR_PARSE, r->src->name, r->number,
				      "", "NUL byte in input");
	if (len && data[start + len - 1] == '\r')
		len--;
	line->text = data + start;
	line->len = len;
	line->number = r->number;
	return 1;
}

int prio_source_check_whole(const struct prio_source *src, const char *what,
			    struct prio_error *err)
{
	unsigned long n = 1;

	if (src->size && src->data[src->size - 1] == '\n')
		return 0;
	for (size_t i = 0; i < src->size; i++)
		n += src->data[i] == '\n';
	if (!src->size)
		return prio_error_set(err, PRIO_ERR_PARSE, src->name, n, "",
				      "empty input: expected %s", what);
	return prio_error_set(err, PRIO_ERR_PARSE, src->name, n, "",
			      "the last record is cut (no final newline)");
}
