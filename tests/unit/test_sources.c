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

/* The error prio_snapshot_load_sources() gives for folder dir. */
static int load_folder(const char *dir, struct prio_error *err)
{
	struct prio_snapshot snap;
	int rc;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	rc = prio_snapshot_load_sources(&snap, dir, NULL, err);
	prio_snapshot_free(&snap);
	return rc;
}

Test(sources, a_folder_without_snapshot_files_is_no_snapshot)
{
	char *d = temp_dir(), path[256];
	struct prio_error err;

	/* nothing known in it (as --snapshot /tmp): one error, like a
	 * folder that does not exist */
	snprintf(path, sizeof(path), "%s/notes.txt", d);
	write_file(path, "x\n", 2);
	cr_assert_eq(load_folder(d, &err), PRIO_ERR_MISSING);
	cr_assert_str_eq(err.file, d);
	cr_assert(strstr(err.message, "not a snapshot folder: no slurm.conf"),
		  "%s", err.message);
	/* a file given as the folder */
	cr_assert_eq(load_folder(path, &err), PRIO_ERR_MISSING);
	cr_assert_str_eq(err.message, "not a snapshot folder: not a directory");
	cr_assert_eq(load_folder("/nonexistent/snap", &err), PRIO_ERR_MISSING);
	remove_tree(d);
	free(d);
}

/* A directory or a FIFO where the folder should hold a file is an error
 * naming it, never a file "absent" (which loaded an empty queue). */
Test(sources, odd_entries_in_a_folder_are_errors)
{
	static const char *const names[] = { "jobs.txt", "sshare.txt",
					     "NOW", "slurm.conf" };
	struct prio_error err;
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *d = temp_dir();

		snprintf(path, sizeof(path), "%s/qos.txt", d);
		write_file(path, "Name|Priority\nnormal|0\n", 23);
		snprintf(path, sizeof(path), "%s/%s", d, names[i]);
		cr_assert_eq(mkdir(path, 0755), 0);
		cr_assert_eq(load_folder(d, &err), PRIO_ERR_IO, "%s", names[i]);
		cr_assert_str_eq(err.file, path);
		cr_assert_str_eq(err.message, "is a directory, expected a file");
		cr_assert_eq(rmdir(path), 0);
		cr_assert_eq(mkfifo(path, 0644), 0);
		/* refused before any open(): a FIFO would block it */
		cr_assert_eq(load_folder(d, &err), PRIO_ERR_IO, "%s", names[i]);
		cr_assert_str_eq(err.message, "is a FIFO, expected a file");
		remove_tree(d);
		free(d);
	}
}

/* Permissions: root reads everything, so the check runs in a child that
 * gives up root (or as is, when the tests do not run as root). */
static void drop_root(void)
{
	if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
		_exit(3);
}

static int child_load(const char *dir, char *message, size_t size)
{
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct prio_error err;
		int rc;

		close(fds[0]);
		drop_root();
		rc = load_folder(dir, &err);
		if (write(fds[1], err.message, strlen(err.message)) < 0)
			_exit(4);
		_exit(rc == PRIO_ERR_IO ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], message, size - 1);
	message[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

Test(sources, folder_and_files_we_may_not_read_are_errors)
{
	char *d = temp_dir(), path[256], message[512];

	cr_assert_eq(chmod(d, 0755), 0);
	snprintf(path, sizeof(path), "%s/jobs.txt", d);
	write_file(path, "No jobs in the system\n", 22);
	/* no read permission on the folder */
	cr_assert_eq(chmod(d, 0311), 0);
	cr_assert_eq(child_load(d, message, sizeof(message)), 0, "%s", message);
	cr_assert_str_eq(message,
			 "cannot read the snapshot folder: Permission denied");
	/* no search permission */
	cr_assert_eq(chmod(d, 0644), 0);
	cr_assert_eq(child_load(d, message, sizeof(message)), 0, "%s", message);
	cr_assert_str_eq(message, "cannot open: Permission denied");
	/* a file we may not read */
	cr_assert_eq(chmod(d, 0755), 0);
	cr_assert_eq(chmod(path, 0600), 0);
	cr_assert_eq(child_load(d, message, sizeof(message)), 0, "%s", message);
	cr_assert_str_eq(message, "cannot open: Permission denied");
	remove_tree(d);
	free(d);
}

/* Load `text` as role's file through prio_load_role(), as every command
 * does; returns its status, err filled. */
static int load_text(enum prio_role role, const char *text, bool keep_going,
		     unsigned *warnings, struct prio_error *err)
{
	char *d = temp_dir(), path[256];
	struct prio_snapshot snap;
	int rc;

	snprintf(path, sizeof(path), "%s/in.txt", d);
	write_file(path, text, strlen(text));
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	snap.keep_going = keep_going;
	rc = prio_load_role(&snap, role, path, err);
	if (warnings)
		*warnings = snap.warning_count;
	if (snap.warning_count)
		*err = snap.warnings[0].error;
	prio_snapshot_free(&snap);
	remove_tree(d);
	free(d);
	return rc;
}

/* A cut last line (the final newline Slurm always prints is missing):
 * refused at its line, or under --keep-going a counted warning with the
 * cut record left out. */
Test(sources, a_cut_last_line_is_refused)
{
	struct prio_error err;
	unsigned warnings;

	cr_assert_eq(load_text(PRIO_ROLE_QOS, "Name|Priority\nnormal|0\nhi|10",
			       false, NULL, &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.message, "the last record is cut (no final newline)");
	cr_assert_eq(load_text(PRIO_ROLE_QOS, "Name|Priority\nnormal|0\nhi|10",
			       true, &warnings, &err),
		     0);
	cr_assert_eq(warnings, 1);
	cr_assert_eq(err.line, 3);
	/* sacct and sshare alike; one line and no newline: line 1 */
	cr_assert_eq(load_text(PRIO_ROLE_SACCT, "JobID|User", false, NULL, &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	cr_assert_str_eq(err.message, "the last record is cut (no final newline)");
	/* slurm.conf is written by people: no final newline needed */
	cr_assert_eq(load_text(PRIO_ROLE_CONF,
			       "ClusterName=x\nPriorityType=priority/multifactor",
			       false, NULL, &err),
		     0);
}

/* Zero bytes is a failed capture for every Slurm output, with the same
 * wording; an empty queue as scontrol prints it is valid. */
Test(sources, empty_sources_are_refused_alike)
{
	static const enum prio_role roles[] = {
		PRIO_ROLE_JOBS, PRIO_ROLE_SACCT, PRIO_ROLE_ASSOC, PRIO_ROLE_QOS,
		PRIO_ROLE_NODES, PRIO_ROLE_PARTITIONS, PRIO_ROLE_CONF,
	};
	struct prio_error err;

	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		cr_assert_eq(load_text(roles[i], "", false, NULL, &err),
			     PRIO_ERR_PARSE, "%s", prio_role_option(roles[i]));
		cr_assert_eq(err.line, 1);
		cr_assert(strncmp(err.message, "empty input: expected ", 22) == 0,
			  "%s", err.message);
		/* not a warning under --keep-going: nothing to go on with */
		cr_assert_eq(load_text(roles[i], "\n", true, NULL, &err),
			     PRIO_ERR_PARSE);
	}
	cr_assert_eq(load_text(PRIO_ROLE_JOBS, "No jobs in the system\n", false,
			       NULL, &err),
		     0);
}

/* --keep-going on a cut `scontrol show job` (a record spans lines up to a
 * blank one): the lines before the cut belong to the cut job, which is
 * left out whole -- only the jobs that end before it load. */
Test(sources, keep_going_leaves_the_whole_cut_record_out)
{
	struct prio_source full;
	struct prio_error err;
	struct prio_snapshot snap;
	char *d = temp_dir(), path[256];
	const char *p;
	unsigned starts = 0;
	size_t cut;

	cr_assert_eq(prio_source_open(&full, test_path("tests/cli/readers-data/"
						       "slurm-24.11/jobs.txt"),
				      &err),
		     0);
	/* 10 bytes into the third line of the fifth job: its first two
	 * lines are whole, the job is not */
	p = full.data;
	for (int i = 0; i < 4; i++)
		p = strstr(p + 1, "\nJobId=");
	p = strchr(strchr(p + 1, '\n') + 1, '\n');
	cut = (size_t)(p - full.data) + 11;
	for (p = full.data; (p = strstr(p, "JobId=")) && p < full.data + cut; p++)
		starts += p == full.data || p[-1] == '\n';
	cr_assert_eq(starts, 5);
	snprintf(path, sizeof(path), "%s/jobs.txt", d);
	write_file(path, full.data, cut);
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	snap.keep_going = true;
	cr_assert_eq(prio_load_role(&snap, PRIO_ROLE_JOBS, path, &err), 0);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_str_eq(snap.warnings[0].error.message,
			 "the last record is cut (no final newline)");
	/* four whole jobs, the fifth left out with its whole lines */
	cr_assert_eq(snap.job_count, 4);
	prio_snapshot_free(&snap);
	prio_source_close(&full);
	remove_tree(d);
	free(d);
}
