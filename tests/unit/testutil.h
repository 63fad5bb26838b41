/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#ifndef PRIO_TESTUTIL_H
#define PRIO_TESTUTIL_H

#include <stdio.h>
#include <string.h>

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

#endif
