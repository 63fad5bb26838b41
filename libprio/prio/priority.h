/* SPDX-License-Identifier: MIT */
/*
 * The multifactor priority of jobs, as Slurm 22.05's priority/multifactor
 * plugin computes it (slurm-facts §1): nine factors, each multiplied by its
 * weight and summed, with the "< 1 becomes 1", 32-bit clamp and truncation
 * rules; one value per partition for jobs submitted to several.
 *
 * The engine is a pure function of a finished snapshot and a clock.  It is
 * set up once (normalisation maxima, cluster size, the fairshare of every
 * association computed once), then asked per job: the factors Slurm
 * computes once per job (prio_job_factors), and per partition the row that
 * adds the partition and TRES terms (prio_row_compute).  Nothing is kept
 * per job, so a caller can stream a million jobs.
 */
#ifndef PRIO_PRIORITY_H
#define PRIO_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "fairshare.h"
#include "job.h"
#include "snapshot.h"

/* The nine factors, in sprio's -l column order (site first, nice last). */
enum prio_factor {
	PRIO_FACTOR_SITE = 0,
	PRIO_FACTOR_AGE,
	PRIO_FACTOR_ASSOC,
	PRIO_FACTOR_FAIRSHARE,
	PRIO_FACTOR_JOBSIZE,
	PRIO_FACTOR_PARTITION,
	PRIO_FACTOR_QOS,
	PRIO_FACTOR_NICE,
	PRIO_FACTOR_TRES,
	PRIO_FACTOR_COUNT
};

/* The factor table: one line per factor, shared by the writers, --explain,
 * the man page and the completions. */
struct prio_factor_info {
	const char *name;       /* "fairshare": JSON keys, --explain */
	const char *weight_key; /* "PriorityWeightFairshare"; NULL: none */
	char letter;            /* sprio's letter for the weighted value */
	const char *meaning;    /* one line, for --explain */
};
const struct prio_factor_info *prio_factor_info(enum prio_factor f);

struct prio_engine {
	const struct prio_snapshot *snap;
	time_t now;          /* the clock the factors are computed at */
	time_t captured;     /* the snapshot's own clock (snap->now) */
	uint32_t flags;      /* PriorityFlags */
	/* Weights in effect, by enum prio_factor (TRES, site and nice 0).
	 * Age and Fairshare are 0 without slurmdbd, as Slurm forces them. */
	uint32_t weight[PRIO_FACTOR_COUNT];
	bool no_dbd;         /* AccountingStorageType is not slurmdbd */
	double part_max;     /* max PriorityJobFactor, at least 1 */
	double qos_max;      /* max QOS priority (0: factor 0) */
	double assoc_max;    /* max association priority (0: factor 0) */
	uint32_t nodes;      /* every configured node */
	uint64_t cluster_cpus; /* Σ cpus_efctv */
	/* Fairshare of every association (NULL when no tree is loaded). */
	struct prio_fs_result *fs;
	enum prio_fs_algorithm fs_algorithm;
	/* How fs was computed (prio_fairshare_slurm): what-if searches and
	 * the tree views recompute with the same setup. */
	struct prio_fs_setup fs_setup;
	/* Weighted TRES, by ascending TRES index: tres[k] with tres_weight[k]
	 * (PriorityWeightTRES; a TRES listed twice keeps its last weight). */
	uint32_t tres_count;
	uint32_t *tres;
	double *tres_weight;
	/* The most partitions any job lists (buffers for prio_job_partitions). */
	uint32_t max_job_partitions;
	bool partition_assocs; /* some association is a partition's */
	/* Per association, the factors jobs of it get (unweighted), in one
	 * small array so a million jobs do not walk the tree's records. */
	struct prio_assoc_factors {
		double assoc, fairshare;
	} *assoc_factors;
	/* A user's association when the user has one (account, index),
	 * by user id (< user_slots): the common case needs no hashing. */
	struct prio_user_assoc {
		prio_id account; /* PRIO_NO_ID: none, or several accounts */
		uint32_t assoc;
	} *user_assoc;
	uint32_t user_slots;
};

/* Set up the engine for `now` (snap->now is the capture time: jobs whose
 * begin time falls between the two start to accrue age at it).  Computes
 * the fairshare of the tree when one is loaded and a weight needs it.
 * Returns 0, or a negative status with err filled. */
int prio_engine_init(struct prio_engine *e, const struct prio_snapshot *snap,
		     time_t now, struct prio_error *err);
/* The same with fairshare flags (PRIO_FS_NO_LAG: the values of the next
 * calculation instead of the ones Slurm shows). */
int prio_engine_init_fs(struct prio_engine *e, const struct prio_snapshot *snap,
			time_t now, unsigned fs_flags, struct prio_error *err);
void prio_engine_free(struct prio_engine *e);
/* The same engine at another clock, for the same snapshot whose usage was
 * moved there (prio_snapshot_advance): the fairshare of the tree and the
 * associations' factors computed again, everything else kept (it depends
 * on the snapshot alone); what prio_engine_init_fs at `now` with the same
 * flags gives, without walking the jobs again (prio-top's clock tick).
 * On an error (err filled) e is unchanged. */
int prio_engine_move(struct prio_engine *e, time_t now,
		     struct prio_error *err);

/* What Slurm computes once per job (factors are unweighted: in [0,1], or
 * raw values under the NO_NORMAL_* flags; 0 where the weight is 0). */
struct prio_job_factors {
	double age, assoc, fairshare, jobsize, qos;
	int64_t nice, site;   /* nice and site as users write them */
	time_t accrue_time;   /* what age counts from; 0 = does not age */
	uint32_t assoc_index; /* the job's association, PRIO_ASSOC_NONE */
	uint32_t cpus;        /* the CPU count job size used */
	/* One of several QOS (prio_job_factors_qos): the controller adds
	 * the row as it does for several partitions. */
	bool multi_qos;
};
void prio_job_factors(const struct prio_engine *e, const struct prio_job *job,
		      struct prio_job_factors *jf);

/*
 * Jobs with several QOS (24.11, prio_slurm_release.multi_qos): Slurm keeps
 * the QOS sorted by Priority, highest first (equal priorities keep their
 * order here; Slurm's sort leaves them open), drops repeats; job->qos is
 * the first (the one it runs under when it can).  The job's own priority,
 * though (scontrol's Priority=, prio_job_factors), uses the last: every
 * scheduler pass leaves the job's QOS pointer on it
 * (tests/oracle/slurm-24.11-multi-qos).  The controller and sprio compute
 * one priority per partition and QOS: sprio prints a row for each,
 * partition-major, the QOS column naming it.
 *
 * prio_qos_sort_desc() sorts ids[0..n) that way in place and returns the
 * count left after repeats are dropped; unknown QOS sort last.
 * prio_job_factors_qos() gives the factors of the row of QOS `qos` from
 * the job's own (jf, from prio_job_factors): the QOS factor is that QOS's,
 * except that a QOS of Priority 0 (or a 0 PriorityWeightQOS) keeps the
 * job's own factor, as priority_multifactor.c does.  Pass the result to
 * prio_row_compute().
 */
uint32_t prio_qos_sort_desc(const struct prio_snapshot *snap, prio_id *ids,
			    uint32_t n);
void prio_job_factors_qos(const struct prio_engine *e,
			  const struct prio_job_factors *jf, prio_id qos,
			  struct prio_job_factors *out);
/* The factors of a job's k-th QOS row (k < prio_job_qos_count(job)) from
 * the job's own jf: jf itself for a job of one QOS, else
 * prio_job_factors_qos() of that QOS (every row of a job of several QOS,
 * the first too, is one of Slurm's per-QOS slots).  Returns the QOS. */
prio_id prio_job_factors_at(const struct prio_engine *e,
			    const struct prio_job *job,
			    const struct prio_job_factors *jf, uint32_t k,
			    struct prio_job_factors *out);

/* The time the age factor counts from (slurm-facts §1.2): the submit time
 * with ACCRUE_ALWAYS, else AccrueTime, else the begin time when the job
 * became eligible after the capture; 0 when it does not age. */
time_t prio_job_accrue_time(const struct prio_engine *e,
			    const struct prio_job *job);

/* The unweighted age factor at `at` of a job accruing since `accrue` (0:
 * not accruing): what prio_job_factors() gives when the engine's clock is
 * `at`.  The calculation-time search (calc_time.h) asks it at many
 * instants without a new engine. */
double prio_age_factor_at(const struct prio_engine *e, time_t accrue,
			  time_t at);

/* Would sprio list the job (slurm-facts §6 "Which jobs")?  Pending (any
 * state with CALCULATE_RUNNING), not revoked, begin time (submit time with
 * ACCRUE_ALWAYS) set and not after the later of the engine's clock and the
 * capture, priority not 0 (held), and in a partition. */
bool prio_job_listed(const struct prio_engine *e, const struct prio_job *job);

/* Why a job is not listed, as a short phrase ("held (priority 0)"), or
 * NULL when it is. */
const char *prio_job_unlisted_reason(const struct prio_engine *e,
				     const struct prio_job *job);

/* The job's partitions as Slurm orders them (PriorityTier descending, the
 * listed order among equals): snapshot indices into out (room for
 * e->max_job_partitions).  Returns the count. */
uint32_t prio_job_partitions(const struct prio_engine *e,
			     const struct prio_job *job, uint32_t *out);

/* One job in one partition. */
struct prio_row {
	uint32_t partition;      /* snapshot index */
	double partition_factor; /* unweighted */
	double tres_sum;         /* Σ weighted TRES */
	/* sprio's PRIORITY: the weighted terms summed client-side, < 1 made
	 * 1, not clamped to 32 bits; printed truncated (%Y). */
	double sum;
	/* The priority Slurm schedules with in this partition: < 1 made 1,
	 * truncated, clamped to 2^32-1, and with INCR_ONLY never below the
	 * priority the snapshot holds. */
	uint32_t priority;
	bool clamped;            /* the sum exceeded 32 bits */
};
void prio_row_compute(const struct prio_engine *e, const struct prio_job *job,
		      const struct prio_job_factors *jf, uint32_t partition,
		      struct prio_row *row);

/* prio_row_compute() keeping the weighted TRES terms (e->tres_count
 * values): tres receives them, or with reuse gives them from an earlier
 * call for the same job and partition on an engine of the same snapshot,
 * and the job's TRES are not read again (prio-top's clock tick, where only
 * age and fairshare move).  tres NULL: prio_row_compute(). */
void prio_row_compute_kept(const struct prio_engine *e,
			   const struct prio_job *job,
			   const struct prio_job_factors *jf,
			   uint32_t partition, double *tres, bool reuse,
			   struct prio_row *row);

/* The unweighted TRES factors of a job in a partition, one per engine TRES
 * (factor[k] for e->tres[k]). */
void prio_row_tres(const struct prio_engine *e, const struct prio_job *job,
		   uint32_t partition, double *factor);

/* The count of TRES `tres` the TRES factor uses: allocated for a job that
 * has an allocation, else requested. */
uint64_t prio_job_tres_count(const struct prio_job *job, uint32_t tres);

/* factor × weight, as Slurm stores it (prio_factors after weighting). */
double prio_weighted(const struct prio_engine *e, enum prio_factor f,
		     double factor);

/* A job by id (an array task by its own id, an unsplit array by the array
 * job id); NULL when absent.  Constant time through the index finish
 * builds (prio_snapshot_index_jobs); --compare asks once per row. */
const struct prio_job *prio_snapshot_find_job(const struct prio_snapshot *snap,
					      uint32_t job_id);

#endif
