/* SPDX-License-Identifier: MIT */
/*
 * sreport's tables from a usage roll-up (prio/rollup.h): the header block,
 * the columns and the rows of `cluster Utilization`,
 * `cluster AccountUtilizationByUser`, `cluster UserUtilizationByAccount`,
 * `user TopUsage` and `job SizesByAccount`, built once for tres-bill and
 * prio-top.  `sreport -P` output is reproduced byte for byte
 * (tests/oracle/sreport-final); fixed-width text uses print_fields with
 * our own column widths (sreport sizes some columns from the data).
 */
#ifndef PRIO_REPORT_SREPORT_H
#define PRIO_REPORT_SREPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "intern.h"
#include "rollup.h"
#include "write.h"

enum prio_sreport_kind {
	PRIO_SREPORT_UTILIZATION = 0,  /* cluster Utilization */
	PRIO_SREPORT_ACCOUNT_BY_USER,  /* cluster AccountUtilizationByUser */
	PRIO_SREPORT_USER_BY_ACCOUNT,  /* cluster UserUtilizationByAccount */
	PRIO_SREPORT_TOP_USAGE,        /* user TopUsage */
	PRIO_SREPORT_JOB_SIZES,        /* job SizesByAccount */
};

/* sreport -t: how TRES-seconds print. */
enum prio_sreport_unit {
	PRIO_UNIT_MINUTES = 0, /* sreport's default */
	PRIO_UNIT_SECONDS,
	PRIO_UNIT_HOURS,
	PRIO_UNIT_PERCENT,
	PRIO_UNIT_SECPER,
	PRIO_UNIT_MINPER,
	PRIO_UNIT_HOURPER,
};

/* sreport -t values, case-insensitive and abbreviated as sreport takes
 * them ("s", "min", "hourper"); -1 if unknown. */
int prio_sreport_unit_parse(const char *s);

struct prio_sreport_opts {
	enum prio_sreport_kind kind;
	enum prio_sreport_unit unit;
	const uint32_t *tres;      /* -T: TRES indices in order; NULL = cpu */
	uint32_t tres_count;
	bool decayed;              /* add the decayed-usage column */
	bool numbers;              /* cells as numbers (JSON), not sreport text */
	uint32_t top_count;        /* TopUsage rows; 0 = 10 */
	bool group;                /* TopUsage: one row per user */
	bool tree;                 /* AccountUtilizationByUser: indent names */
	const prio_id *accounts;   /* Accounts= (with their sub-accounts) */
	uint32_t account_count;
	const prio_id *users;      /* Users= */
	uint32_t user_count;
	const uint32_t *grouping;  /* Grouping= lower bounds; NULL = 50,250,
				      500,1000 */
	uint32_t grouping_count;
	bool individual;           /* Grouping=individual */
	bool print_job_count;      /* PrintJobCount */
	time_t up_since;           /* Reported counts from here; 0 = always */
	const char *cluster_name;  /* the Cluster column */
};

struct prio_sreport {
	char title[160];            /* "Cluster Utilization 2026-... - ..." */
	char units[96];             /* "Usage reported in CPU Seconds" */
	struct prio_column *cols;
	size_t ncols;
	struct prio_cell *cells;    /* nrows * ncols, row-major */
	size_t nrows;
	/* private */
	struct prio_arena arena;
	size_t cap_rows;
};

/*
 * Build the report from r (made from the same snapshot).  Accounts and
 * users are placed in the association tree when the snapshot has one
 * (users first by name, then sub-accounts by name, as sreport lists
 * them); accounts it lacks hang from root.  Returns 0 or a negative
 * prio_status with err filled.
 */
int prio_sreport_build(const struct prio_snapshot *snap,
		       const struct prio_rollup *r,
		       const struct prio_sreport_opts *o,
		       struct prio_sreport *out, struct prio_error *err);
void prio_sreport_free(struct prio_sreport *rep);

/*
 * Write it: with header, the block sreport prints above every report (a
 * row of 80 dashes, the title, the units, 80 dashes) in TEXT and
 * PARSABLE modes, then the table through prio_writer.  Returns 0 or
 * PRIO_ERR_IO / PRIO_ERR_NOMEM.
 */
int prio_sreport_write(FILE *out, const struct prio_sreport *rep,
		       enum prio_output_mode mode, bool header);

#endif
