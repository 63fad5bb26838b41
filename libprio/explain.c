/* SPDX-License-Identifier: MIT */
/*
 * --explain's numbers (see prio/explain.h).  Everything is computed with the
 * priority engine itself, so the explanation can never disagree with the
 * table: the terms are the engine's weighted factors and add up to its sum;
 * "what would change it" re-evaluates the engine's formula with one input
 * changed (the clock for age, the association's usage for fairshare, the
 * QOS or partition) and applies the scheduling order's comparison.
 *
 * Age: both jobs' age factors grow at the same rate until each reaches
 * PriorityMaxAge, so their difference only changes while one of them is
 * capped: it is monotone over time, and the earliest second that passes
 * the job ahead is found by bisection.  Fairshare: the usage of the job's
 * association (and with it its ancestors') is scaled by x in [0,1]; the
 * largest x that passes the job ahead is found by bisection, recomputing
 * the whole tree each time (Fair Tree ranks move for everybody).
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fairshare_tree.h"
#include "prio/advance.h"
#include "prio/explain.h"
#include "prio/timestr.h"

/* ---- Slurm's pending reasons --------------------------------------------- */

static const struct {
	const char *reason;
	const char *meaning;
} reasons[] = {
    {"Priority", "jobs of higher priority are ahead of it in the queue"},
    {"Resources", "it is next in line and waits for resources to be free"},
    {"Dependency", "it waits for a job it depends on"},
    {"DependencyNeverSatisfied",
     "a dependency cannot be satisfied any more: it will never start"},
    {"JobHeldUser", "held by its user (scontrol release to let it run)"},
    {"JobHeldAdmin", "held by an administrator"},
    {"BeginTime", "its begin time (--begin) has not come yet"},
    {"None", "the scheduler has not looked at it yet"},
    {"ReqNodeNotAvail", "a node it asked for is not available"},
    {"Nodes_required_for_job_are_DOWN",
     "nodes it needs are down, drained or reserved"},
    {"PartitionTimeLimit", "its time limit is above the partition's MaxTime"},
    {"PartitionNodeLimit", "its node count is outside the partition's limits"},
    {"PartitionDown", "its partition is down"},
    {"PartitionInactive", "its partition is inactive"},
    {"Reservation", "it waits for its reservation to start"},
    {"Licenses", "it waits for licenses"},
    {"BadConstraints", "its constraints cannot be satisfied"},
    {"InvalidQOS", "its QOS is not valid for it"},
    {"InvalidAccount", "its account is not valid for it"},
};

const char *prio_reason_meaning(const char *reason)
{
	if (!reason || !*reason)
		return NULL;
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (strcmp(reasons[i].reason, reason) == 0)
			return reasons[i].meaning;
	if (strncmp(reason, "AssocGrp", 8) == 0 ||
	    strncmp(reason, "AssocMax", 8) == 0)
		return "a limit of its association (or an account above it) "
		       "is reached";
	if (strncmp(reason, "QOSGrp", 6) == 0 ||
	    strncmp(reason, "QOSMax", 6) == 0)
		return "a limit of its QOS is reached";
	return NULL;
}

/* ---- terms --------------------------------------------------------------- */

static void add_term(struct prio_explain_terms *t, enum prio_factor f,
		     uint32_t tres, double value, double weight, double points)
{
	if (t->n == PRIO_EXPLAIN_MAX_TERMS)
		return;
	t->t[t->n++] = (struct prio_explain_term){f, tres, value, weight,
						  points};
	t->sum += points;
}

void prio_explain_terms_of(const struct prio_engine *e,
			   const struct prio_job *job,
			   const struct prio_job_factors *jf,
			   uint32_t partition, struct prio_explain_terms *t)
{
	static const enum prio_factor order[] = {
	    PRIO_FACTOR_AGE,	   PRIO_FACTOR_ASSOC,	  PRIO_FACTOR_FAIRSHARE,
	    PRIO_FACTOR_JOBSIZE, PRIO_FACTOR_PARTITION, PRIO_FACTOR_QOS,
	};
	double tf[PRIO_EXPLAIN_MAX_TERMS];

	memset(t, 0, sizeof(*t));
	prio_row_compute(e, job, jf, partition, &t->row);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		enum prio_factor f = order[k];
		double v = f == PRIO_FACTOR_AGE ? jf->age
			   : f == PRIO_FACTOR_ASSOC ? jf->assoc
			   : f == PRIO_FACTOR_FAIRSHARE ? jf->fairshare
			   : f == PRIO_FACTOR_JOBSIZE ? jf->jobsize
			   : f == PRIO_FACTOR_QOS ? jf->qos
						  : t->row.partition_factor;

		if (e->weight[f])
			add_term(t, f, PRIO_NO_VAL, v, e->weight[f],
				 prio_weighted(e, f, v));
	}
	if (jf->site)
		add_term(t, PRIO_FACTOR_SITE, PRIO_NO_VAL, (double)jf->site, 1,
			 (double)jf->site);
	add_term(t, PRIO_FACTOR_NICE, PRIO_NO_VAL, (double)jf->nice, -1,
		 jf->nice ? -(double)jf->nice : 0.0);
	if (e->tres_count && e->tres_count <= PRIO_EXPLAIN_MAX_TERMS) {
		prio_row_tres(e, job, partition, tf);
		for (uint32_t k = 0; k < e->tres_count; k++)
			add_term(t, PRIO_FACTOR_TRES, e->tres[k], tf[k],
				 e->tres_weight[k], tf[k] * e->tres_weight[k]);
	}
}

static const struct prio_explain_term *
find_term(const struct prio_explain_terms *t, enum prio_factor f,
	  uint32_t tres)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->t[i].factor == f && t->t[i].tres == tres)
			return &t->t[i];
	return NULL;
}

static int cmp_diff(const void *pa, const void *pb)
{
	const struct prio_explain_diff *a = pa, *b = pb;
	double x = fabs(a->points), y = fabs(b->points);

	return x > y ? -1 : x < y;
}

uint32_t prio_explain_diff_terms(const struct prio_explain_terms *mine,
				 const struct prio_explain_terms *theirs,
				 struct prio_explain_diff *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < mine->n; i++) {
		const struct prio_explain_term *m = &mine->t[i];
		const struct prio_explain_term *o =
		    find_term(theirs, m->factor, m->tres);
		double d = m->points - (o ? o->points : 0.0);

		if (d != 0.0)
			out[n++] = (struct prio_explain_diff){
			    m->factor, m->tres, m->value, o ? o->value : 0.0, d};
	}
	for (uint32_t i = 0; i < theirs->n; i++) {
		const struct prio_explain_term *o = &theirs->t[i];

		if (!find_term(mine, o->factor, o->tres) && o->points != 0.0 &&
		    n < PRIO_EXPLAIN_MAX_TERMS)
			out[n++] = (struct prio_explain_diff){
			    o->factor, o->tres, 0.0, o->value, -o->points};
	}
	qsort(out, n, sizeof(*out), cmp_diff);
	return n;
}

/* ---- who passes whom ----------------------------------------------------- */

/* The priority the controller would store for a sum of terms. */
static uint32_t stored_priority(const struct prio_engine *e,
				const struct prio_job *job, double sum)
{
	uint32_t p;

	if (sum < 1.0)
		sum = 1.0;
	p = sum >= 4294967296.0 ? UINT32_MAX : (uint32_t)sum;
	if ((e->flags & PRIO_FLAG_INCR_ONLY) && job->priority > p)
		p = job->priority;
	return p;
}

/* Would job a (index ia) with priority pa be queued before job b with pb in
 * partition p? */
static bool before(const struct prio_engine *e, uint32_t ia, uint32_t pa,
		   uint32_t ib, uint32_t pb, uint32_t p)
{
	struct prio_queue_entry x = {.job = ia, .partition = p, .priority = pa};
	struct prio_queue_entry y = {.job = ib, .partition = p, .priority = pb};

	return prio_queue_compare(e->snap, &x, &y) < 0;
}

/* Age factor at time t of a job accruing since `accrue`. */
static double age_at(const struct prio_engine *e, time_t accrue, time_t t)
{
	uint32_t max_age = e->snap->conf.max_age;

	if (!accrue || !e->weight[PRIO_FACTOR_AGE])
		return 0.0;
	if (t <= accrue)
		return 0.0;
	if ((uint64_t)(t - accrue) < max_age)
		return (double)(t - accrue) / (double)max_age;
	return 1.0;
}

struct pair {
	const struct prio_engine *e;
	uint32_t me, ahead, partition;
	const struct prio_job_factors *jf_me, *jf_ahead;
	double sum_me, sum_ahead; /* sums at e->now */
};

static bool passes_at(const struct pair *pr, time_t t)
{
	const struct prio_engine *e = pr->e;
	const struct prio_snapshot *snap = e->snap;
	double w = e->weight[PRIO_FACTOR_AGE];
	double me = pr->sum_me - w * pr->jf_me->age +
		    w * age_at(e, pr->jf_me->accrue_time, t);
	double ah = pr->sum_ahead - w * pr->jf_ahead->age +
		    w * age_at(e, pr->jf_ahead->accrue_time, t);

	return before(e, pr->me, stored_priority(e, &snap->jobs[pr->me], me),
		      pr->ahead,
		      stored_priority(e, &snap->jobs[pr->ahead], ah),
		      pr->partition);
}

static void age_search(const struct pair *pr, struct prio_explain_part *xp)
{
	const struct prio_engine *e = pr->e;
	uint32_t max_age = e->snap->conf.max_age;
	time_t lo = e->now, hi = e->now;

	if (!e->weight[PRIO_FACTOR_AGE] || !pr->jf_me->accrue_time)
		return;
	/* the difference stops changing once both are capped */
	if (pr->jf_me->accrue_time + (time_t)max_age > hi)
		hi = pr->jf_me->accrue_time + (time_t)max_age;
	if (pr->jf_ahead->accrue_time &&
	    pr->jf_ahead->accrue_time + (time_t)max_age > hi)
		hi = pr->jf_ahead->accrue_time + (time_t)max_age;
	hi += 1;
	if (!passes_at(pr, hi))
		return;
	while (hi - lo > 1) {
		time_t mid = lo + (hi - lo) / 2;

		if (passes_at(pr, mid))
			hi = mid;
		else
			lo = mid;
	}
	xp->age_helps = true;
	xp->age_wait = (int64_t)(hi - e->now);
}

/* ---- fairshare search ---------------------------------------------------- */

struct fs_search {
	const struct pair *pr;
	struct prio_snapshot copy;
	struct prio_assoc *assocs;
	struct prio_fs_result *fs;
	const long double *orig;
	uint32_t assoc;
	double factor_me;
	/* time_passes(): the jobs the advance charges, found and billed
	 * once for the whole search (prio_snapshot_running) */
	struct prio_running *running;
	uint32_t nrunning;
	/* the tree and Fair Tree's last order, for the repeated computations */
	struct prio_fs_cache *cache;
	struct prio_decay_memo memo; /* time_passes() */
};

/* A private copy of the snapshot's associations for s (the original usage
 * kept in s->orig); PRIO_ERR_NOMEM, or 0.  Free with search_free(). */
static int search_copy(struct fs_search *s, const struct pair *pr,
		       struct prio_error *err)
{
	const struct prio_snapshot *snap = pr->e->snap;
	long double *orig;

	memset(s, 0, sizeof(*s));
	s->pr = pr;
	s->copy = *snap;
	s->assocs = malloc((size_t)snap->assoc_count * sizeof(*s->assocs));
	s->fs = malloc((size_t)snap->assoc_count * sizeof(*s->fs));
	s->orig = orig = malloc((size_t)snap->assoc_count * sizeof(*orig));
	if (!s->assocs || !s->fs || !orig)
		return PRIO_ERR_NOMEM;
	memcpy(s->assocs, snap->assocs,
	       (size_t)snap->assoc_count * sizeof(*s->assocs));
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		orig[i] = snap->assocs[i].usage_raw;
	s->copy.assocs = s->assocs;
	if (!(s->cache = prio_fs_cache_new(&s->copy, err)))
		return err->status;
	return PRIO_OK;
}

static void search_free(struct fs_search *s)
{
	free(s->assocs);
	free(s->fs);
	free((void *)s->orig);
	free(s->running);
	free(s->memo.pow);
	prio_fs_cache_free(s->cache);
	memset(s, 0, sizeof(*s));
}

/* Does the job pass the one ahead with its association's usage scaled by
 * x (ancestors lose the same amount)? */
static int fs_passes(struct fs_search *s, double x, bool *passes)
{
	const struct pair *pr = s->pr;
	const struct prio_engine *e = pr->e;
	const struct prio_snapshot *snap = e->snap;
	long double cut = s->orig[s->assoc] * (1.0L - (long double)x);
	struct prio_error err;
	double w = e->weight[PRIO_FACTOR_FAIRSHARE];
	uint32_t ah_assoc = pr->jf_ahead->assoc_index;
	double f_me, f_ah, me, ah;
	struct prio_fs_setup setup = e->fs_setup;

	setup.cache = s->cache;
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		s->assocs[i].usage_raw = s->orig[i];
	for (uint32_t a = s->assoc; a != PRIO_ASSOC_NONE; a = snap->assocs[a].parent) {
		s->assocs[a].usage_raw -= cut;
		if (s->assocs[a].usage_raw < 0)
			s->assocs[a].usage_raw = 0;
	}
	if (prio_fairshare_slurm(&s->copy, &setup, s->fs, NULL, &err) < 0)
		return err.status;
	f_me = isnan(s->fs[s->assoc].fairshare) ? 0.0 : s->fs[s->assoc].fairshare;
	f_ah = ah_assoc == PRIO_ASSOC_NONE || isnan(s->fs[ah_assoc].fairshare)
		   ? 0.0
		   : s->fs[ah_assoc].fairshare;
	me = pr->sum_me - w * pr->jf_me->fairshare + w * f_me;
	ah = pr->sum_ahead - w * pr->jf_ahead->fairshare + w * f_ah;
	*passes = before(e, pr->me, stored_priority(e, &snap->jobs[pr->me], me),
			 pr->ahead,
			 stored_priority(e, &snap->jobs[pr->ahead], ah),
			 pr->partition);
	s->factor_me = f_me;
	return PRIO_OK;
}

static int fs_search(const struct pair *pr, struct prio_explain_part *xp)
{
	const struct prio_engine *e = pr->e;
	struct fs_search s;
	const long double *orig;
	double lo = 0.0, hi = 1.0, factor = 0.0;
	struct prio_error err;
	bool ok;
	int rc = PRIO_OK;

	if (!e->fs || !e->weight[PRIO_FACTOR_FAIRSHARE] ||
	    pr->jf_me->assoc_index == PRIO_ASSOC_NONE)
		return PRIO_OK;
	if ((rc = search_copy(&s, pr, &err)) < 0)
		goto out;
	s.assoc = pr->jf_me->assoc_index;
	orig = s.orig;
	xp->fs_searched = true;
	xp->fs_usage_now = (double)orig[s.assoc];
	if (orig[s.assoc] <= 0)
		goto out; /* no usage to give up */
	/* with no usage at all? */
	if ((rc = fs_passes(&s, 0.0, &ok)) < 0 || !ok)
		goto out;
	factor = s.factor_me;
	for (int it = 0; it < 40 && hi - lo > 1e-6; it++) {
		double mid = (lo + hi) / 2;

		if ((rc = fs_passes(&s, mid, &ok)) < 0)
			goto out;
		if (ok) {
			lo = mid;
			factor = s.factor_me;
		} else {
			hi = mid;
		}
	}
	xp->fs_helps = true;
	xp->fs_usage_needed = (double)orig[s.assoc] * lo;
	xp->fs_factor_needed = factor;
out:
	search_free(&s);
	return rc;
}

/* ---- time: the forward computation --------------------------------------- */

/*
 * "When" has one answer, the one --at gives: at a later instant t the usage
 * is what prio_snapshot_advance() makes of it (every association decaying,
 * running jobs charging until they end), fairshare is prio_fairshare_slurm()
 * at the cycle t, and ages are the engine's at t.  Slurm recomputes only
 * every PriorityCalcPeriod, so the instants looked at are its next
 * calculations.  Once no running job is left and both ages are capped,
 * nothing moves any more (decay scales every usage alike, which changes no
 * ratio): that instant ends the search.
 */
enum { TIME_FINE_STEPS = 500, TIME_COARSE_STEPS = 200 };

static time_t time_settled(const struct pair *pr)
{
	const struct prio_engine *e = pr->e;
	const struct prio_snapshot *snap = e->snap;
	uint32_t max_age = snap->conf.max_age;
	time_t end = e->now, cap = e->now + 366 * 86400;

	if (e->weight[PRIO_FACTOR_AGE]) {
		if (pr->jf_me->accrue_time &&
		    pr->jf_me->accrue_time + (time_t)max_age > end)
			end = pr->jf_me->accrue_time + (time_t)max_age;
		if (pr->jf_ahead->accrue_time &&
		    pr->jf_ahead->accrue_time + (time_t)max_age > end)
			end = pr->jf_ahead->accrue_time + (time_t)max_age;
	}
	if (e->fs && e->weight[PRIO_FACTOR_FAIRSHARE])
		for (uint32_t j = 0; j < snap->job_count; j++) {
			const struct prio_job *job = &snap->jobs[j];

			if (job->state != PRIO_JOB_RUNNING)
				continue;
			if (!job->end_time || job->end_time > cap)
				return cap; /* runs on: a year is the horizon */
			if (job->end_time > end)
				end = job->end_time;
		}
	return end < cap ? end : cap;
}

/* Under Fair Tree, the two users' factors alone (the whole ranking is
 * what a time step cost most); false where a tie needs that ranking, or
 * under another algorithm. */
static bool fair_tree_pair(const struct fs_search *s,
			   const struct prio_fs_setup *setup, uint32_t a_me,
			   uint32_t a_ah, double *f_me, double *f_ah)
{
	if (setup->algorithm != PRIO_FS_FAIR_TREE ||
	    prio_fs_lag_applies(&s->copy, setup))
		return false;
	return (a_me == PRIO_ASSOC_NONE ||
		fs_fair_tree_user_factor(&s->copy, s->cache, a_me, f_me)) &&
	       (a_ah == PRIO_ASSOC_NONE ||
		fs_fair_tree_user_factor(&s->copy, s->cache, a_ah, f_ah));
}

static int time_passes(struct fs_search *s, time_t t, bool *passes)
{
	const struct pair *pr = s->pr;
	const struct prio_engine *e = pr->e;
	const struct prio_snapshot *snap = e->snap;
	double wf = e->weight[PRIO_FACTOR_FAIRSHARE];
	double wa = e->weight[PRIO_FACTOR_AGE];
	double me = pr->sum_me, ah = pr->sum_ahead;
	struct prio_error err;

	if (s->fs) {
		struct prio_fs_setup setup = e->fs_setup;
		uint32_t a_me = pr->jf_me->assoc_index;
		uint32_t a_ah = pr->jf_ahead->assoc_index;
		double f_me = 0.0, f_ah = 0.0;

		setup.cache = s->cache;
		for (uint32_t i = 0; i < snap->assoc_count; i++)
			s->assocs[i].usage_raw = s->orig[i];
		if (t > snap->now &&
		    prio_snapshot_advance_running(&s->copy, t, s->running,
						  s->nrunning, &s->memo,
						  &err) < 0)
			return err.status;
		setup.cycle = t;
		if (!fair_tree_pair(s, &setup, a_me, a_ah, &f_me, &f_ah)) {
			if (prio_fairshare_slurm(&s->copy, &setup, s->fs, NULL,
						 &err) < 0)
				return err.status;
			if (a_me != PRIO_ASSOC_NONE)
				f_me = isnan(s->fs[a_me].fairshare)
					   ? 0.0
					   : s->fs[a_me].fairshare;
			if (a_ah != PRIO_ASSOC_NONE)
				f_ah = isnan(s->fs[a_ah].fairshare)
					   ? 0.0
					   : s->fs[a_ah].fairshare;
		}
		if (a_me != PRIO_ASSOC_NONE)
			me += wf * (f_me - pr->jf_me->fairshare);
		if (a_ah != PRIO_ASSOC_NONE)
			ah += wf * (f_ah - pr->jf_ahead->fairshare);
	}
	me += wa * (age_at(e, pr->jf_me->accrue_time, t) - pr->jf_me->age);
	ah += wa * (age_at(e, pr->jf_ahead->accrue_time, t) - pr->jf_ahead->age);
	*passes = before(e, pr->me, stored_priority(e, &snap->jobs[pr->me], me),
			 pr->ahead,
			 stored_priority(e, &snap->jobs[pr->ahead], ah),
			 pr->partition);
	return PRIO_OK;
}

/*
 * The instants looked at: every calculation for the first TIME_FINE_STEPS,
 * then coarser (whole periods still) up to the settled instant.  Step k
 * (from 1) is looked at while step k - 1 is before settled + period.
 */
struct time_plan {
	time_t now, period, coarse;
	uint32_t steps;
};

static time_t plan_at(const struct time_plan *p, uint32_t k)
{
	if (k <= TIME_FINE_STEPS)
		return p->now + (time_t)k * p->period;
	return p->now + (time_t)TIME_FINE_STEPS * p->period +
	       (time_t)(k - TIME_FINE_STEPS) * p->coarse;
}

static void plan_of(const struct pair *pr, time_t settled,
		    struct time_plan *p)
{
	const struct prio_snapshot *snap = pr->e->snap;
	time_t fine_end;

	p->now = pr->e->now;
	p->period = snap->conf.calc_period ? snap->conf.calc_period : 300;
	fine_end = p->now + (time_t)TIME_FINE_STEPS * p->period;
	p->coarse = settled > fine_end
			? ((settled - fine_end) / TIME_COARSE_STEPS / p->period +
			   1) * p->period
			: p->period;
	for (p->steps = 0; plan_at(p, p->steps) < settled + p->period;)
		p->steps++;
}

/*
 * The steps are independent (each moves the usage from the snapshot's), so
 * workers share them out, each with its own copy of the associations, step
 * k to worker k mod n.  A worker stops at its first instant that passes or
 * once its steps lie beyond the earliest one found: the answer is the
 * first passing step whatever the number of workers.
 */
enum { TIME_MAX_WORKERS = 4, TIME_MEMO_SECONDS = 31 * 86400 };

struct time_worker {
	struct fs_search s;
	const struct time_plan *plan;
	atomic_uint *found; /* the earliest passing step, or UINT32_MAX */
	uint32_t first, stride;
	int rc;
};

static void *time_work(void *arg)
{
	struct time_worker *w = arg;

	for (uint32_t k = w->first; k <= w->plan->steps; k += w->stride) {
		bool ok = false;

		if (k > atomic_load(w->found))
			break;
		if ((w->rc = time_passes(&w->s, plan_at(w->plan, k), &ok)) < 0)
			break;
		if (ok) {
			unsigned seen = atomic_load(w->found);

			while (k < seen &&
			       !atomic_compare_exchange_weak(w->found, &seen, k))
				;
			break;
		}
	}
	return NULL;
}

static unsigned time_workers(uint32_t steps)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (cpus > TIME_MAX_WORKERS)
		cpus = TIME_MAX_WORKERS;
	if (steps < 16 || cpus < 1)
		cpus = 1; /* a few steps: not worth a thread */
	return (unsigned)cpus;
}

static int time_search(const struct pair *pr, struct prio_explain_part *xp)
{
	const struct prio_engine *e = pr->e;
	const struct prio_snapshot *snap = e->snap;
	time_t settled = time_settled(pr);
	bool fs = e->fs && e->weight[PRIO_FACTOR_FAIRSHARE] && snap->assoc_count;
	struct time_worker w[TIME_MAX_WORKERS];
	pthread_t th[TIME_MAX_WORKERS];
	bool started[TIME_MAX_WORKERS] = {false};
	struct prio_running *running = NULL;
	uint32_t nrunning = 0;
	struct time_plan plan;
	struct prio_error err;
	atomic_uint found = UINT32_MAX;
	uint32_t memo_len;
	unsigned n;
	int rc = PRIO_OK;

	if (!fs && !(e->weight[PRIO_FACTOR_AGE] && pr->jf_me->accrue_time))
		return PRIO_OK;
	plan_of(pr, settled, &plan);
	n = time_workers(plan.steps);
	/* powers of the decay up to the last instant looked at, a month at
	 * most (later ones are computed each time) */
	memo_len = (uint32_t)(plan_at(&plan, plan.steps) - plan.now + 1 <
					  TIME_MEMO_SECONDS
				      ? plan_at(&plan, plan.steps) - plan.now + 1
				      : TIME_MEMO_SECONDS);
	memset(w, 0, sizeof(w));
	if (fs) {
		running = malloc(((size_t)snap->job_count + 1) * sizeof(*running));
		if (!running)
			return PRIO_ERR_NOMEM;
		nrunning = prio_snapshot_running(snap, running);
	}
	for (unsigned i = 0; i < n && rc == PRIO_OK; i++) {
		w[i].s.pr = pr;
		w[i].plan = &plan;
		w[i].found = &found;
		w[i].first = i + 1;
		w[i].stride = n;
		if (fs && (rc = search_copy(&w[i].s, pr, &err)) == PRIO_OK) {
			w[i].s.running = running; /* shared, read only */
			w[i].s.nrunning = nrunning;
			w[i].s.memo.len = memo_len;
			w[i].s.memo.pow = calloc(memo_len, sizeof(double));
			if (!w[i].s.memo.pow)
				rc = PRIO_ERR_NOMEM;
		}
	}
	/* worker 0 runs here; a thread that cannot start leaves its steps
	 * to a second pass below */
	for (unsigned i = 1; i < n && rc == PRIO_OK; i++)
		started[i] = pthread_create(&th[i], NULL, time_work, &w[i]) == 0;
	if (rc == PRIO_OK)
		time_work(&w[0]);
	for (unsigned i = 1; i < n; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else if (rc == PRIO_OK)
			time_work(&w[i]);
	}
	for (unsigned i = 0; i < n; i++) {
		if (rc == PRIO_OK && w[i].rc < 0)
			rc = w[i].rc;
		w[i].s.running = NULL;
		search_free(&w[i].s);
	}
	free(running);
	if (rc < 0)
		return rc;
	xp->time_searched = true;
	xp->time_settled = settled;
	xp->time_helps = found != UINT32_MAX;
	xp->time_at = xp->time_helps ? plan_at(&plan, found) : 0;
	return PRIO_OK;
}

/* ---- alternatives -------------------------------------------------------- */

/* Is word w one of the comma-separated items of list (NULL = all)? */
static bool in_list(const char *list, const char *w)
{
	size_t n = strlen(w);

	if (!list || !*list)
		return true;
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (*p == '+' || *p == '-') {
			p++;
			len--;
		}
		if (len == n && strncmp(p, w, n) == 0)
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

/* The QOS list in force for an association: its own, else the nearest
 * ancestor's. */
static const char *assoc_qos_list(const struct prio_snapshot *snap,
				  uint32_t a)
{
	for (; a != PRIO_ASSOC_NONE; a = snap->assocs[a].parent)
		if (snap->assocs[a].qos_text && *snap->assocs[a].qos_text)
			return snap->assocs[a].qos_text;
	return NULL;
}

/* Place of job `me` with priority prio in partition p: 1 + the entries of p
 * queued before it. */
static uint32_t place_in(const struct prio_engine *e,
			 const struct prio_queue *q, uint32_t me, uint32_t prio,
			 uint32_t p)
{
	struct prio_queue_entry x = {.job = me, .partition = p, .priority = prio};
	uint32_t ahead = 0;

	for (uint32_t k = 0; k < q->count; k++) {
		const struct prio_queue_entry *en = &q->entries[k];

		if (en->partition == p && en->job != me &&
		    prio_queue_compare(e->snap, en, &x) < 0)
			ahead++;
	}
	return ahead + 1;
}

static void add_alt(struct prio_explain_part *xp,
		    struct prio_explain_alt alt)
{
	if (xp->nalts < PRIO_EXPLAIN_MAX_ALTS)
		xp->alts[xp->nalts++] = alt;
}

static void alternatives(const struct prio_engine *e,
			 const struct prio_queue *q, const struct prio_explain *x,
			 struct prio_explain_part *xp)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_job *job = x->job;
	const struct prio_qos *cur =
	    job->qos != PRIO_NO_ID ? prio_snapshot_qos(snap, job->qos) : NULL;
	const struct prio_partition *part = &snap->partitions[xp->partition];
	const char *qlist = x->assoc != PRIO_ASSOC_NONE
				? assoc_qos_list(snap, x->assoc)
				: NULL;
	const char *account = prio_snapshot_str(snap, job->account);
	const char *qname = cur ? prio_snapshot_str(snap, cur->name) : "";

	/* QOS of higher priority the association may use, here */
	if (e->weight[PRIO_FACTOR_QOS] && qlist) {
		for (uint32_t i = 0; i < snap->qos_count; i++) {
			const struct prio_qos *qq = &snap->qos[i];
			const char *name = prio_snapshot_str(snap, qq->name);
			double f, sum;
			uint32_t prio, place;

			if (qq->priority <= (cur ? cur->priority : 0) ||
			    !in_list(qlist, name) ||
			    (part->allow_qos && !in_list(part->allow_qos, name)))
				continue;
			f = e->flags & PRIO_FLAG_NO_NORMAL_QOS
				? (double)qq->priority
				: (e->qos_max > 0 ? qq->priority / e->qos_max : 0);
			sum = xp->terms.sum - prio_weighted(e, PRIO_FACTOR_QOS, x->jf.qos) +
			      prio_weighted(e, PRIO_FACTOR_QOS, f);
			prio = stored_priority(e, job, sum);
			place = place_in(e, q, x->job_index, prio, xp->partition);
			add_alt(xp, (struct prio_explain_alt){
					PRIO_ALT_QOS, i, xp->partition, prio,
					place});
		}
	}
	/* other partitions open to its account and QOS */
	for (uint32_t p = 0; p < snap->partition_count; p++) {
		const struct prio_partition *pp = &snap->partitions[p];
		struct prio_explain_terms t;
		uint32_t place;
		bool asked = false;

		for (uint32_t k = 0; k < x->nparts; k++)
			asked = asked || x->parts[k].partition == p;
		if (asked ||
		    (pp->job_factor <= part->job_factor &&
		     pp->tier <= part->tier) ||
		    (pp->allow_accounts &&
			      !in_list(pp->allow_accounts, account)) ||
		    (pp->allow_qos && !in_list(pp->allow_qos, qname)) ||
		    (pp->state && strcmp(pp->state, "UP") != 0))
			continue;
		prio_explain_terms_of(e, job, &x->jf, p, &t);
		place = place_in(e, q, x->job_index, t.row.priority, p);
		add_alt(xp, (struct prio_explain_alt){PRIO_ALT_PARTITION, p, p,
						      t.row.priority, place});
	}
}

/* ---- the fairshare path -------------------------------------------------- */

static void fs_path(const struct prio_engine *e, struct prio_explain *x)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t chain[PRIO_EXPLAIN_MAX_LEVELS], n = 0;

	if (!e->fs || x->assoc == PRIO_ASSOC_NONE)
		return;
	for (uint32_t a = x->assoc; a != 0 && a != PRIO_ASSOC_NONE &&
				    n < PRIO_EXPLAIN_MAX_LEVELS;
	     a = e->fs[a].fs_parent)
		chain[n++] = a;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t a = chain[n - 1 - k];
		const struct prio_fs_result *r = &e->fs[a];
		struct prio_explain_fs_level *l = &x->fs_path[k];
		uint32_t place = 1, sib = 0;

		l->assoc = a;
		l->norm_shares = r->norm_shares;
		l->usage_efctv = (double)r->usage_efctv;
		l->level_fs = e->fs_algorithm == PRIO_FS_FAIR_TREE
				  ? (double)r->level_fs
				  : NAN;
		for (uint32_t i = 0; i < snap->assoc_count; i++) {
			const struct prio_fs_result *o = &e->fs[i];

			if (i == 0 || o->fs_parent != r->fs_parent)
				continue;
			sib++;
			if (i != a && (o->level_fs > r->level_fs ||
				       (o->level_fs == r->level_fs &&
					snap->assocs[i].is_user &&
					!snap->assocs[a].is_user)))
				place++;
		}
		l->siblings = sib;
		l->place = e->fs_algorithm == PRIO_FS_FAIR_TREE ? place : 0;
	}
	x->fs_levels = n;
}

/* ---- the whole explanation ----------------------------------------------- */

void prio_explain_free(struct prio_explain *x)
{
	if (!x)
		return;
	free(x->parts);
	memset(x, 0, sizeof(*x));
}

static int explain_part(const struct prio_engine *e,
			const struct prio_queue *q, struct prio_explain *x,
			struct prio_explain_part *xp)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_queue_entry *en =
	    prio_queue_find(q, x->job_index, xp->partition);
	const struct prio_queue_entry *ah, *top;
	struct prio_job_factors jf_ah, jf_top, jf_all;
	struct pair pr;
	int rc;

	prio_explain_terms_of(e, x->job, &x->jf, xp->partition, &xp->terms);
	xp->part_total = xp->partition < q->partition_count
			     ? q->part_count[xp->partition]
			     : 0;
	if (!en)
		return PRIO_OK;
	xp->queued = true;
	xp->rank = en->rank;
	xp->part_rank = en->part_rank;
	alternatives(e, q, x, xp);
	ah = prio_queue_ahead(q, en);
	if (en > q->entries && (!ah || en[-1].job != ah->job)) {
		const struct prio_queue_entry *all = &en[-1];

		xp->ahead_all = &snap->jobs[all->job];
		xp->ahead_all_partition = all->partition;
		prio_job_factors(e, xp->ahead_all, &jf_all);
		prio_explain_terms_of(e, xp->ahead_all, &jf_all, all->partition,
				      &xp->ahead_all_terms);
		xp->ahead_all_ndiff = prio_explain_diff_terms(
		    &xp->terms, &xp->ahead_all_terms, xp->ahead_all_diff);
	}
	if (!ah)
		return PRIO_OK;
	xp->ahead = &snap->jobs[ah->job];
	prio_job_factors(e, xp->ahead, &jf_ah);
	prio_explain_terms_of(e, xp->ahead, &jf_ah, xp->partition,
			      &xp->ahead_terms);
	xp->ahead_ndiff = prio_explain_diff_terms(&xp->terms, &xp->ahead_terms,
						  xp->ahead_diff);
	top = prio_queue_top(q, xp->partition);
	if (top && top != ah) {
		xp->top = &snap->jobs[top->job];
		prio_job_factors(e, xp->top, &jf_top);
		prio_explain_terms_of(e, xp->top, &jf_top, xp->partition,
				      &xp->top_terms);
		xp->top_ndiff = prio_explain_diff_terms(
		    &xp->terms, &xp->top_terms, xp->top_diff);
	}
	pr = (struct pair){e,	   x->job_index, ah->job,	  xp->partition,
			   &x->jf, &jf_ah,	 xp->terms.sum, xp->ahead_terms.sum};
	age_search(&pr, xp);
	if ((rc = fs_search(&pr, xp)) < 0)
		return rc;
	return time_search(&pr, xp);
}

int prio_explain_job(const struct prio_engine *e, const struct prio_queue *q,
		     uint32_t job_id, struct prio_explain *x,
		     struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_job *job = prio_snapshot_find_job(snap, job_id);
	struct prio_job_factors own;
	uint32_t *parts = NULL, np;
	int rc;

	memset(x, 0, sizeof(*x));
	if (!job)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "--explain",
				      "no job %u in the snapshot", job_id);
	x->job = job;
	x->job_index = (uint32_t)(job - snap->jobs);
	x->unlisted = prio_job_unlisted_reason(e, job);
	x->listed = x->unlisted == NULL;
	/* Slurm's reasons say why a job waits; a running or finished job's
	 * "None" means nothing holds it, not "not looked at yet" */
	x->reason_meaning =
	    job->state == PRIO_JOB_PENDING
		? prio_reason_meaning(prio_snapshot_str(snap, job->reason))
		: NULL;
	prio_job_factors(e, job, &own);
	/* several QOS: the row of the first, as the queue computes it */
	prio_job_factors_at(e, job, &own, 0, &x->jf);
	x->assoc = x->jf.assoc_index;
	if (x->jf.accrue_time) {
		uint32_t max_age = snap->conf.max_age;

		x->age_waited = e->now > x->jf.accrue_time
				    ? (int64_t)(e->now - x->jf.accrue_time)
				    : 0;
		x->age_capped = x->age_waited >= (int64_t)max_age;
		x->age_to_max = x->age_capped ? 0 : (int64_t)max_age - x->age_waited;
	}
	fs_path(e, x);

	parts = malloc((size_t)e->max_job_partitions * sizeof(*parts));
	x->parts = calloc(e->max_job_partitions, sizeof(*x->parts));
	if (!parts || !x->parts) {
		free(parts);
		prio_explain_free(x);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	np = prio_job_partitions(e, job, parts);
	x->nparts = np;
	for (uint32_t k = 0; k < np; k++)
		x->parts[k].partition = parts[k];
	free(parts);
	for (uint32_t k = 0; k < np; k++) {
		if ((rc = explain_part(e, q, x, &x->parts[k])) < 0) {
			prio_explain_free(x);
			return prio_error_set(err, rc, "", 0, "", "out of memory");
		}
	}
	return PRIO_OK;
}
