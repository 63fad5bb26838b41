/* SPDX-License-Identifier: MIT */
/*
 * prio-top's key table (cmd/prio-top-keys.c): key names both ways, the
 * defaults without a key meaning two things in one view, bindings from the
 * config file that take a key away from another action.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "../../cmd/prio-top-keys.h"

static uint32_t key(const char *name)
{
	uint32_t k = 0;

	cr_assert_eq(top_key_parse(name, strlen(name), &k), 0, "%s", name);
	return k;
}

Test(top_keys, names_both_ways)
{
	static const char *const names[] = {
	    "q",     "/",    ">",	  "\\",	    "?",    "Space", "Tab",
	    "Enter", "Esc",  "Backspace", "Delete", "Up",   "Down",  "Left",
	    "Right", "PgUp", "PgDn",	  "Home",   "End",  "F1",    "F10",
	    "F12",   "C-a",  "C-l",	  "C-z",    "Comma"};
	char buf[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_assert_str_eq(top_key_name(key(names[i]), buf, sizeof(buf)),
				 names[i]);
	cr_assert_eq(key("f5"), TOP_KEY_F(5));
	cr_assert_eq(key("ENTER"), TOP_KEY_ENTER);
	cr_assert_eq(key("C-L"), 12);
	cr_assert_eq(key("Comma"), ',');
	uint32_t k;
	cr_assert_lt(top_key_parse("F13", 3, &k), 0);
	cr_assert_lt(top_key_parse("F0", 2, &k), 0);
	cr_assert_lt(top_key_parse("C-1", 3, &k), 0);
	cr_assert_lt(top_key_parse("qq", 2, &k), 0);
	cr_assert_lt(top_key_parse("", 0, &k), 0);
}

/* No key means two actions in a view, and every action has a key. */
Test(top_keys, defaults_do_not_clash)
{
	struct top_keymap m;

	top_keymap_init(&m);
	for (int a = 0; a < TOP_A_COUNT; a++) {
		const struct top_action_info *ai =
		    top_action_info((enum top_action)a);

		cr_assert_gt(m.n[a], 0, "%s has no key", ai->name);
		for (int v = 0; v < TOP_VIEW_COUNT; v++) {
			if (!(ai->views & TOP_IN(v)))
				continue;
			for (unsigned i = 0; i < m.n[a]; i++)
				cr_assert_eq(
				    top_keymap_action(&m, m.keys[a][i],
						      (enum top_view)v),
				    a, "%s: its key %u means another action",
				    ai->name, m.keys[a][i]);
		}
	}
	/* what a few keys do where */
	cr_assert_eq(top_keymap_action(&m, 'q', TOP_VIEW_DETAIL), TOP_A_QUIT);
	cr_assert_eq(top_keymap_action(&m, TOP_KEY_ENTER, TOP_VIEW_TREE),
		     TOP_A_DETAIL);
	cr_assert_eq(top_keymap_action(&m, TOP_KEY_ESC, TOP_VIEW_DETAIL),
		     TOP_A_BACK);
	cr_assert_eq(top_keymap_action(&m, TOP_KEY_ESC, TOP_VIEW_QUEUE), -1);
	cr_assert_eq(top_keymap_action(&m, 'u', TOP_VIEW_TREE), -1);
	cr_assert_eq(top_keymap_action(&m, '-', TOP_VIEW_TREE), TOP_A_COLLAPSE);
}

Test(top_keys, bindings_replace_and_take_keys)
{
	struct top_keymap m;
	char why[128], buf[128];

	top_keymap_init(&m);
	/* 'u' moves from the user filter to quit; F10 stays quit's */
	cr_assert_eq(top_keymap_bind(&m, "quit", "u, F10", why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(top_keymap_action(&m, 'u', TOP_VIEW_QUEUE), TOP_A_QUIT);
	cr_assert_eq(top_keymap_action(&m, 'q', TOP_VIEW_QUEUE), -1);
	cr_assert_eq(m.n[TOP_A_USER], 0);
	cr_assert_str_eq(top_keymap_keys(&m, TOP_A_QUIT, buf, sizeof(buf)),
			 "u, F10");
	/* the function bar shows an F key when there is one */
	cr_assert_str_eq(top_keymap_bar_key(&m, TOP_A_QUIT, buf, sizeof(buf)),
			 "F10");
	cr_assert_eq(top_keymap_bind(&m, "search", "s", why, sizeof(why)), 0);
	cr_assert_str_eq(top_keymap_bar_key(&m, TOP_A_SEARCH, buf, sizeof(buf)),
			 "s");
	/* a key of a view the action does not share is kept: '-' folds in
	 * the tree, and may sort in the queue */
	cr_assert_eq(top_keymap_bind(&m, "sort-prev", "-", why, sizeof(why)),
		     0);
	cr_assert_eq(top_keymap_action(&m, '-', TOP_VIEW_QUEUE),
		     TOP_A_SORT_PREV);
	cr_assert_eq(top_keymap_action(&m, '-', TOP_VIEW_TREE), TOP_A_COLLAPSE);
	/* errors name what is wrong */
	cr_assert_lt(top_keymap_bind(&m, "fly", "x", why, sizeof(why)), 0);
	cr_assert_str_eq(why, "unknown action \"fly\"");
	cr_assert_lt(top_keymap_bind(&m, "quit", "q, Hyper", why, sizeof(why)),
		     0);
	cr_assert_str_eq(why, "unknown key \"Hyper\"");
	cr_assert_lt(
	    top_keymap_bind(&m, "quit", "a,b,c,d,e,f,g", why, sizeof(why)), 0);
	cr_assert_str_eq(top_keymap_keys(&m, TOP_A_QUIT, buf, sizeof(buf)),
			 "u, F10", "a refused binding changes nothing");
}

static void count_line(const char *keys, const char *name, const char *help,
		       void *ctx)
{
	(void)keys;
	cr_assert(name && *name && help && *help);
	(*(int *)ctx)++;
}

Test(top_keys, list_has_every_action)
{
	struct top_keymap m;
	int n = 0;

	top_keymap_init(&m);
	top_keys_list(&m, count_line, &n);
	cr_assert_eq(n, TOP_A_COUNT);
}
