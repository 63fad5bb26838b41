/* SPDX-License-Identifier: MIT */
/*
 * --live (see live.h).  prio-snap is found beside the running program (an
 * installed prio-tools keeps them in one bindir), then on PATH, unless the
 * config file's live section names it.  The section's command paths reach
 * prio-snap through PRIO_SNAP_* variables; SLURM_CONF passes through the
 * environment untouched, as the Slurm commands read it themselves.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "live.h"

extern char **environ;

/* prio-snap beside /proc/self/exe, or its libtool build-tree location,
 * else the bare name for a PATH search. */
static const char *find_prio_snap(char *buf, size_t size)
{
	const char *named = cmd_live_setting("prio-snap");
	char exe[PATH_MAX];
	ssize_t n;

	if (named && *named)
		return named;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;
		static const char *const rel[] = { "prio-snap", "../prio-snap",
						   "scripts/prio-snap",
						   "../scripts/prio-snap" };

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
				int k = snprintf(buf, size, "%s/%s", exe, rel[i]);

				if (k > 0 && (size_t)k < size && access(buf, X_OK) == 0)
					return buf;
			}
		}
	}
	return "prio-snap";
}

static void export_setting(const char *key, const char *var)
{
	const char *v = cmd_live_setting(key);

	if (v && *v)
		setenv(var, v, 1);
}

void cmd_live_capture(const struct cmd_common *c, char *dir, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char snap_buf[PATH_MAX], errpath[PATH_MAX + 16];
	const char *prio_snap = find_prio_snap(snap_buf, sizeof(snap_buf));
	const char *cluster = c->cluster ? c->cluster : cmd_live_setting("cluster");
	const char *argv[10];
	posix_spawn_file_actions_t fa;
	int argc = 0, status, rc;
	pid_t pid;

	snprintf(dir, size, "%s/prio-live.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		cmd_die(c, "--live: cannot create a temporary folder in %s: %s",
			tmp && *tmp ? tmp : "/tmp", strerror(errno));
	snprintf(errpath, sizeof(errpath), "%s/.stderr", dir);
	export_setting("scontrol", "PRIO_SNAP_SCONTROL");
	export_setting("sshare", "PRIO_SNAP_SSHARE");
	export_setting("sacctmgr", "PRIO_SNAP_SACCTMGR");
	export_setting("sacct", "PRIO_SNAP_SACCT");
	export_setting("sinfo", "PRIO_SNAP_SINFO");
	setenv("PRIO_SNAP_QUIET", "1", 1);

	argv[argc++] = prio_snap;
	if (cluster && *cluster) {
		argv[argc++] = "-M";
		argv[argc++] = cluster;
	}
	if (!(c->folder_roles & (1u << PRIO_ROLE_SACCT)))
		argv[argc++] = "--no-sacct";
	if (!(c->folder_roles & (1u << PRIO_ROLE_ASSOC)))
		argv[argc++] = "--no-dump";
	/* jobs.txt is read first: squeue's JSON would only cost time */
	argv[argc++] = "--no-squeue-json";
	argv[argc++] = dir;
	argv[argc] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errpath,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	rc = posix_spawnp(&pid, prio_snap, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		cmd_live_cleanup(dir);
		cmd_die(c, "--live: %s: %s", prio_snap, strerror(rc));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			cmd_live_cleanup(dir);
			cmd_die(c, "--live: waiting for %s: %s", prio_snap, strerror(errno));
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* prio-snap already wrote one line naming the failing command
		 * and its error: pass it on, without its own prefix. */
		char line[1024] = "";
		FILE *f = fopen(errpath, "r");

		if (f) {
			while (fgets(line, sizeof(line), f))
				if (strncmp(line, "prio-snap: warning:", 19) != 0)
					break;
			fclose(f);
		}
		line[strcspn(line, "\n")] = '\0';
		cmd_live_cleanup(dir);
		if (!strncmp(line, "prio-snap: ", 11))
			cmd_die(c, "--live: %s", line + 11);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			cmd_die(c, "--live: %s: command not found", prio_snap);
		cmd_die(c, "--live: %s failed%s%s", prio_snap, *line ? ": " : "", line);
	}
	unlink(errpath);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void cmd_live_cleanup(const char *dir)
{
	nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}
