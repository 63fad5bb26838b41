/* SPDX-License-Identifier: MIT */
/*
 * The multifactor priority engine (slurm-facts §1.2-§1.5), written from the
 * facts file and checked against every oracle scenario's sprio captures.
 *
 * How it maps to Slurm's plugin:
 *  - set_priority_factors(): one unweighted value per factor, each only
 *    when its weight is non-zero (prio_job_factors, prio_row_compute);
 *  - the in-place weighting of prio_factors: prio_weighted();
 *  - _get_priority_internal(): the weighted sum, "< 1 becomes 1", the
 *    32-bit clamp and the truncation to uint32, INCR_ONLY on the
 *    periodic recalculation (prio_row_compute .priority);
 *  - sprio's get_priority_from_factors(): the same sum done client-side,
 *    without the 32-bit clamp nor INCR_ONLY (prio_row_compute .sum);
 *  - the per-partition priority_array of multi-partition jobs: one row per
 *    partition, partitions by PriorityTier descending.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/priority.h"
#include "prio/timestr.h"

static const struct prio_factor_info factor_table[PRIO_FACTOR_COUNT] = {
    [PRIO_FACTOR_SITE] = {"site", NULL, 'S',
			  "set by the site (scontrol or a site plugin)"},
    [PRIO_FACTOR_AGE] = {"age", "PriorityWeightAge", 'A',
			 "time waited since the job became eligible, up to "
			 "PriorityMaxAge"},
    [PRIO_FACTOR_ASSOC] = {"assoc", "PriorityWeightAssoc", 'B',
			   "the association's Priority over the highest one"},
    [PRIO_FACTOR_FAIRSHARE] = {"fairshare", "PriorityWeightFairshare", 'F',
			       "the association's fair share of the cluster "
			       "against its recent usage"},
    [PRIO_FACTOR_JOBSIZE] = {"jobsize", "PriorityWeightJobSize", 'J',
			     "nodes and CPUs asked for, against the cluster"},
    [PRIO_FACTOR_PARTITION] = {"partition", "PriorityWeightPartition", 'P',
			       "the partition's PriorityJobFactor over the "
			       "highest one"},
    [PRIO_FACTOR_QOS] = {"qos", "PriorityWeightQOS", 'Q',
			 "the QOS priority over the highest one"},
    [PRIO_FACTOR_NICE] = {"nice", NULL, 'N',
			  "the job's nice value, subtracted"},
    [PRIO_FACTOR_TRES] = {"tres", "PriorityWeightTRES", 'T',
			  "TRES asked for, against the partition's totals"},
};

const struct prio_factor_info *prio_factor_info(enum prio_factor f)
{
	return (unsigned)f < PRIO_FACTOR_COUNT ? &factor_table[f] : NULL;
}

/* ---- set-up -------------------------------------------------------------- */

static bool uses_slurmdbd(const struct prio_config *conf)
{
	const char *t = conf->accounting_storage_type;

	return t && strcasestr(t, "slurmdbd") != NULL;
}

/* Weighted TRES by ascending index; a TRES listed twice keeps its last
 * weight, as Slurm's weight array does. */
static int setup_tres(struct prio_engine *e, struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_tres_weights *w = &snap->conf.weight_tres;
	uint32_t n = snap->tres.count;
	double *dense;

	if (!w->count || !n)
		return PRIO_OK;
	dense = calloc(n, sizeof(*dense));
	e->tres = malloc((size_t)n * sizeof(*e->tres));
	e->tres_weight = malloc((size_t)n * sizeof(*e->tres_weight));
	if (!dense || !e->tres || !e->tres_weight) {
		free(dense);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t k = 0; k < w->count; k++)
		if (w->items[k].tres < n)
			dense[w->items[k].tres] = w->items[k].weight;
	for (uint32_t i = 0; i < n; i++) {
		if (dense[i] == 0.0)
			continue;
		e->tres[e->tres_count] = i;
		e->tres_weight[e->tres_count++] = dense[i];
	}
	free(dense);
	return PRIO_OK;
}

static double assoc_factor(const struct prio_engine *e, uint32_t assoc);
static double fairshare_factor(const struct prio_engine *e, uint32_t assoc);

/* The per-association factors, and users' single associations by id. */
static int setup_assocs(struct prio_engine *e, struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t n = snap->assoc_count, slots = 0;

	if (!n)
		return PRIO_OK;
	for (uint32_t i = 0; i < n; i++)
		if (snap->assocs[i].is_user && snap->assocs[i].user >= slots)
			slots = snap->assocs[i].user + 1;
	e->assoc_factors = malloc((size_t)n * sizeof(*e->assoc_factors));
	e->user_assoc = calloc(slots ? slots : 1, sizeof(*e->user_assoc));
	if (!e->assoc_factors || !e->user_assoc)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	e->user_slots = slots;
	for (uint32_t i = 0; i < n; i++) {
		const struct prio_assoc *a = &snap->assocs[i];
		struct prio_user_assoc *u;

		e->assoc_factors[i].assoc = assoc_factor(e, i);
		e->assoc_factors[i].fairshare = fairshare_factor(e, i);
		if (!a->is_user || a->partition != PRIO_NO_ID)
			continue;
		u = &e->user_assoc[a->user];
		if (u->account == PRIO_NO_ID && u->assoc == 0) {
			u->account = a->account;
			u->assoc = i + 1;
		} else {
			u->account = PRIO_NO_ID; /* several: ask the index */
			u->assoc = UINT32_MAX;
		}
	}
	return PRIO_OK;
}

/* The job's association without partition associations: the user's only
 * one when it matches, else the snapshot's index. */
static uint32_t job_assoc_fast(const struct prio_engine *e,
			       const struct prio_job *job)
{
	if (job->user < e->user_slots) {
		const struct prio_user_assoc *u = &e->user_assoc[job->user];

		if (u->account == job->account && u->assoc)
			return u->assoc - 1;
		if (u->assoc == 0)
			return PRIO_ASSOC_NONE; /* no association at all */
	}
	return prio_snapshot_assoc(e->snap, job->account, job->user,
				   PRIO_NO_ID);
}

int prio_engine_init(struct prio_engine *e, const struct prio_snapshot *snap,
		     time_t now, struct prio_error *err)
{
	return prio_engine_init_fs(e, snap, now, 0, err);
}

int prio_engine_init_fs(struct prio_engine *e, const struct prio_snapshot *snap,
			time_t now, unsigned fs_flags, struct prio_error *err)
{
	const struct prio_config *conf = &snap->conf;
	int rc;

	memset(e, 0, sizeof(*e));
	e->snap = snap;
	e->now = now;
	e->captured = snap->now;
	e->flags = conf->priority_flags;
	e->weight[PRIO_FACTOR_AGE] = conf->weight_age;
	e->weight[PRIO_FACTOR_ASSOC] = conf->weight_assoc;
	e->weight[PRIO_FACTOR_FAIRSHARE] = conf->weight_fairshare;
	e->weight[PRIO_FACTOR_JOBSIZE] = conf->weight_jobsize;
	e->weight[PRIO_FACTOR_PARTITION] = conf->weight_partition;
	e->weight[PRIO_FACTOR_QOS] = conf->weight_qos;
	/* Without slurmdbd the plugin refuses age and fairshare. */
	e->no_dbd = !uses_slurmdbd(conf);
	if (e->no_dbd) {
		e->weight[PRIO_FACTOR_AGE] = 0;
		e->weight[PRIO_FACTOR_FAIRSHARE] = 0;
	}

	e->part_max = 1.0; /* DEF_PART_MAX_PRIORITY */
	for (uint32_t i = 0; i < snap->partition_count; i++)
		if (snap->partitions[i].job_factor > e->part_max)
			e->part_max = snap->partitions[i].job_factor;
	for (uint32_t i = 0; i < snap->qos_count; i++)
		if (snap->qos[i].priority > e->qos_max)
			e->qos_max = snap->qos[i].priority;
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		if (snap->assocs[i].priority_eff > e->assoc_max)
			e->assoc_max = snap->assocs[i].priority_eff;
		e->partition_assocs |= snap->assocs[i].partition != PRIO_NO_ID;
	}
	e->nodes = snap->node_count;
	for (uint32_t i = 0; i < snap->node_count; i++)
		e->cluster_cpus += snap->nodes[i].cpus_efctv;
	for (uint32_t i = 0; i < snap->job_count; i++)
		if (snap->jobs[i].partition_count > e->max_job_partitions)
			e->max_job_partitions = snap->jobs[i].partition_count;
	if (e->max_job_partitions == 0)
		e->max_job_partitions = 1;

	if ((rc = setup_tres(e, err)) < 0)
		goto fail;
	e->fs_algorithm = prio_fs_algorithm_of(e->flags);
	/* The factors sprio shows: at the calculation `now` stands for, with
	 * Slurm's lag of classic account rows (prio_fairshare_slurm). */
	e->fs_setup.algorithm = e->fs_algorithm;
	e->fs_setup.cycle = now;
	e->fs_setup.flags = fs_flags;
	if (e->weight[PRIO_FACTOR_FAIRSHARE] && snap->assoc_count) {
		e->fs = calloc(snap->assoc_count, sizeof(*e->fs));
		if (!e->fs) {
			rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					    "out of memory");
			goto fail;
		}
		rc = prio_fairshare_slurm(snap, &e->fs_setup, e->fs, NULL,
					  err);
		if (rc < 0)
			goto fail;
	}
	if ((rc = setup_assocs(e, err)) < 0)
		goto fail;
	return PRIO_OK;
fail:
	prio_engine_free(e);
	return rc;
}

int prio_engine_move(struct prio_engine *e, time_t now,
		     struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t n = snap->assoc_count;
	struct prio_fs_setup setup = e->fs_setup;
	struct prio_fs_result *fs = NULL, *old_fs = e->fs;
	struct prio_assoc_factors *af = NULL;
	int rc;

	setup.cycle = now;
	if (n && (!(af = malloc((size_t)n * sizeof(*af))) ||
		  (e->fs && !(fs = calloc(n, sizeof(*fs)))))) {
		free(af);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	if (fs && (rc = prio_fairshare_slurm(snap, &setup, fs, NULL, err)) <
		      0) {
		free(af);
		free(fs);
		return rc;
	}
	e->now = now;
	e->fs_setup = setup;
	if (fs)
		e->fs = fs;
	for (uint32_t i = 0; i < n; i++) {
		af[i].assoc = assoc_factor(e, i);
		af[i].fairshare = fairshare_factor(e, i);
	}
	if (n) {
		free(e->assoc_factors);
		e->assoc_factors = af;
	}
	if (fs)
		free(old_fs);
	return PRIO_OK;
}

void prio_engine_free(struct prio_engine *e)
{
	if (!e)
		return;
	free(e->fs);
	free(e->tres);
	free(e->tres_weight);
	free(e->assoc_factors);
	free(e->user_assoc);
	e->assoc_factors = NULL;
	e->user_assoc = NULL;
	e->fs = NULL;
	e->tres = NULL;
	e->tres_weight = NULL;
	e->tres_count = 0;
}

double prio_weighted(const struct prio_engine *e, enum prio_factor f,
		     double factor)
{
	if ((unsigned)f >= PRIO_FACTOR_COUNT)
		return 0.0;
	return factor * (double)e->weight[f];
}

/* ---- which jobs ---------------------------------------------------------- */

static bool flag(const struct prio_engine *e, uint32_t bit)
{
	return (e->flags & bit) != 0;
}

/* The begin time sprio's filter looks at. */
static time_t listed_since(const struct prio_engine *e,
			   const struct prio_job *job)
{
	return flag(e, PRIO_FLAG_ACCRUE_ALWAYS) ? job->submit_time
						 : job->eligible_time;
}

const char *prio_job_unlisted_reason(const struct prio_engine *e,
				     const struct prio_job *job)
{
	time_t since = listed_since(e, job);

	if (job->partition_count == 0)
		return "no partition";
	if (job->state == PRIO_JOB_REVOKED)
		return "revoked";
	if (!prio_job_state_pending(job->state) &&
	    !flag(e, PRIO_FLAG_CALCULATE_RUNNING))
		return "not pending (PriorityFlags has no CALCULATE_RUNNING)";
	if (job->priority == 0)
		return "held (priority 0)";
	if (since == 0)
		return job->dependency != PRIO_NO_ID
			   ? "not eligible yet (unsatisfied dependency)"
			   : "not eligible yet (no begin time)";
	/* Which jobs exist is the capture's question even when the factors
	 * are computed at Slurm's last calculation before it (calc_time.h):
	 * sprio lists a job that became eligible since, with the factors
	 * stored at its submission. */
	if (since > (e->now > e->captured ? e->now : e->captured))
		return "not eligible yet (begin time in the future)";
	return NULL;
}

bool prio_job_listed(const struct prio_engine *e, const struct prio_job *job)
{
	return prio_job_unlisted_reason(e, job) == NULL;
}

time_t prio_job_accrue_time(const struct prio_engine *e,
			    const struct prio_job *job)
{
	if (flag(e, PRIO_FLAG_ACCRUE_ALWAYS))
		return job->submit_time;
	if (job->accrue_time)
		return job->accrue_time;
	/* Waiting for its begin time at the capture, eligible by now: with
	 * no accrue limit Slurm backdates accrual to the begin time. */
	if (prio_job_state_pending(job->state) && job->priority != 0 &&
	    job->eligible_time > e->captured && job->eligible_time <= e->now)
		return job->eligible_time;
	return 0;
}

uint32_t prio_job_partitions(const struct prio_engine *e,
			     const struct prio_job *job, uint32_t *out)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t n = 0;

	for (uint32_t k = 0; k < job->partition_count; k++) {
		const struct prio_partition *p =
		    prio_snapshot_partition(snap, job->partitions[k]);

		if (!p)
			continue;
		uint32_t idx = (uint32_t)(p - snap->partitions), j = n;

		/* insertion keeps the listed order among equal tiers */
		while (j > 0 && snap->partitions[out[j - 1]].tier < p->tier) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = idx;
		n++;
	}
	return n;
}

/* ---- factors ------------------------------------------------------------- */

static double clamp01(double v)
{
	if (!(v >= 0.0)) /* NaN too */
		return 0.0;
	return v > 1.0 ? 1.0 : v;
}

double prio_age_factor_at(const struct prio_engine *e, time_t accrue,
			  time_t at)
{
	uint32_t max_age = e->snap->conf.max_age;
	uint32_t diff;

	if (!accrue)
		return 0.0;
	/* Slurm keeps the difference in an unsigned 32-bit value. */
	diff = at > accrue ? (uint32_t)(at - accrue) : 0;
	if (diff < max_age)
		return (double)diff / (double)max_age;
	return 1.0;
}

static double age_factor(const struct prio_engine *e, time_t accrue)
{
	return prio_age_factor_at(e, accrue, e->now);
}

/* The CPU count job size uses: total_cpus for a job that has them, else the
 * requested maximum when there is one, else the minimum. */
static uint32_t job_size_cpus(const struct prio_job *job)
{
	if (!prio_job_state_pending(job->state) && job->num_cpus)
		return job->num_cpus;
	if (job->max_cpus && job->max_cpus != PRIO_NO_VAL)
		return job->max_cpus;
	return job->num_cpus;
}

static double job_size_factor(const struct prio_engine *e,
			      const struct prio_job *job, uint32_t partition)
{
	uint32_t n = e->nodes;
	uint32_t c = e->cluster_cpus > UINT32_MAX ? UINT32_MAX
						   : (uint32_t)e->cluster_cpus;
	uint32_t min_nodes = job->min_nodes;
	uint32_t cpus = job_size_cpus(job);
	bool small = e->snap->conf.favor_small;
	double js;

	if (n == 0 || c == 0)
		return 0.0; /* no cluster to compare with */
	if (flag(e, PRIO_FLAG_SIZE_RELATIVE)) {
		double size = (double)min_nodes * (double)c / (double)n;
		double tl = 1.0;

		if ((double)cpus > size)
			size = (double)cpus;
		if (job->time_limit != PRIO_NO_VAL)
			tl = (double)job->time_limit;
		else if (partition < e->snap->partition_count)
			tl = (double)e->snap->partitions[partition].max_time;
		js = size / tl / (double)c;
		if (small)
			js = 1.0 - js;
		return clamp01(js);
	}
	if (small) {
		/* unsigned subtraction: a request above the cluster wraps */
		js = (double)(uint32_t)(n - min_nodes) / (double)n;
		if (cpus)
			js = (js + (double)(uint32_t)(c - cpus) / (double)c) /
			     2.0;
	} else {
		js = (double)min_nodes / (double)n;
		if (cpus)
			js = (js + (double)cpus / (double)c) / 2.0;
	}
	return clamp01(js);
}

static double partition_factor(const struct prio_engine *e,
			       uint32_t partition)
{
	uint16_t jf;

	if (partition >= e->snap->partition_count || !e->weight[PRIO_FACTOR_PARTITION])
		return 0.0;
	jf = e->snap->partitions[partition].job_factor;
	if (!jf)
		return 0.0;
	if (flag(e, PRIO_FLAG_NO_NORMAL_PART))
		return (double)jf;
	return (double)jf / e->part_max;
}

static double qos_factor(const struct prio_engine *e, prio_id qos)
{
	const struct prio_qos *q;

	if (!e->weight[PRIO_FACTOR_QOS] || qos == PRIO_NO_ID)
		return 0.0;
	q = prio_snapshot_qos(e->snap, qos);
	if (!q || !q->priority)
		return 0.0;
	if (flag(e, PRIO_FLAG_NO_NORMAL_QOS))
		return (double)q->priority;
	return e->qos_max > 0 ? (double)q->priority / e->qos_max : 0.0;
}

static double assoc_factor(const struct prio_engine *e, uint32_t assoc)
{
	uint32_t prio;

	if (!e->weight[PRIO_FACTOR_ASSOC] || assoc == PRIO_ASSOC_NONE)
		return 0.0;
	prio = e->snap->assocs[assoc].priority_eff;
	if (flag(e, PRIO_FLAG_NO_NORMAL_ASSOC))
		return (double)prio;
	return e->assoc_max > 0 ? (double)prio / e->assoc_max : 0.0;
}

static double fairshare_factor(const struct prio_engine *e, uint32_t assoc)
{
	double f;

	if (!e->weight[PRIO_FACTOR_FAIRSHARE] || !e->fs ||
	    assoc == PRIO_ASSOC_NONE)
		return 0.0;
	f = e->fs[assoc].fairshare;
	return isnan(f) ? 0.0 : f;
}

void prio_job_factors(const struct prio_engine *e, const struct prio_job *job,
		      struct prio_job_factors *jf)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t first = PRIO_NO_VAL;

	memset(jf, 0, sizeof(*jf));
	/* Slurm computes these with the job's part_ptr; for a job listing
	 * several partitions, the first listed one stands for it. */
	if (job->partition_count) {
		const struct prio_partition *p =
		    prio_snapshot_partition(snap, job->partitions[0]);
		if (p)
			first = (uint32_t)(p - snap->partitions);
	}
	/* Without partition associations one lookup does (most sites). */
	if (!snap->assoc_count || job->user == PRIO_NO_ID)
		jf->assoc_index = PRIO_ASSOC_NONE;
	else if (!e->partition_assocs)
		jf->assoc_index = job_assoc_fast(e, job);
	else
		jf->assoc_index = prio_snapshot_job_assoc(
		    snap, job,
		    job->partition_count ? job->partitions[0] : PRIO_NO_ID);
	jf->accrue_time = prio_job_accrue_time(e, job);
	jf->cpus = job_size_cpus(job);
	if (e->weight[PRIO_FACTOR_AGE])
		jf->age = age_factor(e, jf->accrue_time);
	if (e->weight[PRIO_FACTOR_JOBSIZE])
		jf->jobsize = job_size_factor(e, job, first);
	/* Several QOS (24.11): each scheduler pass points the job's qos_ptr
	 * at every QOS in turn (job_scheduler.c _build_job_queue_for_qos), so
	 * the job's own priority is that of the last, the lowest.  Seen in
	 * tests/oracle/slurm-24.11-multi-qos: --qos low,high stores
	 * Priority=4301, sprio's low row. */
	jf->qos =
	    qos_factor(e, prio_job_qos_at(job, prio_job_qos_count(job) - 1));
	if (jf->assoc_index != PRIO_ASSOC_NONE) {
		jf->assoc = e->assoc_factors[jf->assoc_index].assoc;
		jf->fairshare = e->assoc_factors[jf->assoc_index].fairshare;
	}
	jf->nice = job->nice;
	jf->site = 0; /* site_factor/none: Slurm 22.05 sets nothing */
}

uint64_t prio_job_tres_count(const struct prio_job *job, uint32_t tres)
{
	const struct prio_tres_list *l =
	    job->tres_alloc.count ? &job->tres_alloc : &job->tres_req;
	uint64_t v = prio_tres_list_get(l, tres, 0);

	return v == PRIO_NO_VAL64 - 1 ? 0 : v; /* NO_CONSUME_VAL64 */
}

/* The unweighted factor of the engine's k-th TRES for a job in partition p
 * (NULL: none). */
static double tres_factor(const struct prio_engine *e,
			  const struct prio_job *job,
			  const struct prio_partition *p, uint32_t k)
{
	uint32_t t = e->tres[k];
	uint64_t v = prio_job_tres_count(job, t);
	uint64_t total =
	    p && p->tres_total && t < p->tres_count ? p->tres_total[t] : 0;

	if (flag(e, PRIO_FLAG_NO_NORMAL_TRES))
		return (double)v;
	if (v && total)
		return (double)v / (double)total;
	return 0.0;
}

static const struct prio_partition *partition_at(const struct prio_engine *e,
						 uint32_t partition)
{
	return partition < e->snap->partition_count
		   ? &e->snap->partitions[partition]
		   : NULL;
}

void prio_row_tres(const struct prio_engine *e, const struct prio_job *job,
		   uint32_t partition, double *factor)
{
	const struct prio_partition *p = partition_at(e, partition);

	for (uint32_t k = 0; k < e->tres_count; k++)
		factor[k] = tres_factor(e, job, p, k);
}

void prio_row_compute(const struct prio_engine *e, const struct prio_job *job,
		      const struct prio_job_factors *jf, uint32_t partition,
		      struct prio_row *row)
{
	prio_row_compute_kept(e, job, jf, partition, NULL, false, row);
}

void prio_row_compute_kept(const struct prio_engine *e,
			   const struct prio_job *job,
			   const struct prio_job_factors *jf,
			   uint32_t partition, double *tres, bool reuse,
			   struct prio_row *row)
{
	const struct prio_partition *p = partition_at(e, partition);
	double age = prio_weighted(e, PRIO_FACTOR_AGE, jf->age);
	double assoc = prio_weighted(e, PRIO_FACTOR_ASSOC, jf->assoc);
	double fs = prio_weighted(e, PRIO_FACTOR_FAIRSHARE, jf->fairshare);
	double js = prio_weighted(e, PRIO_FACTOR_JOBSIZE, jf->jobsize);
	double qos = prio_weighted(e, PRIO_FACTOR_QOS, jf->qos);
	double site = (double)jf->site, nice = (double)jf->nice;
	double part, tres_sum = 0.0, sum, prio;

	memset(row, 0, sizeof(*row));
	row->partition = partition;
	row->partition_factor = partition_factor(e, partition);
	part = prio_weighted(e, PRIO_FACTOR_PARTITION, row->partition_factor);

	/* sprio (client side): factors, then site and nice, then each TRES */
	sum = age + assoc + fs + js + part + qos + site - nice;
	for (uint32_t k = 0; k < e->tres_count; k++) {
		double w = tres && reuse ? tres[k]
					 : tres_factor(e, job, p, k) *
					       e->tres_weight[k];

		if (tres && !reuse)
			tres[k] = w;

		tres_sum += w;
		sum += w;
	}
	row->tres_sum = tres_sum;
	row->sum = sum < 1.0 ? 1.0 : sum;

	/* The controller: a multi-partition job's array slots add the
	 * partition term first; a single partition adds it in turn. */
	if (job->partition_count > 1 || jf->multi_qos)
		prio = part + age + assoc + fs + js + qos + tres_sum + site -
		       nice;
	else
		prio = age + assoc + fs + js + part + qos + tres_sum + site -
		       nice;
	if (prio < 1.0)
		prio = 1.0;
	/* truncated to 64 bits first, then clamped to 32 */
	if (prio >= 4294967296.0) {
		row->clamped = true;
		row->priority = UINT32_MAX;
	} else {
		row->priority = (uint32_t)prio;
	}
	if (flag(e, PRIO_FLAG_INCR_ONLY) && job->priority > row->priority)
		row->priority = job->priority;
}

static uint32_t qos_priority_or_zero(const struct prio_snapshot *snap,
				     prio_id id, bool *known)
{
	const struct prio_qos *q = prio_snapshot_qos(snap, id);

	*known = q != NULL;
	return q ? q->priority : 0;
}

uint32_t prio_qos_sort_desc(const struct prio_snapshot *snap, prio_id *ids,
			    uint32_t n)
{
	uint32_t kept = 0;

	/* A handful of QOS per job: insertion sort, stable. */
	for (uint32_t i = 0; i < n; i++) {
		prio_id id = ids[i];
		bool known, other_known, repeat = false;
		uint32_t prio = qos_priority_or_zero(snap, id, &known), j;

		for (j = 0; j < kept && !repeat; j++)
			repeat = ids[j] == id;
		if (repeat)
			continue;
		j = kept;
		while (j > 0) {
			uint32_t before =
			    qos_priority_or_zero(snap, ids[j - 1], &other_known);

			if (!(known && (!other_known || before < prio)))
				break;
			ids[j] = ids[j - 1];
			j--;
		}
		ids[j] = id;
		kept++;
	}
	return kept;
}

void prio_job_factors_qos(const struct prio_engine *e,
			  const struct prio_job_factors *jf, prio_id qos,
			  struct prio_job_factors *out)
{
	double f = qos_factor(e, qos);

	*out = *jf;
	out->multi_qos = true;
	/* a QOS of Priority 0 leaves the job's own QOS term in place */
	if (f != 0.0)
		out->qos = f;
}

prio_id prio_job_factors_at(const struct prio_engine *e,
			    const struct prio_job *job,
			    const struct prio_job_factors *jf, uint32_t k,
			    struct prio_job_factors *out)
{
	prio_id qos = prio_job_qos_at(job, k);

	if (prio_job_qos_list(job))
		prio_job_factors_qos(e, jf, qos, out);
	else
		*out = *jf;
	return qos;
}

/* Job ids are mostly consecutive, sometimes strided (array and
 * heterogeneous jobs, federation origins in the high bits): a full
 * avalanche (murmur3's finaliser) spreads every pattern over the low
 * bits the mask keeps. */
static uint32_t job_hash(uint32_t job_id, uint32_t mask)
{
	uint32_t h = job_id;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h & mask;
}

int prio_snapshot_index_jobs(struct prio_snapshot *snap)
{
	uint32_t size = 64;

	free(snap->job_slots);
	snap->job_slots = NULL;
	snap->job_index_base = NULL;
	snap->job_index_count = 0;
	/* load factor under one half */
	while (size / 2 <= snap->job_count) {
		if (size > UINT32_MAX / 4)
			return -1;
		size *= 2;
	}
	snap->job_slots = calloc(size, sizeof(uint32_t));
	if (!snap->job_slots)
		return -1;
	snap->job_slot_mask = size - 1;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		uint32_t s = job_hash(snap->jobs[i].job_id, size - 1);

		while (snap->job_slots[s] &&
		       snap->jobs[snap->job_slots[s] - 1].job_id !=
			   snap->jobs[i].job_id)
			s = (s + 1) & (size - 1);
		if (!snap->job_slots[s])
			snap->job_slots[s] = i + 1;
	}
	snap->job_index_base = snap->jobs;
	snap->job_index_count = snap->job_count;
	return 0;
}

const struct prio_job *prio_snapshot_find_job(const struct prio_snapshot *snap,
					      uint32_t job_id)
{
	if (snap->job_slots && snap->job_index_base == snap->jobs &&
	    snap->job_index_count == snap->job_count) {
		uint32_t s = job_hash(job_id, snap->job_slot_mask);

		while (snap->job_slots[s]) {
			const struct prio_job *j =
			    &snap->jobs[snap->job_slots[s] - 1];

			if (j->job_id == job_id)
				return j;
			s = (s + 1) & snap->job_slot_mask;
		}
		return NULL;
	}
	for (uint32_t i = 0; i < snap->job_count; i++)
		if (snap->jobs[i].job_id == job_id)
			return &snap->jobs[i];
	return NULL;
}
