/* SPDX-License-Identifier: MIT */
/*
 * The association and QOS limits in the forecast (forecast_limits.h).
 *
 * slurmctld asks acct_policy, before it starts a job (main scheduler and
 * backfill alike), whether the running jobs leave room for it: QOS GrpJobs
 * (all the QOS's jobs), MaxJobsPU and MaxJobsPA (the user's, the
 * account's in that QOS), GrpTRES, MaxTRESPU and MaxTRESPA (the same, in
 * TRES: what runs plus what the job asks must not pass the limit); then
 * the association's: GrpJobs and GrpTRES at the job's association and at
 * every account above it (each over its subtree), MaxJobs at the job's
 * association only (slurmdbd hands an account's MaxJobs down to the
 * associations below that set none).  A QOS limit of a kind overrides the
 * associations' of that kind (GrpJobs for GrpJobs, MaxJobsPU or PA for
 * MaxJobs, each TRES of GrpTRES for that TRES).  A partition's QOS counts
 * the jobs of its partition and applies as well: its limits first, unless
 * the job's QOS has OverPartQOS; the second QOS applies only the kinds the
 * first leaves unset.  A job that does not pass
 * is skipped: it neither starts nor reserves nodes, and the scheduler goes
 * on with the next job of its partition.
 *
 * Only AccountingStorageEnforce with limits (or safe, which implies them)
 * enforces any of this.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "forecast_limits.h"
#include "prio/acct_limits.h"
#include "prio/assoc.h"
#include "prio/qos.h"
#include "prio/timestr.h"

#define NONE UINT32_MAX

struct lim_qos {
	const struct prio_limits *l; /* NULL: nothing to count */
	uint32_t jobs;
	int64_t *tres;               /* [nt] */
	uint32_t *pu_jobs, *pa_jobs; /* [nids] when the limit is set */
	int64_t *pu_tres, *pa_tres;  /* [nids * nt] when set */
};

struct lim_assoc {
	uint32_t grp_jobs, max_jobs; /* max_jobs: own, else inherited */
	const struct prio_tres_list *grp_tres; /* NULL: none */
	const char *unmodelled;      /* own, else an ancestor's */
	uint32_t jobs;               /* running in its subtree */
	int64_t *tres;               /* [nt], over its subtree */
};

struct fc_limits {
	const struct prio_snapshot *snap;
	uint32_t nt;        /* TRES named by some limit */
	uint32_t *slot_of;  /* TRES id -> 1 + slot; 0: in no limit */
	uint32_t ntres;     /* size of slot_of */
	uint32_t nids;      /* string ids (users, accounts) */
	struct lim_qos *qos;
	struct lim_assoc *assoc;
	int64_t *job;       /* scratch [nt]: a job's TRES */
	char why[256];
};

static bool enforced(const struct prio_snapshot *snap)
{
	const char *e = snap->conf.accounting_storage_enforce;

	if (!e)
		return false;
	for (const char *p = e; *p;) {
		size_t n = strcspn(p, ",");

		if ((n == 6 && !strncasecmp(p, "limits", 6)) ||
		    (n == 4 && !strncasecmp(p, "safe", 4)))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static void add_slots(struct fc_limits *fl, const struct prio_tres_list *l)
{
	for (uint32_t i = 0; i < l->count; i++)
		if (l->items[i].tres < fl->ntres && !fl->slot_of[l->items[i].tres])
			fl->slot_of[l->items[i].tres] = ++fl->nt;
}

void fc_limits_free(struct fc_limits *fl)
{
	if (!fl)
		return;
	if (fl->qos)
		for (uint32_t q = 0; q < fl->snap->qos_count; q++) {
			free(fl->qos[q].tres);
			free(fl->qos[q].pu_jobs);
			free(fl->qos[q].pa_jobs);
			free(fl->qos[q].pu_tres);
			free(fl->qos[q].pa_tres);
		}
	if (fl->assoc)
		for (uint32_t a = 0; a < fl->snap->assoc_count; a++)
			free(fl->assoc[a].tres);
	free(fl->qos);
	free(fl->assoc);
	free(fl->slot_of);
	free(fl->job);
	free(fl);
}

static int nomem(struct fc_limits *fl, struct prio_error *err)
{
	fc_limits_free(fl);
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
			      "out of memory");
}

int fc_limits_new(const struct prio_snapshot *snap, struct fc_limits **out,
		  struct prio_error *err)
{
	struct fc_limits *fl;
	bool any = false;

	*out = NULL;
	if (!enforced(snap))
		return 0;
	for (uint32_t q = 0; q < snap->qos_count && !any; q++)
		any = snap->qos[q].limits != NULL;
	for (uint32_t a = 0; a < snap->assoc_count && !any; a++)
		any = snap->assocs[a].limits != NULL;
	if (!any)
		return 0;
	if (!(fl = calloc(1, sizeof(*fl))))
		return nomem(NULL, err);
	fl->snap = snap;
	fl->ntres = snap->tres.count;
	fl->nids = snap->strings.count + 1;
	fl->slot_of = calloc(fl->ntres + 1, sizeof(*fl->slot_of));
	fl->qos = calloc(snap->qos_count + 1, sizeof(*fl->qos));
	fl->assoc = calloc(snap->assoc_count + 1, sizeof(*fl->assoc));
	if (!fl->slot_of || !fl->qos || !fl->assoc)
		return nomem(fl, err);
	for (uint32_t q = 0; q < snap->qos_count; q++) {
		const struct prio_limits *l = snap->qos[q].limits;

		if (!l)
			continue;
		add_slots(fl, &l->grp_tres);
		add_slots(fl, &l->max_tres_pu);
		add_slots(fl, &l->max_tres_pa);
	}
	for (uint32_t a = 0; a < snap->assoc_count; a++)
		if (snap->assocs[a].limits)
			add_slots(fl, &snap->assocs[a].limits->grp_tres);
	fl->job = calloc(fl->nt + 1, sizeof(*fl->job));
	if (!fl->job)
		return nomem(fl, err);
	for (uint32_t q = 0; q < snap->qos_count; q++) {
		struct lim_qos *lq = &fl->qos[q];
		const struct prio_limits *l = snap->qos[q].limits;

		if (!l || !prio_limits_any(l)) {
			/* only a limit the forecast leaves out: said */
			lq->l = l;
			continue;
		}
		lq->l = l;
		lq->tres = calloc(fl->nt + 1, sizeof(*lq->tres));
		if (!lq->tres)
			return nomem(fl, err);
		if (l->max_jobs_pu != PRIO_NO_VAL &&
		    !(lq->pu_jobs = calloc(fl->nids, sizeof(*lq->pu_jobs))))
			return nomem(fl, err);
		if (l->max_jobs_pa != PRIO_NO_VAL &&
		    !(lq->pa_jobs = calloc(fl->nids, sizeof(*lq->pa_jobs))))
			return nomem(fl, err);
		if (l->max_tres_pu.count &&
		    !(lq->pu_tres = calloc((size_t)fl->nids * (fl->nt + 1),
					   sizeof(*lq->pu_tres))))
			return nomem(fl, err);
		if (l->max_tres_pa.count &&
		    !(lq->pa_tres = calloc((size_t)fl->nids * (fl->nt + 1),
					   sizeof(*lq->pa_tres))))
			return nomem(fl, err);
	}
	for (uint32_t a = 0; a < snap->assoc_count; a++) {
		const struct prio_limits *l = snap->assocs[a].limits;
		struct lim_assoc *la = &fl->assoc[a];

		la->grp_jobs = l ? l->grp_jobs : PRIO_NO_VAL;
		la->grp_tres = l && l->grp_tres.count ? &l->grp_tres : NULL;
		/* MaxJobs and what is not modelled: its own, else the
		 * nearest ancestor's (a dump may define a child before its
		 * parent: the chain is walked, not the order trusted) */
		la->max_jobs = PRIO_NO_VAL;
		for (uint32_t u = a, d = 0;
		     u < snap->assoc_count && d <= PRIO_ASSOC_MAX_DEPTH &&
		     (la->max_jobs == PRIO_NO_VAL || !la->unmodelled);
		     u = snap->assocs[u].parent, d++) {
			const struct prio_limits *ul = snap->assocs[u].limits;

			if (!ul)
				continue;
			if (la->max_jobs == PRIO_NO_VAL)
				la->max_jobs = ul->max_jobs;
			if (!la->unmodelled)
				la->unmodelled = ul->unmodelled;
		}
		la->tres = calloc(fl->nt + 1, sizeof(*la->tres));
		if (!la->tres)
			return nomem(fl, err);
	}
	*out = fl;
	return 0;
}

struct fc_lim_key fc_limits_key(const struct prio_snapshot *snap,
				const struct prio_job *job, prio_id partition,
				prio_id qos)
{
	struct fc_lim_key k = {NONE, {NONE, NONE}, job->user, job->account};
	const struct prio_qos *q =
	    qos != PRIO_NO_ID ? prio_snapshot_qos(snap, qos) : NULL;
	const struct prio_partition *pt =
	    partition != PRIO_NO_ID ? prio_snapshot_partition(snap, partition)
				    : NULL;
	const struct prio_qos *pq = pt && pt->qos != PRIO_NO_ID
					? prio_snapshot_qos(snap, pt->qos)
					: NULL;
	uint32_t a = prio_snapshot_job_assoc(snap, job, partition);

	if (pq == q)
		pq = NULL;
	if (pq && !(q && (q->flags & PRIO_QOS_FLAG_OVER_PART_QOS))) {
		k.qos[0] = (uint32_t)(pq - snap->qos);
		k.qos[1] = q ? (uint32_t)(q - snap->qos) : NONE;
	} else {
		k.qos[0] = q ? (uint32_t)(q - snap->qos) : NONE;
		k.qos[1] = pq ? (uint32_t)(pq - snap->qos) : NONE;
	}
	if (a != PRIO_ASSOC_NONE)
		k.assoc = a;
	return k;
}

/* The job's TRES in fl->job (running: what it holds; else what it asks). */
static void job_tres(struct fc_limits *fl, const struct prio_job *job)
{
	const struct prio_tres_list *l =
	    job->tres_alloc.count ? &job->tres_alloc : &job->tres_req;

	memset(fl->job, 0, (fl->nt + 1) * sizeof(*fl->job));
	for (uint32_t i = 0; i < l->count; i++) {
		uint32_t t = l->items[i].tres;

		if (t < fl->ntres && fl->slot_of[t])
			fl->job[fl->slot_of[t]] += (int64_t)l->items[i].count;
	}
}

static void add_vec(int64_t *to, const int64_t *v, uint32_t nt, int sign)
{
	for (uint32_t k = 1; k <= nt; k++)
		to[k] += sign * v[k];
}

void fc_limits_charge(struct fc_limits *fl, const struct fc_lim_key *k,
		      const struct prio_job *job, int sign)
{
	job_tres(fl, job);
	for (int i = 0; i < 2; i++) {
		struct lim_qos *q;

		if (k->qos[i] == NONE || !fl->qos[k->qos[i]].tres)
			continue;
		q = &fl->qos[k->qos[i]];
		q->jobs += (uint32_t)sign;
		add_vec(q->tres, fl->job, fl->nt, sign);
		if (q->pu_jobs && k->user < fl->nids)
			q->pu_jobs[k->user] += (uint32_t)sign;
		if (q->pa_jobs && k->account < fl->nids)
			q->pa_jobs[k->account] += (uint32_t)sign;
		if (q->pu_tres && k->user < fl->nids)
			add_vec(q->pu_tres + (size_t)k->user * (fl->nt + 1),
				fl->job, fl->nt, sign);
		if (q->pa_tres && k->account < fl->nids)
			add_vec(q->pa_tres + (size_t)k->account * (fl->nt + 1),
				fl->job, fl->nt, sign);
	}
	for (uint32_t a = k->assoc; a != NONE && a < fl->snap->assoc_count;
	     a = fl->snap->assocs[a].parent) {
		fl->assoc[a].jobs += (uint32_t)sign;
		add_vec(fl->assoc[a].tres, fl->job, fl->nt, sign);
	}
}

/* Does lim name tres? */
static bool list_has(const struct prio_tres_list *lim, uint32_t tres)
{
	for (uint32_t i = 0; i < lim->count; i++)
		if (lim->items[i].tres == tres)
			return true;
	return false;
}

/* The first TRES of lim that used + the job's would pass, skipping those
 * `over` (the first QOS's list of that kind, or NULL) names: its position
 * in lim, or NONE. */
static uint32_t tres_over(const struct fc_limits *fl,
			  const struct prio_tres_list *lim, const int64_t *used,
			  const struct prio_tres_list *over)
{
	for (uint32_t i = 0; i < lim->count; i++) {
		uint32_t t = lim->items[i].tres, s;

		if (t >= fl->ntres || !(s = fl->slot_of[t]) ||
		    (over && list_has(over, t)))
			continue;
		if (used[s] + fl->job[s] > (int64_t)lim->items[i].count)
			return i;
	}
	return NONE;
}

static const char *say_count(struct fc_limits *fl, const char *who,
			     const char *what, uint32_t limit)
{
	snprintf(fl->why, sizeof(fl->why), "%s %s=%u", who, what, limit);
	return fl->why;
}

static const char *say_tres(struct fc_limits *fl, const char *who,
			    const char *what, const struct prio_tres_list *lim,
			    uint32_t i)
{
	snprintf(fl->why, sizeof(fl->why), "%s %s %s=%llu", who, what,
		 fl->snap->tres.names[lim->items[i].tres],
		 (unsigned long long)lim->items[i].count);
	return fl->why;
}

static const char *assoc_name(const struct fc_limits *fl, uint32_t a,
			      char *buf, size_t n)
{
	const struct prio_assoc *as = &fl->snap->assocs[a];

	if (as->user != PRIO_NO_ID)
		snprintf(buf, n, "association %s/%s",
			 prio_snapshot_str(fl->snap, as->account),
			 prio_snapshot_str(fl->snap, as->user));
	else
		snprintf(buf, n, "account %s",
			 prio_snapshot_str(fl->snap, as->account));
	return buf;
}

/* A count limit of q that holds: set, and not left to the first QOS. */
#define COUNT_HOLDS(field, used)                                               \
	(l->field != PRIO_NO_VAL && (!first || first->field == PRIO_NO_VAL) &&  \
	 (used) >= l->field)

/* QOS k->qos[i]'s limits against the job (the second QOS only for the
 * kinds the first leaves unset). */
static const char *qos_block(struct fc_limits *fl, const struct fc_lim_key *k,
			     int i)
{
	const struct lim_qos *q = &fl->qos[k->qos[i]];
	const struct prio_limits *l = q->l,
				 *first = i && k->qos[0] != NONE
					      ? fl->qos[k->qos[0]].l
					      : NULL;
	char who[160];
	uint32_t t;

	snprintf(who, sizeof(who), "QOS %s",
		 prio_snapshot_str(fl->snap, fl->snap->qos[k->qos[i]].name));
	if (COUNT_HOLDS(grp_jobs, q->jobs))
		return say_count(fl, who, "GrpJobs", l->grp_jobs);
	if (q->pu_jobs && k->user < fl->nids &&
	    COUNT_HOLDS(max_jobs_pu, q->pu_jobs[k->user]))
		return say_count(fl, who, "MaxJobsPU", l->max_jobs_pu);
	if (q->pa_jobs && k->account < fl->nids &&
	    COUNT_HOLDS(max_jobs_pa, q->pa_jobs[k->account]))
		return say_count(fl, who, "MaxJobsPA", l->max_jobs_pa);
	if ((t = tres_over(fl, &l->grp_tres, q->tres,
			   first ? &first->grp_tres : NULL)) != NONE)
		return say_tres(fl, who, "GrpTRES", &l->grp_tres, t);
	if (q->pu_tres && k->user < fl->nids &&
	    (t = tres_over(fl, &l->max_tres_pu,
			   q->pu_tres + (size_t)k->user * (fl->nt + 1),
			   first ? &first->max_tres_pu : NULL)) != NONE)
		return say_tres(fl, who, "MaxTRESPU", &l->max_tres_pu, t);
	if (q->pa_tres && k->account < fl->nids &&
	    (t = tres_over(fl, &l->max_tres_pa,
			   q->pa_tres + (size_t)k->account * (fl->nt + 1),
			   first ? &first->max_tres_pa : NULL)) != NONE)
		return say_tres(fl, who, "MaxTRESPA", &l->max_tres_pa, t);
	return NULL;
}

#undef COUNT_HOLDS

/* Does either of the job's QOS set that count (an offset into struct
 * prio_limits), or name tres in its GrpTRES? */
static bool qos_sets(const struct fc_limits *fl, const struct fc_lim_key *k,
		     size_t count_off, uint32_t tres)
{
	for (int i = 0; i < 2; i++) {
		const struct prio_limits *l =
		    k->qos[i] != NONE ? fl->qos[k->qos[i]].l : NULL;

		if (!l)
			continue;
		if (tres != NONE ? list_has(&l->grp_tres, tres)
				 : *(const uint32_t *)((const char *)l +
						       count_off) != PRIO_NO_VAL)
			return true;
	}
	return false;
}

const char *fc_limits_block(struct fc_limits *fl, const struct fc_lim_key *k,
			    const struct prio_job *job)
{
	const char *why;
	char who[160];
	bool q_grp_jobs = qos_sets(fl, k, offsetof(struct prio_limits, grp_jobs),
				   NONE),
	     q_max_jobs =
		 qos_sets(fl, k, offsetof(struct prio_limits, max_jobs_pu),
			  NONE) ||
		 qos_sets(fl, k, offsetof(struct prio_limits, max_jobs_pa), NONE);

	job_tres(fl, job);
	for (int i = 0; i < 2; i++)
		if (k->qos[i] != NONE && fl->qos[k->qos[i]].tres &&
		    (why = qos_block(fl, k, i)))
			return why;
	for (uint32_t a = k->assoc; a != NONE && a < fl->snap->assoc_count;
	     a = fl->snap->assocs[a].parent) {
		const struct lim_assoc *la = &fl->assoc[a];

		if (!q_grp_jobs && la->grp_jobs != PRIO_NO_VAL &&
		    la->jobs >= la->grp_jobs)
			return say_count(fl, assoc_name(fl, a, who, sizeof(who)),
					 "GrpJobs", la->grp_jobs);
		if (a == k->assoc && !q_max_jobs &&
		    la->max_jobs != PRIO_NO_VAL && la->jobs >= la->max_jobs)
			return say_count(fl, assoc_name(fl, a, who, sizeof(who)),
					 "MaxJobs", la->max_jobs);
		if (!la->grp_tres)
			continue;
		for (uint32_t i = 0; i < la->grp_tres->count; i++) {
			uint32_t t = la->grp_tres->items[i].tres, s;

			if (t >= fl->ntres || !(s = fl->slot_of[t]) ||
			    qos_sets(fl, k, 0, t))
				continue;
			if (la->tres[s] + fl->job[s] >
			    (int64_t)la->grp_tres->items[i].count)
				return say_tres(
				    fl, assoc_name(fl, a, who, sizeof(who)),
				    "GrpTRES", la->grp_tres, i);
		}
	}
	return NULL;
}

const char *fc_limits_unmodelled(struct fc_limits *fl,
				 const struct fc_lim_key *k)
{
	for (int i = 0; i < 2; i++) {
		const struct prio_limits *l =
		    k->qos[i] != NONE ? fl->qos[k->qos[i]].l : NULL;

		if (l && l->unmodelled) {
			snprintf(fl->why, sizeof(fl->why), "QOS %s %s",
				 prio_snapshot_str(fl->snap,
						   fl->snap->qos[k->qos[i]].name),
				 l->unmodelled);
			return fl->why;
		}
	}
	if (k->assoc != NONE && k->assoc < fl->snap->assoc_count &&
	    fl->assoc[k->assoc].unmodelled) {
		snprintf(fl->why, sizeof(fl->why), "an association's %s",
			 fl->assoc[k->assoc].unmodelled);
		return fl->why;
	}
	return NULL;
}
