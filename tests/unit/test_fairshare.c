/* SPDX-License-Identifier: MIT */
/* Fairshare engines on hand-built trees with Slurm's published results. */
#include <criterion/criterion.h>
#include <math.h>

#include "prio/fairshare.h"
#include "testutil.h"

/* Build a tree in snapshot order: add(parent, account, user, shares, usage)
 * appends children in call order, as a loader does. */
static uint32_t add(struct prio_snapshot *s, uint32_t parent, const char *acct,
		    const char *user, uint32_t shares, double usage)
{
	struct prio_assoc *a = prio_snapshot_new_assoc(s);
	uint32_t i = (uint32_t)(a - s->assocs);
	a->parent = parent;
	a->first_child = a->next_sibling = PRIO_ASSOC_NONE;
	a->account = prio_snapshot_intern(s, acct, strlen(acct));
	a->is_user = user != NULL;
	a->user = user ? prio_snapshot_intern(s, user, strlen(user)) : PRIO_NO_ID;
	a->shares_raw = shares;
	a->priority = PRIO_NO_VAL;
	a->usage_raw = usage;
	a->usage_known = true;
	if (parent != PRIO_ASSOC_NONE) {
		struct prio_assoc *p = &s->assocs[parent];
		a->depth = (uint16_t)(p->depth + 1);
		if (p->first_child == PRIO_ASSOC_NONE) {
			p->first_child = i;
		} else {
			uint32_t c = p->first_child;
			while (s->assocs[c].next_sibling != PRIO_ASSOC_NONE)
				c = s->assocs[c].next_sibling;
			s->assocs[c].next_sibling = i;
		}
	}
	return i;
}

static uint32_t find(struct prio_snapshot *s, const char *user)
{
	for (uint32_t i = 0; i < s->assoc_count; i++)
		if (s->assocs[i].is_user && !strcmp(prio_snapshot_str(s, s->assocs[i].user), user))
			return i;
	cr_assert_fail("no user %s", user);
	return 0;
}

#define P PRIO_FS_USE_PARENT

/* Slurm's testsuite/expect/test24.4 tree: ties, zero shares, zero usage,
 * Fairshare=parent users and accounts.  Account usage is the sum of its
 * users', as the controller propagates it (root 240). */
static void test24_4(struct prio_snapshot *s)
{
	prio_snapshot_init(s);
	uint32_t root = add(s, PRIO_ASSOC_NONE, "root", NULL, 1, 240);
	add(s, root, "root", "u1", 10, 0);
	add(s, root, "root", "u2", 10, 10);
	uint32_t aA = add(s, root, "aA", NULL, 40, 45);
	uint32_t aAA = add(s, aA, "aAA", NULL, 30, 20);
	add(s, aAA, "aAA", "uAA1", 1, 20);
	uint32_t aAB = add(s, aA, "aAB", NULL, 10, 25);
	add(s, aAB, "aAB", "uAB1", 1, 25);
	add(s, aAB, "aAB", "uAB2", 1, 0);
	uint32_t aB = add(s, root, "aB", NULL, 60, 25);
	uint32_t aBA = add(s, aB, "aBA", NULL, 25, 25);
	add(s, aBA, "aBA", "uBA1", 1, 25);
	uint32_t aBB = add(s, aB, "aBB", NULL, 35, 0);
	add(s, aBB, "aBB", "uBB1", 1, 0);
	uint32_t aC = add(s, root, "aC", NULL, 0, 30);
	add(s, aC, "aC", "uC1", 0, 30);
	uint32_t aD = add(s, root, "aD", NULL, 50, 110);
	add(s, aD, "aD", "uD1", P, 20);
	add(s, aD, "aD", "uD2", 40, 20);
	add(s, aD, "aD", "uD3", 50, 25);
	uint32_t aDA = add(s, aD, "aDA", NULL, P, 45);
	add(s, aDA, "aDA", "uDA1", P, 10);
	add(s, aDA, "aDA", "uDA2", 30, 10);
	add(s, aDA, "aDA", "uDA3", 50, 25);
	uint32_t aE = add(s, root, "aE", NULL, 10, 0);
	add(s, aE, "aE", "aE1", 10, 0);
	add(s, aE, "aE", "aE2", 10, 0);
	uint32_t aF = add(s, root, "aF", NULL, 20, 0);
	add(s, aF, "aF", "uF1", 10, 0);
	add(s, aF, "aF", "uF2", 20, 0);
	uint32_t aG = add(s, root, "aG", NULL, 8, 20);
	add(s, aG, "aG", "uG1", 10, 10);
	uint32_t aGA = add(s, aG, "aGA", NULL, 10, 10);
	add(s, aGA, "aGA", "uGA1", 20, 4);
	add(s, aGA, "aGA", "uGA2", 20, 6);
}

Test(fairtree, slurm_test24_4_ranks)
{
	struct prio_snapshot s;
	struct prio_error err;
	test24_4(&s);
	struct prio_fs_result *r = calloc(s.assoc_count, sizeof(*r));
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, r, &err), 0);
	static const struct { const char *user; int rank; } want[] = {
		{ "u1", 21 }, { "aE1", 21 }, { "aE2", 21 }, { "uF1", 21 }, { "uF2", 21 },
		{ "uBB1", 16 }, { "uBA1", 15 }, { "u2", 14 }, { "uAA1", 13 },
		{ "uAB2", 12 }, { "uAB1", 11 }, { "uD1", 10 }, { "uDA1", 10 },
		{ "uDA2", 8 }, { "uD3", 7 }, { "uDA3", 7 }, { "uD2", 5 },
		{ "uG1", 4 }, { "uGA1", 4 }, { "uGA2", 2 }, { "uC1", 1 },
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		uint32_t i = find(&s, want[k].user);
		cr_assert_eq(r[i].rank, (uint32_t)want[k].rank, "%s: rank %u, want %d",
			     want[k].user, r[i].rank, want[k].rank);
		cr_assert_float_eq(r[i].fairshare, want[k].rank / 21.0, 1e-12);
	}
	/* Level FS at the root level, as the facts list them. */
	cr_assert_float_eq((double)r[find(&s, "u2")].level_fs, 1.153846, 1e-6);
	cr_assert(isinf((double)r[find(&s, "u1")].level_fs));
	cr_assert(isinf((double)r[find(&s, "uD1")].level_fs)); /* parent user */
	/* "parent" user: the fs-parent's S, and usage over the fs-parent (aD). */
	uint32_t ud1 = find(&s, "uD1");
	cr_assert_float_eq(r[ud1].norm_shares, 0.240385, 1e-6);
	cr_assert_float_eq((double)r[ud1].usage_efctv, 0.181818, 1e-6);
	cr_assert_float_eq(r[ud1].usage_norm, 20.0 / 240, 1e-12);
	/* Root: S ~ 0, U 1, no usage_norm. */
	cr_assert_float_eq(r[0].norm_shares, 0.0, 1e-6);
	cr_assert_float_eq((double)r[0].usage_efctv, 1.0, 1e-12);
	cr_assert(isnan(r[0].usage_norm));
	free(r);
	prio_snapshot_free(&s);
}

Test(fairtree, zero_usage_everywhere_gives_ties_at_the_top)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	uint32_t root = add(&s, PRIO_ASSOC_NONE, "root", NULL, 1, 0);
	uint32_t a = add(&s, root, "a", NULL, 1, 0);
	add(&s, a, "a", "x", 1, 0);
	add(&s, a, "a", "y", 0, 0); /* zero shares: Level FS 0, last */
	struct prio_fs_result r[4];
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, r, &err), 0);
	cr_assert(isinf((double)r[2].level_fs));
	cr_assert_float_eq((double)r[3].level_fs, 0.0, 0);
	cr_assert_float_eq(r[2].fairshare, 1.0, 1e-12);
	cr_assert_float_eq(r[3].fairshare, 0.5, 1e-12);
	cr_assert(isnan(r[1].fairshare)); /* accounts have none */
	prio_snapshot_free(&s);
}

Test(fairtree, no_tree_is_an_error)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, NULL, &err), PRIO_ERR_MISSING);
	prio_snapshot_free(&s);
}

Test(classic, two_level_tree_by_hand)
{
	/* root -> A (40, usage 45) -> u1 (1, usage 45); root -> B (60, usage 0)
	 * -> u2 (1, 0).  SN(u1) = 0.4, UN = 1, UE(A) = 1 and UE(u1) = UE(A)
	 * (only child), F = 2^(-1/0.4) = 0.176777; u2: SN 0.6, UE 0, F 1. */
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	uint32_t root = add(&s, PRIO_ASSOC_NONE, "root", NULL, 1, 45);
	uint32_t A = add(&s, root, "A", NULL, 40, 45);
	uint32_t u1 = add(&s, A, "A", "u1", 1, 45);
	uint32_t B = add(&s, root, "B", NULL, 60, 0);
	uint32_t u2 = add(&s, B, "B", "u2", 1, 0);
	struct prio_fs_result r[5];
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_CLASSIC, r, &err), 0);
	cr_assert_float_eq(r[u1].norm_shares, 0.4, 1e-12);
	cr_assert_float_eq((double)r[u1].usage_efctv, 1.0, 1e-12);
	cr_assert_float_eq(r[u1].fairshare, pow(2.0, -2.5), 1e-12);
	cr_assert_float_eq(r[u2].fairshare, 1.0, 1e-12);
	cr_assert_float_eq(r[root].fairshare, 0.5, 1e-12); /* 2^-(1/1) */
	prio_snapshot_free(&s);
}
