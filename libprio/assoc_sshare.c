/* SPDX-License-Identifier: MIT */
/*
 * The association tree, usage and Slurm's own fairshare values from `sshare`
 * output (slurm-facts §7): `-P` ('|' between fields), `-p` (a '|' after each
 * field) or plain text (a header row, a row of dashes giving each column's
 * width, one space after every field), with any subset and order of the
 * columns as long as Account and User are there; headers are matched in
 * any case.  A "CLUSTER: name" line (-M) may come first; a second one means
 * several clusters and is refused.
 *
 * The tree comes from the Account column: sshare indents it one space per
 * depth (also under -P), user rows carry their account's name one level
 * deeper, and rows come depth-first from the root.  RawShares gives
 * shares_raw ("parent" is Fairshare=parent, the root's is blank), RawUsage
 * usage_raw; every other column Slurm printed goes to assoc->slurm for
 * audits.  Plain text cuts a value longer than its column and ends it with
 * '+': a cut name or number is an error (the value is lost); a cut TRES
 * list only loses that audit value.
 *
 * A right-justified Account column (`-o Account%30`) pads on the left and
 * so hides the indentation.  Then each account's parent is deduced from
 * what must hold between a parent and its children in sshare output:
 * siblings come in name order (strcmp), a parent's RawUsage is at least the
 * sum of its children's (less one per child for truncation), and siblings
 * share one NormShares/RawShares ratio (Fair Tree and classic both divide
 * by the same level total).  When more than one account above could hold
 * it, the load stops and says how to capture the tree unambiguously.
 *
 * When a tree is already loaded (assoc.cfg before sshare.txt), the rows
 * merge into it instead (assoc_build.h): each must name an association of
 * that tree, under the same parent, with the same shares.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_build.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

#define MAX_COLS 64

enum col {
	COL_ACCOUNT,
	COL_USER,
	COL_CLUSTER,
	COL_PARTITION,
	COL_ID,
	COL_RAW_SHARES,
	COL_NORM_SHARES,
	COL_RAW_USAGE,
	COL_NORM_USAGE,
	COL_EFFECTV_USAGE,
	COL_FAIRSHARE,
	COL_LEVEL_FS,
	COL_GRP_TRES_MINS,
	COL_GRP_TRES_RAW,
	COL_TRES_RUN_MINS,
	COL_COUNT,
	COL_OTHER = COL_COUNT /* a column we do not know: kept out of the way */
};

static const struct {
	const char *header;
	uint32_t bit;
} cols[COL_COUNT] = {
    [COL_ACCOUNT] = {"Account", 0},
    [COL_USER] = {"User", 0},
    [COL_CLUSTER] = {"Cluster", PRIO_SSHARE_CLUSTER},
    [COL_PARTITION] = {"Partition", PRIO_SSHARE_PARTITION},
    [COL_ID] = {"ID", PRIO_SSHARE_ID},
    [COL_RAW_SHARES] = {"RawShares", PRIO_SSHARE_RAW_SHARES},
    [COL_NORM_SHARES] = {"NormShares", PRIO_SSHARE_NORM_SHARES},
    [COL_RAW_USAGE] = {"RawUsage", PRIO_SSHARE_RAW_USAGE},
    [COL_NORM_USAGE] = {"NormUsage", PRIO_SSHARE_NORM_USAGE},
    [COL_EFFECTV_USAGE] = {"EffectvUsage", PRIO_SSHARE_EFFECTV_USAGE},
    [COL_FAIRSHARE] = {"FairShare", PRIO_SSHARE_FAIRSHARE},
    [COL_LEVEL_FS] = {"LevelFS", PRIO_SSHARE_LEVEL_FS},
    [COL_GRP_TRES_MINS] = {"GrpTRESMins", PRIO_SSHARE_GRP_TRES_MINS},
    [COL_GRP_TRES_RAW] = {"GrpTRESRaw", PRIO_SSHARE_GRP_TRES_RAW},
    [COL_TRES_RUN_MINS] = {"TRESRunMins", PRIO_SSHARE_TRES_RUN_MINS},
};

enum mode { MODE_NONE, MODE_PIPE, MODE_PIPE_TRAILING, MODE_PLAIN };

struct column {
	enum col kind;
	size_t start, width; /* plain text: the dashes' extent */
};

/* What the deduction of parents (right-justified Account) knows about an
 * account on the current path. */
struct open_acct {
	uint64_t usage, child_usage;
	bool usage_known;
	uint32_t nchildren;
	prio_id last_account; /* last child account: siblings come sorted */
	bool has_ratio;
	double lo, hi; /* NormShares/RawShares all children agree on */
};

struct cell {
	const char *s;
	size_t n;
	bool lost; /* cut with '+' by plain sshare */
};

struct row {
	struct cell cell[COL_COUNT];
	bool has[COL_COUNT];
	unsigned depth;
	bool is_user;
	prio_id account, user, partition, cluster;
	uint32_t shares, id;
	uint64_t usage;
	bool usage_known, has_ratio;
	double lo, hi;
	struct prio_sshare_values v;
};

struct sshare {
	struct assoc_build b;
	struct prio_snapshot *snap;
	const struct prio_source *src;
	enum mode mode;
	struct column col[MAX_COLS];
	size_t ncols;
	bool have[COL_COUNT];
	bool depth_known; /* false: Account right-justified in plain text */
	const char *header;
	size_t header_len;
	unsigned long header_line;
	prio_id cluster; /* from a "CLUSTER: name" line */
	uint32_t columns;
	uint32_t path[PRIO_ASSOC_MAX_DEPTH + 1];
	struct open_acct open[PRIO_ASSOC_MAX_DEPTH + 1];
	unsigned path_len;
	unsigned long line, rows;
	bool fatal; /* the error cannot be skipped (header, clusters) */
};

#define BAD(field, ...)                                                        \
	prio_error_set(err, PRIO_ERR_PARSE, s->src->name, s->line, field,      \
		       __VA_ARGS__)

static int nomem(struct sshare *s, struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, s->src->name, s->line, "",
			      "out of memory");
}

static bool blank_line(const char *p, size_t n)
{
	text_trim(&p, &n);
	return n == 0;
}

static enum col col_kind(const char *p, size_t n)
{
	text_trim(&p, &n);
	for (int k = 0; k < COL_COUNT; k++)
		if (prio_word_eq(p, n, cols[k].header))
			return (enum col)k;
	return COL_OTHER;
}

/* Record a header name at position ncols. */
static int add_column(struct sshare *s, const char *p, size_t n,
		      struct prio_error *err)
{
	enum col k = col_kind(p, n);

	if (s->ncols == MAX_COLS)
		return BAD("", "more than %d columns", MAX_COLS);
	if (k != COL_OTHER && s->have[k])
		return BAD(cols[k].header, "column %s appears twice",
			   cols[k].header);
	if (k == COL_OTHER) {
		const char *names[COL_COUNT], *near;
		char name[64];

		text_trim(&p, &n);
		if (n == 0)
			return BAD("",
				   "empty column name in the header (output "
				   "captured with -n?)");
		/* Other columns ride along, but one spelt nearly like a
		 * column we read is a typo: taken as missing, RawUsage
		 * would leave fairshare without usage. */
		for (int i = 0; i < COL_COUNT; i++)
			names[i] = cols[i].header;
		near = prio_closest_word(p, n, names, COL_COUNT);
		if (near) {
			snprintf(name, sizeof(name), "%.*s",
				 (int)(n < 63 ? n : 63), p);
			return BAD(name,
				   "not an sshare column (did you mean %s?)",
				   near);
		}
	} else {
		s->have[k] = true;
		s->columns |= cols[k].bit;
	}
	s->col[s->ncols++].kind = k;
	return PRIO_OK;
}

static int header_done(struct sshare *s, struct prio_error *err)
{
	if (!s->have[COL_ACCOUNT])
		return BAD("Account", "the sshare output has no Account column "
				      "(the tree needs it: add it to -o)");
	if (!s->have[COL_USER])
		return BAD("User", "the sshare output has no User column (the "
				   "tree needs it: add it to -o)");
	s->snap->sshare_columns |= s->columns;
	return PRIO_OK;
}

static int read_pipe_header(struct sshare *s, const char *p, size_t n,
			    struct prio_error *err)
{
	size_t start = 0;
	int rc;

	s->mode = MODE_PIPE;
	if (n && p[n - 1] == '|') {
		s->mode = MODE_PIPE_TRAILING;
		n--;
	}
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '|')
			continue;
		if ((rc = add_column(s, p + start, i - start, err)) < 0)
			return rc;
		start = i + 1;
	}
	return header_done(s, err);
}

/* The dash row under a plain header gives each column's extent. */
static int read_dashes(struct sshare *s, const char *p, size_t n,
		       struct prio_error *err)
{
	size_t i = 0, k = 0;
	int rc;

	while (n && p[n - 1] == ' ')
		n--;
	while (i < n) {
		size_t start = i;

		while (i < n && p[i] == '-')
			i++;
		if (i == start || (i < n && p[i] != ' '))
			return BAD(
			    "", "expected the row of dashes under the sshare "
				"header");
		if (k == MAX_COLS)
			return BAD("", "more than %d columns", MAX_COLS);
		s->col[k].start = start;
		s->col[k].width = i - start;
		k++;
		if (i < n)
			i++;
	}
	if (k == 0)
		return BAD(
		    "", "expected the row of dashes under the sshare header");
	for (size_t c = 0; c < k; c++) {
		const char *h = s->header + s->col[c].start;
		size_t hn = 0;

		if (s->col[c].start < s->header_len)
			hn = s->header_len - s->col[c].start;
		if (hn > s->col[c].width)
			hn = s->col[c].width;
		s->line = s->header_line; /* header errors name the header */
		if ((rc = add_column(s, h, hn, err)) < 0)
			return rc;
		/* sshare pads a right-justified (Account%30) header on the
		 * left; its cells too, which hides the indentation. */
		if (s->col[c].kind == COL_ACCOUNT)
			s->depth_known =
			    !(hn == s->col[c].width && hn > 0 && h[0] == ' ');
	}
	s->mode = MODE_PLAIN;
	return header_done(s, err);
}

/* Cut a plain row into cells, or split a -P/-p row. */
static int split_row(struct sshare *s, const char *p, size_t n,
		     struct cell *cells, struct prio_error *err)
{
	if (s->mode != MODE_PLAIN) {
		size_t k = 0, start = 0;

		if (s->mode == MODE_PIPE_TRAILING) {
			if (n == 0 || p[n - 1] != '|')
				return BAD(
				    "", "truncated line: sshare -p ends every "
					"line with '|'");
			n--;
		}
		for (size_t i = 0; i <= n; i++) {
			if (i < n && p[i] != '|')
				continue;
			if (k == s->ncols)
				return BAD("",
					   "%zu fields or more, but the header "
					   "has %zu",
					   k + 1, s->ncols);
			cells[k].s = p + start;
			cells[k].n = i - start;
			cells[k].lost = false;
			k++;
			start = i + 1;
		}
		if (k < s->ncols) {
			enum col m = s->col[k].kind;

			return BAD(
			    m == COL_OTHER ? "" : cols[m].header,
			    "truncated line: %zu fields, the header has %zu", k,
			    s->ncols);
		}
		return PRIO_OK;
	}
	for (size_t c = 0; c < s->ncols; c++) {
		size_t st = s->col[c].start, w = s->col[c].width;

		if (c && st - 1 < n && p[st - 1] != ' ') {
			enum col m = s->col[c - 1].kind;

			return BAD(m == COL_OTHER ? "" : cols[m].header,
				   "the row does not line up with the header's "
				   "columns (a value wider than its column?): "
				   "capture with -P");
		}
		cells[c].s = p + (st < n ? st : n);
		cells[c].n = st < n ? (n - st < w ? n - st : w) : 0;
		cells[c].lost =
		    cells[c].n == w && w > 0 && cells[c].s[w - 1] == '+';
	}
	{
		const struct column *last = &s->col[s->ncols - 1];

		for (size_t i = last->start + last->width; i < n; i++)
			if (p[i] != ' ')
				return BAD(
				    last->kind == COL_OTHER
					? ""
					: cols[last->kind].header,
				    "text after the last column: the row "
				    "does not line up with the header");
	}
	return PRIO_OK;
}

/* Values of one cell into the row; errors name the column. */
static int parse_cell(struct sshare *s, struct row *r, enum col k,
		      struct prio_error *err)
{
	struct cell *c = &r->cell[k];
	const char *p = c->s;
	size_t n = c->n;
	uint32_t bit = cols[k].bit;
	char q[64];

	if (c->lost) {
		if (k == COL_GRP_TRES_MINS || k == COL_GRP_TRES_RAW ||
		    k == COL_TRES_RUN_MINS)
			return PRIO_OK; /* lost for audits only */
		return BAD(cols[k].header,
			   "\"%s\" was cut by sshare ('+'): the value is lost; "
			   "capture with -P or a wider column",
			   text_quote(p, n, q, sizeof(q)));
	}
	if (k != COL_ACCOUNT)
		text_trim(&p, &n);
	r->v.present |= bit;
	if (n == 0 && k != COL_ACCOUNT) {
		r->v.blank |= bit;
		return PRIO_OK;
	}
	switch (k) {
	case COL_ACCOUNT: {
		size_t d = 0;

		while (d < n && p[d] == ' ')
			d++;
		r->depth = (unsigned)(d > 0xffff ? 0xffff : d);
		p += d;
		n -= d;
		text_trim(&p, &n);
		if (n == 0)
			return BAD("Account", "empty account name");
		r->account = prio_snapshot_intern(s->snap, p, n);
		return r->account ? PRIO_OK : nomem(s, err);
	}
	case COL_USER:
		r->user = prio_snapshot_intern(s->snap, p, n);
		r->is_user = true;
		return r->user ? PRIO_OK : nomem(s, err);
	case COL_CLUSTER:
		r->cluster = prio_snapshot_intern(s->snap, p, n);
		return r->cluster ? PRIO_OK : nomem(s, err);
	case COL_PARTITION:
		r->partition = prio_snapshot_intern(s->snap, p, n);
		return r->partition ? PRIO_OK : nomem(s, err);
	case COL_ID:
		if (prio_parse_uint32(p, n, &r->id) < 0)
			return BAD("ID",
				   "expected an association id, got \"%s\"",
				   text_quote(p, n, q, sizeof(q)));
		return PRIO_OK;
	case COL_RAW_SHARES:
		if (prio_word_eq(p, n, "parent"))
			r->shares = PRIO_FS_USE_PARENT;
		else if (prio_parse_uint32(p, n, &r->shares) < 0)
			return BAD("RawShares",
				   "expected an unsigned integer or "
				   "\"parent\", got \"%s\"",
				   text_quote(p, n, q, sizeof(q)));
		return PRIO_OK;
	case COL_RAW_USAGE:
		if (prio_parse_uint64(p, n, &r->usage) < 0)
			return BAD("RawUsage",
				   "expected an unsigned integer, got "
				   "\"%s\"",
				   text_quote(p, n, q, sizeof(q)));
		r->usage_known = true;
		r->v.raw_usage = r->usage;
		return PRIO_OK;
	case COL_NORM_SHARES:
	case COL_NORM_USAGE:
	case COL_EFFECTV_USAGE:
	case COL_FAIRSHARE:
	case COL_LEVEL_FS: {
		double v;

		if (prio_parse_double(p, n, &v) < 0)
			return BAD(cols[k].header,
				   "expected a number, got \"%s\"",
				   text_quote(p, n, q, sizeof(q)));
		/* Shares and usages are fractions of the parent's or the
		 * root's, the fairshare factor is in [0, 1]; only LevelFS
		 * (shares over usage) grows, to inf. */
		if (k == COL_LEVEL_FS ? !(v >= 0) : !(v >= 0 && v <= 1))
			return BAD(cols[k].header,
				   "expected a number from 0 to %s, got "
				   "\"%s\"",
				   k == COL_LEVEL_FS ? "inf" : "1",
				   text_quote(p, n, q, sizeof(q)));
		if (k == COL_NORM_SHARES)
			r->v.norm_shares = v;
		else if (k == COL_NORM_USAGE)
			r->v.norm_usage = v;
		else if (k == COL_EFFECTV_USAGE)
			r->v.effectv_usage = v;
		else if (k == COL_FAIRSHARE)
			r->v.fairshare = v;
		else
			r->v.level_fs = v;
		return PRIO_OK;
	}
	case COL_GRP_TRES_MINS:
	case COL_GRP_TRES_RAW:
	case COL_TRES_RUN_MINS: {
		const char *t = prio_arena_strndup(&s->snap->arena, p, n);

		if (!t)
			return nomem(s, err);
		if (k == COL_GRP_TRES_MINS)
			r->v.grp_tres_mins = t;
		else if (k == COL_GRP_TRES_RAW)
			r->v.grp_tres_raw = t;
		else
			r->v.tres_run_mins = t;
		return PRIO_OK;
	}
	case COL_COUNT:
		break;
	}
	return PRIO_OK;
}

static int read_row(struct sshare *s, const char *p, size_t n, struct row *r,
		    struct prio_error *err)
{
	struct cell cells[MAX_COLS];
	int rc;

	memset(r, 0, sizeof(*r));
	r->shares = PRIO_NO_VAL;
	r->v.raw_usage = PRIO_NO_VAL64;
	if ((rc = split_row(s, p, n, cells, err)) < 0)
		return rc;
	for (size_t c = 0; c < s->ncols; c++) {
		enum col k = s->col[c].kind;

		if (k == COL_OTHER)
			continue;
		r->cell[k] = cells[c];
		r->has[k] = true;
	}
	/* Account first: the others' errors read better knowing the row. */
	for (int k = 0; k < COL_COUNT; k++)
		if (r->has[k] && (rc = parse_cell(s, r, (enum col)k, err)) < 0)
			return rc;
	if (!r->is_user)
		r->partition = PRIO_NO_ID; /* accounts have none */
	if (!r->cluster)
		r->cluster = s->cluster;
	if ((r->v.present & PRIO_SSHARE_NORM_SHARES) &&
	    !(r->v.blank & PRIO_SSHARE_NORM_SHARES) &&
	    r->shares != PRIO_NO_VAL && r->shares != PRIO_FS_USE_PARENT &&
	    r->shares != 0) {
		/* %f prints 6 decimals: the true value is within 5e-7. */
		r->has_ratio = true;
		r->lo = (r->v.norm_shares - 5e-7) / r->shares - 1e-12;
		r->hi = (r->v.norm_shares + 5e-7) / r->shares + 1e-12;
	}
	return PRIO_OK;
}

/* Set the row's values on record i. */
static int fill(struct sshare *s, uint32_t i, const struct row *r,
		struct prio_error *err)
{
	struct prio_assoc *a;
	int rc;

	assoc_build_set(&s->b, i, ASSOC_SEEN);
	if ((rc = assoc_build_shares(&s->b, i, r->shares, s->line, "RawShares",
				     err)) < 0)
		return rc;
	a = &s->snap->assocs[i];
	if (r->cluster && a->cluster && a->cluster != r->cluster)
		return BAD("Cluster", "cluster %s here but %s in %s",
			   prio_snapshot_str(s->snap, r->cluster),
			   prio_snapshot_str(s->snap, a->cluster), a->file);
	if (r->cluster)
		a->cluster = r->cluster;
	if (r->id)
		a->id = r->id;
	if (r->usage_known) {
		a->usage_raw = (long double)r->usage;
		a->usage_known = true;
	}
	a->slurm = r->v;
	a->slurm.file = s->b.file;
	a->slurm.line = s->line;
	a->from |= PRIO_ASSOC_FROM_SSHARE;
	s->rows++;
	return PRIO_OK;
}

static void open_reset(struct open_acct *o, const struct row *r)
{
	memset(o, 0, sizeof(*o));
	o->usage = r->usage;
	o->usage_known = r->usage_known;
}

static void open_add(struct open_acct *o, const struct row *r)
{
	o->nchildren++;
	if (r->usage_known)
		o->child_usage = o->child_usage + r->usage < o->child_usage
				     ? UINT64_MAX
				     : o->child_usage + r->usage;
	if (!r->is_user)
		o->last_account = r->account;
	if (r->has_ratio) {
		if (!o->has_ratio) {
			o->has_ratio = true;
			o->lo = r->lo;
			o->hi = r->hi;
		} else {
			o->lo = r->lo > o->lo ? r->lo : o->lo;
			o->hi = r->hi < o->hi ? r->hi : o->hi;
		}
	}
}

/* Could the open account at path position k be the parent of row r? */
static bool may_hold(const struct sshare *s, unsigned k, const struct row *r)
{
	const struct open_acct *o = &s->open[k];

	if (o->last_account &&
	    strcmp(prio_snapshot_str(s->snap, r->account),
		   prio_snapshot_str(s->snap, o->last_account)) <= 0)
		return false;
	if (o->usage_known && r->usage_known &&
	    (o->child_usage + r->usage < o->child_usage ||
	     o->child_usage + r->usage > o->usage + o->nchildren + 1))
		return false;
	if (o->has_ratio && r->has_ratio && (r->hi < o->lo || r->lo > o->hi))
		return false;
	return true;
}

/* Right-justified Account: which depth (1..path_len) row r sits at. */
static int deduce_depth(struct sshare *s, const struct row *r,
			struct prio_error *err)
{
	unsigned found = 0, hits = 0;
	char list[256];
	size_t used = 0;

	list[0] = '\0';
	if (r->is_user) {
		/* Users come first under their account, right after it. */
		uint32_t top = s->path[s->path_len - 1];

		if (s->snap->assocs[top].account != r->account)
			return BAD("User",
				   "user row of account %s does not follow "
				   "that account's row",
				   prio_snapshot_str(s->snap, r->account));
		return (int)s->path_len;
	}
	for (unsigned k = s->path_len; k-- > 0;) {
		if (!may_hold(s, k, r))
			continue;
		hits++;
		found = k;
		if (used < sizeof(list) - 1)
			used += (size_t)snprintf(
			    list + used, sizeof(list) - used, "%s%s",
			    hits > 1 ? " or " : "",
			    prio_snapshot_str(
				s->snap, s->snap->assocs[s->path[k]].account));
	}
	if (hits == 1)
		return (int)found + 1;
	return BAD(
	    "Account",
	    "cannot tell which account %s belongs under (%s): the Account "
	    "column is right-justified (as with -o Account%%30), which "
	    "hides sshare's indentation; capture with -P or Account%%-30, "
	    "or load the sacctmgr dump first",
	    prio_snapshot_str(s->snap, r->account),
	    hits ? list : "no account above can hold it");
}

/* Place row r in the tree. */
static int take_row(struct sshare *s, struct row *r, struct prio_error *err)
{
	uint32_t i, parent = PRIO_ASSOC_NONE;
	unsigned depth;
	char name[200], pname[200];
	int d;

	if (s->rows == 0 && s->path_len == 0) {
		/* The first row is the root, as sshare -a prints it. */
		if (r->is_user || (s->depth_known && r->depth != 0) ||
		    strcmp(prio_snapshot_str(s->snap, r->account), "root") != 0)
			return BAD("Account",
				   "the first row is not the root "
				   "account (captured with -A or -u, or "
				   "by an ordinary user under "
				   "PrivateData=usage?): load sshare -a "
				   "output");
		depth = 0;
	} else if (s->depth_known || !s->b.merging) {
		if (s->depth_known) {
			d = (int)r->depth;
		} else if ((d = deduce_depth(s, r, err)) < 0) {
			return d;
		}
		if (d == 0)
			return BAD("Account",
				   "a second root row at depth 0 "
				   "(captured with -A?): load sshare "
				   "-a output");
		if ((unsigned)d > s->path_len)
			return BAD("Account",
				   "indented %d deep under a row at "
				   "depth %u",
				   d, s->path_len - 1);
		if ((unsigned)d > PRIO_ASSOC_MAX_DEPTH)
			return prio_error_set(err, PRIO_ERR_LIMIT, s->src->name,
					      s->line, "Account",
					      "association tree deeper than %u "
					      "levels",
					      PRIO_ASSOC_MAX_DEPTH);
		depth = (unsigned)d;
		parent = s->path[depth - 1];
		if (r->is_user && s->snap->assocs[parent].account != r->account)
			return BAD(
			    "Account",
			    "user row names account %s but sits "
			    "under account %s",
			    prio_snapshot_str(s->snap, r->account),
			    prio_snapshot_str(s->snap,
					      s->snap->assocs[parent].account));
	} else {
		depth = 0; /* merging without depth: the tree says where */
	}

	i = assoc_build_find(&s->b, r->account,
			     r->is_user ? r->user : PRIO_NO_ID, r->partition);
	if (i != PRIO_ASSOC_NONE && (assoc_build_marks(&s->b, i) & ASSOC_SEEN))
		return BAD(r->is_user ? "User" : "Account",
			   "%s appears twice%s",
			   assoc_build_name(s->snap, i, name, sizeof(name)),
			   r->is_user && !s->have[COL_PARTITION]
			       ? ": partition associations need the "
				 "Partition column (sshare -m)"
			       : "");
	if (s->b.merging) {
		if (i == PRIO_ASSOC_NONE)
			return BAD(
			    r->is_user ? "User" : "Account",
			    "%s%s%s%s%s is not in %s: the two captures do "
			    "not match",
			    r->is_user ? prio_snapshot_str(s->snap, r->user)
				       : "",
			    r->is_user ? " in account " : "account ",
			    prio_snapshot_str(s->snap, r->account),
			    r->partition ? ", partition " : "",
			    prio_snapshot_str(s->snap, r->partition),
			    s->b.first_file);
		if (parent != PRIO_ASSOC_NONE &&
		    s->snap->assocs[i].parent != parent) {
			uint32_t was = s->snap->assocs[i].parent;
			char wname[200];

			return BAD(
			    r->is_user ? "User" : "Account",
			    "%s is under %s here but under %s in %s:%lu: "
			    "the two captures do not match",
			    assoc_build_name(s->snap, i, name, sizeof(name)),
			    assoc_build_name(s->snap, parent, pname,
					     sizeof(pname)),
			    was == PRIO_ASSOC_NONE
				? "nothing"
				: assoc_build_name(s->snap, was, wname,
						   sizeof(wname)),
			    s->snap->assocs[i].file, s->snap->assocs[i].line);
		}
	} else {
		if (i != PRIO_ASSOC_NONE)
			return BAD("Account",
				   "account %s appears twice (first at "
				   "line %lu)",
				   prio_snapshot_str(s->snap, r->account),
				   s->snap->assocs[i].line);
		i = assoc_build_new(&s->b, r->account,
				    r->is_user ? r->user : PRIO_NO_ID,
				    r->partition, s->line);
		if (i == PRIO_ASSOC_NONE)
			return nomem(s, err);
		s->snap->assocs[i].parent = parent;
		s->snap->assocs[i].depth = (uint16_t)depth;
	}

	/* The path to the current account, and what the deduction of
	 * parents needs to know about each account on it. */
	if (s->depth_known || !s->b.merging) {
		if (depth > 0)
			open_add(&s->open[depth - 1], r);
		if (r->is_user) {
			s->path_len = depth;
		} else {
			s->path[depth] = i;
			open_reset(&s->open[depth], r);
			s->path_len = depth + 1;
		}
	} else {
		s->path_len = 1; /* merging by key: no path needed */
	}
	return fill(s, i, r, err);
}

static int read_line(struct sshare *s, const struct prio_line *pl,
		     struct prio_error *err)
{
	const char *p = pl->text;
	size_t n = pl->len;
	struct row r;
	int rc;

	if (blank_line(p, n))
		return PRIO_OK;
	if (n >= 9 && !memcmp(p, "CLUSTER: ", 9)) {
		const char *c = p + 9;
		size_t cn = n - 9;

		text_trim(&c, &cn);
		s->fatal = true;
		if (s->cluster || s->mode != MODE_NONE)
			return BAD("Cluster",
				   "sshare output of several clusters "
				   "(%s, then %.*s): capture one with "
				   "-M NAME",
				   s->cluster
				       ? prio_snapshot_str(s->snap, s->cluster)
				       : "one without a name",
				   (int)(cn > 40 ? 40 : cn), c);
		s->cluster = prio_snapshot_intern(s->snap, c, cn);
		if (!s->cluster)
			return nomem(s, err);
		s->fatal = false;
		return PRIO_OK;
	}
	if (s->mode == MODE_NONE) {
		/* No row can be read without the header. */
		s->fatal = true;
		if (!s->header) {
			if (memchr(p, '|', n))
				return read_pipe_header(s, p, n, err);
			s->header = p;
			s->header_len = n;
			s->header_line = s->line;
			return PRIO_OK;
		}
		return read_dashes(s, p, n, err);
	}
	if ((rc = read_row(s, p, n, &r, err)) < 0)
		return rc;
	return take_row(s, &r, err);
}

int prio_load_sshare(struct prio_snapshot *snap, const struct prio_source *src,
		     struct prio_error *err)
{
	struct sshare s;
	struct prio_line_reader lr;
	struct prio_line pl;
	int rc;

	memset(&s, 0, sizeof(s));
	s.snap = snap;
	s.src = src;
	s.depth_known = true;
	if ((rc = assoc_build_begin(&s.b, snap, src, PRIO_ASSOC_FROM_SSHARE,
				    err)) < 0)
		return rc;
	prio_line_reader_init(&lr, src);
	for (;;) {
		rc = prio_line_next(&lr, &pl, err);
		if (rc == 0)
			break;
		s.line = lr.number;
		s.fatal = false;
		if (rc > 0)
			rc = read_line(&s, &pl, err);
		if (rc < 0 && (s.fatal || (rc = prio_snapshot_record_error(
					       snap, err)) < 0))
			goto out;
	}
	if (s.mode == MODE_NONE) {
		rc = prio_error_set(
		    err, PRIO_ERR_PARSE, src->name, s.line ? s.line : 1, "",
		    s.header ? "a header but no row of dashes: not "
			       "sshare output"
			     : "no sshare header (captured with "
			       "-n?)");
		goto out;
	}
	if (s.b.merging &&
	    (rc = assoc_build_all_seen(&s.b, lr.number, err)) < 0)
		goto out;
	rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_SSHARE, src->name,
				       s.rows);
out:
	assoc_build_end(&s.b);
	return rc;
}
