/* SPDX-License-Identifier: MIT */
/*
 * prio-top's tree view: the association tree as fstree-show --tree draws
 * it, foldable: one line per association in sshare's order with its
 * shares (raw and normalised), usage (raw and effective), Level FS and
 * rank r/N under Fair Tree (the FairShare factor under the other
 * algorithms), and a bar: Level FS half full at 1 (the branch used exactly
 * its share) and full at 2 or more, green under its share and red over it;
 * the factor itself (half full at 0.5) under classic fairshare.  The cell
 * values are sshare's (report_sshare: blanks for root, "parent" shares,
 * RawUsage truncated), shown with three decimals.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prio-top.h"
#include "prio/report_sshare.h"

enum tcol {
	T_NAME,
	T_SHARES,
	T_NORM,
	T_USAGE,
	T_EFFECTV,
	T_LEVEL,
	T_RANK,
	T_BAR,
	T_COUNT
};

static const struct {
	const char *header;
	int width;
	enum prio_sshare_field field; /* the sshare cell behind it */
} tcols[T_COUNT] = {
    [T_NAME] = {"ACCOUNT / USER", 0, PRIO_SSHARE_F_ACCOUNT},
    [T_SHARES] = {"SHARES", 6, PRIO_SSHARE_F_RAW_SHARES},
    [T_NORM] = {"NORM", 5, PRIO_SSHARE_F_NORM_SHARES},
    [T_USAGE] = {"USAGE", 10, PRIO_SSHARE_F_RAW_USAGE},
    [T_EFFECTV] = {"EFFECTV", 7, PRIO_SSHARE_F_EFFECTV_USAGE},
    [T_LEVEL] = {"LEVELFS", 7, PRIO_SSHARE_F_LEVEL_FS},
    [T_RANK] = {"RANK", 4, PRIO_SSHARE_F_FAIRSHARE},
    [T_BAR] = {"", 0, PRIO_SSHARE_F_COUNT},
};

static const char *label(const struct top_app *a, uint32_t assoc)
{
	const struct prio_assoc *as = &a->model.snap->assocs[assoc];

	return prio_snapshot_str(a->model.snap,
				 as->is_user ? as->user : as->account);
}

/* A number cell in little room: three decimals, or fewer digits when
 * large; "inf" as sshare prints it. */
static const char *number(const struct prio_cell *cell, char *buf, size_t size)
{
	switch (cell->kind) {
	case PRIO_CELL_STR:
		return cell->s ? cell->s : "";
	case PRIO_CELL_INT:
		snprintf(buf, size, "%lld", (long long)cell->i);
		return buf;
	case PRIO_CELL_UINT:
		snprintf(buf, size, "%llu", (unsigned long long)cell->u);
		return buf;
	case PRIO_CELL_DOUBLE:
		if (isinf(cell->d))
			snprintf(buf, size, "inf");
		else if (isnan(cell->d))
			snprintf(buf, size, "%s", "");
		else if (fabs(cell->d) < 1000)
			snprintf(buf, size, "%.3f", cell->d);
		else
			snprintf(buf, size, "%.4g", cell->d);
		return buf;
	default:
		buf[0] = '\0';
		return buf;
	}
}

/* Widths: the name column from the data, the rest fixed; the bar takes
 * what is left (at least 6). */
static void widths(struct top_app *a, int w[T_COUNT], bool fair_tree)
{
	const struct prio_top *t = &a->model;
	int name, fixed = 0;
	char buf[32];

	/* the names' column, measured once per data change */
	if (a->tree_measured_gen != a->data_gen || !a->tree_measured_gen) {
		a->tree_name_width = scr_width(tcols[T_NAME].header);
		for (uint32_t k = 0; k < t->nnodes; k++) {
			int n = (t->nodes[k].depth ? 4 * t->nodes[k].depth : 2) +
				scr_width(label(a, t->nodes[k].assoc));

			if (n > a->tree_name_width)
				a->tree_name_width = n;
		}
		a->tree_measured_gen = a->data_gen;
	}
	name = a->tree_name_width;
	snprintf(buf, sizeof(buf), "%u/%u", t->snap->user_assoc_count,
		 t->snap->user_assoc_count);
	for (int c = 0; c < T_COUNT; c++)
		w[c] = tcols[c].width;
	w[T_RANK] = fair_tree ? scr_width(buf) : 8;
	if (w[T_RANK] < 4)
		w[T_RANK] = 4;
	w[T_LEVEL] = fair_tree ? w[T_LEVEL] : 0;
	for (int c = T_SHARES; c < T_BAR; c++)
		fixed += w[c] ? w[c] + 1 : 0;
	if (name > a->scr.cols - fixed - 7)
		name = a->scr.cols - fixed - 7;
	if (name < 12)
		name = 12;
	w[T_NAME] = name;
	w[T_BAR] = a->scr.cols - fixed - name - 2;
	if (w[T_BAR] < 0)
		w[T_BAR] = 0;
}

static void tree_bar(struct top_app *a, int y, int x, int width, double fill,
		     bool good)
{
	struct scr *s = &a->scr;
	int n;

	if (width <= 0)
		return;
	if (isnan(fill))
		return;
	scr_fill(s, y, x, width, scr_glyph(s, SCR_G_EMPTY), SCR_NORMAL);
	n = (int)lround((fill > 1 ? 1 : fill < 0 ? 0 : fill) * width);
	scr_fill(s, y, x, n, scr_glyph(s, SCR_G_BLOCK),
		 good ? SCR_GOOD : SCR_BAD);
}

static void tree_line(struct top_app *a, int y, uint32_t pos,
		      const int w[T_COUNT], bool fair_tree)
{
	static const enum prio_sshare_field fields[] = {
	    PRIO_SSHARE_F_RAW_SHARES, PRIO_SSHARE_F_NORM_SHARES,
	    PRIO_SSHARE_F_RAW_USAGE,  PRIO_SSHARE_F_EFFECTV_USAGE,
	    PRIO_SSHARE_F_LEVEL_FS,   PRIO_SSHARE_F_FAIRSHARE};
	const struct prio_top *t = &a->model;
	const struct prio_top_node *node = &t->nodes[t->tree_view[pos]];
	const struct prio_fs_result *r = t->fs ? &t->fs[node->assoc] : NULL;
	const struct prio_assoc *as = &t->snap->assocs[node->assoc];
	const struct prio_column *table = prio_sshare_fields();
	struct prio_field_sel sel[6];
	struct prio_cell cells[6];
	struct prio_sshare_rowbuf rowbuf;
	struct scr *s = &a->scr;
	int x = 0;
	char buf[64];

	/* branches; an account's own mark says whether it is folded */
	uint32_t mark =
	    scr_glyph(s, t->collapsed[node->assoc] ? SCR_G_FOLDED : SCR_G_OPEN);

	for (unsigned d = 1; d < node->depth; d++, x += 4)
		if (!(node->last_mask >> d & 1))
			scr_fill(s, y, x, 1, scr_glyph(s, SCR_G_VLINE),
				 SCR_TREE);
	if (node->depth) {
		scr_fill(s, y, x, 1,
			 scr_glyph(s, node->last_mask >> node->depth & 1
					  ? SCR_G_CORNER
					  : SCR_G_TEE),
			 SCR_TREE);
		scr_fill(s, y, x + 1, 1, scr_glyph(s, SCR_G_HLINE), SCR_TREE);
		scr_fill(s, y, x + 2, 1,
			 node->has_children ? mark : scr_glyph(s, SCR_G_HLINE),
			 SCR_TREE);
		x += 4;
	} else {
		scr_fill(s, y, 0, 1, mark, SCR_TREE);
		x = 2;
	}
	if (x < w[T_NAME])
		scr_text_cut(s, y, x, w[T_NAME] - x,
			     as->is_user ? SCR_NORMAL : SCR_VALUE,
			     label(a, node->assoc), true);
	x = w[T_NAME] + 1;
	if (!r)
		return;
	for (size_t i = 0; i < 6; i++) {
		sel[i].index = fields[i];
		sel[i].col = table[fields[i]];
	}
	prio_sshare_cells(t->snap, t->fs, t->fs_algorithm, NULL, node->assoc, 0,
			  sel, 6, cells, &rowbuf);
	for (int c = T_SHARES; c <= T_RANK; c++) {
		const char *text = buf;

		if (!w[c])
			continue;
		if (c == T_RANK && fair_tree) {
			if (as->is_user)
				snprintf(buf, sizeof(buf), "%u/%u", r->rank,
					 t->snap->user_assoc_count);
			else
				buf[0] = '\0';
		} else {
			text = number(&cells[c - T_SHARES], buf, sizeof(buf));
		}
		scr_text_right(s, y, x, w[c], SCR_NORMAL, text);
		x += w[c] + 1;
	}
	x++;
	if (fair_tree) {
		bool blank =
		    node->assoc == 0 || as->shares_raw == PRIO_FS_USE_PARENT;
		double lf = (double)r->level_fs;

		tree_bar(a, y, x, w[T_BAR],
			 blank	     ? NAN
			 : isinf(lf) ? 1.0
				     : lf / 2,
			 lf >= 1);
	} else if (t->fs_algorithm == PRIO_FS_TICKET) {
		tree_bar(a, y, x, w[T_BAR], r->tickets / PRIO_FS_TICKETS_ROOT,
			 true);
	} else {
		tree_bar(a, y, x, w[T_BAR], r->fairshare, r->fairshare >= 0.5);
	}
	if (pos == a->tree.selected && a->view == TOP_VIEW_TREE)
		scr_paint(s, y, 0, s->cols, SCR_SELECTED, SCR_ROLE_COUNT);
}

void top_tree_draw(struct top_app *a, int y, int height)
{
	const struct prio_top *t = &a->model;
	struct top_panel *p = &a->tree;
	struct scr *s = &a->scr;
	bool fair_tree = t->fs_algorithm == PRIO_FS_FAIR_TREE;
	int w[T_COUNT], x;

	widths(a, w, fair_tree);
	scr_fill(s, y, 0, s->cols, ' ', SCR_TITLE);
	scr_text(s, y, 0, w[T_NAME], SCR_TITLE, tcols[T_NAME].header);
	x = w[T_NAME] + 1;
	for (int c = T_SHARES; c <= T_RANK; c++) {
		const char *h =
		    c == T_RANK && !fair_tree ? "FAIRSHARE" : tcols[c].header;

		if (!w[c])
			continue;
		scr_text_right(s, y, x, w[c], SCR_TITLE, h);
		x += w[c] + 1;
	}
	scr_text(s, y, x + 1, w[T_BAR], SCR_TITLE,
		 fair_tree			     ? "LEVEL FS"
		 : t->fs_algorithm == PRIO_FS_TICKET ? "TICKETS"
						     : "FACTOR");
	p->count = t->ntree_view;
	p->height = height - 1;
	top_panel_fit(p);
	for (int r = 0; r < p->height && p->first + (uint32_t)r < p->count; r++)
		tree_line(a, y + 1 + r, p->first + (uint32_t)r, w, fair_tree);
	if (!p->count && height > 1)
		scr_text(s, y + 1, 1, -1, SCR_NORMAL,
			 "No association tree was loaded.");
}
