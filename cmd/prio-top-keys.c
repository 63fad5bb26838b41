/* SPDX-License-Identifier: MIT */
/*
 * prio-top's key table and bindings (see prio-top-keys.h).  The table's
 * order is the function bar's order; its text is the help screen's and the
 * man page's (tests/cli/top-keys-documented.sh compares them).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio-top-keys.h"

#define Q TOP_IN(TOP_VIEW_QUEUE)
#define T TOP_IN(TOP_VIEW_TREE)
#define D TOP_IN(TOP_VIEW_DETAIL)
#define H TOP_IN(TOP_VIEW_HELP)

static const struct top_action_info actions[TOP_A_COUNT] = {
    [TOP_A_HELP] = {"help", "F1, h, ?", "Help", TOP_IN_ALL,
		    "Show this help (again: back)."},
    [TOP_A_QUEUE] = {"queue", "F2", "Queue", TOP_IN_ALL,
		     "The queue: pending jobs in scheduling order."},
    [TOP_A_SEARCH] = {"search", "F3, /", "Search", Q | T,
		      "Find a job, user, account, partition, QOS or reason."},
    [TOP_A_FILTER] = {"filter", "F4, \\", "Filter", Q,
		      "Show only the jobs containing a text."},
    [TOP_A_TREE] = {"tree", "F5, t", "Tree", TOP_IN_ALL,
		    "The fairshare tree: shares, usage, Level FS, rank."},
    [TOP_A_SORT_NEXT] = {"sort-next", "F6, >", "SortBy", Q,
			 "Sort by the next column."},
    [TOP_A_DETAIL] = {"detail", "F7, Enter", "Detail", Q | T,
		      "Why: the job's --explain, the user's --why; "
		      "an account folds."},
    [TOP_A_RELOAD] = {"reload", "F8, r", NULL, TOP_IN_ALL,
		      "Read the sources again now (--live: a new capture)."},
    [TOP_A_WHATIF] = {"what-if", "F9, w", "What-if", Q | T,
		      "Change a weight or a share (Key=Value, as --set)."},
    [TOP_A_QUIT] = {"quit", "F10, q", "Quit", TOP_IN_ALL, "Quit."},
    [TOP_A_BACK] = {"back", "Esc", "Back", D | H,
		    "Back to the queue or the tree."},
    [TOP_A_SEARCH_NEXT] = {"search-next", "n", NULL, Q | T,
			   "The next match of the search."},
    [TOP_A_SORT_PREV] = {"sort-prev", "<", NULL, Q,
			 "Sort by the previous column."},
    [TOP_A_SORT_INVERT] = {"sort-invert", "I", NULL, Q,
			   "Invert the sort order."},
    [TOP_A_USER] = {"user", "u", NULL, Q, "Only one user's jobs (empty: all)."},
    [TOP_A_ACCOUNT] = {"account", "a", NULL, Q,
		       "Only one account's jobs (empty: all)."},
    [TOP_A_PARTITION] = {"partition", "p", NULL, Q,
			 "Only one partition's jobs (empty: all)."},
    [TOP_A_FOLLOW] = {"follow", "F", NULL, Q,
		      "Follow the job: the cursor stays on it as it moves."},
    [TOP_A_MARK] = {"mark", "Space", NULL, Q,
		    "Mark or unmark the job (marks survive reloads)."},
    [TOP_A_UNMARK_ALL] = {"unmark-all", "U", NULL, Q, "Clear every mark."},
    [TOP_A_COLLAPSE] = {"collapse", "-, Left", NULL, T, "Fold the branch."},
    [TOP_A_EXPAND] = {"expand", "+, Right", NULL, T, "Unfold the branch."},
    [TOP_A_EXPAND_ALL] = {"expand-all", "*", NULL, T, "Unfold every branch."},
    [TOP_A_WHATIF_RESET] = {"what-if-reset", "W", NULL, Q | T,
			    "Drop every what-if change (reads the sources)."},
    [TOP_A_SWITCH] = {"switch", "Tab", NULL, Q | T,
		      "Switch between the queue and the tree."},
    [TOP_A_UP] = {"up", "Up, k", NULL, TOP_IN_ALL, "Up one line."},
    [TOP_A_DOWN] = {"down", "Down, j", NULL, TOP_IN_ALL, "Down one line."},
    [TOP_A_PGUP] = {"page-up", "PgUp, C-b", NULL, TOP_IN_ALL, "Up one page."},
    [TOP_A_PGDN] = {"page-down", "PgDn, C-f", NULL, TOP_IN_ALL,
		    "Down one page."},
    [TOP_A_HOME] = {"home", "Home, g", NULL, TOP_IN_ALL, "The first line."},
    [TOP_A_END] = {"end", "End, G", NULL, TOP_IN_ALL, "The last line."},
    [TOP_A_REDRAW] = {"redraw", "C-l", NULL, TOP_IN_ALL,
		      "Paint the screen again."},
};

const struct top_action_info *top_action_info(enum top_action a)
{
	return (unsigned)a < TOP_A_COUNT ? &actions[a] : NULL;
}

/* ---- key names ----------------------------------------------------------- */

static const struct {
	const char *name;
	uint32_t key;
} named[] = {
    {"Space", ' '},
    {"Tab", TOP_KEY_TAB},
    {"Enter", TOP_KEY_ENTER},
    {"Esc", TOP_KEY_ESC},
    {"Backspace", TOP_KEY_BACKSPACE},
    {"Delete", TOP_KEY_DELETE},
    {"Up", TOP_KEY_UP},
    {"Down", TOP_KEY_DOWN},
    {"Left", TOP_KEY_LEFT},
    {"Right", TOP_KEY_RIGHT},
    {"PgUp", TOP_KEY_PGUP},
    {"PgDn", TOP_KEY_PGDN},
    {"Home", TOP_KEY_HOME},
    {"End", TOP_KEY_END},
    {"Comma", ','},
};

const char *top_key_name(uint32_t key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == key && key != ',') {
			snprintf(buf, size, "%s", named[i].name);
			return buf;
		}
	if (key > TOP_KEY_F0 && key <= TOP_KEY_F(12))
		snprintf(buf, size, "F%u", key - TOP_KEY_F0);
	else if (key >= 1 && key <= 26)
		snprintf(buf, size, "C-%c", 'a' + key - 1);
	else if (key == ',')
		snprintf(buf, size, "Comma");
	else if (key > ' ' && key < 127)
		snprintf(buf, size, "%c", (char)key);
	else
		snprintf(buf, size, "U+%04X", key);
	return buf;
}

int top_key_parse(const char *name, size_t len, uint32_t *key)
{
	char buf[32];

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (len == 1 && buf[0] > ' ' && buf[0] < 127) {
		*key = (unsigned char)buf[0];
		return 0;
	}
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcasecmp(named[i].name, buf)) {
			*key = named[i].key;
			return 0;
		}
	if ((buf[0] == 'F' || buf[0] == 'f') &&
	    isdigit((unsigned char)buf[1])) {
		char *end;
		long n = strtol(buf + 1, &end, 10);

		if (!*end && n >= 1 && n <= 12) {
			*key = TOP_KEY_F((uint32_t)n);
			return 0;
		}
	}
	if (len == 3 && (buf[0] == 'C' || buf[0] == 'c') && buf[1] == '-' &&
	    isalpha((unsigned char)buf[2])) {
		*key = (uint32_t)(tolower((unsigned char)buf[2]) - 'a' + 1);
		return 0;
	}
	return -1;
}

/* ---- bindings ------------------------------------------------------------ */

/* Parse a list of key names into keys[]; -1 with why on a bad one. */
static int parse_list(const char *list, uint32_t *keys, unsigned *n, char *why,
		      size_t why_size)
{
	const char *p = list;

	*n = 0;
	while (*p) {
		const char *s, *e;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		s = p;
		/* a lone "," cannot be a key here (it separates): Comma */
		while (*p && *p != ',' && *p != ' ')
			p++;
		e = p;
		if (*n == TOP_KEYS_PER_ACTION) {
			snprintf(why, why_size, "at most %d keys per action",
				 TOP_KEYS_PER_ACTION);
			return -1;
		}
		if (top_key_parse(s, (size_t)(e - s), &keys[*n]) < 0) {
			snprintf(why, why_size, "unknown key \"%.*s\"",
				 (int)(e - s), s);
			return -1;
		}
		(*n)++;
	}
	return 0;
}

void top_keymap_init(struct top_keymap *m)
{
	char why[128];

	memset(m, 0, sizeof(*m));
	for (int a = 0; a < TOP_A_COUNT; a++)
		if (parse_list(actions[a].keys, m->keys[a], &m->n[a], why,
			       sizeof(why)) < 0)
			abort(); /* the table itself is wrong */
}

int top_keymap_bind(struct top_keymap *m, const char *action, const char *keys,
		    char *why, size_t why_size)
{
	uint32_t list[TOP_KEYS_PER_ACTION];
	unsigned n;
	int a;

	for (a = 0; a < TOP_A_COUNT; a++)
		if (!strcasecmp(actions[a].name, action))
			break;
	if (a == TOP_A_COUNT) {
		snprintf(why, why_size, "unknown action \"%s\"", action);
		return -1;
	}
	if (parse_list(keys, list, &n, why, why_size) < 0)
		return -1;
	/* a key now means this action wherever their views meet */
	for (int b = 0; b < TOP_A_COUNT; b++) {
		unsigned k = 0;

		if (b == a || !(actions[b].views & actions[a].views))
			continue;
		for (unsigned i = 0; i < m->n[b]; i++) {
			bool taken = false;

			for (unsigned j = 0; j < n; j++)
				taken = taken || list[j] == m->keys[b][i];
			if (!taken)
				m->keys[b][k++] = m->keys[b][i];
		}
		m->n[b] = k;
	}
	memcpy(m->keys[a], list, n * sizeof(*list));
	m->n[a] = n;
	return 0;
}

int top_keymap_action(const struct top_keymap *m, uint32_t key,
		      enum top_view view)
{
	for (int a = 0; a < TOP_A_COUNT; a++) {
		if (!(actions[a].views & TOP_IN(view)))
			continue;
		for (unsigned i = 0; i < m->n[a]; i++)
			if (m->keys[a][i] == key)
				return a;
	}
	return -1;
}

const char *top_keymap_keys(const struct top_keymap *m, enum top_action a,
			    char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < m->n[a] && len < size; i++) {
		char name[16];

		len += (size_t)snprintf(
		    buf + len, size - len, "%s%s", i ? ", " : "",
		    top_key_name(m->keys[a][i], name, sizeof(name)));
	}
	return buf;
}

const char *top_keymap_bar_key(const struct top_keymap *m, enum top_action a,
			       char *buf, size_t size)
{
	/* an F key when the action has one, as htop's bar shows them */
	for (unsigned i = 0; i < m->n[a]; i++)
		if (m->keys[a][i] > TOP_KEY_F0 &&
		    m->keys[a][i] <= TOP_KEY_F(12))
			return top_key_name(m->keys[a][i], buf, size);
	if (m->n[a])
		return top_key_name(m->keys[a][0], buf, size);
	buf[0] = '\0';
	return buf;
}

void top_keys_list(const struct top_keymap *m,
		   void (*line)(const char *keys, const char *name,
				const char *help, void *ctx),
		   void *ctx)
{
	char buf[128];

	for (int a = 0; a < TOP_A_COUNT; a++)
		line(top_keymap_keys(m, (enum top_action)a, buf, sizeof(buf)),
		     actions[a].name, actions[a].help, ctx);
}
