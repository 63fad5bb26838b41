/* SPDX-License-Identifier: MIT */
/*
 * Fairshare over the association tree, as Slurm 22.05 computes it
 * (slurm-facts §2 Fair Tree, §3 classic, DEPTH_OBLIVIOUS and ticket-based).
 *
 * Every algorithm works on the *fairshare tree* (fairshare_tree.h): an
 * association whose direct parent has Fairshare=parent hangs from the first
 * ancestor that does not, and a Fairshare=parent account keeps no children
 * of its own there.  level_shares is the sum of the shares of the
 * fs-siblings that are not "parent".
 *
 * Fair Tree: S = shares / level_shares, U = usage / fs-parent usage (the
 * parent's own usage, not the siblings' sum), Level FS = S / U with S = 0
 * giving 0, U = 0 infinity, a parent user infinity, a parent account NO_VAL.
 * Siblings are visited by Level FS descending, users before accounts on
 * equal values, otherwise in tree order (glibc's qsort is a stable merge
 * sort at these sizes, so Slurm keeps its list order too).  Users take
 * competition ranks counting down from N (the number of user associations)
 * and their factor is rank / N.  Tied sibling accounts are walked one after
 * the other (never merged, whatever the Fair Tree document says); the
 * second one starts "tied", so its first user repeats the rank last given.
 * Values are long double where Slurm's are (usage, U, Level FS), so that
 * ties and near-ties (test24.4's uD2 and uD3) come out as Slurm's do.
 *
 * Classic: SN is the product of shares / level_shares up the direct chain
 * ("parent" links skipped), UN = usage / root usage capped at 1, UE = UN for
 * children of the root, else UN + (UE_parent - UN) * shares / level_shares,
 * and F = 2^(-(UE/SN)/FairShareDampeningFactor) for every row, root
 * included.  DEPTH_OBLIVIOUS replaces UE below the first tier by
 * ratio_p * ratio_l^k * SN.  Slurm computes account rows at the start of a
 * cycle and user rows later (see the oracle README): by default we compute
 * everything from the same usage, which is what the next cycle would show;
 * prio_fairshare_compute_lagged() reproduces the lag given the usage from
 * before the cycle (account NormUsage from it, everything else follows).
 *
 * Ticket-based (seed document 004): F = SN / max(UN, SN / 100) at every
 * level; the root's tickets go to *active* children (a pending, not held
 * job at or below them) in proportion to SN * F, recursively; a user's
 * factor is its tickets over the largest number any user received.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fairshare_tree.h"
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

const char *prio_fs_algorithm_name(enum prio_fs_algorithm algorithm)
{
	switch (algorithm) {
	case PRIO_FS_FAIR_TREE:
		return "fairtree";
	case PRIO_FS_CLASSIC:
		return "classic";
	case PRIO_FS_DEPTH_OBLIVIOUS:
		return "depth-oblivious";
	case PRIO_FS_TICKET:
		return "ticket";
	}
	return "?";
}

int prio_fs_algorithm_parse(const char *name, enum prio_fs_algorithm *out)
{
	static const struct {
		const char *name;
		enum prio_fs_algorithm algorithm;
	} names[] = {
	    {"fairtree", PRIO_FS_FAIR_TREE},
	    {"fair-tree", PRIO_FS_FAIR_TREE},
	    {"fair_tree", PRIO_FS_FAIR_TREE},
	    {"classic", PRIO_FS_CLASSIC},
	    {"no_fair_tree", PRIO_FS_CLASSIC},
	    {"depth-oblivious", PRIO_FS_DEPTH_OBLIVIOUS},
	    {"depth_oblivious", PRIO_FS_DEPTH_OBLIVIOUS},
	    {"ticket", PRIO_FS_TICKET},
	    {"ticket-based", PRIO_FS_TICKET},
	    {"ticket_based", PRIO_FS_TICKET},
	};

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i].name) == 0) {
			*out = names[i].algorithm;
			return 0;
		}
	return -1;
}

/* ---- the fairshare tree ---------------------------------------------- */

void fs_tree_free(struct fs_tree *t)
{
	free(t->order);
	free(t->pos);
	free(t->fs_parent);
	free(t->fs_first);
	free(t->fs_next);
	memset(t, 0, sizeof(*t));
}

static int cmp_id_asc(const void *pa, const void *pb, void *ctx)
{
	const struct prio_assoc *as = ctx;
	uint32_t a = as[*(const uint32_t *)pa].id,
		 b = as[*(const uint32_t *)pb].id;

	return a < b ? -1 : a > b;
}

/* Each association's last part of its lineage (slurmdbd, 23.11 on):
 * "0-USER/" or "0-USER/PARTITION/" for a user, "ACCOUNT/" for an account,
 * folded to upper case and compared as bytes, as MariaDB 10's
 * utf8mb4_general_ci (and latin1_swedish_ci) order them: '_' after the
 * letters, '-', '.' and '/' before the digits.  MariaDB 11.5 and later
 * (uca1400_ai_ci, Debian 13's) and MySQL 8 (0900_ai_ci) put every
 * punctuation mark first, '_' before '-'; names that differ there first
 * are ordered as MariaDB 10 would.  Built once per tree so that the
 * siblings' sort compares bytes. */
struct lineage_keys {
	char *buf;
	size_t *at; /* key of association i: buf + at[i] */
};

static void lineage_keys_free(struct lineage_keys *k)
{
	free(k->buf);
	free(k->at);
}

/* Append s folded to upper case. */
static char *lineage_put(char *p, const char *s)
{
	while (*s)
		*p++ = (char)toupper((unsigned char)*s++);
	return p;
}

static int lineage_keys_build(const struct prio_snapshot *snap, uint32_t n,
			      struct lineage_keys *k)
{
	size_t size = 0;
	char *p;

	k->buf = NULL;
	k->at = malloc((size_t)n * sizeof(*k->at));
	if (!k->at)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_assoc *a = &snap->assocs[i];

		if (!a->is_user)
			size += strlen(prio_snapshot_str(snap, a->account)) + 2;
		else if (a->partition == PRIO_NO_ID)
			size += strlen(prio_snapshot_str(snap, a->user)) + 4;
		else
			size += strlen(prio_snapshot_str(snap, a->user)) +
				strlen(prio_snapshot_str(snap, a->partition)) +
				5;
	}
	if (!(k->buf = malloc(size ? size : 1))) {
		free(k->at);
		return -1;
	}
	p = k->buf;
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_assoc *a = &snap->assocs[i];

		k->at[i] = (size_t)(p - k->buf);
		if (a->is_user) {
			p = lineage_put(p, "0-");
			p = lineage_put(p, prio_snapshot_str(snap, a->user));
			*p++ = '/';
			if (a->partition != PRIO_NO_ID) {
				p = lineage_put(
				    p, prio_snapshot_str(snap, a->partition));
				*p++ = '/';
			}
		} else {
			p = lineage_put(p, prio_snapshot_str(snap, a->account));
			*p++ = '/';
		}
		*p++ = '\0';
	}
	return 0;
}

/* Siblings by lineage, descending (the stack pops the first one first). */
static int cmp_lineage_desc(const void *pa, const void *pb, void *ctx)
{
	const struct lineage_keys *k = ctx;

	return strcmp(k->buf + k->at[*(const uint32_t *)pb],
		      k->buf + k->at[*(const uint32_t *)pa]);
}

/*
 * Pre-order of the tree in the controller's list order, without recursion;
 * stack has room for n entries.  Slurm builds its children lists from the
 * association list as the database returns it.  Up to 23.02 that is by lft,
 * and the nested set puts each new association first under its parent:
 * siblings come newest first, i.e. by association id descending.  From
 * 23.11 it is by lineage ("/root/acct/0-user/"): siblings by name, users
 * ("0-") before accounts; live run 24.11 seed 53002 shows it, where two
 * accounts tie in Fair Tree.  Ties in Fair Tree and the order
 * DEPTH_OBLIVIOUS updates siblings in follow it.  Without ids (an input
 * without the ID column) before 23.11, the loaded order, sshare's, stands
 * in.
 */
static int preorder(const struct prio_snapshot *snap, struct fs_tree *t,
		    uint32_t *stack, struct prio_error *err)
{
	const struct prio_assoc *as = snap->assocs;
	uint32_t top = 0, k = 0;
	bool by_lineage = prio_snapshot_slurm(snap)->assoc_lineage_order;
	bool by_id = !by_lineage;
	struct lineage_keys keys = {NULL, NULL};
	int rc = PRIO_OK;

	if (by_lineage && lineage_keys_build(snap, t->n, &keys) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	for (uint32_t i = 1; i < t->n && by_id; i++)
		by_id = as[i].id != 0;
	stack[top++] = 0;
	while (top && k < t->n) {
		uint32_t i = stack[--top], cnt = 0, slot;

		t->pos[i] = k;
		t->order[k++] = i;
		for (uint32_t c = as[i].first_child;
		     c != PRIO_ASSOC_NONE && cnt <= t->n;
		     c = as[c].next_sibling)
			cnt++;
		if (top + cnt > t->n) {
			rc = prio_error_set(err, PRIO_ERR_PARSE, as[i].file,
					    as[i].line, "Account",
					    "association tree is not a tree");
			goto out;
		}
		/* Push children so that the first one pops first. */
		slot = top + cnt;
		for (uint32_t c = as[i].first_child; c != PRIO_ASSOC_NONE;
		     c = as[c].next_sibling)
			stack[--slot] = c;
		if (by_id && cnt > 1)
			qsort_r(stack + top, cnt, sizeof(*stack), cmp_id_asc,
				(void *)as);
		else if (by_lineage && cnt > 1)
			qsort_r(stack + top, cnt, sizeof(*stack),
				cmp_lineage_desc, &keys);
		top += cnt;
	}
	if (k != t->n)
		rc = prio_error_set(
		    err, PRIO_ERR_PARSE, "", 0, "Account",
		    "%u associations are not reachable from root", t->n - k);
out:
	lineage_keys_free(&keys);
	return rc;
}

int fs_tree_build(const struct prio_snapshot *snap, struct fs_tree *t,
		  struct prio_error *err)
{
	const struct prio_assoc *as = snap->assocs;
	uint32_t *scratch;
	size_t size;
	int rc;

	memset(t, 0, sizeof(*t));
	if (snap->assoc_count == 0 || as[0].parent != PRIO_ASSOC_NONE)
		return prio_error_set(
		    err, PRIO_ERR_MISSING, "", 0, "",
		    "no association tree loaded (give --assoc)");
	t->n = snap->assoc_count;
	size = (size_t)t->n * sizeof(uint32_t);
	t->order = malloc(size);
	t->pos = malloc(size);
	t->fs_parent = malloc(size);
	t->fs_first = malloc(size);
	t->fs_next = malloc(size);
	scratch = malloc(size);
	if (!t->order || !t->pos || !t->fs_parent || !t->fs_first ||
	    !t->fs_next || !scratch) {
		free(scratch);
		fs_tree_free(t);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	if ((rc = preorder(snap, t, scratch, err)) < 0) {
		free(scratch);
		fs_tree_free(t);
		return rc;
	}
	/* Link each association under its fairshare parent, in pre-order;
	 * scratch now holds the last fs-child appended per parent. */
	for (uint32_t i = 0; i < t->n; i++) {
		t->fs_first[i] = t->fs_next[i] = PRIO_ASSOC_NONE;
		scratch[i] = PRIO_ASSOC_NONE;
	}
	t->fs_parent[0] = PRIO_ASSOC_NONE;
	for (uint32_t k = 1; k < t->n; k++) {
		uint32_t i = t->order[k], p = as[i].parent;

		while (p != 0 && fs_is_parent_shares(&as[p]))
			p = as[p].parent;
		t->fs_parent[i] = p;
		if (scratch[p] == PRIO_ASSOC_NONE)
			t->fs_first[p] = i;
		else
			t->fs_next[scratch[p]] = i;
		scratch[p] = i;
	}
	free(scratch);
	return PRIO_OK;
}

/* ---- what every algorithm shares ------------------------------------- */

/*
 * What stays the same while only usage moves: the tree, and for Fair Tree
 * each association's fs-children in one array, kept in the order the last
 * ranking sorted them.  Usage moves little between two computations of a
 * search over time, so that order is nearly the next one and an insertion
 * sort finishes it in about linear time.
 */
struct prio_fs_cache {
	struct fs_tree t;
	uint32_t users;
	uint32_t *kids;	   /* fs-children of association p: */
	uint32_t *kid_off; /* kids[kid_off[p] .. kid_off[p + 1]) */
	bool warm;	   /* kids hold a ranking's order */
	uint32_t *users_under; /* user associations in each fs-subtree */
};

void prio_fs_cache_free(struct prio_fs_cache *c)
{
	if (!c)
		return;
	fs_tree_free(&c->t);
	free(c->kids);
	free(c->kid_off);
	free(c->users_under);
	free(c);
}

struct prio_fs_cache *prio_fs_cache_new(const struct prio_snapshot *snap,
					struct prio_error *err)
{
	struct prio_fs_cache *c = calloc(1, sizeof(*c));
	uint32_t n = snap->assoc_count, k = 0;

	if (!c) {
		prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
		return NULL;
	}
	if (fs_tree_build(snap, &c->t, err) < 0) {
		free(c);
		return NULL;
	}
	c->kids = malloc((size_t)n * sizeof(*c->kids));
	c->kid_off = malloc(((size_t)n + 1) * sizeof(*c->kid_off));
	c->users_under = calloc((size_t)n + 1, sizeof(*c->users_under));
	if (!c->kids || !c->kid_off || !c->users_under) {
		prio_fs_cache_free(c);
		prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
		return NULL;
	}
	for (uint32_t p = 0; p < n; p++) {
		c->kid_off[p] = k;
		for (uint32_t ch = c->t.fs_first[p]; ch != PRIO_ASSOC_NONE;
		     ch = c->t.fs_next[ch])
			c->kids[k++] = ch;
		c->users += snap->assocs[p].is_user;
	}
	c->kid_off[n] = k;
	/* an fs-parent is an ancestor, before its fs-children in the
	 * pre-order: from the end, every subtree is whole when added up */
	for (uint32_t k2 = n; k2-- > 0;) {
		uint32_t i = c->t.order[k2];

		c->users_under[i] += snap->assocs[i].is_user;
		if (c->t.fs_parent[i] != PRIO_ASSOC_NONE)
			c->users_under[c->t.fs_parent[i]] += c->users_under[i];
	}
	return c;
}

/* The shares Fair Tree and classic divide by for p's fs-children: every
 * child's but the Fairshare=parent ones (not clamped). */
static uint64_t level_shares_sum(const struct prio_snapshot *snap,
				 const struct fs_tree *t, uint32_t p)
{
	uint64_t sum = 0;

	for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
	     c = t->fs_next[c])
		if (!fs_is_parent_shares(&snap->assocs[c]))
			sum += fs_shares_of(&snap->assocs[c]);
	return sum;
}

struct fs_work {
	const struct prio_snapshot *snap;
	const struct fs_tree *t;
	struct prio_fs_result *out;
	struct prio_fs_cache *cache;
	uint32_t rank, rnt, users;
};

static void common_values(struct fs_work *w, const long double *prev)
{
	const struct prio_assoc *as = w->snap->assocs;
	const struct fs_tree *t = w->t;
	long double root_usage = as[0].usage_raw;

	for (uint32_t i = 0; i < t->n; i++) {
		struct prio_fs_result *r = &w->out[i];

		r->fs_parent = t->fs_parent[i];
		r->level_fs = NAN;
		r->fairshare = NAN;
		r->rank = 0;
		r->active = false;
		r->tickets = 0;
		if (i == 0) {
			r->usage_norm = NAN;
		} else if (prev && !as[i].is_user) {
			/* An account row as of the start of Slurm's cycle. */
			long double un = prev[0] > 0 ? prev[i] / prev[0] : 0.0L;

			r->usage_norm = un > 1.0L ? 1.0 : (double)un;
		} else if (root_usage > 0) {
			long double un = as[i].usage_raw / root_usage;

			r->usage_norm = un > 1.0L ? 1.0 : (double)un;
		} else {
			r->usage_norm = 0.0;
		}
	}
	for (uint32_t p = 0; p < t->n; p++) {
		uint64_t sum = level_shares_sum(w->snap, t, p);

		for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t->fs_next[c])
			w->out[c].level_shares =
			    sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	}
	w->out[0].level_shares = PRIO_NO_VAL; /* never set for root */
}

/* ---- Fair Tree ------------------------------------------------------- */

/* Level FS from normalized shares and effective usage (a is not root). */
static long double level_fs_rule(const struct prio_assoc *a, double norm,
				 long double ue)
{
	if (fs_is_parent_shares(a))
		return a->is_user ? INFINITY : PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
	if (norm == 0.0)
		return 0.0L;
	if (ue == 0.0L)
		return INFINITY;
	return (long double)norm / ue;
}

static void fair_tree_values(struct fs_work *w)
{
	const struct prio_assoc *as = w->snap->assocs;

	/* Pre-order: an fs-parent is always computed before its children. */
	for (uint32_t k = 0; k < w->t->n; k++) {
		uint32_t i = w->t->order[k], p = w->out[i].fs_parent;
		struct prio_fs_result *r = &w->out[i];

		if (i == 0) {
			r->norm_shares =
			    (double)fs_shares_of(&as[0]) / (double)PRIO_NO_VAL;
			r->usage_efctv = 1.0L;
			r->level_fs = PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
			continue;
		}
		if (fs_is_parent_shares(&as[i]))
			r->norm_shares = w->out[p].norm_shares;
		else if (r->level_shares == 0)
			r->norm_shares = 0.0;
		else
			r->norm_shares = (double)fs_shares_of(&as[i]) /
					 (double)r->level_shares;
		r->usage_efctv = as[p].usage_raw > 0
				     ? as[i].usage_raw / as[p].usage_raw
				     : 0.0L;
		r->level_fs =
		    level_fs_rule(&as[i], r->norm_shares, r->usage_efctv);
	}
}

struct sort_ctx {
	const struct prio_snapshot *snap;
	const struct fs_tree *t;
	const struct prio_fs_result *res;
};

/* Fair Tree's visiting order of siblings a and b of Level FS la and lb:
 * Level FS descending; users before accounts; then tree order (stable). */
static int cmp_visit(const struct prio_snapshot *snap, const struct fs_tree *t,
		     uint32_t a, long double la, uint32_t b, long double lb)
{
	const struct prio_assoc *as = snap->assocs;

	if (la != lb)
		return la > lb ? -1 : 1;
	if (as[a].is_user != as[b].is_user)
		return as[a].is_user ? -1 : 1;
	return t->pos[a] < t->pos[b] ? -1 : t->pos[a] > t->pos[b];
}

static int cmp_siblings(const void *pa, const void *pb, void *ctx)
{
	const struct sort_ctx *c = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return cmp_visit(c->snap, c->t, a, c->res[a].level_fs, b,
			 c->res[b].level_fs);
}

void fs_sort_siblings(const struct prio_snapshot *snap, const struct fs_tree *t,
		      const struct prio_fs_result *res, uint32_t *slice,
		      uint32_t k)
{
	struct sort_ctx c = {snap, t, res};

	qsort_r(slice, k, sizeof(*slice), cmp_siblings, &c);
}

/*
 * Sort a slice already in a previous ranking's order: insertion, which
 * moves each element as far as it is out of place.  cmp_siblings() is a
 * total order (tree positions differ), so any sort gives the same result;
 * when the slice turns out far from sorted, qsort_r() takes over.
 */
static void resort_siblings(const struct sort_ctx *c, uint32_t *slice,
			    uint32_t k)
{
	uint64_t moves = 0, budget = 8 * (uint64_t)k + 64;

	for (uint32_t i = 1; i < k; i++) {
		uint32_t v = slice[i], j = i;

		while (j > 0 && cmp_siblings(&slice[j - 1], &v, (void *)c) > 0) {
			slice[j] = slice[j - 1];
			j--;
			if (++moves > budget) {
				slice[j] = v;
				qsort_r(slice, k, sizeof(*slice), cmp_siblings,
					(void *)c);
				return;
			}
		}
		slice[j] = v;
	}
}

static void rank_level(struct fs_work *w, uint32_t parent, bool account_tied,
		       unsigned depth)
{
	const struct prio_assoc *as = w->snap->assocs;
	long double prev = PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
	uint32_t *slice = w->cache->kids + w->cache->kid_off[parent];
	uint32_t k = w->cache->kid_off[parent + 1] - w->cache->kid_off[parent];

	if (k == 0 || depth > PRIO_ASSOC_MAX_DEPTH + 1)
		return;
	if (w->cache->warm) {
		struct sort_ctx c = {w->snap, w->t, w->out};

		resort_siblings(&c, slice, k);
	} else {
		fs_sort_siblings(w->snap, w->t, w->out, slice, k);
	}
	for (uint32_t s = 0; s < k; s++) {
		uint32_t i = slice[s];
		long double lf = w->out[i].level_fs;
		bool tied = (s == 0 && account_tied) || lf == prev;

		if (as[i].is_user) {
			if (!tied)
				w->rank = w->rnt;
			w->out[i].rank = w->rank;
			w->out[i].fairshare =
			    (double)w->rank / (double)w->users;
			w->rnt--;
		} else {
			rank_level(w, i, tied, depth + 1);
		}
		prev = lf;
	}
}

/*
 * Fair Tree's FairShare of one user association, without ranking the tree:
 * what fs_compute() gives it, bit for bit, from the Level FS of the
 * fs-siblings of each association on its path (fair_tree_values()'s rule,
 * one at a time).  The ranking visits the siblings in sort order
 * (cmp_siblings()) and numbers users down from the count of them, so the
 * user's number is that count less the users of every sibling subtree
 * visited before one of its path.  A user tied with the one visited before
 * it (rank_level()'s "tied") takes that one's number: the walk goes back
 * through the users visited before, in reverse, sorting only the levels it
 * passes, to the first one not tied.  A walk past FT_WALK_MAX sorted
 * associations, or a tree deeper than the ranking goes, is left to the
 * full computation (false).  The explanations' search over time asks this
 * for two users at each of its instants, where the full ranking cost a
 * Level FS and a sort of every level.
 */
enum { FT_WALK_MAX = 1u << 16 };

static long double level_fs_of(const struct prio_snapshot *snap,
			       const struct prio_fs_cache *c, uint32_t i,
			       uint64_t level_shares)
{
	const struct prio_assoc *as = snap->assocs;
	uint32_t p = c->t.fs_parent[i];
	double norm = 0.0;

	/* fair_tree_values()'s norm_shares; a Fairshare=parent one's is
	 * not read by the rule */
	if (level_shares > UINT32_MAX)
		level_shares = UINT32_MAX;
	if (level_shares && !fs_is_parent_shares(&as[i]))
		norm = (double)fs_shares_of(&as[i]) /
		       (double)(uint32_t)level_shares;
	return level_fs_rule(&as[i], norm,
			     as[p].usage_raw > 0
				 ? as[i].usage_raw / as[p].usage_raw
				 : 0.0L);
}

struct ft_sib {
	long double lf;
	uint32_t x;
};

struct ft_walk {
	const struct prio_snapshot *snap;
	const struct prio_fs_cache *c;
	uint32_t steps;	 /* users passed, the one not tied included */
	uint32_t sorted; /* associations sorted so far */
	bool over;	 /* past FT_WALK_MAX: give up */
};

/* cmp_siblings() on Level FS values held beside the index. */
static int cmp_ft_sib(const void *pa, const void *pb, void *ctx)
{
	const struct ft_walk *w = ctx;
	const struct ft_sib *a = pa, *b = pb;

	return cmp_visit(w->snap, &w->c->t, a->x, a->lf, b->x, b->lf);
}

/* p's fs-children in visiting order, with their Level FS; NULL when out of
 * memory or past the budget (w->over). */
static struct ft_sib *ft_sorted(struct ft_walk *w, uint32_t p, uint32_t *k)
{
	const struct prio_fs_cache *c = w->c;
	uint64_t shares = level_shares_sum(w->snap, &c->t, p);
	struct ft_sib *v;

	*k = c->kid_off[p + 1] - c->kid_off[p];
	w->sorted += *k;
	if (w->sorted > FT_WALK_MAX ||
	    !(v = malloc(((size_t)*k + 1) * sizeof(*v)))) {
		w->over = true;
		return NULL;
	}
	for (uint32_t s = 0; s < *k; s++) {
		v[s].x = c->kids[c->kid_off[p] + s];
		v[s].lf = level_fs_of(w->snap, c, v[s].x, shares);
	}
	qsort_r(v, *k, sizeof(*v), cmp_ft_sib, w);
	return v;
}

static bool ft_back(struct ft_walk *w, const struct ft_sib *v, uint32_t from,
		    bool parent_tied);

/* Account x's subtree, its users from the last visited back: true once
 * one not tied is passed (or the walk gives up). */
static bool ft_back_under(struct ft_walk *w, uint32_t x, bool x_tied)
{
	struct ft_sib *v;
	uint32_t k;
	bool done;

	if (!w->c->users_under[x])
		return false;
	if (!(v = ft_sorted(w, x, &k)))
		return true;
	done = ft_back(w, v, k, x_tied);
	free(v);
	return done;
}

/* Back from position `from` (excluded) of a sorted level whose account's
 * own tie is parent_tied. */
static bool ft_back(struct ft_walk *w, const struct ft_sib *v, uint32_t from,
		    bool parent_tied)
{
	const struct prio_assoc *as = w->snap->assocs;

	for (uint32_t s = from; s-- > 0;) {
		bool tied = s ? v[s].lf == v[s - 1].lf
			      : parent_tied ||
				    v[s].lf == PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;

		if (as[v[s].x].is_user) {
			w->steps++;
			if (!tied)
				return true;
		} else if (ft_back_under(w, v[s].x, tied)) {
			return true;
		}
	}
	return false;
}

bool fs_fair_tree_user_factor(const struct prio_snapshot *snap,
			      const struct prio_fs_cache *c, uint32_t a,
			      double *factor)
{
	const struct prio_assoc *as = snap->assocs;
	uint32_t path[PRIO_ASSOC_MAX_DEPTH + 2], depth = 0, rank;
	bool path_tied[PRIO_ASSOC_MAX_DEPTH + 2];
	uint64_t before = 0;
	bool tied = false;

	if (a >= c->t.n || !as[a].is_user || !c->users)
		return false;
	for (uint32_t x = a; x != 0; x = c->t.fs_parent[x]) {
		if (x == PRIO_ASSOC_NONE || depth == PRIO_ASSOC_MAX_DEPTH + 1)
			return false;
		path[depth++] = x;
	}
	/* from the root's children down: at each level, the users of the
	 * siblings visited before the path's, and whether it is tied */
	for (uint32_t l = depth; l-- > 0;) {
		uint32_t me = path[l], p = c->t.fs_parent[me];
		const uint32_t *kid = c->kids + c->kid_off[p];
		uint32_t k = c->kid_off[p + 1] - c->kid_off[p];
		uint64_t shares = level_shares_sum(snap, &c->t, p);
		long double lf_me = level_fs_of(snap, c, me, shares);
		bool any = false, equal = false;

		if (isnan(lf_me))
			return false;
		for (uint32_t s = 0; s < k; s++) {
			uint32_t x = kid[s];
			long double lf;

			if (x == me)
				continue;
			lf = level_fs_of(snap, c, x, shares);
			if (isnan(lf))
				return false;
			if (cmp_visit(snap, &c->t, x, lf, me, lf_me) > 0)
				continue;
			any = true;
			equal |= lf == lf_me;
			before += c->users_under[x];
		}
		/* tied with the sibling visited just before (one of equal
		 * Level FS is), or as the first, with its account's tie or
		 * the marker the level starts from */
		tied = any ? equal
			   : tied || lf_me == PRIO_FS_LEVEL_FS_PARENT_ACCOUNT;
		path_tied[l] = tied;
	}
	if (before >= c->users)
		return false;
	rank = c->users - (uint32_t)before;
	if (tied) {
		/* the number of the last user not tied visited before it:
		 * back through this level, then each level above */
		struct ft_walk w = {snap, c, 0, 0, false};
		bool found = false;

		for (uint32_t l = 0; l < depth && !found; l++) {
			uint32_t p = c->t.fs_parent[path[l]], k, at = 0;
			struct ft_sib *v = ft_sorted(&w, p, &k);

			if (!v)
				return false;
			while (at < k && v[at].x != path[l])
				at++;
			found = ft_back(&w, v, at,
					l + 1 < depth && path_tied[l + 1]);
			free(v);
			if (w.over)
				return false;
		}
		/* none: the ranking's first number, the count of users */
		rank = found ? rank + w.steps : c->users;
	}
	*factor = (double)rank / (double)c->users;
	return true;
}

/* ---- classic, DEPTH_OBLIVIOUS, ticket-based -------------------------- */

static long double depth_oblivious_ue(long double ue_p, double sn_p, double sn,
				      long double un, long double sib_un)
{
	long double ratio_p = ue_p / sn_p;
	long double ratio_s = sib_un / sn_p;
	long double ratio_l = (un / sn) / ratio_s;
	long double k = 1.0L;

	if (ratio_p != 0 && ratio_l != 0 && logl(ratio_p) * logl(ratio_l) < 0) {
		long double f = 5.0L * logl(ratio_p);

		k = 1.0L / (1.0L + f * f);
	}
	return ratio_p * powl(ratio_l, k) * sn;
}

/* usage / root usage from a usage array (a lagged one). */
static long double norm_of(const long double *u, uint32_t i)
{
	long double un = u[0] > 0 ? u[i] / u[0] : 0.0L;

	return un > 1.0L ? 1.0L : un;
}

/* The association of a pending job Slurm computes a priority for (held
 * jobs, priority 0, are skipped); PRIO_ASSOC_NONE otherwise. */
static uint32_t pending_job_assoc(const struct prio_snapshot *snap,
				  const struct prio_job *job)
{
	if (!prio_job_state_pending(job->state) || job->held ||
	    job->priority == 0)
		return PRIO_ASSOC_NONE;
	return prio_snapshot_job_assoc(
	    snap, job, job->partition_count ? job->partitions[0] : PRIO_NO_ID);
}

void fs_first_pending_job(const struct prio_snapshot *snap, uint32_t *first)
{
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		first[i] = UINT32_MAX;
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		uint32_t a = pending_job_assoc(snap, job);

		if (a != PRIO_ASSOC_NONE && job->job_id < first[a])
			first[a] = job->job_id;
	}
}

/*
 * DEPTH_OBLIVIOUS's Σ usage_norm of the fs-siblings ("parent" ones left
 * out), for every association, linear per level but for user siblings.
 * Without the lag (un_prev NULL) every sibling's un_now.  With it, the
 * values Slurm holds when it computes each one (the classic and
 * depth-oblivious oracle scenarios and their slurmctld.log):
 *  - an account, at the start of a cycle: user siblings and the accounts up
 *    to it in list order one cycle back, the accounts after it (not yet
 *    updated in this pass) two cycles back;
 *  - a user, later, when its first pending job's priority is computed (in
 *    job id order; at the first sshare call for users without one): the
 *    accounts one cycle back, user siblings computed before it (an earlier
 *    first job) current, the others still one cycle back.
 * A user's cached value changes only when that user itself is computed, so
 * one not computed since slurmctld started holds the "no value" marker
 * (in->unset; tests/oracle/depth-oblivious-unset-sibling), which swamps
 * the sum of every sibling computed before it.
 */
struct user_key_ctx {
	const struct fs_sib_inputs *in;
	const struct fs_tree *t;
};

/* The order users' rows are computed in: first pending job, then list. */
static int cmp_user_key(const void *pa, const void *pb, void *ctx)
{
	const struct user_key_ctx *c = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (c->in->first[a] != c->in->first[b])
		return c->in->first[a] < c->in->first[b] ? -1 : 1;
	return c->t->pos[a] < c->t->pos[b] ? -1 : c->t->pos[a] > c->t->pos[b];
}

/* A user sibling not yet computed in this pass contributes its value of
 * the cycle before, or the unset marker (counted apart, so that adding and
 * taking away 2^32 costs the small values no precision). */
static bool user_unset(const struct fs_sib_inputs *in, uint32_t c)
{
	return in->unset && in->unset[c];
}

int fs_sibling_sums(const struct prio_snapshot *snap, const struct fs_tree *t,
		    const struct fs_sib_inputs *in, long double *sib)
{
	const struct prio_assoc *as = snap->assocs;
	struct user_key_ctx ctx = {in, t};
	uint32_t *users =
	    in->un_prev ? malloc((size_t)t->n * sizeof(*users)) : NULL;

	if (in->un_prev && !users)
		return PRIO_ERR_NOMEM;
	for (uint32_t p = 0; p < t->n; p++) {
		long double now = 0, user_prev = 0, before = 0, after = 0,
			    done_now = 0;
		uint32_t nu = 0, n_unset = 0;

		for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t->fs_next[c]) {
			if (fs_is_parent_shares(&as[c]))
				continue;
			now += in->un_now[c];
			if (!in->un_prev)
				continue;
			if (as[c].is_user) {
				if (user_unset(in, c))
					n_unset++;
				else
					user_prev += in->un_prev[c];
				users[nu++] = c;
			} else {
				after += in->un_prev2[c];
			}
		}
		for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t->fs_next[c]) {
			if (!in->un_prev) {
				sib[c] = now;
				continue;
			}
			if (fs_is_parent_shares(&as[c]) || as[c].is_user)
				continue;
			/* Accounts in list order move from two cycles back
			 * to one. */
			after -= in->un_prev2[c];
			before += in->un_prev[c];
			sib[c] = user_prev + before + after +
				 n_unset * FS_UNSET_USAGE_NORM;
		}
		if (!nu)
			continue;
		/* Users in the order their rows are computed: the ones done
		 * before (and itself) current, the others one cycle back. */
		qsort_r(users, nu, sizeof(*users), cmp_user_key, &ctx);
		for (uint32_t k = 0; k < nu; k++) {
			uint32_t c = users[k];

			done_now += in->un_now[c];
			if (user_unset(in, c))
				n_unset--;
			else
				user_prev -= in->un_prev[c];
			sib[c] = before + done_now + user_prev +
				 n_unset * FS_UNSET_USAGE_NORM;
		}
	}
	free(users);
	return PRIO_OK;
}

/* The inputs of fs_sibling_sums from the results (and the lag); with
 * sib_unset, also the sums if every user not computed by a pending job's
 * priority was still unset in Slurm (a slurmctld started since, and no
 * sshare before the one captured), with or without the lag. */
static int sibling_sums(struct fs_work *w, const struct prio_fs_lag *lag,
			long double *sib, long double *sib_unset)
{
	const struct fs_tree *t = w->t;
	struct fs_sib_inputs in = {0};
	long double *buf = calloc(3 * (size_t)t->n, sizeof(*buf));
	uint32_t *first = lag || sib_unset
			      ? malloc((size_t)t->n * sizeof(*first))
			      : NULL;
	int rc;

	if (!buf || ((lag || sib_unset) && !first)) {
		free(buf);
		free(first);
		return PRIO_ERR_NOMEM;
	}
	in.un_now = buf;
	for (uint32_t i = 0; i < t->n; i++)
		buf[i] = i ? w->out[i].usage_norm : 0;
	if (lag) {
		const long double *prev2 =
		    lag->prev2_usage ? lag->prev2_usage : lag->prev_usage;

		for (uint32_t i = 1; i < t->n; i++) {
			buf[t->n + i] = norm_of(lag->prev_usage, i);
			buf[2 * t->n + i] = norm_of(prev2, i);
		}
		in.un_prev = buf + t->n;
		in.un_prev2 = buf + 2 * (size_t)t->n;
		fs_first_pending_job(w->snap, first);
		in.first = first;
	}
	rc = fs_sibling_sums(w->snap, t, &in, sib);
	if (rc == PRIO_OK && sib_unset) {
		bool *unset = calloc(t->n, sizeof(*unset));

		if (!unset) {
			rc = PRIO_ERR_NOMEM;
		} else {
			/* Without the lag, the cycle before holds the same
			 * usage: only the order and the unset ones count. */
			if (!lag) {
				in.un_prev = in.un_prev2 = buf;
				fs_first_pending_job(w->snap, first);
				in.first = first;
			}
			for (uint32_t i = 1; i < t->n; i++)
				unset[i] = w->snap->assocs[i].is_user &&
					   first[i] == UINT32_MAX;
			in.unset = unset;
			rc = fs_sibling_sums(w->snap, t, &in, sib_unset);
			free(unset);
		}
	}
	free(buf);
	free(first);
	return rc;
}

/* SN: this level's share times the direct parent's SN, a "parent" level
 * contributing nothing, so that a "parent" association has its
 * fs-parent's SN.  The direct parent's must be known. */
static double classic_norm_shares(const struct fs_work *w, uint32_t i)
{
	const struct prio_assoc *a = &w->snap->assocs[i];
	double f = 1.0;

	if (!fs_is_parent_shares(a))
		f = w->out[i].level_shares == 0
			? 0.0
			: (double)fs_shares_of(a) /
			      (double)w->out[i].level_shares;
	return f * w->out[a->parent].norm_shares;
}

/* DEPTH_OBLIVIOUS's UE of i, its fs-parent p final, with sibling sum sib. */
static long double depth_oblivious_of(const struct fs_work *w, uint32_t i,
				      uint32_t p, double sn, long double sib)
{
	long double un = w->out[i].usage_norm;

	return sn != 0 && w->out[p].norm_shares != 0 &&
		       w->out[p].usage_efctv != 0 && un != 0
		   ? depth_oblivious_ue(w->out[p].usage_efctv,
					w->out[p].norm_shares, sn, un, sib)
		   : un;
}

/*
 * Whether Slurm held some of p's users unset when it computed p's
 * children: which of the two sums explains the EffectvUsage the input's
 * sshare printed for them.  Nothing in a snapshot says when slurmctld
 * started or who ran sshare before; the printed values do (a user computed
 * against an unset sibling prints 0.000000).  No printed value, or none
 * that tells the two apart: evaluated, the steady state of a controller
 * that has run a while.
 */
static bool family_unset(const struct fs_work *w, uint32_t p,
			 const long double *sib, const long double *sib_unset)
{
	const struct prio_assoc *as = w->snap->assocs;
	long double err_e = 0, err_u = 0;
	bool differ = false;

	for (uint32_t c = w->t->fs_first[p]; c != PRIO_ASSOC_NONE;
	     c = w->t->fs_next[c]) {
		const struct prio_sshare_values *v = &as[c].slurm;
		long double ue_e, ue_u;
		double sn;

		if (fs_is_parent_shares(&as[c]) || as[c].parent != p ||
		    !(v->present & PRIO_SSHARE_EFFECTV_USAGE) ||
		    (v->blank & PRIO_SSHARE_EFFECTV_USAGE))
			continue;
		sn = classic_norm_shares(w, c);
		ue_e = depth_oblivious_of(w, c, p, sn, sib[c]);
		ue_u = depth_oblivious_of(w, c, p, sn, sib_unset[c]);
		err_e += fabsl(ue_e - v->effectv_usage);
		err_u += fabsl(ue_u - v->effectv_usage);
		/* sshare prints six decimals */
		if (fabsl(ue_e - ue_u) > 1e-6L)
			differ = true;
	}
	return differ && err_u < err_e;
}

static int classic_values(struct fs_work *w, bool depth_oblivious,
			  const struct prio_fs_lag *lag)
{
	const struct prio_assoc *as = w->snap->assocs;
	const struct fs_tree *t = w->t;
	uint16_t damp =
	    w->snap->conf.dampening_factor ? w->snap->conf.dampening_factor : 1;
	long double *sib = NULL, *sib_unset = NULL;
	/* per fs-parent: 0 not decided yet, 1 evaluated, 2 unset users */
	uint8_t *family = NULL;

	if (depth_oblivious) {
		bool lagged = lag && lag->prev_usage;

		if (!(sib = calloc(t->n, sizeof(*sib))) ||
		    !(sib_unset = calloc(t->n, sizeof(*sib))) ||
		    !(family = calloc(t->n, 1)) ||
		    sibling_sums(w, lagged ? lag : NULL, sib, sib_unset) < 0) {
			free(sib);
			free(sib_unset);
			free(family);
			return PRIO_ERR_NOMEM;
		}
	}
	for (uint32_t k = 0; k < t->n; k++) {
		uint32_t i = t->order[k], p = w->out[i].fs_parent;
		struct prio_fs_result *r = &w->out[i];
		long double un = r->usage_norm;

		if (i == 0) {
			r->norm_shares = 1.0;
			r->usage_efctv = 1.0L;
		} else {
			r->norm_shares = classic_norm_shares(w, i);
			if (p == 0) {
				r->usage_efctv = un;
			} else if (fs_is_parent_shares(&as[i])) {
				r->usage_efctv = w->out[p].usage_efctv;
			} else if (depth_oblivious) {
				const long double *s = sib;

				if (family && !family[p])
					family[p] = family_unset(w, p, sib,
								 sib_unset)
							? 2
							: 1;
				if (family && family[p] == 2 &&
				    sib_unset[i] != sib[i]) {
					s = sib_unset;
					r->sibling_unset = true;
				}
				r->usage_efctv = depth_oblivious_of(
				    w, i, p, r->norm_shares, s[i]);
			} else if (r->level_shares == 0)
				r->usage_efctv = w->out[p].usage_efctv;
			else
				r->usage_efctv =
				    un + (w->out[p].usage_efctv - un) *
					     (long double)fs_shares_of(&as[i]) /
					     (long double)r->level_shares;
		}
		r->fairshare =
		    r->norm_shares <= 0
			? 0.0
			: pow(2.0, -((double)r->usage_efctv / r->norm_shares) /
				       (double)damp);
	}
	free(sib);
	free(sib_unset);
	free(family);
	return PRIO_OK;
}

/* Mark every association with a pending, not held job at or below it. */
static void mark_active(struct fs_work *w)
{
	const struct prio_snapshot *snap = w->snap;

	for (uint32_t j = 0; j < snap->job_count; j++)
		for (uint32_t i = pending_job_assoc(snap, &snap->jobs[j]);
		     i != PRIO_ASSOC_NONE && !w->out[i].active;
		     i = w->out[i].fs_parent)
			w->out[i].active = true;
}

static void ticket_values(struct fs_work *w)
{
	const struct prio_assoc *as = w->snap->assocs;
	const struct fs_tree *t = w->t;
	double max_user = 0;

	w->out[0].fairshare = NAN;
	for (uint32_t i = 1; i < t->n; i++) {
		struct prio_fs_result *r = &w->out[i];
		long double floor = 0.01L * r->norm_shares;

		r->usage_efctv =
		    r->usage_norm > floor ? (long double)r->usage_norm : floor;
		r->fairshare = NAN;
	}
	mark_active(w);
	w->out[0].tickets = w->out[0].active ? PRIO_FS_TICKETS_ROOT : 0;
	for (uint32_t k = 0; k < t->n; k++) {
		uint32_t p = t->order[k];
		long double sum = 0;

		if (w->out[p].tickets <= 0)
			continue;
		for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t->fs_next[c])
			if (w->out[c].active && w->out[c].usage_efctv > 0)
				sum += w->out[c].norm_shares *
				       (w->out[c].norm_shares /
					w->out[c].usage_efctv);
		if (sum <= 0)
			continue;
		for (uint32_t c = t->fs_first[p]; c != PRIO_ASSOC_NONE;
		     c = t->fs_next[c])
			if (w->out[c].active && w->out[c].usage_efctv > 0)
				w->out[c].tickets =
				    (double)(w->out[p].tickets *
					     w->out[c].norm_shares *
					     (w->out[c].norm_shares /
					      w->out[c].usage_efctv) /
					     sum);
	}
	for (uint32_t i = 0; i < t->n; i++)
		if (as[i].is_user && w->out[i].tickets > max_user)
			max_user = w->out[i].tickets;
	for (uint32_t i = 0; i < t->n; i++)
		if (as[i].is_user)
			w->out[i].fairshare =
			    max_user > 0 ? w->out[i].tickets / max_user : 0.0;
}

int prio_fairshare_compute(const struct prio_snapshot *snap,
			   enum prio_fs_algorithm algorithm,
			   struct prio_fs_result *out, struct prio_error *err)
{
	return prio_fairshare_compute_lagged(snap, algorithm, NULL, out, err);
}

int prio_fairshare_compute_lagged(const struct prio_snapshot *snap,
				  enum prio_fs_algorithm algorithm,
				  const struct prio_fs_lag *lag,
				  struct prio_fs_result *out,
				  struct prio_error *err)
{
	return fs_compute(snap, algorithm, lag, NULL, out, err);
}

int fs_compute(const struct prio_snapshot *snap,
	       enum prio_fs_algorithm algorithm, const struct prio_fs_lag *lag,
	       struct prio_fs_cache *cache, struct prio_fs_result *out,
	       struct prio_error *err)
{
	struct prio_fs_cache *mine = NULL;
	struct fs_work w;
	int rc = PRIO_OK;

	if (cache && cache->t.n != snap->assoc_count)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				      "fairshare cache of another tree");
	if (!cache && !(cache = mine = prio_fs_cache_new(snap, err)))
		return err->status;
	memset(&w, 0, sizeof(w));
	w.snap = snap;
	w.t = &cache->t;
	w.out = out;
	w.cache = cache;
	memset(out, 0, (size_t)cache->t.n * sizeof(*out));
	common_values(
	    &w, lag && algorithm != PRIO_FS_FAIR_TREE ? lag->prev_usage : NULL);
	w.users = cache->users;
	switch (algorithm) {
	case PRIO_FS_FAIR_TREE:
		fair_tree_values(&w);
		w.rank = w.rnt = w.users;
		rank_level(&w, 0, false, 0);
		cache->warm = true;
		break;
	case PRIO_FS_CLASSIC:
		rc = classic_values(&w, false, lag);
		break;
	case PRIO_FS_DEPTH_OBLIVIOUS:
		rc = classic_values(&w, true, lag);
		break;
	case PRIO_FS_TICKET:
		if ((rc = classic_values(&w, false, lag)) == PRIO_OK)
			ticket_values(&w);
		break;
	default:
		rc = prio_error_set(err, PRIO_ERR_USAGE, "", 0, "",
				    "unknown fairshare algorithm %d",
				    (int)algorithm);
	}
	prio_fs_cache_free(mine);
	if (rc == PRIO_ERR_NOMEM)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	return rc;
}
