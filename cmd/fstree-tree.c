/* SPDX-License-Identifier: MIT */
/*
 * fstree-show --tree: the association tree drawn with box characters (ASCII
 * with --ascii or when the locale is not UTF-8), one line per association
 * in sshare's order, with its shares (raw and normalised), its usage (raw
 * and the algorithm's effective usage), and a small bar: Fair Tree's Level
 * FS (half full at 1: exactly its share; full at 2 or more) with users'
 * rank r/N, the classic factor 2^(-UE/SN) (half full when usage matches
 * shares), or the tickets of the ticket-based variant.  Colour only on a
 * terminal and without NO_COLOR: the bar is green when the branch used
 * less than its share, red when more.
 */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstree.h"

#define BAR_CELLS 10

struct drawing {
	struct fstree *f;
	bool utf8, color;
	unsigned name_width;
	bool last[PRIO_ASSOC_MAX_DEPTH +
		  2]; /* per depth: the branch is the last child */
	uint64_t lines;
};

static const char *label(const struct fstree *f, uint32_t i)
{
	const struct prio_assoc *a = &f->snap.assocs[i];

	return prio_snapshot_str(&f->snap, a->is_user ? a->user : a->account);
}

/* Display width of a UTF-8 string (box characters count one column). */
static unsigned columns(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static unsigned measure(const struct fstree *f, uint32_t i, unsigned depth)
{
	unsigned w = 4 * depth + columns(label(f, i)) +
		     (f->snap.assocs[i].is_user ? 7 : 0),
		 m = w;

	for (uint32_t c = f->snap.assocs[i].first_child; c != PRIO_ASSOC_NONE;
	     c = f->snap.assocs[c].next_sibling) {
		unsigned cw =
		    depth < PRIO_ASSOC_MAX_DEPTH ? measure(f, c, depth + 1) : 0;

		if (cw > m)
			m = cw;
	}
	return m;
}

/* A bar filled to fill in [0, 1] (NAN: empty); good picks the colour. */
static void bar(const struct drawing *d, double fill, bool good)
{
	static const char *const eighths[] = {"",	"\u258f", "\u258e",
					      "\u258d", "\u258c", "\u258b",
					      "\u258a", "\u2589"};
	bool empty = isnan(fill);
	unsigned units =
	    empty ? 0 : (unsigned)lround((fill > 1 ? 1 : fill) * BAR_CELLS * 8);
	unsigned used = 0;

	if (d->color && !empty)
		fputs(good ? "\033[32m" : "\033[31m", stdout);
	for (; units >= 8; units -= 8, used++)
		fputs(d->utf8 ? "\u2588" : "#", stdout);
	if (units) {
		fputs(d->utf8 ? eighths[units] : (units >= 4 ? "+" : ""),
		      stdout);
		used += d->utf8 || units >= 4;
	}
	if (d->color && !empty)
		fputs("\033[0m", stdout);
	for (; used < BAR_CELLS; used++)
		putchar(d->utf8 ? ' ' : '.');
}

static void line(struct drawing *d, uint32_t i, unsigned depth)
{
	const struct fstree *f = d->f;
	const struct prio_assoc *a = &f->snap.assocs[i];
	const struct prio_fs_result *r = &f->res[i];
	bool parent = a->shares_raw == PRIO_FS_USE_PARENT;
	unsigned w = 0;
	char shares[32], value[32];

	for (unsigned k = 1; k < depth; k++) {
		fputs(d->last[k] ? "    "
		      : d->utf8	 ? "\u2502   "
				 : "|   ",
		      stdout);
		w += 4;
	}
	if (depth) {
		fputs(d->last[depth]
			  ? (d->utf8 ? "\u2514\u2500\u2500 " : "`-- ")
			  : (d->utf8 ? "\u251c\u2500\u2500 " : "|-- "),
		      stdout);
		w += 4;
	}
	fputs(label(f, i), stdout);
	w += columns(label(f, i));
	if (a->is_user) {
		fputs(" (user)", stdout);
		w += 7;
	}
	for (; w < d->name_width; w++)
		putchar(' ');
	if (i == 0)
		snprintf(shares, sizeof(shares), "%s", "");
	else if (parent)
		snprintf(shares, sizeof(shares), "%s", "parent");
	else
		snprintf(shares, sizeof(shares), "%u", a->shares_raw);
	printf("  shares %6s %6.3f  usage %12.0Lf %6.3f  ", shares,
	       r->norm_shares, a->usage_raw, (double)r->usage_efctv);
	switch (f->algorithm) {
	case PRIO_FS_FAIR_TREE:
		/* Half full at Level FS 1 (used exactly its share). */
		if (parent || i == 0 || isnan((double)r->level_fs))
			snprintf(value, sizeof(value), "%s", "-");
		else
			snprintf(value, sizeof(value), "%.3f",
				 (double)r->level_fs);
		printf("LevelFS %7s ", value);
		bar(d,
		    parent || i == 0		 ? NAN
		    : isinf((double)r->level_fs) ? 1.0
						 : (double)r->level_fs / 2,
		    r->level_fs >= 1);
		if (a->is_user)
			printf("  rank %u/%u", r->rank,
			       f->snap.user_assoc_count);
		break;
	case PRIO_FS_TICKET:
		printf("tickets %7.1f ", r->tickets);
		bar(d, r->tickets / PRIO_FS_TICKETS_ROOT, true);
		if (a->is_user)
			printf("  factor %.6f", r->fairshare);
		break;
	default:
		/* 2^(-UE/SN): 0.5 when the usage matches the shares. */
		printf("factor %8.6f ", r->fairshare);
		bar(d, r->fairshare, r->fairshare >= 0.5);
	}
	putchar('\n');
	d->lines++;
}

static void walk(struct drawing *d, uint32_t i, unsigned depth)
{
	const struct prio_snapshot *s = &d->f->snap;

	line(d, i, depth);
	if (depth >= PRIO_ASSOC_MAX_DEPTH)
		return;
	for (uint32_t c = s->assocs[i].first_child; c != PRIO_ASSOC_NONE;
	     c = s->assocs[c].next_sibling) {
		d->last[depth + 1] =
		    s->assocs[c].next_sibling == PRIO_ASSOC_NONE;
		walk(d, c, depth + 1);
	}
}

/* ---- -P, --csv, --json: the tree as rows ------------------------------ */

enum {
	T_ACCOUNT, T_USER, T_PARENT, T_DEPTH, T_RAW_SHARES, T_NORM_SHARES,
	T_RAW_USAGE, T_EFFECTV_USAGE, T_LEVEL_FS, T_FAIRSHARE, T_RANK,
	T_TICKETS, T_COUNT
};

/* The drawing's values under sshare's keys (prio-tools(7) "JSON OUTPUT"),
 * plus where the row sits: parent account and depth. */
const struct prio_column fstree_node_cols[FSTREE_NODE_COLS] = {
    [T_ACCOUNT] = {.id = "account", .header = "Account"},
    [T_USER] = {.id = "user", .header = "User"},
    [T_PARENT] = {.id = "parent", .header = "Parent"},
    [T_DEPTH] = {.id = "depth", .header = "Depth"},
    [T_RAW_SHARES] = {.id = "raw_shares", .header = "RawShares"},
    [T_NORM_SHARES] = {.id = "norm_shares", .header = "NormShares"},
    [T_RAW_USAGE] = {.id = "raw_usage", .header = "RawUsage"},
    [T_EFFECTV_USAGE] = {.id = "effectv_usage", .header = "EffectvUsage"},
    [T_LEVEL_FS] = {.id = "level_fs", .header = "LevelFS"},
    [T_FAIRSHARE] = {.id = "fairshare", .header = "FairShare"},
    [T_RANK] = {.id = "fairtree_rank", .header = "Rank"},
    [T_TICKETS] = {.id = "tickets", .header = "Tickets"},
};

void fstree_node_cells(const struct fstree *f, uint32_t i, unsigned depth,
		       struct prio_cell *c)
{
	const struct prio_snapshot *s = &f->snap;
	const struct prio_assoc *a = &s->assocs[i];
	const struct prio_fs_result *r = &f->res[i];
	bool fair_tree = f->algorithm == PRIO_FS_FAIR_TREE;
	double lf = (double)r->level_fs;

	c[T_ACCOUNT] = prio_cell_str(prio_snapshot_str(s, a->account));
	c[T_USER] = a->is_user ? prio_cell_str(prio_snapshot_str(s, a->user))
			       : prio_cell_blank();
	c[T_PARENT] = a->parent != PRIO_ASSOC_NONE
			  ? prio_cell_str(prio_snapshot_str(s, s->assocs[a->parent].account))
			  : prio_cell_blank();
	c[T_DEPTH] = prio_cell_uint(depth);
	c[T_RAW_SHARES] = i == 0 ? prio_cell_blank()
			  : a->shares_raw == PRIO_FS_USE_PARENT ? prio_cell_str("parent")
								 : prio_cell_uint(a->shares_raw);
	c[T_NORM_SHARES] = prio_cell_double(r->norm_shares);
	c[T_RAW_USAGE] = prio_cell_uint((uint64_t)a->usage_raw);
	c[T_EFFECTV_USAGE] = prio_cell_double((double)r->usage_efctv);
	c[T_LEVEL_FS] = fair_tree && !isnan(lf) && i != 0 &&
				a->shares_raw != PRIO_FS_USE_PARENT
			    ? prio_cell_double(lf)
			    : prio_cell_blank();
	c[T_FAIRSHARE] = isnan(r->fairshare) ? prio_cell_blank()
					     : prio_cell_double(r->fairshare);
	c[T_RANK] = fair_tree && a->is_user ? prio_cell_uint(r->rank) : prio_cell_blank();
	c[T_TICKETS] = f->algorithm == PRIO_FS_TICKET ? prio_cell_double(r->tickets)
						      : prio_cell_blank();
}

static void tree_row(struct fstree *f, struct prio_writer *w, uint32_t i,
		     unsigned depth)
{
	const struct prio_snapshot *s = &f->snap;
	const struct prio_assoc *a = &s->assocs[i];
	struct prio_cell c[T_COUNT];

	fstree_node_cells(f, i, depth, c);
	if (prio_writer_row(w, c) < 0)
		cmd_die_write(&f->c);
	if (depth >= PRIO_ASSOC_MAX_DEPTH)
		return;
	for (uint32_t k = a->first_child; k != PRIO_ASSOC_NONE; k = s->assocs[k].next_sibling)
		tree_row(f, w, k, depth + 1);
}

static int tree_table(struct fstree *f)
{
	struct prio_writer *w = prio_writer_new(stdout, cmd_writer_mode(f->c.mode),
						PRIO_STYLE_SSHARE, fstree_node_cols, T_COUNT,
						!f->c.noheader, NULL);

	if (!w)
		cmd_die(&f->c, "out of memory");
	if (f->snap.assoc_count)
		tree_row(f, w, 0, 0);
	if (prio_writer_finish(w) < 0)
		cmd_die_write(&f->c);
	return EXIT_OK;
}

int fstree_tree(struct fstree *f)
{
	struct drawing d;
	const char *cs;

	if (f->c.mode != CMD_OUT_TEXT)
		return tree_table(f);
	memset(&d, 0, sizeof(d));
	d.f = f;
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	d.utf8 = !f->ascii && cs && strcmp(cs, "UTF-8") == 0;
	d.color = fstree_color();
	if (!f->snap.assoc_count)
		return EXIT_OK;
	d.name_width = measure(f, 0, 0);
	printf("%s fairshare, %u user associations, usage at %s\n",
	       prio_fs_algorithm_name(f->algorithm), f->snap.user_assoc_count,
	       prio_timestamp_format(f->at, (char[32]){0}, 32));
	walk(&d, 0, 0);
	if (fflush(stdout) != 0 || ferror(stdout))
		cmd_die_write(&f->c);
	return EXIT_OK;
}
