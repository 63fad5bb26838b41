/* SPDX-License-Identifier: MIT */
/*
 * prio-top's screen layer: the only code that talks to curses.
 *
 * Views draw into a grid of cells (a character and a role such as "header"
 * or "the age part of a bar"); the grid is then shown by one of two
 * back ends: curses (colours and attributes per role, from the config
 * file's colors section or defaults; monochrome attributes under NO_COLOR
 * or --no-color) or plain text (one frame to stdout, for --once, -b and
 * the golden tests).  So what a test reads is exactly what the terminal
 * shows, less the colours.
 *
 * Characters are Unicode code points, one column each.  In ASCII mode
 * (--ascii, or a locale that is not UTF-8) every string drawn is reduced to
 * ASCII and views pick ASCII glyphs (scr_glyph()).
 *
 * Input: keys come back as the key codes of prio-top-keys.h (curses'
 * function keys, resize and mouse events translated).
 */
#ifndef PRIO_TOP_SCREEN_H
#define PRIO_TOP_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prio/priority.h"

/* What a cell is for; each role has a colour and an attribute. */
enum scr_role {
	SCR_NORMAL = 0,
	SCR_HEADER,   /* header labels */
	SCR_VALUE,    /* header values */
	SCR_TITLE,    /* column titles */
	SCR_SORTED,   /* the sorted column's title */
	SCR_SELECTED, /* the line under the cursor */
	SCR_MARKED,   /* a marked job */
	SCR_STATUS,   /* the status line */
	SCR_ERROR,    /* an error on the status line */
	SCR_KEY,      /* a key in the function bar */
	SCR_LABEL,    /* its label */
	SCR_UP,	      /* moved up by a what-if */
	SCR_DOWN,     /* moved down */
	SCR_NEW,      /* entered a partition's queue */
	SCR_TREE,     /* tree branches */
	SCR_GOOD,     /* a fairshare bar under its share */
	SCR_BAD,      /* over its share */
	SCR_PROMPT,   /* a prompt being typed */
	SCR_FACTOR,   /* + enum prio_factor: the parts of a priority bar */
	SCR_ROLE_COUNT = SCR_FACTOR + PRIO_FACTOR_COUNT
};

/* Role names for the config file (colors { age = "black,yellow" }). */
const char *scr_role_name(enum scr_role role);

struct scr_cell {
	uint32_t ch;
	uint8_t role;
};

struct scr_backend; /* curses state, internal */

struct scr {
	int cols, rows;
	struct scr_cell *cells;
	bool utf8;		/* draw Unicode; else ASCII only */
	bool color;		/* colours (curses only) */
	bool mouse;		/* mouse events (curses only) */
	struct scr_backend *be; /* NULL: plain text */
};

/* Glyphs with an ASCII fallback. */
enum scr_glyph {
	SCR_G_VLINE,	/* "│" / "|" */
	SCR_G_TEE,	/* "├" / "|" */
	SCR_G_CORNER,	/* "└" / "`" */
	SCR_G_HLINE,	/* "─" / "-" */
	SCR_G_UP,	/* "↑" / "^" */
	SCR_G_DOWN,	/* "↓" / "v" */
	SCR_G_FOLDED,	/* "▸" / ">" */
	SCR_G_OPEN,	/* "▾" / "v" */
	SCR_G_BLOCK,	/* "█" / "#" */
	SCR_G_EMPTY,	/* " " / "." */
	SCR_G_ELLIPSIS, /* "…" / "+" */
	SCR_G_COUNT
};
uint32_t scr_glyph(const struct scr *s, enum scr_glyph g);

/* Size the grid (cleared).  Returns 0 or -1 on ENOMEM. */
int scr_resize(struct scr *s, int cols, int rows);
void scr_free(struct scr *s);
void scr_clear(struct scr *s);

/* Draw UTF-8 text at (row, col) in at most `width` columns (-1: to the
 * edge), clipped to the grid; a text cut short ends in an ellipsis when
 * `ellipsis`.  Returns the columns used. */
int scr_text(struct scr *s, int row, int col, int width, enum scr_role role,
	     const char *text);
int scr_text_cut(struct scr *s, int row, int col, int width, enum scr_role role,
		 const char *text, bool ellipsis);
/* The same, right-justified in width. */
int scr_text_right(struct scr *s, int row, int col, int width,
		   enum scr_role role, const char *text);
/* printf into the grid. */
int scr_printf(struct scr *s, int row, int col, int width, enum scr_role role,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Fill width cells with one character. */
void scr_fill(struct scr *s, int row, int col, int width, uint32_t ch,
	      enum scr_role role);
/* Give a span of cells another role (keeping characters); cells whose role
 * is at least `keep_from` keep theirs (bars keep their colours). */
void scr_paint(struct scr *s, int row, int col, int width, enum scr_role role,
	       enum scr_role keep_from);
/* Columns a UTF-8 string takes (one per code point). */
int scr_width(const char *text);

/* ---- back ends ----------------------------------------------------------- */

/* Write the grid as text (UTF-8, or ASCII), trailing blanks cut; one line
 * per row.  Returns 0 or -1 on a write error. */
int scr_write_text(const struct scr *s, FILE *out);

/* Start curses on the terminal (input from /dev/tty when standard input is
 * not one), with colours when color and the terminal has them, and mouse
 * events when mouse.  The grid takes the terminal's size.  Returns 0 or -1
 * with a message in why. */
int scr_curses_start(struct scr *s, bool color, bool mouse, char *why,
		     size_t why_size);
void scr_curses_end(struct scr *s);
/* Colours of a role from the config file: "fg[,bg]" colour names (black,
 * red, green, yellow, blue, magenta, cyan, white, default) and attributes
 * (bold, reverse, underline, dim).  Returns 0 or -1 with why. */
int scr_set_style(struct scr *s, enum scr_role role, const char *spec,
		  char *why, size_t why_size);
/* Find a role by its name; -1 when none. */
int scr_role_parse(const char *name);
/* Show the grid (only what changed reaches the terminal). */
void scr_curses_show(struct scr *s);
/* Force the next show to repaint everything (after a resize, C-l). */
void scr_curses_repaint(struct scr *s);
/* The file descriptor keys come from, for poll(). */
int scr_curses_fd(const struct scr *s);

/* One input event. */
struct scr_event {
	uint32_t key;		  /* prio-top-keys.h code; 0: none */
	int mouse_row, mouse_col; /* with TOP_KEY_MOUSE_*: where */
};
/* The next pending event without waiting; false when there is none.  A
 * resize resizes the grid and returns TOP_KEY_RESIZE. */
bool scr_curses_event(struct scr *s, struct scr_event *ev);

#endif
