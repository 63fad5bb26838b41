/* SPDX-License-Identifier: MIT */
/*
 * Input artefacts in memory.  Regular files are read whole into one buffer
 * of their size (checked unchanged after the read); stdin and pipes are read
 * into a growing buffer.
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

#include "prio/source.h"

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
		if ((rc = read_all(STDIN_FILENO, src, err)) < 0)
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
	if (rc < 0)
		prio_source_close(src);
	return rc;
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
