/* SPDX-License-Identifier: MIT */
/*
 * sshare's table and rows (slurm-facts §7), defined once for every front end
 * that shows it (fstree-show, prio-top).
 *
 * Rows: the controller returns associations in its list order, which is
 * sshare's order and ours (prio_assoc_link sorts children that way), after
 * two filters: -u keeps only the named users' user rows (account rows always
 * pass), -A keeps rows whose account (a user row's parent account) is
 * listed.  sshare itself then drops account rows under -U.
 *
 * Indentation: sshare's tree printer gives a printed account row one space
 * more than its parent account's printed row, and a user row one more than
 * its account's; when that row was not printed (-A, -U) the count restarts
 * at 0.  The spaces are part of the Account string, so they show under -P.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/report_sshare.h"
#include "prio/timestr.h"

static const struct prio_column fields[PRIO_SSHARE_F_COUNT] = {
    [PRIO_SSHARE_F_ACCOUNT] = {"account", "Account", 20, false, PRIO_NUMFMT_PF,
			       NULL},
    [PRIO_SSHARE_F_CLUSTER] = {"cluster", "Cluster", 10, true, PRIO_NUMFMT_PF,
			       NULL},
    [PRIO_SSHARE_F_EFFECTV_USAGE] = {"effectv_usage", "EffectvUsage", 13, true,
				     PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_FAIRSHARE] = {"fairshare", "FairShare", 10, true,
				 PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_GRP_TRES_MINS] = {"grp_tres_mins", "GrpTRESMins", 30, true,
				     PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_GRP_TRES_RAW] = {"grp_tres_raw", "GrpTRESRaw", 30, true,
				    PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_ID] = {"id", "ID", 6, true, PRIO_NUMFMT_PF32, NULL},
    [PRIO_SSHARE_F_LEVEL_FS] = {"level_fs", "LevelFS", 10, true, PRIO_NUMFMT_PF,
				NULL},
    [PRIO_SSHARE_F_NORM_SHARES] = {"norm_shares", "NormShares", 11, true,
				   PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_NORM_USAGE] = {"norm_usage", "NormUsage", 11, true,
				  PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_PARTITION] = {"partition", "Partition", 12, true,
				 PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_RAW_SHARES] = {"raw_shares", "RawShares", 10, true,
				  PRIO_NUMFMT_PF32, NULL},
    [PRIO_SSHARE_F_RAW_USAGE] = {"raw_usage", "RawUsage", 11, true,
				 PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_TRES_RUN_MINS] = {"tres_run_mins", "TRESRunMins", 30, true,
				     PRIO_NUMFMT_PF, NULL},
    [PRIO_SSHARE_F_USER] = {"user", "User", 10, true, PRIO_NUMFMT_PF, NULL},
};

/*
 * What sshare prints differently per release, read from each tag's
 * src/sshare (23.02 to 26.05 kept the fields, widths, default lists and
 * the -o matching of 22.05): a row holds from its release until the
 * next's.
 */
static const struct sshare_release {
	uint16_t since;
	/* FairShare is the controller's factor of a user row, blank on
	 * account rows under every algorithm (25.11); before, without Fair
	 * Tree, sshare computed 2^(-EffectvUsage/NormShares/damping) for
	 * every row, the accounts' and root's too */
	bool fs_users_only;
} sshare_releases[] = {
    {2205, false},
    {2511, true},
};

bool prio_sshare_fs_users_only(const struct prio_snapshot *snap)
{
	const struct sshare_release *r = &sshare_releases[0];

	/* sshare's text does not tell 25.11 from before; with nothing else
	 * saying the release, print what the releases before did (checked
	 * against 22.05's sshare, tests/oracle) */
	if (snap->slurm_release_source == PRIO_VERSION_DEFAULT)
		return false;
	for (size_t i = 0;
	     i < sizeof(sshare_releases) / sizeof(sshare_releases[0]); i++)
		if (sshare_releases[i].since <=
		    prio_snapshot_slurm(snap)->release)
			r = &sshare_releases[i];
	return r->fs_users_only;
}

const struct prio_column *prio_sshare_fields(void)
{
	return fields;
}

const char *prio_sshare_default_format(bool long_format, bool partitions,
				       bool level_fs)
{
	if (!long_format)
		return partitions ? "Account,User,Partition,RawShares,"
				    "NormShares,RawUsage,"
				    "EffectvUsage,FairShare"
				  : "Account,User,RawShares,NormShares,"
				    "RawUsage,EffectvUsage,"
				    "FairShare";
	if (level_fs)
		return partitions ? "Account,User,Partition,RawShares,"
				    "NormShares,RawUsage,"
				    "NormUsage,EffectvUsage,FairShare,LevelFS,"
				    "GrpTRESMins,"
				    "TRESRunMins"
				  : "Account,User,RawShares,NormShares,"
				    "RawUsage,NormUsage,"
				    "EffectvUsage,FairShare,LevelFS,"
				    "GrpTRESMins,TRESRunMins";
	return partitions ? "Account,User,Partition,RawShares,NormShares,"
			    "RawUsage,NormUsage,"
			    "EffectvUsage,FairShare,GrpTRESMins,TRESRunMins"
			  : "Account,User,RawShares,NormShares,RawUsage,"
			    "NormUsage,EffectvUsage,"
			    "FairShare,GrpTRESMins,TRESRunMins";
}

char *prio_sshare_helpformat(char *buf, size_t size)
{
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < PRIO_SSHARE_F_COUNT && used < size; i++) {
		bool eol = i % 4 == 3 || i == PRIO_SSHARE_F_COUNT - 1;
		int n = snprintf(buf + used, size - used, "%-17s%s",
				 fields[i].header, eol ? "\n" : "");

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

/* ---- rows -------------------------------------------------------------- */

static bool name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(list[i], name) == 0)
			return true;
	return false;
}

int prio_sshare_rows_init(struct prio_sshare_rows *it,
			  const struct prio_snapshot *snap,
			  const struct prio_sshare_filter *filter,
			  struct prio_error *err)
{
	uint32_t n = snap->assoc_count, *stack, top = 0, k = 0;

	memset(it, 0, sizeof(*it));
	it->snap = snap;
	it->filter = filter;
	if (n == 0)
		return PRIO_OK;
	it->order = malloc((size_t)n * sizeof(*it->order));
	it->indent = malloc((size_t)n * sizeof(*it->indent));
	stack = malloc((size_t)n * sizeof(*stack));
	if (!it->order || !it->indent || !stack) {
		free(stack);
		prio_sshare_rows_free(it);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	/* Pre-order without recursion; the tree was checked when linked. */
	stack[top++] = 0;
	while (top && k < n) {
		uint32_t i = stack[--top], slot, cnt = 0;

		it->order[k++] = i;
		it->indent[i] = -1;
		for (uint32_t c = snap->assocs[i].first_child;
		     c != PRIO_ASSOC_NONE; c = snap->assocs[c].next_sibling)
			cnt++;
		if (top + cnt > n)
			break;
		top += cnt;
		slot = top;
		for (uint32_t c = snap->assocs[i].first_child;
		     c != PRIO_ASSOC_NONE; c = snap->assocs[c].next_sibling)
			stack[--slot] = c;
	}
	free(stack);
	for (uint32_t i = k; i < n; i++)
		it->order[i] = PRIO_ASSOC_NONE; /* unreachable: never listed */
	return PRIO_OK;
}

void prio_sshare_rows_free(struct prio_sshare_rows *it)
{
	free(it->order);
	free(it->indent);
	it->order = NULL;
	it->indent = NULL;
}

static bool row_passes(const struct prio_sshare_rows *it,
		       const struct prio_assoc *a)
{
	const struct prio_sshare_filter *f = it->filter;
	const struct prio_snapshot *snap = it->snap;

	if (!f)
		return true;
	if (a->is_user && !f->all_users &&
	    !name_in(prio_snapshot_str(snap, a->user), f->users, f->user_count))
		return false;
	if (f->accounts && !name_in(prio_snapshot_str(snap, a->account),
				    f->accounts, f->account_count))
		return false;
	if (f->users_only && !a->is_user)
		return false;
	return true;
}

bool prio_sshare_rows_next(struct prio_sshare_rows *it, uint32_t *assoc,
			   unsigned *indent)
{
	const struct prio_snapshot *snap = it->snap;

	while (it->order && it->next < snap->assoc_count) {
		uint32_t i = it->order[it->next++];
		const struct prio_assoc *a;
		int32_t parent_indent;

		if (i == PRIO_ASSOC_NONE)
			break;
		a = &snap->assocs[i];
		if (!row_passes(it, a))
			continue;
		parent_indent =
		    a->parent == PRIO_ASSOC_NONE ? -1 : it->indent[a->parent];
		it->indent[i] = parent_indent + 1;
		*assoc = i;
		*indent = (unsigned)it->indent[i];
		return true;
	}
	return false;
}

/* ---- cells ------------------------------------------------------------- */

static struct prio_cell double_or_blank(double v)
{
	return isnan(v) ? prio_cell_blank() : prio_cell_double(v);
}

/* "cpu=1,mem=2,..." over the configured TRES, from a row of counts. */
static const char *tres_text(const struct prio_snapshot *snap,
			     const uint64_t *row, uint32_t count, char *buf,
			     size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < count && i < snap->tres.count && used < size;
	     i++) {
		int n;

		if (!snap->tres.configured[i])
			continue;
		n = snprintf(buf + used, size - used, "%s%s=%llu",
			     used ? "," : "", snap->tres.names[i],
			     (unsigned long long)row[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

/* The GrpTRESMins= value of a dump's limits text ("GrpTRESMins=cpu=10:..."). */
static const char *limit_text(const char *limits, const char *key, char *buf,
			      size_t size)
{
	size_t klen = strlen(key);

	buf[0] = '\0';
	for (const char *p = limits; p && *p;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > klen && strncasecmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1),
				 p + klen + 1);
			break;
		}
		p = end ? end + 1 : p + len;
	}
	return buf;
}

static struct prio_cell tres_cell(const struct prio_snapshot *snap,
				  const struct prio_assoc *a, uint32_t assoc,
				  uint32_t bit, const char *captured,
				  const uint64_t *matrix, uint32_t tres_count,
				  char *buf, size_t size)
{
	if ((a->slurm.present & bit) && !(a->slurm.blank & bit) && captured)
		return prio_cell_str(captured);
	if ((a->slurm.present & bit) && (a->slurm.blank & bit))
		return prio_cell_str("");
	if (matrix)
		return prio_cell_str(
		    tres_text(snap, matrix + (size_t)assoc * tres_count,
			      tres_count, buf, size));
	return prio_cell_blank();
}

void prio_sshare_cells(const struct prio_snapshot *snap,
		       const struct prio_fs_result *res,
		       enum prio_fs_algorithm algorithm,
		       const struct prio_sshare_tres *tres, uint32_t assoc,
		       unsigned indent, const struct prio_field_sel *sel,
		       size_t nsel, struct prio_cell *cells,
		       struct prio_sshare_rowbuf *buf)
{
	const struct prio_assoc *a = &snap->assocs[assoc];
	const struct prio_fs_result *r = &res[assoc];
	bool parent_shares = a->shares_raw == PRIO_FS_USE_PARENT;
	uint32_t tc = tres ? tres->tres_count : 0;

	(void)algorithm;
	for (size_t k = 0; k < nsel; k++) {
		struct prio_cell *c = &cells[k];

		switch ((enum prio_sshare_field)sel[k].index) {
		case PRIO_SSHARE_F_ACCOUNT: {
			const char *name = prio_snapshot_str(snap, a->account);
			unsigned sp = indent < sizeof(buf->account) / 2
					  ? indent
					  : sizeof(buf->account) / 2;

			memset(buf->account, ' ', sp);
			snprintf(buf->account + sp, sizeof(buf->account) - sp,
				 "%s", name);
			*c = prio_cell_str(buf->account);
			break;
		}
		case PRIO_SSHARE_F_CLUSTER:
			*c = a->cluster ? prio_cell_str(prio_snapshot_str(
					      snap, a->cluster))
			     : snap->conf.cluster_name
				 ? prio_cell_str(snap->conf.cluster_name)
				 : prio_cell_blank();
			break;
		case PRIO_SSHARE_F_EFFECTV_USAGE:
			*c = double_or_blank((double)r->usage_efctv);
			break;
		case PRIO_SSHARE_F_FAIRSHARE:
			*c = !a->is_user && prio_sshare_fs_users_only(snap)
				 ? prio_cell_blank()
				 : double_or_blank(r->fairshare);
			break;
		case PRIO_SSHARE_F_GRP_TRES_MINS:
			if ((a->slurm.present & PRIO_SSHARE_GRP_TRES_MINS) &&
			    a->slurm.grp_tres_mins)
				*c = prio_cell_str(a->slurm.grp_tres_mins);
			else
				*c = prio_cell_str(limit_text(
				    a->limits_text, "GrpTRESMins", buf->tres[0],
				    sizeof(buf->tres[0])));
			break;
		case PRIO_SSHARE_F_GRP_TRES_RAW:
			*c = tres_cell(snap, a, assoc, PRIO_SSHARE_GRP_TRES_RAW,
				       a->slurm.grp_tres_raw,
				       tres ? tres->grp_tres_raw : NULL, tc,
				       buf->tres[1], sizeof(buf->tres[1]));
			break;
		case PRIO_SSHARE_F_ID:
			*c = a->id ? prio_cell_uint(a->id) : prio_cell_blank();
			break;
		case PRIO_SSHARE_F_LEVEL_FS:
			*c = parent_shares || assoc == 0
				 ? prio_cell_blank()
				 : double_or_blank((double)r->level_fs);
			break;
		case PRIO_SSHARE_F_NORM_SHARES:
			*c = double_or_blank(r->norm_shares);
			break;
		case PRIO_SSHARE_F_NORM_USAGE:
			*c = double_or_blank(r->usage_norm);
			break;
		case PRIO_SSHARE_F_PARTITION:
			*c = a->partition ? prio_cell_str(prio_snapshot_str(
						snap, a->partition))
					  : prio_cell_blank();
			break;
		case PRIO_SSHARE_F_RAW_SHARES:
			if (assoc == 0 || a->shares_raw == PRIO_NO_VAL)
				*c = prio_cell_blank();
			else if (parent_shares)
				*c = prio_cell_str("parent");
			else
				*c = prio_cell_uint(a->shares_raw);
			break;
		case PRIO_SSHARE_F_RAW_USAGE: {
			long double u = a->usage_raw;

			*c = prio_cell_uint(u >= 18446744073709551615.0L
						? PRIO_NO_VAL64 - 1
					    : u > 0 ? (uint64_t)u
						    : 0);
			break;
		}
		case PRIO_SSHARE_F_TRES_RUN_MINS:
			*c =
			    tres_cell(snap, a, assoc, PRIO_SSHARE_TRES_RUN_MINS,
				      a->slurm.tres_run_mins,
				      tres ? tres->tres_run_mins : NULL, tc,
				      buf->tres[2], sizeof(buf->tres[2]));
			break;
		case PRIO_SSHARE_F_USER:
			*c = a->is_user ? prio_cell_str(
					      prio_snapshot_str(snap, a->user))
					: prio_cell_blank();
			break;
		default:
			*c = prio_cell_blank();
		}
	}
}
