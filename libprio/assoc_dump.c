/* SPDX-License-Identifier: MIT */
/*
 * The association tree from `sacctmgr dump CLUSTER file=F` (slurm-facts §8).
 *
 * The file is read the way sacctmgr's own loader reads it: comments and
 * backslash continuation as in slurm.conf (§10: '#' starts a comment unless
 * an odd number of backslashes precede it, a line ending in an odd number
 * of backslashes continues on the next, then "\x" keeps x literally); the
 * object is the word before the first '-' (Cluster/Machine, Parent,
 * Account/Project, User, any case); the rest splits on ':' outside quotes
 * into the name and Option=value pairs, values in '...' or "..." (a quote
 * of the other kind inside becomes a backquote); option names match by
 * unique prefix, any case; the name and every value are lower-cased.
 *
 *   Cluster - 'ft':Fairshare=1:QOS='normal'      the root association
 *   Parent - 'physics'                           children follow
 *   Account - 'hep':Fairshare=10:Priority=20     an account under physics
 *   User - 'alice':Partition='big':Fairshare=1   a user association
 *
 * Fairshare=2147483647 (and "parent") is Fairshare=parent.  Priority,
 * DefaultQOS and QOS are kept; the limits (GrpTRES=, MaxJobs=, ...) are
 * checked where numeric and kept as text; Description and the other user
 * and account properties are read and dropped.
 *
 * sacctmgr writes a Parent block only after the account was defined, but a
 * hand-written file may name a Parent before its Account line: that is
 * accepted, and an account never defined (an orphan) or a ring of Parent
 * lines (a cycle) is refused at the end of the file.
 *
 * When an association tree is already loaded (sshare.txt before assoc.cfg),
 * the dump merges into it instead (assoc_build.h): every line must name an
 * association of that tree, under the same parent, with the same shares.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assoc_build.h"
#include "text.h"
#include "prio/acct_limits.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

#define MAX_ITEMS 64 /* name + options on one line; more is refused */

enum object { OBJ_CLUSTER, OBJ_PARENT, OBJ_ACCOUNT, OBJ_USER, OBJ_UNKNOWN };
static const char *const object_name[] = {"Cluster", "Parent", "Account",
					  "User"};

enum opt_kind {
	OPT_IGNORE,    /* read, checked for quotes, dropped */
	OPT_PARTITION, /* User only */
	OPT_DEFAULT_QOS,
	OPT_QOS,
	OPT_FAIRSHARE,
	OPT_PRIORITY,
	OPT_LIMIT_TEXT,	 /* TRES lists and older CPU limits: kept as text */
	OPT_LIMIT_COUNT, /* unsigned integer or -1 */
	OPT_LIMIT_MINS,	 /* minutes or a time string, or -1 */
};

struct option {
	const char *name;
	const char *canon; /* NULL: name itself; aliases name their target */
	enum opt_kind kind;
};

/* What sacctmgr writes (§8) and the spellings its loader also takes. */
static const struct option options[] = {
    {"Description", NULL, OPT_IGNORE},
    {"Organization", NULL, OPT_IGNORE},
    {"Classification", NULL, OPT_IGNORE},
    {"DefaultAccount", NULL, OPT_IGNORE},
    {"DefaultWCKey", NULL, OPT_IGNORE},
    {"AdminLevel", NULL, OPT_IGNORE},
    {"Coordinator", NULL, OPT_IGNORE},
    {"WCKeys", NULL, OPT_IGNORE},
    {"Partition", NULL, OPT_PARTITION},
    {"DefaultQOS", NULL, OPT_DEFAULT_QOS},
    {"QOS", NULL, OPT_QOS},
    {"QOSLevel", "QOS", OPT_QOS},
    {"Fairshare", NULL, OPT_FAIRSHARE},
    {"Shares", "Fairshare", OPT_FAIRSHARE},
    {"Priority", NULL, OPT_PRIORITY},
    {"GrpTRESMins", NULL, OPT_LIMIT_TEXT},
    {"GrpTRESRunMins", NULL, OPT_LIMIT_TEXT},
    {"GrpTRES", NULL, OPT_LIMIT_TEXT},
    {"GrpJobs", NULL, OPT_LIMIT_COUNT},
    {"GrpJobsAccrue", NULL, OPT_LIMIT_COUNT},
    {"GrpSubmitJobs", NULL, OPT_LIMIT_COUNT},
    {"GrpWall", NULL, OPT_LIMIT_MINS},
    {"MaxTRESMinsPerJob", NULL, OPT_LIMIT_TEXT},
    {"MaxTRESMins", "MaxTRESMinsPerJob", OPT_LIMIT_TEXT},
    {"MaxTRESRunMins", NULL, OPT_LIMIT_TEXT},
    {"MaxTRESPerJob", NULL, OPT_LIMIT_TEXT},
    {"MaxTRES", "MaxTRESPerJob", OPT_LIMIT_TEXT},
    {"MaxTRESPerNode", NULL, OPT_LIMIT_TEXT},
    {"MaxJobs", NULL, OPT_LIMIT_COUNT},
    {"MaxJobsAccrue", NULL, OPT_LIMIT_COUNT},
    {"MaxSubmitJobs", NULL, OPT_LIMIT_COUNT},
    {"MaxWallDurationPerJob", NULL, OPT_LIMIT_MINS},
    {"MaxWall", "MaxWallDurationPerJob", OPT_LIMIT_MINS},
    {"GrpCPUs", NULL, OPT_LIMIT_TEXT},
    {"GrpCPUMins", NULL, OPT_LIMIT_TEXT},
    {"GrpCPURunMins", NULL, OPT_LIMIT_TEXT},
    {"GrpMemory", NULL, OPT_LIMIT_TEXT},
    {"GrpNodes", NULL, OPT_LIMIT_TEXT},
    {"MaxCPUs", NULL, OPT_LIMIT_TEXT},
    {"MaxCPUMins", NULL, OPT_LIMIT_TEXT},
    {"MaxCPURunMins", NULL, OPT_LIMIT_TEXT},
    {"MaxNodes", NULL, OPT_LIMIT_TEXT},
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static const char *canon(const struct option *o)
{
	return o->canon ? o->canon : o->name;
}

struct item {
	const char *s;
	size_t n;
};

struct dump {
	struct assoc_build b;
	struct prio_snapshot *snap;
	const struct prio_source *src;
	struct prio_line_reader lr;
	char *buf; /* the logical line */
	size_t buf_cap;
	char *val; /* one decoded value */
	size_t val_cap;
	char *lim; /* the limits of the current line */
	size_t lim_len, lim_cap;
	unsigned long line;	 /* first physical line of the logical one */
	unsigned long last_line; /* last physical line read */
	bool cluster_seen;
	uint32_t parent;	  /* the current Parent, NONE before any */
	unsigned long parent_bad; /* line of a refused Parent, 0 if none */
	unsigned long records;
};

/* What one line sets, once all its options are checked. */
struct fields {
	uint32_t shares, priority;
	prio_id partition, default_qos;
	const char *qos_text;
};

static int grow(char **buf, size_t *cap, size_t need)
{
	size_t c = *cap ? *cap : 256;
	char *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	p = realloc(*buf, c);
	if (!p)
		return -1;
	*buf = p;
	*cap = c;
	return 0;
}

static int nomem(struct dump *d, struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, d->src->name, d->line, "",
			      "out of memory");
}

/* Where the comment of a physical line starts: the first '#' preceded by
 * an even number of backslashes. */
static size_t comment_start(const char *s, size_t n)
{
	size_t bs = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '#' && bs % 2 == 0)
			return i;
		bs = s[i] == '\\' ? bs + 1 : 0;
	}
	return n;
}

/* The next logical line into d->buf (comments cut, continuations joined,
 * backslash escapes removed): 1 with *len, 0 at the end, <0 on error. */
static int next_logical(struct dump *d, size_t *len, struct prio_error *err)
{
	struct prio_line pl;
	size_t n = 0;
	bool first = true, more = true;
	int rc;

	while (more) {
		size_t cut, end, bs = 0, take;

		rc = prio_line_next(&d->lr, &pl, err);
		if (rc < 0) {
			d->line = d->lr.number;
			return rc;
		}
		if (rc == 0) {
			if (first)
				return 0;
			break; /* a continuation at the very end */
		}
		if (first)
			d->line = pl.number;
		first = false;
		d->last_line = pl.number;
		cut = comment_start(pl.text, pl.len);
		end = cut;
		while (end &&
		       (pl.text[end - 1] == ' ' || pl.text[end - 1] == '\t'))
			end--;
		while (bs < end && pl.text[end - 1 - bs] == '\\')
			bs++;
		more = bs % 2 == 1;
		take = more ? end - 1 : cut;
		if (n + take > PRIO_MAX_LINE)
			return prio_error_set(
			    err, PRIO_ERR_LIMIT, d->src->name, d->line, "",
			    "continued line longer than %u bytes",
			    PRIO_MAX_LINE);
		if (grow(&d->buf, &d->buf_cap, n + take + 1) < 0)
			return nomem(d, err);
		memcpy(d->buf + n, pl.text, take);
		n += take;
	}
	/* "\x" keeps x; a lone backslash at the end goes. */
	{
		size_t o = 0;

		for (size_t i = 0; i < n; i++) {
			if (d->buf[i] == '\\') {
				if (i + 1 < n)
					d->buf[o++] = d->buf[++i];
			} else {
				d->buf[o++] = d->buf[i];
			}
		}
		n = o;
	}
	*len = n;
	return 1;
}

/* Split s[0..n) on ':' outside quotes.  -1 with *bad set to the item an
 * unterminated quote starts in, -2 when there are too many items. */
static int split_items(const char *s, size_t n, struct item *items,
		       size_t *count, size_t *bad)
{
	size_t k = 0, start = 0;
	char q = 0;

	for (size_t i = 0; i <= n; i++) {
		char c = i < n ? s[i] : ':';

		if (i < n && q) {
			if (c == q)
				q = 0;
			continue;
		}
		if (i < n && (c == '\'' || c == '"')) {
			q = c;
			continue;
		}
		if (c != ':')
			continue;
		if (k == MAX_ITEMS)
			return -2;
		items[k].s = s + start;
		items[k].n = i - start;
		k++;
		start = i + 1;
	}
	*count = k;
	if (q) {
		*bad = k - 1;
		return -1;
	}
	return 0;
}

/* The value with quotes removed (a quote of the other kind inside becomes
 * '`') and lower-cased, NUL-terminated in d->val; its length, or -1 on
 * ENOMEM. */
static long decode(struct dump *d, const char *s, size_t n)
{
	size_t o = 0;
	char q = 0;

	if (grow(&d->val, &d->val_cap, n + 1) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (q) {
			if (c == q) {
				q = 0;
				continue;
			}
			if (c == '\'' || c == '"')
				c = '`';
		} else if (c == '\'' || c == '"') {
			q = c;
			continue;
		}
		d->val[o++] = (char)tolower((unsigned char)c);
	}
	d->val[o] = '\0';
	return (long)o;
}

/* The option named by key (exact, else unique prefix, any case). */
static const struct option *find_option(const char *key, size_t n,
					bool *ambiguous)
{
	const struct option *hit = NULL;

	*ambiguous = false;
	if (n == 0)
		return NULL;
	for (size_t i = 0; i < NOPTIONS; i++)
		if (prio_word_eq(key, n, options[i].name))
			return &options[i];
	for (size_t i = 0; i < NOPTIONS; i++) {
		if (strlen(options[i].name) < n ||
		    strncasecmp(options[i].name, key, n) != 0)
			continue;
		if (hit && strcmp(canon(hit), canon(&options[i])) != 0) {
			*ambiguous = true;
			return NULL;
		}
		hit = &options[i];
	}
	return hit;
}

static int lim_append(struct dump *d, const char *name, const char *val,
		      size_t n)
{
	size_t k = strlen(name), need = d->lim_len + k + n + 3;

	if (grow(&d->lim, &d->lim_cap, need) < 0)
		return -1;
	if (d->lim_len)
		d->lim[d->lim_len++] = ':';
	memcpy(d->lim + d->lim_len, name, k);
	d->lim_len += k;
	d->lim[d->lim_len++] = '=';
	memcpy(d->lim + d->lim_len, val, n);
	d->lim_len += n;
	d->lim[d->lim_len] = '\0';
	return 0;
}

#define BAD(field, ...)                                                        \
	prio_error_set(err, PRIO_ERR_PARSE, d->src->name, d->line, field,      \
		       __VA_ARGS__)

/* Check one Option=value and note what it sets. */
static int read_option(struct dump *d, enum object obj, const struct item *it,
		       struct fields *f, struct prio_error *err)
{
	const char *s = it->s, *eq, *key, *val;
	size_t n = it->n, klen, vlen;
	const struct option *o;
	bool ambiguous;
	char q[64], field[64];
	long len;

	text_trim(&s, &n);
	eq = memchr(s, '=', n);
	if (!eq)
		return BAD(text_quote(s, n, field, 41),
			   "expected Option=value after ':', got \"%s\"",
			   text_quote(s, n, q, sizeof(q)));
	key = s;
	klen = (size_t)(eq - s);
	text_trim(&key, &klen);
	val = eq + 1;
	vlen = (size_t)(s + n - val);
	text_trim(&val, &vlen);
	text_quote(key, klen, field, 41);
	o = find_option(key, klen, &ambiguous);
	if (!o)
		return BAD(field, ambiguous
				      ? "ambiguous option name (give more "
					"letters)"
				      : "unknown option");
	if ((len = decode(d, val, vlen)) < 0)
		return nomem(d, err);
	switch (o->kind) {
	case OPT_IGNORE:
		break;
	case OPT_PARTITION:
		if (obj != OBJ_USER)
			return BAD(o->name,
				   "Partition is only valid on User lines");
		if (len == 0)
			return BAD(o->name, "empty partition name");
		f->partition =
		    prio_snapshot_intern(d->snap, d->val, (size_t)len);
		if (!f->partition)
			return nomem(d, err);
		break;
	case OPT_DEFAULT_QOS:
		f->default_qos =
		    len ? prio_snapshot_intern(d->snap, d->val, (size_t)len)
			: PRIO_NO_ID;
		if (len && !f->default_qos)
			return nomem(d, err);
		break;
	case OPT_QOS:
		f->qos_text = len ? prio_arena_strndup(&d->snap->arena, d->val,
						       (size_t)len)
				  : NULL;
		if (len && !f->qos_text)
			return nomem(d, err);
		break;
	case OPT_FAIRSHARE:
		if (!strcmp(d->val, "parent"))
			f->shares = PRIO_FS_USE_PARENT;
		else if (!strcmp(d->val, "-1"))
			f->shares = PRIO_NO_VAL; /* back to the default */
		else if (prio_parse_uint32(d->val, (size_t)len, &f->shares) <
			     0 ||
			 f->shares == PRIO_NO_VAL || f->shares == PRIO_INFINITE)
			return BAD(
			    canon(o),
			    "expected an unsigned integer or \"parent\", "
			    "got \"%s\"",
			    text_quote(d->val, (size_t)len, q, sizeof(q)));
		break;
	case OPT_PRIORITY:
		if (!strcmp(d->val, "-1"))
			f->priority = PRIO_INFINITE;
		else if (prio_parse_uint32(d->val, (size_t)len, &f->priority) <
			 0)
			return BAD(
			    canon(o),
			    "expected an unsigned integer, got \"%s\"",
			    text_quote(d->val, (size_t)len, q, sizeof(q)));
		break;
	case OPT_LIMIT_COUNT:
	case OPT_LIMIT_MINS:
	case OPT_LIMIT_TEXT: {
		uint32_t v;

		if (o->kind == OPT_LIMIT_COUNT && strcmp(d->val, "-1") &&
		    prio_parse_uint32(d->val, (size_t)len, &v) < 0)
			return BAD(
			    canon(o),
			    "expected an unsigned integer or -1, got \"%s\"",
			    text_quote(d->val, (size_t)len, q, sizeof(q)));
		if (o->kind == OPT_LIMIT_MINS && strcmp(d->val, "-1") &&
		    prio_time_str2mins(d->val, (size_t)len, &v) < 0)
			return BAD(
			    canon(o),
			    "expected minutes or a time string, got \"%s\"",
			    text_quote(d->val, (size_t)len, q, sizeof(q)));
		if (lim_append(d, canon(o), d->val, (size_t)len) < 0)
			return nomem(d, err);
		break;
	}
	}
	return PRIO_OK;
}

/* Set what the line gave on record i. */
static int apply(struct dump *d, uint32_t i, const struct fields *f,
		 struct prio_error *err)
{
	struct prio_assoc *a;
	int rc;

	assoc_build_set(&d->b, i, ASSOC_SEEN);
	if ((rc = assoc_build_shares(&d->b, i, f->shares, d->line, "Fairshare",
				     err)) < 0)
		return rc;
	a = &d->snap->assocs[i];
	if (f->priority != PRIO_NO_VAL)
		a->priority = f->priority;
	if (f->default_qos)
		a->default_qos = f->default_qos;
	if (f->qos_text)
		a->qos_text = f->qos_text;
	if (d->lim_len) {
		struct prio_limits lim;
		const char *key = "", *why = "", *val = "";
		size_t vlen = 0;
		char q[64];

		a->limits_text =
		    prio_arena_strndup(&d->snap->arena, d->lim, d->lim_len);
		if (!a->limits_text)
			return nomem(d, err);
		/* the limits the forecast applies, read now so that a bad
		 * TRES list is refused at its line */
		if (prio_limits_from_dump(d->snap, a->limits_text, &lim, &key,
					  &val, &vlen, &why) < 0)
			return BAD(key, "%s, got \"%s\"", why,
				   text_quote(val, vlen, q, sizeof(q)));
		if (prio_limits_any(&lim) || lim.unmodelled) {
			struct prio_limits *keep = prio_arena_alloc(
			    &d->snap->arena, sizeof(*keep));

			if (!keep)
				return nomem(d, err);
			*keep = lim;
			a->limits = keep;
		}
	}
	a->from |= PRIO_ASSOC_FROM_DUMP;
	d->records++;
	return PRIO_OK;
}

/* Under which Parent a User or Account line falls. */
static int current_parent(struct dump *d, enum object obj,
			  struct prio_error *err)
{
	if (!d->cluster_seen)
		return BAD(object_name[obj], "comes before the Cluster line");
	if (d->parent_bad)
		return BAD(object_name[obj],
			   "follows the Parent line %lu, which was refused",
			   d->parent_bad);
	if (d->parent == PRIO_ASSOC_NONE)
		return BAD(
		    object_name[obj],
		    "comes before any Parent line (add Parent - 'root')");
	return PRIO_OK;
}

static int do_cluster(struct dump *d, prio_id name, const struct fields *f,
		      struct prio_error *err)
{
	struct prio_assoc *root;
	prio_id root_id;

	if (d->cluster_seen)
		return BAD("Cluster", "a second Cluster line (a dump holds one "
				      "cluster)");
	root_id = prio_snapshot_intern(d->snap, "root", 4);
	if (!root_id)
		return nomem(d, err);
	d->cluster_seen = true;
	if (!d->b.merging) {
		if (assoc_build_new(&d->b, root_id, PRIO_NO_ID, PRIO_NO_ID,
				    d->line) != 0)
			return nomem(d, err);
	} else if (d->snap->assocs[0].account != root_id ||
		   d->snap->assocs[0].is_user) {
		return BAD("Cluster", "the tree in %s does not start at root",
			   d->b.first_file);
	}
	root = &d->snap->assocs[0];
	if (root->cluster && root->cluster != name)
		return BAD("Cluster", "cluster %s here but %s in %s",
			   prio_snapshot_str(d->snap, name),
			   prio_snapshot_str(d->snap, root->cluster),
			   root->file);
	root->cluster = name;
	return apply(d, 0, f, err);
}

static int do_parent(struct dump *d, prio_id name, struct prio_error *err)
{
	uint32_t i;

	if (!d->cluster_seen)
		return BAD("Parent", "comes before the Cluster line");
	i = assoc_build_find(&d->b, name, PRIO_NO_ID, PRIO_NO_ID);
	if (i == PRIO_ASSOC_NONE && d->b.merging)
		return BAD("Parent",
			   "account %s is not in %s: the two captures "
			   "do not match",
			   prio_snapshot_str(d->snap, name), d->b.first_file);
	if (i == PRIO_ASSOC_NONE) {
		/* Named before its Account line: resolved at the end. */
		i = assoc_build_new(&d->b, name, PRIO_NO_ID, PRIO_NO_ID,
				    d->line);
		if (i == PRIO_ASSOC_NONE)
			return nomem(d, err);
		assoc_build_set(&d->b, i, ASSOC_PENDING);
	}
	d->parent = i;
	d->parent_bad = 0;
	return PRIO_OK;
}

/* " (first at line N)" when record i came from this file. */
static const char *first_at(const struct dump *d, uint32_t i, char *buf,
			    size_t size)
{
	if (d->b.merging)
		return "";
	snprintf(buf, size, " (first at line %lu)", d->snap->assocs[i].line);
	return buf;
}

static int do_account(struct dump *d, prio_id name, const struct fields *f,
		      struct prio_error *err)
{
	uint32_t i = assoc_build_find(&d->b, name, PRIO_NO_ID, PRIO_NO_ID);
	uint8_t m = assoc_build_marks(&d->b, i);
	char n[200], p[200], where[48];

	if (i != PRIO_ASSOC_NONE && (m & ASSOC_SEEN))
		return BAD("Account", "account %s is defined twice%s",
			   prio_snapshot_str(d->snap, name),
			   first_at(d, i, where, sizeof(where)));
	if (i == PRIO_ASSOC_NONE && d->b.merging)
		return BAD("Account",
			   "account %s is not in %s: the two captures "
			   "do not match",
			   prio_snapshot_str(d->snap, name), d->b.first_file);
	if (i == d->parent)
		return BAD("Account", "account %s is listed under itself",
			   prio_snapshot_str(d->snap, name));
	if (i == PRIO_ASSOC_NONE) {
		i = assoc_build_new(&d->b, name, PRIO_NO_ID, PRIO_NO_ID,
				    d->line);
		if (i == PRIO_ASSOC_NONE)
			return nomem(d, err);
	} else if (m & ASSOC_PENDING) {
		d->b.mark[i] &= (uint8_t)~ASSOC_PENDING;
		d->snap->assocs[i].line = d->line;
	} else if (d->snap->assocs[i].parent != d->parent) {
		struct prio_assoc *a = &d->snap->assocs[i];

		return BAD(
		    "Account",
		    "account %s is under %s here but under %s "
		    "in %s:%lu: the two captures do not match",
		    prio_snapshot_str(d->snap, name),
		    assoc_build_name(d->snap, d->parent, n, sizeof(n)),
		    a->parent == PRIO_ASSOC_NONE
			? "nothing"
			: assoc_build_name(d->snap, a->parent, p, sizeof(p)),
		    a->file, a->line);
	}
	if (!d->b.merging)
		d->snap->assocs[i].parent = d->parent;
	return apply(d, i, f, err);
}

static int do_user(struct dump *d, prio_id name, const struct fields *f,
		   struct prio_error *err)
{
	prio_id account = d->snap->assocs[d->parent].account;
	uint32_t i = assoc_build_find(&d->b, account, name, f->partition);
	char n[200], where[48];

	if (i != PRIO_ASSOC_NONE && (assoc_build_marks(&d->b, i) & ASSOC_SEEN))
		return BAD("User", "user association %s is defined twice%s",
			   assoc_build_name(d->snap, i, n, sizeof(n)),
			   first_at(d, i, where, sizeof(where)));
	if (i == PRIO_ASSOC_NONE && d->b.merging)
		return BAD("User",
			   "user %s in account %s%s%s is not in %s: the "
			   "two captures do not match",
			   prio_snapshot_str(d->snap, name),
			   prio_snapshot_str(d->snap, account),
			   f->partition ? ", partition " : "",
			   prio_snapshot_str(d->snap, f->partition),
			   d->b.first_file);
	if (i == PRIO_ASSOC_NONE) {
		i = assoc_build_new(&d->b, account, name, f->partition,
				    d->line);
		if (i == PRIO_ASSOC_NONE)
			return nomem(d, err);
		d->snap->assocs[i].parent = d->parent;
	}
	return apply(d, i, f, err);
}

/* One logical line. */
static int parse_line(struct dump *d, const char *s, size_t n,
		      struct prio_error *err)
{
	struct item items[MAX_ITEMS];
	struct fields f = {.shares = PRIO_NO_VAL, .priority = PRIO_NO_VAL};
	const char *dash = memchr(s, '-', n), *word = s, *name;
	size_t wlen, nitems = 0, bad = 0, nlen;
	enum object obj;
	prio_id id;
	char q[64], field[64];
	long len;
	int rc;

	if (!dash) {
		d->parent = PRIO_ASSOC_NONE;
		d->parent_bad = d->line;
		return BAD("",
			   "expected \"Cluster|Parent|Account|User - 'name'\", "
			   "got \"%s\"",
			   text_quote(s, n, q, sizeof(q)));
	}
	wlen = (size_t)(dash - s);
	text_trim(&word, &wlen);
	if (prio_word_eq(word, wlen, "cluster") ||
	    prio_word_eq(word, wlen, "machine"))
		obj = OBJ_CLUSTER;
	else if (prio_word_eq(word, wlen, "parent"))
		obj = OBJ_PARENT;
	else if (prio_word_eq(word, wlen, "account") ||
		 prio_word_eq(word, wlen, "project"))
		obj = OBJ_ACCOUNT;
	else if (prio_word_eq(word, wlen, "user"))
		obj = OBJ_USER;
	else
		obj = OBJ_UNKNOWN;
	if (obj == OBJ_PARENT || obj == OBJ_UNKNOWN) {
		/* Until a Parent line is taken, the lines after it have no
		 * parent: an unknown object may have been meant as one. */
		d->parent = PRIO_ASSOC_NONE;
		d->parent_bad = d->line;
	}
	if (obj == OBJ_UNKNOWN)
		return BAD(
		    text_quote(word, wlen, field, 41),
		    "unknown object (expected Cluster, Parent, Account or "
		    "User before the '-')");

	rc = split_items(dash + 1, (size_t)(s + n - dash - 1), items, &nitems,
			 &bad);
	if (rc == -2)
		return BAD(object_name[obj], "more than %d options on one line",
			   MAX_ITEMS - 1);
	if (rc == -1) {
		const char *is = items[bad].s, *eq;
		size_t in = items[bad].n;

		text_trim(&is, &in);
		eq = bad ? memchr(is, '=', in) : NULL;
		return BAD(eq ? text_quote(is, (size_t)(eq - is), field, 41)
			      : object_name[obj],
			   "unterminated quote");
	}
	d->lim_len = 0;
	for (size_t k = 1; k < nitems; k++)
		if ((rc = read_option(d, obj, &items[k], &f, err)) < 0)
			return rc;
	if (obj == OBJ_PARENT && nitems > 1)
		return BAD("Parent", "a Parent line takes no options");

	name = items[0].s;
	nlen = items[0].n;
	text_trim(&name, &nlen);
	if ((len = decode(d, name, nlen)) < 0)
		return nomem(d, err);
	if (len == 0)
		return BAD(object_name[obj], "empty name");
	id = prio_snapshot_intern(d->snap, d->val, (size_t)len);
	if (!id)
		return nomem(d, err);

	switch (obj) {
	case OBJ_CLUSTER:
		return do_cluster(d, id, &f, err);
	case OBJ_PARENT:
		return do_parent(d, id, err);
	case OBJ_ACCOUNT:
		if ((rc = current_parent(d, obj, err)) < 0)
			return rc;
		return do_account(d, id, &f, err);
	case OBJ_USER:
		if ((rc = current_parent(d, obj, err)) < 0)
			return rc;
		return do_user(d, id, &f, err);
	case OBJ_UNKNOWN:
		break;
	}
	return PRIO_OK;
}

/* End of a first load: every Parent named must have been defined. */
static int check_pending(struct dump *d, struct prio_error *err)
{
	for (uint32_t i = d->b.existing; i < d->snap->assoc_count; i++) {
		if (!(assoc_build_marks(&d->b, i) & ASSOC_PENDING))
			continue;
		return prio_error_set(
		    err, PRIO_ERR_PARSE, d->src->name, d->snap->assocs[i].line,
		    "Parent",
		    "account %s is never defined by an Account "
		    "line (an orphan)",
		    prio_snapshot_str(d->snap, d->snap->assocs[i].account));
	}
	return PRIO_OK;
}

int prio_load_assoc_dump(struct prio_snapshot *snap,
			 const struct prio_source *src, struct prio_error *err)
{
	struct dump d;
	size_t len;
	int rc;

	memset(&d, 0, sizeof(d));
	d.snap = snap;
	d.src = src;
	d.parent = PRIO_ASSOC_NONE;
	if ((rc = assoc_build_begin(&d.b, snap, src, PRIO_ASSOC_FROM_DUMP,
				    err)) < 0)
		return rc;
	prio_line_reader_init(&d.lr, src);
	for (;;) {
		const char *s;

		rc = next_logical(&d, &len, err);
		if (rc == 0)
			break;
		if (rc > 0) {
			s = d.buf;
			text_trim(&s, &len);
			if (len == 0)
				continue;
			rc = parse_line(&d, s, len, err);
		}
		if (rc < 0 && (rc = prio_snapshot_record_error(snap, err)) < 0)
			goto out;
	}
	if (!d.cluster_seen) {
		rc =
		    prio_error_set(err, PRIO_ERR_PARSE, src->name,
				   d.last_line ? d.last_line : 1, "Cluster",
				   "no Cluster line: not a sacctmgr dump file");
		goto out;
	}
	if (!d.b.merging) {
		if ((rc = check_pending(&d, err)) < 0 ||
		    (rc = assoc_build_depths(&d.b, err)) < 0)
			goto out;
	} else if ((rc = assoc_build_all_seen(&d.b, d.last_line, err)) < 0) {
		goto out;
	}
	rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_ASSOC_DUMP, src->name,
				       d.records);
out:
	assoc_build_end(&d.b);
	free(d.buf);
	free(d.val);
	free(d.lim);
	return rc;
}
