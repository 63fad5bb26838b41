/* SPDX-License-Identifier: MIT */
/*
 * sshare's table (slurm-facts §7), shared by fstree-show and prio-top: the
 * field table in the order `-o` prefixes are matched, the default column
 * sets, which rows sshare returns for -a/-u/-A/-U and in which order, the
 * Account column's indentation, and one row's cells from the fairshare
 * results.  Rendering is the writers' business (write.h, PRIO_STYLE_SSHARE).
 */
#ifndef PRIO_REPORT_SSHARE_H
#define PRIO_REPORT_SSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairshare.h"
#include "format.h"
#include "snapshot.h"
#include "write.h"

/* sshare's fields, in its table's order. */
enum prio_sshare_field {
	PRIO_SSHARE_F_ACCOUNT = 0,
	PRIO_SSHARE_F_CLUSTER,
	PRIO_SSHARE_F_EFFECTV_USAGE,
	PRIO_SSHARE_F_FAIRSHARE,
	PRIO_SSHARE_F_GRP_TRES_MINS,
	PRIO_SSHARE_F_GRP_TRES_RAW,
	PRIO_SSHARE_F_ID,
	PRIO_SSHARE_F_LEVEL_FS,
	PRIO_SSHARE_F_NORM_SHARES,
	PRIO_SSHARE_F_NORM_USAGE,
	PRIO_SSHARE_F_PARTITION,
	PRIO_SSHARE_F_RAW_SHARES,
	PRIO_SSHARE_F_RAW_USAGE,
	PRIO_SSHARE_F_TRES_RUN_MINS,
	PRIO_SSHARE_F_USER,
	PRIO_SSHARE_F_COUNT
};

/* The field table (id, header, width, justification, number format). */
const struct prio_column *prio_sshare_fields(void);

/* The -o list sshare uses when none is given: `long` (-l), `partitions`
 * (-m) and `level_fs` (Fair Tree in the client's PriorityFlags: -l adds
 * LevelFS). */
const char *prio_sshare_default_format(bool long_format, bool partitions,
				       bool level_fs);

/* Does the snapshot's release print FairShare on user rows only (25.11:
 * account rows blank under every algorithm)?  False when nothing said the
 * release: sshare's text is the same before and after. */
bool prio_sshare_fs_users_only(const struct prio_snapshot *snap);

/* sshare -e: the field names, four per line, each in 17 columns, into buf
 * (NUL-terminated, cut at size).  Returns buf. */
char *prio_sshare_helpformat(char *buf, size_t size);

/* Which rows: the controller's filters (assoc_mgr_get_shares) and -U. */
struct prio_sshare_filter {
	bool all_users;		     /* -a (or -u -1): every user row */
	const char *const *users;    /* -u, matched case-insensitively */
	size_t user_count;	     /* 0 with !all_users: no user row */
	const char *const *accounts; /* -A, case-insensitive; NULL = all */
	size_t account_count;
	bool users_only; /* -U: no account rows */
};

/* Extra per-association TRES counts the caller computed (usage.c), used
 * when the input did not carry sshare's own text: n_assoc × tres_count
 * matrices, NULL when unknown. */
struct prio_sshare_tres {
	const uint64_t *grp_tres_raw;  /* minutes, GrpTRESRaw */
	const uint64_t *tres_run_mins; /* minutes, TRESRunMins */
	uint32_t tres_count;
};

/* Row iterator: sshare order (depth-first, users by name before
 * sub-accounts), filtered, with the Account column's indentation as
 * sshare's tree printer gives it (one more than the printed parent row,
 * 0 when the parent row is not printed). */
struct prio_sshare_rows {
	const struct prio_snapshot *snap;
	const struct prio_sshare_filter *filter;
	uint32_t next;	 /* position in the pre-order */
	uint32_t *order; /* pre-order of the direct tree */
	int32_t *indent; /* per association: indentation if printed, -1 */
};

int prio_sshare_rows_init(struct prio_sshare_rows *it,
			  const struct prio_snapshot *snap,
			  const struct prio_sshare_filter *filter,
			  struct prio_error *err);
/* The next row's association index and indentation; false at the end. */
bool prio_sshare_rows_next(struct prio_sshare_rows *it, uint32_t *assoc,
			   unsigned *indent);
void prio_sshare_rows_free(struct prio_sshare_rows *it);

/* Per-row scratch the cells point into. */
struct prio_sshare_rowbuf {
	char account[512];
	char tres[3][1024]; /* GrpTRESMins, GrpTRESRaw, TRESRunMins */
};

/*
 * Fill cells[0..nsel-1] for association `assoc` printed with `indent`
 * spaces: sel are the selected fields (prio_fieldlist_parse over
 * prio_sshare_fields()).  Values follow sshare 22.05: blanks for root's
 * RawShares, NormUsage and LevelFS, "parent" for Fairshare=parent shares,
 * blank LevelFS for "parent" rows, Fair Tree FairShare blank for accounts,
 * RawUsage truncated to an integer.  Cells may point into buf and the
 * snapshot's strings.
 */
void prio_sshare_cells(const struct prio_snapshot *snap,
		       const struct prio_fs_result *res,
		       enum prio_fs_algorithm algorithm,
		       const struct prio_sshare_tres *tres, uint32_t assoc,
		       unsigned indent, const struct prio_field_sel *sel,
		       size_t nsel, struct prio_cell *cells,
		       struct prio_sshare_rowbuf *buf);

#endif
