/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#ifndef PRIO_TESTUTIL_H
#define PRIO_TESTUTIL_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prio/prio.h"

/* Absolute path of a file under the source tree. */
static inline const char *test_path(const char *rel)
{
	static char buf[8][4096];
	static int next;
	char *b = buf[next++ % 8];

	snprintf(b, sizeof(buf[0]), "%s/%s", TOP_SRCDIR, rel);
	return b;
}

/* A source over a string literal. */
static inline void test_source(struct prio_source *src, const char *name,
			       const char *text)
{
	prio_source_from_memory(src, name, text, strlen(text));
}

/* A new file made from path (a mkstemp() template, renamed in place)
 * holding data[0..len): 0, or -1 when it cannot be written whole. */
static inline int test_temp_file(char *path, const void *data, size_t len)
{
	int fd = mkstemp(path);
	ssize_t n = fd < 0 ? -1 : write(fd, data, len);

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

#endif
