/* SPDX-License-Identifier: MIT */
/* Hostlists: Slurm's expansion order, padding, invalid forms, caps, and the
 * display compression. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "testutil.h"

/* Expand s and join the names with ',' into buf; -1 when invalid. */
static int expand(const char *s, char *buf, size_t size, const char **why)
{
	struct prio_arena arena;
	struct prio_hostlist hl;
	size_t used = 0;
	int rc;

	prio_arena_init(&arena);
	buf[0] = '\0';
	rc = prio_hostlist_expand(&arena, s, strlen(s), &hl, why);
	for (size_t i = 0; rc == 0 && i < hl.count; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "," : "",
					 hl.names[i]);
	prio_arena_free(&arena);
	return rc;
}

static void expands_to(const char *s, const char *want)
{
	char buf[4096];
	const char *why = NULL;

	cr_assert_eq(expand(s, buf, sizeof(buf), &why), 0, "%s: %s", s, why);
	cr_assert_str_eq(buf, want, "%s", s);
}

static void invalid(const char *s)
{
	char buf[4096];
	const char *why = NULL;

	cr_assert_eq(expand(s, buf, sizeof(buf), &why), -1, "%s accepted: %s", s, buf);
	cr_assert_not_null(why);
}

Test(hostlist, ranges_and_zero_padding)
{
	expands_to("ftn[1-5]", "ftn1,ftn2,ftn3,ftn4,ftn5");
	expands_to("n[01-03,10]", "n01,n02,n03,n10");
	expands_to("n[8-10]", "n8,n9,n10");
	expands_to("n[098-100]", "n098,n099,n100");
	expands_to("n[7]", "n7");
	expands_to("seedn4", "seedn4");
	/* Padding comes from the lo text of each range. */
	expands_to("n[1-2,005-006]", "n1,n2,n005,n006");
}

Test(hostlist, separators_outside_brackets)
{
	expands_to("a,b c\tn[1,3]", "a,b,c,n1,n3");
	expands_to(" , a,,b ,", "a,b");
	expands_to("", "");
}

Test(hostlist, cross_product_in_slurm_order)
{
	/* Two groups: the natural order. */
	expands_to("a[1-2]b[3-4]", "a1b3,a1b4,a2b3,a2b4");
	/* Three groups: the final bracket fastest, then the leftmost group,
	 * the middle group slowest (slurm-facts §10). */
	expands_to("a[1-2]b[3-4]c[5-6]",
		   "a1b3c5,a1b3c6,a2b3c5,a2b3c6,a1b4c5,a1b4c6,a2b4c5,a2b4c6");
	expands_to("rack[1-2]-n[01-02]", "rack1-n01,rack1-n02,rack2-n01,rack2-n02");
}

Test(hostlist, invalid_forms)
{
	invalid("n[1-2]x");   /* text after the closing bracket */
	invalid("n[3-1]");    /* lo > hi */
	invalid("n[-1]");     /* negative */
	invalid("n[a-b]");
	invalid("n[]");
	invalid("n[1,,2]");
	invalid("n[1-]");
	invalid("a[x]b[1-2]"); /* a prefix group must be numeric too */
	/* Brackets do not nest. */
	invalid("n[1-[2-3]]");
	invalid("n[[1-2]]");
}

Test(hostlist, bracket_without_close_is_literal)
{
	/* Slurm appends the missing ']' and keeps the name. */
	expands_to("n[1", "n[1]");
	/* A prefix whose last '[' is unclosed stops the group walk. */
	expands_to("a[b[1-2]", "a[b1,a[b2");
}

Test(hostlist, caps_refuse_before_allocating)
{
	char buf[64];
	const char *why = NULL;

	cr_assert_eq(expand("n[1-2000000]", buf, sizeof(buf), &why), -1);
	cr_assert_str_eq(why, "too many host names");
	/* 10^7 names from a cross product: refused, not allocated. */
	cr_assert_eq(expand("a[1-1000]b[1-1000]c[1-10]", buf, sizeof(buf), &why), -1);
	cr_assert_eq(expand("n[1-600000],m[1-600000]", buf, sizeof(buf), &why), -1);
	/* Numbers too long for 64 bits are refused, not wrapped. */
	cr_assert_eq(expand("n[1-99999999999999999999]", buf, sizeof(buf), &why), -1);
}

Test(hostlist, large_list_expands)
{
	struct prio_arena arena;
	struct prio_hostlist hl;
	const char *why = NULL;

	prio_arena_init(&arena);
	cr_assert_eq(prio_hostlist_expand(&arena, "c[000001-100000]", 16, &hl, &why), 0);
	cr_assert_eq(hl.count, 100000);
	cr_assert_str_eq(hl.names[0], "c000001");
	cr_assert_str_eq(hl.names[99999], "c100000");
	prio_arena_free(&arena);
}

static void compresses_to(const char *const *names, size_t n, const char *want)
{
	char buf[256];

	cr_assert_str_eq(prio_hostlist_compress((char *const *)names, n, buf, sizeof(buf)),
			 want);
}

Test(hostlist, compress_for_display)
{
	const char *a[] = { "n1", "n2", "n3", "n4", "n5", "n7" };
	const char *b[] = { "b2", "c", "a1", "b1" };
	const char *c[] = { "n01", "n02", "n10" };
	const char *d[] = { "n09", "n10", "n11" };
	const char *e[] = { "ftn3" };
	const char *f[] = { "n10", "n9", "n8" };

	compresses_to(a, 6, "n[1-5,7]");
	compresses_to(b, 4, "a1,b[1-2],c");
	compresses_to(c, 3, "n[01-02,10]");
	compresses_to(d, 3, "n[09-11]");
	compresses_to(e, 1, "ftn3");
	compresses_to(f, 3, "n[8-10]");
	compresses_to(a, 0, "");
}

Test(hostlist, compress_round_trips)
{
	const char *lists[] = { "n[1-5,7]", "n[01-02,10]", "gpu[1-3],cpu[10-12]",
				"n[098-101]", "login,n[1-2]" };

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct prio_arena arena;
		struct prio_hostlist hl, again;
		const char *why = NULL;
		char buf[256];

		prio_arena_init(&arena);
		cr_assert_eq(prio_hostlist_expand(&arena, lists[i], strlen(lists[i]), &hl,
						  &why), 0);
		prio_hostlist_compress(hl.names, hl.count, buf, sizeof(buf));
		cr_assert_eq(prio_hostlist_expand(&arena, buf, strlen(buf), &again, &why), 0);
		cr_assert_eq(again.count, hl.count, "%s -> %s", lists[i], buf);
		prio_arena_free(&arena);
	}
}

Test(hostlist, compress_truncates_with_dots)
{
	const char *names[] = { "alpha", "bravo", "charlie", "delta", "echo" };
	char buf[16];

	prio_hostlist_compress((char *const *)names, 5, buf, sizeof(buf));
	cr_assert_lt(strlen(buf), sizeof(buf));
	cr_assert_str_eq(buf + strlen(buf) - 3, "...");
	cr_assert_eq(strncmp(buf, "alpha,bravo", 11), 0);
}
