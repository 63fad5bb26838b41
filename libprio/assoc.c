/* SPDX-License-Identifier: MIT */
/*
 * The association tree once every association source is loaded, and the
 * bookkeeping the two loaders share while they build it (assoc_build.h).
 *
 * prio_assoc_link() orders children the way Slurm's association manager
 * sorts its list (slurm-facts §7 "Row order"): within a parent, user
 * associations first by user name, then child accounts by account name,
 * both byte-wise (strcmp); ties between partition associations of one user
 * are broken by partition name so that the order is deterministic.  It then
 * computes depths and the effective association priority (an association
 * without its own Priority inherits the parent's; Slurm turns INFINITE into
 * 0, slurm-facts §1.2), counts the user associations (Fair Tree's N,
 * slurm-facts §2), and refuses what is not a tree: a first record that is
 * not the root, orphans, cycles, children of users, duplicates, depth over
 * PRIO_ASSOC_MAX_DEPTH.
 *
 * Cost: children are grouped by parent with a counting sort and each
 * sibling group sorted on its own, O(n log n) overall.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_build.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

/* --- naming ------------------------------------------------------------- */

const char *assoc_build_name(const struct prio_snapshot *snap, uint32_t i,
			     char *buf, size_t size)
{
	const struct prio_assoc *a = &snap->assocs[i];

	if (!a->is_user)
		snprintf(buf, size, "%.60s",
			 prio_snapshot_str(snap, a->account));
	else if (a->partition == PRIO_NO_ID)
		snprintf(buf, size, "%.60s/%.60s",
			 prio_snapshot_str(snap, a->account),
			 prio_snapshot_str(snap, a->user));
	else
		snprintf(buf, size, "%.60s/%.60s/%.60s",
			 prio_snapshot_str(snap, a->account),
			 prio_snapshot_str(snap, a->user),
			 prio_snapshot_str(snap, a->partition));
	return buf;
}

/* --- the key index ------------------------------------------------------ */

static uint32_t key_hash(prio_id account, prio_id user, prio_id partition)
{
	uint64_t h = (uint64_t)account * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)user + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	h ^= ((uint64_t)partition + 0x165667b19e3779f9ull) *
	     0x27d4eb2f165667c5ull;
	h ^= h >> 31;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static void slot_put(uint32_t *slots, uint32_t mask, const struct prio_assoc *a,
		     uint32_t i)
{
	uint32_t s = key_hash(a->account, a->is_user ? a->user : PRIO_NO_ID,
			      a->partition) &
		     mask;

	while (slots[s])
		s = (s + 1) & mask;
	slots[s] = i + 1;
}

/* Room for one more key (load factor under one half). */
static int index_reserve(struct assoc_build *b)
{
	uint32_t size, *slots;

	if (b->slots && (b->used + 1) * 2 <= b->mask + 1)
		return 0;
	size = b->slots ? (b->mask + 1) * 2 : 64;
	while (size / 2 < b->used + 1)
		size *= 2;
	if (size == 0)
		return -1;
	slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -1;
	for (uint32_t k = 0; b->slots && k <= b->mask; k++)
		if (b->slots[k])
			slot_put(slots, size - 1,
				 &b->snap->assocs[b->slots[k] - 1],
				 b->slots[k] - 1);
	free(b->slots);
	b->slots = slots;
	b->mask = size - 1;
	return 0;
}

static int mark_reserve(struct assoc_build *b, uint32_t need)
{
	uint32_t cap = b->mark_cap ? b->mark_cap : 64;
	uint8_t *m;

	if (need <= b->mark_cap)
		return 0;
	while (cap < need) {
		if (cap > UINT32_MAX / 2)
			return -1;
		cap *= 2;
	}
	m = realloc(b->mark, cap);
	if (!m)
		return -1;
	memset(m + b->mark_cap, 0, cap - b->mark_cap);
	b->mark = m;
	b->mark_cap = cap;
	return 0;
}

int assoc_build_begin(struct assoc_build *b, struct prio_snapshot *snap,
		      const struct prio_source *src, uint8_t from,
		      struct prio_error *err)
{
	memset(b, 0, sizeof(*b));
	b->snap = snap;
	b->from = from;
	b->existing = snap->assoc_count;
	b->merging = snap->assoc_count > 0;
	b->file = prio_arena_strdup(&snap->arena, src->name);
	if (!b->file || mark_reserve(b, snap->assoc_count + 1) < 0)
		goto nomem;
	if (b->merging)
		b->first_file =
		    snap->assocs[0].file ? snap->assocs[0].file : "";
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		if (index_reserve(b) < 0)
			goto nomem;
		slot_put(b->slots, b->mask, &snap->assocs[i], i);
		b->used++;
	}
	return PRIO_OK;
nomem:
	assoc_build_end(b);
	return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
			      "out of memory");
}

void assoc_build_end(struct assoc_build *b)
{
	free(b->slots);
	free(b->mark);
	b->slots = NULL;
	b->mark = NULL;
	b->mark_cap = 0;
}

uint32_t assoc_build_find(const struct assoc_build *b, prio_id account,
			  prio_id user, prio_id partition)
{
	const struct prio_assoc *as = b->snap->assocs;
	uint32_t s;

	if (!b->slots)
		return PRIO_ASSOC_NONE;
	s = key_hash(account, user, partition) & b->mask;
	while (b->slots[s]) {
		const struct prio_assoc *a = &as[b->slots[s] - 1];

		if (a->account == account && a->partition == partition &&
		    (a->is_user ? a->user : PRIO_NO_ID) == user)
			return b->slots[s] - 1;
		s = (s + 1) & b->mask;
	}
	return PRIO_ASSOC_NONE;
}

uint32_t assoc_build_new(struct assoc_build *b, prio_id account, prio_id user,
			 prio_id partition, unsigned long line)
{
	struct prio_assoc *a;
	uint32_t i;

	if (index_reserve(b) < 0 ||
	    mark_reserve(b, b->snap->assoc_count + 1) < 0)
		return PRIO_ASSOC_NONE;
	a = prio_snapshot_new_assoc(b->snap);
	if (!a)
		return PRIO_ASSOC_NONE;
	i = (uint32_t)(a - b->snap->assocs);
	a->parent = a->first_child = a->next_sibling = PRIO_ASSOC_NONE;
	a->account = account;
	a->user = user;
	a->is_user = user != PRIO_NO_ID;
	a->partition = partition;
	a->shares_raw = PRIO_NO_VAL;
	a->priority = PRIO_NO_VAL;
	a->slurm.raw_usage = PRIO_NO_VAL64;
	a->from = b->from;
	a->file = b->file;
	a->line = line;
	slot_put(b->slots, b->mask, a, i);
	b->used++;
	return i;
}

/* Shares as sshare prints them. */
static const char *shares_text(uint32_t v, char *buf, size_t size)
{
	if (v == PRIO_FS_USE_PARENT)
		return "parent";
	snprintf(buf, size, "%u", v);
	return buf;
}

int assoc_build_shares(struct assoc_build *b, uint32_t i, uint32_t shares,
		       unsigned long line, const char *field,
		       struct prio_error *err)
{
	struct prio_assoc *a = &b->snap->assocs[i];
	char name[200], have[16], got[16];

	if (shares == PRIO_NO_VAL)
		return PRIO_OK;
	if (a->shares_raw == PRIO_NO_VAL || i == 0 || !b->merging ||
	    i >= b->existing) {
		a->shares_raw = shares;
		return PRIO_OK;
	}
	if (a->shares_raw == shares)
		return PRIO_OK;
	return prio_error_set(err, PRIO_ERR_PARSE, b->file, line, field,
			      "%s has shares %s here but %s in %s:%lu: the two "
			      "captures do not match",
			      assoc_build_name(b->snap, i, name, sizeof(name)),
			      shares_text(shares, got, sizeof(got)),
			      shares_text(a->shares_raw, have, sizeof(have)),
			      a->file, a->line);
}

int assoc_build_all_seen(struct assoc_build *b, unsigned long line,
			 struct prio_error *err)
{
	char name[200];
	int rc;

	for (uint32_t i = 0; i < b->existing; i++) {
		const struct prio_assoc *a = &b->snap->assocs[i];

		if (assoc_build_marks(b, i) & ASSOC_SEEN)
			continue;
		prio_error_set(err, PRIO_ERR_PARSE, b->file, line,
			       a->is_user ? "User" : "Account",
			       "%s (%s:%lu) is missing here: the two captures "
			       "do not match",
			       assoc_build_name(b->snap, i, name, sizeof(name)),
			       a->file, a->line);
		if ((rc = prio_snapshot_record_error(b->snap, err)) < 0)
			return rc;
	}
	return PRIO_OK;
}

/* Depth state of assoc_build_depths: 0 unknown, 1 on the current walk,
 * else depth + 2. */
int assoc_build_depths(struct assoc_build *b, struct prio_error *err)
{
	struct prio_assoc *as = b->snap->assocs;
	uint32_t n = b->snap->assoc_count, *st, *path;
	int rc = PRIO_OK;

	if (n == b->existing)
		return PRIO_OK;
	st = calloc(n, sizeof(*st));
	path = malloc((size_t)n * sizeof(*path));
	if (!st || !path) {
		rc = prio_error_set(err, PRIO_ERR_NOMEM, b->file, 0, "",
				    "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < b->existing; i++)
		st[i] = (uint32_t)as[i].depth + 2;
	for (uint32_t i = b->existing; i < n && rc == PRIO_OK; i++) {
		uint32_t len = 0, j = i, base;

		while (j != PRIO_ASSOC_NONE && j < n && st[j] == 0) {
			st[j] = 1;
			path[len++] = j;
			j = as[j].parent;
		}
		if (j != PRIO_ASSOC_NONE && j < n && st[j] == 1) {
			char name[200];

			rc = prio_error_set(
			    err, PRIO_ERR_PARSE, as[j].file, as[j].line,
			    "Account",
			    "account %s is its own ancestor "
			    "(a cycle of Parent lines)",
			    assoc_build_name(b->snap, j, name, sizeof(name)));
			break;
		}
		base = (j == PRIO_ASSOC_NONE || j >= n) ? 1 : st[j];
		while (len) {
			uint32_t k = path[--len];

			st[k] = ++base;
			if (base - 2 > PRIO_ASSOC_MAX_DEPTH) {
				rc = prio_error_set(
				    err, PRIO_ERR_LIMIT, as[k].file, as[k].line,
				    as[k].is_user ? "User" : "Account",
				    "association tree deeper "
				    "than %u levels",
				    PRIO_ASSOC_MAX_DEPTH);
				break;
			}
			as[k].depth = (uint16_t)(base - 2);
		}
	}
out:
	free(st);
	free(path);
	return rc;
}

/* --- linking ------------------------------------------------------------ */

struct sib {
	const char *name; /* user name for users, account name for accounts */
	const char *part; /* partition, "" if none */
	uint32_t index;
	uint32_t is_account; /* users (0) sort first */
};

static int sib_cmp(const void *pa, const void *pb)
{
	const struct sib *a = pa, *b = pb;
	int c;

	if (a->is_account != b->is_account)
		return a->is_account < b->is_account ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	if ((c = strcmp(a->part, b->part)) != 0)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int link_error(struct prio_error *err, const struct prio_snapshot *snap,
		      uint32_t i, int status, const char *what)
{
	const struct prio_assoc *a = &snap->assocs[i];
	char name[200];

	return prio_error_set(err, status, a->file ? a->file : "", a->line,
			      a->is_user ? "User" : "Account", "%s %s",
			      assoc_build_name(snap, i, name, sizeof(name)),
			      what);
}

/*
 * A slot of the snapshot's lookup table: the key beside the index, so
 * that a probe reads the slot alone, never the association it names (a
 * job looks its association up several times, by partition and without:
 * on L, with the key read from each association, a tenth of prio-calc -l
 * went to those reads).  The keys never change after the link.
 */
struct prio_assoc_slot {
	prio_id account, user, partition; /* user PRIO_NO_ID: an account */
	uint32_t index1;		  /* index + 1; 0: empty */
};

/* The snapshot's lookup table by key, for the engines (a job's
 * association).  Load factor under one half. */
static int build_lookup(struct prio_snapshot *snap, struct prio_error *err)
{
	uint32_t size = 64;

	free(snap->assoc_slots);
	snap->assoc_slots = NULL;
	while (size / 2 <= snap->assoc_count) {
		if (size > UINT32_MAX / 4)
			return prio_error_set(err, PRIO_ERR_LIMIT, "", 0, "",
					      "too many associations");
		size *= 2;
	}
	snap->assoc_slots = calloc(size, sizeof(*snap->assoc_slots));
	if (!snap->assoc_slots)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	snap->assoc_slot_mask = size - 1;
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		const struct prio_assoc *a = &snap->assocs[i];
		struct prio_assoc_slot key = {
		    a->account, a->is_user ? a->user : PRIO_NO_ID, a->partition,
		    i + 1};
		uint32_t s = key_hash(key.account, key.user, key.partition) &
			     (size - 1);

		while (snap->assoc_slots[s].index1)
			s = (s + 1) & (size - 1);
		snap->assoc_slots[s] = key;
	}
	return PRIO_OK;
}

uint32_t prio_snapshot_assoc(const struct prio_snapshot *snap, prio_id account,
			     prio_id user, prio_id partition)
{
	const struct prio_assoc_slot *slots = snap->assoc_slots;
	uint32_t s;

	if (!slots)
		return PRIO_ASSOC_NONE;
	s = key_hash(account, user, partition) & snap->assoc_slot_mask;
	while (slots[s].index1) {
		if (slots[s].account == account && slots[s].user == user &&
		    slots[s].partition == partition)
			return slots[s].index1 - 1;
		s = (s + 1) & snap->assoc_slot_mask;
	}
	return PRIO_ASSOC_NONE;
}

uint32_t prio_snapshot_job_assoc(const struct prio_snapshot *snap,
				 const struct prio_job *job, prio_id partition)
{
	uint32_t i = PRIO_ASSOC_NONE;

	if (job->user == PRIO_NO_ID)
		return PRIO_ASSOC_NONE;
	if (partition != PRIO_NO_ID)
		i = prio_snapshot_assoc(snap, job->account, job->user, partition);
	if (i == PRIO_ASSOC_NONE)
		i = prio_snapshot_assoc(snap, job->account, job->user, PRIO_NO_ID);
	return i;
}

/*
 * Slurm adds a job's usage to its association and to every ancestor
 * (priority_multifactor's decay thread walks parent_assoc_ptr), decays all
 * of them by the same factor, and a usage reset subtracts the old value
 * from every ancestor (assoc_mgr_remove_assoc_usage): a parent's RawUsage
 * is at least the sum of its children's (more once a child was deleted).
 * sshare -P and sshare --json both print each value truncated to an
 * integer, so the children's sum may exceed the truncated parent by less
 * than one per child, and floating-point rounding may carry one child
 * past its parent's integer: allow one per child.  The values checked are
 * those sshare printed (assoc->slurm), not usage_raw, which a what-if may
 * have changed on purpose.
 */
static bool printed_usage(const struct prio_assoc *a, uint64_t *u)
{
	if (!(a->slurm.present & PRIO_SSHARE_RAW_USAGE) ||
	    (a->slurm.blank & PRIO_SSHARE_RAW_USAGE))
		return false;
	*u = a->slurm.raw_usage;
	return true;
}

/* As link_error, at the sshare row the RawUsage was read from. */
static int usage_error(struct prio_error *err,
		       const struct prio_snapshot *snap, uint32_t i,
		       const char *what)
{
	const struct prio_assoc *a = &snap->assocs[i];
	char name[200];

	return prio_error_set(err, PRIO_ERR_PARSE,
			      a->slurm.file ? a->slurm.file : "", a->slurm.line,
			      "RawUsage", "%s %s",
			      assoc_build_name(snap, i, name, sizeof(name)),
			      what);
}

static int check_usage(const struct prio_snapshot *snap, uint32_t p,
		       struct prio_error *err)
{
	const struct prio_assoc *as = snap->assocs;
	uint64_t parent, child, sum = 0, children = 0;
	char msg[400], pname[200];

	if (!printed_usage(&as[p], &parent))
		return PRIO_OK;
	for (uint32_t c = as[p].first_child; c != PRIO_ASSOC_NONE;
	     c = as[c].next_sibling) {
		if (!printed_usage(&as[c], &child))
			continue;
		sum += child;
		children++;
		if (child <= parent + 1)
			continue;
		snprintf(msg, sizeof(msg),
			 "has RawUsage %llu, larger than its parent's (%s, "
			 "%s:%lu): %llu; a parent's usage is the sum of its "
			 "children's",
			 (unsigned long long)child,
			 assoc_build_name(snap, p, pname, sizeof(pname)),
			 as[p].slurm.file ? as[p].slurm.file : "",
			 as[p].slurm.line, (unsigned long long)parent);
		return usage_error(err, snap, c, msg);
	}
	if (sum > parent + children) {
		snprintf(msg, sizeof(msg),
			 "has RawUsage %llu, less than the sum of its %llu "
			 "children's, %llu; a parent's usage is the sum of its "
			 "children's",
			 (unsigned long long)parent,
			 (unsigned long long)children,
			 (unsigned long long)sum);
		return usage_error(err, snap, p, msg);
	}
	return PRIO_OK;
}

int prio_assoc_link(struct prio_snapshot *snap, struct prio_error *err)
{
	struct prio_assoc *as = snap->assocs;
	uint32_t n = snap->assoc_count, *start = NULL, *queue = NULL;
	struct sib *sibs = NULL;
	uint32_t users = 0, head, tail;
	int rc = PRIO_OK;

	snap->user_assoc_count = 0;
	if (n == 0)
		return PRIO_OK;
	if (as[0].parent != PRIO_ASSOC_NONE || as[0].is_user)
		return link_error(
		    err, snap, 0, PRIO_ERR_PARSE,
		    "comes first but is not the root association");
	for (uint32_t i = 0; i < n; i++) {
		struct prio_assoc *a = &as[i];

		a->first_child = a->next_sibling = PRIO_ASSOC_NONE;
		if (i == 0)
			continue;
		if (a->parent == PRIO_ASSOC_NONE)
			return link_error(err, snap, i, PRIO_ERR_PARSE,
					  "has no parent (an orphan)");
		if (a->parent >= n)
			return link_error(err, snap, i, PRIO_ERR_PARSE,
					  "has a parent out of range");
		if (a->parent == i)
			return link_error(err, snap, i, PRIO_ERR_PARSE,
					  "is its own parent (a cycle)");
		if (as[a->parent].is_user)
			return link_error(err, snap, i, PRIO_ERR_PARSE,
					  "hangs under a user association");
		if (a->is_user && a->account != as[a->parent].account)
			return link_error(
			    err, snap, i, PRIO_ERR_PARSE,
			    "names another account than its parent");
	}

	/* Group children by parent (counting sort), then order each group. */
	start = calloc((size_t)n + 1, sizeof(*start));
	sibs = malloc((size_t)n * sizeof(*sibs));
	queue = malloc((size_t)n * sizeof(*queue));
	if (!start || !sibs || !queue) {
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				    "out of memory");
		goto out;
	}
	for (uint32_t i = 1; i < n; i++)
		start[as[i].parent + 1]++;
	for (uint32_t p = 0; p < n; p++)
		start[p + 1] += start[p];
	for (uint32_t i = 1; i < n; i++) {
		struct sib *s = &sibs[start[as[i].parent]++];

		s->is_account = !as[i].is_user;
		s->name = prio_snapshot_str(
		    snap, as[i].is_user ? as[i].user : as[i].account);
		s->part = prio_snapshot_str(snap, as[i].partition);
		s->index = i;
	}
	/* start[p] is now the end of p's group, which begins at start[p-1]. */
	for (uint32_t p = 0; p < n; p++) {
		uint32_t lo = p ? start[p - 1] : 0, hi = start[p];

		if (hi - lo > 1)
			qsort(sibs + lo, hi - lo, sizeof(*sibs), sib_cmp);
		for (uint32_t k = hi; k-- > lo;) {
			uint32_t i = sibs[k].index;

			if (k + 1 < hi &&
			    sibs[k + 1].is_account == sibs[k].is_account &&
			    !strcmp(sibs[k + 1].name, sibs[k].name) &&
			    !strcmp(sibs[k + 1].part, sibs[k].part)) {
				rc = link_error(err, snap, sibs[k + 1].index,
						PRIO_ERR_PARSE,
						"is defined twice");
				goto out;
			}
			as[i].next_sibling = as[p].first_child;
			as[p].first_child = i;
		}
	}

	/* Breadth-first from the root: depth, effective priority, and what is
	 * reached (anything else hangs in a cycle). */
	head = tail = 0;
	queue[tail++] = 0;
	as[0].depth = 0;
	as[0].priority_eff = as[0].priority == PRIO_NO_VAL ? 0 : as[0].priority;
	while (head < tail) {
		uint32_t p = queue[head++];

		users += as[p].is_user;
		if (as[p].priority_eff == PRIO_INFINITE)
			as[p].priority_eff = 0;
		for (uint32_t c = as[p].first_child; c != PRIO_ASSOC_NONE;
		     c = as[c].next_sibling) {
			if (as[p].depth >= PRIO_ASSOC_MAX_DEPTH) {
				rc = link_error(
				    err, snap, c, PRIO_ERR_LIMIT,
				    "is deeper than the tree may be");
				snprintf(
				    err->message, sizeof(err->message),
				    "association tree deeper than %u levels",
				    PRIO_ASSOC_MAX_DEPTH);
				goto out;
			}
			as[c].depth = (uint16_t)(as[p].depth + 1);
			as[c].priority_eff = as[c].priority == PRIO_NO_VAL
						 ? as[p].priority_eff
						 : as[c].priority;
			queue[tail++] = c;
		}
	}
	if (tail < n) {
		/* Reuse start[] as a "reached" mark to name the first record
		 * left out. */
		uint32_t i = 1;

		memset(start, 0, (size_t)n * sizeof(*start));
		for (uint32_t k = 0; k < tail; k++)
			start[queue[k]] = 1;
		while (i < n && start[i])
			i++;
		rc = link_error(err, snap, i, PRIO_ERR_PARSE,
				"never reaches the root (a cycle of parents)");
		goto out;
	}
	snap->user_assoc_count = users;
	for (uint32_t p = 0; p < n; p++)
		if ((rc = check_usage(snap, p, err)) < 0)
			goto out;
	rc = build_lookup(snap, err);
out:
	free(start);
	free(sibs);
	free(queue);
	return rc;
}
