/* SPDX-License-Identifier: MIT */
/*
 * The series of snapshot folders behind --history, and its chart (see
 * history.h).  The folders are sorted by their NOW, not their names: a
 * series copied or renamed by hand still reads in the order it was taken.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history.h"
#include "prio/chart.h"

/* Chart lines: enough to read a trend, few enough to keep the table in
 * view above it. */
#define CHART_HEIGHT 8

void cmd_history_free(struct cmd_history *h)
{
	for (size_t i = 0; i < h->count; i++)
		free(h->dirs[i]);
	free(h->dirs);
	free(h->nows);
	memset(h, 0, sizeof(*h));
}

/* NOW's first line as a number for sorting; a bad one sorts first and
 * its load then stops the command with the reader's file:line error. */
static time_t read_now(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = 0;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = 0;
		fclose(f);
	}
	return (time_t)v;
}

struct entry {
	char *dir;
	time_t now;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->now != y->now)
		return x->now < y->now ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

void cmd_history_list(const struct cmd_common *c, const char *dir,
		      struct cmd_history *h)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct entry *e = NULL;
	size_t n = 0, cap = 0;

	memset(h, 0, sizeof(*h));
	if (!d)
		cmd_die(c, "--history %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;
		char *path, *now;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		len = strlen(dir) + strlen(de->d_name) + 6;
		path = malloc(len);
		now = malloc(len);
		if (!path || !now)
			cmd_die(c, "out of memory");
		snprintf(path, len, "%s/%s", dir, de->d_name);
		snprintf(now, len, "%s/NOW", path);
		/* latest points at one of the others */
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(path);
			free(now);
			continue;
		}
		if (access(now, F_OK) < 0) {
			cmd_warn(c, "warning: --history: %s: no NOW file, not a "
				    "snapshot: left out", path);
			free(path);
			free(now);
			continue;
		}
		if (n == cap) {
			struct entry *m;

			cap = cap ? 2 * cap : 16;
			if (!(m = realloc(e, cap * sizeof(*e))))
				cmd_die(c, "out of memory");
			e = m;
		}
		e[n].dir = path;
		e[n].now = read_now(now);
		n++;
		free(now);
	}
	closedir(d);
	if (!n)
		cmd_die(c,
			"--history %s: no snapshot folders in it (sub-folders "
			"with a NOW file, as prio-snap --every writes)",
			dir);
	qsort(e, n, sizeof(*e), cmp_entry);
	h->dirs = malloc(n * sizeof(*h->dirs));
	h->nows = malloc(n * sizeof(*h->nows));
	if (!h->dirs || !h->nows)
		cmd_die(c, "out of memory");
	for (size_t i = 0; i < n; i++) {
		h->dirs[i] = e[i].dir;
		h->nows[i] = e[i].now;
	}
	h->count = n;
	free(e);
}

bool cmd_history_sources_given(const struct cmd_common *c)
{
	for (int r = 0; r < PRIO_ROLE_COUNT; r++)
		if (c->paths[r])
			return true;
	return false;
}

void cmd_history_view(const struct cmd_common *c, const char *usage,
		      enum cmd_history_view view, bool *table, bool *chart)
{
	if (view == CMD_HISTORY_CHART && c->mode != CMD_OUT_TEXT)
		cmd_usage_error(c, usage,
				"--chart draws text: no -p, -P, --csv or "
				"--json");
	*table = view != CMD_HISTORY_CHART;
	*chart = view == CMD_HISTORY_CHART ||
		 (view == CMD_HISTORY_AUTO && c->mode == CMD_OUT_TEXT &&
		  isatty(STDOUT_FILENO));
}

void cmd_history_keep_cells(const struct cmd_common *c,
			    struct prio_cell *cells, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (cells[k].kind == PRIO_CELL_STR && cells[k].s &&
		    !(cells[k].s = strdup(cells[k].s)))
			cmd_die(c, "out of memory");
}

void cmd_history_free_cells(struct prio_cell *cells, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (cells[k].kind == PRIO_CELL_STR)
			free((void *)cells[k].s);
	free(cells);
}

const char *cmd_history_time(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%lld", (long long)t);
	return buf;
}

static bool utf8_locale(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

void cmd_history_chart(const struct cmd_common *c, const char *title,
		       const time_t *times, const double *values, size_t n,
		       double lo, double hi, bool ascii)
{
	bool uni = !ascii && utf8_locale();
	const char *axis = uni ? "\xe2\x94\x82" : "|";
	struct prio_chart ch;
	char top[32], bottom[32], t0[32], t1[32];
	int width = cmd_text_width(), label, room;
	bool inf = false, nan = false;

	if (width <= 0)
		width = 80;
	for (size_t i = 0; i < n; i++) {
		inf = inf || isinf(values[i]);
		nan = nan || isnan(values[i]);
	}
	/* the scale's labels need the scale: draw once to learn it */
	if (prio_chart_draw(&ch, values, n, 1, 1, lo, hi, uni) < 0)
		cmd_die(c, "out of memory");
	snprintf(top, sizeof(top), "%g", ch.hi);
	snprintf(bottom, sizeof(bottom), "%g", ch.lo);
	prio_chart_free(&ch);
	label = (int)(strlen(top) > strlen(bottom) ? strlen(top)
						   : strlen(bottom));
	room = width - label - 2;
	if (room < 1)
		room = 1;
	if (prio_chart_draw(&ch, values, n, room, CHART_HEIGHT, lo, hi, uni) <
	    0)
		cmd_die(c, "out of memory");
	printf("%s\n", title);
	for (int y = 0; y < ch.height; y++) {
		/* no trailing blanks: a copied chart stays clean */
		size_t len = strlen(ch.lines[y]);

		while (len && ch.lines[y][len - 1] == ' ')
			len--;
		printf("%*s %s%.*s\n", label,
		       y == 0		     ? top
		       : y == ch.height - 1 ? bottom
					    : "",
		       axis, (int)len, ch.lines[y]);
	}
	cmd_history_time(times[0], t0, sizeof(t0));
	cmd_history_time(times[n - 1], t1, sizeof(t1));
	if (n > 1 && ch.width >= (int)(strlen(t0) + strlen(t1) + 1))
		printf("%*s  %s%*s\n", label, "", t0,
		       ch.width - (int)strlen(t0), t1);
	else if (n > 1)
		printf("%*s  %s .. %s\n", label, "", t0, t1);
	else
		printf("%*s  %s\n", label, "", t0);
	if (ch.per_column > 1)
		printf("(%d snapshots per column at most: the largest shown)\n",
		       ch.per_column);
	if (inf || nan)
		printf("(%s%s%s)\n", inf ? "^: infinite" : "",
		       inf && nan ? ", " : "",
		       nan ? "?: not in that snapshot" : "");
	prio_chart_free(&ch);
	if (fflush(stdout) != 0 || ferror(stdout))
		cmd_die_write(c);
}
