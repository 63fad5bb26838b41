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
#include "prio/calc_time.h"
#include "prio/fairshare_explain.h"

/* "×" only where the locale can show it. */
static bool utf8_locale(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
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
	 * one, found from the stored job priorities as prio-calc finds it,
	 * unless a clock was given (--now, --at). */
	if (!f->c.now_set && f->at == f->snap.now) {
		struct prio_calc_time ct;

		if (prio_calc_time_find_snapshot(&f->snap, &ct, &err) < 0)
			cmd_die_error(&f->c, &err);
		if (ct.status == PRIO_CALC_TIME_FOUND)
			setup.cycle = ct.at;
		prio_calc_time_free(&ct);
	}
	if (prio_fairshare_when(
		&f->snap, &setup, u,
		level_fs ? PRIO_WHEN_LEVEL_FS : PRIO_WHEN_FAIRSHARE, target,
		f->no_run, steps < 100 ? 100 : steps, &w, &err) < 0)
		cmd_die_error(&f->c, &err);
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
