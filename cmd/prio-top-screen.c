/* SPDX-License-Identifier: MIT */
/*
 * prio-top's screen layer (see prio-top-screen.h): the cell grid every view
 * draws into, its plain-text back end, and the curses back end, the only
 * code that calls curses.
 *
 * The curses back end keeps a copy of what it last showed and sends only
 * the rows that changed, so moving the cursor over a 100k-job queue costs
 * two rows of output; curses then sends the difference.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>

#include "prio-top-curses.h"
#include "prio-top-keys.h"
#include "prio-top-screen.h"

static const char *const role_names[SCR_ROLE_COUNT] = {
    [SCR_NORMAL] = "normal",
    [SCR_HEADER] = "header",
    [SCR_VALUE] = "value",
    [SCR_TITLE] = "title",
    [SCR_SORTED] = "sorted",
    [SCR_SELECTED] = "selected",
    [SCR_MARKED] = "marked",
    [SCR_STATUS] = "status",
    [SCR_ERROR] = "error",
    [SCR_KEY] = "key",
    [SCR_LABEL] = "label",
    [SCR_UP] = "up",
    [SCR_DOWN] = "down",
    [SCR_NEW] = "new",
    [SCR_TREE] = "tree",
    [SCR_GOOD] = "good",
    [SCR_BAD] = "bad",
    [SCR_PROMPT] = "prompt",
    [SCR_FACTOR + PRIO_FACTOR_SITE] = "site",
    [SCR_FACTOR + PRIO_FACTOR_AGE] = "age",
    [SCR_FACTOR + PRIO_FACTOR_ASSOC] = "assoc",
    [SCR_FACTOR + PRIO_FACTOR_FAIRSHARE] = "fairshare",
    [SCR_FACTOR + PRIO_FACTOR_JOBSIZE] = "jobsize",
    [SCR_FACTOR + PRIO_FACTOR_PARTITION] = "partition",
    [SCR_FACTOR + PRIO_FACTOR_QOS] = "qos",
    [SCR_FACTOR + PRIO_FACTOR_NICE] = "nice",
    [SCR_FACTOR + PRIO_FACTOR_TRES] = "tres",
};

const char *scr_role_name(enum scr_role role)
{
	return (unsigned)role < SCR_ROLE_COUNT ? role_names[role] : NULL;
}

int scr_role_parse(const char *name)
{
	for (int r = 0; r < SCR_ROLE_COUNT; r++)
		if (!strcasecmp(role_names[r], name))
			return r;
	return -1;
}

uint32_t scr_glyph(const struct scr *s, enum scr_glyph g)
{
	static const uint32_t uni[SCR_G_COUNT] = {
	    0x2502, 0x251c, 0x2514, 0x2500, 0x2191, 0x2193,
	    0x25b8, 0x25be, 0x2588, ' ',    0x2026};
	static const char ascii[SCR_G_COUNT] = {'|', '|', '`', '-', '^', 'v',
						'>', 'v', '#', '.', '+'};

	return s->utf8 ? uni[g] : (uint32_t)ascii[g];
}

/* ---- the grid --------------------------------------------------------------
 */

int scr_resize(struct scr *s, int cols, int rows)
{
	struct scr_cell *c;

	if (cols < 1)
		cols = 1;
	if (rows < 1)
		rows = 1;
	c = calloc((size_t)cols * (size_t)rows, sizeof(*c));
	if (!c)
		return -1;
	free(s->cells);
	s->cells = c;
	s->cols = cols;
	s->rows = rows;
	scr_clear(s);
	return 0;
}

void scr_free(struct scr *s)
{
	free(s->cells);
	s->cells = NULL;
}

void scr_clear(struct scr *s)
{
	for (size_t i = 0; i < (size_t)s->cols * (size_t)s->rows; i++)
		s->cells[i] = (struct scr_cell){' ', SCR_NORMAL};
}

/* The next code point of UTF-8 text; invalid bytes give U+FFFD. */
static uint32_t next_cp(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t c = *s;
	int n = c < 0x80    ? 0
		: c >= 0xf0 ? 3
		: c >= 0xe0 ? 2
		: c >= 0xc0 ? 1
			    : -1;

	if (n < 0) {
		*p = s + 1;
		return 0xfffd;
	}
	if (n == 0) {
		*p = s + 1;
		return c;
	}
	c &= 0x3f >> n;
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p = s + i;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*p = s + n + 1;
	return c;
}

int scr_width(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	int n = 0;

	while (*p) {
		next_cp(&p);
		n++;
	}
	return n;
}

static void put(struct scr *s, int row, int col, uint32_t ch,
		enum scr_role role)
{
	if (row < 0 || row >= s->rows || col < 0 || col >= s->cols)
		return;
	if (ch < ' ' || ch == 127 || (ch >= 0x80 && ch < 0xa0))
		ch = '?'; /* control characters never reach the terminal */
	else if (!s->utf8 && ch >= 0x80)
		ch = '?';
	s->cells[(size_t)row * (size_t)s->cols + (size_t)col] =
	    (struct scr_cell){ch, (uint8_t)role};
}

int scr_text_cut(struct scr *s, int row, int col, int width, enum scr_role role,
		 const char *text, bool ellipsis)
{
	const unsigned char *p = (const unsigned char *)text;
	int used = 0, total;

	if (width < 0)
		width = s->cols - col;
	if (width <= 0)
		return 0;
	total = ellipsis ? scr_width(text) : 0;
	while (*p && used < width) {
		uint32_t ch = next_cp(&p);

		if (ellipsis && total > width && used == width - 1)
			ch = scr_glyph(s, SCR_G_ELLIPSIS);
		put(s, row, col + used++, ch, role);
	}
	return used;
}

int scr_text(struct scr *s, int row, int col, int width, enum scr_role role,
	     const char *text)
{
	return scr_text_cut(s, row, col, width, role, text, false);
}

int scr_text_right(struct scr *s, int row, int col, int width,
		   enum scr_role role, const char *text)
{
	int w = scr_width(text);

	if (w >= width)
		return scr_text(s, row, col, width, role, text);
	scr_fill(s, row, col, width - w, ' ', role);
	return width - w + scr_text(s, row, col + width - w, w, role, text);
}

int scr_printf(struct scr *s, int row, int col, int width, enum scr_role role,
	       const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return scr_text(s, row, col, width, role, buf);
}

void scr_fill(struct scr *s, int row, int col, int width, uint32_t ch,
	      enum scr_role role)
{
	for (int i = 0; i < width; i++)
		put(s, row, col + i, ch, role);
}

void scr_paint(struct scr *s, int row, int col, int width, enum scr_role role,
	       enum scr_role keep_from)
{
	if (row < 0 || row >= s->rows)
		return;
	for (int i = col < 0 ? 0 : col; i < col + width && i < s->cols; i++) {
		struct scr_cell *c =
		    &s->cells[(size_t)row * (size_t)s->cols + (size_t)i];

		if (c->role < keep_from)
			c->role = (uint8_t)role;
	}
}

/* ---- plain text ------------------------------------------------------------
 */

static size_t utf8_put(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

int scr_write_text(const struct scr *s, FILE *out)
{
	char *line = malloc((size_t)s->cols * 4 + 2);

	if (!line)
		return -1;
	for (int r = 0; r < s->rows; r++) {
		const struct scr_cell *c =
		    &s->cells[(size_t)r * (size_t)s->cols];
		size_t len = 0, keep = 0;

		for (int i = 0; i < s->cols; i++) {
			len += utf8_put(c[i].ch, line + len);
			if (c[i].ch != ' ')
				keep = len;
		}
		line[keep] = '\n';
		if (fwrite(line, 1, keep + 1, out) != keep + 1) {
			free(line);
			return -1;
		}
	}
	free(line);
	return ferror(out) ? -1 : 0;
}

/* ---- curses ----------------------------------------------------------------
 */

struct scr_backend {
	SCREEN *term;
	FILE *tty; /* input when stdin is not a terminal */
	int in_fd;
	attr_t attr[SCR_ROLE_COUNT];
	short pair[SCR_ROLE_COUNT];
	struct scr_cell *shown; /* what the terminal holds; NULL: unknown */
	int shown_cols, shown_rows;
	cchar_t *line;
};

/* Monochrome looks: what must stay visible without colour. */
static void mono_styles(struct scr_backend *be)
{
	for (int r = 0; r < SCR_ROLE_COUNT; r++) {
		be->attr[r] = A_NORMAL;
		be->pair[r] = 0;
	}
	be->attr[SCR_HEADER] = A_BOLD;
	be->attr[SCR_TITLE] = A_REVERSE;
	be->attr[SCR_SORTED] = A_REVERSE | A_BOLD;
	be->attr[SCR_SELECTED] = A_REVERSE;
	be->attr[SCR_MARKED] = A_BOLD;
	be->attr[SCR_ERROR] = A_BOLD;
	be->attr[SCR_KEY] = A_NORMAL;
	be->attr[SCR_LABEL] = A_REVERSE;
	be->attr[SCR_UP] = A_BOLD;
	be->attr[SCR_DOWN] = A_BOLD;
	be->attr[SCR_NEW] = A_BOLD;
	be->attr[SCR_PROMPT] = A_BOLD;
}

/* The colour scheme (fg, bg; -1 = the terminal's default), htop-like. */
static const struct {
	short fg, bg;
	attr_t attr;
} defaults[SCR_ROLE_COUNT] = {
    [SCR_NORMAL] = {-1, -1, A_NORMAL},
    [SCR_HEADER] = {COLOR_CYAN, -1, A_NORMAL},
    [SCR_VALUE] = {-1, -1, A_BOLD},
    [SCR_TITLE] = {COLOR_BLACK, COLOR_GREEN, A_NORMAL},
    [SCR_SORTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL},
    [SCR_SELECTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL},
    [SCR_MARKED] = {COLOR_YELLOW, -1, A_BOLD},
    [SCR_STATUS] = {-1, -1, A_NORMAL},
    [SCR_ERROR] = {COLOR_WHITE, COLOR_RED, A_BOLD},
    [SCR_KEY] = {-1, -1, A_NORMAL},
    [SCR_LABEL] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL},
    [SCR_UP] = {COLOR_GREEN, -1, A_BOLD},
    [SCR_DOWN] = {COLOR_RED, -1, A_BOLD},
    [SCR_NEW] = {COLOR_YELLOW, -1, A_BOLD},
    [SCR_TREE] = {COLOR_BLUE, -1, A_NORMAL},
    [SCR_GOOD] = {COLOR_GREEN, -1, A_NORMAL},
    [SCR_BAD] = {COLOR_RED, -1, A_NORMAL},
    [SCR_PROMPT] = {COLOR_YELLOW, -1, A_BOLD},
    [SCR_FACTOR + PRIO_FACTOR_SITE] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_AGE] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_ASSOC] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_FAIRSHARE] = {COLOR_BLACK, COLOR_GREEN, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_JOBSIZE] = {COLOR_BLACK, COLOR_MAGENTA, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_PARTITION] = {COLOR_BLACK, COLOR_BLUE, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_QOS] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_NICE] = {COLOR_WHITE, COLOR_RED, A_NORMAL},
    [SCR_FACTOR + PRIO_FACTOR_TRES] = {COLOR_BLACK, COLOR_RED, A_NORMAL},
};

static void color_styles(struct scr_backend *be)
{
	for (int r = 0; r < SCR_ROLE_COUNT; r++) {
		be->pair[r] = (short)(r + 1);
		be->attr[r] = defaults[r].attr;
		init_pair(be->pair[r], defaults[r].fg, defaults[r].bg);
	}
}

int scr_set_style(struct scr *s, enum scr_role role, const char *spec,
		  char *why, size_t why_size)
{
	static const char *const colours[] = {"black",	"red",	"green",
					      "yellow", "blue", "magenta",
					      "cyan",	"white"};
	short fg = -1, bg = -1;
	int ncol = 0;
	attr_t attr = A_NORMAL;
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *w = strtok_r(buf, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save)) {
		short c = -2;

		if (!strcasecmp(w, "bold"))
			attr |= A_BOLD;
		else if (!strcasecmp(w, "reverse"))
			attr |= A_REVERSE;
		else if (!strcasecmp(w, "underline"))
			attr |= A_UNDERLINE;
		else if (!strcasecmp(w, "dim"))
			attr |= A_DIM;
		else if (!strcasecmp(w, "default"))
			c = -1;
		else {
			for (short k = 0; k < 8; k++)
				if (!strcasecmp(w, colours[k]))
					c = k;
			if (c == -2) {
				snprintf(why, why_size,
					 "\"%s\": expected a colour (black, "
					 "red, green, "
					 "yellow, blue, magenta, cyan, white, "
					 "default) or "
					 "bold, reverse, underline, dim",
					 w);
				return -1;
			}
		}
		if (c != -2) {
			if (ncol == 2) {
				snprintf(why, why_size,
					 "\"%s\": at most two colours "
					 "(foreground, background)",
					 spec);
				return -1;
			}
			if (ncol++ == 0)
				fg = c;
			else
				bg = c;
		}
	}
	if (!s->be)
		return 0; /* checked only: text frames have no colours */
	if (s->color) {
		init_pair(s->be->pair[role], fg, bg);
		s->be->attr[role] = attr;
	} else if (attr) {
		s->be->attr[role] = attr; /* attributes work without colour */
	}
	return 0;
}

int scr_curses_start(struct scr *s, bool color, bool mouse, char *why,
		     size_t why_size)
{
	struct scr_backend *be = calloc(1, sizeof(*be));
	FILE *in = stdin;

	if (!be) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	if (!isatty(STDIN_FILENO)) {
		be->tty = fopen("/dev/tty", "r");
		if (!be->tty) {
			snprintf(why, why_size,
				 "no terminal to read keys from: %s",
				 strerror(errno));
			free(be);
			return -1;
		}
		in = be->tty;
	}
	be->term = newterm(NULL, stdout, in);
	if (!be->term) {
		snprintf(why, why_size,
			 "cannot start curses on this terminal "
			 "(TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		if (be->tty)
			fclose(be->tty);
		free(be);
		return -1;
	}
	be->in_fd = fileno(in);
	set_term(be->term);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	s->be = be;
	s->color = color && has_colors();
	mono_styles(be);
	if (s->color) {
		start_color();
		use_default_colors();
		color_styles(be);
	}
	s->mouse = mouse;
	if (mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
			      BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
	if (scr_resize(s, COLS, LINES) < 0) {
		scr_curses_end(s);
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	return 0;
}

void scr_curses_end(struct scr *s)
{
	struct scr_backend *be = s->be;

	if (!be)
		return;
	endwin();
	delscreen(be->term);
	if (be->tty)
		fclose(be->tty);
	free(be->shown);
	free(be->line);
	free(be);
	s->be = NULL;
}

int scr_curses_fd(const struct scr *s)
{
	return s->be ? s->be->in_fd : -1;
}

void scr_curses_repaint(struct scr *s)
{
	if (!s->be)
		return;
	free(s->be->shown);
	s->be->shown = NULL;
	clearok(curscr, TRUE);
}

void scr_curses_show(struct scr *s)
{
	struct scr_backend *be = s->be;
	size_t n = (size_t)s->cols * (size_t)s->rows;

	if (!be)
		return;
	if (!be->shown || be->shown_cols != s->cols ||
	    be->shown_rows != s->rows) {
		free(be->shown);
		free(be->line);
		be->shown = calloc(n, sizeof(*be->shown)); /* ch 0: differs */
		be->line = calloc((size_t)s->cols + 1, sizeof(*be->line));
		be->shown_cols = s->cols;
		be->shown_rows = s->rows;
		if (!be->shown || !be->line) {
			free(be->shown);
			be->shown = NULL;
			return;
		}
		erase();
	}
	for (int r = 0; r < s->rows && r < LINES; r++) {
		const struct scr_cell *c =
		    &s->cells[(size_t)r * (size_t)s->cols];
		struct scr_cell *was = &be->shown[(size_t)r * (size_t)s->cols];
		int w = s->cols < COLS ? s->cols : COLS;

		if (!memcmp(c, was, (size_t)s->cols * sizeof(*c)))
			continue;
		for (int i = 0; i < w; i++) {
			wchar_t wc[2] = {(wchar_t)c[i].ch, 0};

			setcchar(&be->line[i], wc, be->attr[c[i].role],
				 s->color ? be->pair[c[i].role] : 0, NULL);
		}
		mvadd_wchnstr(r, 0, be->line, w);
		memcpy(was, c, (size_t)s->cols * sizeof(*c));
	}
	wnoutrefresh(stdscr);
	doupdate();
}

static uint32_t translate(int code)
{
	switch (code) {
	case KEY_UP:
		return TOP_KEY_UP;
	case KEY_DOWN:
		return TOP_KEY_DOWN;
	case KEY_LEFT:
		return TOP_KEY_LEFT;
	case KEY_RIGHT:
		return TOP_KEY_RIGHT;
	case KEY_PPAGE:
		return TOP_KEY_PGUP;
	case KEY_NPAGE:
		return TOP_KEY_PGDN;
	case KEY_HOME:
		return TOP_KEY_HOME;
	case KEY_END:
		return TOP_KEY_END;
	case KEY_DC:
		return TOP_KEY_DELETE;
	case KEY_BACKSPACE:
		return TOP_KEY_BACKSPACE;
	case KEY_ENTER:
		return TOP_KEY_ENTER;
	case KEY_BTAB:
		return TOP_KEY_TAB;
	case KEY_RESIZE:
		return TOP_KEY_RESIZE;
	default:
		if (code >= KEY_F(1) && code <= KEY_F(12))
			return TOP_KEY_F((uint32_t)(code - KEY_F0));
		return 0;
	}
}

bool scr_curses_event(struct scr *s, struct scr_event *ev)
{
	wint_t wch;
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (!s->be)
		return false;
	for (;;) {
		rc = wget_wch(stdscr, &wch);
		if (rc == ERR)
			return false;
		if (rc == KEY_CODE_YES && wch == KEY_MOUSE) {
			MEVENT m;

			if (getmouse(&m) != OK)
				continue;
			ev->mouse_row = m.y;
			ev->mouse_col = m.x;
			if (m.bstate & BUTTON1_DOUBLE_CLICKED)
				ev->key = TOP_KEY_MOUSE_DOUBLE;
			else if (m.bstate & BUTTON1_CLICKED)
				ev->key = TOP_KEY_MOUSE_CLICK;
			else if (m.bstate & BUTTON4_PRESSED)
				ev->key = TOP_KEY_WHEEL_UP;
			else if (m.bstate & BUTTON5_PRESSED)
				ev->key = TOP_KEY_WHEEL_DOWN;
			else
				continue;
			return true;
		}
		if (rc == KEY_CODE_YES) {
			ev->key = translate((int)wch);
			if (ev->key == TOP_KEY_RESIZE) {
				scr_resize(s, COLS, LINES);
				scr_curses_repaint(s);
			}
			if (ev->key)
				return true;
			continue;
		}
		if (wch == '\r' || wch == '\n')
			ev->key = TOP_KEY_ENTER;
		else if (wch == 8)
			ev->key = TOP_KEY_BACKSPACE;
		else
			ev->key = (uint32_t)wch;
		return true;
	}
}
