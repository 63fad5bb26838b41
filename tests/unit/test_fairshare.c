/* SPDX-License-Identifier: MIT */
/*
 * Fairshare engines on hand-built trees with published results: Slurm's
 * testsuite/expect/test24.4 (Fair Tree), test24.1 and test24.3 (classic,
 * with and without Fairshare=parent), the ticket-based worked example of
 * the seed document 004, and the truncation bounds the audit relies on.
 * Rows are rendered through the sshare report and compared as sshare -p
 * prints them, so the expected strings are Slurm's own.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "fairshare_tree.h"
#include "prio/fairshare.h"
#include "prio/report_sshare.h"
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
	a->user =
	    user ? prio_snapshot_intern(s, user, strlen(user)) : PRIO_NO_ID;
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

/* Link as the loaders do (sshare order, lookups, user count). */
static void link_tree(struct prio_snapshot *s)
{
	struct prio_error err;
	cr_assert_eq(prio_assoc_link(s, &err), 0, "%s", err.message);
}

static uint32_t find(struct prio_snapshot *s, const char *user)
{
	for (uint32_t i = 0; i < s->assoc_count; i++)
		if (s->assocs[i].is_user &&
		    !strcmp(prio_snapshot_str(s, s->assocs[i].user), user))
			return i;
	cr_assert_fail("no user %s", user);
	return 0;
}

static uint32_t find_account(struct prio_snapshot *s, const char *acct)
{
	for (uint32_t i = 0; i < s->assoc_count; i++)
		if (!s->assocs[i].is_user &&
		    !strcmp(prio_snapshot_str(s, s->assocs[i].account), acct))
			return i;
	cr_assert_fail("no account %s", acct);
	return 0;
}

/* The results of an algorithm on s (calloc'ed). */
static struct prio_fs_result *computed(struct prio_snapshot *s,
				       enum prio_fs_algorithm algorithm)
{
	struct prio_fs_result *r = calloc(s->assoc_count, sizeof(*r));
	struct prio_error err;

	cr_assert_eq(prio_fairshare_compute(s, algorithm, r, &err), 0, "%s",
		     err.message);
	return r;
}

/*
 * Every row as `sshare -p -o fields` prints it, without the Account
 * indentation (Slurm's test programs print rows without it), one row per
 * line.  Returns a malloc'ed string.
 */
static char *render(const struct prio_snapshot *s,
		    const struct prio_fs_result *r, enum prio_fs_algorithm algo,
		    const char *fields)
{
	struct prio_field_sel sel[32];
	struct prio_column cols[32];
	struct prio_cell cells[32];
	struct prio_sshare_rowbuf buf;
	struct prio_sshare_rows rows;
	struct prio_sshare_filter all = {.all_users = true};
	struct prio_error err;
	char why[128], *text = NULL;
	size_t n, len = 0;
	uint32_t assoc;
	unsigned indent;
	FILE *out = open_memstream(&text, &len);

	cr_assert_eq(prio_fieldlist_parse(fields, prio_sshare_fields(),
					  PRIO_SSHARE_F_COUNT, sel, 32, &n, why,
					  sizeof(why)),
		     0, "%s", why);
	for (size_t k = 0; k < n; k++)
		cols[k] = sel[k].col;
	cr_assert_eq(prio_sshare_rows_init(&rows, s, &all, &err), 0);
	struct prio_writer *w = prio_writer_new(
	    out, PRIO_OUT_PARSABLE, PRIO_STYLE_SSHARE, cols, n, false, NULL);
	while (prio_sshare_rows_next(&rows, &assoc, &indent)) {
		prio_sshare_cells(s, r, algo, NULL, assoc, 0, sel, n, cells,
				  &buf);
		prio_writer_row(w, cells);
	}
	prio_writer_finish(w);
	prio_sshare_rows_free(&rows);
	fclose(out);
	return text;
}

/* Each expected line must be one of the rendered lines. */
static void expect_rows(const char *text, const char *const *want, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char line[256];
		snprintf(line, sizeof(line), "%s\n", want[k]);
		cr_expect(strstr(text, line) != NULL, "missing row %s\nin:\n%s",
			  want[k], text);
	}
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
	link_tree(s);
}

Test(fairtree, slurm_test24_4_every_row)
{
	/* The 35 rows test24.4 expects (Account|User|RawShares|NormShares|
	 * RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS), root included. */
	static const char *const want[] = {
	    "root|||0.000000|240||1.000000|||",
	    "root|u1|10|0.048077|0|0.000000|0.000000|1.000000|inf|",
	    "root|u2|10|0.048077|10|0.041667|0.041667|0.666667|1.153846|",
	    "aA||40|0.192308|45|0.187500|0.187500||1.025641|",
	    "aAA||30|0.750000|20|0.083333|0.444444||1.687500|",
	    "aAA|uAA1|1|1.000000|20|0.083333|1.000000|0.619048|1.000000|",
	    "aAB||10|0.250000|25|0.104167|0.555556||0.450000|",
	    "aAB|uAB1|1|0.500000|25|0.104167|1.000000|0.523810|0.500000|",
	    "aAB|uAB2|1|0.500000|0|0.000000|0.000000|0.571429|inf|",
	    "aB||60|0.288462|25|0.104167|0.104167||2.769231|",
	    "aBA||25|0.416667|25|0.104167|1.000000||0.416667|",
	    "aBA|uBA1|1|1.000000|25|0.104167|1.000000|0.714286|1.000000|",
	    "aBB||35|0.583333|0|0.000000|0.000000||inf|",
	    "aBB|uBB1|1|1.000000|0|0.000000|0.000000|0.761905|inf|",
	    "aC||0|0.000000|30|0.125000|0.125000||0.000000|",
	    "aC|uC1|0|0.000000|30|0.125000|1.000000|0.047619|0.000000|",
	    "aD||50|0.240385|110|0.458333|0.458333||0.524476|",
	    "aD|uD1|parent|0.240385|20|0.083333|0.181818|0.476190||",
	    "aD|uD2|40|0.235294|20|0.083333|0.181818|0.238095|1.294118|",
	    "aD|uD3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118|",
	    "aDA||parent|0.240385|45|0.187500|0.409091|||",
	    "aDA|uDA1|parent|0.240385|10|0.041667|0.090909|0.476190||",
	    "aDA|uDA2|30|0.176471|10|0.041667|0.090909|0.380952|1.941176|",
	    "aDA|uDA3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118|",
	    "aE||10|0.048077|0|0.000000|0.000000||inf|",
	    "aE|aE1|10|0.500000|0|0.000000|0.000000|1.000000|inf|",
	    "aE|aE2|10|0.500000|0|0.000000|0.000000|1.000000|inf|",
	    "aF||20|0.096154|0|0.000000|0.000000||inf|",
	    "aF|uF1|10|0.333333|0|0.000000|0.000000|1.000000|inf|",
	    "aF|uF2|20|0.666667|0|0.000000|0.000000|1.000000|inf|",
	    "aG||8|0.038462|20|0.083333|0.083333||0.461538|",
	    "aG|uG1|10|0.500000|10|0.041667|0.500000|0.190476|1.000000|",
	    "aGA||10|0.500000|10|0.041667|0.500000||1.000000|",
	    "aGA|uGA1|20|0.500000|4|0.016667|0.400000|0.190476|1.250000|",
	    "aGA|uGA2|20|0.500000|6|0.025000|0.600000|0.095238|0.833333|",
	};
	struct prio_snapshot s;
	test24_4(&s);
	struct prio_fs_result *r = computed(&s, PRIO_FS_FAIR_TREE);
	char *text = render(
	    &s, r, PRIO_FS_FAIR_TREE,
	    "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,"
	    "FairShare,LevelFS");
	expect_rows(text, want, sizeof(want) / sizeof(want[0]));
	/* sshare order: the first row is root, then root's users. */
	cr_assert(!strncmp(text, "root|||0.000000|240|", 20), "%s", text);
	/* uD2 and uD3 have Level FS equal on paper (40/170 / 20/110 and
	 * 50/170 / 25/110) but not in long double: Slurm ranks them 5 and 7. */
	cr_assert_neq(r[find(&s, "uD2")].level_fs, r[find(&s, "uD3")].level_fs);
	cr_assert_eq(r[find(&s, "uD3")].level_fs, r[find(&s, "uDA3")].level_fs);
	cr_assert_eq(r[find(&s, "uD2")].rank, 5);
	free(text);
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

Test(fairtree, tied_accounts_are_walked_in_turn_not_merged)
{
	/* root -> a (1, usage 10: users p 0, q 10), b (1, usage 10: user r
	 * 10).  a and b tie (Level FS 1).  Merged children would rank r with
	 * q; walked in turn, b's first user repeats the rank last given (q's),
	 * which differs from p's: p 3, q 2, r 2 -- the document's merge would
	 * give r the same rank as p's group. */
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	uint32_t root = add(&s, PRIO_ASSOC_NONE, "root", NULL, 1, 20);
	uint32_t a = add(&s, root, "a", NULL, 1, 10);
	add(&s, a, "a", "p", 1, 0);
	add(&s, a, "a", "q", 1, 10);
	uint32_t b = add(&s, root, "b", NULL, 1, 10);
	add(&s, b, "b", "r", 1, 10);
	link_tree(&s);
	struct prio_fs_result r[6];
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, r, &err), 0);
	cr_assert_eq(r[find(&s, "p")].rank, 3);
	cr_assert_eq(r[find(&s, "q")].rank, 2);
	cr_assert_eq(r[find(&s, "r")].rank, 2);
	prio_snapshot_free(&s);
}

Test(fairtree, no_tree_is_an_error)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, NULL, &err),
		     PRIO_ERR_MISSING);
	prio_snapshot_free(&s);
}

Test(fairtree, algorithm_names_round_trip)
{
	enum prio_fs_algorithm a;
	for (int i = PRIO_FS_FAIR_TREE; i <= PRIO_FS_TICKET; i++) {
		cr_assert_eq(
		    prio_fs_algorithm_parse(prio_fs_algorithm_name(i), &a), 0);
		cr_assert_eq((int)a, i);
	}
	cr_assert_eq(prio_fs_algorithm_parse("Depth_Oblivious", &a), 0);
	cr_assert_eq(a, PRIO_FS_DEPTH_OBLIVIOUS);
	cr_assert_eq(prio_fs_algorithm_parse("fifo", &a), -1);
	cr_assert_eq(prio_fs_algorithm_of(PRIO_FLAG_FAIR_TREE),
		     PRIO_FS_FAIR_TREE);
	cr_assert_eq(prio_fs_algorithm_of(0), PRIO_FS_CLASSIC);
	cr_assert_eq(prio_fs_algorithm_of(PRIO_FLAG_DEPTH_OBLIVIOUS),
		     PRIO_FS_DEPTH_OBLIVIOUS);
	cr_assert_eq(prio_fs_algorithm_of(PRIO_FLAG_TICKET_BASED),
		     PRIO_FS_TICKET);
}

/* The multifactor document's A/B/C/D/E/F tree (test24.1, test24.3 and the
 * ticket example): root usage 100 with a zero-share account G using 30. */
static void doc_tree(struct prio_snapshot *s, bool with_h)
{
	prio_snapshot_init(s);
	uint32_t root =
	    add(s, PRIO_ASSOC_NONE, "root", NULL, 1, with_h ? 210 : 100);
	uint32_t A = add(s, root, "AccountA", NULL, 40, 45);
	uint32_t B = add(s, A, "AccountB", NULL, 30, 20);
	add(s, B, "AccountB", "User1", 1, 20);
	uint32_t C = add(s, A, "AccountC", NULL, 10, 25);
	add(s, C, "AccountC", "User2", 1, 25);
	add(s, C, "AccountC", "User3", 1, 0);
	uint32_t D = add(s, root, "AccountD", NULL, 60, 25);
	uint32_t E = add(s, D, "AccountE", NULL, 25, 25);
	add(s, E, "AccountE", "User4", 1, 25);
	uint32_t F = add(s, D, "AccountF", NULL, 35, 0);
	add(s, F, "AccountF", "User5", 1, 0);
	uint32_t G = add(s, root, "AccountG", NULL, 0, 30);
	add(s, G, "AccountG", "User6", 0, 30);
	if (with_h) {
		uint32_t H = add(s, root, "AccountH", NULL, 50, 110);
		add(s, H, "AccountH", "UHRA1", P, 20);
		add(s, H, "AccountH", "UHRA2", 40, 20);
		add(s, H, "AccountH", "UHRA3", 50, 25);
		uint32_t HTA = add(s, H, "AccountHTA", NULL, P, 45);
		add(s, HTA, "AccountHTA", "UHTAStd1", P, 10);
		add(s, HTA, "AccountHTA", "UHTAStd2", 30, 10);
		add(s, HTA, "AccountHTA", "UHTAStd3", 50, 25);
	}
	link_tree(s);
}

static const char *const classic_fields =
    "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,"
    "FairShare";

Test(classic, slurm_test24_1_document_example)
{
	/* test24.1's expected rows: users 0.408479, 0.022097, 0.125000,
	 * 0.500000, 0.749154. */
	static const char *const want[] = {
	    "AccountA||40|0.400000|45|0.450000|0.450000|0.458502|",
	    "AccountB||30|0.300000|20|0.200000|0.387500|0.408479|",
	    "AccountB|User1|1|0.300000|20|0.200000|0.387500|0.408479|",
	    "AccountC||10|0.100000|25|0.250000|0.300000|0.125000|",
	    "AccountC|User2|1|0.050000|25|0.250000|0.275000|0.022097|",
	    "AccountC|User3|1|0.050000|0|0.000000|0.150000|0.125000|",
	    "AccountD||60|0.600000|25|0.250000|0.250000|0.749154|",
	    "AccountE||25|0.250000|25|0.250000|0.250000|0.500000|",
	    "AccountE|User4|1|0.250000|25|0.250000|0.250000|0.500000|",
	    "AccountF||35|0.350000|0|0.000000|0.145833|0.749154|",
	    "AccountF|User5|1|0.350000|0|0.000000|0.145833|0.749154|",
	    "AccountG||0|0.000000|30|0.300000|0.300000|0.000000|",
	};
	struct prio_snapshot s;
	doc_tree(&s, false);
	struct prio_fs_result *r = computed(&s, PRIO_FS_CLASSIC);
	char *text = render(&s, r, PRIO_FS_CLASSIC, classic_fields);
	expect_rows(text, want, sizeof(want) / sizeof(want[0]));
	/* User6 has no shares at all: no factor (test24.1 checks
	 * "AccountG|User6|0|"). */
	cr_assert(
	    strstr(
		text,
		"AccountG|User6|0|0.000000|30|0.300000|0.300000|0.000000|\n"),
	    "%s", text);
	/* The root row as test24.3 prints it: SN 1, UN blank, UE 1, F 0.5. */
	cr_assert(!strncmp(text, "root|||1.000000|100||1.000000|0.500000|", 39),
		  "%s", text);
	free(text);
	free(r);
	prio_snapshot_free(&s);
}

Test(classic, slurm_test24_3_fairshare_parent)
{
	static const char *const want[] = {
	    "root|||1.000000|210||1.000000|0.500000|",
	    "AccountA||40|0.266667|45|0.214286|0.214286|0.572929|",
	    "AccountB||30|0.200000|20|0.095238|0.184524|0.527550|",
	    "AccountB|User1|1|0.200000|20|0.095238|0.184524|0.527550|",
	    "AccountC||10|0.066667|25|0.119048|0.142857|0.226431|",
	    "AccountC|User2|1|0.033333|25|0.119048|0.130952|0.065672|",
	    "AccountC|User3|1|0.033333|0|0.000000|0.071429|0.226431|",
	    "AccountD||60|0.400000|25|0.119048|0.119048|0.813594|",
	    "AccountE||25|0.166667|25|0.119048|0.119048|0.609507|",
	    "AccountE|User4|1|0.166667|25|0.119048|0.119048|0.609507|",
	    "AccountF||35|0.233333|0|0.000000|0.069444|0.813594|",
	    "AccountF|User5|1|0.233333|0|0.000000|0.069444|0.813594|",
	    "AccountG||0|0.000000|30|0.142857|0.142857|0.000000|",
	    "AccountG|User6|0|0.000000|30|0.142857|0.142857|0.000000|",
	    "AccountH||50|0.333333|110|0.523810|0.523810|0.336475|",
	    "AccountH|UHRA1|parent|0.333333|20|0.095238|0.523810|0.336475|",
	    "AccountH|UHRA2|40|0.078431|20|0.095238|0.196078|0.176777|",
	    "AccountH|UHRA3|50|0.098039|25|0.119048|0.238095|0.185749|",
	    "AccountHTA||parent|0.333333|45|0.214286|0.523810|0.336475|",
	    "AccountHTA|UHTAStd1|parent|0.333333|10|0.047619|0.523810|0."
	    "336475|",
	    "AccountHTA|UHTAStd2|30|0.058824|10|0.047619|0.131653|0.211966|",
	    "AccountHTA|UHTAStd3|50|0.098039|25|0.119048|0.238095|0.185749|",
	};
	struct prio_snapshot s;
	doc_tree(&s, true);
	struct prio_fs_result *r = computed(&s, PRIO_FS_CLASSIC);
	char *text = render(&s, r, PRIO_FS_CLASSIC, classic_fields);
	expect_rows(text, want, sizeof(want) / sizeof(want[0]));
	free(text);
	free(r);
	prio_snapshot_free(&s);
}

Test(classic, dampening_factor_divides_the_exponent)
{
	struct prio_snapshot s;
	doc_tree(&s, false);
	s.conf.dampening_factor = 5;
	struct prio_fs_result *r = computed(&s, PRIO_FS_CLASSIC);
	/* User2: UE 0.275, SN 0.05: 2^(-5.5/5). */
	cr_assert_float_eq(r[find(&s, "User2")].fairshare, pow(2.0, -1.1),
			   1e-12);
	free(r);
	prio_snapshot_free(&s);
}

Test(depth_oblivious, ratios_below_the_first_tier)
{
	/* DEPTH_OBLIVIOUS on the document tree.  User2 (under C, under A):
	 * ratio_p = UE_C / SN_C where C itself is A's child: UE_C =
	 * ratio_p(A) * ratio_l(C)^k * SN_C with ratio_p(A) = 0.45 / 0.4,
	 * ratio_s = (0.2 + 0.25) / 0.4, ratio_l(C) = (0.25 / 0.1) / ratio_s;
	 * ln ratio_p > 0 and ln ratio_l > 0 agree, so k = 1. */
	struct prio_snapshot s;
	doc_tree(&s, false);
	struct prio_fs_result *r = computed(&s, PRIO_FS_DEPTH_OBLIVIOUS);
	uint32_t A = find_account(&s, "AccountA"),
		 C = find_account(&s, "AccountC");
	uint32_t B = find_account(&s, "AccountB");
	double rp = 0.45 / 0.4, rs = (0.2 + 0.25) / 0.4, rl = (0.25 / 0.1) / rs;
	cr_assert_float_eq((double)r[A].usage_efctv, 0.45,
			   1e-12); /* first tier: UN */
	cr_assert_float_eq((double)r[C].usage_efctv, rp * rl * 0.1, 1e-12);
	/* B: ratio_l = (0.2/0.3)/rs < 1 while ratio_p > 1: k damps it. */
	double rlb = (0.2 / 0.3) / rs, f = 5 * log(rp), k = 1 / (1 + f * f);
	cr_assert_float_eq((double)r[B].usage_efctv, rp * pow(rlb, k) * 0.3,
			   1e-12);
	cr_assert_float_eq(r[B].fairshare, pow(2.0, -rp * pow(rlb, k)), 1e-12);
	/* User3 (no usage): UE = UN = 0, factor 1. */
	cr_assert_float_eq((double)r[find(&s, "User3")].usage_efctv, 0.0, 0);
	cr_assert_float_eq(r[find(&s, "User3")].fairshare, 1.0, 0);
	free(r);
	prio_snapshot_free(&s);
}

static void pending_job(struct prio_snapshot *s, const char *user,
			const char *acct, bool held)
{
	struct prio_job *j = prio_snapshot_new_job(s);
	j->job_id = s->job_count;
	j->user = prio_snapshot_intern(s, user, strlen(user));
	j->account = prio_snapshot_intern(s, acct, strlen(acct));
	j->state = PRIO_JOB_PENDING;
	j->priority = held ? 0 : 1;
	j->held = held;
}

Test(ticket, seed_document_worked_example)
{
	/* Only users 2 and 5 have pending jobs; 1000 tickets at the root go
	 * to A and D by S*F: A 198, D 802; C and F pass them on whole; user 2
	 * gets PriorityFS 198/802 = 0.25, user 5 1.0.  A held job of user 1
	 * makes nothing active. */
	struct prio_snapshot s;
	doc_tree(&s, false);
	pending_job(&s, "User2", "AccountC", false);
	pending_job(&s, "User5", "AccountF", false);
	pending_job(&s, "User1", "AccountB", true);
	struct prio_fs_result *r = computed(&s, PRIO_FS_TICKET);
	uint32_t A = find_account(&s, "AccountA"),
		 D = find_account(&s, "AccountD");
	uint32_t B = find_account(&s, "AccountB");
	uint32_t u2 = find(&s, "User2"), u5 = find(&s, "User5"),
		 u1 = find(&s, "User1");
	cr_assert_float_eq(r[0].tickets, 1000.0, 0);
	cr_assert_eq((int)lround(r[A].tickets), 198);
	cr_assert_eq((int)lround(r[D].tickets), 802);
	cr_assert_float_eq(r[u2].tickets, r[A].tickets, 1e-9);
	cr_assert_float_eq(r[u5].tickets, r[D].tickets, 1e-9);
	cr_assert_float_eq(r[u5].fairshare, 1.0, 0);
	cr_assert_eq(lround(r[u2].fairshare * 100), 25);
	cr_assert_float_eq(r[u2].fairshare, r[A].tickets / r[D].tickets, 1e-12);
	/* The document's F values: A 0.89, D 2.40, F 100 (usage 0 -> S/100). */
	cr_assert_float_eq(r[A].norm_shares / (double)r[A].usage_efctv,
			   0.4 / 0.45, 1e-12);
	cr_assert_float_eq(r[D].norm_shares / (double)r[D].usage_efctv, 2.4,
			   1e-12);
	cr_assert_float_eq((double)r[find_account(&s, "AccountF")].usage_efctv,
			   0.0035, 1e-12);
	cr_assert(!r[B].active && r[u1].tickets == 0 && r[u1].fairshare == 0);
	cr_assert(isnan(r[A].fairshare)); /* accounts show none */
	free(r);
	prio_snapshot_free(&s);
}

Test(ticket, nobody_pending_gives_nobody_tickets)
{
	struct prio_snapshot s;
	doc_tree(&s, false);
	struct prio_fs_result *r = computed(&s, PRIO_FS_TICKET);
	for (uint32_t i = 0; i < s.assoc_count; i++)
		cr_assert(r[i].tickets == 0 && !r[i].active);
	cr_assert_float_eq(r[find(&s, "User1")].fairshare, 0.0, 0);
	free(r);
	prio_snapshot_free(&s);
}

/* Every value computed from usage shifted inside [u, u + 1) must fall in
 * the bounds computed from u.  True usages are consistent (an account holds
 * at least its children's usage, the tree's integers already do): random
 * trials give each association x < 1/n and add it to every ancestor; bump
 * trials raise one association and its ancestors by 0.999. */
static void check_bounds(enum prio_fs_algorithm algo, bool with_h)
{
	struct prio_snapshot s, t;
	struct prio_error err;
	doc_tree(&s, with_h);
	doc_tree(&t, with_h);
	uint32_t n = s.assoc_count;
	struct prio_fs_result *r = calloc(n, sizeof(*r)),
			      *q = calloc(n, sizeof(*q));
	struct prio_fs_bounds *b = calloc(n, sizeof(*b));
	cr_assert_eq(prio_fairshare_compute(&s, algo, r, &err), 0);
	cr_assert_eq(prio_fairshare_bounds(&s, algo, r, 1.0, NULL, b, &err), 0);
	unsigned seed = 12345;
	for (uint32_t trial = 0; trial < 100 + n; trial++) {
		for (uint32_t i = 0; i < n; i++)
			t.assocs[i].usage_raw = s.assocs[i].usage_raw;
		for (uint32_t j = 0; j < n; j++) {
			double x;
			seed = seed * 1103515245u + 12345u;
			if (trial < n)
				x = j == trial ? 0.999 : 0;
			else
				x = (seed >> 8) / 16777216.0 / n;
			for (uint32_t i = j; i != PRIO_ASSOC_NONE;
			     i = s.assocs[i].parent)
				t.assocs[i].usage_raw += x;
		}
		cr_assert_eq(prio_fairshare_compute(&t, algo, q, &err), 0);
		for (uint32_t i = 0; i < n; i++) {
			const double e = 1e-12;
			if (!isnan(q[i].usage_norm))
				cr_assert(
				    q[i].usage_norm >= b[i].usage_norm[0] - e &&
				    q[i].usage_norm <= b[i].usage_norm[1] + e);
			cr_assert((double)q[i].usage_efctv >=
					  b[i].usage_efctv[0] - e &&
				      (double)q[i].usage_efctv <=
					  b[i].usage_efctv[1] + e,
				  "%s %u: %g not in [%g, %g]",
				  prio_fs_algorithm_name(algo), i,
				  (double)q[i].usage_efctv, b[i].usage_efctv[0],
				  b[i].usage_efctv[1]);
			if (algo != PRIO_FS_FAIR_TREE && !isnan(q[i].fairshare))
				cr_assert(
				    q[i].fairshare >= b[i].fairshare[0] - e &&
				    q[i].fairshare <= b[i].fairshare[1] + e);
			if (algo == PRIO_FS_FAIR_TREE && i &&
			    s.assocs[i].shares_raw != P &&
			    isfinite((double)q[i].level_fs))
				cr_assert((double)q[i].level_fs >=
					      b[i].level_fs[0] * (1 - e) &&
					  (double)q[i].level_fs <=
					      b[i].level_fs[1] * (1 + e));
		}
	}
	free(r);
	free(q);
	free(b);
	prio_snapshot_free(&s);
	prio_snapshot_free(&t);
}

Test(bounds, fair_tree_intervals_hold)
{
	check_bounds(PRIO_FS_FAIR_TREE, true);
}

Test(bounds, classic_intervals_hold)
{
	check_bounds(PRIO_FS_CLASSIC, true);
}

Test(bounds, depth_oblivious_intervals_hold)
{
	check_bounds(PRIO_FS_DEPTH_OBLIVIOUS, false);
}

Test(bounds, exact_usage_gives_points)
{
	struct prio_snapshot s;
	struct prio_error err;
	doc_tree(&s, false);
	struct prio_fs_result *r = calloc(s.assoc_count, sizeof(*r));
	struct prio_fs_bounds *b = calloc(s.assoc_count, sizeof(*b));
	cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_CLASSIC, r, &err), 0);
	cr_assert_eq(
	    prio_fairshare_bounds(&s, PRIO_FS_CLASSIC, r, 0.0, NULL, b, &err),
	    0);
	uint32_t u2 = find(&s, "User2");
	cr_assert_float_eq(b[u2].fairshare[0], r[u2].fairshare, 1e-12);
	cr_assert_float_eq(b[u2].fairshare[1], r[u2].fairshare, 1e-12);
	free(r);
	free(b);
	prio_snapshot_free(&s);
}

/*
 * A search over time computes Fair Tree again and again with a cache
 * (prio_fs_setup.cache): each level is sorted starting from the order of
 * the previous computation.  Whatever that order, small moves of usage,
 * ties, zero usage or a reshuffle that sends the sort back to qsort, the
 * results must be those of a computation from nothing.
 */
static uint32_t lcg_state = 12345;
static uint32_t lcg(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return lcg_state >> 8;
}

static void sum_accounts(struct prio_snapshot *s)
{
	/* children come after their parent: sum from the end */
	for (uint32_t i = 1; i < s->assoc_count; i++)
		if (!s->assocs[i].is_user)
			s->assocs[i].usage_raw = 0;
	s->assocs[0].usage_raw = 0;
	for (uint32_t i = s->assoc_count; i-- > 1;)
		s->assocs[s->assocs[i].parent].usage_raw +=
		    s->assocs[i].usage_raw;
}

Test(fairtree, cached_order_gives_the_results_of_a_fresh_computation)
{
	struct prio_snapshot s;
	struct prio_error err;
	char name[32];
	prio_snapshot_init(&s);
	uint32_t root = add(&s, PRIO_ASSOC_NONE, "root", NULL, 1, 0);
	for (int a = 0; a < 4; a++) {
		snprintf(name, sizeof(name), "acct%d", a);
		uint32_t acct = add(&s, root, name, NULL, 1 + (uint32_t)a, 0);
		uint32_t sub = add(&s, acct, name, NULL, 2, 0);
		for (int u = 0; u < 60; u++) {
			char user[32];
			snprintf(user, sizeof(user), "u%d_%d", a, u);
			add(&s, u % 3 ? acct : sub, name, user,
			    1 + lcg() % 4, (double)(lcg() % 1000));
		}
	}
	link_tree(&s);
	sum_accounts(&s);
	uint32_t n = s.assoc_count;
	struct prio_fs_result *warm = calloc(n, sizeof(*warm));
	struct prio_fs_result *cold = calloc(n, sizeof(*cold));
	struct prio_fs_setup setup = {.algorithm = PRIO_FS_FAIR_TREE};
	setup.cache = prio_fs_cache_new(&s, &err);
	cr_assert_not_null(setup.cache, "%s", err.message);
	for (int round = 0; round < 40; round++) {
		for (uint32_t i = 1; i < n; i++) {
			struct prio_assoc *a = &s.assocs[i];
			if (!a->is_user)
				continue;
			if (round % 10 == 9) /* reshuffle */
				a->usage_raw = (double)(lcg() % 1000);
			else if (round % 10 == 5) /* ties and no usage */
				a->usage_raw = (double)(lcg() % 3) * 100;
			else /* a little more */
				a->usage_raw *= 1.0 + (double)(lcg() % 100) / 1000;
		}
		sum_accounts(&s);
		cr_assert_eq(prio_fairshare_slurm(&s, &setup, warm, NULL, &err), 0,
			     "%s", err.message);
		cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, cold,
						    &err),
			     0, "%s", err.message);
		for (uint32_t i = 0; i < n; i++) {
			cr_assert_eq(warm[i].rank, cold[i].rank,
				     "round %d association %u", round, i);
			cr_assert(warm[i].level_fs == cold[i].level_fs ||
				      (isnan((double)warm[i].level_fs) &&
				       isnan((double)cold[i].level_fs)),
				  "round %d association %u", round, i);
			cr_assert(warm[i].fairshare == cold[i].fairshare ||
				      (isnan(warm[i].fairshare) &&
				       isnan(cold[i].fairshare)),
				  "round %d association %u", round, i);
		}
	}
	/* a cache of another tree is refused, not misread */
	struct prio_snapshot t;
	prio_snapshot_init(&t);
	uint32_t r2 = add(&t, PRIO_ASSOC_NONE, "root", NULL, 1, 1);
	add(&t, r2, "x", NULL, 1, 1);
	link_tree(&t);
	cr_assert_eq(prio_fairshare_slurm(&t, &setup, warm, NULL, &err),
		     PRIO_ERR_USAGE);
	prio_snapshot_free(&t);
	prio_fs_cache_free(setup.cache);
	free(warm);
	free(cold);
	prio_snapshot_free(&s);
}

/*
 * The explanations' search over time asks Fair Tree for two users' factors
 * alone (fs_fair_tree_user_factor()): each must be the full ranking's,
 * bit for bit, on trees with ties at every level (no usage, equal usage),
 * Fairshare=parent accounts and users, zero shares and accounts without
 * users; where it gives up, the caller ranks the whole tree.
 */
Test(fairtree, one_users_factor_is_the_full_rankings)
{
	uint32_t answered = 0, asked = 0, tied_answered = 0;

	for (int round = 0; round < 60; round++) {
		struct prio_snapshot s;
		struct prio_error err;
		char name[32], sname[32], user[48];

		prio_snapshot_init(&s);
		uint32_t root = add(&s, PRIO_ASSOC_NONE, "root", NULL, 1, 0);
		for (int a = 0; a < 8; a++) {
			uint32_t pick = lcg() % 8;
			uint32_t shares = pick == 0 ? P : pick == 1 ? 0 : 1 + lcg() % 3;

			snprintf(name, sizeof(name), "a%d", a);
			uint32_t acct = add(&s, root, name, NULL, shares, 0);
			snprintf(sname, sizeof(sname), "a%ds", a);
			uint32_t sub = add(&s, acct, sname, NULL,
					   lcg() % 5 ? 1 + lcg() % 2 : P, 0);
			if (a == 7)
				continue; /* accounts without users */
			for (int u = 0; u < 6; u++) {
				uint32_t mode = lcg() % 10, us;
				double usage;

				snprintf(user, sizeof(user), "u%d_%d", a, u);
				us = mode == 0 ? P : mode == 1 ? 0 : 1 + lcg() % 2;
				usage = round % 3 == 0 ? (double)(lcg() % 2) * 100
					: round % 3 == 1 ? 0
							 : (double)(lcg() % 4) * 50;
				add(&s, u % 2 ? acct : sub, u % 2 ? name : sname,
				    user, us, usage);
			}
		}
		link_tree(&s);
		sum_accounts(&s);
		uint32_t n = s.assoc_count;
		struct prio_fs_result *cold = calloc(n, sizeof(*cold));
		struct prio_fs_cache *cache = prio_fs_cache_new(&s, &err);

		cr_assert_not_null(cache, "%s", err.message);
		cr_assert_eq(prio_fairshare_compute(&s, PRIO_FS_FAIR_TREE, cold,
						    &err),
			     0, "%s", err.message);
		for (uint32_t i = 0; i < n; i++) {
			double f = -1;

			if (!s.assocs[i].is_user)
				continue;
			asked++;
			if (!fs_fair_tree_user_factor(&s, cache, i, &f))
				continue;
			answered++;
			/* a user ranked as the one before it */
			for (uint32_t j = 0; j < n; j++)
				if (j != i && s.assocs[j].is_user &&
				    cold[j].rank == cold[i].rank) {
					tied_answered++;
					break;
				}
			cr_assert(f == cold[i].fairshare,
				  "round %d user %s: %.17g, the ranking %.17g "
				  "(rank %u)",
				  round,
				  prio_snapshot_str(&s, s.assocs[i].user), f,
				  cold[i].fairshare, cold[i].rank);
		}
		/* not a user, or out of the tree: the caller ranks it all */
		double f;
		cr_assert(!fs_fair_tree_user_factor(&s, cache, root, &f));
		cr_assert(!fs_fair_tree_user_factor(&s, cache, n, &f));
		prio_fs_cache_free(cache);
		free(cold);
		prio_snapshot_free(&s);
	}
	/* answered for all, ties included: never a way out of the test */
	cr_assert_eq(answered, asked, "%u of %u answered", answered, asked);
	cr_assert_gt(tied_answered, asked / 4, "%u tied of %u", tied_answered,
		     asked);
}
