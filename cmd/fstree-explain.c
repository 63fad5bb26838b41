/* SPDX-License-Identifier: MIT */
/*
 * fstree-show --why USER [--vs USER2] and --when USER --fairshare F |
 * --level-fs X: the explanations of prio/fairshare_explain.h in words.
 * --account picks one of a user's associations (a user in two accounts has
 * one fairshare per association).
 */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstree.h"
#include "prio/fairshare_explain.h"

/* "×" only where the locale can show it. */
static bool utf8_locale(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Depth of association i in the tree (root 0), as --tree counts it. */
static unsigned depth_of(const struct fstree *f, uint32_t i)
{
	unsigned d = 0;

	while (f->snap.assocs[i].parent != PRIO_ASSOC_NONE && d <= PRIO_ASSOC_MAX_DEPTH) {
		i = f->snap.assocs[i].parent;
		d++;
	}
	return d;
}

/* --why --json: each level of the walk the text describes, the user's and
 * (--vs) the other's: which user it explains, the level (0: the user's own
 * association, then each fairshare ancestor below root), the association
 * as --tree gives it, and its place among its siblings in Fair Tree's
 * visit order with the siblings visited just before it. */
static int why_table(struct fstree *f, uint32_t u, uint32_t o)
{
	enum { W_SUBJECT, W_LEVEL, W_NODE, W_PLACE = W_NODE + FSTREE_NODE_COLS, W_SIBLINGS,
	       W_BEFORE, W_COUNT };
	struct prio_column cols[W_COUNT] = {
	    [W_SUBJECT] = {.id = "subject", .header = "Subject"},
	    [W_LEVEL] = {.id = "level", .header = "Level"},
	    [W_PLACE] = {.id = "place", .header = "Place"},
	    [W_SIBLINGS] = {.id = "siblings", .header = "Siblings"},
	    [W_BEFORE] = {.id = "before", .header = "Before"},
	};
	struct prio_writer *w;
	struct prio_error err;

	memcpy(cols + W_NODE, fstree_node_cols, sizeof(fstree_node_cols));
	w = prio_writer_new(stdout, PRIO_OUT_JSON, PRIO_STYLE_SSHARE, cols, W_COUNT, false,
			    NULL);
	if (!w)
		cmd_die(&f->c, "out of memory");
	prio_error_clear(&err);
	for (int side = 0; side < 2; side++) {
		uint32_t who = side ? o : u;
		const struct prio_assoc *ua = &f->snap.assocs[who];
		struct prio_why why;

		if (who == PRIO_ASSOC_NONE)
			break;
		if (prio_fairshare_why(&f->snap, f->res, who, PRIO_ASSOC_NONE, &why, &err) < 0)
			cmd_die_error(&f->c, &err);
		for (uint32_t l = 0; l < why.nlevels; l++) {
			const struct prio_why_level *lv = &why.levels[l];
			struct prio_cell c[W_COUNT];
			char before[1024];
			size_t n = 0;

			before[0] = '\0';
			for (uint32_t k = 0; k < lv->nbefore && n < sizeof(before); k++) {
				const struct prio_assoc *b = &f->snap.assocs[lv->before[k]];
				int m = snprintf(before + n, sizeof(before) - n, "%s%s", k ? "," : "",
						 prio_snapshot_str(&f->snap,
								   b->is_user ? b->user : b->account));

				if (m < 0)
					break;
				n += (size_t)m;
			}
			c[W_SUBJECT] = prio_cell_str(prio_snapshot_str(&f->snap, ua->user));
			c[W_LEVEL] = prio_cell_uint(l);
			fstree_node_cells(f, lv->assoc, depth_of(f, lv->assoc), c + W_NODE);
			c[W_PLACE] = prio_cell_uint(lv->place);
			c[W_SIBLINGS] = prio_cell_uint(lv->siblings);
			c[W_BEFORE] = prio_cell_str(before);
			if (prio_writer_row(w, c) < 0)
				cmd_die_write(&f->c);
		}
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(&f->c);
	return EXIT_OK;
}

int fstree_why(struct fstree *f, const char *user, const char *vs)
{
	struct prio_why why;
	struct prio_error err;
	uint32_t u = fstree_find_user(f, user, f->account, "--why");
	uint32_t o = PRIO_ASSOC_NONE;
	char *text;

	prio_error_clear(&err);
	if (vs) {
		/* USER or ACCOUNT/USER */
		const char *slash = strchr(vs, '/');
		char acct[256];

		if (slash && (size_t)(slash - vs) < sizeof(acct)) {
			snprintf(acct, sizeof(acct), "%.*s", (int)(slash - vs),
				 vs);
			o = fstree_find_user(f, slash + 1, acct, "--vs");
		} else {
			o = fstree_find_user(f, vs, NULL, "--vs");
		}
	}
	if (f->c.mode == CMD_OUT_JSON)
		return why_table(f, u, o);
	if (prio_fairshare_why(&f->snap, f->res, u, o, &why, &err) < 0)
		cmd_die_error(&f->c, &err);
	if (!(text = prio_fairshare_why_text(&f->snap, f->algorithm, f->res,
					     &why, utf8_locale())))
		cmd_die(&f->c, "out of memory");
	cmd_put_wrapped(text, cmd_text_width());
	free(text);
	return EXIT_OK;
}

/* "1:15:00" or "2-03:00:00" from now to t. */
static const char *span(time_t from, time_t to, char *buf, size_t size)
{
	return prio_secs2time_str((int64_t)(to - from), buf, size);
}

/* A time as the text prints it, or null where there is none. */
static struct prio_cell time_cell(time_t t, bool set, char *buf, size_t size)
{
	return set ? prio_cell_str(prio_timestamp_format(t, buf, size)) : prio_cell_blank();
}

/* -P, --csv, --json: the answer as one row (what the sentence says, each
 * value in its own key; null where the sentence has no such part). */
static int when_table(struct fstree *f, const char *user, const struct prio_assoc *a,
		      bool level_fs, double target, time_t from, const struct prio_when *w)
{
	static const struct prio_column cols[] = {
	    {.id = "user", .header = "User"},
	    {.id = "account", .header = "Account"},
	    {.id = "factor", .header = "Factor"},
	    {.id = "target", .header = "Target"},
	    {.id = "from", .header = "From"},
	    {.id = "value_now", .header = "Now"},
	    {.id = "reached", .header = "Reached"},
	    {.id = "at", .header = "At"},
	    {.id = "in_seconds", .header = "In"},
	    {.id = "value_at", .header = "ValueAt"},
	    {.id = "best", .header = "Best"},
	    {.id = "best_at", .header = "BestAt"},
	    {.id = "settled", .header = "Settled"},
	};
	char t[4][32];
	bool never = !w->already && !w->reached, moves = never && w->settled > from;
	struct prio_cell c[] = {
	    prio_cell_str(user),
	    prio_cell_str(prio_snapshot_str(&f->snap, a->account)),
	    prio_cell_str(level_fs ? "level_fs" : "fairshare"),
	    prio_cell_double(target),
	    time_cell(from, true, t[0], sizeof(t[0])),
	    prio_cell_double(w->value_now),
	    prio_cell_bool(w->already || w->reached),
	    w->already ? time_cell(from, true, t[1], sizeof(t[1]))
		       : time_cell(w->at, w->reached, t[1], sizeof(t[1])),
	    w->already	  ? prio_cell_uint(0)
	    : w->reached ? prio_cell_int((int64_t)(w->at - from))
			 : prio_cell_blank(),
	    w->already	  ? prio_cell_double(w->value_now)
	    : w->reached ? prio_cell_double(w->value_at)
			 : prio_cell_blank(),
	    moves ? prio_cell_double(w->best) : prio_cell_blank(),
	    time_cell(w->best_at, moves, t[2], sizeof(t[2])),
	    time_cell(w->settled, moves, t[3], sizeof(t[3])),
	};
	struct prio_writer *wr = prio_writer_new(stdout, cmd_writer_mode(f->c.mode),
						 PRIO_STYLE_SSHARE, cols,
						 sizeof(cols) / sizeof(cols[0]),
						 !f->c.noheader, NULL);

	if (!wr)
		cmd_die(&f->c, "out of memory");
	if (prio_writer_row(wr, c) < 0 || prio_writer_finish(wr) < 0)
		cmd_die_write(&f->c);
	return never ? EXIT_NO : EXIT_OK;
}

int fstree_when(struct fstree *f, const char *user, bool level_fs,
		double target)
{
	struct prio_when w;
	struct prio_error err;
	uint32_t u = fstree_find_user(f, user, f->account, "--when");
	const struct prio_assoc *a = &f->snap.assocs[u];
	const char *what = level_fs ? "Level FS" : "FairShare";
	char t1[64], t2[64];

	prio_error_clear(&err);
	/* Each step recomputes the whole tree: fewer steps on big trees
	 * (about 2e7 association updates in all). */
	uint32_t steps =
	    f->snap.assoc_count > 10000 ? 20000000 / f->snap.assoc_count : 2000;

	struct prio_fs_setup setup = fstree_setup(f);

	/* Slurm's numbers change at its calculations: step from its last
	 * one, found from the stored job priorities as prio-calc finds it
	 * (fstree_set_usage dated the usage to it), unless a clock was
	 * given (--now, --at). */
	if (!f->c.now_set && f->at == f->snap.now && f->calc_at)
		setup.cycle = f->calc_at;
	if (prio_fairshare_when(
		&f->snap, &setup, u,
		level_fs ? PRIO_WHEN_LEVEL_FS : PRIO_WHEN_FAIRSHARE, target,
		f->no_run, steps < 100 ? 100 : steps, &w, &err) < 0)
		cmd_die_error(&f->c, &err);
	if (f->c.mode != CMD_OUT_TEXT)
		return when_table(f, user, a, level_fs, target, setup.cycle, &w);
	printf("%s (%s) ", user, prio_snapshot_str(&f->snap, a->account));
	if (w.already) {
		printf("already has %s %f >= %g now (%s).\n", what, w.value_now,
		       target,
		       prio_timestamp_format(setup.cycle, t1, sizeof(t1)));
		return EXIT_OK;
	}
	if (w.reached) {
		printf("reaches %s %f >= %g at %s (in %s), with no new jobs.\n",
		       what, w.value_at, target,
		       prio_timestamp_format(w.at, t1, sizeof(t1)),
		       span(setup.cycle, w.at, t2, sizeof(t2)));
		return EXIT_OK;
	}
	printf("never reaches %s %g with no new jobs: it has %f now", what,
	       target, w.value_now);
	if (w.settled > setup.cycle)
		printf(", at most %f (at %s), and nothing changes after the "
		       "last running job "
		       "ends at %s",
		       w.best, prio_timestamp_format(w.best_at, t1, sizeof(t1)),
		       prio_timestamp_format(w.settled, t2, sizeof(t2)));
	printf(".\nDecay scales every association's usage alike, so only "
	       "running jobs move "
	       "the ratios%s.\n",
	       f->no_run ? " (and --no-run stops them now)" : "");
	return EXIT_NO;
}
