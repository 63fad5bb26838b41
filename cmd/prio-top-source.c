/* SPDX-License-Identifier: MIT */
/*
 * prio-top's sources: the first load (any error stops the program, as in
 * every tool), then new data whenever it appears:
 *  - files and snapshot folders are watched with inotify (a change shows
 *    within a fraction of a second) and their size, mtime and inode are
 *    compared at every screen update as well (what inotify cannot see:
 *    other hosts writing on NFS, a system without inotify);
 *  - --live runs prio-snap(1) into a private temporary folder every
 *    `refresh` seconds, never more often than the config file's live
 *    min-interval, in a child process so that the screen keeps answering;
 *    the folder of the last good capture is kept (for W, which reloads
 *    without the what-if changes) and removed at exit.
 * A reload that fails (a file caught half written, a command that failed)
 * leaves the caller's data alone: it gets the error to show.  So does a
 * reload that would read fewer files than the last good one: a snapshot
 * folder without its jobs.txt loads as a folder that never had one (no
 * jobs), without sshare.txt as one with no usage (every job re-ranked), so
 * a file that vanished is an error until it is back, never "0 jobs".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include "live.h"
#include "prio-top.h"

static void add_watch(struct top_source *s, const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct top_watch *w;

	if (!strcmp(name, "-"))
		return; /* standard input is read once */
	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	for (size_t i = 0; i < s->nwatch; i++)
		if (!strcmp(s->watch[i].path, path))
			return;
	w = realloc(s->watch, (s->nwatch + 1) * sizeof(*w));
	if (!w)
		cmd_die(s->c, "out of memory");
	s->watch = w;
	w = &s->watch[s->nwatch];
	memset(w, 0, sizeof(*w));
	if (!(w->path = strdup(path)))
		cmd_die(s->c, "out of memory");
	s->nwatch++;
}

/* Every file a load reads: the folder's names for the roles read, its NOW
 * file, and the paths named. */
static void watch_sources(struct top_source *s)
{
	const char *paths[PRIO_ROLE_COUNT], *dir;
	struct prio_error err;

	if (s->live || cmd_sources(s->c, NULL, &dir, paths, &err) < 0)
		return;
	for (int r = 0; r < PRIO_ROLE_COUNT; r++) {
		s->stdin_used =
		    s->stdin_used || (paths[r] && !strcmp(paths[r], "-"));
		if (paths[r]) {
			add_watch(s, NULL, paths[r]);
			continue;
		}
		if (!dir || !(s->c->folder_roles & (1u << r)))
			continue;
		for (const char *const *n =
			 prio_snapshot_dir_names((enum prio_role)r);
		     n && *n; n++)
			add_watch(s, dir, *n);
	}
	if (dir)
		add_watch(s, dir, "NOW");
	if (!s->nwatch)
		return;
	s->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	for (size_t i = 0; s->inotify_fd >= 0 && i < s->nwatch; i++) {
		char copy[PATH_MAX];

		snprintf(copy, sizeof(copy), "%s", s->watch[i].path);
		/* the folder: files are replaced as often as rewritten */
		inotify_add_watch(s->inotify_fd, dirname(copy),
				  IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO |
				      IN_MOVED_FROM | IN_CREATE | IN_DELETE |
				      IN_ATTRIB);
	}
	top_source_changed(s); /* the state just read */
}

bool top_source_changed(struct top_source *s)
{
	bool changed = false;

	for (size_t i = 0; i < s->nwatch; i++) {
		struct top_watch *w = &s->watch[i];
		struct stat st;
		bool exists = stat(w->path, &st) == 0;

		if (exists != w->exists ||
		    (exists && (st.st_mtim.tv_sec != w->st.st_mtim.tv_sec ||
				st.st_mtim.tv_nsec != w->st.st_mtim.tv_nsec ||
				st.st_size != w->st.st_size ||
				st.st_ino != w->st.st_ino)))
			changed = true;
		w->exists = exists;
		if (exists)
			w->st = st;
	}
	return changed;
}

void top_source_inotify(struct top_source *s, double now)
{
	char buf[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));

	if (s->inotify_fd < 0)
		return;
	while (read(s->inotify_fd, buf, sizeof(buf)) > 0) {
		s->dirty = true;
		s->dirty_at = now;
	}
}

void top_source_first(struct top_source *s, struct cmd_common *c,
		      struct prio_snapshot *snap)
{
	struct prio_error err;

	memset(s, 0, sizeof(*s));
	s->c = c;
	s->inotify_fd = -1;
	s->pipe_fd = -1;
	s->live = c->live;
	if (s->live) {
		if (c->snapshot_dir)
			cmd_die(c, "--live and --snapshot cannot be combined");
		cmd_live_capture(c, s->live_dir, sizeof(s->live_dir));
		s->last_capture = top_monotonic();
	} else {
		watch_sources(s);
	}
	prio_error_clear(&err);
	if (top_source_reload(s, snap, &err) < 0) {
		if (*s->live_dir)
			cmd_live_cleanup(s->live_dir);
		cmd_die_error(c, &err);
	}
}

/* A file the last good load read is missing now: an error naming it (the
 * first one; the next reload tells the next). */
static int vanished(const struct top_source *s, struct prio_error *err)
{
	for (size_t i = 0; i < s->nwatch; i++)
		if (s->watch[i].was_read && !s->watch[i].exists)
			return prio_error_set(err, PRIO_ERR_MISSING,
					      s->watch[i].path, 0, "",
					      "vanished (read again when it "
					      "is back)");
	return 0;
}

int top_source_reload(struct top_source *s, struct prio_snapshot *snap,
		      struct prio_error *err)
{
	if (s->loaded && s->stdin_used)
		return prio_error_set(err, PRIO_ERR_USAGE, "-", 0, "",
				      "standard input was read once and cannot "
				      "be read again");
	s->loaded = true;
	/* the state of the files before they are read: a change while
	 * reading shows as a change next time */
	top_source_changed(s);
	s->dirty = false;
	if (vanished(s, err) < 0)
		return -1;
	if (cmd_load_snapshot_from(s->c, s->live ? s->live_dir : NULL, snap,
				   err) < 0)
		return -1;
	/* gone while it was read: what was loaded may lack it */
	top_source_changed(s);
	if (vanished(s, err) < 0) {
		prio_snapshot_free(snap);
		return -1;
	}
	/* a partial snapshot (PrivateData) has no ranks to show: refused
	 * like a failed reload, so the last good data stays */
	{
		char why[768];

		if (prio_privacy_blocked(snap, PRIO_NEEDS_RANK, why,
					 sizeof(why))) {
			prio_snapshot_free(snap);
			return prio_error_set(
			    err, PRIO_ERR_MISSING, "", 0, "",
			    "the ranked queue: cannot be computed from a "
			    "partial snapshot: %s; --assume-complete if it is "
			    "whole",
			    why);
		}
	}
	for (size_t i = 0; i < s->nwatch; i++)
		s->watch[i].was_read = s->watch[i].exists;
	return 0;
}

/* ---- --live ----------------------------------------------------------------
 */

int top_source_capture_start(struct top_source *s, double now, char *why,
			     size_t why_size)
{
	double floor = (double)cmd_live_min_interval();
	double every = s->refresh > floor ? s->refresh : floor;
	int fds[2];
	pid_t pid;

	if (s->pid) {
		snprintf(why, why_size, "a capture is already running");
		return -1;
	}
	if (s->last_capture && now - s->last_capture < every) {
		snprintf(why, why_size,
			 "the next capture in %.0f s (live min-interval %ld s)",
			 every - (now - s->last_capture) + 0.499,
			 cmd_live_min_interval());
		return -1;
	}
	if (pipe(fds) < 0) {
		snprintf(why, why_size, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		snprintf(why, why_size, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* the child: prio-snap into a new folder; its messages go to
		 * the parent (never to the terminal under curses) */
		char dir[PATH_MAX];

		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		cmd_live_capture(s->c, dir, sizeof(dir)); /* exits 2 on error */
		printf("\n%s\n", dir);
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	s->pid = pid;
	s->pipe_fd = fds[0];
	s->out_len = 0;
	s->last_capture = now;
	return 0;
}

int top_source_capture_poll(struct top_source *s, struct prio_snapshot *snap,
			    struct prio_error *err)
{
	ssize_t n;
	int status;
	char *line, *last;

	if (!s->pid)
		return 0;
	for (;;) {
		if (s->out_len == sizeof(s->out) - 1) {
			/* keep the end: the folder's name is the last line */
			memmove(s->out, s->out + sizeof(s->out) / 2,
				s->out_len - sizeof(s->out) / 2);
			s->out_len -= sizeof(s->out) / 2;
		}
		n = read(s->pipe_fd, s->out + s->out_len,
			 sizeof(s->out) - 1 - s->out_len);
		if (n <= 0)
			break;
		s->out_len += (size_t)n;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0; /* more to come */
	close(s->pipe_fd);
	s->pipe_fd = -1;
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	s->out[s->out_len] = '\0';
	while (s->out_len && s->out[s->out_len - 1] == '\n')
		s->out[--s->out_len] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* "prio-top: --live: sshare: ..." -> the part after the name */
		const char *msg = s->out;
		size_t plen = strlen(s->c->prog);

		if (!strncmp(msg, s->c->prog, plen) &&
		    !strncmp(msg + plen, ": ", 2))
			msg += plen + 2;
		if (!strncmp(msg, "--live: ", 8))
			msg += 8;
		prio_error_set(err, PRIO_ERR_IO, "", 0, "", "%s",
			       *msg ? msg : "the capture failed");
		return -1;
	}
	last = strrchr(s->out, '\n');
	line = last ? last + 1 : s->out;
	{
		char old[PATH_MAX];

		snprintf(old, sizeof(old), "%s", s->live_dir);
		snprintf(s->live_dir, sizeof(s->live_dir), "%s", line);
		if (top_source_reload(s, snap, err) < 0) {
			cmd_live_cleanup(s->live_dir);
			snprintf(s->live_dir, sizeof(s->live_dir), "%s", old);
			return -1;
		}
		if (*old)
			cmd_live_cleanup(old);
	}
	return 1;
}

int top_source_capture_wait(struct top_source *s, double now,
			    struct prio_snapshot *snap, struct prio_error *err)
{
	char why[256];
	int rc;

	if (top_source_capture_start(s, now, why, sizeof(why)) < 0)
		return 0;	       /* not yet */
	fcntl(s->pipe_fd, F_SETFL, 0); /* block: batch mode waits */
	while ((rc = top_source_capture_poll(s, snap, err)) == 0)
		;
	return rc;
}

void top_source_free(struct top_source *s)
{
	if (s->pid) {
		kill(s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
		close(s->pipe_fd);
	}
	if (*s->live_dir)
		cmd_live_cleanup(s->live_dir);
	for (size_t i = 0; i < s->nwatch; i++)
		free(s->watch[i].path);
	free(s->watch);
	if (s->inotify_fd >= 0)
		close(s->inotify_fd);
	memset(s, 0, sizeof(*s));
	s->inotify_fd = s->pipe_fd = -1;
}
