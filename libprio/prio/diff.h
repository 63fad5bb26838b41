/* SPDX-License-Identifier: MIT */
/*
 * What changed between two snapshots of one cluster (prio-diff): the
 * priority-relevant settings, each association's shares and usage as sshare
 * prints them, the jobs submitted, started and ended, and the rank moves of
 * jobs pending in both, with the factor whose weighted term moved most.
 *
 * Each snapshot is computed at its own clock (snap->now) with the engines
 * every other tool uses (prio_fairshare_slurm, prio_queue_build,
 * prio_explain_terms_of): nothing here computes a factor itself.  The result
 * is a flat list of changes, one record per changed value, which a front
 * end prints as text or as machine records.
 */
#ifndef PRIO_DIFF_H
#define PRIO_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "snapshot.h"

enum prio_diff_section {
	PRIO_DIFF_CONFIG = 0, /* config and weights */
	PRIO_DIFF_ASSOC,      /* shares and usage per association */
	PRIO_DIFF_JOBS,       /* submitted, started, ended */
	PRIO_DIFF_RANKS,      /* rank moves of jobs pending in both */
	PRIO_DIFF_SECTION_COUNT
};

/* "config", "assoc", "jobs", "ranks" (the --section words and the
 * records' section field). */
const char *prio_diff_section_name(enum prio_diff_section s);
/* The section of a word, -1 when none. */
int prio_diff_section_parse(const char *s, size_t n);

struct prio_diff_options {
	unsigned sections; /* 1 << enum prio_diff_section; 0 = all */
	bool all;	   /* every association and every job pending in
			    * both, changed or not */
	/* Comma-separated names (NULL: no filter): a record that names a
	 * user, account or partition must match; records that name none
	 * (cluster-wide settings) are kept. */
	const char *users, *accounts, *partitions;
};

/* One change.  Strings are owned by the diff or the snapshots (which must
 * outlive it); NULL is a blank cell. */
struct prio_diff_change {
	enum prio_diff_section section;
	bool changed;	    /* false: shown by --all only */
	const char *change; /* jobs: "submitted", "started", "ended" */
	const char *key;    /* config: the setting; assoc: sshare's header */
	uint32_t job_id;    /* 0: none */
	const char *user, *account, *partition, *qos;
	/* config: the settings as text */
	const char *old_text, *new_text;
	/* assoc: the value as sshare prints it; ranks: the priority.
	 * NAN where blank; decimals is the precision both carry. */
	double old_value, new_value, delta;
	int decimals;
	/* ranks: rank in the partition (1 = first), 0 when not ranked */
	uint32_t old_rank, new_rank;
	const char *factor; /* sprio's header: "FAIRSHARE" */
	double factor_delta;
};

struct prio_diff {
	struct prio_diff_change *v;
	uint32_t count, capacity;
	uint32_t changed; /* records with changed set */
	/* owned strings */
	char **strings;
	uint32_t string_count, string_capacity;
};

/* Refuse two snapshots of different clusters (ClusterName known in both
 * and different): PRIO_ERR_USAGE naming both, else 0. */
int prio_diff_same_cluster(const struct prio_snapshot *a,
			   const struct prio_snapshot *b,
			   struct prio_error *err);

/* Compare finished snapshots a (old) and b (new) into d.  Returns 0, or a
 * negative status with err filled (d is then freed). */
int prio_diff_compute(const struct prio_snapshot *a,
		      const struct prio_snapshot *b,
		      const struct prio_diff_options *opt, struct prio_diff *d,
		      struct prio_error *err);
void prio_diff_free(struct prio_diff *d);

#endif
