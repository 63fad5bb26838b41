/* SPDX-License-Identifier: MIT */
/*
 * Usage over a window from accounting records, as slurmdbd's hourly
 * roll-up counts it for sreport, and as fairshare sees it after decay.
 *
 * Raw usage (what sreport reports): for every job record (steps are
 * skipped) the part of its run inside the window times each allocated
 * TRES count (AllocTRES: cpu, mem in MB, node, billing as stored,
 * truncated, gres ...): TRES-seconds, summed per (bucket, account, user)
 * and per bucket for the cluster.  Suspended time is taken out of the CPU
 * TRES only, as slurmdbd 22.05 does (tests/oracle/sreport-final, pre:
 * three jobs suspended 60 s count 23 s of CPU but 83 s of mem and
 * billing).  Planned time
 * (sreport's "Planned", the old "Reserved"): seconds eligible jobs waited
 * in the window times their requested CPUs, CPU only, later clamped to
 * what the cluster had left.
 *
 * Decayed usage (what fairshare sees, slurm-facts §4): every second of a
 * job's run, suspended or not (slurmctld applies new usage to running and
 * suspended jobs alike), adds its billable TRES (the unrounded billing of its
 * partition's weights; per-TRES counts for the other TRES) times the QOS
 * UsageFactor, decayed by d = 1 - 0.693/PriorityDecayHalfLife per second
 * until the moment decay_to: the integral of count * d^(decay_to - t)
 * over the run, which is what Slurm's per-cycle sums approach when the
 * calculation period is short.
 */
#ifndef PRIO_ROLLUP_H
#define PRIO_ROLLUP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "intern.h"
#include "sacct.h"
#include "window.h"

struct prio_snapshot;

/* The part of one record's run inside [from, to). */
struct prio_usage_span {
	time_t start, end;   /* the clipped run; start == end when none */
	uint32_t secs;       /* CPU seconds: the clipped run less its share of
				the suspended time */
};

/*
 * Clip rec's run to [from, to).  A job still running (End unknown) runs up
 * to now.  For secs, suspended time is taken out whole when the run lies
 * inside the window, else in proportion to the part inside (sacct gives
 * the total, not when it happened).  Returns end - start, the clipped run
 * (0: nothing inside).
 */
uint32_t prio_usage_span(const struct prio_sacct_rec *rec, time_t from,
			 time_t to, time_t now, struct prio_usage_span *sp);

/* sum over [start, end) of d^(at - t) dt: one unit of usage decayed to
 * `at` as Slurm's per-second decay factor d does it (d == 1: end - start). */
double prio_usage_decayed_seconds(double d, time_t start, time_t end,
				  time_t at);

/* Slurm's per-second decay factor for a half-life in seconds (0: 1.0). */
double prio_decay_factor(uint32_t half_life);

struct prio_rollup_opts {
	struct prio_window window;
	enum prio_bucket_by by;
	time_t now;          /* running jobs count up to here */
	bool decayed;        /* also compute decayed usage */
	time_t decay_to;     /* when decayed usage is seen (window end if 0) */
	prio_id cluster;     /* only records of this cluster (PRIO_NO_ID all) */
};

/* Usage of one user in one account in one bucket. */
struct prio_rollup_entry {
	uint32_t bucket;
	prio_id account, user;
	uint64_t *secs;      /* [tres_count] TRES-seconds */
	double *decayed;     /* [tres_count], NULL unless opts.decayed */
};

struct prio_rollup {
	uint32_t tres_count;
	uint32_t bucket_count;
	enum prio_bucket_by by;  /* as asked: a series when not NONE */
	time_t now;              /* running jobs counted up to here */
	time_t *bounds;          /* bucket_count + 1 */
	struct prio_rollup_entry *entries;
	uint32_t entry_count;
	uint64_t *alloc;         /* [bucket * tres_count + t] cluster total */
	double *alloc_decayed;   /* same shape, NULL unless decayed */
	uint64_t *planned_cpu;   /* [bucket] CPU-seconds waited (unclamped) */
	uint64_t records;        /* job records read (steps excluded) */
	uint64_t records_used;   /* of those, with usage in the window */
	/* private: the key is kept in the slot so that a lookup touches one
	 * slot and the entry's sums, not the entry */
	struct prio_rollup_slot {
		uint32_t bucket;
		prio_id account, user;
		uint32_t index; /* entry + 1, 0 empty */
	} *slots;
	uint32_t slot_mask, entry_capacity;
	uint64_t *secs_pool;
	double *decayed_pool;
	/* what prio_rollup_begin() was given, for prio_rollup_add() */
	struct prio_rollup_opts opts;
	double decay;
	time_t decay_at;
	int max_tres;
};

/*
 * One pass over snap->sacct.  Returns 0, or PRIO_ERR_NOMEM / PRIO_ERR_USAGE
 * (a bad window) with err filled.  Free with prio_rollup_free().
 */
int prio_rollup_run(const struct prio_snapshot *snap,
		    const struct prio_rollup_opts *opts, struct prio_rollup *r,
		    struct prio_error *err);

/*
 * The same, a record at a time (issue 17: records streamed by
 * prio_sacct_stream(), none kept): begin() as run() without the pass, then
 * add() for every record in file order (steps and other clusters' records
 * are skipped here, as run() skips them), the same sums as run() over
 * the same records.  snap must be the one the records were interned in.
 */
int prio_rollup_begin(const struct prio_snapshot *snap,
		      const struct prio_rollup_opts *opts, struct prio_rollup *r,
		      struct prio_error *err);
int prio_rollup_add(struct prio_rollup *r, const struct prio_snapshot *snap,
		    const struct prio_sacct_rec *rec, struct prio_error *err);
void prio_rollup_free(struct prio_rollup *r);

/* The cluster's TRES counts (out[snap->tres.count]) from its nodes: cpu =
 * sum of CPUs, mem = sum of RealMemory (MB), node = node count, billing =
 * sum of prio_billing_nodes(), gres/... summed, license/... from
 * Licenses=.  These times the seconds the cluster was up are sreport's
 * Reported. */
void prio_cluster_tres(const struct prio_snapshot *snap, uint64_t *out);

/* Tasks a record stands for: an unsplit pending array "12_[0-9%2]" counts
 * its tasks, anything else 1. */
uint32_t prio_sacct_task_count(const struct prio_snapshot *snap,
			       const struct prio_sacct_rec *rec);

#endif
