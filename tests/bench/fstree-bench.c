/* SPDX-License-Identifier: MIT */
/*
 * fstree-bench: time the fairshare engines on a large association tree
 * (DESIGN §5: Fair Tree over 100k user associations in at most 100 ms).
 *
 *   fstree-bench USERS          a synthetic tree: USERS user associations
 *                               under USERS/10 accounts, depth 6, shares
 *                               1-100, a third of the users without usage,
 *                               1% Fairshare=parent (fixed seed)
 *   fstree-bench --assoc FILE   the tree of an sshare or sacctmgr dump file
 *                               (tests/bench/gen's sshare.txt)
 *
 * Prints the best of five runs of each algorithm, in milliseconds, and the
 * time of the sshare rows (report cells) for the whole tree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prio/fairshare.h"
#include "prio/report_sshare.h"
#include "prio/snapshot.h"

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint32_t below(uint32_t n)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) % n);
}

static uint32_t add(struct prio_snapshot *s, uint32_t parent, const char *acct,
		    const char *user, uint32_t shares)
{
	struct prio_assoc *a = prio_snapshot_new_assoc(s);

	if (!a) {
		fprintf(stderr, "fstree-bench: out of memory\n");
		exit(1);
	}
	a->parent = parent;
	a->account = prio_snapshot_intern(s, acct, strlen(acct));
	a->is_user = user != NULL;
	a->user =
	    user ? prio_snapshot_intern(s, user, strlen(user)) : PRIO_NO_ID;
	a->shares_raw = shares;
	a->priority = PRIO_NO_VAL;
	a->usage_known = true;
	return (uint32_t)(a - s->assocs);
}

static void synthetic(struct prio_snapshot *s, uint32_t users)
{
	uint32_t naccts = users / 10 ? users / 10 : 1,
		 *acct = malloc(naccts * sizeof(*acct));
	unsigned *depth = malloc(naccts * sizeof(*depth));
	char name[32], uname[32];
	struct prio_error err;

	if (!acct || !depth)
		exit(1);
	add(s, PRIO_ASSOC_NONE, "root", NULL, 1);
	for (uint32_t k = 0; k < naccts; k++) {
		/* Each account under a random earlier one less than 5 deep. */
		uint32_t p = k ? below(k) : 0;

		while (k && depth[p] >= 5)
			p = below(k);
		depth[k] = k ? depth[p] + 1 : 1;
		snprintf(name, sizeof(name), "a%u", k);
		acct[k] = add(s, k ? acct[p] : 0, name, NULL, 1 + below(100));
	}
	for (uint32_t u = 0; u < users; u++) {
		uint32_t a = below(naccts);
		uint32_t i;

		snprintf(name, sizeof(name), "a%u", a);
		snprintf(uname, sizeof(uname), "u%u", u);
		i = add(s, acct[a], name, uname,
			below(100) ? 1 + below(100) : PRIO_FS_USE_PARENT);
		s->assocs[i].usage_raw =
		    below(3) ? (long double)below(5000000) : 0;
	}
	/* An account's usage is what is below it. */
	for (uint32_t i = s->assoc_count; i-- > 1;)
		s->assocs[s->assocs[i].parent].usage_raw +=
		    s->assocs[i].usage_raw;
	if (prio_assoc_link(s, &err) < 0) {
		fprintf(stderr, "fstree-bench: %s\n", err.message);
		exit(1);
	}
	free(acct);
	free(depth);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e3 +
	       (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

int main(int argc, char **argv)
{
	struct prio_snapshot s;
	struct prio_error err;
	struct prio_fs_result *r;
	struct timespec t0;

	if (argc == 3 && strcmp(argv[1], "--assoc") == 0) {
		prio_snapshot_init(&s);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (prio_load_role(&s, PRIO_ROLE_ASSOC, argv[2], &err) < 0 ||
		    prio_snapshot_finish(&s, &err) < 0) {
			fprintf(stderr, "fstree-bench: %s: %s\n", argv[2],
				err.message);
			return 1;
		}
		printf("load %-15s %8.1f ms\n", argv[2], ms_since(&t0));
	} else if (argc == 2 && atoi(argv[1]) > 0) {
		prio_snapshot_init(&s);
		synthetic(&s, (uint32_t)atoi(argv[1]));
	} else {
		fprintf(
		    stderr,
		    "usage: fstree-bench USERS | fstree-bench --assoc FILE\n");
		return 2;
	}
	printf("%u associations, %u user associations\n", s.assoc_count,
	       s.user_assoc_count);
	if (!(r = calloc(s.assoc_count, sizeof(*r))))
		return 1;
	for (int a = PRIO_FS_FAIR_TREE; a <= PRIO_FS_DEPTH_OBLIVIOUS; a++) {
		double best = 1e30;

		for (int run = 0; run < 5; run++) {
			double ms;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			if (prio_fairshare_compute(&s, a, r, &err) < 0) {
				fprintf(stderr, "fstree-bench: %s\n",
					err.message);
				return 1;
			}
			ms = ms_since(&t0);
			best = ms < best ? ms : best;
		}
		printf("%-16s %8.1f ms (best of 5)\n",
		       prio_fs_algorithm_name(a), best);
	}
	{
		/* Every row's cells, as the table would print them. */
		struct prio_sshare_filter all = {.all_users = true};
		struct prio_sshare_rows rows;
		struct prio_sshare_rowbuf buf;
		struct prio_field_sel sel[16];
		struct prio_cell cells[16];
		char why[128];
		size_t n;
		uint32_t assoc;
		unsigned indent;

		prio_fieldlist_parse(
		    prio_sshare_default_format(true, false, true),
		    prio_sshare_fields(), PRIO_SSHARE_F_COUNT, sel, 16, &n, why,
		    sizeof(why));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		prio_sshare_rows_init(&rows, &s, &all, &err);
		while (prio_sshare_rows_next(&rows, &assoc, &indent))
			prio_sshare_cells(&s, r, PRIO_FS_FAIR_TREE, NULL, assoc,
					  indent, sel, n, cells, &buf);
		prio_sshare_rows_free(&rows);
		printf("%-16s %8.1f ms\n", "sshare -a -l rows", ms_since(&t0));
	}
	free(r);
	prio_snapshot_free(&s);
	return 0;
}
