/* SPDX-License-Identifier: MIT */
/*
 * fstree-show --history DIR -u USER: one user's fairshare over a series of
 * snapshots (prio-snap --every), one row per snapshot, each computed at its
 * own NOW as fstree-show computes that snapshot alone, and a chart of
 * FairShare (and, under Fair Tree, Level FS) over time.
 *
 * Rank is Fair Tree's (fstree-show --why, --tree): r of N user
 * associations, FairShare = r/N, rank N served first.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fstree.h"
#include "history.h"

/* The sshare columns of a row, printed as fstree-show prints them. */
#define SSHARE_LIST "User,Account,RawUsage,EffectvUsage,FairShare,LevelFS"
enum { NSSHARE = 6, NCOLS = NSSHARE + 5 };

/* The user's association in the loaded snapshot: its index, or
 * PRIO_ASSOC_NONE when the snapshot has none (several: the command stops
 * as --why does, naming them). */
static uint32_t find_user(struct fstree *f, const char *user)
{
	const struct prio_snapshot *s = &f->snap;
	uint32_t found = PRIO_ASSOC_NONE, count = 0;

	for (uint32_t i = 0; i < s->assoc_count; i++) {
		const struct prio_assoc *a = &s->assocs[i];

		if (!a->is_user ||
		    strcmp(prio_snapshot_str(s, a->user), user) != 0 ||
		    (f->account &&
		     strcasecmp(prio_snapshot_str(s, a->account), f->account)))
			continue;
		found = i;
		count++;
	}
	if (count > 1)
		return fstree_find_user(f, user, f->account, "--history");
	return found;
}

int fstree_history(struct fstree *f, const char *dir, const char *user,
		   bool algorithm_set, int view, bool ascii,
		   const char *usage)
{
	static const struct prio_column head[] = {
	    {"time", "Time", 20, false, PRIO_NUMFMT_PF, NULL},
	    {"now", "NOW", 10, true, PRIO_NUMFMT_PF, NULL},
	};
	static const struct prio_column tail[] = {
	    {"rank", "Rank", 5, true, PRIO_NUMFMT_PF, NULL},
	    {"rank_of", "Of", 5, true, PRIO_NUMFMT_PF, NULL},
	    {"note", "Note", 0, false, PRIO_NUMFMT_PF, NULL},
	};
	struct prio_field_sel sel[NSSHARE];
	struct prio_column cols[NCOLS];
	struct prio_cell *rows, *cells;
	struct prio_sshare_rowbuf buf;
	struct prio_sshare_tres tres = {0};
	struct cmd_history h;
	struct prio_writer *w = NULL;
	double *fs, *lfs;
	char why[256], when[32], title[512];
	bool table, chart, fair_tree_all = true;
	size_t nsel, found = 0;
	int rc = EXIT_OK;

	cmd_history_view(&f->c, usage, (enum cmd_history_view)view, &table,
			 &chart);
	if (prio_fieldlist_parse(SSHARE_LIST, prio_sshare_fields(),
				 PRIO_SSHARE_F_COUNT, sel, NSSHARE, &nsel, why,
				 sizeof(why)) < 0 ||
	    nsel != NSSHARE)
		cmd_die(&f->c, "internal: %s", why);
	cols[0] = head[0];
	cols[1] = head[1];
	for (size_t k = 0; k < nsel; k++)
		cols[2 + k] = sel[k].col;
	for (size_t k = 0; k < 3; k++)
		cols[2 + nsel + k] = tail[k];
	cmd_history_list(&f->c, dir, &h);
	fs = malloc(h.count * sizeof(*fs));
	lfs = malloc(h.count * sizeof(*lfs));
	/* every snapshot is read before a line is printed: a broken one
	 * or an ambiguous user stops the command with nothing on stdout */
	rows = calloc(h.count * NCOLS, sizeof(*rows));
	if (!fs || !lfs || !rows)
		cmd_die(&f->c, "out of memory");
	for (size_t i = 0; i < h.count; i++) {
		uint32_t a;

		cells = rows + i * NCOLS;

		cmd_load_snapshot_dir(&f->c, h.dirs[i], &f->snap);
		cmd_partial(&f->c, &f->snap, PRIO_NEEDS_FAIRSHARE,
			    "--history: fair-share", true);
		f->at = f->snap.now;
		h.nows[i] = f->snap.now;
		if (!algorithm_set)
			f->algorithm =
			    prio_fs_algorithm_of(f->snap.conf.priority_flags);
		fair_tree_all =
		    fair_tree_all && f->algorithm == PRIO_FS_FAIR_TREE;
		fstree_set_usage(f, false);
		free(f->res);
		f->res = NULL;
		fstree_compute(f);
		a = find_user(f, user);
		cells[0] = prio_cell_str(
		    cmd_history_time(f->snap.now, when, sizeof(when)));
		cells[1] = prio_cell_int((int64_t)f->snap.now);
		if (a == PRIO_ASSOC_NONE) {
			for (size_t k = 0; k < nsel; k++)
				cells[2 + k] = prio_cell_blank();
			cells[2] = prio_cell_str(user);
			if (f->account)
				cells[3] = prio_cell_str(f->account);
			cells[2 + nsel] = prio_cell_blank();
			cells[3 + nsel] = prio_cell_blank();
			cells[4 + nsel] = prio_cell_str("not in this snapshot");
			fs[i] = lfs[i] = NAN;
		} else {
			const struct prio_fs_result *r = &f->res[a];

			found++;
			prio_sshare_cells(&f->snap, f->res, f->algorithm, &tres,
					  a, 0, sel, nsel, cells + 2, &buf);
			if (f->algorithm == PRIO_FS_FAIR_TREE && r->rank) {
				cells[2 + nsel] = prio_cell_uint(r->rank);
				cells[3 + nsel] = prio_cell_uint(
				    f->snap.user_assoc_count);
			} else {
				cells[2 + nsel] = prio_cell_blank();
				cells[3 + nsel] = prio_cell_blank();
			}
			cells[4 + nsel] = prio_cell_blank();
			fs[i] = r->fairshare;
			lfs[i] = (double)r->level_fs;
		}
		cmd_history_keep_cells(&f->c, cells, NCOLS);
		free(f->res);
		f->res = NULL;
		prio_fs_lag_free(&f->lag);
		prio_snapshot_free(&f->snap);
	}
	if (!found) {
		/* nothing to show: the same answer as --why for a user the
		 * tree does not hold, over the whole series */
		if (f->account)
			cmd_die(&f->c,
				"--history %s: no association of user %s "
				"under account %s in any of the %zu snapshots",
				user, user, f->account, h.count);
		cmd_die(&f->c,
			"--history %s: no such user in any of the %zu "
			"snapshots",
			user, h.count);
	}
	if (table) {
		w = prio_writer_new(stdout, cmd_writer_mode(f->c.mode),
				    PRIO_STYLE_SSHARE, cols, NCOLS,
				    !f->c.noheader, NULL);
		if (!w)
			cmd_die(&f->c, "cannot start the table: %s",
				strerror(errno));
		for (size_t i = 0; i < h.count; i++)
			if (prio_writer_row(w, rows + i * NCOLS) < 0)
				cmd_die_write(&f->c);
		if (prio_writer_finish(w) < 0)
			cmd_die_write(&f->c);
	}
	if (chart) {
		if (table)
			putchar('\n');
		snprintf(title, sizeof(title),
			 "FairShare of %s%s%s%s, %zu snapshots", user,
			 f->account ? " (" : "", f->account ? f->account : "",
			 f->account ? ")" : "", h.count);
		cmd_history_chart(&f->c, title, h.nows, fs, h.count, 0, 1,
				  ascii);
		if (fair_tree_all) {
			snprintf(title, sizeof(title), "\nLevel FS of %s%s%s%s",
				 user, f->account ? " (" : "",
				 f->account ? f->account : "",
				 f->account ? ")" : "");
			cmd_history_chart(&f->c, title, h.nows, lfs, h.count,
					  NAN, NAN, ascii);
		}
	}
	cmd_history_free_cells(rows, h.count * NCOLS);
	free(fs);
	free(lfs);
	cmd_history_free(&h);
	return rc;
}
