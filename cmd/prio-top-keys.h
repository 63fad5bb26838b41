/* SPDX-License-Identifier: MIT */
/*
 * prio-top's key table: one line per action with its default keys, its
 * label in the bottom function bar, the views it works in and one line of
 * help.  The function bar, the help screen, --list-keys (which the man
 * page's KEYS table is checked against) and the config file's key bindings
 * (prio-tools.conf(5), top { keys { ACTION = "KEYS" } }) all come from it.
 *
 * Key codes: a Unicode code point for a character (control keys 1-31 and
 * 127 included), TOP_KEY_* above the Unicode range for the rest.  Key
 * names: the character itself ("q", "/", ">"), or Space, Tab, Enter, Esc,
 * Backspace, Delete, Up, Down, Left, Right, PgUp, PgDn, Home, End, F1-F12,
 * Comma, and C-a ... C-z for control keys.
 */
#ifndef PRIO_TOP_KEYS_H
#define PRIO_TOP_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	TOP_KEY_ENTER = '\n',
	TOP_KEY_TAB = '\t',
	TOP_KEY_ESC = 27,
	TOP_KEY_BACKSPACE = 127,
	TOP_KEY_SPECIAL = 0x110000, /* above Unicode */
	TOP_KEY_UP = TOP_KEY_SPECIAL,
	TOP_KEY_DOWN,
	TOP_KEY_LEFT,
	TOP_KEY_RIGHT,
	TOP_KEY_PGUP,
	TOP_KEY_PGDN,
	TOP_KEY_HOME,
	TOP_KEY_END,
	TOP_KEY_DELETE,
	TOP_KEY_RESIZE,	     /* the terminal changed size */
	TOP_KEY_MOUSE_CLICK, /* button 1 */
	TOP_KEY_MOUSE_DOUBLE,
	TOP_KEY_WHEEL_UP,
	TOP_KEY_WHEEL_DOWN,
	TOP_KEY_F0 = TOP_KEY_SPECIAL + 0x100, /* F1 = TOP_KEY_F0 + 1 */
};
#define TOP_KEY_F(n) (TOP_KEY_F0 + (n))

/* The screens; an action works in some of them. */
enum top_view {
	TOP_VIEW_QUEUE = 0,
	TOP_VIEW_TREE,
	TOP_VIEW_DETAIL,
	TOP_VIEW_HELP,
	TOP_VIEW_COUNT
};
#define TOP_IN(v) (1u << (v))
#define TOP_IN_LISTS (TOP_IN(TOP_VIEW_QUEUE) | TOP_IN(TOP_VIEW_TREE))
#define TOP_IN_ALL ((1u << TOP_VIEW_COUNT) - 1)

enum top_action {
	TOP_A_HELP = 0,
	TOP_A_BACK,
	TOP_A_QUEUE,
	TOP_A_SEARCH,
	TOP_A_FILTER,
	TOP_A_TREE,
	TOP_A_SORT_NEXT,
	TOP_A_DETAIL,
	TOP_A_RELOAD,
	TOP_A_WHATIF,
	TOP_A_QUIT,
	TOP_A_SEARCH_NEXT,
	TOP_A_SORT_PREV,
	TOP_A_SORT_INVERT,
	TOP_A_USER,
	TOP_A_ACCOUNT,
	TOP_A_PARTITION,
	TOP_A_FOLLOW,
	TOP_A_MARK,
	TOP_A_UNMARK_ALL,
	TOP_A_COLLAPSE,
	TOP_A_EXPAND,
	TOP_A_EXPAND_ALL,
	TOP_A_WHATIF_RESET,
	TOP_A_SWITCH,
	TOP_A_UP,
	TOP_A_DOWN,
	TOP_A_PGUP,
	TOP_A_PGDN,
	TOP_A_HOME,
	TOP_A_END,
	TOP_A_REDRAW,
	TOP_A_COUNT
};

struct top_action_info {
	const char *name;  /* "sort-next": the config file's key */
	const char *keys;  /* default keys, "F6, >" */
	const char *label; /* function bar label, NULL when not there */
	unsigned views;	   /* TOP_IN(...) */
	const char *help;  /* one sentence */
};
const struct top_action_info *top_action_info(enum top_action a);

#define TOP_KEYS_PER_ACTION 6

/* The keys bound to each action. */
struct top_keymap {
	uint32_t keys[TOP_A_COUNT][TOP_KEYS_PER_ACTION];
	unsigned n[TOP_A_COUNT];
};

/* The default bindings. */
void top_keymap_init(struct top_keymap *m);
/* Bind an action (by name) to a comma-separated list of key names,
 * replacing its keys; a key taken from another action of a view it shares
 * is taken away from it.  Returns 0, or -1 with the reason in why. */
int top_keymap_bind(struct top_keymap *m, const char *action, const char *keys,
		    char *why, size_t why_size);
/* The action a key means in a view; -1 when none. */
int top_keymap_action(const struct top_keymap *m, uint32_t key,
		      enum top_view view);
/* The action's keys as names, ", "-separated, into buf. */
const char *top_keymap_keys(const struct top_keymap *m, enum top_action a,
			    char *buf, size_t size);
/* The first key of an action as the function bar shows it ("F6"). */
const char *top_keymap_bar_key(const struct top_keymap *m, enum top_action a,
			       char *buf, size_t size);

/* A key's name ("F10", "C-l", "q"), and back. */
const char *top_key_name(uint32_t key, char *buf, size_t size);
int top_key_parse(const char *name, size_t len, uint32_t *key);

/* --list-keys: the default table, one action a line: keys, a tab, the
 * action's name, a tab, its help.  The man page's KEYS list says the
 * same. */
void top_keys_list(const struct top_keymap *m,
		   void (*line)(const char *keys, const char *name,
				const char *help, void *ctx),
		   void *ctx);

#endif
