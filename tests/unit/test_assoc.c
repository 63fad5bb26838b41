/* SPDX-License-Identifier: MIT */
/*
 * The association tree: sacctmgr dump and sshare loaders on the oracle's
 * real captures, merging the two, linking, and every malformed input the
 * loaders must refuse with file, line and field.
 */
#include <criterion/criterion.h>
#include <unistd.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "testutil.h"

typedef int (*loader_fn)(struct prio_snapshot *, const struct prio_source *,
			 struct prio_error *);

static const char *fmt(const struct prio_error *err)
{
	static char buf[1024];
	return prio_error_format(err, buf, sizeof(buf));
}

/* Load a file of the oracle (or any path) with one loader. */
static int load_file(struct prio_snapshot *s, loader_fn fn, const char *path,
		     struct prio_error *err)
{
	struct prio_source src;
	int rc = prio_source_open(&src, path, err);
	if (rc < 0)
		return rc;
	rc = fn(s, &src, err);
	prio_source_close(&src);
	return rc;
}

static int load_text(struct prio_snapshot *s, loader_fn fn, const char *name,
		     const char *text, struct prio_error *err)
{
	struct prio_source src;
	test_source(&src, name, text);
	return fn(s, &src, err);
}

static const char *oracle(const char *scenario, const char *file)
{
	static char buf[4][4096];
	static int next;
	char *b = buf[next++ % 4];
	snprintf(b, sizeof(buf[0]), "tests/oracle/%s/%s", scenario, file);
	return test_path(b);
}

/* Load one file and link; the test fails with the message otherwise. */
static void load_ok(struct prio_snapshot *s, loader_fn fn, const char *path)
{
	struct prio_error err;
	prio_error_clear(&err);
	int rc = load_file(s, fn, path, &err);
	cr_assert_eq(rc, 0, "%s: %s", path, fmt(&err));
	cr_assert_eq(s->warning_count, 0, "%s: warnings", path);
}

static void link_ok(struct prio_snapshot *s)
{
	struct prio_error err;
	prio_error_clear(&err);
	cr_assert_eq(prio_assoc_link(s, &err), 0, "%s", fmt(&err));
}

static struct prio_assoc *find(const struct prio_snapshot *s, const char *acct,
			       const char *user, const char *part)
{
	for (uint32_t i = 0; i < s->assoc_count; i++) {
		struct prio_assoc *a = &s->assocs[i];
		if (strcmp(prio_snapshot_str(s, a->account), acct))
			continue;
		if (strcmp(prio_snapshot_str(s, a->user), user ? user : ""))
			continue;
		if (strcmp(prio_snapshot_str(s, a->partition),
			   part ? part : ""))
			continue;
		return a;
	}
	return NULL;
}

static struct prio_assoc *must(const struct prio_snapshot *s, const char *acct,
			       const char *user)
{
	struct prio_assoc *a = find(s, acct, user, NULL);
	cr_assert_not_null(a, "no association %s/%s", acct, user ? user : "");
	return a;
}

/* The tree in pre-order as "depth:account/user/partition" lines. */
static char *preorder(const struct prio_snapshot *s)
{
	size_t cap = 64 + (size_t)s->assoc_count * 200, len = 0;
	char *out = malloc(cap);
	uint32_t *stack = malloc(((size_t)s->assoc_count + 1) * sizeof(*stack));
	uint32_t top = 0;
	out[0] = '\0';
	if (s->assoc_count)
		stack[top++] = 0;
	while (top) {
		uint32_t i = stack[--top], n = 0;
		const struct prio_assoc *a = &s->assocs[i];
		len +=
		    (size_t)snprintf(out + len, cap - len, "%u:%s/%s/%s\n",
				     a->depth, prio_snapshot_str(s, a->account),
				     prio_snapshot_str(s, a->user),
				     prio_snapshot_str(s, a->partition));
		for (uint32_t c = a->first_child; c != PRIO_ASSOC_NONE;
		     c = s->assocs[c].next_sibling)
			n++;
		top += n;
		for (uint32_t c = a->first_child, k = top; c != PRIO_ASSOC_NONE;
		     c = s->assocs[c].next_sibling)
			stack[--k] = c;
	}
	free(stack);
	return out;
}

/* Distinct user names, not counting the administrator "root" (the
 * scenarios' "12 users"). */
static unsigned distinct_users(const struct prio_snapshot *s)
{
	char *seen = calloc(s->strings.count + 1, 1);
	unsigned n = 0;
	for (uint32_t i = 0; i < s->assoc_count; i++)
		if (s->assocs[i].is_user && !seen[s->assocs[i].user]++ &&
		    strcmp(prio_snapshot_str(s, s->assocs[i].user), "root"))
			n++;
	free(seen);
	return n;
}

/* Expect a load to fail with status at line, field. */
static void expect_error(loader_fn fn, const char *text, int status,
			 unsigned long line, const char *field,
			 const char *needle)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	prio_error_clear(&err);
	int rc = load_text(&s, fn, "in.txt", text, &err);
	if (rc == 0)
		rc = prio_assoc_link(&s, &err);
	cr_assert_eq(rc, status, "want %s, got %d: %s",
		     prio_status_name(status), rc, fmt(&err));
	cr_assert_str_eq(err.file, "in.txt");
	cr_assert_eq(err.line, line, "line %lu, want %lu: %s", err.line, line,
		     fmt(&err));
	cr_assert_str_eq(err.field, field, "field \"%s\", want \"%s\": %s",
			 err.field, field, fmt(&err));
	if (needle)
		cr_assert(strstr(err.message, needle), "\"%s\" not in: %s",
			  needle, fmt(&err));
	prio_snapshot_free(&s);
}

#define DASHES "----------------------------------------"
#define DUMP_HEAD "Cluster - 'c':Fairshare=1\nParent - 'root'\n"

/* ===================================================================== */
/* sacctmgr dump                                                          */

Test(assoc_dump, fairtree_basic_tree_shares_priorities)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_assoc_dump,
		oracle("fairtree-basic", "sacctmgr_dump.cfg"));
	link_ok(&s);

	cr_assert_eq(s.assoc_count, 25);
	cr_assert_eq(s.user_assoc_count, 15);
	cr_assert_eq(distinct_users(&s), 12);
	cr_assert_eq(s.loaded_count, 1);
	cr_assert_eq(s.loaded[0].kind, PRIO_INPUT_ASSOC_DUMP);
	cr_assert_eq(s.loaded[0].records, 25);

	/* Root: the Cluster line, index 0. */
	struct prio_assoc *root = &s.assocs[0];
	cr_assert_str_eq(prio_snapshot_str(&s, root->account), "root");
	cr_assert_str_eq(prio_snapshot_str(&s, root->cluster), "ft");
	cr_assert_eq(root->parent, PRIO_ASSOC_NONE);
	cr_assert_eq(root->shares_raw, 1);
	cr_assert_str_eq(root->qos_text, "normal");
	cr_assert_eq(root->line, 13);

	/* Fairshare=2147483647 is "parent". */
	cr_assert_eq(must(&s, "genomics", "oscar")->shares_raw,
		     PRIO_FS_USE_PARENT);
	cr_assert_eq(must(&s, "orgchem", "grace")->shares_raw, 3);

	/* Priorities: own, and inherited down the tree. */
	struct prio_assoc *bob = must(&s, "astro", "bob");
	cr_assert_eq(bob->priority, 100);
	cr_assert_eq(bob->priority_eff, 100);
	cr_assert_eq(bob->line, 40);
	cr_assert_eq(must(&s, "physics", NULL)->priority, 5);
	cr_assert_eq(must(&s, "astro", "alice")->priority, PRIO_NO_VAL);
	cr_assert_eq(must(&s, "astro", "alice")->priority_eff, 5);
	cr_assert_eq(must(&s, "hep", "alice")->priority_eff, 20);
	cr_assert_eq(must(&s, "hep_th", "erin")->priority_eff, 20);
	cr_assert_eq(must(&s, "genomics", "judy")->priority_eff, 50);
	cr_assert_eq(must(&s, "chem", "mallory")->priority_eff, 0);
	cr_assert_eq(root->priority_eff, 0);

	/* alice has two associations; root is also a user (twice). */
	cr_assert_not_null(find(&s, "astro", "alice", NULL));
	cr_assert_not_null(find(&s, "hep", "alice", NULL));
	cr_assert_not_null(find(&s, "root", "root", NULL));
	cr_assert_not_null(find(&s, "physics", "root", NULL));

	/* DefaultQOS and QOS lists. */
	cr_assert_str_eq(prio_snapshot_str(&s, bob->default_qos), "normal");
	cr_assert_str_eq(bob->qos_text, "high,low,normal,urgent");
	cr_assert_eq(bob->from, PRIO_ASSOC_FROM_DUMP);
	cr_assert_not(bob->usage_known);

	/* sshare's order: users by name, then accounts by name. */
	char *tree = preorder(&s);
	cr_assert_str_eq(tree, "0:root//\n"
			       "1:root/root/\n"
			       "1:bio//\n"
			       "2:genomics//\n"
			       "3:genomics/ivan/\n"
			       "3:genomics/judy/\n"
			       "3:genomics/oscar/\n"
			       "1:chem//\n"
			       "2:chem/mallory/\n"
			       "2:biochem//\n"
			       "3:biochem/heidi/\n"
			       "2:orgchem//\n"
			       "3:orgchem/frank/\n"
			       "3:orgchem/grace/\n"
			       "1:physics//\n"
			       "2:physics/root/\n"
			       "2:astro//\n"
			       "3:astro/alice/\n"
			       "3:astro/bob/\n"
			       "2:hep//\n"
			       "3:hep/alice/\n"
			       "3:hep/carol/\n"
			       "3:hep/dave/\n"
			       "3:hep_th//\n"
			       "4:hep_th/erin/\n");
	free(tree);
	prio_snapshot_free(&s);
}

Test(assoc_dump, every_scenario_loads_and_links)
{
	glob_t g;
	cr_assert_eq(
	    glob(test_path("tests/oracle/*/sacctmgr_dump.cfg"), 0, NULL, &g),
	    0);
	cr_assert_geq(g.gl_pathc, 8);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct prio_snapshot s;
		prio_snapshot_init(&s);
		load_ok(&s, prio_load_assoc_dump, g.gl_pathv[i]);
		link_ok(&s);
		cr_assert_gt(s.user_assoc_count, 0);
		cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[0].account),
				 "root");
		if (strstr(g.gl_pathv[i], "seed-hierarchy")) {
			cr_assert_eq(s.user_assoc_count, 15);
			cr_assert_eq(must(&s, "ingenomix_lab", "s03")->depth,
				     4);
			cr_assert_eq(must(&s, "unilim", NULL)->shares_raw, 900);
			cr_assert_str_eq(
			    prio_snapshot_str(&s, s.assocs[0].cluster), "seed");
		} else if (strstr(g.gl_pathv[i], "/slurm-24.11-")) {
			/* the live test's tree: root's own user row and six
			 * users, pllive1 in two accounts */
			cr_assert_eq(s.user_assoc_count, 8, "%s",
				     g.gl_pathv[i]);
			cr_assert_eq(distinct_users(&s), 6); /* not root */
			cr_assert_eq(must(&s, "accb2", "pllive5")->shares_raw,
				     PRIO_FS_USE_PARENT);
		} else {
			cr_assert_eq(s.user_assoc_count, 15, "%s",
				     g.gl_pathv[i]);
			cr_assert_eq(distinct_users(&s), 12);
		}
		prio_snapshot_free(&s);
	}
	globfree(&g);
}

Test(assoc_dump, loader_rules_of_sacctmgr)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	/* Options in any order, unique prefixes, any case, lower-cased
	 * values, both quotes, comments (an escaped '#' is not one),
	 * continuation lines, Machine/Project spellings, limits kept. */
	const char *text =
	    "# a comment\n"
	    "Machine - 'Big':QOS=\"Normal\":fairSHARE=7   # trailing comment\n"
	    "  \n"
	    "parent - root\n"
	    "Project - 'Phys':Prio=9:Desc='a \\# "
	    "b':Fair=40:GrpTRES=cpu=10:MaxJobs=4:MaxWall='1-00:00:00'\n"
	    "USER - 'Zed':Part='Short':Defaultq=High:Fairshare=parent\n"
	    "User - 'amy':Fair\\\n"
	    "share=3:QOS='a,b'\n"
	    "Parent - 'phys'\n"
	    "User - 'amy':Fairshare=2:Partition=big\n"
	    "User - 'amy':Fairshare=2:Partition=short\n"
	    "User - 'amy':Fairshare=2\n";
	int rc = load_text(&s, prio_load_assoc_dump, "in.cfg", text, &err);
	cr_assert_eq(rc, 0, "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(s.assoc_count, 7);
	cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[0].cluster), "big");
	cr_assert_eq(s.assocs[0].shares_raw, 7);
	cr_assert_str_eq(s.assocs[0].qos_text, "normal");
	struct prio_assoc *phys = must(&s, "phys", NULL);
	cr_assert_eq(phys->shares_raw, 40);
	cr_assert_eq(phys->priority, 9);
	cr_assert_str_eq(
	    phys->limits_text,
	    "GrpTRES=cpu=10:MaxJobs=4:MaxWallDurationPerJob=1-00:00:00");
	cr_assert_eq(phys->line, 5);
	struct prio_assoc *zed = find(&s, "root", "zed", "short");
	cr_assert_not_null(zed);
	cr_assert_eq(zed->shares_raw, PRIO_FS_USE_PARENT);
	cr_assert_str_eq(prio_snapshot_str(&s, zed->default_qos), "high");
	struct prio_assoc *amy = find(&s, "root", "amy", NULL);
	cr_assert_not_null(amy);
	cr_assert_eq(amy->shares_raw, 3, "continued line joined");
	cr_assert_eq(amy->line, 7);
	cr_assert_str_eq(amy->qos_text, "a,b");
	/* Three partition associations of amy in phys: no partition first,
	 * then by partition name. */
	char *tree = preorder(&s);
	cr_assert_str_eq(tree, "0:root//\n"
			       "1:root/amy/\n"
			       "1:root/zed/short\n"
			       "1:phys//\n"
			       "2:phys/amy/\n"
			       "2:phys/amy/big\n"
			       "2:phys/amy/short\n");
	free(tree);
	cr_assert_eq(phys->priority_eff, 9);
	cr_assert_eq(must(&s, "phys", "amy")->priority_eff, 9);
	prio_snapshot_free(&s);
}

Test(assoc_dump, parent_named_before_its_account_line)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	const char *text = DUMP_HEAD "Account - 'a'\n"
				     "Parent - 'b'\n"
				     "User - 'u'\n"
				     "Parent - 'a'\n"
				     "Account - 'b':Priority=3\n";
	cr_assert_eq(load_text(&s, prio_load_assoc_dump, "in.cfg", text, &err),
		     0, "%s", fmt(&err));
	link_ok(&s);
	struct prio_assoc *u = must(&s, "b", "u");
	cr_assert_eq(u->depth, 3);
	cr_assert_eq(u->priority_eff, 3);
	cr_assert_eq(must(&s, "b", NULL)->line, 7);
	prio_snapshot_free(&s);
}

Test(assoc_dump, malformed_lines)
{
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Acount - 'x'\n",
		     PRIO_ERR_PARSE, 3, "Acount", "unknown object");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'x':Fairshare=1:Colour=red\n",
		     PRIO_ERR_PARSE, 3, "Colour", "unknown option");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Account - 'x':Max=3\n",
		     PRIO_ERR_PARSE, 3, "Max", "ambiguous");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'x':Fairshare=lots\n", PRIO_ERR_PARSE,
		     3, "Fairshare", "\"lots\"");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "User - 'x':Priority=-5\n",
		     PRIO_ERR_PARSE, 3, "Priority", "unsigned integer");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "User - 'x':MaxJobs=many\n", PRIO_ERR_PARSE, 3,
		     "MaxJobs", NULL);
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "User - 'x':MaxWall='1:2:3:4'\n", PRIO_ERR_PARSE,
		     3, "MaxWallDurationPerJob", NULL);
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'x':Description='never closed\n",
		     PRIO_ERR_PARSE, 3, "Description", "unterminated quote");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Account - 'x\n",
		     PRIO_ERR_PARSE, 3, "Account", "unterminated quote");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'x':Fairshare\n", PRIO_ERR_PARSE, 3,
		     "Fairshare", "Option=value");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - x:Partition=p\n", PRIO_ERR_PARSE, 3,
		     "Partition", "only valid on User");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Parent - 'x':Fairshare=2\n", PRIO_ERR_PARSE, 3,
		     "Parent", "no options");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Account - ''\n",
		     PRIO_ERR_PARSE, 3, "Account", "empty name");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "just words\n",
		     PRIO_ERR_PARSE, 3, "", "expected");
	/* Truncated line: the name is there, the option is cut off. */
	expect_error(prio_load_assoc_dump, DUMP_HEAD "User - 'x':Fairsh",
		     PRIO_ERR_PARSE, 3, "Fairsh", "Option=value");
}

Test(assoc_dump, structure_errors)
{
	expect_error(prio_load_assoc_dump, "Cluster - 'c'\nUser - 'u'\n",
		     PRIO_ERR_PARSE, 2, "User", "before any Parent");
	expect_error(prio_load_assoc_dump, "Parent - 'root'\nCluster - 'c'\n",
		     PRIO_ERR_PARSE, 1, "Parent", "before the Cluster");
	expect_error(prio_load_assoc_dump, "# only comments\n", PRIO_ERR_PARSE,
		     1, "Cluster", "no Cluster line");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Cluster - 'd'\n",
		     PRIO_ERR_PARSE, 3, "Cluster", "second Cluster");
	/* Orphan: a Parent never defined under the tree. */
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'a'\nParent - 'ghost'\nUser - 'u'\n",
		     PRIO_ERR_PARSE, 4, "Parent", "orphan");
	/* Account defined twice. */
	expect_error(
	    prio_load_assoc_dump,
	    DUMP_HEAD
	    "Account - 'a'\nAccount - 'b'\nParent - 'b'\nAccount - 'a'\n",
	    PRIO_ERR_PARSE, 6, "Account", "defined twice");
	expect_error(prio_load_assoc_dump, DUMP_HEAD "Account - 'root'\n",
		     PRIO_ERR_PARSE, 3, "Account", "defined twice");
	/* Cycle: a and b are each other's parent, neither under root. */
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Account - 'x'\nParent - 'a'\nAccount - "
			       "'b'\nParent - 'b'\nAccount - 'a'\n",
		     PRIO_ERR_PARSE, 7, "Account", "cycle");
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Parent - 'a'\nAccount - 'a'\n", PRIO_ERR_PARSE,
		     4, "Account", "under itself");
	/* Duplicate user association (same user, account, partition). */
	expect_error(
	    prio_load_assoc_dump,
	    DUMP_HEAD
	    "User - 'u':Partition=p\nUser - 'v'\nUser - 'U':Partition='P'\n",
	    PRIO_ERR_PARSE, 5, "User", "defined twice");
	/* A bad Parent line: what follows has no parent. */
	expect_error(prio_load_assoc_dump,
		     DUMP_HEAD "Parent - 'a':x=1\nUser - 'u'\n", PRIO_ERR_PARSE,
		     3, "x", "unknown option");
}

Test(assoc_dump, too_deep)
{
	char *text = malloc(100000);
	size_t n = (size_t)sprintf(
	    text, "Cluster - 'c'\nParent - 'root'\nAccount - 'a0'\n");
	for (int i = 1; i <= PRIO_ASSOC_MAX_DEPTH; i++)
		n += (size_t)sprintf(
		    text + n, "Parent - 'a%d'\nAccount - 'a%d'\n", i - 1, i);
	/* a64 is at depth 65. */
	expect_error(prio_load_assoc_dump, text, PRIO_ERR_LIMIT,
		     3 + 2 * PRIO_ASSOC_MAX_DEPTH, "Account", "deeper than 64");
	/* One level less is fine. */
	n = (size_t)sprintf(text,
			    "Cluster - 'c'\nParent - 'root'\nAccount - 'a0'\n");
	for (int i = 1; i < PRIO_ASSOC_MAX_DEPTH; i++)
		n += (size_t)sprintf(
		    text + n, "Parent - 'a%d'\nAccount - 'a%d'\n", i - 1, i);
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	cr_assert_eq(load_text(&s, prio_load_assoc_dump, "in.txt", text, &err),
		     0, "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(must(&s, "a63", NULL)->depth, PRIO_ASSOC_MAX_DEPTH);
	prio_snapshot_free(&s);
	free(text);
}

Test(assoc_dump, nul_byte_and_huge_line)
{
	struct prio_snapshot s;
	struct prio_source src;
	struct prio_error err;
	static const char nul[] =
	    "Cluster - 'c'\nParent - 'root'\nUser - 'u\0v'\n";
	prio_snapshot_init(&s);
	prio_source_from_memory(&src, "in.txt", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_assoc_dump(&s, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "");
	cr_assert(strstr(err.message, "NUL"));
	prio_snapshot_free(&s);

	size_t big = 1u << 20;
	char *text = malloc(big + 100);
	size_t n =
	    (size_t)sprintf(text, "Cluster - 'c'\nParent - 'root'\nUser - '");
	memset(text + n, 'u', big);
	strcpy(text + n + big, "'\n");
	prio_snapshot_init(&s);
	test_source(&src, "in.txt", text);
	cr_assert_eq(prio_load_assoc_dump(&s, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "");
	prio_snapshot_free(&s);

	/* Continuation lines cannot build a huge line either. */
	n = (size_t)sprintf(text, "Cluster - 'c':Description='");
	for (int i = 0; i < 6; i++) {
		memset(text + n, 'd', 60000);
		n += 60000;
		n += (size_t)sprintf(text + n, "\\\n");
	}
	strcpy(text + n, "'\n");
	prio_snapshot_init(&s);
	test_source(&src, "in.txt", text);
	cr_assert_eq(prio_load_assoc_dump(&s, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 1);
	prio_snapshot_free(&s);
	free(text);
}

Test(assoc_dump, keep_going_reports_and_skips)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	s.keep_going = true;
	const char *text =
	    DUMP_HEAD "User - 'a':Fairshare=x\n"  /* 3: bad number */
		      "User - 'b'\n"		  /* fine */
		      "Parent - 'root':Bogus=1\n" /* 5: refused Parent */
		      "User - 'c'\n"		  /* 6: has no parent now */
		      "Parent - 'root'\n"
		      "User - 'd'\n";
	cr_assert_eq(load_text(&s, prio_load_assoc_dump, "in.txt", text, &err),
		     0, "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(s.warning_count, 3);
	cr_assert_eq(s.warnings[0].error.line, 3);
	cr_assert_str_eq(s.warnings[0].error.field, "Fairshare");
	cr_assert_eq(s.warnings[1].error.line, 5);
	cr_assert_eq(s.warnings[2].error.line, 6);
	cr_assert_str_eq(s.warnings[2].error.field, "User");
	cr_assert_eq(s.user_assoc_count, 2);
	cr_assert_not_null(find(&s, "root", "b", NULL));
	cr_assert_not_null(find(&s, "root", "d", NULL));
	prio_snapshot_free(&s);
}

/* ===================================================================== */
/* sshare                                                                 */

Test(assoc_sshare, parsable_long_fairtree_basic)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_l_P.txt"));
	link_ok(&s);
	cr_assert_eq(s.assoc_count, 25);
	cr_assert_eq(s.user_assoc_count, 15);
	cr_assert_eq(distinct_users(&s), 12);
	cr_assert_eq(s.loaded[0].kind, PRIO_INPUT_SSHARE);
	cr_assert_eq(s.loaded[0].records, 25);

	struct prio_assoc *root = &s.assocs[0];
	cr_assert_str_eq(prio_snapshot_str(&s, root->account), "root");
	cr_assert(root->usage_known);
	cr_assert_eq((double)root->usage_raw, 35834.0);
	cr_assert_eq(root->shares_raw, PRIO_NO_VAL, "root RawShares is blank");
	cr_assert(root->slurm.blank & PRIO_SSHARE_RAW_SHARES);
	cr_assert(root->slurm.blank & PRIO_SSHARE_NORM_USAGE);
	cr_assert(root->slurm.blank & PRIO_SSHARE_LEVEL_FS);
	cr_assert_float_eq(root->slurm.effectv_usage, 1.0, 1e-12);
	cr_assert_str_eq(root->slurm.tres_run_mins,
			 "cpu=4422,mem=7451033,energy=0,node=1328,billing=5626,"
			 "fs/disk=0,vmem=0,pages=0");

	struct prio_assoc *bob = must(&s, "astro", "bob");
	cr_assert_eq((double)bob->usage_raw, 2777.0);
	cr_assert_eq(bob->slurm.raw_usage, 2777);
	cr_assert_eq(bob->shares_raw, 2);
	cr_assert_float_eq(bob->slurm.norm_shares, 0.666667, 1e-9);
	cr_assert_float_eq(bob->slurm.fairshare, 0.6, 1e-9);
	cr_assert_float_eq(bob->slurm.level_fs, 1.678241, 1e-9);
	cr_assert_eq(bob->depth, 3);
	cr_assert_eq(bob->from, PRIO_ASSOC_FROM_SSHARE);
	cr_assert_eq(bob->priority, PRIO_NO_VAL, "sshare has no priorities");
	cr_assert(bob->slurm.present & PRIO_SSHARE_GRP_TRES_MINS);
	cr_assert(bob->slurm.blank & PRIO_SSHARE_GRP_TRES_MINS);
	cr_assert_not(bob->slurm.present & PRIO_SSHARE_ID, "no ID column");

	struct prio_assoc *oscar = must(&s, "genomics", "oscar");
	cr_assert_eq(oscar->shares_raw, PRIO_FS_USE_PARENT);
	cr_assert(oscar->slurm.blank & PRIO_SSHARE_LEVEL_FS);
	cr_assert(isinf(must(&s, "genomics", "judy")->slurm.level_fs));
	cr_assert(isinf(must(&s, "root", "root")->slurm.level_fs));
	cr_assert(must(&s, "hep", NULL)->slurm.blank & PRIO_SSHARE_FAIRSHARE,
		  "accounts have no FairShare under Fair Tree");
	cr_assert_eq((double)must(&s, "hep", "alice")->usage_raw, 249.0);
	cr_assert_eq(s.sshare_columns,
		     PRIO_SSHARE_RAW_SHARES | PRIO_SSHARE_NORM_SHARES |
			 PRIO_SSHARE_RAW_USAGE | PRIO_SSHARE_NORM_USAGE |
			 PRIO_SSHARE_EFFECTV_USAGE | PRIO_SSHARE_FAIRSHARE |
			 PRIO_SSHARE_LEVEL_FS | PRIO_SSHARE_GRP_TRES_MINS |
			 PRIO_SSHARE_TRES_RUN_MINS);

	/* Same tree, same order as the dump gives. */
	struct prio_snapshot d;
	prio_snapshot_init(&d);
	load_ok(&d, prio_load_assoc_dump,
		oracle("fairtree-basic", "sacctmgr_dump.cfg"));
	link_ok(&d);
	char *a = preorder(&s), *b = preorder(&d);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
	prio_snapshot_free(&d);
	prio_snapshot_free(&s);
}

/* Every sshare capture of every scenario gives the tree of its -P
 * capture, with the same values where they share columns. */
Test(assoc_sshare, every_capture_of_every_scenario)
{
	static const char *const files[] = {"sshare_a_l.txt", "sshare_a.txt",
					    "sshare_a_l_P_o_all.txt",
					    "sshare_a_o_all_wide.txt"};
	glob_t g;
	cr_assert_eq(
	    glob(test_path("tests/oracle/*/sshare_a_l_P.txt"), 0, NULL, &g), 0);
	cr_assert_geq(g.gl_pathc, 8);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct prio_snapshot ref;
		prio_snapshot_init(&ref);
		load_ok(&ref, prio_load_sshare, g.gl_pathv[i]);
		link_ok(&ref);
		char *want = preorder(&ref);
		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			char path[4096];
			snprintf(path, sizeof(path), "%s", g.gl_pathv[i]);
			strcpy(strrchr(path, '/') + 1, files[f]);
			/* the live test's captures (they have a draw file)
			 * keep only some of the layouts */
			char draw[4096];
			snprintf(draw, sizeof(draw), "%s", path);
			strcpy(strrchr(draw, '/') + 1, "draw");
			if (access(path, R_OK) != 0 && access(draw, R_OK) == 0)
				continue;
			struct prio_snapshot s;
			prio_snapshot_init(&s);
			load_ok(&s, prio_load_sshare, path);
			link_ok(&s);
			char *got = preorder(&s);
			cr_assert_str_eq(got, want, "%s", path);
			free(got);
			for (uint32_t k = 0; k < s.assoc_count; k++) {
				const struct prio_assoc *a = &s.assocs[k];
				const struct prio_assoc *r = find(
				    &ref, prio_snapshot_str(&s, a->account),
				    a->is_user ? prio_snapshot_str(&s, a->user)
					       : NULL,
				    NULL);
				cr_assert_not_null(r);
				cr_assert_eq(a->shares_raw, r->shares_raw,
					     "%s line %lu", path, a->line);
				cr_assert_eq((double)a->usage_raw,
					     (double)r->usage_raw);
				cr_assert_eq(
				    a->slurm.blank & PRIO_SSHARE_FAIRSHARE,
				    r->slurm.blank & PRIO_SSHARE_FAIRSHARE);
				if (!(a->slurm.blank & PRIO_SSHARE_FAIRSHARE))
					cr_assert_float_eq(a->slurm.fairshare,
							   r->slurm.fairshare,
							   1e-9);
			}
			prio_snapshot_free(&s);
		}
		free(want);
		prio_snapshot_free(&ref);
	}
	globfree(&g);
}

Test(assoc_sshare, plain_and_wide_values)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_l.txt"));
	link_ok(&s);
	struct prio_assoc *judy = must(&s, "genomics", "judy");
	cr_assert(isinf(judy->slurm.level_fs));
	cr_assert_float_eq(judy->slurm.fairshare, 0.2, 1e-9);
	cr_assert_eq(must(&s, "genomics", "oscar")->shares_raw,
		     PRIO_FS_USE_PARENT);
	cr_assert_eq((double)s.assocs[0].usage_raw, 35834.0);
	/* TRESRunMins is cut with '+' at 30 characters: lost, not wrong. */
	cr_assert_not(judy->slurm.present & PRIO_SSHARE_TRES_RUN_MINS);
	cr_assert_null(judy->slurm.tres_run_mins);
	cr_assert(judy->slurm.present & PRIO_SSHARE_GRP_TRES_MINS);
	cr_assert(judy->slurm.blank & PRIO_SSHARE_GRP_TRES_MINS);
	prio_snapshot_free(&s);

	/* Account%30 (right-justified), User%12, ID, GrpTRESRaw%120. */
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_o_all_wide.txt"));
	link_ok(&s);
	struct prio_assoc *bob = must(&s, "astro", "bob");
	cr_assert_eq(bob->id, 13);
	cr_assert_eq(bob->depth, 3);
	cr_assert_eq((double)bob->usage_raw, 2777.0);
	cr_assert_str_eq(bob->slurm.grp_tres_raw,
			 "cpu=30,mem=45756,energy=0,node=8,billing=41,fs/"
			 "disk=0,vmem=0,pages=0");
	cr_assert_eq(must(&s, "genomics", NULL)->parent,
		     (uint32_t)(must(&s, "bio", NULL) - s.assocs));
	cr_assert_eq(must(&s, "orgchem", NULL)->parent,
		     (uint32_t)(must(&s, "chem", NULL) - s.assocs));
	prio_snapshot_free(&s);
}

Test(assoc_sshare, trailing_bar_subsets_and_case)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	/* -p: a '|' after every field. */
	const char *p = "Account|User|RawShares|RawUsage|\n"
			"root|||100|\n"
			" a||5|60|\n"
			"  a|u1|1|60|\n"
			" b||parent|40|\n"
			"  b|u2|2|40|\n";
	cr_assert_eq(load_text(&s, prio_load_sshare, "in.txt", p, &err), 0,
		     "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(s.user_assoc_count, 2);
	cr_assert_eq(must(&s, "b", NULL)->shares_raw, PRIO_FS_USE_PARENT);
	cr_assert_eq((double)must(&s, "b", "u2")->usage_raw, 40.0);
	prio_snapshot_free(&s);

	/* Any order and case of headers; unknown columns ride along. */
	prio_snapshot_init(&s);
	const char *q = "rawusage|USER|Extra|account|partition\n"
			"7||x|root|\n"
			"3|u|y| root|big\n"
			"4|u|z| root|small\n";
	cr_assert_eq(load_text(&s, prio_load_sshare, "in.txt", q, &err), 0,
		     "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq((double)find(&s, "root", "u", "small")->usage_raw, 4.0);
	cr_assert_eq(find(&s, "root", "u", "big")->slurm.present &
			 PRIO_SSHARE_PARTITION,
		     PRIO_SSHARE_PARTITION);
	prio_snapshot_free(&s);

	/* Plain text of a few columns, Account not first. */
	prio_snapshot_init(&s);
	char t[1024];
	size_t n = 0;
	n += (size_t)sprintf(t + n, "%10s %-20s %11s \n", "User", "Account",
			     "RawUsage");
	n += (size_t)sprintf(t + n, "%.10s %.20s %.11s \n", DASHES, DASHES,
			     DASHES);
	n += (size_t)sprintf(t + n, "%10s %-20s %11s \n", "", "root", "10");
	n += (size_t)sprintf(t + n, "%10s %-20s %11s \n", "zz", " root", "4");
	n += (size_t)sprintf(t + n, "%10s %-20s %11s \n", "aa", " root", "0");
	cr_assert_eq(load_text(&s, prio_load_sshare, "in.txt", t, &err), 0,
		     "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(s.user_assoc_count, 2);
	char *tree = preorder(&s);
	cr_assert_str_eq(tree, "0:root//\n1:root/aa/\n1:root/zz/\n");
	free(tree);
	prio_snapshot_free(&s);
}

Test(assoc_sshare, cluster_prefix)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	const char *one = "CLUSTER: ft\n"
			  "Account|User|RawUsage\n"
			  "root||5\n"
			  " root|u|5\n";
	cr_assert_eq(load_text(&s, prio_load_sshare, "in.txt", one, &err), 0,
		     "%s", fmt(&err));
	cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[0].cluster), "ft");
	cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[1].cluster), "ft");
	prio_snapshot_free(&s);

	expect_error(prio_load_sshare,
		     "CLUSTER: ft\nAccount|User\nroot|\n\nCLUSTER: "
		     "other\nAccount|User\nroot|\n",
		     PRIO_ERR_PARSE, 5, "Cluster", "several clusters");
}

Test(assoc_sshare, malformed)
{
	/* Columns the tree needs. */
	expect_error(prio_load_sshare, "Account|RawUsage\nroot|1\n",
		     PRIO_ERR_PARSE, 1, "User", "no User column");
	expect_error(prio_load_sshare, "User|RawUsage\n|1\n", PRIO_ERR_PARSE, 1,
		     "Account", "no Account column");
	expect_error(prio_load_sshare, "Account|User|User\n", PRIO_ERR_PARSE, 1,
		     "User", "twice");
	expect_error(prio_load_sshare, "root||1\n", PRIO_ERR_PARSE, 1, "",
		     "-n");
	expect_error(prio_load_sshare, "", PRIO_ERR_PARSE, 1, "",
		     "no sshare header");
	/* Bad numbers. */
	expect_error(prio_load_sshare, "Account|User|RawUsage\nroot||lots\n",
		     PRIO_ERR_PARSE, 2, "RawUsage", "\"lots\"");
	expect_error(prio_load_sshare,
		     "Account|User|RawShares\nroot||\n a||-3\n", PRIO_ERR_PARSE,
		     3, "RawShares", NULL);
	expect_error(prio_load_sshare, "Account|User|LevelFS\nroot||1.2.3\n",
		     PRIO_ERR_PARSE, 2, "LevelFS", "number");
	/* Truncated lines. */
	expect_error(prio_load_sshare,
		     "Account|User|RawShares|RawUsage\nroot|||1\n a||2\n",
		     PRIO_ERR_PARSE, 3, "RawUsage", "truncated");
	expect_error(prio_load_sshare,
		     "Account|User|RawUsage|\nroot||1|\n a||2\n",
		     PRIO_ERR_PARSE, 3, "", "truncated");
	expect_error(prio_load_sshare, "Account|User\nroot||\n", PRIO_ERR_PARSE,
		     2, "", "header has 2");
	/* Tree shape. */
	expect_error(prio_load_sshare, "Account|User\n a|\n", PRIO_ERR_PARSE, 2,
		     "Account", "not the root");
	expect_error(prio_load_sshare, "Account|User\nphysics|\n",
		     PRIO_ERR_PARSE, 2, "Account", "-A or -u");
	expect_error(prio_load_sshare, "Account|User\nroot|\n a|\n   b|\n",
		     PRIO_ERR_PARSE, 4, "Account", "indented 3");
	expect_error(prio_load_sshare, "Account|User\nroot|\n a|\nb|\n",
		     PRIO_ERR_PARSE, 4, "Account", "second root");
	expect_error(prio_load_sshare, "Account|User\nroot|\n a|\n  b|u\n",
		     PRIO_ERR_PARSE, 4, "Account", "sits under account a");
	expect_error(prio_load_sshare,
		     "Account|User\nroot|\n a|\n  a|u\n  a|u\n", PRIO_ERR_PARSE,
		     5, "User", "twice");
	expect_error(prio_load_sshare, "Account|User\nroot|\n a|\n a|\n",
		     PRIO_ERR_PARSE, 4, "Account", "twice");
	expect_error(prio_load_sshare, "Account|User\nroot|\n |\n",
		     PRIO_ERR_PARSE, 3, "Account", "empty account");
	/* Plain text: a name cut with '+', a row off the columns. */
	char t[1024];
	size_t n = 0;
	n += (size_t)sprintf(t + n, "%-10s %7s \n%.10s %.7s \n", "Account",
			     "User", DASHES, DASHES);
	n += (size_t)sprintf(t + n, "%-10s %7s \n", "root", "");
	n += (size_t)sprintf(t + n, "%-10s %7s \n", " averyver+", "");
	expect_error(prio_load_sshare, t, PRIO_ERR_PARSE, 4, "Account",
		     "cut by sshare");
	n = 0;
	n += (size_t)sprintf(t + n, "%-10s %6s %10s \n%.10s %.6s %.10s \n",
			     "Account", "User", "RawUsage", DASHES, DASHES,
			     DASHES);
	n += (size_t)sprintf(t + n, "%-10s %6s %10s \n", "root", "",
			     "123456789012");
	expect_error(prio_load_sshare, t, PRIO_ERR_PARSE, 3, "RawUsage",
		     "line up");
	expect_error(prio_load_sshare, "Account User\nroot\n", PRIO_ERR_PARSE,
		     2, "", "dashes");
}

Test(assoc_sshare, too_deep_nul_and_huge_line)
{
	char *text = malloc(1u << 21);
	size_t n = (size_t)sprintf(text, "Account|User\nroot|\n");
	for (int d = 1; d <= PRIO_ASSOC_MAX_DEPTH + 1; d++)
		n += (size_t)sprintf(text + n, "%*sa%d|\n", d, "", d);
	expect_error(prio_load_sshare, text, PRIO_ERR_LIMIT,
		     2 + PRIO_ASSOC_MAX_DEPTH + 1, "Account", "deeper");

	struct prio_snapshot s;
	struct prio_source src;
	struct prio_error err;
	static const char nul[] = "Account|User\nroot|\n a|u\0\n";
	prio_snapshot_init(&s);
	prio_source_from_memory(&src, "in.txt", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_sshare(&s, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "");
	prio_snapshot_free(&s);

	n = (size_t)sprintf(text, "Account|User\nroot|\n a|");
	memset(text + n, 'u', 1u << 20);
	strcpy(text + n + (1u << 20), "\n");
	prio_snapshot_init(&s);
	test_source(&src, "in.txt", text);
	cr_assert_eq(prio_load_sshare(&s, &src, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "");
	prio_snapshot_free(&s);
	free(text);
}

/* A right-justified Account column with nothing to tell the parents
 * apart (no usage) is refused rather than guessed. */
Test(assoc_sshare, right_justified_account_ambiguity)
{
	char t[1024];
	size_t n = 0;
#define HEAD3                                                                  \
	"%10s %10s %10s \n%.10s %.10s %.10s \n", "Account", "User",            \
	    "RawUsage", DASHES, DASHES, DASHES
#define ROW3 "%10s %10s %10s \n"
	n += (size_t)sprintf(t + n, HEAD3);
	n += (size_t)sprintf(t + n, ROW3, "root", "", "0");
	n += (size_t)sprintf(t + n, ROW3, "a", "", "0");
	n += (size_t)sprintf(t + n, ROW3, "b", "", "0");
	expect_error(prio_load_sshare, t, PRIO_ERR_PARSE, 5, "Account",
		     "a or root");
	/* Usage settles it: b cannot be a's child (a has 0). */
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	n = 0;
	n += (size_t)sprintf(t + n, HEAD3);
	n += (size_t)sprintf(t + n, ROW3, "root", "", "9");
	n += (size_t)sprintf(t + n, ROW3, "a", "", "0");
	n += (size_t)sprintf(t + n, ROW3, "b", "", "9");
	n += (size_t)sprintf(t + n, ROW3, "b", "x", "9");
	cr_assert_eq(load_text(&s, prio_load_sshare, "in.txt", t, &err), 0,
		     "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(must(&s, "b", NULL)->parent, 0);
	cr_assert_eq(must(&s, "b", "x")->depth, 2);
	prio_snapshot_free(&s);
	/* Users follow their account's row. */
	n = 0;
	n += (size_t)sprintf(t + n, HEAD3);
	n += (size_t)sprintf(t + n, ROW3, "root", "", "9");
	n += (size_t)sprintf(t + n, ROW3, "a", "", "0");
	n += (size_t)sprintf(t + n, ROW3, "root", "x", "9");
	expect_error(prio_load_sshare, t, PRIO_ERR_PARSE, 5, "User",
		     "does not follow");
}

/* ===================================================================== */
/* Both sources in one snapshot                                           */

static void check_merged(struct prio_snapshot *s)
{
	link_ok(s);
	cr_assert_eq(s->assoc_count, 25, "merged, not duplicated");
	cr_assert_eq(s->user_assoc_count, 15);
	struct prio_assoc *bob = must(s, "astro", "bob");
	cr_assert_eq(bob->priority, 100);
	cr_assert_eq(bob->priority_eff, 100);
	cr_assert(bob->usage_known);
	cr_assert_eq((double)bob->usage_raw, 2777.0);
	cr_assert_eq(bob->from, PRIO_ASSOC_FROM_DUMP | PRIO_ASSOC_FROM_SSHARE);
	cr_assert_float_eq(bob->slurm.level_fs, 1.678241, 1e-9);
	cr_assert_eq(must(s, "genomics", "oscar")->shares_raw,
		     PRIO_FS_USE_PARENT);
	cr_assert_eq(s->assocs[0].shares_raw, 1,
		     "root's Fairshare from the dump");
	cr_assert_eq((double)s->assocs[0].usage_raw, 35834.0);
	cr_assert_str_eq(prio_snapshot_str(s, s->assocs[0].cluster), "ft");
	for (uint32_t i = 0; i < s->assoc_count; i++)
		cr_assert_eq(s->assocs[i].from,
			     PRIO_ASSOC_FROM_DUMP | PRIO_ASSOC_FROM_SSHARE);
}

Test(assoc_merge, dump_then_sshare_and_back)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_assoc_dump,
		oracle("fairtree-basic", "sacctmgr_dump.cfg"));
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_l_P_o_all.txt"));
	check_merged(&s);
	cr_assert_eq(must(&s, "astro", "bob")->id, 13);
	cr_assert_eq(must(&s, "astro", "bob")->line, 40,
		     "the first source's line");
	prio_snapshot_free(&s);

	prio_snapshot_init(&s);
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_l_P.txt"));
	load_ok(&s, prio_load_assoc_dump,
		oracle("fairtree-basic", "sacctmgr_dump.cfg"));
	check_merged(&s);
	prio_snapshot_free(&s);

	/* The right-justified capture merges by key into the dump's tree. */
	prio_snapshot_init(&s);
	load_ok(&s, prio_load_assoc_dump,
		oracle("fairtree-basic", "sacctmgr_dump.cfg"));
	load_ok(&s, prio_load_sshare,
		oracle("fairtree-basic", "sshare_a_o_all_wide.txt"));
	check_merged(&s);
	prio_snapshot_free(&s);
}

Test(assoc_merge, every_scenario_pair)
{
	glob_t g;
	cr_assert_eq(
	    glob(test_path("tests/oracle/*/sacctmgr_dump.cfg"), 0, NULL, &g),
	    0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s", g.gl_pathv[i]);
		strcpy(strrchr(path, '/') + 1, "sshare_a_l_P.txt");
		struct prio_snapshot s;
		prio_snapshot_init(&s);
		load_ok(&s, prio_load_sshare, path);
		uint32_t n = s.assoc_count;
		load_ok(&s, prio_load_assoc_dump, g.gl_pathv[i]);
		link_ok(&s);
		cr_assert_eq(s.assoc_count, n);
		prio_snapshot_free(&s);
	}
	globfree(&g);
}

/* Load two texts in order; the second must fail at line, field. */
static void merge_error(loader_fn first, const char *a, loader_fn second,
			const char *b, unsigned long line, const char *field,
			const char *needle)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	cr_assert_eq(load_text(&s, first, "first.txt", a, &err), 0, "%s",
		     fmt(&err));
	prio_error_clear(&err);
	cr_assert_eq(load_text(&s, second, "second.txt", b, &err),
		     PRIO_ERR_PARSE, "%s", fmt(&err));
	cr_assert_str_eq(err.file, "second.txt");
	cr_assert_eq(err.line, line, "%s", fmt(&err));
	cr_assert_str_eq(err.field, field, "%s", fmt(&err));
	cr_assert(strstr(err.message, needle), "%s", fmt(&err));
	prio_snapshot_free(&s);
}

Test(assoc_merge, mismatched_captures_are_refused)
{
	const char *dump = "Cluster - 'c'\n"
			   "Parent - 'root'\n"
			   "Account - 'a':Fairshare=5\n"
			   "Account - 'b':Fairshare=2\n"
			   "Parent - 'a'\n"
			   "User - 'u':Fairshare=1:Priority=7\n";
	const char *share = "Account|User|RawShares|RawUsage\n"
			    "root|||10\n"
			    " a||5|10\n"
			    "  a|u|1|10\n"
			    " b||2|0\n";
	/* The good pair, both ways. */
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	cr_assert_eq(load_text(&s, prio_load_sshare, "x", share, &err), 0, "%s",
		     fmt(&err));
	cr_assert_eq(load_text(&s, prio_load_assoc_dump, "y", dump, &err), 0,
		     "%s", fmt(&err));
	link_ok(&s);
	cr_assert_eq(must(&s, "a", "u")->priority, 7);
	cr_assert_eq((double)must(&s, "a", "u")->usage_raw, 10.0);
	prio_snapshot_free(&s);

	/* An extra user in sshare. */
	merge_error(
	    prio_load_assoc_dump, dump, prio_load_sshare,
	    "Account|User|RawShares\nroot||\n a||5\n  a|u|1\n  a|v|1\n b||2\n",
	    5, "User", "is not in first.txt");
	/* An association of the dump missing from sshare. */
	merge_error(prio_load_assoc_dump, dump, prio_load_sshare,
		    "Account|User|RawShares\nroot||\n a||5\n b||2\n", 4, "User",
		    "a/u (first.txt:6) is missing");
	/* Shares that disagree. */
	merge_error(
	    prio_load_assoc_dump, dump, prio_load_sshare,
	    "Account|User|RawShares\nroot||\n a||5\n  a|u|parent\n b||2\n", 4,
	    "RawShares", "shares parent here but 1 in first.txt:6");
	merge_error(
	    prio_load_sshare, share, prio_load_assoc_dump,
	    "Cluster - 'c'\nParent - 'root'\nAccount - 'a':Fairshare=6\n", 3,
	    "Fairshare", "shares 6 here but 5");
	/* Same names, another shape. */
	merge_error(prio_load_assoc_dump, dump, prio_load_sshare,
		    "Account|User|RawShares\nroot||\n b||2\n  a||5\n   a|u|1\n",
		    4, "Account", "under b here but under root");
	merge_error(prio_load_sshare, share, prio_load_assoc_dump,
		    "Cluster - 'c'\nParent - 'root'\nAccount - 'b'\nParent - "
		    "'b'\nAccount - 'a'\n",
		    5, "Account", "under b here but under root");
	/* A row or line given twice by the second source. */
	merge_error(prio_load_assoc_dump, dump, prio_load_sshare,
		    "Account|User|RawShares\nroot||\n a||5\n  a|u|1\n  a|u|1\n",
		    5, "User", "a/u appears twice");
	merge_error(prio_load_sshare, share, prio_load_assoc_dump,
		    "Cluster - 'c'\nParent - 'root'\nAccount - 'a'\nAccount - "
		    "'a'\n",
		    4, "Account", "account a is defined twice");
	/* Another cluster. */
	merge_error(prio_load_assoc_dump, dump, prio_load_sshare,
		    "CLUSTER: d\nAccount|User\nroot|\n", 3, "Cluster",
		    "cluster d here but c");
	/* sshare's tree lacks an account the dump names as Parent. */
	merge_error(prio_load_sshare, "Account|User\nroot|\n",
		    prio_load_assoc_dump, "Cluster - 'c'\nParent - 'x'\n", 2,
		    "Parent", "account x is not in first.txt");
}

/* ===================================================================== */
/* prio_assoc_link                                                        */

static uint32_t add(struct prio_snapshot *s, uint32_t parent, const char *acct,
		    const char *user, const char *part, uint32_t prio)
{
	struct prio_assoc *a = prio_snapshot_new_assoc(s);
	a->parent = parent;
	a->account = prio_snapshot_intern(s, acct, strlen(acct));
	a->is_user = user != NULL;
	a->user =
	    user ? prio_snapshot_intern(s, user, strlen(user)) : PRIO_NO_ID;
	a->partition =
	    part ? prio_snapshot_intern(s, part, strlen(part)) : PRIO_NO_ID;
	a->priority = prio;
	a->shares_raw = 1;
	a->file = "t";
	a->line = s->assoc_count;
	return s->assoc_count - 1;
}

Test(assoc_link, order_depth_priority)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	uint32_t root =
	    add(&s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_INFINITE);
	uint32_t b = add(&s, root, "b", NULL, NULL, PRIO_NO_VAL);
	uint32_t a = add(&s, root, "a", NULL, NULL, 4);
	add(&s, root, "root", "Zoe", NULL, PRIO_NO_VAL);
	add(&s, root, "root", "adam", NULL, PRIO_NO_VAL);
	add(&s, b, "b", "u", "p2", PRIO_NO_VAL);
	add(&s, b, "b", "u", NULL, PRIO_INFINITE);
	add(&s, b, "b", "u", "p1", 6);
	add(&s, a, "a", "v", NULL, PRIO_NO_VAL);
	uint32_t b2 = add(&s, b, "B", NULL, NULL, PRIO_NO_VAL);
	add(&s, b2, "B", "w", NULL, PRIO_NO_VAL);
	link_ok(&s);
	char *tree = preorder(&s);
	/* strcmp order: "Zoe" < "adam", "B" (account) after users. */
	cr_assert_str_eq(tree, "0:root//\n"
			       "1:root/Zoe/\n"
			       "1:root/adam/\n"
			       "1:a//\n"
			       "2:a/v/\n"
			       "1:b//\n"
			       "2:b/u/\n"
			       "2:b/u/p1\n"
			       "2:b/u/p2\n"
			       "2:B//\n"
			       "3:B/w/\n");
	free(tree);
	cr_assert_eq(s.user_assoc_count, 7);
	cr_assert_eq(s.assocs[0].priority_eff, 0, "INFINITE counts as 0");
	cr_assert_eq(must(&s, "a", "v")->priority_eff, 4);
	cr_assert_eq(must(&s, "B", "w")->priority_eff, 0);
	cr_assert_eq(find(&s, "b", "u", NULL)->priority_eff, 0);
	cr_assert_eq(find(&s, "b", "u", "p1")->priority_eff, 6);
	/* Linking twice gives the same tree. */
	link_ok(&s);
	tree = preorder(&s);
	cr_assert(strstr(tree, "2:b/u/p1\n2:b/u/p2\n"));
	free(tree);
	prio_snapshot_free(&s);

	/* Nothing loaded: nothing to do. */
	prio_snapshot_init(&s);
	link_ok(&s);
	cr_assert_eq(s.user_assoc_count, 0);
	prio_snapshot_free(&s);
}

static void link_error(void (*build)(struct prio_snapshot *), int status,
		       unsigned long line, const char *needle)
{
	struct prio_snapshot s;
	struct prio_error err;
	prio_snapshot_init(&s);
	build(&s);
	cr_assert_eq(prio_assoc_link(&s, &err), status, "%s", fmt(&err));
	cr_assert_eq(err.line, line, "%s", fmt(&err));
	cr_assert(strstr(err.message, needle), "%s", fmt(&err));
	prio_snapshot_free(&s);
}

static void not_root(struct prio_snapshot *s)
{
	add(s, 1, "a", NULL, NULL, PRIO_NO_VAL);
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
}
static void orphan(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	add(s, 0, "a", NULL, NULL, PRIO_NO_VAL);
	add(s, PRIO_ASSOC_NONE, "b", NULL, NULL, PRIO_NO_VAL);
}
static void cycle(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	add(s, 0, "a", NULL, NULL, PRIO_NO_VAL);
	add(s, 3, "b", NULL, NULL, PRIO_NO_VAL);
	add(s, 2, "c", NULL, NULL, PRIO_NO_VAL);
}
static void under_user(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	add(s, 0, "root", "u", NULL, PRIO_NO_VAL);
	add(s, 1, "x", NULL, NULL, PRIO_NO_VAL);
}
static void duplicate(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	add(s, 0, "root", "u", "p", PRIO_NO_VAL);
	add(s, 0, "root", "u", "p", PRIO_NO_VAL);
}
static void wrong_account(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	add(s, 0, "a", NULL, NULL, PRIO_NO_VAL);
	add(s, 1, "b", "u", NULL, PRIO_NO_VAL);
}
static void deep(struct prio_snapshot *s)
{
	add(s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	for (uint32_t d = 1; d <= PRIO_ASSOC_MAX_DEPTH + 1; d++) {
		char n[16];
		snprintf(n, sizeof(n), "a%u", d);
		add(s, d - 1, n, NULL, NULL, PRIO_NO_VAL);
	}
}

Test(assoc_link, refuses_what_is_not_a_tree)
{
	link_error(not_root, PRIO_ERR_PARSE, 1, "not the root");
	link_error(orphan, PRIO_ERR_PARSE, 3, "orphan");
	link_error(cycle, PRIO_ERR_PARSE, 3, "cycle");
	link_error(under_user, PRIO_ERR_PARSE, 3, "under a user");
	link_error(duplicate, PRIO_ERR_PARSE, 3, "twice");
	link_error(wrong_account, PRIO_ERR_PARSE, 3, "another account");
	link_error(deep, PRIO_ERR_LIMIT, PRIO_ASSOC_MAX_DEPTH + 2,
		   "deeper than 64");
}

/* A million associations (1,000 accounts of 1,000 users, added in reverse
 * name order so every group needs sorting) link in linear-ish time. */
Test(assoc_link, a_million_associations, .timeout = 60)
{
	struct prio_snapshot s;
	prio_snapshot_init(&s);
	enum { ACCTS = 1000, USERS = 1000 };
	prio_id uname[USERS];
	char n[32];
	for (int u = 0; u < USERS; u++) {
		snprintf(n, sizeof(n), "user%04d", u);
		uname[u] = prio_snapshot_intern(&s, n, strlen(n));
	}
	add(&s, PRIO_ASSOC_NONE, "root", NULL, NULL, PRIO_NO_VAL);
	for (int a = ACCTS - 1; a >= 0; a--) {
		snprintf(n, sizeof(n), "acct%04d", a);
		uint32_t ai = add(&s, 0, n, NULL, NULL, (uint32_t)a);
		prio_id acct = s.assocs[ai].account;
		for (int u = USERS - 1; u >= 0; u--) {
			struct prio_assoc *x = prio_snapshot_new_assoc(&s);
			x->parent = ai;
			x->account = acct;
			x->is_user = true;
			x->user = uname[u];
			x->priority = PRIO_NO_VAL;
		}
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	link_ok(&s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_log_info("linked %u associations in %.3f s", s.assoc_count, secs);
	cr_assert_eq(s.user_assoc_count, ACCTS * USERS);
	/* Generous: sanitizers are slow; a quadratic step would take hours. */
	cr_assert_lt(secs, 10.0);
	uint32_t first = s.assocs[0].first_child;
	cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[first].account),
			 "acct0000");
	uint32_t u0 = s.assocs[first].first_child;
	cr_assert_str_eq(prio_snapshot_str(&s, s.assocs[u0].user), "user0000");
	cr_assert_eq(s.assocs[u0].depth, 2);
	cr_assert_eq(s.assocs[u0].priority_eff, 0);
	cr_assert_str_eq(
	    prio_snapshot_str(&s, s.assocs[s.assocs[u0].next_sibling].user),
	    "user0001");
	prio_snapshot_free(&s);
}
