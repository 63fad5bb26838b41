/* SPDX-License-Identifier: MIT */
/*
 * sreport's reports from a usage roll-up.  What the text looks like comes
 * from tests/oracle/sreport-final (sreport 22.05 -P output) and
 * sreport(1):
 *  - a block of 80 dashes, a title with the window printed as start and
 *    end - 1 s ("2026-11-22T03:00:00 - 2026-11-22T03:59:59") followed by
 *    "(3600 secs)" except for Cluster Utilization, "Usage reported in CPU
 *    Seconds" ("TRES" when -T names the TRES, "Time reported in" for the
 *    job report), 80 dashes;
 *  - without -T the user and account reports add an Energy column and no
 *    TRES Name column; with -T there is one row per TRES, in -T order;
 *  - -t minutes and hours print "%.0f" of the seconds divided (889.4 min
 *    prints 889, 22.6 prints 23), percent "%.2f%%" of the cluster's
 *    Reported time, SecPer "N(P%)";
 *  - AccountUtilizationByUser walks the account tree from root, each
 *    account followed by its users by name and then its sub-accounts by
 *    name, accounts summing their sub-accounts; rows without usage are
 *    left out;
 *  - UserUtilizationByAccount and TopUsage sort by usage (first TRES),
 *    ties by login then account; TopUsage keeps TopCount rows (10);
 *  - cluster Utilization: Allocated = the jobs' usage, Reported = the
 *    cluster's TRES (nodes; billing as prio_billing_nodes) times the time
 *    it was up, Planned (CPU only) = eligible jobs' waiting time clamped
 *    to Reported - Allocated - Down - PLND Down, Idle = the rest.  Down
 *    and PLND Down come from node events slurmdbd keeps and no input here
 *    has: they print 0.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/report_sreport.h"
#include "prio/snapshot.h"

int prio_sreport_unit_parse(const char *s)
{
	static const struct {
		const char *name;
		size_t min;
		enum prio_sreport_unit unit;
	} units[] = {
		{ "SecPer", 6, PRIO_UNIT_SECPER },
		{ "MinPer", 6, PRIO_UNIT_MINPER },
		{ "HourPer", 6, PRIO_UNIT_HOURPER },
		{ "Seconds", 1, PRIO_UNIT_SECONDS },
		{ "Minutes", 1, PRIO_UNIT_MINUTES },
		{ "Hours", 1, PRIO_UNIT_HOURS },
		{ "Percent", 1, PRIO_UNIT_PERCENT },
	};
	size_t n = strlen(s);

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (n >= units[i].min && n <= strlen(units[i].name) &&
		    strncasecmp(s, units[i].name, n) == 0)
			return (int)units[i].unit;
	return -1;
}

static const char *unit_name(enum prio_sreport_unit u)
{
	switch (u) {
	case PRIO_UNIT_SECONDS: return "Seconds";
	case PRIO_UNIT_MINUTES: return "Minutes";
	case PRIO_UNIT_HOURS: return "Hours";
	case PRIO_UNIT_PERCENT: return "Percentage of Total";
	case PRIO_UNIT_SECPER: return "Seconds/Percentage of Total";
	case PRIO_UNIT_MINPER: return "Minutes/Percentage of Total";
	case PRIO_UNIT_HOURPER: return "Hours/Percentage of Total";
	}
	return "";
}

/* ---- building rows ---------------------------------------------------- */

struct builder {
	struct prio_sreport *rep;
	const struct prio_sreport_opts *o;
	struct prio_cell *row; /* the row being filled */
	size_t col;
	int failed;
};

static int add_column(struct prio_sreport *rep, const char *id,
		      const char *header, int width, bool right)
{
	rep->cols[rep->ncols] = (struct prio_column){
		.id = id, .header = header, .width = width, .right = right,
		.numfmt = PRIO_NUMFMT_PLAIN,
	};
	return (int)rep->ncols++;
}

static void begin_row(struct builder *b)
{
	struct prio_sreport *rep = b->rep;

	if (b->failed)
		return;
	if (rep->nrows == rep->cap_rows) {
		size_t cap = rep->cap_rows ? rep->cap_rows * 2 : 64;
		struct prio_cell *c = realloc(rep->cells, cap * rep->ncols * sizeof(*c));

		if (!c) {
			b->failed = PRIO_ERR_NOMEM;
			return;
		}
		rep->cells = c;
		rep->cap_rows = cap;
	}
	b->row = rep->cells + rep->nrows * rep->ncols;
	for (size_t i = 0; i < rep->ncols; i++)
		b->row[i] = prio_cell_blank();
	rep->nrows++;
	b->col = 0;
}

static void put(struct builder *b, struct prio_cell c)
{
	if (b->failed || b->col >= b->rep->ncols)
		return;
	b->row[b->col++] = c;
}

static void put_str(struct builder *b, const char *s)
{
	put(b, prio_cell_str(s));
}

static void put_fmt(struct builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put_fmt(struct builder *b, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = prio_arena_strdup(&b->rep->arena, buf);
	if (!s)
		b->failed = PRIO_ERR_NOMEM;
	put_str(b, s);
}

/* A TRES-seconds value as -t says (sreport's time printer). */
static void put_time(struct builder *b, double v, double total)
{
	double pct;

	if (total <= 0)
		total = 1;
	pct = v / total * 100.0;
	if (b->o->numbers) {
		switch (b->o->unit) {
		case PRIO_UNIT_SECONDS:
		case PRIO_UNIT_SECPER:
			put(b, prio_cell_double(v));
			return;
		case PRIO_UNIT_MINUTES:
		case PRIO_UNIT_MINPER:
			put(b, prio_cell_double(v / 60.0));
			return;
		case PRIO_UNIT_HOURS:
		case PRIO_UNIT_HOURPER:
			put(b, prio_cell_double(v / 3600.0));
			return;
		case PRIO_UNIT_PERCENT:
			put(b, prio_cell_double(pct));
			return;
		}
	}
	switch (b->o->unit) {
	case PRIO_UNIT_SECONDS: put_fmt(b, "%.0f", v); return;
	case PRIO_UNIT_MINUTES: put_fmt(b, "%.0f", v / 60.0); return;
	case PRIO_UNIT_HOURS: put_fmt(b, "%.0f", v / 3600.0); return;
	case PRIO_UNIT_PERCENT: put_fmt(b, "%.2f%%", pct); return;
	case PRIO_UNIT_SECPER: put_fmt(b, "%.0f(%.2f%%)", v, pct); return;
	case PRIO_UNIT_MINPER: put_fmt(b, "%.0f(%.2f%%)", v / 60.0, pct); return;
	case PRIO_UNIT_HOURPER: put_fmt(b, "%.0f(%.2f%%)", v / 3600.0, pct); return;
	}
}

/* ---- shared inputs ---------------------------------------------------- */

struct ctx {
	const struct prio_snapshot *snap;
	const struct prio_rollup *r;
	const struct prio_sreport_opts *o;
	uint32_t tres_default;       /* PRIO_TRES_CPU */
	const uint32_t *tres;        /* the TRES reported */
	uint32_t ntres;
	uint64_t *cluster_tres;      /* [tres_count] */
	const char *cluster;
};

static double reported(const struct ctx *c, uint32_t b, uint32_t t)
{
	time_t from = c->r->bounds[b], to = c->r->bounds[b + 1];

	if (c->o->up_since > from)
		from = c->o->up_since;
	if (to <= from)
		return 0;
	return (double)c->cluster_tres[t] * (double)(to - from);
}

static void put_period(struct builder *b, const struct ctx *c, uint32_t bucket)
{
	char buf[32];

	/* JSON too: a time is its text, as in every other table's JSON */
	prio_timestamp_format(c->r->bounds[bucket], buf, sizeof(buf));
	put_fmt(b, "%s", buf);
}

static bool by_period(const struct ctx *c)
{
	return c->r->by != PRIO_BY_NONE;
}

/* ---- the account tree ------------------------------------------------- */

struct acct_node {
	prio_id id;
	int32_t parent;
	int32_t first_child, next_sibling; /* sorted by name at build time */
	uint16_t depth;
	double *sum;     /* [bucket * ntres + k] */
	double *dsum;    /* decayed, same shape */
	bool wanted;     /* under an Accounts= root (or no filter) */
};

struct tree {
	struct acct_node *n;
	uint32_t count, cap;
	uint32_t *by_id; /* prio_id -> index + 1 */
};

static int tree_add(struct tree *t, prio_id id, int32_t parent)
{
	if (t->count == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		struct acct_node *n = realloc(t->n, cap * sizeof(*n));

		if (!n)
			return -1;
		t->n = n;
		t->cap = cap;
	}
	memset(&t->n[t->count], 0, sizeof(t->n[0]));
	t->n[t->count].id = id;
	t->n[t->count].parent = parent;
	t->n[t->count].first_child = -1;
	t->n[t->count].next_sibling = -1;
	t->by_id[id] = t->count + 1;
	return (int)t->count++;
}

static const struct prio_snapshot *sort_snap;
static const struct tree *sort_tree;

static int by_name(const void *a, const void *b)
{
	const struct acct_node *x = &sort_tree->n[*(const uint32_t *)a];
	const struct acct_node *y = &sort_tree->n[*(const uint32_t *)b];

	return strcmp(prio_snapshot_str(sort_snap, x->id),
		      prio_snapshot_str(sort_snap, y->id));
}

/* Accounts from the association tree, then those only the records name
 * (under root); children linked in name order. */
static int tree_build(struct tree *t, const struct ctx *c)
{
	const struct prio_snapshot *snap = c->snap;
	prio_id root = prio_intern_find(&snap->strings, "root", 4);
	uint32_t *order;
	uint32_t nstr = snap->strings.count;

	memset(t, 0, sizeof(*t));
	t->by_id = calloc(nstr ? nstr : 1, sizeof(*t->by_id));
	if (!t->by_id)
		return -1;
	/* no "root" anywhere in the inputs: the root row is still "root" */
	if (tree_add(t, root, -1) < 0)
		return -1;
	/* the association tree: parents come before children in its array
	 * order only by chance, so link by walking up */
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		const struct prio_assoc *a = &snap->assocs[i];
		uint32_t chain[PRIO_ASSOC_MAX_DEPTH + 1], depth = 0, k = i;

		if (a->is_user || a->user != PRIO_NO_ID || t->by_id[a->account])
			continue;
		while (k != PRIO_ASSOC_NONE && depth <= PRIO_ASSOC_MAX_DEPTH &&
		       !t->by_id[snap->assocs[k].account]) {
			chain[depth++] = k;
			k = snap->assocs[k].parent;
		}
		while (depth--) {
			const struct prio_assoc *x = &snap->assocs[chain[depth]];
			int32_t parent = 0;

			if (x->parent != PRIO_ASSOC_NONE &&
			    t->by_id[snap->assocs[x->parent].account])
				parent = (int32_t)t->by_id[snap->assocs[x->parent].account] - 1;
			if (!t->by_id[x->account] && tree_add(t, x->account, parent) < 0)
				return -1;
		}
	}
	for (uint32_t i = 0; i < c->r->entry_count; i++) {
		prio_id a = c->r->entries[i].account;

		if (a != PRIO_NO_ID && !t->by_id[a] && tree_add(t, a, 0) < 0)
			return -1;
	}
	/* link children sorted by name */
	order = malloc(t->count * sizeof(*order));
	if (!order)
		return -1;
	for (uint32_t i = 0; i < t->count; i++)
		order[i] = i;
	sort_snap = snap;
	sort_tree = t;
	qsort(order, t->count, sizeof(*order), by_name);
	for (uint32_t k = t->count; k-- > 0;) {
		struct acct_node *n = &t->n[order[k]];

		if (n->parent < 0)
			continue;
		n->next_sibling = t->n[n->parent].first_child;
		t->n[n->parent].first_child = (int32_t)order[k];
	}
	free(order);
	for (uint32_t i = 0; i < t->count; i++) {
		uint32_t d = 0;

		for (int32_t p = t->n[i].parent; p >= 0 && d < 1000; p = t->n[p].parent)
			d++;
		t->n[i].depth = (uint16_t)d;
	}
	return 0;
}

static void tree_free(struct tree *t)
{
	for (uint32_t i = 0; i < t->count; i++) {
		free(t->n[i].sum);
		free(t->n[i].dsum);
	}
	free(t->n);
	free(t->by_id);
}

/* An account's name; the root is "root" even when no input named it. */
static const char *acct_name(const struct ctx *c, prio_id id)
{
	return id == PRIO_NO_ID ? "root" : prio_snapshot_str(c->snap, id);
}

static bool in_list(const prio_id *list, uint32_t n, prio_id id)
{
	for (uint32_t i = 0; i < n; i++)
		if (list[i] == id)
			return true;
	return false;
}

/* Whether account a (tree index) is wanted by Accounts= (itself or an
 * ancestor listed). */
static bool account_wanted(const struct tree *t, const struct ctx *c, int32_t a)
{
	if (!c->o->account_count)
		return true;
	for (int32_t k = a; k >= 0; k = t->n[k].parent)
		if (in_list(c->o->accounts, c->o->account_count, t->n[k].id))
			return true;
	return false;
}

static bool user_wanted(const struct ctx *c, prio_id user)
{
	return !c->o->user_count || in_list(c->o->users, c->o->user_count, user);
}

/* ---- the reports ------------------------------------------------------ */

static void put_tres_name(struct builder *b, const struct ctx *c, uint32_t t)
{
	if (c->o->tres)
		put_str(b, c->snap->tres.names[t]);
}

static void put_energy(struct builder *b, const struct ctx *c)
{
	if (!c->o->tres)
		put(b, c->o->numbers ? prio_cell_uint(0) : prio_cell_str("0"));
}

/*
 * What sreport prints differently per release, read from each tag's
 * src/sreport: a row holds from its release until the next row's.
 */
static const struct sreport_release {
	uint16_t since;
	/* cluster Utilization's default columns ask for "planned" where PLND
	 * Down goes; 24.05 moved the Planned field's test before PlannedDown's,
	 * so "planned" names Planned: Planned shows twice and PLND Down not at
	 * all, until 25.05 asks for "PLNDDown" (text and -P only: JSON keys
	 * stay one per value) */
	bool planned_twice;
} sreport_releases[] = {
    {2205, false},
    {2405, true},
    {2505, false},
};

static const struct sreport_release *sreport_release(const struct ctx *c)
{
	uint16_t release = prio_snapshot_slurm(c->snap)->release;
	const struct sreport_release *r = &sreport_releases[0];

	for (size_t i = 0;
	     i < sizeof(sreport_releases) / sizeof(sreport_releases[0]); i++)
		if (sreport_releases[i].since <= release)
			r = &sreport_releases[i];
	return r;
}

static bool planned_twice(const struct ctx *c)
{
	return !c->o->numbers && sreport_release(c)->planned_twice;
}

static void utilization(struct builder *b, const struct ctx *c)
{
	bool twice = planned_twice(c);

	for (uint32_t bk = 0; bk < c->r->bucket_count; bk++)
		for (uint32_t k = 0; k < c->ntres; k++) {
			uint32_t t = c->tres[k];
			double alloc = (double)c->r->alloc[(size_t)bk * c->r->tres_count + t];
			double rep = reported(c, bk, t), planned = 0, idle;

			if (t == PRIO_TRES_CPU) {
				planned = (double)c->r->planned_cpu[bk];
				if (planned > rep - alloc)
					planned = rep - alloc > 0 ? rep - alloc : 0;
			}
			idle = rep - alloc - planned;
			if (idle < 0)
				idle = 0;
			begin_row(b);
			if (by_period(c))
				put_period(b, c, bk);
			put_str(b, c->cluster);
			put_tres_name(b, c, t);
			put_time(b, alloc, rep);
			if (c->o->decayed)
				put_time(b, c->r->alloc_decayed[(size_t)bk * c->r->tres_count + t],
					 rep);
			put_time(b, 0, rep);
			put_time(b, twice ? planned : 0, rep);
			put_time(b, idle, rep);
			put_time(b, planned, rep);
			put_time(b, rep, rep);
		}
}

/* Per-account sums (own users and sub-accounts) for every bucket. */
static int account_sums(struct tree *t, const struct ctx *c)
{
	size_t per = (size_t)c->r->bucket_count * c->ntres;

	for (uint32_t i = 0; i < t->count; i++) {
		t->n[i].sum = calloc(per, sizeof(double));
		t->n[i].dsum = calloc(per, sizeof(double));
		if (!t->n[i].sum || !t->n[i].dsum)
			return -1;
	}
	for (uint32_t i = 0; i < c->r->entry_count; i++) {
		const struct prio_rollup_entry *e = &c->r->entries[i];
		uint32_t a = e->account ? t->by_id[e->account] : 1;

		if (!a)
			continue;
		for (uint32_t k = 0; k < c->ntres; k++) {
			t->n[a - 1].sum[(size_t)e->bucket * c->ntres + k] +=
			    (double)e->secs[c->tres[k]];
			if (e->decayed)
				t->n[a - 1].dsum[(size_t)e->bucket * c->ntres + k] +=
				    e->decayed[c->tres[k]];
		}
	}
	/* children after parents in index order is not guaranteed: add each
	 * node's own sums to every ancestor, from the deepest level up */
	{
		uint16_t maxd = 0;

		for (uint32_t i = 0; i < t->count; i++)
			if (t->n[i].depth > maxd)
				maxd = t->n[i].depth;
		for (int d = maxd; d > 0; d--)
			for (uint32_t i = 0; i < t->count; i++) {
				struct acct_node *n = &t->n[i];

				if (n->depth != d || n->parent < 0)
					continue;
				for (size_t k = 0; k < per; k++) {
					t->n[n->parent].sum[k] += n->sum[k];
					t->n[n->parent].dsum[k] += n->dsum[k];
				}
			}
	}
	return 0;
}

static int by_user_name(const void *a, const void *b)
{
	const struct prio_rollup_entry *x = *(const struct prio_rollup_entry *const *)a;
	const struct prio_rollup_entry *y = *(const struct prio_rollup_entry *const *)b;
	int d;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->account != y->account)
		return x->account < y->account ? -1 : 1;
	d = strcmp(prio_snapshot_str(sort_snap, x->user),
		   prio_snapshot_str(sort_snap, y->user));
	return d;
}

static bool any_usage(const double *v, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] != 0)
			return true;
	return false;
}

static bool entry_has_usage(const struct ctx *c, const struct prio_rollup_entry *e)
{
	for (uint32_t k = 0; k < c->ntres; k++)
		if (e->secs[c->tres[k]])
			return true;
	return false;
}

/* Rows of one account name cell: indented under `tree`. */
static void put_account(struct builder *b, const struct ctx *c, prio_id id,
			uint16_t depth)
{
	const char *name = acct_name(c, id);

	if (c->o->tree && depth) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%*s%s", (int)depth, "", name);
		put_fmt(b, "%s", buf);
	} else {
		put_str(b, name);
	}
}

struct walk {
	struct builder *b;
	const struct ctx *c;
	struct tree *t;
	const struct prio_rollup_entry **users; /* sorted by bucket, acct, name */
	uint32_t nusers;
	uint32_t *first_user; /* tree index -> first position in users, or
				 UINT32_MAX; for the current bucket */
	uint32_t bucket;
};

static void emit_user_rows(struct walk *w, const struct acct_node *n,
			   const struct prio_rollup_entry *e)
{
	const struct ctx *c = w->c;
	double total;

	for (uint32_t k = 0; k < c->ntres; k++) {
		total = reported(c, w->bucket, c->tres[k]);
		begin_row(w->b);
		if (by_period(c))
			put_period(w->b, c, w->bucket);
		put_str(w->b, c->cluster);
		put_account(w->b, c, n->id, (uint16_t)(n->depth + 1));
		put_str(w->b, prio_snapshot_str(c->snap, e->user));
		put(w->b, prio_cell_blank());
		put_tres_name(w->b, c, c->tres[k]);
		put_time(w->b, (double)e->secs[c->tres[k]], total);
		if (c->o->decayed)
			put_time(w->b, e->decayed ? e->decayed[c->tres[k]] : 0, total);
		put_energy(w->b, c);
	}
}

static void walk_account(struct walk *w, int32_t idx)
{
	const struct ctx *c = w->c;
	const struct acct_node *n = &w->t->n[idx];
	const double *sum = n->sum + (size_t)w->bucket * c->ntres;
	const double *dsum = n->dsum + (size_t)w->bucket * c->ntres;

	if (!any_usage(sum, c->ntres))
		return;
	if (account_wanted(w->t, c, idx)) {
		for (uint32_t k = 0; k < c->ntres; k++) {
			double total = reported(c, w->bucket, c->tres[k]);

			begin_row(w->b);
			if (by_period(c))
				put_period(w->b, c, w->bucket);
			put_str(w->b, c->cluster);
			put_account(w->b, c, n->id, n->depth);
			put(w->b, prio_cell_blank());
			put(w->b, prio_cell_blank());
			put_tres_name(w->b, c, c->tres[k]);
			put_time(w->b, sum[k], total);
			if (c->o->decayed)
				put_time(w->b, dsum[k], total);
			put_energy(w->b, c);
		}
		for (uint32_t u = w->first_user[idx];
		     u < w->nusers && w->users[u]->account == n->id &&
		     w->users[u]->bucket == w->bucket;
		     u++)
			if (user_wanted(c, w->users[u]->user) &&
			    entry_has_usage(c, w->users[u]))
				emit_user_rows(w, n, w->users[u]);
	}
	for (int32_t ch = n->first_child; ch >= 0; ch = w->t->n[ch].next_sibling)
		walk_account(w, ch);
}

static int account_by_user(struct builder *b, const struct ctx *c)
{
	struct tree t;
	struct walk w;
	int rc = tree_build(&t, c);

	memset(&w, 0, sizeof(w));
	if (rc < 0 || account_sums(&t, c) < 0)
		goto nomem;
	w.b = b;
	w.c = c;
	w.t = &t;
	w.users = malloc((c->r->entry_count + 1) * sizeof(*w.users));
	w.first_user = malloc(t.count * sizeof(*w.first_user));
	if (!w.users || !w.first_user)
		goto nomem;
	for (uint32_t i = 0; i < c->r->entry_count; i++)
		w.users[w.nusers++] = &c->r->entries[i];
	sort_snap = c->snap;
	qsort(w.users, w.nusers, sizeof(*w.users), by_user_name);
	for (w.bucket = 0; w.bucket < c->r->bucket_count; w.bucket++) {
		for (uint32_t i = 0; i < t.count; i++)
			w.first_user[i] = UINT32_MAX;
		for (uint32_t u = w.nusers; u-- > 0;) {
			const struct prio_rollup_entry *e = w.users[u];
			uint32_t a = e->account ? t.by_id[e->account] : 1;

			if (e->bucket == w.bucket && a)
				w.first_user[a - 1] = u;
		}
		walk_account(&w, 0);
	}
	free(w.users);
	free(w.first_user);
	tree_free(&t);
	return 0;
nomem:
	free(w.users);
	free(w.first_user);
	tree_free(&t);
	return -1;
}

/* One line of a user report: (bucket, user, account or accounts) and its
 * usage per reported TRES. */
struct user_line {
	uint32_t bucket;
	prio_id user;
	const char *accounts;
	double *secs;  /* [ntres] */
	double *dec;   /* [ntres] */
};

static int by_usage(const void *a, const void *b)
{
	const struct user_line *x = a, *y = b;
	int d;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->secs[0] != y->secs[0])
		return x->secs[0] > y->secs[0] ? -1 : 1;
	d = strcmp(prio_snapshot_str(sort_snap, x->user),
		   prio_snapshot_str(sort_snap, y->user));
	if (d)
		return d;
	return strcmp(x->accounts, y->accounts);
}

static int by_bucket_user(const void *a, const void *b)
{
	const struct prio_rollup_entry *x = *(const struct prio_rollup_entry *const *)a;
	const struct prio_rollup_entry *y = *(const struct prio_rollup_entry *const *)b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->user != y->user)
		return x->user < y->user ? -1 : 1;
	return strcmp(prio_snapshot_str(sort_snap, x->account),
		      prio_snapshot_str(sort_snap, y->account));
}

static int user_report(struct builder *b, const struct ctx *c, bool top)
{
	struct user_line *lines = calloc(c->r->entry_count + 1, sizeof(*lines));
	const struct prio_rollup_entry **es =
	    malloc((c->r->entry_count + 1) * sizeof(*es));
	double *vals = calloc(((size_t)c->r->entry_count + 1) * c->ntres * 2,
			      sizeof(double));
	struct tree t;
	uint32_t n = 0, ne = 0;
	int rc = -1;

	memset(&t, 0, sizeof(t));
	if (!lines || !es || !vals)
		goto out;
	if (c->o->account_count && tree_build(&t, c) == -1)
		goto out;
	for (uint32_t i = 0; i < c->r->entry_count; i++) {
		const struct prio_rollup_entry *e = &c->r->entries[i];

		if (!user_wanted(c, e->user) || !entry_has_usage(c, e))
			continue;
		if (c->o->account_count &&
		    (!t.by_id || !t.by_id[e->account] ||
		     !account_wanted(&t, c, (int32_t)t.by_id[e->account] - 1)))
			continue;
		es[ne++] = e;
	}
	sort_snap = c->snap;
	qsort(es, ne, sizeof(*es), by_bucket_user);
	for (uint32_t i = 0; i < ne; i++) {
		const struct prio_rollup_entry *e = es[i];
		struct user_line *l;
		bool merge = top && c->o->group && n && lines[n - 1].bucket == e->bucket &&
			     lines[n - 1].user == e->user;

		if (!merge) {
			l = &lines[n];
			l->bucket = e->bucket;
			l->user = e->user;
			l->accounts = prio_snapshot_str(c->snap, e->account);
			l->secs = vals + (size_t)n * c->ntres * 2;
			l->dec = l->secs + c->ntres;
			n++;
		} else {
			char *joined;
			size_t len;

			l = &lines[n - 1];
			len = strlen(l->accounts) + strlen(prio_snapshot_str(c->snap, e->account)) + 2;
			joined = prio_arena_alloc(&b->rep->arena, len);
			if (!joined)
				goto out;
			snprintf(joined, len, "%s,%s", l->accounts,
				 prio_snapshot_str(c->snap, e->account));
			l->accounts = joined;
		}
		for (uint32_t k = 0; k < c->ntres; k++) {
			l->secs[k] += (double)e->secs[c->tres[k]];
			if (e->decayed)
				l->dec[k] += e->decayed[c->tres[k]];
		}
	}
	qsort(lines, n, sizeof(*lines), by_usage);
	{
		uint32_t limit = c->o->top_count ? c->o->top_count : 10, shown = 0;

		for (uint32_t i = 0; i < n; i++) {
			const struct user_line *l = &lines[i];

			if (i && l->bucket != lines[i - 1].bucket)
				shown = 0;
			if (top && shown >= limit)
				continue;
			shown++;
			for (uint32_t k = 0; k < c->ntres; k++) {
				double total = reported(c, l->bucket, c->tres[k]);

				begin_row(b);
				if (by_period(c))
					put_period(b, c, l->bucket);
				put_str(b, c->cluster);
				put_str(b, prio_snapshot_str(c->snap, l->user));
				put(b, prio_cell_blank());
				put_str(b, l->accounts);
				put_tres_name(b, c, c->tres[k]);
				put_time(b, l->secs[k], total);
				if (c->o->decayed)
					put_time(b, l->dec[k], total);
				put_energy(b, c);
			}
		}
	}
	rc = 0;
out:
	if (t.n || t.by_id)
		tree_free(&t);
	free(lines);
	free(es);
	free(vals);
	return rc;
}

static const uint32_t default_grouping[] = { 50, 250, 500, 1000 };

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Which size column a job of `cpus` falls in. */
static uint32_t size_bin(const uint32_t *bounds, uint32_t nb, uint32_t cpus)
{
	uint32_t k = 0;

	while (k < nb && cpus >= bounds[k])
		k++;
	return k;
}

/* The job report needs job sizes, which the roll-up entries do not keep:
 * one more pass over the records (the roll-up's clipping rule). */
static int job_sizes(struct builder *b, const struct ctx *c,
		     const uint32_t *bounds, uint32_t nb)
{
	const struct prio_snapshot *snap = c->snap;
	uint32_t ncols = nb + 1, nbk = c->r->bucket_count;
	struct tree t;
	double *v; /* [bucket][account index][col] */
	double *cluster_total;
	int rc = -1;

	if (tree_build(&t, c) == -1) {
		tree_free(&t);
		return -1;
	}
	if (!t.count) {
		tree_free(&t);
		return 0;
	}
	v = calloc((size_t)nbk * t.count * ncols, sizeof(*v));
	cluster_total = calloc(nbk, sizeof(*cluster_total));
	if (!v || !cluster_total)
		goto out;
	for (uint32_t i = 0; i < snap->sacct_count; i++) {
		const struct prio_sacct_rec *rec = &snap->sacct[i];
		uint32_t a, col;

		if (rec->is_step || !rec->start)
			continue;
		if (c->o->user_count && !user_wanted(c, rec->user))
			continue;
		a = rec->account && t.by_id[rec->account] ? t.by_id[rec->account] - 1 : 0;
		col = size_bin(bounds, nb, rec->ncpus);
		for (uint32_t bk = 0; bk < nbk; bk++) {
			struct prio_usage_span sp;
			double x;

			if (!prio_usage_span(rec, c->r->bounds[bk], c->r->bounds[bk + 1],
					     c->r->now,
					     &sp))
				continue;
			x = c->o->print_job_count ? 1.0 : (double)sp.secs * rec->ncpus;
			cluster_total[bk] += x;
			/* count in this account and every ancestor */
			for (int32_t k = (int32_t)a; k >= 0; k = t.n[k].parent)
				v[((size_t)bk * t.count + (uint32_t)k) * ncols + col] += x;
		}
	}
	for (uint32_t bk = 0; bk < nbk; bk++) {
		/* rows: Accounts= when given, else root */
		for (uint32_t k = 0; k < t.count; k++) {
			const double *row = v + ((size_t)bk * t.count + k) * ncols;
			double sum = 0;

			if (c->o->account_count ? !in_list(c->o->accounts, c->o->account_count,
							    t.n[k].id)
						: k != 0)
				continue;
			for (uint32_t col = 0; col < ncols; col++)
				sum += row[col];
			begin_row(b);
			if (by_period(c))
				put_period(b, c, bk);
			put_str(b, c->cluster);
			put_str(b, acct_name(c, t.n[k].id));
			for (uint32_t col = 0; col < ncols; col++) {
				if (c->o->print_job_count) {
					if (c->o->numbers)
						put(b, prio_cell_uint((uint64_t)row[col]));
					else
						put_fmt(b, "%.0f", row[col]);
				} else {
					put_time(b, row[col], cluster_total[bk]);
				}
			}
			if (c->o->numbers)
				put(b, prio_cell_double(cluster_total[bk] > 0
								? sum / cluster_total[bk] * 100
								: 0));
			else
				put_fmt(b, "%.2f%%", cluster_total[bk] > 0
							? sum / cluster_total[bk] * 100
							: 0.0);
		}
	}
	rc = 0;
out:
	free(v);
	free(cluster_total);
	tree_free(&t);
	return rc;
}

/* ---- assembling ------------------------------------------------------- */

static void window_text(const struct prio_rollup *r, char *buf, size_t size)
{
	char a[32], z[32];

	prio_timestamp_format(r->bounds[0], a, sizeof(a));
	prio_timestamp_format(r->bounds[r->bucket_count] - 1, z, sizeof(z));
	snprintf(buf, size, "%s - %s", a, z);
}

int prio_sreport_build(const struct prio_snapshot *snap,
		       const struct prio_rollup *r,
		       const struct prio_sreport_opts *o,
		       struct prio_sreport *out, struct prio_error *err)
{
	static const uint32_t cpu_only[] = { PRIO_TRES_CPU };
	struct builder b;
	struct ctx c;
	char win[96];
	long secs = (long)(r->bounds[r->bucket_count] - r->bounds[0]);
	uint32_t sizes[64], nsizes = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	prio_arena_init(&out->arena);
	memset(&c, 0, sizeof(c));
	c.snap = snap;
	c.r = r;
	c.o = o;
	c.tres = o->tres ? o->tres : cpu_only;
	c.ntres = o->tres ? o->tres_count : 1;
	c.cluster = o->cluster_name ? o->cluster_name : "";
	c.cluster_tres = calloc(snap->tres.count ? snap->tres.count : 1,
				sizeof(*c.cluster_tres));
	out->cols = calloc(80, sizeof(*out->cols));
	if (!c.cluster_tres || !out->cols)
		goto nomem;
	prio_cluster_tres(snap, c.cluster_tres);
	for (uint32_t k = 0; k < c.ntres; k++)
		if (c.tres[k] >= r->tres_count || c.tres[k] >= snap->tres.count)
			return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "tres",
					      "TRES index out of range");
	window_text(r, win, sizeof(win));
	snprintf(out->units, sizeof(out->units), "Usage reported in %s %s",
		 o->tres ? "TRES" : "CPU", unit_name(o->unit));

	if (by_period(&c))
		add_column(out, "period", "Period", 19, false);
	add_column(out, "cluster", "Cluster", 9, false);
	switch (o->kind) {
	case PRIO_SREPORT_UTILIZATION:
		snprintf(out->title, sizeof(out->title), "Cluster Utilization %s", win);
		if (o->tres)
			add_column(out, "tres_name", "TRES Name", 14, false);
		add_column(out, "allocated", "Allocated", 13, true);
		if (o->decayed)
			add_column(out, "decayed", "Decayed", 13, true);
		add_column(out, "down", "Down", 10, true);
		if (planned_twice(&c))
			add_column(out, "planned", "Planned", 10, true);
		else
			add_column(out, "planned_down", "PLND Down", 10, true);
		add_column(out, "idle", "Idle", 13, true);
		add_column(out, "planned", "Planned", 10, true);
		add_column(out, "reported", "Reported", 13, true);
		break;
	case PRIO_SREPORT_ACCOUNT_BY_USER:
		snprintf(out->title, sizeof(out->title),
			 "Cluster/Account/User Utilization %s (%ld secs)", win, secs);
		add_column(out, "account", "Account", 15, false);
		add_column(out, "login", "Login", 9, false);
		add_column(out, "proper_name", "Proper Name", 15, false);
		break;
	case PRIO_SREPORT_USER_BY_ACCOUNT:
	case PRIO_SREPORT_TOP_USAGE:
		if (o->kind == PRIO_SREPORT_TOP_USAGE)
			snprintf(out->title, sizeof(out->title), "Top %u Users %s (%ld secs)",
				 o->top_count ? o->top_count : 10, win, secs);
		else
			snprintf(out->title, sizeof(out->title),
				 "Cluster/User/Account Utilization %s (%ld secs)", win, secs);
		add_column(out, "login", "Login", 9, false);
		add_column(out, "proper_name", "Proper Name", 15, false);
		add_column(out, "account", "Account", 15, false);
		break;
	case PRIO_SREPORT_JOB_SIZES:
		snprintf(out->title, sizeof(out->title), "Job Sizes %s (%ld secs)", win, secs);
		snprintf(out->units, sizeof(out->units), "%s reported in %s",
			 o->print_job_count ? "Job count" : "Time",
			 o->print_job_count ? "Jobs" : unit_name(o->unit));
		add_column(out, "account", "Account", 15, false);
		if (o->individual) {
			for (uint32_t i = 0; i < snap->sacct_count && nsizes < 63; i++) {
				uint32_t n = snap->sacct[i].ncpus;
				bool have = false;

				if (snap->sacct[i].is_step || !snap->sacct[i].start)
					continue;
				for (uint32_t k = 0; k < nsizes; k++)
					have = have || sizes[k] == n;
				if (!have)
					sizes[nsizes++] = n;
			}
			qsort(sizes, nsizes, sizeof(sizes[0]), cmp_u32);
		} else {
			const uint32_t *g = o->grouping ? o->grouping : default_grouping;
			uint32_t ng = o->grouping ? o->grouping_count : 4;

			sizes[nsizes++] = 0;
			for (uint32_t k = 0; k < ng && nsizes < 63; k++)
				sizes[nsizes++] = g[k];
		}
		for (uint32_t k = 0; k < nsizes; k++) {
			char h[64];

			if (o->individual)
				snprintf(h, sizeof(h), "%u CPUs", sizes[k]);
			else if (k + 1 < nsizes)
				snprintf(h, sizeof(h), "%u-%u CPUs", sizes[k], sizes[k + 1] - 1);
			else
				snprintf(h, sizeof(h), ">= %u CPUs", sizes[k]);
			{
				char *hs = prio_arena_strdup(&out->arena, h);
				char id[64], *ids;

				snprintf(id, sizeof(id), "cpus_%u", sizes[k]);
				ids = prio_arena_strdup(&out->arena, id);
				if (!hs || !ids)
					goto nomem;
				add_column(out, ids, hs, 13, true);
			}
		}
		add_column(out, "percent_of_cluster", "% of cluster", 12, true);
		break;
	}
	if (o->kind == PRIO_SREPORT_ACCOUNT_BY_USER || o->kind == PRIO_SREPORT_USER_BY_ACCOUNT ||
	    o->kind == PRIO_SREPORT_TOP_USAGE) {
		if (o->tres)
			add_column(out, "tres_name", "TRES Name", 14, false);
		add_column(out, "used", "Used", 13, true);
		if (o->decayed)
			add_column(out, "decayed", "Decayed", 13, true);
		if (!o->tres)
			add_column(out, "energy", "Energy", 10, true);
	}

	memset(&b, 0, sizeof(b));
	b.rep = out;
	b.o = o;
	switch (o->kind) {
	case PRIO_SREPORT_UTILIZATION:
		utilization(&b, &c);
		break;
	case PRIO_SREPORT_ACCOUNT_BY_USER:
		rc = account_by_user(&b, &c);
		break;
	case PRIO_SREPORT_USER_BY_ACCOUNT:
		rc = user_report(&b, &c, false);
		break;
	case PRIO_SREPORT_TOP_USAGE:
		rc = user_report(&b, &c, true);
		break;
	case PRIO_SREPORT_JOB_SIZES: {
		uint32_t bounds[64], nb = 0;

		/* column k holds sizes[k] up to sizes[k+1]; with individual
		 * sizes that is exactly one size */
		for (uint32_t k = 1; k < nsizes; k++)
			bounds[nb++] = sizes[k];
		rc = job_sizes(&b, &c, bounds, nb);
		break;
	}
	}
	if (rc < 0 || b.failed)
		goto nomem;
	free(c.cluster_tres);
	return 0;
nomem:
	free(c.cluster_tres);
	prio_sreport_free(out);
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

void prio_sreport_free(struct prio_sreport *rep)
{
	free(rep->cols);
	free(rep->cells);
	prio_arena_free(&rep->arena);
	memset(rep, 0, sizeof(*rep));
}

int prio_sreport_write(FILE *out, const struct prio_sreport *rep,
		       enum prio_output_mode mode, bool header)
{
	static const char dashes[] =
	    "--------------------------------------------------------------------------------";
	struct prio_writer *w;
	int rc = 0;

	if (header && (mode == PRIO_OUT_TEXT || mode == PRIO_OUT_PARSABLE ||
		       mode == PRIO_OUT_PARSABLE2))
		fprintf(out, "%s\n%s\n%s\n%s\n", dashes, rep->title, rep->units, dashes);
	w = prio_writer_new(out, mode, PRIO_STYLE_SSHARE, rep->cols, rep->ncols,
			    header, NULL);
	if (!w)
		return PRIO_ERR_NOMEM;
	for (size_t i = 0; i < rep->nrows && rc == 0; i++)
		rc = prio_writer_row(w, rep->cells + i * rep->ncols);
	if (prio_writer_finish(w) < 0 && rc == 0)
		rc = PRIO_ERR_IO;
	return rc;
}
