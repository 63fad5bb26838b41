/* SPDX-License-Identifier: MIT */
/*
 * prio-top's detail screens: a scrollable text.  Enter on a job shows what
 * prio-calc --explain JOBID prints, on a user what fstree-show --why USER
 * prints (the same library calls, the same words); the help screen lists
 * the key table as it is bound now, then the colours' meaning.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/wrap.h"
#include "prio-top.h"

void top_detail_close(struct top_app *a)
{
	free(a->detail_expl);
	a->detail_expl = NULL;
	a->detail_job = 0;
	free(a->detail_text);
	free(a->detail_lines);
	a->detail_text = NULL;
	a->detail_lines = NULL;
	a->ndetail = 0;
	if (a->view == TOP_VIEW_DETAIL || a->view == TOP_VIEW_HELP)
		a->view = a->back;
}

/* The lines of a malloc'ed text, taken: the detail's text from now on. */
static int set_lines(struct top_app *a, char *text)
{
	uint32_t n = 1;
	char **lines;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	if (!(lines = malloc(n * sizeof(*lines)))) {
		free(text);
		top_status(a, true, "out of memory");
		return -1;
	}
	free(a->detail_text);
	free(a->detail_lines);
	a->detail_lines = lines;
	a->detail_text = text;
	a->ndetail = 0;
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		a->detail_lines[a->ndetail++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return 0;
}

/* Take a malloc'ed text and show it, split in lines. */
static int show_text(struct top_app *a, char *text, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int show_text(struct top_app *a, char *text, const char *fmt, ...)
{
	va_list ap;
	enum top_view from = a->view;

	top_detail_close(a);
	if (set_lines(a, text) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(a->detail_title, sizeof(a->detail_title), fmt, ap);
	va_end(ap);
	if (from == TOP_VIEW_QUEUE || from == TOP_VIEW_TREE)
		a->back = from;
	a->detail = (struct top_panel){0};
	return 0;
}

/* The explanation, then its "When" part as prio-calc --explain prints it
 * (when: malloc'ed, taken; NULL: not known yet, or failed). */
static char *with_when(const char *text, const char *when)
{
	size_t n = strlen(text), size;
	char *out;

	if (!when)
		/* the forecast runs (prio-top-forecast.c), or failed: the
		 * status line says why */
		when = "\nWhen it would start: (our forecast is running)\n";
	size = n + 1 + strlen(when) + 1;
	if (!(out = malloc(size)))
		return NULL;
	/* after the explanation, whose first line names the job (scripts
	 * and the tmux test read it there) */
	snprintf(out, size, "%s%s%s", text,
		 n && text[n - 1] != '\n' ? "\n" : "",
		 /* one blank line between the two, not two */
		 n >= 2 && !strncmp(text + n - 2, "\n\n", 2) && *when == '\n'
		     ? when + 1
		     : when);
	return out;
}

void top_detail_when(struct top_app *a, uint32_t job_id, char *when)
{
	struct top_panel *p = &a->detail;
	/* scrolled down to the last line (End before the forecast ended):
	 * the reader waits at the end for this part */
	bool at_end = p->selected > 0 && p->height > 0 &&
		      p->selected + (uint32_t)p->height >= p->count;
	char *text;

	if (a->view != TOP_VIEW_DETAIL || a->detail_job != job_id ||
	    !a->detail_expl) {
		free(when);
		return;
	}
	text = with_when(a->detail_expl, when ? when : "\n");
	free(when);
	if (!text) {
		top_status(a, true, "out of memory");
		return;
	}
	/* the same screen, the same scroll: only its end changed; at the
	 * end, the new end: past any count, which top_detail_draw() brings
	 * back in range (not UINT32_MAX: a key before the draw adds to it) */
	if (set_lines(a, text) == 0 && at_end)
		p->selected = UINT32_MAX / 2;
}

int top_detail_open_job(struct top_app *a, uint32_t job_id)
{
	struct prio_error err;
	char *text, *expl;

	prio_error_clear(&err);
	text = prio_top_explain(&a->model, job_id, &err);
	if (!text) {
		char buf[1024];

		top_status(a, true, "%s",
			   prio_error_format(&err, buf, sizeof(buf)));
		return -1;
	}
	expl = text;
	if (!(text = with_when(expl, NULL))) {
		free(expl);
		top_status(a, true, "out of memory");
		return -1;
	}
	if (show_text(a, text, "Why job %u waits: prio-calc --explain %u",
		      job_id, job_id) < 0) {
		free(expl);
		return -1;
	}
	a->view = TOP_VIEW_DETAIL;
	a->detail_expl = expl;
	a->detail_job = job_id;
	/* the "When" part: in line with --once, else when the forecast
	 * thread ends (top_detail_when) */
	top_forecast_when(a, job_id);
	return 0;
}

int top_detail_open_assoc(struct top_app *a, uint32_t assoc)
{
	const struct prio_snapshot *snap = a->model.snap;
	const struct prio_assoc *as = &snap->assocs[assoc];
	const char *acct = prio_snapshot_str(snap, as->account);
	struct prio_error err;
	char *text;

	prio_error_clear(&err);
	text = prio_top_why(&a->model, assoc, a->scr.utf8, &err);
	if (!text) {
		char buf[1024];

		top_status(a, true, "%s",
			   prio_error_format(&err, buf, sizeof(buf)));
		return -1;
	}
	if (as->is_user) {
		const char *user = prio_snapshot_str(snap, as->user);

		if (show_text(a, text,
			      "Why user %s (account %s) has its fairshare: "
			      "fstree-show --why %s --account %s",
			      user, acct, user, acct) < 0)
			return -1;
	} else if (show_text(a, text, "Account %s in the fairshare tree",
			     acct) < 0) {
		return -1;
	}
	a->view = TOP_VIEW_DETAIL;
	return 0;
}

/* ---- help ---------------------------------------------------------------- */

struct help_buf {
	char *s;
	size_t len, cap;
};

static void add(struct help_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct help_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->s)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->len + (size_t)n + 1) * 2;
		char *p = realloc(b->s, cap);

		if (!p) {
			free(b->s);
			b->s = NULL;
			return;
		}
		b->s = p;
		b->cap = cap;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void top_detail_open_help(struct top_app *a)
{
	struct help_buf b = {malloc(4096), 0, 4096};
	static const char *const where[TOP_VIEW_COUNT] = {"queue", "tree",
							  "detail", "help"};

	add(&b,
	    "Keys (prio-tools.conf(5): top { keys { ACTION = \"KEYS\" } }):\n");
	for (int k = 0; k < TOP_A_COUNT; k++) {
		const struct top_action_info *ai =
		    top_action_info((enum top_action)k);
		char keys[128], views[64] = "";
		size_t len = 0;

		if (ai->views != TOP_IN_ALL)
			for (int v = 0; v < TOP_VIEW_COUNT; v++)
				if (ai->views & TOP_IN(v))
					len += (size_t)snprintf(
					    views + len, sizeof(views) - len,
					    "%s%s", len ? ", " : " (",
					    where[v]);
		if (len)
			snprintf(views + len, sizeof(views) - len, ")");
		add(&b, "  %-16s %-14s %s%s\n",
		    top_keymap_keys(&a->keys, (enum top_action)k, keys,
				    sizeof(keys)),
		    ai->name, ai->help, views);
	}
	add(&b,
	    "\nThe queue's bars: each job's priority as its weighted terms, "
	    "one letter each\n(sprio's letters, named with their weights in "
	    "the header), scaled to the\nhighest priority of the queue. "
	    "MOVED: places gained in the partition by the\nlast what-if "
	    "(W drops the changes).  * marks a marked job.\n");
	add(&b, "\nThe tree's bars: Level FS, half full when a branch used "
		"exactly its share\n(under Fair Tree); the FairShare factor "
		"otherwise.\n");
	if (!b.s) {
		top_status(a, true, "out of memory");
		return;
	}
	if (show_text(a, b.s, "prio-top %s: keys and what the screen shows",
		      PACKAGE_VERSION) == 0)
		a->view = TOP_VIEW_HELP;
}

void top_detail_draw(struct top_app *a, int y, int height)
{
	struct scr *s = &a->scr;
	struct top_panel *p = &a->detail;
	uint32_t total = 0, shown = 0, skip;
	int body = height - 1;

	scr_fill(s, y, 0, s->cols, ' ', SCR_TITLE);
	scr_text_cut(s, y, 1, s->cols - 1, SCR_TITLE, a->detail_title, true);
	for (uint32_t i = 0; i < a->ndetail; i++)
		total += prio_wrap(a->detail_lines[i], s->cols, NULL);
	/* a text scrolls by its top line: the cursor is the first line */
	p->count = total;
	p->height = body;
	if (body < 1 || total <= (uint32_t)body)
		p->selected = 0;
	else if (p->selected > total - (uint32_t)body)
		p->selected = total - (uint32_t)body;
	p->first = p->selected;
	skip = p->first;
	for (uint32_t i = 0; i < a->ndetail && (int)shown < body; i++) {
		uint32_t n = prio_wrap(a->detail_lines[i], s->cols, NULL);
		struct prio_wrap_piece *pieces;

		if (skip >= n) {
			skip -= n;
			continue;
		}
		if (!(pieces = malloc(n * sizeof(*pieces))))
			break;
		prio_wrap(a->detail_lines[i], s->cols, pieces);
		for (uint32_t k = skip; k < n && (int)shown < body; k++) {
			char buf[2048];
			size_t len = pieces[k].len < sizeof(buf) - 1
					 ? pieces[k].len
					 : sizeof(buf) - 1;

			memcpy(buf, pieces[k].start, len);
			buf[len] = '\0';
			scr_text(s, y + 1 + (int)shown++, pieces[k].indent,
				 s->cols - pieces[k].indent, SCR_NORMAL, buf);
		}
		free(pieces);
		skip = 0;
	}
}
