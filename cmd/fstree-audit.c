/* SPDX-License-Identifier: MIT */
/*
 * fstree-show --audit FILE: recompute the fairshare columns from the raw
 * inputs (shares from the snapshot, RawUsage from FILE: what Slurm had at
 * that moment) and compare them with what Slurm printed in FILE (sshare
 * -P, -p or plain text, any columns).  Every disagreeing cell is listed:
 * row, column, our value, Slurm's, and the interval Slurm's value may lie
 * in.  Exit 1 when a cell disagrees, 0 when none does.
 *
 * Exact columns: RawShares, NormShares (6 decimals), RawUsage, and Fair
 * Tree's FairShare (a rank: it must be the same rank).  Usage-derived
 * columns (NormUsage, EffectvUsage, LevelFS, classic FairShare) depend on
 * RawUsage, which sshare truncated to an integer, so Slurm's printed value
 * (itself rounded to 6 decimals) must fall in the interval that truncation
 * allows (prio_fairshare_bounds with a slack of 1).  A blank cell must be
 * blank on both sides.  Identity and TRES columns are not recomputed.
 * Under classic and DEPTH_OBLIVIOUS, Slurm's account rows are one cycle
 * behind: with the running jobs loaded the audit reproduces that lag
 * (fstree_compute); without them those cells may disagree.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fstree.h"

enum {
	A_ACCOUNT,
	A_USER,
	A_PARTITION,
	A_FIELD,
	A_OURS,
	A_SLURM,
	A_LOW,
	A_HIGH,
	A_COUNT
};

static const struct prio_column audit_cols[A_COUNT] = {
    {"account", "Account", 20, false, PRIO_NUMFMT_PF, NULL},
    {"user", "User", 10, true, PRIO_NUMFMT_PF, NULL},
    {"partition", "Partition", 10, true, PRIO_NUMFMT_PF, NULL},
    {"field", "Field", 12, true, PRIO_NUMFMT_PF, NULL},
    {"ours", "Ours", 12, true, PRIO_NUMFMT_PF, NULL},
    {"slurm", "Slurm", 12, true, PRIO_NUMFMT_PF, NULL},
    {"low", "Low", 12, true, PRIO_NUMFMT_PF, NULL},
    {"high", "High", 12, true, PRIO_NUMFMT_PF, NULL},
};

/* Half a unit of the 6th decimal: what printing with %f may round away. */
#define PRINT_HALF_ULP 5e-7

struct audit {
	struct fstree *f;
	struct prio_writer *w;
	const struct prio_snapshot *side;
	unsigned long cells, rows, bad;
};

static const char *fmt6(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "%s", "");
	else
		snprintf(buf, size, "%f", v);
	return buf;
}

/*
 * A compared value as its cell: the text both sides print, and in JSON the
 * number that text is (prio-tools(7) "JSON OUTPUT": numbers are numbers),
 * at the digits printed; text that is no number ("inf", a name) stays text.
 */
static struct prio_cell value_cell(const struct audit *au, const char *text)
{
	char *end;
	double d;

	if (au->f->c.mode != CMD_OUT_JSON || !*text)
		return prio_cell_str(text);
	errno = 0;
	d = strtod(text, &end);
	if (*end || errno || !isfinite(d))
		return prio_cell_str(text);
	if (!strpbrk(text, ".eE") && d >= 0 && d < 9007199254740992.0)
		return prio_cell_uint((uint64_t)d);
	return prio_cell_double(d);
}

static void report(struct audit *au, uint32_t side_i, const char *field,
		   const char *ours, const char *slurm, double lo, double hi)
{
	const struct prio_snapshot *s = au->side;
	const struct prio_assoc *a = &s->assocs[side_i];
	struct prio_cell cells[A_COUNT];
	char l[64], h[64];

	cells[A_ACCOUNT] = prio_cell_str(prio_snapshot_str(s, a->account));
	cells[A_USER] =
	    prio_cell_str(a->is_user ? prio_snapshot_str(s, a->user) : "");
	cells[A_PARTITION] = prio_cell_str(prio_snapshot_str(s, a->partition));
	cells[A_FIELD] = prio_cell_str(field);
	cells[A_OURS] = value_cell(au, ours);
	cells[A_SLURM] = value_cell(au, slurm);
	cells[A_LOW] = value_cell(au, isnan(lo) ? "" : fmt6(lo, l, sizeof(l)));
	cells[A_HIGH] = value_cell(au, isnan(hi) ? "" : fmt6(hi, h, sizeof(h)));
	prio_writer_row(au->w, cells);
	au->bad++;
}

/* One double column: exact to the printed digits, or inside [lo, hi]. */
static void check_double(struct audit *au, uint32_t side_i, const char *field,
			 uint32_t bit, double slurm, double ours,
			 const double bounds[2], bool exact)
{
	const struct prio_assoc *a = &au->side->assocs[side_i];
	char o[64], sl[64];
	bool slurm_blank, ours_blank = isnan(ours), ok;

	if (!(a->slurm.present & bit))
		return;
	au->cells++;
	slurm_blank = (a->slurm.blank & bit) != 0;
	fmt6(ours, o, sizeof(o));
	fmt6(slurm_blank ? NAN : slurm, sl, sizeof(sl));
	if (slurm_blank || ours_blank) {
		ok = slurm_blank == ours_blank;
	} else if (exact || !bounds || isnan(bounds[0])) {
		ok = strcmp(o, sl) == 0;
	} else if (isinf(slurm)) {
		ok = isinf(bounds[1]);
	} else {
		ok = slurm >= bounds[0] - PRINT_HALF_ULP &&
		     slurm <= bounds[1] + PRINT_HALF_ULP;
	}
	if (!ok)
		report(au, side_i, field, o, sl,
		       exact || !bounds ? NAN : bounds[0],
		       exact || !bounds ? NAN : bounds[1]);
}

static void check_row(struct audit *au, uint32_t side_i, uint32_t i,
		      const struct prio_fs_bounds *b)
{
	struct fstree *f = au->f;
	const struct prio_assoc *sa = &au->side->assocs[side_i],
				*a = &f->snap.assocs[i];
	const struct prio_fs_result *r = &f->res[i];
	const struct prio_sshare_values *v = &sa->slurm;
	bool ft = f->algorithm == PRIO_FS_FAIR_TREE;
	char o[64], sl[64];

	au->rows++;
	if (v->present & PRIO_SSHARE_RAW_SHARES) {
		au->cells++;
		if (sa->shares_raw != a->shares_raw && i != 0) {
			snprintf(o, sizeof(o), "%u", a->shares_raw);
			snprintf(sl, sizeof(sl), "%u", sa->shares_raw);
			report(au, side_i, "RawShares",
			       a->shares_raw == PRIO_FS_USE_PARENT ? "parent"
								   : o,
			       sa->shares_raw == PRIO_FS_USE_PARENT ? "parent"
								    : sl,
			       NAN, NAN);
		}
	}
	if (v->present & PRIO_SSHARE_RAW_USAGE) {
		uint64_t ours = a->usage_raw > 0 ? (uint64_t)a->usage_raw : 0;

		au->cells++;
		if (ours != v->raw_usage) {
			snprintf(o, sizeof(o), "%llu",
				 (unsigned long long)ours);
			snprintf(sl, sizeof(sl), "%llu",
				 (unsigned long long)v->raw_usage);
			report(au, side_i, "RawUsage", o, sl, NAN, NAN);
		}
	}
	check_double(au, side_i, "NormShares", PRIO_SSHARE_NORM_SHARES,
		     v->norm_shares, r->norm_shares, NULL, true);
	check_double(au, side_i, "NormUsage", PRIO_SSHARE_NORM_USAGE,
		     v->norm_usage, r->usage_norm, b->usage_norm, false);
	check_double(au, side_i, "EffectvUsage", PRIO_SSHARE_EFFECTV_USAGE,
		     v->effectv_usage, (double)r->usage_efctv, b->usage_efctv,
		     false);
	check_double(au, side_i, "FairShare", PRIO_SSHARE_FAIRSHARE,
		     v->fairshare, r->fairshare, b->fairshare, ft);
	check_double(au, side_i, "LevelFS", PRIO_SSHARE_LEVEL_FS, v->level_fs,
		     a->shares_raw == PRIO_FS_USE_PARENT || i == 0
			 ? NAN
			 : (double)r->level_fs,
		     b->level_fs, false);
}

/* The main snapshot's association for a row of the audited file. */
static uint32_t match(const struct prio_snapshot *main,
		      const struct prio_snapshot *side, uint32_t side_i)
{
	const struct prio_assoc *a = &side->assocs[side_i];
	prio_id acct, user = PRIO_NO_ID, part = PRIO_NO_ID;
	const char *s;

	if (side_i == 0)
		return 0;
	s = prio_snapshot_str(side, a->account);
	if (!(acct = prio_intern_find(&main->strings, s, strlen(s))))
		return PRIO_ASSOC_NONE;
	if (a->is_user) {
		s = prio_snapshot_str(side, a->user);
		if (!(user = prio_intern_find(&main->strings, s, strlen(s))))
			return PRIO_ASSOC_NONE;
	}
	if (a->partition) {
		s = prio_snapshot_str(side, a->partition);
		if (!(part = prio_intern_find(&main->strings, s, strlen(s))))
			return PRIO_ASSOC_NONE;
	}
	return prio_snapshot_assoc(main, acct, user, part);
}

int fstree_audit(struct fstree *f, const char *file)
{
	struct prio_snapshot side;
	struct prio_error err;
	struct prio_fs_bounds *bounds;
	struct audit au;
	uint32_t *map;
	FILE *rows_out = NULL;
	char *rows_text = NULL;
	size_t rows_len = 0;
	int rc = EXIT_OK;

	prio_error_clear(&err);
	if (prio_snapshot_init(&side) < 0)
		cmd_die(&f->c, "out of memory");
	if (prio_load_role(&side, PRIO_ROLE_ASSOC, file, &err) < 0 ||
	    prio_snapshot_finish(&side, &err) < 0)
		cmd_die_error(&f->c, &err);
	if (!side.sshare_columns)
		cmd_die(&f->c,
			"--audit %s: not sshare output (no Slurm values to "
			"compare)",
			file);
	if (!f->snap.assoc_count)
		cmd_die(&f->c, "--audit: no association tree loaded (give "
			       "--assoc or --snapshot)");
	map = malloc((size_t)side.assoc_count * sizeof(*map));
	bounds = calloc(f->snap.assoc_count, sizeof(*bounds));
	if (!map || !bounds)
		cmd_die(&f->c, "out of memory");
	/* Slurm's RawUsage is the usage it computed from. */
	for (uint32_t k = 0; k < side.assoc_count; k++) {
		map[k] = match(&f->snap, &side, k);
		if (map[k] != PRIO_ASSOC_NONE &&
		    (side.assocs[k].slurm.present & PRIO_SSHARE_RAW_USAGE) &&
		    side.assocs[k].usage_known) {
			f->snap.assocs[map[k]].usage_raw =
			    side.assocs[k].usage_raw;
			f->snap.assocs[map[k]].usage_known = true;
		}
	}
	for (uint32_t i = 0; i < f->snap.assoc_count; i++)
		if (!f->snap.assocs[i].usage_known) {
			char name[256];

			snprintf(name, sizeof(name), "%s%s%s",
				 prio_snapshot_str(&f->snap,
						   f->snap.assocs[i].account),
				 f->snap.assocs[i].is_user ? "/" : "",
				 prio_snapshot_str(&f->snap,
						   f->snap.assocs[i].user));
			cmd_die(&f->c,
				"--audit %s: no RawUsage for %s (audit an "
				"'sshare -a' output)",
				file, name);
		}
	fstree_compute(f);
	if (prio_fairshare_bounds(&f->snap, f->algorithm, f->res, 1.0,
				  f->lag.prev_usage ? &f->lag : NULL, bounds,
				  &err) < 0)
		cmd_die_error(&f->c, &err);
	memset(&au, 0, sizeof(au));
	au.f = f;
	au.side = &side;
	/* JSON: one object, the summary the text ends with and the cells
	 * that disagree, so the rows are kept until the counts are known */
	if (f->c.mode == CMD_OUT_JSON) {
		rows_out = open_memstream(&rows_text, &rows_len);
		if (!rows_out)
			cmd_die(&f->c, "out of memory");
	}
	au.w = prio_writer_new(rows_out ? rows_out : stdout, cmd_writer_mode(f->c.mode),
			       PRIO_STYLE_SSHARE, audit_cols, A_COUNT,
			       !f->c.noheader, NULL);
	if (!au.w)
		cmd_die(&f->c, "cannot start the table: %s", strerror(errno));
	for (uint32_t k = 0; k < side.assoc_count; k++) {
		if (map[k] == PRIO_ASSOC_NONE) {
			au.rows++;
			report(&au, k, "(row)", "", "present", NAN, NAN);
			continue;
		}
		check_row(&au, k, map[k], &bounds[map[k]]);
	}
	if (prio_writer_finish(au.w) < 0)
		cmd_die_write(&f->c);
	if (rows_out) {
		json_t *name = json_string(file);
		char *quoted = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;

		if (fclose(rows_out) != 0 || !quoted)
			cmd_die(&f->c, "out of memory");
		printf("{\"file\":%s,\"disagree\":%lu,\"cells\":%lu,\"rows\":%lu,"
		       "\"algorithm\":\"%s\",\"differences\":%s}\n",
		       quoted, au.bad, au.cells, au.rows,
		       prio_fs_algorithm_name(f->algorithm), rows_text);
		free(quoted);
		json_decref(name);
		free(rows_text);
	}
	if (rc == EXIT_OK && f->c.mode == CMD_OUT_TEXT)
		printf("%s: %lu of %lu cells in %lu rows disagree (%s, %s)\n",
		       file, au.bad, au.cells, au.rows,
		       prio_fs_algorithm_name(f->algorithm),
		       "usage-derived values checked against the RawUsage "
		       "truncation interval");
	if (rc == EXIT_OK && au.bad)
		rc = EXIT_NO;
	free(map);
	free(bounds);
	prio_snapshot_free(&side);
	return rc;
}
