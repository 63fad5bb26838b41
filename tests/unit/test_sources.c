/* SPDX-License-Identifier: MIT */
/* Reading sources: files are read (never mapped), a file rewritten while it
 * is read is re-read or refused, odd paths in a snapshot folder are errors,
 * and every artefact must be complete (issue 13). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char *temp_dir(void)
{
	char *d = strdup("/tmp/prio-sources-XXXXXX");

	cr_assert_not_null(mkdtemp(d));
	return d;
}

static void write_file(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(text, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
}

static void remove_tree(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(sources, regular_file_is_read_into_memory)
{
	char *d = temp_dir(), path[256];
	struct prio_source src;
	struct prio_error err;

	snprintf(path, sizeof(path), "%s/jobs.txt", d);
	write_file(path, "JobId=1 x\nJobId=2 y\n", 20);
	cr_assert_eq(prio_source_open(&src, path, &err), 0);
	cr_assert_eq(src.size, 20);
	cr_assert(memcmp(src.data, "JobId=1 x\nJobId=2 y\n", 20) == 0);
	/* the bytes are ours: cutting the file now changes nothing we hold */
	cr_assert_eq(truncate(path, 0), 0);
	cr_assert(memcmp(src.data + 10, "JobId=2 y\n", 10) == 0);
	prio_source_close(&src);
	/* an empty file reads as zero bytes (completeness is the loader's) */
	cr_assert_eq(prio_source_open(&src, path, &err), 0);
	cr_assert_eq(src.size, 0);
	prio_source_close(&src);
	remove_tree(d);
	free(d);
}

/* A file whose size says 0 but which has bytes (as /proc files do) looks
 * like one that grew during the read, twice in a row: refused, not cut. */
Test(sources, size_moving_during_the_read_is_refused)
{
	struct prio_source src;
	struct prio_error err;

	cr_assert_eq(prio_source_open(&src, "/proc/self/status", &err),
		     PRIO_ERR_IO);
	cr_assert_str_eq(err.message, "changed while it was read");
	cr_assert_str_eq(err.file, "/proc/self/status");
}

/* A writer rewrites the file in place (truncate, then write, as cp does)
 * as fast as it can while we open it again and again: every open gives one
 * whole version (or a prefix a paused writer left) or the refusal, never
 * a mix of two versions, never a signal. */
Test(sources, rewritten_in_place_while_read)
{
	char *d = temp_dir(), path[256];
	size_t na = 300000, nb = 200000;
	char *a = malloc(na), *b = malloc(nb);
	unsigned whole = 0, refused = 0;
	pid_t writer;

	cr_assert(a && b);
	memset(a, 'a', na);
	memset(b, 'b', nb);
	for (size_t i = 99; i < na; i += 100)
		a[i] = '\n';
	for (size_t i = 99; i < nb; i += 100)
		b[i] = '\n';
	snprintf(path, sizeof(path), "%s/jobs.txt", d);
	write_file(path, a, na);
	writer = fork();
	cr_assert_geq(writer, 0);
	if (writer == 0) {
		for (unsigned long i = 0;; i++)
			write_file(path, i % 2 ? a : b, i % 2 ? na : nb);
	}
	for (int i = 0; i < 400; i++) {
		struct prio_source src;
		struct prio_error err;
		int rc = prio_source_open(&src, path, &err);

		if (rc == 0) {
			/* a writer paused between two writes leaves a shorter
			 * file that holds still: reading it is right (the
			 * completeness rule refuses it later), mixing is not */
			const char *v = src.size && src.data[0] == 'a' ? a : b;

			cr_assert_leq(src.size, v == a ? na : nb);
			cr_assert(memcmp(src.data, v, src.size) == 0,
				  "a mixed read of %zu bytes", src.size);
			whole++;
		} else {
			cr_assert_eq(rc, PRIO_ERR_IO);
			cr_assert_str_eq(err.message, "changed while it was read");
			refused++;
		}
		prio_source_close(&src);
	}
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	cr_assert_eq(whole + refused, 400);
	remove_tree(d);
	free(d);
	free(a);
	free(b);
}

/* Standard input that is a pipe is read to its end, as before. */
Test(sources, pipes_still_read_to_the_end)
{
	int fds[2];
	struct prio_source src;
	struct prio_error err;
	char path[64];

	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], "NodeName=a\n", 11), 11);
	close(fds[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	cr_assert_eq(prio_source_open(&src, path, &err), 0);
	cr_assert_eq(src.size, 11);
	prio_source_close(&src);
	close(fds[0]);
}
