/* SPDX-License-Identifier: MIT */
/*
 * "Why is my job waiting?" (prio-calc --explain): everything the answer
 * needs, computed, for a front end to put in words.  For each partition the
 * job asked for:
 *  1. its place in the scheduling queue and how many pending jobs are
 *     ahead of it there;
 *  2. its priority as terms, factor × weight = points, that add up to it;
 *  3. the terms that set it apart from the job just ahead and from the top
 *     job of the partition, largest difference first;
 *  4. the reasons behind the largest difference (the fairshare path from
 *     root, age against PriorityMaxAge, the job size rule in force...);
 *  5. what would change it: how long it must wait for age alone to lift it
 *     past the job ahead, how much less usage its association would need
 *     (and how long of decay that is), and the QOS and partitions it may
 *     use that would place it better.
 * Plus Slurm's pending reason and what it means, and warnings: factors
 * switched off (weight 0) or capped.
 *
 * The explanation is a pure function of the engine's snapshot and clock
 * (the fairshare search works on a private copy of the usage).
 */
#ifndef PRIO_EXPLAIN_H
#define PRIO_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "order.h"
#include "priority.h"

/* One term of a priority: factor × weight = points (nice: points = -nice;
 * site: points = site). */
struct prio_explain_term {
	enum prio_factor factor;
	uint32_t tres;      /* TRES index of a TRES term, else PRIO_NO_VAL */
	double value;       /* the unweighted factor (nice, site: the value) */
	double weight;
	double points;
};

/* How one term differs from another job's: points - their points. */
struct prio_explain_diff {
	enum prio_factor factor;
	uint32_t tres;
	double mine, theirs; /* unweighted factors */
	double points;       /* positive: this job is ahead on this term */
};

#define PRIO_EXPLAIN_MAX_TERMS 64 /* 8 factors + weighted TRES, capped */

/* The terms of a job's priority in one partition. */
struct prio_explain_terms {
	struct prio_explain_term t[PRIO_EXPLAIN_MAX_TERMS];
	uint32_t n;
	double sum;          /* Σ points (< 1 not yet made 1) */
	struct prio_row row; /* the engine's result: sum, priority */
};

/* One level of the fairshare path, root's child first. */
struct prio_explain_fs_level {
	uint32_t assoc;      /* snapshot index */
	double norm_shares;  /* S */
	double usage_efctv;  /* U (Fair Tree) or UE (classic) */
	double level_fs;     /* Fair Tree Level FS; NAN otherwise */
	uint32_t place;      /* 1-based place among its fs-siblings by Level FS
			      * (Fair Tree), 0 when not ranked */
	uint32_t siblings;   /* fs-siblings including itself */
};

enum prio_explain_alt_kind { PRIO_ALT_QOS, PRIO_ALT_PARTITION };

/* A QOS of higher priority or a partition of higher PriorityJobFactor or
 * PriorityTier that the job may use, and where it would stand there. */
struct prio_explain_alt {
	enum prio_explain_alt_kind kind;
	uint32_t index;      /* snapshot QOS or partition index */
	uint32_t partition;  /* where the rank is counted */
	uint32_t priority;   /* the job's priority with it */
	uint32_t part_rank;  /* its place there (1 = first) */
};

#define PRIO_EXPLAIN_MAX_ALTS 16
#define PRIO_EXPLAIN_MAX_LEVELS (PRIO_ASSOC_MAX_DEPTH + 1)

struct prio_explain_part {
	uint32_t partition;
	bool queued;           /* in the queue (pending and listed) */
	uint32_t rank, part_rank; /* 1-based; 0 when not queued */
	uint32_t part_total;   /* entries queued in the partition */
	struct prio_explain_terms terms;

	/* 3: the job just ahead in the partition, the top job of the
	 * partition, and the entry just ahead in the whole queue when it is
	 * another job (partitions sharing nodes compete in one queue); NULL
	 * when there is none. */
	const struct prio_job *ahead, *top, *ahead_all;
	uint32_t ahead_all_partition;
	struct prio_explain_terms ahead_terms, top_terms, ahead_all_terms;
	struct prio_explain_diff ahead_diff[PRIO_EXPLAIN_MAX_TERMS];
	uint32_t ahead_ndiff;
	struct prio_explain_diff top_diff[PRIO_EXPLAIN_MAX_TERMS];
	uint32_t top_ndiff;
	struct prio_explain_diff ahead_all_diff[PRIO_EXPLAIN_MAX_TERMS];
	uint32_t ahead_all_ndiff;

	/* 5: what would change it, against the job ahead. */
	bool age_helps;        /* waiting alone passes the job ahead */
	int64_t age_wait;      /* seconds of waiting needed, when age_helps */
	bool fs_searched;      /* a fairshare search ran */
	bool fs_helps;         /* less usage passes the job ahead */
	double fs_usage_now;   /* the association's RawUsage */
	double fs_usage_needed; /* the most it may have, when fs_helps */
	double fs_factor_needed; /* the factor that would, when fs_helps */
	/* The forward computation, as --at computes each instant (usage
	 * decaying, running jobs charging until they end, ages growing), at
	 * Slurm's next calculations: the first that puts the job ahead. */
	bool time_searched;
	bool time_helps;
	time_t time_at;      /* that calculation, when time_helps */
	time_t time_settled; /* after it nothing moves: searched up to it */
	struct prio_explain_alt alts[PRIO_EXPLAIN_MAX_ALTS];
	uint32_t nalts;
};

struct prio_explain {
	const struct prio_job *job;
	uint32_t job_index;
	bool listed;
	const char *unlisted;  /* why sprio does not list it, NULL if it does */
	const char *reason_meaning; /* Slurm's Reason in one line, or NULL */
	struct prio_job_factors jf;
	uint32_t assoc;        /* the job's association, PRIO_ASSOC_NONE */
	/* 4: the fairshare path, root's child first */
	struct prio_explain_fs_level fs_path[PRIO_EXPLAIN_MAX_LEVELS];
	uint32_t fs_levels;
	bool age_capped;       /* age reached PriorityMaxAge */
	int64_t age_waited;    /* seconds since accrue time */
	int64_t age_to_max;    /* seconds until the age factor is 1 */
	struct prio_explain_part *parts;
	uint32_t nparts;
};

/* What Slurm's pending Reason means, in one line; NULL when unknown. */
const char *prio_reason_meaning(const char *reason);

/*
 * Explain job `job_id`: q is the queue of e (prio_queue_build).  Returns 0,
 * PRIO_ERR_USAGE when no such job is in the snapshot, or PRIO_ERR_NOMEM.
 * Release with prio_explain_free().
 */
int prio_explain_job(const struct prio_engine *e, const struct prio_queue *q,
		     uint32_t job_id, struct prio_explain *x,
		     struct prio_error *err);
void prio_explain_free(struct prio_explain *x);

/* The terms of a job in a partition (also for jobs not in the queue). */
void prio_explain_terms_of(const struct prio_engine *e,
			   const struct prio_job *job,
			   const struct prio_job_factors *jf,
			   uint32_t partition, struct prio_explain_terms *t);

/* How mine differs from theirs, term by term (points: mine - theirs, 0
 * left out), largest gap first; out has room for PRIO_EXPLAIN_MAX_TERMS.
 * Returns the count.  --explain's diffs and prio-calc --brief's "held
 * back by" both come from it. */
uint32_t prio_explain_diff_terms(const struct prio_explain_terms *mine,
				 const struct prio_explain_terms *theirs,
				 struct prio_explain_diff *out);

#endif
