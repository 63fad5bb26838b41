/* SPDX-License-Identifier: MIT */
/*
 * Fairshare over the association tree, as Slurm 22.05 computes it
 * (slurm-facts §2 Fair Tree, §3 classic and DEPTH_OBLIVIOUS).
 *
 * Both algorithms work on the *fairshare tree*: an association whose direct
 * parent has Fairshare=parent hangs from the first ancestor that does not,
 * and a Fairshare=parent account keeps no children of its own there.
 *
 * Fair Tree: S = shares / sum of fs-sibling shares, U = usage / fs-parent
 * usage, Level FS = S / U (S = 0 gives 0, U = 0 gives infinity, a parent
 * user infinity, a parent account NO_VAL).  Siblings are visited by Level FS
 * descending, users before accounts on equal values; users take competition
 * ranks counting down from N (the number of user associations) and their
 * factor is rank / N.  Tied sibling accounts are walked one after the other
 * (never merged, unlike the Fair Tree document says); the second one starts
 * "tied", so its first user repeats the rank last given.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prio/fairshare.h"
#include "prio/timestr.h"

enum prio_fs_algorithm prio_fs_algorithm_of(uint32_t flags)
{
	if (flags & PRIO_FLAG_TICKET_BASED)
		return PRIO_FS_TICKET;
	if (flags & PRIO_FLAG_DEPTH_OBLIVIOUS)
		return PRIO_FS_DEPTH_OBLIVIOUS;
	if (flags & PRIO_FLAG_FAIR_TREE)
		return PRIO_FS_FAIR_TREE;
	return PRIO_FS_CLASSIC;
}

/* Working state shared by the passes. */
struct fs_work {
	const struct prio_snapshot *snap;
	struct prio_fs_result *out;
	uint32_t n;
	uint32_t *order;      /* pre-order of the direct tree */
	uint32_t *fs_first;   /* first fs-child, PRIO_ASSOC_NONE */
	uint32_t *fs_next;    /* next fs-sibling */
	uint32_t *scratch;    /* sibling slices for ranking */
	uint32_t *pos;        /* position in the pre-order, for stable ties */
	uint32_t rank, rnt, users;
};

static bool is_parent_shares(const struct prio_assoc *a)
{
	return a->shares_raw == PRIO_FS_USE_PARENT;
}

/* Shares as Slurm holds them: an unset value on a non-root row is 1, the
 * database default. */
static uint32_t shares_of(const struct prio_assoc *a)
{
	return a->shares_raw == PRIO_NO_VAL ? 1 : a->shares_raw;
}

/* Pre-order of the direct tree (parents before children, siblings in the
 * loaded order), without recursion. */
static int preorder(struct fs_work *w, struct prio_error *err)
{
	const struct prio_assoc *as = w->snap->assocs;
	uint32_t *stack = malloc((size_t)w->n * sizeof(*stack));
	uint32_t top = 0, k = 0;

	if (!stack)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
	stack[top++] = 0;
	while (top) {
		uint32_t i = stack[--top], c, cnt = 0;

		if (k >= w->n)
			break; /* a cycle: cannot happen with a well-formed tree */
		w->pos[i] = k;
		w->order[k++] = i;
		/* Push children in reverse so the first child pops first. */
		for (c = as[i].first_child; c != PRIO_ASSOC_NONE && cnt <= w->n;
		     c = as[c].next_sibling)
			cnt++;
		if (top + cnt > w->n) {
			free(stack);
			return prio_error_set(err, PRIO_ERR_PARSE, as[i].file, as[i].line,
					      "Account", "association tree is not a tree");
		}
		top += cnt;
		{
			uint32_t slot = top;

			for (c = as[i].first_child; c != PRIO_ASSOC_NONE;
			     c = as[c].next_sibling)
				stack[--slot] = c;
		}
	}
	free(stack);
	if (k != w->n)
		return prio_error_set(err, PRIO_ERR_PARSE, "", 0, "Account",
				      "%u associations are not reachable from root",
				      w->n - k);
	return PRIO_OK;
}

/* Link each association under its fairshare parent, keeping pre-order. */
static void build_fs_tree(struct fs_work *w)
{
	const struct prio_assoc *as = w->snap->assocs;
	uint32_t *last = w->scratch; /* last fs-child appended, per parent */

	for (uint32_t i = 0; i < w->n; i++) {
		w->fs_first[i] = w->fs_next[i] = PRIO_ASSOC_NONE;
		last[i] = PRIO_ASSOC_NONE;
	}
	w->out[0].fs_parent = PRIO_ASSOC_NONE;
	for (uint32_t k = 1; k < w->n; k++) {
		uint32_t i = w->order[k], p = as[i].parent;

		while (p != 0 && is_parent_shares(&as[p]))
			p = as[p].parent;
		w->out[i].fs_parent = p;
		if (last[p] == PRIO_ASSOC_NONE)
			w->fs_first[p] = i;
		else
			w->fs_next[last[p]] = i;
		last[p] = i;
	}
}

/* Shares and usage common to all algorithms. */
static void shares_and_usage(struct fs_work *w)
{
	const struct prio_assoc *as = w->snap->assocs;
	long double root_usage = as[0].usage_raw;

	for (uint32_t p = 0; p < w->n; p++) {
		uint64_t sum = 0;

		for (uint32_t c = w->fs_first[p]; c != PRIO_ASSOC_NONE; c = w->fs_next[c])
			if (!is_parent_shares(&as[c]))
				sum += shares_of(&as[c]);
		for (uint32_t c = w->fs_first[p]; c != PRIO_ASSOC_NONE; c = w->fs_next[c])
			w->out[c].level_shares = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	}
	w->out[0].level_shares = PRIO_NO_VAL; /* never set for root */
	for (uint32_t i = 0; i < w->n; i++) {
		if (i == 0)
			w->out[i].usage_norm = NAN;
		else if (root_usage > 0) {
			long double un = as[i].usage_raw / root_usage;
			w->out[i].usage_norm = un > 1.0L ? 1.0 : (double)un;
		} else
			w->out[i].usage_norm = 0.0;
	}
}

/* ---- Fair Tree ------------------------------------------------------- */

static void fair_tree_values(struct fs_work *w)
{
	const struct prio_assoc *as = w->snap->assocs;

	/* Pre-order: an fs-parent is always computed before its children. */
	for (uint32_t k = 0; k < w->n; k++) {
		uint32_t i = w->order[k], p = w->out[i].fs_parent;
		struct prio_fs_result *r = &w->out[i];

		r->fairshare = NAN;
		r->rank = 0;
		if (i == 0) {
			r->norm_shares = (double)shares_of(&as[0]) / (double)PRIO_NO_VAL;
			r->usage_efctv = 1.0L;
			r->level_fs = PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
			continue;
		}
		if (is_parent_shares(&as[i]))
			r->norm_shares = w->out[p].norm_shares;
		else if (r->level_shares == 0)
			r->norm_shares = 0.0;
		else
			r->norm_shares = (double)as[i].shares_raw / (double)r->level_shares;
		r->usage_efctv = as[p].usage_raw > 0 ? as[i].usage_raw / as[p].usage_raw : 0.0L;
		if (is_parent_shares(&as[i]))
			r->level_fs = as[i].is_user ? INFINITY : PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
		else if (r->norm_shares == 0.0)
			r->level_fs = 0.0L;
		else if (r->usage_efctv == 0.0L)
			r->level_fs = INFINITY;
		else
			r->level_fs = (long double)r->norm_shares / r->usage_efctv;
	}
}

/* Level FS descending; users before accounts; then tree order (stable). */
static int cmp_siblings(const void *pa, const void *pb, void *ctx)
{
	const struct fs_work *w = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct prio_fs_result *ra = &w->out[a], *rb = &w->out[b];
	const struct prio_assoc *as = w->snap->assocs;

	if (ra->level_fs != rb->level_fs)
		return ra->level_fs > rb->level_fs ? -1 : 1;
	if (as[a].is_user != as[b].is_user)
		return as[a].is_user ? -1 : 1;
	/* Equal values of one kind: keep the tree's order (sshare's order). */
	return w->pos[a] < w->pos[b] ? -1 : w->pos[a] > w->pos[b];
}

static void rank_level(struct fs_work *w, uint32_t parent, uint32_t *slice,
		       bool account_tied, unsigned depth)
{
	const struct prio_assoc *as = w->snap->assocs;
	long double prev = PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
	uint32_t k = 0;

	for (uint32_t c = w->fs_first[parent]; c != PRIO_ASSOC_NONE; c = w->fs_next[c])
		slice[k++] = c;
	if (k == 0 || depth > PRIO_ASSOC_MAX_DEPTH + 1)
		return;
	qsort_r(slice, k, sizeof(*slice), cmp_siblings, w);
	for (uint32_t s = 0; s < k; s++) {
		uint32_t i = slice[s];
		long double lf = w->out[i].level_fs;
		bool tied = (s == 0 && account_tied) || lf == prev;

		if (as[i].is_user) {
			if (!tied)
				w->rank = w->rnt;
			w->out[i].rank = w->rank;
			w->out[i].fairshare = (double)w->rank / (double)w->users;
			w->rnt--;
		} else {
			rank_level(w, i, slice + k, tied, depth + 1);
		}
		prev = lf;
	}
}

/* ---- classic and DEPTH_OBLIVIOUS ------------------------------------- */

static void classic_values(struct fs_work *w, bool depth_oblivious)
{
	const struct prio_assoc *as = w->snap->assocs;
	uint16_t damp = w->snap->conf.dampening_factor ? w->snap->conf.dampening_factor : 1;

	for (uint32_t k = 0; k < w->n; k++) {
		uint32_t i = w->order[k], p = w->out[i].fs_parent;
		struct prio_fs_result *r = &w->out[i];
		double sn = 1.0;

		r->rank = 0;
		r->level_fs = NAN;
		if (i == 0) {
			r->norm_shares = 1.0;
			r->usage_efctv = 1.0L;
		} else if (is_parent_shares(&as[i])) {
			r->norm_shares = w->out[p].norm_shares;
			r->usage_efctv = w->out[p].usage_efctv;
		} else {
			/* Product over the direct chain up to (not incl.) root. */
			for (uint32_t x = i; x != 0 && x != PRIO_ASSOC_NONE; x = as[x].parent) {
				if (is_parent_shares(&as[x]))
					continue;
				if (w->out[x].level_shares == 0) {
					sn = 0.0;
					break;
				}
				sn *= (double)shares_of(&as[x]) / (double)w->out[x].level_shares;
			}
			r->norm_shares = sn;
			long double un = w->out[i].usage_norm;
			long double ue_p = w->out[p].usage_efctv;

			if (p == 0) {
				r->usage_efctv = un;
			} else if (depth_oblivious) {
				double sn_p = w->out[p].norm_shares;

				if (sn != 0 && sn_p != 0 && ue_p != 0 && un != 0) {
					long double sib = 0;

					for (uint32_t c = w->fs_first[p]; c != PRIO_ASSOC_NONE;
					     c = w->fs_next[c])
						if (!is_parent_shares(&as[c]))
							sib += w->out[c].usage_norm;
					long double ratio_p = ue_p / sn_p;
					long double ratio_s = sib / sn_p;
					long double ratio_l = (un / sn) / ratio_s;
					long double kk = 1.0L;

					if (ratio_p != 0 && ratio_l != 0 &&
					    logl(ratio_p) * logl(ratio_l) < 0) {
						long double f = 5.0L * logl(ratio_p);
						kk = 1.0L / (1.0L + f * f);
					}
					r->usage_efctv = ratio_p * powl(ratio_l, kk) * sn;
				} else {
					r->usage_efctv = un;
				}
			} else if (r->level_shares == 0) {
				r->usage_efctv = ue_p;
			} else {
				r->usage_efctv = un + (ue_p - un) * (long double)shares_of(&as[i]) /
							      (long double)r->level_shares;
			}
		}
		if (r->norm_shares <= 0)
			r->fairshare = 0.0;
		else
			r->fairshare = pow(2.0, -((double)r->usage_efctv / r->norm_shares) /
						     (double)damp);
	}
}

int prio_fairshare_compute(const struct prio_snapshot *snap,
			   enum prio_fs_algorithm algorithm,
			   struct prio_fs_result *out, struct prio_error *err)
{
	struct fs_work w;
	int rc;

	if (snap->assoc_count == 0 || snap->assocs[0].parent != PRIO_ASSOC_NONE)
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "no association tree loaded (give --assoc)");
	memset(&w, 0, sizeof(w));
	w.snap = snap;
	w.out = out;
	w.n = snap->assoc_count;
	w.order = malloc((size_t)w.n * sizeof(uint32_t));
	w.fs_first = malloc((size_t)w.n * sizeof(uint32_t));
	w.fs_next = malloc((size_t)w.n * sizeof(uint32_t));
	w.scratch = malloc((size_t)w.n * sizeof(uint32_t));
	w.pos = calloc((size_t)w.n, sizeof(uint32_t));
	if (!w.order || !w.fs_first || !w.fs_next || !w.scratch || !w.pos) {
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
		goto out;
	}
	memset(out, 0, (size_t)w.n * sizeof(*out));
	if ((rc = preorder(&w, err)) < 0)
		goto out;
	build_fs_tree(&w);
	shares_and_usage(&w);
	for (uint32_t i = 0; i < w.n; i++)
		w.users += snap->assocs[i].is_user;
	switch (algorithm) {
	case PRIO_FS_FAIR_TREE:
		fair_tree_values(&w);
		w.rank = w.rnt = w.users;
		rank_level(&w, 0, w.scratch, false, 0);
		break;
	case PRIO_FS_CLASSIC:
	case PRIO_FS_TICKET:
		classic_values(&w, false);
		break;
	case PRIO_FS_DEPTH_OBLIVIOUS:
		classic_values(&w, true);
		break;
	}
	rc = PRIO_OK;
out:
	free(w.order);
	free(w.fs_first);
	free(w.fs_next);
	free(w.scratch);
	free(w.pos);
	return rc;
}
