/* SPDX-License-Identifier: MIT */
/*
 * The association tree, usage and Slurm's own fairshare values from
 * `sshare --json` (Slurm 23.11 on, data_parser v0.0.40 and later): the
 * same rows as `sshare -a -l -P` (assoc_sshare.c), as
 * {"shares": {"shares": [row...]}, "meta": ...}.  A row has id, cluster,
 * name, parent, partition, shares, shares_normalized, usage,
 * usage_normalized, effective_usage, fairshare.factor, fairshare.level,
 * tres.run_seconds[], tres.group_minutes[], tres.usage[] and type
 * (["USER"] or ["ASSOCIATION"]).  Numbers are plain or wrapped as
 * {"set","infinite","number"} (json_slurm.h): v0.0.40 and v0.0.41 print
 * effective_usage and the fairshare pair plain, later versions wrap them.
 *
 * An account row's name is the account and parent its parent account; a
 * user row's name is the user and parent the user's account.  Rows come
 * depth-first from the root, as sshare prints them, so a parent is always
 * listed before its children; the children keep that order.  shares is
 * 2147483647 for Fairshare=parent (SLURMDB_FS_USE_PARENT), unset for the
 * root.  When a tree is already loaded (assoc.cfg first), the rows merge
 * into it as the text's do (assoc_build.h).
 *
 * What the text cannot give: "usage" is RawUsage truncated to an integer
 * (as -P prints it), but usage_normalized is usage_raw / root's usage_raw
 * in full precision.  usage_raw = usage_normalized x (root's usage + f),
 * with one f in [0, 1) chosen so that every row's value still truncates to
 * its printed integer, keeps RawUsage as printed and makes every ratio of
 * usages exact (Fair Tree's U, classic's usage_norm and UE).  When no such
 * f exists (usage changed between the two values), the integers are kept.
 *
 * The values sshare would print go to assoc->slurm for audits, blank where
 * sshare prints blank: LevelFS of a Fairshare=parent row, and unset
 * numbers.  FairShare is left out for account rows, and FairShare and
 * LevelFS for every row when the values are not Fair Tree's (the
 * configuration loaded first says another algorithm, or no user has a
 * factor): sshare then computes its FairShare itself, and the JSON holds
 * the controller's 0s (seen on 24.11 with NO_FAIR_TREE).
 * GrpTRESMins, GrpTRESRaw and TRESRunMins are rebuilt as sshare prints
 * them ("name=value,...", minutes, INFINITE and unset entries left out).
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_build.h"
#include "json_slurm.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

/* Fairshare=parent, as data_parser prints it */
#define JSON_FS_USE_PARENT 2147483647

struct sj {
	struct assoc_build b;
	struct prio_snapshot *snap;
	const struct prio_source *src;
	struct prio_error *err;
	uint32_t line;
	unsigned long rows;
	/* usage_normalized of each record this source set, for the exact
	 * usage; NAN when not given */
	double *norm;
	uint32_t norm_cap;
	uint32_t root;
	/* Fair Tree (Slurm's default when no configuration was loaded
	 * first): the controller's fs_factor and level_fs are what sshare
	 * prints; under the classic algorithms they are 0 in the JSON and
	 * sshare prints a FairShare it computes itself.  Fair Tree gives
	 * every user a factor of at least 1/N, so all users at 0 also says
	 * the values are not Fair Tree's (an audit's file, loaded alone). */
	bool fair_tree, user_factor_seen;
};

__attribute__((format(printf, 3, 4))) static int bad(struct sj *s,
						     const char *field,
						     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prio_error_setv(s->err, PRIO_ERR_PARSE, s->src->name, s->line, field,
			fmt, ap);
	va_end(ap);
	return PRIO_ERR_PARSE;
}

static int nomem(struct sj *s)
{
	return prio_error_set(s->err, PRIO_ERR_NOMEM, s->src->name, s->line,
			      "", "out of memory");
}

/* A string member; null and absent give "" when optional. */
static int get_str(struct sj *s, const json_t *row, const char *key,
		   bool optional, const char **out)
{
	const json_t *v = json_object_get(row, key);

	if (!v && !optional)
		return bad(s, key, "row without %s", key);
	if (!v || json_is_null(v)) {
		*out = "";
		return PRIO_OK;
	}
	if (!json_is_string(v))
		return bad(s, key, "expected a string, got %s",
			   jsl_type_name(v));
	*out = json_string_value(v);
	return PRIO_OK;
}

/* A number member at "a" or "a.b"; a blank (unset) one sets the bit in
 * v->blank.  Absent is an error: every version prints them all. */
static int get_real(struct sj *s, const json_t *row, const char *path,
		    uint32_t bit, double *out, struct prio_sshare_values *v)
{
	const char *dot = strchr(path, '.');
	const json_t *x = row;
	char head[32];

	if (dot) {
		snprintf(head, sizeof(head), "%.*s", (int)(dot - path), path);
		x = json_object_get(row, head);
		path = dot + 1;
	}
	x = json_object_get(x, path);
	if (!x)
		return bad(s, dot ? head : path, "row without %s%s%s",
			   dot ? head : "", dot ? "." : "", path);
	switch (jsl_real(x, out)) {
	case JSL_SET:
		/* v0.0.40/41 print plain doubles: NO_VAL and INFINITE in
		 * their 32 and 64-bit forms, which sshare prints blank */
		if (*out == 4294967294.0 || *out == 4294967295.0 ||
		    *out == 18446744073709551614.0 ||
		    *out == 18446744073709551615.0) {
			*out = 0;
			v->blank |= bit;
		}
		break;
	case JSL_INFINITE:
		*out = INFINITY;
		break;
	case JSL_UNSET:
		*out = 0;
		v->blank |= bit;
		break;
	case JSL_BAD:
		return bad(s, path, "expected a number, got %s",
			   jsl_type_name(x));
	}
	/* As in sshare's text: shares, usages and the factor are fractions
	 * of the parent's or the root's; only LevelFS grows, to inf. */
	if (!(v->blank & bit) &&
	    (bit == PRIO_SSHARE_LEVEL_FS ? !(*out >= 0)
					 : !(*out >= 0 && *out <= 1)))
		return bad(s, path, "expected a number from 0 to %s, got %g",
			   bit == PRIO_SSHARE_LEVEL_FS ? "inf" : "1", *out);
	v->present |= bit;
	return PRIO_OK;
}

/* "cpu=10,mem=20" from [{"name": "cpu", "value": N}...]: each value
 * divided by `div` and truncated; INFINITE and unset values left out. */
static int tres_text(struct sj *s, const json_t *row, const char *key,
		     double div, const char **out)
{
	const json_t *tres = json_object_get(row, "tres");
	const json_t *list = json_object_get(tres, key), *e;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	int rc = PRIO_OK;

	if (!json_is_array(list))
		return bad(s, "tres", "expected tres.%s, an array, got %s", key,
			   list ? jsl_type_name(list) : "nothing");
	if (!(f = open_memstream(&buf, &len)))
		return nomem(s);
	json_array_foreach(list, i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));
		double v;

		switch (jsl_real(json_object_get(e, "value"), &v)) {
		case JSL_SET:
			break;
		case JSL_BAD:
			rc = bad(s, "tres",
				 "tres.%s[%zu]: expected a name and a number "
				 "value",
				 key, i);
			/* fall through */
		default:
			continue;
		}
		if (!name) {
			rc = bad(s, "tres", "tres.%s[%zu]: no name", key, i);
			continue;
		}
		fprintf(f, "%s%s=%llu", ftell(f) ? "," : "", name,
			(unsigned long long)(v / div));
	}
	if (fclose(f) != 0) {
		free(buf);
		return nomem(s);
	}
	if (rc == PRIO_OK &&
	    !(*out = prio_arena_strdup(&s->snap->arena, buf ? buf : "")))
		rc = nomem(s);
	free(buf);
	return rc;
}

/* The row's kind from "type": USER or ASSOCIATION. */
static int get_is_user(struct sj *s, const json_t *row, bool *is_user)
{
	const json_t *t = json_object_get(row, "type");
	const char *w;

	if (json_is_array(t) && json_array_size(t) == 1)
		t = json_array_get(t, 0);
	w = json_string_value(t);
	if (w && strcmp(w, "USER") == 0)
		*is_user = true;
	else if (w && strcmp(w, "ASSOCIATION") == 0)
		*is_user = false;
	else
		return bad(s, "type",
			   "expected [\"USER\"] or [\"ASSOCIATION\"]");
	return PRIO_OK;
}

struct sj_row {
	bool is_user;
	const char *name, *parent, *partition, *cluster;
	uint32_t id, shares;
	uint64_t usage;
	double norm_usage;
	struct prio_sshare_values v;
};

static int read_row(struct sj *s, const json_t *row, struct sj_row *r)
{
	struct prio_sshare_values *v = &r->v;
	const json_t *x;
	json_int_t i = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(row))
		return bad(s, "shares", "expected a row object, got %s",
			   jsl_type_name(row));
	if ((rc = get_is_user(s, row, &r->is_user)) < 0 ||
	    (rc = get_str(s, row, "name", false, &r->name)) < 0 ||
	    (rc = get_str(s, row, "parent", false, &r->parent)) < 0 ||
	    (rc = get_str(s, row, "partition", true, &r->partition)) < 0 ||
	    (rc = get_str(s, row, "cluster", true, &r->cluster)) < 0)
		return rc;
	if (!*r->name)
		return bad(s, "name", "empty name");
	x = json_object_get(row, "id");
	if (x) {
		if (jsl_int(x, &i) != JSL_SET || i < 0 || i > UINT32_MAX)
			return bad(s, "id", "expected an association id");
		r->id = (uint32_t)i;
		v->present |= PRIO_SSHARE_ID;
	}
	x = json_object_get(row, "shares");
	r->shares = PRIO_NO_VAL;
	v->present |= PRIO_SSHARE_RAW_SHARES;
	switch (x ? jsl_int(x, &i) : JSL_BAD) {
	case JSL_SET:
		if (i < 0 || i > UINT32_MAX)
			return bad(s, "shares", "%lld shares", (long long)i);
		r->shares = i == JSON_FS_USE_PARENT ? PRIO_FS_USE_PARENT
						   : (uint32_t)i;
		break;
	case JSL_UNSET:
	case JSL_INFINITE: /* sshare prints both blank */
		v->blank |= PRIO_SSHARE_RAW_SHARES;
		break;
	case JSL_BAD:
		return bad(s, "shares", "expected a number of shares");
	}
	x = json_object_get(row, "usage");
	if (!x || jsl_int(x, &i) != JSL_SET || i < 0)
		return bad(s, "usage", "expected the raw usage, an integer");
	r->usage = (uint64_t)i;
	v->raw_usage = r->usage;
	v->present |= PRIO_SSHARE_RAW_USAGE;
	if ((rc = get_real(s, row, "shares_normalized", PRIO_SSHARE_NORM_SHARES,
			   &v->norm_shares, v)) < 0 ||
	    (rc = get_real(s, row, "usage_normalized", PRIO_SSHARE_NORM_USAGE,
			   &v->norm_usage, v)) < 0 ||
	    (rc = get_real(s, row, "effective_usage",
			   PRIO_SSHARE_EFFECTV_USAGE, &v->effectv_usage, v)) <
		0 ||
	    (rc = get_real(s, row, "fairshare.factor", PRIO_SSHARE_FAIRSHARE,
			   &v->fairshare, v)) < 0 ||
	    (rc = get_real(s, row, "fairshare.level", PRIO_SSHARE_LEVEL_FS,
			   &v->level_fs, v)) < 0)
		return rc;
	r->norm_usage = (v->blank & PRIO_SSHARE_NORM_USAGE) ? NAN
							    : v->norm_usage;
	if (!r->is_user)
		v->present &= ~(uint32_t)PRIO_SSHARE_FAIRSHARE;
	else if (!(v->blank & PRIO_SSHARE_FAIRSHARE) && v->fairshare > 0)
		s->user_factor_seen = true;
	if (r->shares == PRIO_FS_USE_PARENT)
		v->blank |= PRIO_SSHARE_LEVEL_FS;
	if ((rc = tres_text(s, row, "group_minutes", 1, &v->grp_tres_mins)) <
		0 ||
	    (rc = tres_text(s, row, "run_seconds", 60, &v->tres_run_mins)) < 0)
		return rc;
	v->present |= PRIO_SSHARE_GRP_TRES_MINS | PRIO_SSHARE_TRES_RUN_MINS;
	/* tres.usage is not in every version's output */
	if (json_object_get(json_object_get(row, "tres"), "usage")) {
		if ((rc = tres_text(s, row, "usage", 60, &v->grp_tres_raw)) < 0)
			return rc;
		v->present |= PRIO_SSHARE_GRP_TRES_RAW;
	}
	v->present |= PRIO_SSHARE_PARTITION | PRIO_SSHARE_CLUSTER;
	return PRIO_OK;
}

static prio_id intern(struct sj *s, const char *t)
{
	return *t ? prio_snapshot_intern(s->snap, t, strlen(t)) : PRIO_NO_ID;
}

static int keep_norm(struct sj *s, uint32_t i, double norm)
{
	if (i >= s->norm_cap) {
		uint32_t cap = i + 64;
		double *n = realloc(s->norm, cap * sizeof(*n));

		if (!n)
			return nomem(s);
		for (uint32_t k = s->norm_cap; k < cap; k++)
			n[k] = NAN;
		s->norm = n;
		s->norm_cap = cap;
	}
	s->norm[i] = norm;
	return PRIO_OK;
}

/* Place a row in the tree (or find it there, merging) and fill it. */
static int take_row(struct sj *s, const struct sj_row *r)
{
	prio_id account = intern(s, r->is_user ? r->parent : r->name);
	prio_id user = r->is_user ? intern(s, r->name) : PRIO_NO_ID;
	prio_id partition = r->is_user ? intern(s, r->partition) : PRIO_NO_ID;
	prio_id parent_acct = intern(s, r->parent);
	uint32_t i, parent = PRIO_ASSOC_NONE;
	struct prio_assoc *a;
	char name[200];
	int rc;

	if (!account || (r->is_user && !user))
		return nomem(s);
	if (s->rows == 0) {
		if (r->is_user || strcmp(r->name, "root") != 0 || *r->parent)
			return bad(s, "name",
				   "the first row is not the root account "
				   "(captured with -A or -u, or by an "
				   "ordinary user under PrivateData=usage?): "
				   "load sshare -a --json output");
	} else {
		if (!*r->parent)
			return bad(s, "parent", "%s %s without a parent",
				   r->is_user ? "user" : "account", r->name);
		parent = assoc_build_find(&s->b, parent_acct, PRIO_NO_ID,
					  PRIO_NO_ID);
		if (parent == PRIO_ASSOC_NONE)
			return bad(s, "parent",
				   "%s %s: its account %s is not listed "
				   "before it",
				   r->is_user ? "user" : "account", r->name,
				   r->parent);
	}
	i = assoc_build_find(&s->b, account, user, partition);
	if (i != PRIO_ASSOC_NONE && (assoc_build_marks(&s->b, i) & ASSOC_SEEN))
		return bad(s, "name", "%s appears twice",
			   assoc_build_name(s->snap, i, name, sizeof(name)));
	if (s->b.merging) {
		if (i == PRIO_ASSOC_NONE)
			return bad(s, "name",
				   "%s%s%s%s%s is not in %s: the two captures "
				   "do not match",
				   r->is_user ? r->name : "",
				   r->is_user ? " in account " : "account ",
				   r->is_user ? r->parent : r->name,
				   *r->partition && r->is_user ? ", partition "
							       : "",
				   r->is_user ? r->partition : "",
				   s->b.first_file);
		if (parent != PRIO_ASSOC_NONE &&
		    s->snap->assocs[i].parent != parent)
			return bad(s, "parent",
				   "%s is under %s here but not in %s: the "
				   "two captures do not match",
				   assoc_build_name(s->snap, i, name,
						    sizeof(name)),
				   r->parent, s->b.first_file);
	} else {
		uint16_t depth = parent == PRIO_ASSOC_NONE
				     ? 0
				     : s->snap->assocs[parent].depth + 1;

		if (i != PRIO_ASSOC_NONE)
			return bad(s, "name", "%s appears twice",
				   assoc_build_name(s->snap, i, name,
						    sizeof(name)));
		if (depth > PRIO_ASSOC_MAX_DEPTH)
			return prio_error_set(s->err, PRIO_ERR_LIMIT,
					      s->src->name, s->line, "parent",
					      "association tree deeper than "
					      "%u levels",
					      PRIO_ASSOC_MAX_DEPTH);
		i = assoc_build_new(&s->b, account, user, partition, s->line);
		if (i == PRIO_ASSOC_NONE)
			return nomem(s);
		s->snap->assocs[i].parent = parent;
		s->snap->assocs[i].depth = depth;
	}
	if (s->rows == 0)
		s->root = i;
	assoc_build_set(&s->b, i, ASSOC_SEEN);
	if ((rc = assoc_build_shares(&s->b, i, r->shares, s->line, "shares",
				     s->err)) < 0)
		return rc;
	a = &s->snap->assocs[i];
	if (*r->cluster) {
		prio_id c = intern(s, r->cluster);

		if (!c)
			return nomem(s);
		if (a->cluster && a->cluster != c)
			return bad(s, "cluster", "cluster %s here but %s in %s",
				   r->cluster,
				   prio_snapshot_str(s->snap, a->cluster),
				   a->file);
		a->cluster = c;
	}
	if (r->id)
		a->id = r->id;
	a->usage_raw = (long double)r->usage;
	a->usage_known = true;
	a->slurm = r->v;
	a->slurm.file = s->b.file;
	a->slurm.line = s->line;
	a->from |= PRIO_ASSOC_FROM_SSHARE;
	s->rows++;
	return keep_norm(s, i, i == s->root ? NAN : r->norm_usage);
}

/* usage_raw in full precision (top of file): the f in [0, 1) for which
 * every norm x (R + f) truncates to its row's printed usage. */
static void exact_usage(struct sj *s)
{
	struct prio_assoc *as = s->snap->assocs;
	long double R = as[s->root].usage_raw, lo = 0, hi = 1;

	if (R <= 0)
		return;
	for (uint32_t i = 0; i < s->norm_cap && i < s->snap->assoc_count; i++) {
		long double n = s->norm[i], u = as[i].usage_raw;

		if (isnan(s->norm[i]))
			continue;
		if (n <= 0) {
			if (u != 0)
				return; /* usage without a share of it */
			continue;
		}
		/* u <= n (R + f) < u + 1 */
		if (u / n - R > lo)
			lo = u / n - R;
		if ((u + 1) / n - R < hi)
			hi = (u + 1) / n - R;
	}
	if (!(lo < hi))
		return;
	{
		long double f = (lo + hi) / 2;

		for (uint32_t i = 0; i < s->norm_cap && i < s->snap->assoc_count;
		     i++)
			if (!isnan(s->norm[i]) && s->norm[i] > 0)
				as[i].usage_raw = (long double)s->norm[i] * (R + f);
		as[s->root].usage_raw = R + f;
	}
}

static int load_rows(struct sj *s, const json_t *rows, const uint32_t *lines,
		     size_t nlines)
{
	const json_t *row;
	size_t k;
	int rc;

	json_array_foreach(rows, k, row)
	{
		struct sj_row r;

		s->line = k < nlines ? lines[k] : 1;
		if ((rc = read_row(s, row, &r)) < 0 ||
		    (rc = take_row(s, &r)) < 0)
			return rc; /* the tree cannot be built around a hole */
	}
	if (s->rows == 0)
		return bad(s, "shares", "no rows: sshare printed nothing");
	return PRIO_OK;
}

int prio_load_sshare_json(struct prio_snapshot *snap,
			  const struct prio_source *src, struct prio_error *err)
{
	struct sj s;
	struct jsl_meta meta;
	json_error_t je;
	json_t *root;
	const json_t *shares, *rows, *errors;
	uint32_t *lines = NULL;
	size_t nlines = 0, qn;
	char *quoted;
	const char *nul = memchr(src->data, '\0', src->size);
	int rc;

	memset(&s, 0, sizeof(s));
	s.snap = snap;
	s.src = src;
	s.err = err;
	s.line = 1;
	s.fair_tree = !snap->have_config ||
		      (snap->conf.priority_flags & PRIO_FLAG_FAIR_TREE);
	if (nul)
		return prio_error_set(
		    err, PRIO_ERR_PARSE, src->name,
		    jsl_line_of(src->data, (size_t)(nul - src->data)), "",
		    "NUL byte in input");
	if (!(quoted = jsl_quote_nonfinite(src->data, src->size, &qn)) && qn)
		return nomem(&s);
	root = json_loadb(quoted ? quoted : src->data, quoted ? qn : src->size,
			  JSON_REJECT_DUPLICATES, &je);
	free(quoted);
	if (!root)
		return prio_error_set(err, PRIO_ERR_PARSE, src->name,
				      je.line > 0 ? (unsigned long)je.line : 0,
				      "", "invalid JSON: %s", je.text);
	errors = json_object_get(root, "errors");
	shares = json_object_get(root, "shares");
	rows = json_object_get(shares, "shares");
	if (json_is_array(errors) && json_array_size(errors) > 0) {
		const json_t *e = json_array_get(errors, 0);
		const char *what =
		    json_string_value(json_object_get(e, "description"));

		rc = bad(&s, "errors", "sshare reported an error: %.200s",
			 what ? what : "(no description)");
		goto out;
	}
	if (!json_is_array(rows)) {
		rc = bad(&s, "shares",
			 "expected sshare --json output (an object with a "
			 "\"shares\" object holding a \"shares\" array)");
		goto out;
	}
	jsl_meta_read(root, &meta);
	if (meta.release)
		prio_snapshot_note_version(snap, meta.release,
					   PRIO_VERSION_JSON);
	lines = jsl_element_lines(src->data, src->size, "shares", "shares",
				  &nlines);
	if (!lines) {
		rc = nomem(&s);
		goto out;
	}
	if ((rc = assoc_build_begin(&s.b, snap, src, PRIO_ASSOC_FROM_SSHARE,
				    err)) < 0)
		goto out;
	rc = load_rows(&s, rows, lines, nlines);
	s.line = jsl_line_of(src->data, src->size);
	if (rc == PRIO_OK && s.b.merging)
		rc = assoc_build_all_seen(&s.b, s.line, err);
	if (rc == PRIO_OK) {
		if (!s.fair_tree || !s.user_factor_seen)
			for (uint32_t i = 0; i < snap->assoc_count; i++)
				if (assoc_build_marks(&s.b, i) & ASSOC_SEEN)
					snap->assocs[i].slurm.present &=
					    ~(uint32_t)(PRIO_SSHARE_FAIRSHARE |
							PRIO_SSHARE_LEVEL_FS);
		exact_usage(&s);
		snap->sshare_columns |=
		    snap->assocs[s.root].slurm.present |
		    (s.fair_tree && s.user_factor_seen ? PRIO_SSHARE_FAIRSHARE
						       : 0);
		rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_SSHARE_JSON,
					       src->name, s.rows);
	}
	assoc_build_end(&s.b);
out:
	free(lines);
	free(s.norm);
	json_decref(root);
	return rc;
}
