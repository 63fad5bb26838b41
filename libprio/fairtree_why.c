/* SPDX-License-Identifier: MIT */
/*
 * "Why does this user have this FairShare?" (prio/fairshare_explain.h).
 *
 * Fair Tree ranks users in one depth-first walk where, at every level,
 * siblings are visited by Level FS descending (users first on ties, then
 * list order; slurm-facts §2).  So a user's rank is decided level by level
 * on the way up: every user below a sibling visited earlier ranks higher.
 * Between two users, only the first common ancestor matters: the Level FS
 * of its two children on the users' paths (the Fair Tree document's manual
 * procedure).  Level FS = S / U, so "used k times its share" is U / S.
 *
 * Classic and DEPTH_OBLIVIOUS factors are 2^(-(UE/SN)/D): the explanation
 * gives UE against SN; ticket-based ones give the tickets.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare_tree.h"
#include "prio/fairshare_explain.h"

int prio_fairshare_why(const struct prio_snapshot *snap,
		       const struct prio_fs_result *res, uint32_t user,
		       uint32_t other, struct prio_why *why,
		       struct prio_error *err)
{
	struct fs_tree t;
	uint32_t *slice;
	int rc;

	memset(why, 0, sizeof(*why));
	why->user = user;
	why->other = other;
	why->common = why->side_user = why->side_other = PRIO_ASSOC_NONE;
	if (user >= snap->assoc_count ||
	    (other != PRIO_ASSOC_NONE && other >= snap->assoc_count))
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "no such association");
	if ((rc = fs_tree_build(snap, &t, err)) < 0)
		return rc;
	if (!(slice = malloc((size_t)t.n * sizeof(*slice)))) {
		fs_tree_free(&t);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t x = user; x != 0 && x != PRIO_ASSOC_NONE &&
				why->nlevels < PRIO_ASSOC_MAX_DEPTH + 2;
	     x = t.fs_parent[x]) {
		struct prio_why_level *l = &why->levels[why->nlevels++];
		uint32_t p = t.fs_parent[x], k = 0, at = 0;

		for (uint32_t c = t.fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t.fs_next[c])
			slice[k++] = c;
		fs_sort_siblings(snap, &t, res, slice, k);
		while (at < k && slice[at] != x)
			at++;
		l->assoc = x;
		l->parent = p;
		l->place = at + 1;
		l->siblings = k;
		for (uint32_t b = at > PRIO_WHY_BEFORE ? at - PRIO_WHY_BEFORE
						       : 0;
		     b < at; b++)
			l->before[l->nbefore++] = slice[b];
	}
	if (other != PRIO_ASSOC_NONE) {
		/* Mark the user's ancestors, then climb from the other user. */
		uint32_t prev = other;

		memset(slice, 0, (size_t)t.n * sizeof(*slice));
		for (uint32_t x = user; x != PRIO_ASSOC_NONE;
		     x = t.fs_parent[x])
			slice[x] = 1;
		for (uint32_t x = other; x != PRIO_ASSOC_NONE;
		     prev = x, x = t.fs_parent[x])
			if (slice[x]) {
				why->common = x;
				why->side_other =
				    x == other ? PRIO_ASSOC_NONE : prev;
				break;
			}
		for (uint32_t x = user; x != PRIO_ASSOC_NONE;
		     x = t.fs_parent[x])
			if (t.fs_parent[x] == why->common)
				why->side_user = x;
	}
	free(slice);
	fs_tree_free(&t);
	return PRIO_OK;
}

/* ---- words -------------------------------------------------------------- */

struct text {
	const struct prio_snapshot *snap;
	const struct prio_fs_result *res;
	FILE *out;
	const char *times; /* "×" or "x" */
};

static const char *name(const struct text *tx, uint32_t i)
{
	const struct prio_assoc *a = &tx->snap->assocs[i];

	return prio_snapshot_str(tx->snap, a->is_user ? a->user : a->account);
}

/* "alice (hep)" for a user, "hep" for an account. */
static void who(const struct text *tx, uint32_t i)
{
	const struct prio_assoc *a = &tx->snap->assocs[i];

	if (a->is_user)
		fprintf(tx->out, "%s (%s)", name(tx, i),
			prio_snapshot_str(tx->snap, a->account));
	else
		fputs(name(tx, i), tx->out);
}

static void level_fs_value(const struct text *tx, uint32_t i)
{
	long double lf = tx->res[i].level_fs;

	if (isinf((double)lf))
		fputs("inf", tx->out);
	else if (lf == PRIO_FS_LEVEL_FS_PARENT_ACCOUNT)
		fputs("NO_VAL", tx->out);
	else
		fprintf(tx->out, "%.3f", (double)lf);
}

static const char *place_suffix(uint32_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1   ? "st"
	       : n % 10 == 2 ? "nd"
	       : n % 10 == 3 ? "rd"
			     : "th";
}

/* "; used 2.5× its share" (or why there is no such ratio). */
static void share_used(const struct text *tx, uint32_t i, bool named)
{
	const struct prio_fs_result *r = &tx->res[i];
	double s = r->norm_shares, u = (double)r->usage_efctv;

	fprintf(tx->out, "; %s%s", named ? name(tx, i) : "", named ? " " : "");
	if (s == 0)
		fputs(named ? "has no shares" : "no shares", tx->out);
	else if (u == 0)
		fputs(named ? "has no usage" : "no usage", tx->out);
	else
		fprintf(tx->out, "used %.*f%s its share", u / s < 0.1 ? 2 : 1,
			u / s, tx->times);
}

/* "0.403 (shares 0.244, usage 0.605[; used 2.5× its share])". */
static void level_fs_detail(const struct text *tx, uint32_t i, bool ratio)
{
	const struct prio_fs_result *r = &tx->res[i];

	level_fs_value(tx, i);
	if (tx->snap->assocs[i].shares_raw == PRIO_FS_USE_PARENT) {
		fputs(" (Fairshare=parent: counted as infinite)", tx->out);
		return;
	}
	fprintf(tx->out, " (shares %.3f, usage %.3f", r->norm_shares,
		(double)r->usage_efctv);
	if (ratio)
		share_used(tx, i, false);
	fputc(')', tx->out);
}

static void rank_words(const struct text *tx, uint32_t i)
{
	fprintf(tx->out, "%u/%u", tx->res[i].rank, tx->snap->user_assoc_count);
}

static void fair_tree_path(const struct text *tx, const struct prio_why *why)
{
	uint32_t u = why->user;

	who(tx, u);
	fprintf(
	    tx->out,
	    " has FairShare %f: rank %u of %u user associations (Fair Tree "
	    "counts from the bottom: rank %u is served first).\n",
	    tx->res[u].fairshare, tx->res[u].rank, tx->snap->user_assoc_count,
	    tx->snap->user_assoc_count);
	for (uint32_t k = 0; k < why->nlevels; k++) {
		const struct prio_why_level *l = &why->levels[k];

		fprintf(tx->out, "under %s, %s comes %u%s of %u with Level FS ",
			name(tx, l->parent), name(tx, l->assoc), l->place,
			place_suffix(l->place), l->siblings);
		level_fs_detail(tx, l->assoc, true);
		if (l->nbefore) {
			fputs(l->place - 1 > l->nbefore ? "; just after "
							: "; after ",
			      tx->out);
			for (uint32_t b = 0; b < l->nbefore; b++) {
				fprintf(tx->out, "%s%s ", b ? ", " : "",
					name(tx, l->before[b]));
				level_fs_value(tx, l->before[b]);
			}
			if (tx->res[l->before[l->nbefore - 1]].level_fs ==
			    tx->res[l->assoc].level_fs)
				fputs(tx->snap->assocs[l->assoc].is_user
					  ? " (tied: visited in list order)"
					  : " (tied: an account comes after "
					    "the users it ties with)",
				      tx->out);
		}
		fputs(".\n", tx->out);
	}
	fputs("Every user below a branch visited earlier at some level ranks "
	      "higher; "
	      "tied users share a rank.\n",
	      tx->out);
}

static void fair_tree_vs(const struct text *tx, const struct prio_why *why)
{
	uint32_t u = why->user, o = why->other, su = why->side_user,
		 so = why->side_other;
	const struct prio_fs_result *r = tx->res;

	who(tx, u);
	fputs(" ranks ", tx->out);
	rank_words(tx, u);
	fputs(r[u].rank == r[o].rank  ? ", tied with "
	      : r[u].rank < r[o].rank ? " below "
				      : " above ",
	      tx->out);
	who(tx, o);
	fputs(" (", tx->out);
	rank_words(tx, o);
	fputs(")", tx->out);
	if (u == o) {
		fputs(": the same association.\n", tx->out);
		return;
	}
	if (so == PRIO_ASSOC_NONE || su == PRIO_ASSOC_NONE) {
		fputs(".\n", tx->out);
		return;
	}
	/* The branch visited first is named first. */
	if (r[u].rank > r[o].rank) {
		uint32_t x = su;

		su = so;
		so = x;
	}
	fprintf(tx->out, ": under %s, %s has Level FS ", name(tx, why->common),
		name(tx, so));
	level_fs_detail(tx, so, false);
	fprintf(tx->out, " and %s ", name(tx, su));
	level_fs_detail(tx, su, false);
	if (r[su].level_fs == r[so].level_fs) {
		fputs("; equal Level FS", tx->out);
		if (tx->snap->assocs[su].is_user !=
		    tx->snap->assocs[so].is_user)
			fputs(", and users come before accounts", tx->out);
		else if (r[u].rank != r[o].rank)
			fputs(", visited in list order", tx->out);
		fputs(".\n", tx->out);
		return;
	}
	if (tx->snap->assocs[su].shares_raw != PRIO_FS_USE_PARENT)
		share_used(tx, su, true);
	fputs(".\n", tx->out);
}

/* Classic / DEPTH_OBLIVIOUS: F = 2^(-(UE/SN)/D). */
static void classic_one(const struct text *tx, uint32_t i)
{
	const struct prio_fs_result *r = &tx->res[i];
	double ue = (double)r->usage_efctv, sn = r->norm_shares;

	who(tx, i);
	fprintf(tx->out, " has FairShare %f", r->fairshare);
	if (sn <= 0)
		fputs(": no normalised shares.\n", tx->out);
	else
		fprintf(tx->out,
			" = 2^(-(UE/SN)/D): effective usage %f is %.2f%s its "
			"normalised "
			"shares %f.\n",
			ue, ue / sn, tx->times, sn);
}

static void classic_path(const struct text *tx, const struct prio_why *why)
{
	classic_one(tx, why->user);
	for (uint32_t k = 0; k < why->nlevels; k++) {
		const struct prio_why_level *l = &why->levels[k];
		const struct prio_fs_result *r = &tx->res[l->assoc];
		const struct prio_assoc *a = &tx->snap->assocs[l->assoc];

		fprintf(tx->out, "under %s, %s: ", name(tx, l->parent),
			name(tx, l->assoc));
		if (a->shares_raw == PRIO_FS_USE_PARENT)
			fputs("Fairshare=parent, so the values of its parent;",
			      tx->out);
		else
			fprintf(tx->out, "shares %u of %u at this level,",
				fs_shares_of(a), r->level_shares);
		fprintf(tx->out,
			" normalised shares %f, usage %f of the cluster, "
			"effective usage %f.\n",
			r->norm_shares, r->usage_norm, (double)r->usage_efctv);
	}
}

static void ticket_one(const struct text *tx, uint32_t i)
{
	who(tx, i);
	if (!tx->res[i].active)
		fputs(" has no pending job: no tickets, FairShare 0.\n",
		      tx->out);
	else
		fprintf(tx->out, " has FairShare %f: %.1f tickets.\n",
			tx->res[i].fairshare, tx->res[i].tickets);
}

char *prio_fairshare_why_text(const struct prio_snapshot *snap,
			      enum prio_fs_algorithm algorithm,
			      const struct prio_fs_result *res,
			      const struct prio_why *why, bool utf8)
{
	struct text tx = {snap, res, NULL, utf8 ? "\u00d7" : "x"};
	char *buf = NULL;
	size_t len = 0;

	if (!(tx.out = open_memstream(&buf, &len)))
		return NULL;
	switch (algorithm) {
	case PRIO_FS_FAIR_TREE:
		if (why->other != PRIO_ASSOC_NONE)
			fair_tree_vs(&tx, why);
		else
			fair_tree_path(&tx, why);
		break;
	case PRIO_FS_CLASSIC:
	case PRIO_FS_DEPTH_OBLIVIOUS:
		if (why->other == PRIO_ASSOC_NONE) {
			classic_path(&tx, why);
			break;
		}
		classic_one(&tx, why->user);
		classic_one(&tx, why->other);
		fprintf(tx.out,
			"The one whose effective usage is the smaller multiple "
			"of its "
			"normalised shares ranks higher%s.\n",
			res[why->user].fairshare == res[why->other].fairshare
			    ? " (here: equal)"
			    : "");
		break;
	case PRIO_FS_TICKET:
		ticket_one(&tx, why->user);
		if (why->other != PRIO_ASSOC_NONE)
			ticket_one(&tx, why->other);
		break;
	}
	if (fclose(tx.out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
