/* SPDX-License-Identifier: MIT */
/*
 * The forecast (forecast.h): an event-driven simulation of Slurm's main and
 * backfill schedulers over the select plugin's resources of
 * prio_resources_build().
 *
 * Events are job ends (a min-heap), begin times and backfill wake-ups.  At
 * every event instant the main scheduler walks the queue in order; the
 * backfill scheduler runs when bf_interval has passed since its last run
 * (else a wake-up is queued for then), as slurmctld runs it on its own
 * timer.  The queue is rebuilt only when the instant falls in a later
 * PriorityCalcPeriod than the last build: between two calculations Slurm's
 * order does not change.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forecast_hooks.h"
#include "forecast_limits.h"
#include "prio/advance.h"
#include "prio/fairshare.h"
#include "prio/forecast.h"
#include "prio/hostlist.h"
#include "prio/order.h"
#include "prio/resources.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

#define NONE UINT32_MAX
#define WAKE (UINT32_MAX - 1) /* event: the backfill timer */
#define CALC_WAKE (UINT32_MAX - 2) /* event: its tick after a calculation */
#define FAR_FUTURE ((time_t)1 << 40)
/* GRES kinds modelled (untyped gres/NAME that nodes have); a job asking
 * for another says so in its note. */
#define FC_GRES 4
#define REL_KEEP 4

/* What a job's row says it is not modelled for (notes built at the end). */
enum {
	N_LIMIT = 1u << 0,   /* pending for a limit */
	N_GRES = 1u << 1,    /* requests GRES */
	N_LIC = 1u << 2,     /* licenses */
	N_FEAT = 1u << 3,    /* features / constraints */
	N_RESV = 1u << 4,    /* an advance reservation */
	N_DEP = 1u << 5,     /* a dependency we cannot follow */
	N_DEPAGE = 1u << 6,  /* its age after the dependency is released */
	N_NOLIMIT = 1u << 7, /* no time limit: end unknown */
	N_SHARE = 1u << 8,   /* partition OverSubscribe>1: taken as NO */
	N_ARRAY = 1u << 9,   /* an unsplit array: one task modelled */
	N_GTYPE = 1u << 10,  /* a GRES type (gres/gpu:a100) */
	N_LIMITX = 1u << 11, /* a limit that changes with usage applies */
};

/* A pending job in the simulation. */
struct sjob {
	uint32_t job;        /* snapshot index */
	uint32_t nodes;      /* nodes it needs */
	uint32_t cpn;        /* CPUs per node (flex: the least, one task) */
	uint64_t mpn;        /* memory per node, MB (0: not counted); flex:
			      * the least, for one task */
	uint32_t cpus;       /* CPUs in all */
	uint64_t mpc;        /* memory per CPU, MB, when it scales by CPU */
	bool flex;           /* several nodes, tasks spread as they fit */
	uint32_t gpn[FC_GRES]; /* GRES per node, by kind */
	time_t begin;        /* not before (BeginTime) */
	time_t limit;        /* seconds; FAR_FUTURE when none */
	uint32_t dep_first, dep_count;
	uint32_t rank0;      /* place in the first queue (row order) */
	uint32_t flags;      /* N_* */
	/* positions in prio_job_partitions() order where it can never
	 * start (bit k % 64) */
	uint64_t bad_parts;
	bool excl;           /* whole nodes */
	bool dep_or;         /* '?' between dependencies: any one */
	bool held, never, started, queued;
	const char *never_why;
	uint32_t run;        /* its run once started */
	uint32_t partition;  /* where it started */
	uint8_t how;
	bool lim_held;       /* a limit held it at some pass */
	const char *lim_why; /* the first limit that held it (fc arena) */
	/* limit_holds(): its key in the partition and QOS of the entry
	 * last asked about (lk_part NONE: none yet) */
	uint32_t lk_part;
	prio_id lk_qos;
	struct fc_lim_key lk;
};

/* A dependency on another job. */
struct dep {
	uint32_t target; /* sjob index, or run index when running */
	bool on_run;     /* target is a job running at NOW */
	bool at_start;   /* "after": released when the target starts */
};

/* A job holding resources: running at NOW or started by the simulation. */
struct run {
	uint32_t job;      /* snapshot index */
	time_t end;        /* FAR_FUTURE: never ends */
	time_t plan;       /* the end Slurm plans with (start + limit): end,
			      unless --forecast-ends history ends it sooner */
	uint32_t first, count; /* ralloc[first .. +count) */
	bool ended;
	struct fc_lim_key lk; /* what it counts against (with limits) */
};

struct ralloc {
	uint32_t node;
	uint32_t cpus;
	uint64_t mem;
	uint32_t gres[FC_GRES];
};

struct event {
	time_t at;
	uint32_t run; /* NONE: a wake-up */
};

/* What one node gets back at a planned end, in a backfill pass's list of
 * the ends in its window: earliest() walks it for every job it tests, and
 * one flat array in time order keeps that walk off runs[] and ra[]. */
struct pend {
	time_t at;
	struct ralloc al;
};

/* One job a backfill pass swept: where it would start (FAR_FUTURE: not
 * in the window) and how many reservations were made before its own. */
struct bf_memo {
	uint32_t sj, p, nrv; /* the job, the partition it was tested in */
	time_t at;
};

/*
 * A backfill reservation of one node.  It holds the node whole: slurmctld's
 * backfill map keeps, per stretch of time, the nodes later jobs may use (a
 * bitmap), and a job it plans takes its nodes out of it for its run, however
 * little of them it needs; a lower job may share a node with running jobs,
 * never with a planned one.
 */
struct resv {
	time_t from, to;
	uint32_t node;
};

struct entry {
	struct prio_queue_entry q; /* first: prio_queue_sort() sorts these */
	uint32_t sj;
};
_Static_assert(offsetof(struct entry, q) == 0, "prio_queue_sort records");

struct sim {
	const struct prio_snapshot *snap;
	/* --forecast-ends history: users' Elapsed / Timelimit; NULL: jobs
	 * run to their limits */
	const struct prio_runtime_history *runtime;
	struct prio_engine ec; /* e with the clock of the current queue */
	/* Usage as simulated time passes (fairshare weighted): a copy of the
	 * snapshot whose associations are the sim's own (usage0 their usage
	 * at NOW), moved to each calculation with the running jobs and the
	 * ones the simulation started charging, and an engine on it */
	bool accrue, ue_live;
	/* fairshare computed from the usage before the cycle's own (every
	 * algorithm but Fair Tree: see accrue_to) */
	bool usage_lag;
	struct prio_snapshot usnap;
	long double *usage0;
	struct prio_engine ue;
	const struct prio_sched_params *sp;
	/* association and QOS limits; NULL when none is enforced */
	struct fc_limits *lim;
	struct prio_resources res;
	struct prio_forecast *fc;
	/* calc0: an instant of Slurm's priority calculations (they fall at
	 * calc0 + k * period); before calc0 the queue is at calc_init, the
	 * engine's clock */
	time_t t0, calc0, calc_init, period, until;
	/* nodes */
	int64_t *free_cpu, *free_mem;
	/* GRES: kinds (TRES ids), per node capacity and free [n * FC_GRES] */
	uint32_t ngres, gres_id[FC_GRES];
	uint32_t *node_gres;
	int64_t *free_gres;
	uint32_t *busy;
	/* what the ends due by a backfill pass's instant (a job past its
	 * limit) free on each node, which every will-run test of the pass
	 * gives back first: may_fit_now() counts it free (due: any) */
	int64_t *due_cpu, *due_mem, *due_gres;
	uint32_t *due_busy;
	bool due;
	/* the last instant something ended on each node, and the runs that
	 * ended there then (up to REL_KEEP) */
	time_t *rel_time;
	uint32_t *rel_run, *rel_cnt;
	/* jobs */
	struct sjob *sj;
	uint32_t nsj;
	uint32_t *sj_of_job; /* snapshot index -> sjob, NONE */
	struct dep *deps;
	uint32_t ndeps, cdeps;
	struct run *runs;
	uint32_t nruns, cruns;
	struct ralloc *ra;
	uint32_t nra, cra;
	struct event *heap;
	uint32_t nheap, cheap;
	/* the queue */
	struct entry *q;
	uint32_t nq, cq;
	time_t q_calc;
	uint32_t least_cpn; /* the least CPUs per node of a job queued */
	uint32_t *remaining; /* per partition: unstarted entries */
	bool *blocked;
	/* the main pass takes a failed partition's nodes away from every
	 * later job (node_stamp == pass_id: taken); part_free counts the
	 * nodes each partition has left, through node_parts (CSR: the
	 * partitions of node n are node_parts[node_pfirst[n] ..
	 * node_pfirst[n + 1])) */
	uint32_t *node_stamp, pass_id;
	uint32_t *part_free;
	uint32_t *node_pfirst, *node_parts;
	uint32_t *parts;     /* scratch, e->max_job_partitions */
	/* backfill */
	time_t next_bf;
	/* sdiag's last cycle pinned the backfill timer: a pass comes only
	 * every bf_period seconds from it (0: at the first event after
	 * bf_interval, the timer's phase unknown) */
	time_t bf_period;
	/* bumped by every end, start, begin time and queue rebuild; the
	 * backfill pass is skipped while it is what it was at the last */
	uint64_t version, bf_version;
	struct nofit *nofit; /* NOFIT_SLOTS, valid when stamp == bf_stamp */
	uint32_t bf_stamp;
	/* bumped by every backfill pass and every start in one: a shape's
	 * may_fit_now() holds while it is what it was */
	uint32_t now_stamp;
	uint32_t *defer;     /* backfill_pass(): the q indices put off */
	uint32_t cdefer;
	struct pend *pend;   /* backfill_pass(): the ends in the window */
	uint32_t cpend;
	bool wake_queued, calc_wake_queued;
	/* another thread's bound on the run (prio_forecast_opts.bound), and
	 * whether a pass was cut short by it */
	const atomic_llong *bound;
	bool cut;
	/* the run's options: the jobs it watches (watched_done()) */
	const struct prio_forecast_opts *opts;
	struct resv *rv;
	uint32_t nrv, crv;
	uint32_t *by_from, *by_to; /* rv sorted by from, by to */
	uint32_t *pto;       /* earliest(): by_to on the partition's nodes */
	/* earliest() counts the reservations rv[0 .. rv_cap) only */
	uint32_t rv_cap;
	uint32_t *rv_on;     /* == sweep_id: blocking in this job's sweep */
	uint32_t sweep_id;
	uint32_t cidx;
	uint32_t *slot;      /* node -> 1 + position in partition, scratch */
	int64_t *capc, *capm;
	int64_t *capg;       /* [k * FC_GRES] */
	/* earliest(): reservations holding each slot over a run from the
	 * test's start S (blkn, the nodes the test may use) and from the
	 * instant the sweep has read (blkl); touch[0..ntouch) the slots whose
	 * blkl moved since blkn was set (tflag: listed) */
	uint32_t *capb, *blkn, *blkl, *touch, ntouch;
	uint8_t *tflag;
	/* earliest(): the slots changed since their usable CPUs were last
	 * counted (sweep_mark; dflag: listed) */
	uint32_t *dirty, ndirty;
	uint8_t *dflag;
	/* earliest(): pmark[k] == pick_stamp: slot k was chosen */
	uint32_t *pmark, pick_stamp;
	/* the release's will-run test: ends at the start tried freed first,
	 * the start the last end it needed (prio_slurm_release) */
	bool wr_relevant;
	bool wr_bounded;
	uint32_t *pick;
	uint32_t *pcpu;      /* CPUs on pick[k] */
	uint64_t *pmem;      /* memory on pick[k] */
	int64_t *avc;        /* choose(): usable CPUs per partition slot */
	int64_t *avc_keep;   /* fits_at_t(): the sweep's avc meanwhile */
	bool *ever;          /* earliest(): node_ever() per slot */
	int64_t *run_cpus;   /* choose(): its runs of slots; -1 once taken */
	/* earliest(): how many slots could give a spread job v CPUs, for v
	 * in 1..hist_max (the most CPUs of a node); hist_over counts values
	 * above it (none expected: then the test is skipped) */
	uint32_t *uhist, hist_max, hist_over;
	/* earliest(): a slot's usable CPUs (avc) changed since choose() last
	 * failed on them: choose() reads nothing else, so until one does it
	 * would fail again */
	bool moved;
	uint32_t *run_from, *run_to;
	/* choose(): the slots a retry left out, and their avc; the slots by
	 * usable CPUs (korder) and its counting sort's counts (vcnt, up to
	 * hist_max + 2) */
	uint32_t *kn_slot;
	int64_t *kn_val;
	uint32_t *korder, *vcnt;
	uint32_t *user_tested;
	uint32_t user_slots;
	struct event *rel;   /* scratch: ends in the window */
	/* bumped by what can change a backfill pass's plan: a start, an end
	 * before its planned end, a begin time, a queue rebuild (an end at
	 * its plan does not: the pass planned with it) */
	uint64_t plan_version;
	/* the last backfill pass's tested jobs in order, each with its
	 * sweep's start and the reservations before its own (memo_holds);
	 * memo_ok when that pass started nothing, memo_version the
	 * plan_version after it, memo_t its instant */
	struct bf_memo *memo;
	uint32_t nmemo, cmemo;
	uint64_t memo_version;
	time_t memo_t;
	/* ends on each partition's nodes so far, and at the memo's pass: an
	 * end moves the groups in which Slurm's will-run test frees the
	 * running jobs (earliest()), so a start the memo found may move */
	uint64_t *part_ends, *memo_part_ends;
	bool memo_ok;
};

static int nomem(struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "", "out of memory");
}

/* Grow *arr (element size sz) to hold n + 1; -1 on ENOMEM. */
static int grow(void **arr, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	uint32_t nc = *cap ? *cap * 2 : 64;
	void *p = realloc(*arr, (size_t)nc * sz);

	if (!p)
		return -1;
	*arr = p;
	*cap = nc;
	return 0;
}

/* --- events ------------------------------------------------------------ */

static bool ev_before(const struct event *a, const struct event *b)
{
	return a->at < b->at;
}

static int heap_push(struct sim *s, time_t at, uint32_t run)
{
	uint32_t i;

	if (grow((void **)&s->heap, &s->cheap, s->nheap, sizeof(*s->heap)) < 0)
		return -1;
	i = s->nheap++;
	s->heap[i] = (struct event){at, run};
	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (!ev_before(&s->heap[i], &s->heap[p]))
			break;
		struct event tmp = s->heap[p];
		s->heap[p] = s->heap[i];
		s->heap[i] = tmp;
		i = p;
	}
	return 0;
}

static struct event heap_pop(struct sim *s)
{
	struct event top = s->heap[0];
	uint32_t i = 0;

	s->heap[0] = s->heap[--s->nheap];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->nheap && ev_before(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->nheap && ev_before(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		struct event tmp = s->heap[m];
		s->heap[m] = s->heap[i];
		s->heap[i] = tmp;
		i = m;
	}
	return top;
}

/* --- resources ----------------------------------------------------------- */

/* A run holds its allocations: take them from the nodes. */
static void hold(struct sim *s, const struct run *r, int sign)
{
	for (uint32_t a = r->first; a < r->first + r->count; a++) {
		const struct ralloc *al = &s->ra[a];

		s->free_cpu[al->node] -= sign * (int64_t)al->cpus;
		s->free_mem[al->node] -= sign * (int64_t)al->mem;
		s->busy[al->node] += sign;
		for (uint32_t g = 0; g < s->ngres; g++)
			s->free_gres[al->node * FC_GRES + g] -=
			    sign * (int64_t)al->gres[g];
	}
	if (s->lim)
		fc_limits_charge(s->lim, &r->lk, &s->snap->jobs[r->job], sign);
}

static int new_run(struct sim *s, uint32_t job, time_t end, time_t plan,
		   uint32_t *out)
{
	if (grow((void **)&s->runs, &s->cruns, s->nruns, sizeof(*s->runs)) < 0)
		return -1;
	*out = s->nruns;
	s->runs[s->nruns++] = (struct run){.job = job, .end = end, .plan = plan,
					.first = s->nra};
	return 0;
}

/* When a job started at `start` with a limit of `limit` seconds really
 * ends: at its limit, or (--forecast-ends history) after its user's share
 * of it, at least a second; never before `after` (a running job that has
 * outlived its user's typical share is taken to run to its limit). */
static time_t run_end(const struct sim *s, const struct prio_job *job,
		      time_t start, time_t limit, time_t after)
{
	time_t end = start + limit, est;

	if (!s->runtime)
		return end;
	est = start + (time_t)(prio_runtime_ratio(s->runtime, job->user,
						  NULL) *
				       (double)limit +
			       0.5);
	if (est <= start)
		est = start + 1;
	return est > after && est < end ? est : end;
}

static int add_ralloc(struct sim *s, uint32_t node, uint32_t cpus,
		      uint64_t mem, const uint32_t *gres)
{
	if (grow((void **)&s->ra, &s->cra, s->nra, sizeof(*s->ra)) < 0)
		return -1;
	s->ra[s->nra] = (struct ralloc){.node = node, .cpus = cpus, .mem = mem};
	if (gres)
		memcpy(s->ra[s->nra].gres, gres, sizeof(s->ra[0].gres));
	s->nra++;
	s->runs[s->nruns - 1].count++;
	return 0;
}

/* What a job counts against in its first partition and QOS: a running
 * job's, and a pending job's as the snapshot shows it. */
static struct fc_lim_key first_key(const struct sim *s,
				   const struct prio_job *job)
{
	return fc_limits_key(
	    s->snap, job,
	    job->partition_count ? job->partitions[0] : PRIO_NO_ID, job->qos);
}

/* The jobs running at NOW, from the select plugin's model. */
static int load_running(struct sim *s)
{
	const struct prio_resources *res = &s->res;

	for (uint32_t k = 0; k < res->job_count; k++) {
		const struct prio_res_job *rj = &res->jobs[k];
		const struct prio_job *job = &s->snap->jobs[rj->job];
		time_t end = job->end_time;
		uint32_t r;

		time_t plan;

		if (!end && job->start_time && job->time_limit != PRIO_INFINITE &&
		    job->time_limit != PRIO_NO_VAL)
			end = job->start_time + (time_t)job->time_limit * 60;
		/* a suspended job keeps its memory until it resumes, which
		 * nothing in the snapshot tells */
		if (!end || rj->suspended)
			end = FAR_FUTURE;
		/* past its end (completing, or over its limit): ends now */
		if (end < s->t0 || rj->completing)
			end = s->t0;
		plan = end;
		if (end > s->t0 && end != FAR_FUTURE && job->start_time &&
		    job->start_time < end)
			end = run_end(s, job, job->start_time,
				      end - job->start_time, s->t0);
		if (new_run(s, rj->job, end, plan, &r) < 0)
			return -1;
		if (s->lim)
			s->runs[r].lk = first_key(s, job);
		for (uint32_t a = rj->first_alloc;
		     a < rj->first_alloc + rj->alloc_count; a++) {
			const struct prio_res_alloc *al = &res->allocs[a];
			uint32_t gres[FC_GRES] = {0}, i = a - rj->first_alloc;

			/* its GRES, from TRES=, spread evenly over its
			 * nodes (a suspended job keeps them) */
			for (uint32_t g = 0; g < s->ngres; g++) {
				uint64_t c = prio_tres_list_get(
				    &job->tres_alloc, s->gres_id[g], 0);

				gres[g] = (uint32_t)(c / rj->alloc_count +
						     (i < c % rj->alloc_count));
			}
			if (add_ralloc(s, al->node, rj->suspended ? 0 : al->cpus,
				       res->track_memory ? al->mem_mb : 0,
				       gres) < 0)
				return -1;
		}
		hold(s, &s->runs[r], 1);
		if (end != FAR_FUTURE && heap_push(s, end, r) < 0)
			return -1;
	}
	return 0;
}

/* --- pending jobs ---------------------------------------------------------- */

static bool reason_is_limit(const char *r)
{
	return r && (strstr(r, "Limit") || !strncmp(r, "AssocGrp", 8) ||
		     !strncmp(r, "AssocMax", 8) || !strncmp(r, "QOSGrp", 6) ||
		     !strncmp(r, "QOSMax", 6));
}

/* Dependency=afterok:12(unfulfilled),afterany:13_*(unfulfilled): the
 * kinds after, afterany and afterok, every job of a list (',': all, '?':
 * any); a job not in the snapshot has ended.  Anything else sets N_DEP and
 * is left out. */
static int parse_deps(struct sim *s, struct sjob *j, const char *d)
{
	j->dep_first = s->ndeps;
	j->dep_or = strchr(d, '?') != NULL;
	while (*d) {
		size_t n = strcspn(d, ",?");
		const char *colon = memchr(d, ':', n);
		size_t kn = colon ? (size_t)(colon - d) : n;
		bool at_start = kn == 5 && !strncmp(d, "after", 5);
		bool at_end = (kn == 8 && !strncmp(d, "afterany", 8)) ||
			      (kn == 7 && !strncmp(d, "afterok", 7));
		bool fulfilled = memmem(d, n, "(fulfilled)", 11) != NULL;

		if (!colon || (!at_start && !at_end)) {
			j->flags |= N_DEP;
		} else if (!fulfilled) {
			const char *p = colon + 1, *end = d + n;

			while (p < end) {
				char *stop;
				unsigned long id = strtoul(p, &stop, 10);
				const struct prio_job *t;

				if (stop == p) {
					j->flags |= N_DEP;
					break;
				}
				if (*stop == '_')
					/* an array task or all of them: the
					 * array job's record */
					stop += strcspn(stop, ":(");
				t = prio_snapshot_find_job(s->snap, (uint32_t)id);
				if (t) {
					uint32_t ti = (uint32_t)(t - s->snap->jobs);
					uint32_t rr = s->res.by_snap_job[ti];
					struct dep dp = {NONE, false, at_start};

					if (s->sj_of_job[ti] != NONE)
						dp.target = s->sj_of_job[ti];
					else if (rr != NONE) {
						dp.target = rr; /* runs[] index */
						dp.on_run = true;
					}
					if (dp.target != NONE) {
						if (grow((void **)&s->deps,
							 &s->cdeps, s->ndeps,
							 sizeof(*s->deps)) < 0)
							return -1;
						s->deps[s->ndeps++] = dp;
					}
				}
				p = stop + strcspn(stop, ":");
				if (*p == ':')
					p++;
				if (p > end)
					break;
				if (p < end && *p == '(')
					break;
			}
		}
		d += n;
		if (*d)
			d++;
	}
	j->dep_count = s->ndeps - j->dep_first;
	if (j->dep_count)
		j->flags |= N_DEPAGE;
	return 0;
}

/* When dependency dp is released; FAR_FUTURE while unknown. */
static time_t dep_time(const struct sim *s, const struct dep *dp)
{
	const struct run *r;

	if (dp->on_run) {
		r = &s->runs[dp->target];
		return dp->at_start ? s->t0 : r->end;
	}
	const struct sjob *t = &s->sj[dp->target];

	if (!t->started)
		return FAR_FUTURE;
	return dp->at_start ? s->fc->rows[dp->target].start
			    : s->runs[t->run].end;
}

static bool eligible(const struct sim *s, const struct sjob *j, time_t t)
{
	bool any = false;

	if (j->begin > t)
		return false;
	if (!j->dep_count)
		return true;
	for (uint32_t k = j->dep_first; k < j->dep_first + j->dep_count; k++) {
		bool ok = dep_time(s, &s->deps[k]) <= t;

		if (j->dep_or && ok)
			return true;
		if (!j->dep_or && !ok)
			return false;
		any = any || ok;
	}
	return !j->dep_or || any;
}

/* The job's size on each node and the notes that do not depend on time. */
static void shape(struct sim *s, struct sjob *j, const struct prio_job *job)
{
	const struct prio_snapshot *snap = s->snap;
	const struct prio_job_detail *d = job->detail;
	const char *os = job->oversubscribe != PRIO_NO_ID
			     ? prio_snapshot_str(snap, job->oversubscribe)
			     : NULL;
	uint64_t mem = prio_tres_list_get(&job->tres_req, PRIO_TRES_MEM, 0);
	uint32_t cpus = job->num_cpus ? job->num_cpus : 1;

	j->nodes = job->min_nodes ? job->min_nodes : 1;
	j->cpus = cpus;
	j->cpn = (cpus + j->nodes - 1) / j->nodes;
	j->mpc = 0;
	if (!s->res.track_memory)
		j->mpn = 0;
	else if (job->min_memory && !job->mem_per_cpu)
		j->mpn = job->min_memory;
	else if (job->min_memory || (!mem && snap->conf.def_mem_per_cpu))
		j->mpc = job->min_memory ? job->min_memory
					 : snap->conf.def_mem_per_cpu;
	else
		j->mpn = (mem + j->nodes - 1) / j->nodes;
	if (j->mpc)
		j->mpn = j->mpc * j->cpn;
	/* -n 12 -N 2 without --ntasks-per-node: the select plugin lays the
	 * tasks out over the nodes as their free CPUs allow (8 + 4 as well
	 * as 6 + 6), so such a job fits where an even split would not */
	j->flex = j->nodes > 1 && job->num_tasks != PRIO_NO_VAL &&
		  job->num_tasks >= j->nodes &&
		  (job->ntasks_per_node == 0 ||
		   job->ntasks_per_node >= 65534) &&
		  (j->mpc || !mem || job->min_memory);
	if (j->flex) {
		uint32_t unit = job->cpus_per_task ? job->cpus_per_task : 1;

		j->cpn = unit;
		if (j->mpc)
			j->mpn = j->mpc * unit;
	}
	j->excl = s->res.select == PRIO_SELECT_LINEAR ||
		  (os && !strcmp(os, "NO"));
	if (job->time_limit == PRIO_INFINITE || job->time_limit == PRIO_NO_VAL) {
		j->limit = FAR_FUTURE;
		j->flags |= N_NOLIMIT;
	} else {
		j->limit = (time_t)job->time_limit * 60;
	}
	j->begin = job->eligible_time > s->t0 ? job->eligible_time : s->t0;
	if (job->reason != PRIO_NO_ID &&
	    reason_is_limit(prio_snapshot_str(snap, job->reason)))
		j->flags |= N_LIMIT;
	for (uint32_t k = 0; k < job->tres_req.count; k++) {
		const struct prio_tres_count *it = &job->tres_req.items[k];
		const char *name = snap->tres.names[it->tres];
		uint32_t g = 0;

		if (strncmp(name, "gres/", 5) || !it->count)
			continue;
		if (strchr(name, ':')) {
			j->flags |= N_GTYPE; /* the count is in the untyped one */
			continue;
		}
		while (g < s->ngres && s->gres_id[g] != it->tres)
			g++;
		if (g < s->ngres)
			j->gpn[g] = (uint32_t)((it->count + j->nodes - 1) /
					       j->nodes);
		else
			j->flags |= N_GRES;
	}
	if (job->array_task_text != PRIO_NO_ID)
		j->flags |= N_ARRAY;
	if (d && d->licenses != PRIO_NO_ID)
		j->flags |= N_LIC;
	if (d && d->features != PRIO_NO_ID)
		j->flags |= N_FEAT;
	if (d && d->reservation != PRIO_NO_ID)
		j->flags |= N_RESV;
}

/* Could node n ever hold one node's share of j? */
static bool node_ever(const struct sim *s, const struct sjob *j, uint32_t n)
{
	if (!s->res.node_up[n] || s->res.node_cpus[n] < j->cpn ||
	    (j->mpn && s->res.node_mem[n] < j->mpn))
		return false;
	for (uint32_t g = 0; g < s->ngres; g++)
		if (s->node_gres[n * FC_GRES + g] < j->gpn[g])
			return false;
	return true;
}

/* Are j's GRES free on node n (free[g] the node's free counts)? */
static bool gres_fit(const struct sim *s, const struct sjob *j,
		     const int64_t *free)
{
	for (uint32_t g = 0; g < s->ngres; g++)
		if (free[g] < (int64_t)j->gpn[g])
			return false;
	return true;
}

/* Whether j can ever start in partition p; why not in *why. */
static bool partition_possible(struct sim *s, struct sjob *j, uint32_t p,
			       const char **why)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	uint32_t n = 0;

	if (pt->state && strcmp(pt->state, "UP") != 0) {
		*why = "its partition is not UP";
		return false;
	}
	if (pt->max_time != PRIO_INFINITE && pt->max_time != PRIO_NO_VAL &&
	    j->limit != FAR_FUTURE && j->limit > (time_t)pt->max_time * 60) {
		*why = "its time limit is over the partition's MaxTime";
		return false;
	}
	for (uint32_t k = 0; k < pt->node_count && n < j->nodes; k++)
		n += node_ever(s, j, pt->nodes[k]);
	if (n < j->nodes) {
		*why = "not enough usable nodes (up, not drained) of its "
		       "size in its partition";
		return false;
	}
	if (pt->max_share > 1 && !(pt->max_share & PRIO_SHARED_FORCE))
		j->flags |= N_SHARE;
	return true;
}

/* --- the queue ------------------------------------------------------------- */

/* Rebuild the queue of the jobs not started, with priorities at `calc`. */
/*
 * The engine of calculation `calc` when usage accrues: the snapshot's usage
 * moved there (prio_snapshot_advance: decay, the jobs running at NOW),
 * plus what the jobs started in the simulation by then charged.
 *
 * Fair Tree computes fairshare after the cycle has charged the running
 * jobs.  The other algorithms compute every association's effective usage
 * at the start of the cycle, before its decay and its charges (slurmctld's
 * decay thread), so their fairshare at `calc` is that of the usage at the
 * calculation before: a user whose jobs just started is not behind for
 * them until the calculation after.  (Slurm adds what a job charged since
 * the calculation before as the job ends; here that counts one calculation
 * later, with the rest: a few seconds' usage.)  At the
 * first calculation after NOW the engine's own lag applies, as for the
 * table (prio_fairshare_slurm).
 */
static int accrue_to(struct sim *s, time_t calc)
{
	struct prio_snapshot *u = &s->usnap;
	struct prio_error err;
	time_t upto = calc;

	bool lag = s->usage_lag && calc - s->period > s->t0;

	if (lag)
		upto = calc - s->period;
	for (uint32_t a = 0; a < u->assoc_count; a++)
		u->assocs[a].usage_raw = s->usage0[a];
	prio_error_clear(&err);
	if (upto > s->t0 && prio_snapshot_advance(u, upto, &err) < 0)
		return -1;
	for (uint32_t i = 0; i < s->nsj; i++) {
		const struct sjob *j = &s->sj[i];
		const struct prio_forecast_row *row = &s->fc->rows[i];
		prio_id part;

		if (!j->started)
			continue;
		part = s->snap->partitions[j->partition].name;
		if (row->start < upto)
			prio_snapshot_charge(u, upto, j->job, part, row->start,
					     row->end);
	}
	if (s->ue_live)
		prio_engine_free(&s->ue);
	s->ue_live = false;
	if (prio_engine_init_fs(&s->ue, u, calc,
				lag ? PRIO_FS_NO_LAG : 0, &err) < 0)
		return -1;
	s->ue_live = true;
	s->ec = s->ue;
	return 0;
}

static int build_queue(struct sim *s, time_t calc)
{
	const struct prio_snapshot *snap = s->snap;

	if (s->accrue && calc > snap->now && accrue_to(s, calc) < 0)
		return -1;
	s->ec.now = calc;
	s->q_calc = calc;
	s->nq = 0;
	s->least_cpn = UINT32_MAX;
	memset(s->remaining, 0, snap->partition_count * sizeof(*s->remaining));
	for (uint32_t i = 0; i < s->nsj; i++) {
		struct sjob *j = &s->sj[i];
		const struct prio_job *job = &snap->jobs[j->job];
		struct prio_job_factors jf;
		uint32_t np, nq;

		if (j->held || j->never || j->started)
			continue;
		if (j->cpn < s->least_cpn)
			s->least_cpn = j->cpn;
		np = prio_job_partitions(&s->ec, job, s->parts);
		nq = prio_job_qos_count(job);
		prio_job_factors(&s->ec, job, &jf);
		/* partition-major, as the controller fills priority_array */
		for (uint32_t k = 0; k < np * nq; k++) {
			struct prio_job_factors jq;
			struct prio_row row;
			struct entry *en;

			if (j->bad_parts & (1ull << (k / nq % 64)))
				continue;
			if (grow((void **)&s->q, &s->cq, s->nq, sizeof(*s->q)) < 0)
				return -1;
			en = &s->q[s->nq++];
			en->sj = i;
			en->q.job = j->job;
			en->q.partition = s->parts[k / nq];
			en->q.qos = prio_job_factors_at(&s->ec, job, &jf, k % nq,
							&jq);
			prio_row_compute(&s->ec, job, &jq, en->q.partition, &row);
			en->q.priority = row.priority;
			s->remaining[en->q.partition]++;
		}
	}
	if (prio_queue_sort(snap, s->q, s->nq, sizeof(*s->q)) < 0)
		return -1;
	s->version++;
	s->plan_version++;
	s->fc->recomputes++;
	return 0;
}

/* --- placing ----------------------------------------------------------- */

/* The CPUs j could use on a node with c CPUs and m MB free: what memory
 * allows too, in whole tasks; 0 when it cannot take its least there. */
static int64_t usable(const struct sjob *j, int64_t c, int64_t m)
{
	/* m < c * mpc is m / mpc < c without a division (the sweeps ask
	 * this for every node at every instant); where the two differ, for
	 * a negative m, m / mpc equals c anyway.  A product past int64 is
	 * past m on the side of c's sign. */
	int64_t room;

	if (j->mpc &&
	    (__builtin_mul_overflow(c, (int64_t)j->mpc, &room) ? c > 0
							      : m < room))
		c = m / (int64_t)j->mpc;
	if (j->flex && j->cpn > 1)
		c -= c % (int64_t)j->cpn;
	if (c < (int64_t)j->cpn || (!j->mpc && m < (int64_t)j->mpn))
		return 0;
	return c;
}

/* Keep in the min-heap h[0..*nh) the k largest values offered, and their
 * sum in *sum. */
static void top_push(int64_t *h, uint32_t *nh, uint32_t k, int64_t v,
		     int64_t *sum)
{
	uint32_t i;

	if (*nh < k) {
		for (i = (*nh)++; i > 0 && h[(i - 1) / 2] > v; i = (i - 1) / 2)
			h[i] = h[(i - 1) / 2];
		h[i] = v;
		*sum += v;
		return;
	}
	if (v <= h[0])
		return;
	*sum += v - h[0];
	for (i = 0;;) {
		uint32_t c = 2 * i + 1;

		if (c >= *nh)
			break;
		if (c + 1 < *nh && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

/*
 * Spread tasks need nodes whose largest free CPUs add up to the job's:
 * whether the j->nodes largest of s->avc do (a min-heap of them, in
 * run_cpus); the largest in *maxv.
 */
static bool largest_hold(struct sim *s, const struct sjob *j,
			 const struct prio_partition *pt, int64_t *maxv)
{
	int64_t *h = s->run_cpus, sum = 0;
	uint32_t nh = 0;

	for (uint32_t k = 0; k < pt->node_count; k++) {
		int64_t v = s->avc[k];

		if (v <= 0)
			continue;
		if (v > *maxv)
			*maxv = v;
		top_push(h, &nh, j->nodes, v, &sum);
	}
	return nh >= j->nodes && sum >= (int64_t)j->cpus;
}

/*
 * The nodes the select plugin (cons_tres's default, no topology) gives j
 * from partition p's slots, s->avc[k] the CPUs it could use on the k-th
 * (0: none): the nodes it may use form runs of consecutive nodes; it takes
 * the run that holds what it still needs with the fewest CPUs (else the
 * largest, and goes on with the next); in a run a one-node job takes the
 * node with the fewest CPUs that hold it (best fit), others take nodes in
 * order.  Into s->pick, s->pcpu and s->pmem; false when it does not fit.
 * maxv: the most CPUs of one slot when the caller knows that the j->nodes
 * largest slots hold the job's CPUs (earliest()'s histogram); 0 to have
 * choose() find both out.
 */
static bool choose_set(struct sim *s, const struct sjob *j, uint32_t p,
		       int64_t maxv)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	int64_t rem_cpus = j->flex ? (int64_t)j->cpus
				   : (int64_t)j->cpn * j->nodes;
	int64_t unit = j->flex ? j->cpn : 1;
	uint32_t rem_nodes = j->nodes, got = 0, nr = 0;

	if (j->flex && !maxv && !largest_hold(s, j, pt, &maxv))
		return false;
	/* the runs of usable slots, once: [run_from, run_to), their CPUs
	 * and node counts */
	for (uint32_t k = 0; k < pt->node_count;) {
		uint32_t e = k;

		if (s->avc[k] <= 0) {
			k++;
			continue;
		}
		s->run_cpus[nr] = 0;
		while (e < pt->node_count && s->avc[e] > 0 &&
		       (e == k || pt->nodes[e] == pt->nodes[e - 1] + 1))
			s->run_cpus[nr] += s->avc[e++];
		s->run_from[nr] = k;
		s->run_to[nr++] = e;
		k = e;
	}
	while (rem_nodes > 0 || rem_cpus > 0) {
		uint32_t best = UINT32_MAX;
		bool bsuff = false;

		/* the nodes left could not hold what is left, whichever */
		if (j->flex && rem_cpus > (int64_t)rem_nodes * maxv)
			return false;

		for (uint32_t r = 0; r < nr; r++) {
			int64_t c = s->run_cpus[r];
			bool suff;

			if (c < 0)
				continue; /* taken */
			suff = c >= rem_cpus &&
			       s->run_to[r] - s->run_from[r] >= rem_nodes;
			if (best == UINT32_MAX || (suff && !bsuff) ||
			    (suff && c < s->run_cpus[best]) ||
			    (!suff && !bsuff && c > s->run_cpus[best])) {
				best = r;
				bsuff = suff;
			}
		}
		if (best == UINT32_MAX)
			return false;
		uint32_t bs = s->run_from[best], be = s->run_to[best];

		s->run_cpus[best] = -1;
		if (rem_nodes <= 1) {
			uint32_t fit = UINT32_MAX;

			for (uint32_t k = bs; k < be; k++)
				if (s->avc[k] >= rem_cpus &&
				    (fit == UINT32_MAX || s->avc[k] < s->avc[fit]))
					fit = k;
			if (fit != UINT32_MAX)
				bs = fit, be = fit + 1;
		}
		for (uint32_t k = bs; k < be && rem_nodes > 0; k++) {
			int64_t take = s->avc[k];

			if (take <= 0 || (rem_nodes == 1 && take < rem_cpus))
				continue;
			if (!j->flex)
				take = j->cpn;
			else if (take > rem_cpus - (int64_t)(rem_nodes - 1) * unit)
				take = rem_cpus - (int64_t)(rem_nodes - 1) * unit;
			s->pick[got] = pt->nodes[k];
			s->pcpu[got] = (uint32_t)take;
			s->pmem[got] = j->mpc ? (uint64_t)take * j->mpc : j->mpn;
			got++;
			rem_cpus -= take;
			rem_nodes--;
		}
	}
	return true;
}

/*
 * choose_set(), and when it fails, again on fewer nodes: the select
 * plugin's guard against the knapsack problem (cons_tres, 22.05 to
 * 26.05).  When more nodes than the job's count could be used, the nodes
 * with the fewest usable CPUs are left out, those with at most 1, then at
 * most 2 and so on (in node order, stopping when only the job's count is
 * left), each time a node went, until a choice succeeds: a job of 16 CPUs
 * on 2 nodes that meets a run of 4 free CPUs, 8 and 8 would take the 4
 * and then find no node holding the 12 left; without the 4 it takes the
 * two 8s.  avc is as it was on return.
 */
static bool choose(struct sim *s, const struct sjob *j, uint32_t p,
		   int64_t maxv)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	uint32_t usable = 0, nsaved = 0;
	int64_t most = 0, count;
	bool ok = false;

	/* spread tasks: when the j->nodes largest slots cannot hold the
	 * job, no choice can, with fewer slots neither (choose_set()'s own
	 * first test, made once here) */
	if (j->flex && !maxv && !largest_hold(s, j, pt, &maxv))
		return false;
	if (choose_set(s, j, p, maxv))
		return true;
	for (uint32_t k = 0; k < pt->node_count; k++)
		if (s->avc[k] > 0) {
			usable++;
			if (s->avc[k] > most)
				most = s->avc[k];
		}
	/* count by count as Slurm goes, skipping the counts no node has
	 * (nothing left out: the same nodes, the same failure): the slots
	 * by usable CPUs, in slot order within a count (a counting sort) */
	if (most <= (int64_t)s->hist_max) {
		uint32_t nu = 0, at = 0;

		memset(s->vcnt, 0, ((size_t)most + 2) * sizeof(*s->vcnt));
		for (uint32_t k = 0; k < pt->node_count; k++)
			if (s->avc[k] > 0)
				s->vcnt[s->avc[k] + 1]++;
		for (int64_t v = 1; v <= most; v++)
			s->vcnt[v + 1] += s->vcnt[v];
		for (uint32_t k = 0; k < pt->node_count; k++)
			if (s->avc[k] > 0) {
				s->korder[s->vcnt[s->avc[k]]++] = k;
				nu++;
			}
		while (usable > j->nodes && at < nu) {
			uint32_t k0 = s->korder[at];
			int64_t v0 = s->avc[k0];

			if (v0 >= most)
				break;
			while (at < nu && s->avc[s->korder[at]] == v0) {
				uint32_t k = s->korder[at++];

				s->kn_slot[nsaved] = k;
				s->kn_val[nsaved++] = v0;
				s->avc[k] = 0;
				if (--usable <= j->nodes)
					break;
			}
			/* the largest slot stays: its CPUs bound what is
			 * left */
			if ((ok = choose_set(s, j, p, most)))
				break;
		}
		goto restore;
	}
	for (count = 1; count < most && usable > j->nodes;) {
		int64_t next = most;
		bool gone = false;

		for (uint32_t k = 0; k < pt->node_count; k++) {
			int64_t v = s->avc[k];

			if (v <= 0)
				continue;
			if (v > count) {
				if (v < next)
					next = v;
				continue;
			}
			s->kn_slot[nsaved] = k;
			s->kn_val[nsaved++] = v;
			s->avc[k] = 0;
			gone = true;
			if (--usable <= j->nodes)
				break;
		}
		if (gone && (ok = choose_set(s, j, p, most)))
			break;
		count = next;
	}
restore:
	while (nsaved-- > 0)
		s->avc[s->kn_slot[nsaved]] = s->kn_val[nsaved];
	return ok;
}

/* The CPUs j could use on node n with c CPUs, m memory, g GRES free and
 * b jobs on it (0: none): a whole idle node for an exclusive job, else
 * what its GRES, CPUs and memory allow. */
static int64_t room_with(const struct sim *s, const struct sjob *j,
			 uint32_t n, int64_t c, int64_t m, uint32_t b,
			 const int64_t *g)
{
	if (j->excl)
		return b == 0 && c >= (int64_t)s->res.node_cpus[n] ? c : 0;
	if (!gres_fit(s, j, g))
		return 0;
	return usable(j, c, m);
}

/* The CPUs j could use on node n as it is now. */
static int64_t room_now(const struct sim *s, const struct sjob *j, uint32_t n)
{
	return room_with(s, j, n, s->free_cpu[n], s->free_mem[n], s->busy[n],
			 &s->free_gres[n * FC_GRES]);
}

/* room_now() with the ends due by the backfill pass's instant given back
 * (s->due_*), as its will-run tests see the nodes at t. */
static int64_t room_at_t(const struct sim *s, const struct sjob *j,
			 uint32_t n)
{
	int64_t g[FC_GRES];

	if (!s->due)
		return room_now(s, j, n);
	for (uint32_t i = 0; i < s->ngres; i++)
		g[i] = s->free_gres[n * FC_GRES + i] +
		       s->due_gres[n * FC_GRES + i];
	return room_with(s, j, n, s->free_cpu[n] + s->due_cpu[n],
			 s->free_mem[n] + s->due_mem[n],
			 s->busy[n] - s->due_busy[n], g);
}

/* The ends pend[0 .. ndue), due by the pass's instant, counted in (sign 1)
 * or out (-1) of s->due_*. */
static void due_count(struct sim *s, uint32_t ndue, int sign)
{
	for (uint32_t i = 0; i < ndue; i++) {
		const struct ralloc *al = &s->pend[i].al;

		s->due_cpu[al->node] += sign * (int64_t)al->cpus;
		s->due_mem[al->node] += sign * (int64_t)al->mem;
		s->due_busy[al->node] += (uint32_t)sign;
		for (uint32_t g = 0; g < s->ngres; g++)
			s->due_gres[al->node * FC_GRES + g] +=
			    sign * (int64_t)al->gres[g];
	}
	s->due = sign > 0 && ndue > 0;
}

/* Whether j fits in partition p now: its nodes, as the select plugin
 * would choose them, in s->pick. */
static bool fit_now(struct sim *s, const struct sjob *j, uint32_t p)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	uint32_t cand = 0;

	for (uint32_t k = 0; k < pt->node_count; k++) {
		uint32_t n = pt->nodes[k];

		s->avc[k] = 0;
		if (!node_ever(s, j, n) || s->node_stamp[n] == s->pass_id)
			continue;
		s->avc[k] = room_now(s, j, n);
		cand += s->avc[k] > 0;
	}
	return cand >= j->nodes && choose(s, j, p, 0);
}

/* Start j on s->pick[0..j->nodes) at t. */
static int start(struct sim *s, const struct entry *en, time_t t,
		 uint8_t how)
{
	uint32_t sji = en->sj, p = en->q.partition;
	struct sjob *j = &s->sj[sji];
	struct prio_forecast_row *row = &s->fc->rows[sji];
	time_t plan = j->limit == FAR_FUTURE ? FAR_FUTURE : t + j->limit;
	char **names, buf[4096];
	uint32_t r, nfreed = 0, *freed;
	const struct prio_job *job = &s->snap->jobs[j->job];
	time_t end = plan == FAR_FUTURE ? plan : run_end(s, job, t, j->limit, t);

	if (new_run(s, j->job, end, plan, &r) < 0)
		return -1;
	if (s->lim)
		s->runs[r].lk = fc_limits_key(s->snap, job,
					      s->snap->partitions[p].name,
					      en->q.qos);
	names = prio_arena_alloc(&s->fc->arena, j->nodes * sizeof(*names));
	freed = prio_arena_alloc(&s->fc->arena,
				 (size_t)j->nodes * REL_KEEP * sizeof(*freed));
	if (!names || !freed)
		return -1;
	for (uint32_t k = 0; k < j->nodes; k++) {
		uint32_t n = s->pick[k];
		bool dup;
		uint32_t gres[FC_GRES];

		for (uint32_t g = 0; g < FC_GRES; g++)
			gres[g] = j->excl && g < s->ngres
				      ? s->node_gres[n * FC_GRES + g]
				      : j->gpn[g];
		if (add_ralloc(s, n,
			       j->excl ? s->res.node_cpus[n] : s->pcpu[k],
			       j->excl && s->res.track_memory
				   ? s->res.node_mem[n]
				   : s->pmem[k],
			       gres) < 0)
			return -1;
		names[k] = (char *)prio_snapshot_str(s->snap,
						     s->snap->nodes[n].name);
		if (s->rel_time[n] <= s->t0)
			continue;
		for (uint32_t i = 0; i < s->rel_cnt[n]; i++) {
			uint32_t fj = s->runs[s->rel_run[n * REL_KEEP + i]].job;

			dup = false;
			for (uint32_t m = 0; m < nfreed && !dup; m++)
				dup = freed[m] == fj;
			if (!dup)
				freed[nfreed++] = fj;
		}
	}
	/* by job id, so that ends at one instant list the same whatever
	 * order they were taken in */
	for (uint32_t a = 1; a < nfreed; a++)
		for (uint32_t b = a; b > 0 && s->snap->jobs[freed[b - 1]].job_id >
						  s->snap->jobs[freed[b]].job_id;
		     b--) {
			uint32_t x = freed[b];

			freed[b] = freed[b - 1];
			freed[b - 1] = x;
		}
	hold(s, &s->runs[r], 1);
	if (end != FAR_FUTURE && heap_push(s, end, r) < 0)
		return -1;
	s->version++;
	s->plan_version++;
	j->started = true;
	j->run = r;
	j->partition = p;
	j->how = how;
	row->status = PRIO_FC_STARTS;
	row->partition = p;
	row->how = how;
	row->start = t;
	row->end = end == FAR_FUTURE ? 0 : end;
	row->nodes = prio_arena_strdup(
	    &s->fc->arena, prio_hostlist_compress(names, j->nodes, buf,
						  sizeof(buf)));
	row->freed_by = freed;
	row->freed_count = nfreed;
	if (!row->nodes)
		return -1;
	/* its entries (every partition it may start in, every QOS) leave
	 * the count of what is left */
	uint32_t np = prio_job_partitions(&s->ec, job, s->parts),
		 nq = prio_job_qos_count(job);

	for (uint32_t k = 0; k < np; k++)
		if (!(j->bad_parts & (1ull << (k % 64))))
			s->remaining[s->parts[k]] -= nq;
	return 0;
}

/* --- main scheduler ------------------------------------------------------ */

/* Would an association or QOS limit hold en's job if it started now in
 * en's partition and QOS (forecast_limits.c)? */
static bool limit_holds(struct sim *s, const struct entry *en)
{
	struct sjob *j = &s->sj[en->sj];
	const struct prio_job *job = &s->snap->jobs[j->job];

	/* the lookups once per partition and QOS, not at every pass */
	if (j->lk_part != en->q.partition || j->lk_qos != en->q.qos) {
		j->lk = fc_limits_key(s->snap, job,
				      s->snap->partitions[en->q.partition].name,
				      en->q.qos);
		j->lk_part = en->q.partition;
		j->lk_qos = en->q.qos;
	}
	const char *why = fc_limits_block(s->lim, &j->lk, job);

	if (!why)
		return false;
	if (!j->lim_held)
		j->lim_why = prio_arena_strdup(&s->fc->arena, why);
	j->lim_held = true;
	return true;
}

/* Partition p failed: its nodes are taken from every later job of the
 * pass, as slurmctld's schedule() takes them from avail_node_bitmap; a
 * partition left without nodes is blocked too.  *open counts the
 * partitions with jobs left and not blocked. */
static void fail_partition(struct sim *s, uint32_t p, uint32_t *open)
{
	const struct prio_partition *pt = &s->snap->partitions[p];

	if (!s->blocked[p]) {
		s->blocked[p] = true;
		*open -= s->remaining[p] > 0;
	}
	for (uint32_t k = 0; k < pt->node_count; k++) {
		uint32_t n = pt->nodes[k];

		if (s->node_stamp[n] == s->pass_id)
			continue;
		s->node_stamp[n] = s->pass_id;
		for (uint32_t i = s->node_pfirst[n]; i < s->node_pfirst[n + 1];
		     i++) {
			uint32_t q = s->node_parts[i];

			if (--s->part_free[q] == 0 && !s->blocked[q]) {
				s->blocked[q] = true;
				*open -= s->remaining[q] > 0;
			}
		}
	}
}

/* Slurm's main scheduler: the queue in order; a job that does not fit
 * fails its partition (fail_partition).  It stops once every partition
 * with jobs left is blocked: O(P + entries walked) plus the nodes taken. */
static int main_pass(struct sim *s, time_t t)
{
	const struct prio_snapshot *snap = s->snap;
	uint32_t open = 0;

	s->pass_id++;
	for (uint32_t p = 0; p < snap->partition_count; p++) {
		s->blocked[p] = false;
		s->part_free[p] = snap->partitions[p].node_count;
		open += s->remaining[p] > 0;
	}
	for (uint32_t k = 0; k < s->nq && open; k++) {
		const struct entry *en = &s->q[k];
		struct sjob *j = &s->sj[en->sj];
		uint32_t p = en->q.partition;

		if (j->started || s->blocked[p] || !eligible(s, j, t))
			continue;
		/* held by a limit: skipped, its partition stays open */
		if (s->lim && limit_holds(s, en))
			continue;
		if (fit_now(s, j, p)) {
			if (start(s, en, t, PRIO_FC_MAIN) < 0)
				return -1;
			/* a partition whose last job started closes */
			open = 0;
			for (uint32_t q = 0; q < snap->partition_count; q++)
				open += !s->blocked[q] && s->remaining[q] > 0;
			continue;
		}
		fail_partition(s, p, &open);
	}
	return 0;
}

/* --- backfill -------------------------------------------------------------- */

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* A reservation [from, to) blocks a node for a job of limit L at the start
 * times T whose run [T, T + L) overlaps it: from - L < T < to.  by_from and
 * by_to keep the pass's reservations sorted by from and by to, so that a
 * sweep reads both orders without sorting.  resv_after(): the first of
 * idx[0 .. n) whose from (to) is after key. */
static uint32_t resv_after(const struct sim *s, const uint32_t *idx,
			   uint32_t n, bool by_to, time_t key)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct resv *r = &s->rv[idx[mid]];

		if ((by_to ? r->to : r->from) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int reserve(struct sim *s, const struct sjob *j, time_t from,
		   time_t to)
{
	for (uint32_t k = 0; k < j->nodes; k++) {
		if (grow((void **)&s->rv, &s->crv, s->nrv, sizeof(*s->rv)) < 0)
			return -1;
		if (s->cidx < s->crv) {
			void *f = realloc(s->by_from,
					  (size_t)s->crv * sizeof(*s->by_from));

			if (f)
				s->by_from = f;
			void *t = realloc(s->by_to,
					  (size_t)s->crv * sizeof(*s->by_to));

			if (t)
				s->by_to = t;
			void *o = realloc(s->rv_on,
					  (size_t)s->crv * sizeof(*s->rv_on));

			if (o)
				s->rv_on = o;
			void *pt = realloc(s->pto,
					   (size_t)s->crv * sizeof(*s->pto));

			if (pt)
				s->pto = pt;
			if (!f || !t || !o || !pt)
				return -1;
			s->cidx = s->crv;
		}
		s->rv_on[s->nrv] = 0;
		s->rv[s->nrv] = (struct resv){from, to, s->pick[k]};
		s->nrv++;
		/* sorted insertion: O(R) moves, no sort per job */
		/* the new entry is not in the indices yet */
		uint32_t i = s->nrv - 1,
			 at = resv_after(s, s->by_from, i, false, from);

		memmove(s->by_from + at + 1, s->by_from + at,
			(size_t)(i - at) * sizeof(*s->by_from));
		s->by_from[at] = i;
		at = resv_after(s, s->by_to, i, true, to);
		memmove(s->by_to + at + 1, s->by_to + at,
			(size_t)(i - at) * sizeof(*s->by_to));
		s->by_to[at] = i;
	}
	return 0;
}

/* A slot's usable CPUs u entering (d = 1) or leaving (d = -1) the
 * sweep's histogram. */
static inline void hist_add(struct sim *s, int64_t u, int d)
{
	if (u <= 0)
		return;
	if (u > (int64_t)s->hist_max)
		s->hist_over += (uint32_t)d;
	else
		s->uhist[u] += (uint32_t)d;
}

/* Whether the k slots that could give the most CPUs reach need: the test
 * choose() starts with for a job whose tasks spread, read from the
 * histogram in O(CPUs of a node) instead of a walk over the partition.
 * Without it a spread job that fits on enough nodes, and in all, but not
 * on its count of nodes (16 CPUs over 2 nodes, every node with 4 free)
 * walks the partition at every instant of its sweep, in vain. */
static bool hist_reach(const struct sim *s, uint32_t k, int64_t need,
		       int64_t *maxv)
{
	int64_t sum = 0;

	*maxv = 0;
	if (s->hist_over)
		return true; /* not counted: let choose() tell */
	for (uint32_t v = s->hist_max; v > 0 && k > 0; v--) {
		uint32_t c = s->uhist[v];

		if (!c)
			continue;
		if (!sum)
			*maxv = v;
		if (c > k)
			c = k;
		sum += (int64_t)c * v;
		k -= c;
		if (sum >= need)
			return true;
	}
	*maxv = 0;
	return false;
}

/* The CPUs j could use on the partition's k-th node n at the sweep's
 * instant: what is free then (capc, capm; capb jobs on it), as usable()
 * counts it (0: it does not fit there; else at least j->cpn), none while a
 * reservation overlapping its run holds the node (blkn of them); a
 * whole-node job needs the node idle. */
static int64_t use_at(const struct sim *s, const struct sjob *j, uint32_t n,
		      uint32_t k)
{
	if (!s->ever[k] || s->blkn[k])
		return 0;
	return room_with(s, j, n, s->capc[k], s->capm[k], s->capb[k],
			 &s->capg[k * FC_GRES]);
}

/* Slot k's state changed: its usable CPUs are counted again before the
 * sweep next asks whether j fits (sweep_flush()), once however many ends
 * and reservations touched it in between; a job's will-run test asks at
 * the end of a group of ends, not at each. */
static inline void sweep_mark(struct sim *s, uint32_t k)
{
	if (!s->dflag[k]) {
		s->dflag[k] = 1;
		s->dirty[s->ndirty++] = k;
	}
}

/* The marked slots counted again: `fitting` (the slots where j fits),
 * `usum` (the CPUs j could use on them) and their histogram. */
static void sweep_flush(struct sim *s, const struct sjob *j,
			const struct prio_partition *pt, uint32_t *fitting,
			int64_t *usum)
{
	for (uint32_t i = 0; i < s->ndirty; i++) {
		uint32_t k = s->dirty[i];
		int64_t was = s->avc[k], u = use_at(s, j, pt->nodes[k], k);

		s->dflag[k] = 0;
		if (u == was)
			continue;
		*usum += u - was;
		*fitting += (uint32_t)(u > 0) - (uint32_t)(was > 0);
		hist_add(s, was, -1);
		hist_add(s, u, 1);
		s->avc[k] = u;
		s->moved = true;
	}
	s->ndirty = 0;
}

/* The sweep's slot k gets back what an end frees. */
static inline void sweep_end(struct sim *s, uint32_t k,
			     const struct ralloc *al)
{
	s->capc[k] += al->cpus;
	s->capm[k] += (int64_t)al->mem;
	s->capb[k]--;
	for (uint32_t g = 0; g < s->ngres; g++)
		s->capg[k * FC_GRES + g] += al->gres[g];
}

/* A reservation starts (by 1) or stops (by -1) holding slot k. */
static inline void sweep_block(struct sim *s, uint32_t k, int by)
{
	s->blkn[k] += (uint32_t)by;
}

/* The sweep's slot k gives back what an end gave it (a will-run test that
 * starts again at that end: see earliest()). */
static inline void sweep_unend(struct sim *s, uint32_t k,
			       const struct ralloc *al)
{
	s->capc[k] -= al->cpus;
	s->capm[k] -= (int64_t)al->mem;
	s->capb[k]++;
	for (uint32_t g = 0; g < s->ngres; g++)
		s->capg[k * FC_GRES + g] -= al->gres[g];
}

/*
 * The pass's reservations as the map stands at instant upto, for a job of
 * limit lim swept from t: blkl[k] counts those that hold slot k over a run
 * starting then (a reservation [from, to) holds it from from - lim on,
 * unless over by then, until to: slurmctld's backfill takes a stretch of
 * its map that begins at the run's last second, S + lim, as overlapping
 * it).  The slots whose count moved are listed
 * in touch[] for resv_sync().
 */
static void resv_advance(struct sim *s, time_t lim, time_t t, time_t upto,
			 uint32_t *ion, uint32_t *ioff)
{
	for (; *ion < s->nrv && s->rv[s->by_from[*ion]].from - lim <= upto;
	     ++*ion) {
		uint32_t i = s->by_from[*ion];
		const struct resv *rv = &s->rv[i];
		time_t on = rv->from - lim > t ? rv->from - lim : t;
		uint32_t k = s->slot[rv->node];

		/* not in the partition, or over before it holds */
		if (!k-- || rv->to <= on || i >= s->rv_cap)
			continue;
		s->rv_on[i] = s->sweep_id;
		s->blkl[k]++;
		if (!s->tflag[k]) {
			s->tflag[k] = 1;
			s->touch[s->ntouch++] = k;
		}
	}
	for (; *ioff < s->nrv && s->rv[s->by_to[*ioff]].to <= upto; ++*ioff) {
		uint32_t i = s->by_to[*ioff];
		uint32_t k = s->slot[s->rv[i].node];

		if (!k-- || s->rv_on[i] != s->sweep_id)
			continue;
		s->blkl[k]--;
		if (!s->tflag[k]) {
			s->tflag[k] = 1;
			s->touch[s->ntouch++] = k;
		}
	}
}

/* The first instant after S at which a reservation holding a slot ends
 * (FAR_FUTURE: none): where the nodes a job may use grow, Slurm's
 * later_start.  pto[0..npto) are the pass's reservations on the
 * partition's nodes by end; *cur, the first ending after the S asked
 * before, moves only forward. */
static time_t resv_next_release(const struct sim *s, uint32_t npto,
				time_t S, uint32_t *cur)
{
	while (*cur < npto && s->rv[s->pto[*cur]].to <= S)
		++*cur;
	for (uint32_t i = *cur; i < npto; i++)
		if (s->rv_on[s->pto[i]] == s->sweep_id)
			return s->rv[s->pto[i]].to;
	return FAR_FUTURE;
}

/*
 * The third instant after x at which the pass's map changes (a
 * reservation, on any node, starts or ends), FAR_FUTURE when there are
 * fewer; the first in *first.  slurmctld's backfill map is a list of
 * stretches split at those instants; when no reservation gives a node
 * back before the run's end (x), later_start is the end of the stretch
 * after the first that begins past it: that third change.
 */
static time_t map_third_after(const struct sim *s, time_t x, time_t *first)
{
	uint32_t i = resv_after(s, s->by_from, s->nrv, false, x);
	uint32_t k = resv_after(s, s->by_to, s->nrv, true, x);
	time_t seen[3];
	uint32_t n = 0;

	while (n < 3) {
		time_t a = FAR_FUTURE, b = FAR_FUTURE, v;

		while (i < s->nrv && s->by_from[i] >= s->rv_cap)
			i++;
		while (k < s->nrv && s->by_to[k] >= s->rv_cap)
			k++;
		if (i < s->nrv)
			a = s->rv[s->by_from[i]].from;
		if (k < s->nrv)
			b = s->rv[s->by_to[k]].to;
		if ((v = a < b ? a : b) == FAR_FUTURE)
			break;
		if (a == v)
			i++;
		if (b == v)
			k++;
		if (!n || seen[n - 1] != v)
			seen[n++] = v;
	}
	*first = n ? seen[0] : FAR_FUTURE;
	return n == 3 ? seen[2] : FAR_FUTURE;
}

/*
 * Whether slurmctld's backfill, having planned j at `at` on s->pick[0 ..
 * j->nodes), finds a reservation there over the run (_test_resv_overlap:
 * then it tries again from `at`).  It compares the run as it would enter
 * it in the map, both ends truncated to bf_resolution, against the
 * stretches of the map: a reservation holds a chosen node when it begins
 * before the run's truncated end and ends after its truncated start.
 * Reservations start and end on multiples of bf_resolution, so that is
 * from + res <= at + lim and to > at.
 */
static bool pick_held(struct sim *s, const struct sjob *j, time_t at,
		      time_t lim)
{
	time_t res = s->sp->bf_resolution ? s->sp->bf_resolution : 1;
	uint32_t n = s->nrv < s->rv_cap ? s->nrv : s->rv_cap;

	s->pick_stamp++;
	for (uint32_t k = 0; k < j->nodes; k++)
		s->pmark[s->slot[s->pick[k]] - 1] = s->pick_stamp;
	for (uint32_t i = 0; i < n; i++) {
		const struct resv *rv = &s->rv[i];
		uint32_t k = s->slot[rv->node];

		if (k && s->pmark[k - 1] == s->pick_stamp &&
		    rv->from + res <= at + lim && rv->to > at)
			return true;
	}
	return false;
}

/*
 * The state a will-run test from S = upto starts with: the ends due before
 * instant `before` given back (pend[0 .. *r)), one due then or later taken
 * again, and the nodes the job may use (blkn) as the reservations leave
 * them at upto.
 */
static void sweep_restart(struct sim *s, time_t lim, time_t t, uint32_t npend,
			  time_t before, time_t upto, uint32_t *r,
			  uint32_t *ion, uint32_t *ioff)
{
	for (; *r > 0 && s->pend[*r - 1].at >= before; --*r) {
		const struct ralloc *al = &s->pend[*r - 1].al;
		uint32_t k = s->slot[al->node];

		if (k--) {
			sweep_unend(s, k, al);
			sweep_mark(s, k);
		}
	}
	for (; *r < npend && s->pend[*r].at < before; ++*r) {
		const struct ralloc *al = &s->pend[*r].al;
		uint32_t k = s->slot[al->node];

		if (k--) {
			sweep_end(s, k, al);
			sweep_mark(s, k);
		}
	}
	resv_advance(s, lim, t, upto, ion, ioff);
	for (uint32_t i = 0; i < s->ntouch; i++) {
		uint32_t k = s->touch[i];

		s->tflag[k] = 0;
		if ((s->blkn[k] > 0) != (s->blkl[k] > 0))
			sweep_mark(s, k);
		s->blkn[k] = s->blkl[k];
	}
	s->ntouch = 0;
}

/*
 * The start a will-run test gives for a fit after the group that ended at
 * `last`, freed from S (pend[.. r) the ends freed so far): from 25.05, the
 * last end it freed on a node it chose (the jobs on the others were not
 * needed); before, the group's last end.
 */
static time_t will_run_start(struct sim *s, const struct sjob *j, uint32_t r,
			     time_t S, time_t last)
{
	if (!s->wr_relevant)
		return last;
	s->pick_stamp++;
	for (uint32_t k = 0; k < j->nodes; k++)
		s->pmark[s->slot[s->pick[k]] - 1] = s->pick_stamp;
	for (uint32_t i = r; i-- > 0 && s->pend[i].at > S;) {
		uint32_t k = s->slot[s->pend[i].al.node];

		if (k && s->pmark[k - 1] == s->pick_stamp)
			return s->pend[i].at;
	}
	return last; /* not expected: Slurm's fallback */
}

/*
 * Whether j's counts (MAY_FIT in earliest()) would pass with the ends
 * pend[lo .. r) not yet freed, read without moving the sweep back: the
 * test a 22.05 to 24.05 will-run test from S makes of the last group that
 * closed by S, which in most tries fails on the counts alone.  The slots
 * those ends touch are counted again with what they gave back taken away
 * (listed in dirty[], their counts in kn_val[], choose()'s scratch), then
 * everything is put back as it was.  The sweep must be flushed.
 */
static bool may_fit_before(struct sim *s, const struct sjob *j,
			   const struct prio_partition *pt, uint32_t lo,
			   uint32_t r, uint32_t fitting, int64_t usum,
			   int64_t need)
{
	int64_t maxv;
	bool ok;

	/* a slot the job may not use counts nothing either way */
	for (uint32_t i = lo; i < r; i++) {
		uint32_t k = s->slot[s->pend[i].al.node];

		if (k-- && s->ever[k] && !s->blkn[k]) {
			sweep_unend(s, k, &s->pend[i].al);
			sweep_mark(s, k);
		}
	}
	for (uint32_t d = 0; d < s->ndirty; d++) {
		uint32_t k = s->dirty[d];
		int64_t was = s->avc[k], u = use_at(s, j, pt->nodes[k], k);

		s->kn_val[d] = u;
		fitting += (uint32_t)(u > 0) - (uint32_t)(was > 0);
		usum += u - was;
		hist_add(s, was, -1);
		hist_add(s, u, 1);
	}
	ok = fitting >= j->nodes && usum >= need &&
	     (!j->flex || hist_reach(s, j->nodes, need, &maxv));
	for (uint32_t d = 0; d < s->ndirty; d++) {
		uint32_t k = s->dirty[d];

		hist_add(s, s->kn_val[d], -1);
		hist_add(s, s->avc[k], 1);
		s->dflag[k] = 0;
	}
	s->ndirty = 0;
	for (uint32_t i = lo; i < r; i++) {
		uint32_t k = s->slot[s->pend[i].al.node];

		if (k-- && s->ever[k] && !s->blkn[k])
			sweep_end(s, k, &s->pend[i].al);
	}
	return ok;
}

/* SchedulerParameters bf_window_linear (0: the window doubles). */
#define WILL_RUN_WINDOW 30

/* The will-run test's window after a group that did not fit, grown until
 * it takes the next end, `past` after the anchor (Slurm's loop, the linear
 * steps counted at once). */
static time_t wr_grow(time_t window, time_t grow_by, time_t past)
{
	if (past <= window)
		return window;
	if (grow_by)
		return window +
		       (past - window + grow_by - 1) / grow_by * grow_by;
	while (past > window)
		window *= 2;
	return window;
}

/*
 * Where a will-run test from S begins (sweep_restart()'s `before`): from
 * 24.11 it frees the running jobs that end before S first (by S, from
 * 25.05) and groups the others; 22.05 to 24.05 know nothing of S and
 * group every running job from t on, so a test from a later S meets the
 * groups a test from t does.
 */
static time_t restart_from(const struct sim *s, time_t S)
{
	return s->wr_bounded ? S + s->wr_relevant : S + 1;
}

static uint32_t pend_after(const struct sim *s, uint32_t npend, time_t at);

/*
 * Whether j fits on the usage at t, on the nodes it may use from S (blkn):
 * the first try of a 22.05 to 24.05 will-run test from S > t, which knows
 * only the usage now.  Its nodes in s->pick; the sweep's avc is kept.
 * Only where no end in the window is due by t (the sweep then starts from
 * the usage as it is).
 */
static bool fits_at_t(struct sim *s, const struct sjob *j, uint32_t p,
		      int64_t need)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	uint32_t fitting = 0;
	int64_t usum = 0;
	bool ok;

	memcpy(s->avc_keep, s->avc, pt->node_count * sizeof(*s->avc));
	for (uint32_t k = 0; k < pt->node_count; k++) {
		int64_t u = !s->ever[k] || s->blkn[k]
				? 0
				: room_now(s, j, pt->nodes[k]);

		s->avc[k] = u;
		fitting += u > 0;
		usum += u;
	}
	ok = fitting >= j->nodes && usum >= need && choose(s, j, p, 0);
	memcpy(s->avc, s->avc_keep, pt->node_count * sizeof(*s->avc));
	return ok;
}

/*
 * The groups of a 22.05 to 24.05 will-run test tried again from S > t
 * (restart_from()), as they stand at S when the job does not fit with
 * every end by S freed: then no group that ended by S fits either (the
 * resources only grow from group to group), each failed, and only their
 * bounds are needed: the window after them, and whether a group is still
 * open at S.
 *
 * The test takes the ends in order; after one on a node the job may use
 * it closes the group when the next end is past anchor + window.  So a
 * group that begins with such an end at v closes at the first usable
 * instant from the last one within anchor + window on (or at v, when the
 * next end is already past).  With the window doubling, a few binary
 * searches per group instead of a walk over every end since t.
 */
#define WR_CLOSED_MAX 64
struct wr_groups {
	time_t anchor, window, last;
	/* the ends of the groups closed by S, in order (nclosed > the array:
	 * too many to keep) */
	time_t closed[WR_CLOSED_MAX];
	uint32_t nclosed;
	bool open;
};

/* Whether an end at pend[i]'s instant is on a node j may use; *next, the
 * index after that instant's ends. */
static bool instant_usable(const struct sim *s, uint32_t i, uint32_t npend,
			   uint32_t *next)
{
	time_t e = s->pend[i].at;
	bool usable = false;

	for (; i < npend && s->pend[i].at == e; i++) {
		uint32_t k = s->slot[s->pend[i].al.node];

		if (k-- && s->ever[k] && !s->blkn[k])
			usable = true;
	}
	*next = i;
	return usable;
}

/* The first index from i (an instant's first) whose instant is usable;
 * npend when none. */
static uint32_t next_usable(const struct sim *s, uint32_t i, uint32_t npend)
{
	uint32_t next;

	while (i < npend && !instant_usable(s, i, npend, &next))
		i = next;
	return i;
}

/* The first index of pend[i]'s instant. */
static uint32_t instant_first(const struct sim *s, uint32_t i)
{
	while (i > 0 && s->pend[i - 1].at == s->pend[i].at)
		i--;
	return i;
}

static void legacy_groups_at(const struct sim *s, time_t t, time_t S,
			     uint32_t npend, time_t grow_by,
			     struct wr_groups *g)
{
	uint32_t i = pend_after(s, npend, t);

	while ((i = next_usable(s, i, npend)) < npend && s->pend[i].at <= S) {
		time_t v = s->pend[i].at, edge, c;
		uint32_t after = pend_after(s, npend, v), z, p;

		if (!g->anchor)
			g->anchor = v + WILL_RUN_WINDOW - v % WILL_RUN_WINDOW;
		g->open = true;
		g->last = v;
		edge = g->anchor + g->window;
		if (after >= npend)
			return; /* the last end: open to the end */
		if (s->pend[after].at > edge) {
			c = v;
		} else {
			z = pend_after(s, npend, edge);
			p = instant_first(s, z - 1);
			if (instant_usable(s, p, npend, &after)) {
				c = s->pend[p].at;
			} else if ((p = next_usable(s, z, npend)) < npend) {
				c = s->pend[p].at;
				after = pend_after(s, npend, c);
			} else {
				return; /* never closes */
			}
		}
		if (c > S)
			return; /* open at S */
		g->last = c;
		if (g->nclosed < WR_CLOSED_MAX)
			g->closed[g->nclosed] = c;
		g->nclosed++;
		g->open = false;
		if (after < npend)
			g->window = wr_grow(g->window, grow_by,
					    s->pend[after].at - g->anchor);
		i = after;
	}
}


/*
 * The earliest start in [t, t + bf_window] that slurmctld's backfill would
 * find for j in p, without taking what the pass's reservations hold; its
 * nodes in s->pick, FAR_FUTURE when none.  With now_only, whether it
 * starts at t.
 *
 * How Slurm finds it (backfill.c, cons_tres _will_run_test and
 * _future_run_test, as of 24.11), and so the sweep:
 *  - From a start S (first t), the nodes j may use are those no
 *    reservation holds over [S, S + limit]; they stay fixed for the test.
 *  - The test frees the running jobs that end before S (by S, from 25.05)
 *    and tries; then it frees the others in order of their ends, in
 *    groups: the first group ends 30 s after the first end's next multiple
 *    of 30 s, and the window doubles after each group that does not fit
 *    (bf_window_linear: grows by that many seconds) until it takes the
 *    next end.  The group is decided by the end that follows the last one
 *    freed on a usable node, wherever it is.  A fit gives the group's last
 *    end as the start (from 25.05, the last end freed on a node it chose:
 *    will_run_start()).
 *  - The test stops at the first end after the next instant a reservation
 *    gives back a node (later_start), or, when none does by the map's
 *    first change after the run, after its third (map_third_after()); the
 *    start is then tried again from there.  A start whose nodes a
 *    reservation holds over its run, both truncated to bf_resolution
 *    (pick_held()), is tried again from that start.
 * 22.05 to 24.05 (no bound; later_start is only a node given back) know
 * nothing of S in the test: from any S it tries the usage at t, then
 * groups every running job's end from the first on, and a group that
 * ended by S gives S; a start found past later_start, which here is a
 * group that takes an end past it, is tried again from there.  The groups
 * by S are read, not swept (legacy_groups_at()), and tried only when the
 * job fits with every end by S freed, the last first (fits_at_t() for the
 * usage at t).  A reservation holds a node for a run that ends at its
 * first second (resv_advance()).
 * So a job may wait for a group's last end, where an exact sweep would
 * start it at the first end that frees enough; the reservation Slurm makes
 * for it, and what it leaves to the jobs after it, follow from that.
 *
 * One sweep in time over the ends in the window (pend[0..npend)) and the
 * reservations' starts and ends as this job's limit sees them, keeping the
 * count of nodes where it fits: O(N_p + ends + R) for a partition of N_p
 * nodes and R reservation entries on them, plus a pass over the ends of a
 * start tried again.  Only the reservations are in bf_resolution steps
 * (reserve()).
 */
static time_t earliest(struct sim *s, const struct sjob *j, uint32_t p,
		       time_t t, uint32_t npend, bool now_only)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	time_t horizon = now_only ? t : t + (time_t)s->sp->bf_window * 60;
	time_t found = FAR_FUTURE, S = t;
	time_t lim = j->limit == FAR_FUTURE ? FAR_FUTURE / 2 : j->limit;
	time_t grow_by = s->sp->bf_window_linear;
	uint32_t fitting = 0, r = 0, ion = 0, ioff = 0, npto = 0, pcur = 0;
	/* what the job needs in all: the sum of what it could use on the
	 * nodes where it fits must reach it before choose() is worth a
	 * walk over the partition's nodes */
	int64_t usum = 0, need = j->flex ? (int64_t)j->cpus
					 : (int64_t)j->cpn * j->nodes;
	int64_t maxv = 0; /* hist_reach(): the most CPUs of a slot */

	s->sweep_id++;

	for (uint32_t k = 0; k < pt->node_count; k++) {
		uint32_t n = pt->nodes[k];

		s->slot[n] = k + 1;
		s->ever[k] = node_ever(s, j, n);
		s->capc[k] = s->free_cpu[n];
		s->capm[k] = s->free_mem[n];
		s->capb[k] = s->busy[n];
		s->blkn[k] = s->blkl[k] = 0;
		s->tflag[k] = s->dflag[k] = 0;
		for (uint32_t g = 0; g < s->ngres; g++)
			s->capg[k * FC_GRES + g] = s->free_gres[n * FC_GRES + g];
	}
	s->ntouch = s->ndirty = 0;
	if (!now_only)
		for (uint32_t i = 0; i < s->nrv; i++) {
			uint32_t x = s->by_to[i];

			if (x < s->rv_cap && s->slot[s->rv[x].node])
				s->pto[npto++] = x;
		}
	memset(s->uhist, 0, ((size_t)s->hist_max + 1) * sizeof(*s->uhist));
	s->hist_over = 0;
	s->moved = true;
	for (uint32_t k = 0; k < pt->node_count; k++) {
		int64_t u;

		u = use_at(s, j, pt->nodes[k], k);
		s->avc[k] = u;
		fitting += u > 0;
		usum += u;
		hist_add(s, u, 1);
	}

/* Whether j could fit on what the sweep holds now, by its counts alone:
 * enough slots and CPUs, and for spread tasks enough on its count of the
 * largest slots; false too when choose() said no and no slot moved since. */
#define MAY_FIT()                                                              \
	(sweep_flush(s, j, pt, &fitting, &usum),                               \
	 s->moved && fitting >= j->nodes && usum >= need &&                    \
	 (!j->flex || hist_reach(s, j->nodes, need, &maxv)))
/* Whether j fits on what the sweep holds now; choose() is asked only when
 * a slot's usable CPUs moved since it last said no. */
#define FITS() (MAY_FIT() && (choose(s, j, p, maxv) || (s->moved = false)))
	/* at t, what is due by then is free (a job past its limit ends) */
	sweep_restart(s, lim, t, npend, t + 1, t, &r, &ion, &ioff);
	if (now_only) {
		if (FITS())
			found = t;
		goto out;
	}
	for (;;) {
		/* one will-run test from S, on the nodes free of
		 * reservations over [S, S + limit] (blkn) */
		time_t later = resv_next_release(s, npto, S, &pcur);

		/* 24.11 on: with no node given back by the first change of
		 * the map past the run, the bound is its third change (before
		 * the window's end) */
		if (s->wr_bounded) {
			time_t first, third = map_third_after(s, S + lim, &first);

			if (later > first)
				later = third < horizon ? third : FAR_FUTURE;
		}
		struct wr_groups g = {.window = WILL_RUN_WINDOW};
		/* 24.11 on the test stops at later; before, it goes on, and a
		 * group that takes an end past later gives a start past it */
		time_t bound = s->wr_bounded ? later : FAR_FUTURE;
		bool fit = false, past = false;

		if (s->wr_bounded || S == t) {
			if (FITS()) {
				found = S;
				break;
			}
		} else if (!MAY_FIT()) {
			/* 22.05 to 24.05 from S > t, no fit with every end by
			 * S freed: none of the groups that ended by S fits;
			 * the group open at S goes on.  The counts decide
			 * this; where they pass, the groups below are tried
			 * without asking choose() here: if the job could not
			 * have its nodes with every end by S freed, no group
			 * by S gives them (fewer freed) and the same group
			 * goes on, and choose() is the costly part (a spread
			 * job on a fragmented cluster leaves out the smallest
			 * nodes count by count, a walk of the partition each) */
			legacy_groups_at(s, t, S, npend, grow_by, &g);
		} else if ((npend && s->pend[0].at <= t) ||
			   (legacy_groups_at(s, t, S, npend, grow_by, &g),
			    g.nclosed > WR_CLOSED_MAX)) {
			/* the test from t swept in full (an end due by t, or
			 * too many groups to keep) */
			g = (struct wr_groups){.window = WILL_RUN_WINDOW};
			sweep_restart(s, lim, t, npend, t + 1, S, &r, &ion,
				      &ioff);
			if (FITS()) {
				found = S;
				break;
			}
		} else if (!g.nclosed) {
			/* no group ended by S: the first try, on the usage
			 * now, then the group open at S */
			if (fits_at_t(s, j, p, need)) {
				found = S;
				break;
			}
		} else {
			/* a group that ended by S and fits gives S, on the
			 * nodes of the first such: each fits if an earlier one
			 * does, so the last is tried first, then back; none:
			 * the group open at S goes on */
			uint32_t i = g.nclosed, at = i;

			/* the counts first, where the sweep stands: most
			 * tries end there, without a walk back and forth */
			if (!may_fit_before(s, j, pt,
					    pend_after(s, npend,
						       g.closed[i - 1]),
					    r, fitting, usum, need))
				goto open_group;
			sweep_restart(s, lim, t, npend, g.closed[i - 1] + 1, S,
				      &r, &ion, &ioff);
			if (FITS()) {
				while (i > 1) {
					sweep_restart(s, lim, t, npend,
						      g.closed[i - 2] + 1, S,
						      &r, &ion, &ioff);
					at = i - 1;
					if (!FITS())
						break;
					i--;
				}
				if (i == 1 && fits_at_t(s, j, p, need)) {
					found = S; /* the first try */
					break;
				}
				if (at != i)
					sweep_restart(s, lim, t, npend,
						      g.closed[i - 1] + 1, S,
						      &r, &ion, &ioff);
				(void)FITS(); /* its nodes */
				found = S;
				break;
			}
			sweep_restart(s, lim, t, npend, S + 1, S, &r, &ion,
				      &ioff);
		}
open_group:
		while (r < npend && s->pend[r].at <= bound) {
			time_t e = s->pend[r].at;
			bool usable = false;

			for (; r < npend && s->pend[r].at == e; r++) {
				const struct ralloc *al = &s->pend[r].al;
				uint32_t k = s->slot[al->node];

				if (!k--)
					continue;
				usable |= s->ever[k] && !s->blkn[k];
				sweep_end(s, k, al);
				sweep_mark(s, k);
			}
			if (!usable)
				continue;
			if (e > later) {
				past = true; /* tried again from later */
				break;
			}
			if (!g.anchor)
				g.anchor = e + WILL_RUN_WINDOW -
					   e % WILL_RUN_WINDOW;
			g.open = true;
			g.last = e;
			if (r < npend && s->pend[r].at <= g.anchor + g.window &&
			    s->pend[r].at <= bound)
				continue;
			g.open = false;
			if ((fit = FITS()))
				break;
			if (r < npend)
				g.window = wr_grow(g.window, grow_by,
						   s->pend[r].at - g.anchor);
		}
		if (!fit && g.open && !past)
			fit = FITS();
		if (fit) {
			/* Slurm checks the nodes it chose against the map
			 * over the run, and tries again from there if a
			 * reservation came to hold one after S */
			time_t at = will_run_start(s, j, r, S, g.last);

			if (at < S)
				at = S; /* before 24.11: a group ended by S */
			resv_advance(s, lim, t, at, &ion, &ioff);
			if (at > S && pick_held(s, j, at, lim)) {
				S = at;
				sweep_restart(s, lim, t, npend,
					      restart_from(s, S), S, &r, &ion,
					      &ioff);
				continue;
			}
			found = at;
			break;
		}
		if (later == FAR_FUTURE || later > horizon)
			break;
		S = later;
		sweep_restart(s, lim, t, npend, restart_from(s, S), S, &r,
			      &ion, &ioff);
	}
#undef FITS
#undef MAY_FIT
out:
	for (uint32_t k = 0; k < pt->node_count; k++)
		s->slot[pt->nodes[k]] = 0;
	return found;
}

/*
 * Within one backfill pass the resources only shrink (jobs start, and
 * reservations are added), so a job shape that found no start in the
 * window finds none later in the pass either, nor does the same shape with
 * a longer limit.  The pass remembers, per shape (partition, nodes, CPUs
 * in all and per node, memory per node and per CPU, tasks spread or not,
 * GRES, whole nodes), the shortest limit that failed.  Every part of the
 * shape counts: two jobs of 8 and 2 tasks over 2 nodes have the same CPUs
 * per node (one task's) when their tasks spread, and the second fits
 * where the first does not.  The same slot keeps whether the shape could
 * fit now at all (may_fit_now()), while nothing has started since, and the
 * shortest limit that could not start now under the pass's reservations
 * (earliest() at t only): starts and reservations only take from what is
 * free now, and a longer limit meets every reservation a shorter one does,
 * so that failure holds for the rest of the pass.  Slurm's will-run test
 * (earliest()) keeps this: each of its tests from a start S fails when the
 * last one up to the next release did, on nodes and ends that only shrink.
 * One case is left out: a fit whose chosen nodes a reservation holds is
 * tried again from its start, and with fewer nodes free the select plugin
 * may choose others there, which nothing holds; the rule still says no.
 */
struct nofit {
	uint32_t stamp;   /* == sim's bf pass: valid */
	uint32_t p, nodes, cpn, cpus;
	uint64_t mpn, mpc;
	uint32_t gpn[FC_GRES];
	bool excl, flex;
	time_t limit;     /* NOFIT_NONE: none failed */
	time_t now_limit; /* NOFIT_NONE: none failed to start now */
	uint32_t now_stamp; /* == sim's now_stamp: now_fits valid */
	bool now_fits;
};

#define NOFIT_SLOTS 4096u
#define NOFIT_NONE ((time_t)1 << 62)

static uint32_t nofit_hash(const struct sjob *j, uint32_t p)
{
	uint64_t h = p * 0x9e3779b97f4a7c15ull ^ j->nodes * 0xc2b2ae3d27d4eb4full ^
		     j->cpn * 0x165667b19e3779f9ull ^ j->mpn ^ j->excl ^
		     (uint64_t)j->cpus << 20 ^ (uint64_t)j->flex << 1;

	return (uint32_t)(h ^ h >> 29) & (NOFIT_SLOTS - 1);
}

/* The slot of j's shape in p, claimed for this pass when it was free
 * (NULL when the neighbourhood is full: no caching). */
static struct nofit *nofit_slot(struct sim *s, const struct sjob *j,
				uint32_t p)
{
	uint32_t h = nofit_hash(j, p);

	for (uint32_t i = 0; i < 8; i++) {
		struct nofit *f = &s->nofit[(h + i) & (NOFIT_SLOTS - 1)];

		if (f->stamp != s->bf_stamp) {
			*f = (struct nofit){.stamp = s->bf_stamp,
					    .p = p,
					    .nodes = j->nodes,
					    .cpn = j->cpn,
					    .cpus = j->cpus,
					    .mpn = j->mpn,
					    .mpc = j->mpc,
					    .excl = j->excl,
					    .flex = j->flex,
					    .limit = NOFIT_NONE,
					    .now_limit = NOFIT_NONE};
			memcpy(f->gpn, j->gpn, sizeof(f->gpn));
			return f;
		}
		if (f->p == p && f->nodes == j->nodes && f->cpn == j->cpn &&
		    f->cpus == j->cpus && f->mpn == j->mpn && f->mpc == j->mpc &&
		    f->excl == j->excl && f->flex == j->flex &&
		    !memcmp(f->gpn, j->gpn, sizeof(f->gpn)))
			return f;
	}
	return NULL;
}

/*
 * Whether j could start in p now if no reservation held anything: enough
 * nodes where it fits, and enough CPUs on them (for spread tasks, on its
 * count of the largest), with the ends due by now given back as every
 * will-run test of the pass gives them (room_at_t()).  choose() cannot
 * succeed without this, and the reservations only take from what use_at()
 * sees, so a job that fails it
 * does not start in this pass: backfill_pass() puts off its sweep until a
 * job below it might start, and needs its reservation.
 */
static bool may_fit_now(struct sim *s, const struct sjob *j, uint32_t p)
{
	const struct prio_partition *pt = &s->snap->partitions[p];
	int64_t need = j->flex ? (int64_t)j->cpus : (int64_t)j->cpn * j->nodes;
	int64_t sum = 0;
	uint32_t fitting = 0;

	for (uint32_t k = 0; k < pt->node_count; k++) {
		uint32_t n = pt->nodes[k];
		int64_t u;

		if (!node_ever(s, j, n) || (u = room_at_t(s, j, n)) <= 0)
			continue;
		/* spread tasks: the sum of the j->nodes largest */
		if (j->flex)
			top_push(s->run_cpus, &fitting, j->nodes, u, &sum);
		else
			fitting++, sum += u;
		if (fitting >= j->nodes && sum >= need)
			return true;
	}
	return false;
}

/* Room for n ends in s->pend; -1 on ENOMEM. */
static int pend_room(struct sim *s, uint32_t n)
{
	while (n > s->cpend)
		if (grow((void **)&s->pend, &s->cpend, s->cpend,
			 sizeof(*s->pend)) < 0)
			return -1;
	return 0;
}

/* What each node of rn gets back at its planned end at, in
 * s->pend[slot..slot + rn->count) (room made by the caller). */
static void pend_put(struct sim *s, uint32_t slot, const struct run *rn,
		     time_t at)
{
	for (uint32_t a = 0; a < rn->count; a++)
		s->pend[slot + a] = (struct pend){at, s->ra[rn->first + a]};
}

/* The first of pend[0..npend) after instant at (npend: none). */
static uint32_t pend_after(const struct sim *s, uint32_t npend, time_t at)
{
	uint32_t lo = 0, hi = npend;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->pend[mid].at <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A job the pass has just started ends, for the jobs tested after it, at
 * its planned end: slurmctld's backfill tests each job against the running
 * jobs as they are then, the one it started among them (the select
 * plugin's will-run test frees its resources at its end time).  Without
 * this its nodes stayed taken to the end of the window for the rest of
 * the pass.  Sorted insertion into pend[0..*npend), after the ends at the
 * same instant.
 */
static int pend_insert(struct sim *s, uint32_t *npend, uint32_t run,
		       time_t horizon)
{
	const struct run *rn = &s->runs[run];
	time_t at = rn->plan;
	uint32_t lo;

	if (at > horizon)
		return 0;
	if (pend_room(s, *npend + rn->count) < 0)
		return -1;
	lo = pend_after(s, *npend, at);
	memmove(s->pend + lo + rn->count, s->pend + lo,
		(size_t)(*npend - lo) * sizeof(*s->pend));
	pend_put(s, lo, rn, at);
	*npend += rn->count;
	return 0;
}

/* What backfill does with one tested job: its earliest start in the
 * window; started now, or holding a reservation for the jobs after it. */
static int backfill_try(struct sim *s, const struct entry *en, time_t t,
			uint32_t *npend, struct nofit *f)
{
	struct sjob *j = &s->sj[en->sj];
	time_t horizon = t + (time_t)s->sp->bf_window * 60;
	/* slurmctld's backfill map keeps a reservation's start and end
	 * truncated to multiples of bf_resolution (whole minutes by
	 * default): a lower job that would end a few seconds into the
	 * minute a higher job is planned for does not start */
	time_t res = s->sp->bf_resolution ? s->sp->bf_resolution : 1;
	time_t at;

	if (grow((void **)&s->memo, &s->cmemo, s->nmemo, sizeof(*s->memo)) < 0)
		return -1;
	s->memo[s->nmemo] = (struct bf_memo){en->sj, en->q.partition, s->nrv,
					     FAR_FUTURE};
	if (f && j->limit >= f->limit) {
		s->nmemo++;
		return 0; /* known not to fit in the window */
	}
	at = earliest(s, j, en->q.partition, t, *npend, false);
	s->memo[s->nmemo++].at = at;
	if (at == FAR_FUTURE && f && j->limit < f->limit)
		f->limit = j->limit;
	if (at == t) {
		if (start(s, en, t, PRIO_FC_BACKFILL) < 0)
			return -1;
		s->now_stamp++;
		if (pend_insert(s, npend, j->run, horizon) < 0)
			return -1;
	} else if (at != FAR_FUTURE) {
		/* at least one bf_resolution long, as slurmctld enters it
		 * (a job shorter than that would otherwise hold nothing) */
		time_t from = at / res * res, to = FAR_FUTURE;

		if (j->limit != FAR_FUTURE &&
		    (to = (at + j->limit) / res * res) < from + res)
			to = from + res;
		if (reserve(s, j, from, to) < 0)
			return -1;
	}
	return 0;
}

static bool node_in_partition(const struct sim *s, uint32_t n, uint32_t p)
{
	for (uint32_t i = s->node_pfirst[n]; i < s->node_pfirst[n + 1]; i++)
		if (s->node_parts[i] == p)
			return true;
	return false;
}

/*
 * The pass before this one started nothing, and nothing has changed its
 * plan since (plan_version).  Its tested jobs come again in the same
 * order while they keep their result, so each keeps its reservation
 * without a sweep, if nothing ended on its partition's nodes since, nor
 * did a reservation before its place start or stop holding one there:
 * its will-run test from now then meets the same ends in the same groups
 * (earliest()), and the same nodes, as that pass's did.  Then:
 *  - a start found at T after now is still the one found;
 *  - no start in that pass's window stays none in this one unless its
 *    state changes in the window's new part (an end in it, or a
 *    reservation made before the job's own starting or stopping to block
 *    it, on a node of its partition); then the job is swept again.
 * A job whose start came due, or one that differs from the memo's (another
 * job, or the same in another partition), ends the reuse: the reservations
 * after its place are dropped (memo_cut) and the pass goes on as a new
 * one.
 */
/* x in (a, b] */
#define IN(x, a, b) ((x) > (a) && (x) <= (b))

static bool memo_holds(struct sim *s, const struct bf_memo *m,
		       const struct sjob *j, uint32_t p, time_t t,
		       uint32_t npend)
{
	time_t w = (time_t)s->sp->bf_window * 60;
	time_t at, h1 = s->memo_t + w, h2 = t + w;
	time_t lim = j->limit == FAR_FUTURE ? FAR_FUTURE / 2 : j->limit;
	uint32_t lo;

	/* the test's start moves from the memo's pass to t: the ends after
	 * it, and the nodes the reservations before this job hold from it,
	 * must be the same for the groups to be; with the bound of 24.11
	 * (earliest()), the map's changes after the run too, on any node */
	if (s->part_ends[p] != s->memo_part_ends[p])
		return false;
	for (uint32_t i = 0; i < m->nrv; i++) {
		const struct resv *rv = &s->rv[i];
		time_t on = rv->from - lim;

		if (!s->wr_bounded && !node_in_partition(s, rv->node, p))
			continue;
		if (IN(rv->to, s->memo_t, t) || IN(on, s->memo_t, t) ||
		    (s->wr_bounded &&
		     (IN(rv->from, s->memo_t + lim, t + lim) ||
		      IN(rv->to, s->memo_t + lim, t + lim))))
			return false;
	}
	if (m->at != FAR_FUTURE)
		return m->at > t;
	if (h2 <= h1)
		return true;
	for (lo = pend_after(s, npend, h1);
	     lo < npend && s->pend[lo].at <= h2; lo++)
		if (node_in_partition(s, s->pend[lo].al.node, p))
			goto sweep;
	for (uint32_t i = 0; i < m->nrv; i++) {
		const struct resv *rv = &s->rv[i];
		time_t on = rv->from - lim;

		if (s->wr_bounded
			? IN(rv->to, h1, h2) || IN(on, h1, h2) ||
			      IN(rv->from, h1, h2)
			: (IN(rv->to, h1, h2) || IN(on, h1, h2)) &&
			      node_in_partition(s, rv->node, p))
			goto sweep;
	}
	return true;
sweep:
	/* something changes there: swept again, under the reservations
	 * made before this job's place */
	s->rv_cap = m->nrv;
	at = earliest(s, j, p, t, npend, false);
	s->rv_cap = UINT32_MAX;
	return at == FAR_FUTURE;
}
#undef IN

/* Keep the reservations of the memo's first `keep` jobs, drop the rest. */
static void memo_cut(struct sim *s, uint32_t keep)
{
	uint32_t n = keep < s->nmemo ? s->memo[keep].nrv : s->nrv, a = 0, b = 0;

	for (uint32_t i = 0; i < s->nrv; i++) {
		if (s->by_from[i] < n)
			s->by_from[a++] = s->by_from[i];
		if (s->by_to[i] < n)
			s->by_to[b++] = s->by_to[i];
	}
	s->nrv = n;
	s->nmemo = keep;
}

/* Whether the bound another thread set (a try's start to beat, minus
 * one) is already behind t: nothing found from t on can be an answer. */
static bool past_bound(const struct sim *s, time_t t)
{
	long long b;

	if (!s->bound)
		return false;
	b = atomic_load_explicit(s->bound, memory_order_relaxed);
	return b && t > (time_t)b;
}

/* Has every job opts watches started, or can it never start by itself
 * (held, never)?  False when it watches none. */
static bool watched_done(const struct sim *s,
			 const struct prio_forecast_opts *opts)
{
	if (!opts || !opts->watch_count)
		return false;
	for (uint32_t k = 0; k < opts->watch_count; k++) {
		uint32_t i = opts->watch[k] < s->snap->job_count
				 ? s->sj_of_job[opts->watch[k]]
				 : NONE;

		if (i != NONE && !s->sj[i].started && !s->sj[i].held &&
		    !s->sj[i].never)
			return false;
	}
	return true;
}

/* Whether a reservation made since the first nrv0 could hold a node over
 * a run of limit lim from t (a reservation [from, to) does from from - lim
 * on, resv_advance()): none that begins later can keep a job from
 * starting at t. */
static bool resv_reach_now(const struct sim *s, uint32_t nrv0, time_t t,
			   time_t lim)
{
	for (uint32_t i = nrv0; i < s->nrv; i++)
		if (s->rv[i].from - lim <= t && s->rv[i].to > t)
			return true;
	return false;
}

/*
 * The jobs put off before en (defer[0 .. *ndefer)) swept in order, each
 * making its reservation, before en's own sweep.  None of them starts now
 * (each was put off because it could not, and resources only shrink in a
 * pass), so only their reservations change what en meets at t: when one
 * keeps en from starting now (earliest() at t, asked only after a
 * reservation that reaches t), the sweep stops there and returns 0; the
 * jobs not swept stay put off, first in defer[], for the caller to put en
 * after them.  Whoever comes next sweeps them in the same order, on the
 * same resources and reservations (nothing started in between), so every
 * reservation and start is the one of a pass that swept all in turn.  A
 * flush that found en kept from starting swept the whole list before,
 * placing reservations no job starting now needed yet (on M to +1 h, a
 * third of the sweeps).  1: all swept, en may start now; -1: ENOMEM.
 */
static int flush_deferred(struct sim *s, const struct entry *en,
			  struct nofit *f, time_t t, uint32_t *npend,
			  uint32_t *ndefer)
{
	const struct sjob *j = &s->sj[en->sj];
	time_t lim = j->limit == FAR_FUTURE ? FAR_FUTURE / 2 : j->limit;

	for (uint32_t d = 0; d < *ndefer; d++) {
		const struct entry *de = &s->q[s->defer[d]];
		uint32_t nrv0 = s->nrv;

		if (backfill_try(s, de, t, npend,
				 nofit_slot(s, &s->sj[de->sj],
					    de->q.partition)) < 0)
			return -1;
		if (!resv_reach_now(s, nrv0, t, lim) ||
		    earliest(s, j, en->q.partition, t, *npend, true) == t)
			continue;
		if (f && j->limit < f->now_limit)
			f->now_limit = j->limit;
		memmove(s->defer, s->defer + d + 1,
			(*ndefer - d - 1) * sizeof(*s->defer));
		*ndefer -= d + 1;
		return 0;
	}
	*ndefer = 0;
	return 1;
}

/*
 * One backfill pass.  A job that cannot start now (may_fit_now() says no,
 * or earliest() finds no room at t under the reservations made so far)
 * only matters through its reservation, and that only to a job after it
 * that might start now: its sweep is put off (s->defer) until such a job
 * comes, and made then, in order, before that job's, until one keeps that
 * job from starting (flush_deferred()); the jobs put off after the last
 * such job are never swept.  The reservations, starts and shortest failed
 * limits are those of sweeping every job in turn (fc_test.eager), as
 * nothing changes while jobs are put off; on a full cluster most of a
 * pass's thousand jobs are, and the now-only check costs a sweep of the
 * nodes only, not of the window's ends.
 */
static int backfill_pass(struct sim *s, time_t t)
{
	const struct prio_sched_params *sp = s->sp;
	time_t horizon = t + (time_t)sp->bf_window * 60;
	uint32_t nrel = 0, npend = 0, tested = 0, ndefer = 0, mi = 0, ndue = 0;
	uint64_t version0 = s->plan_version;
	bool reuse = s->memo_ok && s->plan_version == s->memo_version;

	if (!reuse)
		s->nrv = s->nmemo = 0;
	s->memo_ok = false;
	s->fc->backfill_passes++;
	s->bf_stamp++;
	s->now_stamp++;
	/* the running jobs' ends as Slurm plans them: at their limits,
	 * whenever they really end (--forecast-ends history) */
	for (uint32_t i = 0; i < s->nheap; i++)
		if (s->heap[i].run < CALC_WAKE &&
		    s->runs[s->heap[i].run].plan <= horizon) {
			s->rel[nrel] = s->heap[i];
			s->rel[nrel++].at = s->runs[s->heap[i].run].plan;
		}
	if (nrel)
		qsort(s->rel, nrel, sizeof(*s->rel), cmp_event);
	for (uint32_t i = 0; i < nrel; i++) {
		const struct run *rn = &s->runs[s->rel[i].run];

		if (pend_room(s, npend + rn->count) < 0)
			return -1;
		pend_put(s, npend, rn, s->rel[i].at);
		npend += rn->count;
	}
	/* the ends already due (the first pass, a job past its limit) are
	 * free at t for every will-run test: may_fit_now() counts them so */
	while (ndue < npend && s->pend[ndue].at <= t)
		ndue++;
	due_count(s, ndue, 1);
	if (sp->bf_max_job_user)
		memset(s->user_tested, 0,
		       s->user_slots * sizeof(*s->user_tested));
	for (uint32_t k = 0; k < s->nq && tested < sp->bf_max_job_test; k++) {
		const struct entry *en = &s->q[k];
		struct sjob *j = &s->sj[en->sj];
		const struct prio_job *job = &s->snap->jobs[j->job];
		struct nofit *f;
		bool now;

		if (j->started || !eligible(s, j, t))
			continue;
		/* a try whose start to beat came to be known at or before t
		 * (its first pass, on a large queue the costliest, runs while
		 * the forecast it is to beat may end in a moment): the run
		 * ends here, as at its next event */
		if (past_bound(s, t)) {
			s->cut = true;
			break;
		}
		/* held by a limit: neither tested nor given a reservation */
		if (s->lim && limit_holds(s, en))
			continue;
		if (sp->bf_max_job_user) {
			if (s->user_tested[job->user] >= sp->bf_max_job_user)
				continue;
			s->user_tested[job->user]++;
		}
		tested++;
		if (reuse) {
			if (mi < s->nmemo && s->memo[mi].sj == en->sj &&
			    s->memo[mi].p == en->q.partition &&
			    memo_holds(s, &s->memo[mi], j, en->q.partition, t,
				       npend)) {
				mi++;
				continue;
			}
			memo_cut(s, mi);
			reuse = false;
		}
		f = nofit_slot(s, j, en->q.partition);
		if (fc_test.eager) {
			if (backfill_try(s, en, t, &npend, f) < 0)
				return -1;
			if (j->started && watched_done(s, s->opts))
				break;
			continue;
		}
		if (f && f->now_stamp == s->now_stamp) {
			now = f->now_fits;
		} else {
			now = may_fit_now(s, j, en->q.partition);
			if (f) {
				f->now_stamp = s->now_stamp;
				f->now_fits = now;
			}
		}
		/* and with the reservations made so far, which only grow
		 * while the pass goes on */
		if (now && f && j->limit >= f->now_limit) {
			now = false;
		} else if (now && earliest(s, j, en->q.partition, t,
					   npend, true) != t) {
			now = false;
			if (f && j->limit < f->now_limit)
				f->now_limit = j->limit;
		}
		if (!now) {
			if (grow((void **)&s->defer, &s->cdefer, ndefer,
				 sizeof(*s->defer)) < 0)
				return -1;
			s->defer[ndefer++] = k;
			continue;
		}
		switch (flush_deferred(s, en, f, t, &npend, &ndefer)) {
		case -1:
			return -1;
		case 0:
			/* kept from starting now: put off with the rest */
			s->defer[ndefer++] = k;
			continue;
		}
		if (backfill_try(s, en, t, &npend, f) < 0)
			return -1;
		/* the jobs watched have their starts: what the rest of the
		 * pass does comes after them and changes none (the run ends
		 * at this pass, as it would after it) */
		if (j->started && watched_done(s, s->opts))
			break;
	}
	if (reuse)
		memo_cut(s, mi);
	due_count(s, ndue, -1);
	/* the jobs put off to the end are not swept: not in the memo, and
	 * the next pass tests them anew */
	s->memo_ok = s->plan_version == version0;
	s->memo_version = s->plan_version;
	s->memo_t = t;
	memcpy(s->memo_part_ends, s->part_ends,
	       s->snap->partition_count * sizeof(*s->part_ends));
	return 0;
}

struct fc_test_hooks fc_test;

/* --- the run ------------------------------------------------------------- */

/*
 * slurmctld's backfill thread sleeps bf_interval after each cycle, then
 * runs the next one as soon as something changed since the last (at once
 * on a busy cluster, where the passes themselves and the main scheduler
 * keep changing jobs).  sdiag's last cycle (its start and length, the
 * folder's sdiag.txt) then gives the ticks: start + length + bf_interval,
 * and every bf_interval + length after.  A last cycle more than two ticks
 * before NOW says the timer was idle (nothing to do); then, as without
 * sdiag, a pass comes at the first event after bf_interval.
 */
/* SchedulerParameters bf_interval, Slurm's 30 s where unset. */
static time_t bf_interval_of(const struct prio_sched_params *sp)
{
	return sp->bf_interval ? sp->bf_interval : 30;
}

bool prio_forecast_backfill_timer(const struct prio_snapshot *snap,
				  time_t *first, time_t *period)
{
	const struct prio_sched_params *sp = &snap->conf.sched;
	time_t iv = bf_interval_of(sp);
	time_t len = (time_t)(snap->bf_last_cycle_us / 1000000u);
	time_t tick = snap->bf_last_cycle + len + iv;

	if (!sp->backfill || !snap->bf_last_cycle ||
	    snap->bf_last_cycle > snap->now ||
	    snap->bf_last_cycle < snap->now - 2 * (iv + len))
		return false;
	if (tick < snap->now)
		tick += (snap->now - tick + iv + len - 1) / (iv + len) *
			(iv + len);
	*first = tick;
	*period = iv + len;
	return true;
}

/* Whether a job left to start could have its CPUs on one node as the
 * nodes are now: some node has as many free as the least a job of the
 * queue needs on one (its CPUs per node; one task's when they spread).
 * A lower bound of the need (memory, GRES and whole nodes left out, and
 * the queue as built at the last calculation, jobs started since
 * included): when it says no, no job can start before something ends. */
static bool room_for_a_job(const struct sim *s)
{
	int64_t most = 0;

	if (!s->nq)
		return false;
	for (uint32_t n = 0; n < s->snap->node_count; n++)
		if (s->free_cpu[n] > most)
			most = s->free_cpu[n];
	return most >= (int64_t)(s->least_cpn ? s->least_cpn : 1);
}

/* The priority calculation in force at t: the last at or before it,
 * calc_init before calc0. */
static time_t calc_at(const struct sim *s, time_t t)
{
	if (t < s->calc0)
		return s->calc_init;
	return s->period > 0 ? s->calc0 + (t - s->calc0) / s->period * s->period
			     : t;
}

/* The first backfill tick at or after x: next_bf, or on a known timer
 * its tick; without one, x itself once next_bf is behind it. */
static time_t tick_from(const struct sim *s, time_t x)
{
	if (x <= s->next_bf)
		return s->next_bf;
	if (!s->bf_period)
		return x;
	return s->next_bf + (x - s->next_bf + s->bf_period - 1) /
				    s->bf_period * s->bf_period;
}

static int pass(struct sim *s, time_t t)
{
	time_t calc = calc_at(s, t);

	if (calc != s->q_calc && build_queue(s, calc) < 0)
		return -1;
	s->fc->passes++;
	if (main_pass(s, t) < 0)
		return -1;
	if (!s->sp->backfill || watched_done(s, s->opts))
		return 0; /* the run ends here (prio_forecast_run()) */
	/* on a known timer the ticks go on while nothing is to be done (a
	 * pass that would find what the last one found is not run): the
	 * next pass is at the first tick at or after t */
	if (s->bf_period)
		s->next_bf = tick_from(s, t);
	if (t >= s->next_bf) {
		/* nothing ended, started or came due since the last pass:
		 * it would find what it found then */
		if (s->version == s->bf_version)
			return 0;
		uint64_t before = s->version;

		s->next_bf = t + (s->bf_period ? s->bf_period
					       : bf_interval_of(s->sp));
		if (backfill_pass(s, t) < 0)
			return -1;
		if (s->version == before) {
			s->bf_version = s->version;
			return 0;
		}
		/* it started jobs: the next pass, on slurmctld's timer, sees
		 * them from its first job on (a higher job may now be held by
		 * a limit, or find its reservation elsewhere) */
		s->bf_version = before;
		if (!s->wake_queued) {
			s->wake_queued = true;
			return heap_push(s, s->next_bf, WAKE);
		}
		return 0;
	}
	if (!s->wake_queued) {
		s->wake_queued = true;
		return heap_push(s, s->next_bf, WAKE);
	}
	return 0;
}

/*
 * The backfill timer's wake for the priority calculation after t.
 * slurmctld's decay thread stores each pending job's new
 * priority at every PriorityCalcPeriod and marks the jobs changed when it
 * does (without INCR_ONLY always; with it when a priority grew, taken
 * here as always, as the age factor makes it): the backfill thread then
 * runs at its first tick after the calculation, even when nothing else
 * moved (a live log shows a cycle every bf_interval while jobs wait).  A
 * queue reordered there may let a job backfill that the last pass held
 * behind a higher one's reservation (live run 34: job 42, started at
 * 12:59:44, a second after the calculation, beside job 39).  The wake is
 * its own (CALC_WAKE), beside the timer's: a tick queued for the
 * calculation must not stand for an earlier one the timer needs.  It is
 * queued only while another event is due (with none, nothing ends, and a
 * reordered queue starts nothing that the last pass, which tried every
 * job, did not) and while some node has the CPUs a job left needs on one
 * (on a full cluster no order starts a job: a queue behind long jobs
 * would pay a pass every period, for nothing, until they end).
 */
static int calc_wake(struct sim *s, time_t t)
{
	if (!s->sp->backfill || s->period <= 0 || s->calc_wake_queued ||
	    !s->nheap || !room_for_a_job(s))
		return 0;
	s->calc_wake_queued = true;
	return heap_push(s,
			 tick_from(s, t < s->calc0 ? s->calc0
						   : calc_at(s, t) + s->period),
			 CALC_WAKE);
}

static const char *note_text(struct sim *s, const struct sjob *j)
{
	const struct prio_job *job = &s->snap->jobs[j->job];
	char buf[1024];
	size_t n = 0;

#define ADD(...)                                                               \
	do {                                                                   \
		if (n < sizeof(buf))                                           \
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,        \
					      "%s", n ? "; " : "");            \
		if (n < sizeof(buf))                                           \
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,        \
					      __VA_ARGS__);                    \
	} while (0)
	if (j->held)
		ADD("held (priority 0): starts only when released");
	if (j->never_why)
		ADD("never starts in the model: %s", j->never_why);
	if (j->flags & N_LIMIT)
		ADD("not modelled: %s (forecast as if the limit did not hold)",
		    prio_snapshot_str(s->snap, job->reason));
	if (s->lim && (j->flags & N_LIMITX)) {
		struct fc_lim_key lk = first_key(s, job);
		const char *why = fc_limits_unmodelled(s->lim, &lk);

		if (why)
			ADD("not modelled: %s (a limit that moves with usage)",
			    why);
	}
	if (s->lim && j->lim_held && !j->started) {
		/* the key of the entry limit_holds() last asked about (a
		 * job of several partitions or QOS may be held in one) */
		const char *why = fc_limits_block(s->lim, &j->lk, job);

		if (why)
			ADD("held by a limit: %s", why);
	}
	if (j->lim_why && j->started)
		ADD("waited for a limit: %s", j->lim_why);
	if (j->flags & N_DEP)
		ADD("not modelled: dependency %s",
		    prio_snapshot_str(s->snap, job->dependency));
	if (j->flags & N_DEPAGE)
		ADD("not modelled: age accrued after its dependency is "
		    "released");
	if (j->flags & N_GRES)
		ADD("not modelled: a GRES no node has, or more than %d kinds",
		    FC_GRES);
	if (j->flags & N_GTYPE)
		ADD("not modelled: GRES types (counted as any of its kind)");
	if (j->flags & N_LIC)
		ADD("not modelled: licenses");
	if (j->flags & N_FEAT)
		ADD("not modelled: features");
	if (j->flags & N_RESV)
		ADD("not modelled: reservation %s",
		    prio_snapshot_str(s->snap, job->detail->reservation));
	if (j->flags & N_ARRAY)
		ADD("not modelled: the tasks of array %s after the first",
		    prio_snapshot_str(s->snap, job->array_task_text));
	if (j->flags & N_NOLIMIT)
		ADD("no time limit: its end is unknown");
	if (j->flags & N_SHARE)
		ADD("not modelled: OverSubscribe of its partition (CPUs "
		    "not shared)");
#undef ADD
	return n ? prio_arena_strdup(&s->fc->arena, buf) : NULL;
}

/* The rows' order, compared on keys laid side by side (a row's own rank
 * in the first queue is two lookups away, and 100k rows are sorted at the
 * end of every run): status, start (of a row that starts), the first
 * queue's order, job. */
struct row_key {
	time_t start;
	uint32_t rank, job, row;
	uint8_t status;
};

static int cmp_row_keys(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;

	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

static int sort_rows(const struct sim *s, struct prio_forecast *fc)
{
	struct row_key *key = malloc((size_t)fc->count * sizeof(*key));
	struct prio_forecast_row *rows =
	    malloc((size_t)fc->count * sizeof(*rows));

	if (!key || !rows) {
		free(key);
		free(rows);
		return -1;
	}
	for (uint32_t k = 0; k < fc->count; k++) {
		const struct prio_forecast_row *r = &fc->rows[k];

		key[k] = (struct row_key){
		    r->status == PRIO_FC_STARTS ? r->start : 0,
		    s->sj[s->sj_of_job[r->job]].rank0, r->job, k, r->status};
	}
	qsort(key, fc->count, sizeof(*key), cmp_row_keys);
	for (uint32_t k = 0; k < fc->count; k++)
		rows[k] = fc->rows[key[k].row];
	free(fc->rows);
	fc->rows = rows;
	free(key);
	return 0;
}

static int setup(struct sim *s, const struct prio_engine *e,
		 const struct prio_forecast_opts *opts, struct prio_error *err)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t nn = snap->node_count ? snap->node_count : 1;
	uint32_t np = snap->partition_count ? snap->partition_count : 1;
	uint32_t maxnodes = 1;
	int rc;

	s->snap = snap;
	s->ec = *e;
	/* fairshare moves as simulated jobs run and usage decays: the
	 * sim's own copy of the associations to move (accrue_to) */
	if (e->fs && e->weight[PRIO_FACTOR_FAIRSHARE] && snap->assoc_count) {
		size_t n = snap->assoc_count;

		s->usnap = *snap;
		s->usnap.assocs = malloc(n * sizeof(*s->usnap.assocs));
		s->usage0 = malloc(n * sizeof(*s->usage0));
		if (!s->usnap.assocs || !s->usage0)
			return nomem(err);
		memcpy(s->usnap.assocs, snap->assocs,
		       n * sizeof(*s->usnap.assocs));
		for (size_t a = 0; a < n; a++)
			s->usage0[a] = snap->assocs[a].usage_raw;
		s->accrue = true;
		s->usage_lag = prio_fs_algorithm_of(snap->conf.priority_flags) !=
			       PRIO_FS_FAIR_TREE;
		/* The stored usage is that of Slurm's last calculation
		 * (RawUsage moves only then, and by the last part of a job
		 * that ends): the cycles run from it, and the jobs running at
		 * NOW add their usage from it, not from NOW (usage rebuilt
		 * from job records is of NOW). */
		if (e->now < snap->now && !snap->usage_rebuilt)
			s->usnap.usage_at = e->now;
	}
	s->sp = &snap->conf.sched;
	s->wr_relevant = prio_snapshot_slurm(snap)->will_run_last_relevant;
	s->wr_bounded = prio_snapshot_slurm(snap)->will_run_bounded;
	s->t0 = snap->now;
	s->calc0 = e->now;
	s->calc_init = e->now;
	if (opts && opts->first_calc > e->now)
		s->calc0 = opts->first_calc;
	s->period = snap->conf.calc_period;
	s->until = opts && opts->until ? opts->until : FAR_FUTURE;
	s->runtime = opts ? opts->runtime : NULL;
	s->q_calc = (time_t)-1;
	s->next_bf = s->t0;
	if (!prio_forecast_backfill_timer(snap, &s->next_bf, &s->bf_period))
		s->bf_period = 0;
	if ((rc = prio_resources_build(snap, &s->res, err)) < 0)
		return rc;
	for (uint32_t p = 0; p < snap->partition_count; p++)
		if (snap->partitions[p].node_count > maxnodes)
			maxnodes = snap->partitions[p].node_count;
	s->free_cpu = calloc(nn, sizeof(*s->free_cpu));
	s->free_mem = calloc(nn, sizeof(*s->free_mem));
	s->busy = calloc(nn, sizeof(*s->busy));
	s->due_cpu = calloc(nn, sizeof(*s->due_cpu));
	s->due_mem = calloc(nn, sizeof(*s->due_mem));
	s->due_busy = calloc(nn, sizeof(*s->due_busy));
	s->due_gres = calloc((size_t)nn * FC_GRES, sizeof(*s->due_gres));
	s->rel_time = calloc(nn, sizeof(*s->rel_time));
	s->rel_run = calloc((size_t)nn * REL_KEEP, sizeof(*s->rel_run));
	s->rel_cnt = calloc(nn, sizeof(*s->rel_cnt));
	s->slot = calloc(nn, sizeof(*s->slot));
	s->capc = malloc(maxnodes * sizeof(*s->capc));
	s->capm = malloc(maxnodes * sizeof(*s->capm));
	s->capb = malloc(maxnodes * sizeof(*s->capb));
	s->capg = calloc((size_t)maxnodes * FC_GRES, sizeof(*s->capg));
	s->node_gres = calloc((size_t)nn * FC_GRES, sizeof(*s->node_gres));
	s->free_gres = calloc((size_t)nn * FC_GRES, sizeof(*s->free_gres));
	s->blkn = malloc(maxnodes * sizeof(*s->blkn));
	s->blkl = malloc(maxnodes * sizeof(*s->blkl));
	s->touch = malloc(maxnodes * sizeof(*s->touch));
	s->tflag = malloc(maxnodes * sizeof(*s->tflag));
	s->dirty = malloc(maxnodes * sizeof(*s->dirty));
	s->dflag = malloc(maxnodes * sizeof(*s->dflag));
	s->pmark = calloc(maxnodes, sizeof(*s->pmark));
	s->pick = malloc((maxnodes > nn ? maxnodes : nn) * sizeof(*s->pick));
	s->pcpu = malloc((maxnodes > nn ? maxnodes : nn) * sizeof(*s->pcpu));
	s->pmem = malloc((maxnodes > nn ? maxnodes : nn) * sizeof(*s->pmem));
	s->avc = malloc(maxnodes * sizeof(*s->avc));
	s->avc_keep = malloc(maxnodes * sizeof(*s->avc_keep));
	s->ever = malloc(maxnodes * sizeof(*s->ever));
	s->run_cpus = malloc(maxnodes * sizeof(*s->run_cpus));
	for (uint32_t n = 0; n < snap->node_count; n++)
		if (s->res.node_cpus[n] > s->hist_max)
			s->hist_max = s->res.node_cpus[n];
	s->uhist = calloc((size_t)s->hist_max + 1, sizeof(*s->uhist));
	s->vcnt = calloc((size_t)s->hist_max + 2, sizeof(*s->vcnt));
	s->run_from = malloc(maxnodes * sizeof(*s->run_from));
	s->run_to = malloc(maxnodes * sizeof(*s->run_to));
	s->kn_slot = malloc(maxnodes * sizeof(*s->kn_slot));
	s->kn_val = malloc(maxnodes * sizeof(*s->kn_val));
	s->korder = malloc(maxnodes * sizeof(*s->korder));
	s->remaining = calloc(np, sizeof(*s->remaining));
	s->blocked = calloc(np, sizeof(*s->blocked));
	s->parts = malloc(((size_t)e->max_job_partitions + 1) *
			  sizeof(*s->parts));
	s->sj_of_job = malloc(((size_t)snap->job_count + 1) *
			      sizeof(*s->sj_of_job));
	s->node_stamp = calloc(nn, sizeof(*s->node_stamp));
	s->part_free = calloc(np, sizeof(*s->part_free));
	s->part_ends = calloc(np, sizeof(*s->part_ends));
	s->memo_part_ends = calloc(np, sizeof(*s->memo_part_ends));
	s->node_pfirst = calloc((size_t)nn + 1, sizeof(*s->node_pfirst));
	if (!s->node_stamp || !s->part_free || !s->node_pfirst ||
	    !s->part_ends || !s->memo_part_ends)
		return nomem(err);
	{
		uint32_t total = 0, *fill;

		for (uint32_t p = 0; p < snap->partition_count; p++)
			for (uint32_t k = 0; k < snap->partitions[p].node_count;
			     k++)
				s->node_pfirst[snap->partitions[p].nodes[k] + 1]++;
		for (uint32_t n = 0; n < snap->node_count; n++)
			s->node_pfirst[n + 1] += s->node_pfirst[n];
		total = s->node_pfirst[snap->node_count];
		s->node_parts = malloc((total ? total : 1) *
				       sizeof(*s->node_parts));
		fill = malloc((size_t)nn * sizeof(*fill));
		if (!s->node_parts || !fill) {
			free(fill);
			return nomem(err);
		}
		memcpy(fill, s->node_pfirst, (size_t)nn * sizeof(*fill));
		for (uint32_t p = 0; p < snap->partition_count; p++)
			for (uint32_t k = 0; k < snap->partitions[p].node_count;
			     k++)
				s->node_parts[fill[snap->partitions[p].nodes[k]]++] =
				    p;
		free(fill);
	}
	s->nofit = calloc(NOFIT_SLOTS, sizeof(struct nofit));
	if (!s->nofit)
		return nomem(err);
	s->user_slots = snap->strings.count + 1;
	s->user_tested = calloc(s->user_slots, sizeof(*s->user_tested));
	if (!s->free_cpu || !s->free_mem || !s->busy || !s->rel_time ||
	    !s->due_cpu || !s->due_mem || !s->due_busy || !s->due_gres ||
	    !s->rel_run || !s->rel_cnt || !s->capg || !s->node_gres ||
	    !s->free_gres || !s->slot || !s->blkn || !s->blkl || !s->touch ||
	    !s->tflag || !s->dirty || !s->dflag || !s->pmark ||
	    !s->capc || !s->capm || !s->capb || !s->pick || !s->pcpu ||
	    !s->pmem || !s->avc || !s->avc_keep || !s->ever ||
	    !s->run_cpus || !s->uhist ||
	    !s->run_from || !s->kn_slot || !s->kn_val || !s->korder ||
	    !s->vcnt ||
	    !s->run_to || !s->remaining ||
	    !s->blocked || !s->parts || !s->sj_of_job ||
	    !s->user_tested)
		return nomem(err);
	for (uint32_t n = 0; n < snap->node_count; n++) {
		s->free_cpu[n] = s->res.node_cpus[n];
		s->free_mem[n] = s->res.track_memory
				     ? (int64_t)s->res.node_mem[n]
				     : 0;
	}
	/* the GRES kinds the nodes have (Gres=gpu:4: gres/gpu), each node's
	 * count of each */
	for (uint32_t n = 0; n < snap->node_count; n++) {
		const struct prio_tres_list *l = &snap->nodes[n].gres_tres;

		for (uint32_t i = 0; i < l->count; i++) {
			const char *name = snap->tres.names[l->items[i].tres];
			uint32_t g = 0;

			if (strchr(name, ':'))
				continue;
			while (g < s->ngres && s->gres_id[g] != l->items[i].tres)
				g++;
			if (g == s->ngres && g < FC_GRES)
				s->gres_id[s->ngres++] = l->items[i].tres;
			if (g < s->ngres) {
				s->node_gres[n * FC_GRES + g] =
				    (uint32_t)l->items[i].count;
				s->free_gres[n * FC_GRES + g] =
				    (int64_t)l->items[i].count;
			}
		}
	}
	if ((rc = fc_limits_new(snap, &s->lim, err)) < 0)
		return rc;
	if (load_running(s) < 0)
		return nomem(err);
	return 0;
}

static int add_jobs(struct sim *s, struct prio_error *err)
{
	const struct prio_snapshot *snap = s->snap;
	struct prio_forecast *fc = s->fc;

	for (uint32_t i = 0; i < snap->job_count; i++) {
		s->sj_of_job[i] = NONE;
		if (prio_job_state_pending(snap->jobs[i].state) &&
		    snap->jobs[i].partition_count &&
		    snap->jobs[i].state != PRIO_JOB_REVOKED)
			s->sj_of_job[i] = s->nsj++;
	}
	s->sj = calloc(s->nsj ? s->nsj : 1, sizeof(*s->sj));
	fc->rows = calloc(s->nsj ? s->nsj : 1, sizeof(*fc->rows));
	if (!s->sj || !fc->rows)
		return nomem(err);
	fc->count = s->nsj;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		uint32_t k = s->sj_of_job[i];
		const struct prio_job *job = &snap->jobs[i];
		struct sjob *j;
		uint32_t np;
		bool any = false;
		const char *why = NULL;

		if (k == NONE)
			continue;
		j = &s->sj[k];
		j->job = i;
		j->lk_part = NONE;
		fc->rows[k].job = i;
		fc->rows[k].partition = NONE;
		shape(s, j, job);
		j->held = job->priority == 0;
		if (job->dependency != PRIO_NO_ID &&
		    parse_deps(s, j, prio_snapshot_str(snap, job->dependency)) <
			0)
			return nomem(err);
		np = prio_job_partitions(&s->ec, job, s->parts);
		for (uint32_t p = 0; p < np; p++) {
			if (s->snap->partitions[s->parts[p]].max_share == 0)
				j->excl = true; /* OverSubscribe=EXCLUSIVE */
		}
		for (uint32_t p = 0; p < np; p++) {
			bool ok = partition_possible(s, j, s->parts[p], &why);

			any |= ok;
			if (!ok)
				j->bad_parts |= 1ull << (p % 64);
		}
		if (!any) {
			j->never = true;
			j->never_why = why ? why : "no partition it may use";
		}
		if (s->lim) {
			struct fc_lim_key lk = first_key(s, job);

			/* pending for a limit the model holds it to as
			 * well: modelled, not a note */
			if ((j->flags & N_LIMIT) &&
			    fc_limits_block(s->lim, &lk, job))
				j->flags &= ~N_LIMIT;
			if (fc_limits_unmodelled(s->lim, &lk))
				j->flags |= N_LIMITX;
		}
		j->queued = !j->held && !j->never;
		if (j->queued && j->begin > s->t0 &&
		    heap_push(s, j->begin, NONE) < 0)
			return nomem(err);
	}
	return 0;
}

int prio_forecast_run(const struct prio_engine *e,
		      const struct prio_forecast_opts *opts,
		      struct prio_forecast *fc, struct prio_error *err)
{
	struct sim s;
	time_t t = 0, first;
	bool stopped = false;
	int rc;

	memset(fc, 0, sizeof(*fc));
	prio_arena_init(&fc->arena);
	memset(&s, 0, sizeof(s));
	s.fc = fc;
	s.rv_cap = UINT32_MAX;
	s.bound = opts ? opts->bound : NULL;
	s.opts = opts;
	fc->from = e->snap->now;
	fc->until = opts ? opts->until : 0;
	if ((rc = setup(&s, e, opts, err)) < 0 ||
	    (rc = add_jobs(&s, err)) < 0)
		goto out;
	rc = -1;
	s.rel = malloc((s.nruns + s.nsj + 1) * sizeof(*s.rel));
	if (!s.rel)
		goto oom;
	/* the first queue fixes the rows' order among equal starts */
	if (build_queue(&s, s.calc_init) < 0)
		goto oom;
	for (uint32_t k = s.nq; k-- > 0;)
		s.sj[s.q[k].sj].rank0 = k;
	t = s.t0;
	for (;;) {
		if (pass(&s, t) < 0 || calc_wake(&s, t) < 0)
			goto oom;
		if (s.cut) {
			stopped = true; /* as at until: not started */
			break;
		}
		bool watched = watched_done(&s, opts);

		/* the jobs watched have their starts: the others' rows are
		 * at the horizon (their pass may have been cut short) */
		if (!s.nheap || watched) {
			stopped = s.nheap > 0 || watched;
			break;
		}
		t = s.heap[0].at;
		if (t > s.until || (opts && opts->stop &&
				    atomic_load_explicit(opts->stop, memory_order_relaxed)))
			break;
		if (past_bound(&s, t)) {
			stopped = true; /* as at until: not started */
			break;
		}
		/* the records keep whole seconds: jobs one scheduling pass
		 * started a few milliseconds apart may show start times a
		 * second apart, and then end that close.  What comes due in
		 * the next second is taken with this, at the later instant
		 * (the heap gives it after this second's). */
		first = t;
		while (s.nheap && (s.heap[0].at == first ||
				   (s.heap[0].at == first + 1 &&
				    first + 1 <= s.until))) {
			struct event ev = heap_pop(&s);

			t = ev.at;
			fc->events++;
			if (ev.run == WAKE) {
				s.wake_queued = false;
				continue;
			}
			if (ev.run == CALC_WAKE) {
				s.calc_wake_queued = false;
				continue;
			}
			s.version++; /* a begin time or an end */
			if (ev.run == NONE) {
				s.plan_version++;
				continue;
			}
			struct run *r = &s.runs[ev.run];

			if (r->ended)
				continue;
			if (r->end != r->plan)
				s.plan_version++;
			r->ended = true;
			hold(&s, r, -1);
			for (uint32_t a = r->first; a < r->first + r->count; a++) {
				uint32_t n = s.ra[a].node;

				for (uint32_t i = s.node_pfirst[n];
				     i < s.node_pfirst[n + 1]; i++)
					s.part_ends[s.node_parts[i]]++;

				if (s.rel_time[n] != t)
					s.rel_cnt[n] = 0;
				s.rel_time[n] = t;
				if (s.rel_cnt[n] < REL_KEEP)
					s.rel_run[n * REL_KEEP +
						  s.rel_cnt[n]++] = ev.run;
			}
		}
	}
	for (uint32_t i = 0; i < s.nsj; i++) {
		struct sjob *j = &s.sj[i];
		struct prio_forecast_row *row = &fc->rows[i];

		if (j->held)
			row->status = PRIO_FC_HELD;
		else if (j->never)
			row->status = PRIO_FC_NEVER;
		else if (!j->started &&
			 (stopped || (s.until != FAR_FUTURE && t > s.until)))
			row->status = PRIO_FC_HORIZON;
		else if (!j->started) {
			row->status = PRIO_FC_NEVER;
			/* a limit's reason is in the note (note_text) */
			if (!j->lim_held)
				j->never_why = "waits for a job that never "
					       "ends, or a dependency that is "
					       "never released";
		}
		row->note = note_text(&s, j);
	}
	if (fc->count && sort_rows(&s, fc) < 0)
		goto oom;
	rc = 0;
	goto out;
oom:
	rc = nomem(err);
out:
	prio_resources_free(&s.res);
	free(s.free_cpu);
	free(s.free_mem);
	free(s.node_gres);
	free(s.free_gres);
	free(s.capg);
	free(s.busy);
	free(s.due_cpu);
	free(s.due_mem);
	free(s.due_busy);
	free(s.due_gres);
	free(s.rel_time);
	free(s.rel_run);
	free(s.rel_cnt);
	free(s.blkn);
	free(s.blkl);
	free(s.touch);
	free(s.tflag);
	free(s.dirty);
	free(s.dflag);
	free(s.pmark);
	free(s.by_from);
	free(s.by_to);
	free(s.rv_on);
	free(s.pto);
	free(s.slot);
	free(s.capc);
	free(s.capm);
	free(s.capb);
	free(s.pick);
	if (s.ue_live)
		prio_engine_free(&s.ue);
	free(s.usnap.assocs);
	free(s.usage0);
	free(s.pcpu);
	free(s.pmem);
	free(s.avc);
	free(s.avc_keep);
	free(s.ever);
	free(s.run_cpus);
	free(s.uhist);
	free(s.run_from);
	free(s.run_to);
	free(s.kn_slot);
	free(s.kn_val);
	free(s.korder);
	free(s.vcnt);
	free(s.remaining);
	free(s.blocked);
	free(s.parts);
	free(s.sj_of_job);
	free(s.user_tested);
	free(s.node_stamp);
	free(s.nofit);
	free(s.defer);
	free(s.pend);
	free(s.memo);
	fc_limits_free(s.lim);
	free(s.part_free);
	free(s.part_ends);
	free(s.memo_part_ends);
	free(s.node_pfirst);
	free(s.node_parts);
	free(s.sj);
	free(s.deps);
	free(s.runs);
	free(s.ra);
	free(s.heap);
	free(s.q);
	free(s.rv);
	free(s.rel);
	if (rc < 0)
		prio_forecast_free(fc);
	return rc;
}

const struct prio_forecast_row *
prio_forecast_row_of(const struct prio_forecast *fc, uint32_t job)
{
	/* rows are in start order, not job order: a walk, once per job
	 * asked about */
	for (uint32_t k = 0; k < fc->count; k++)
		if (fc->rows[k].job == job)
			return &fc->rows[k];
	return NULL;
}

void prio_forecast_free(struct prio_forecast *fc)
{
	free(fc->rows);
	fc->rows = NULL;
	fc->count = 0;
	prio_arena_free(&fc->arena);
}

const char *prio_forecast_status_name(enum prio_forecast_status st)
{
	switch (st) {
	case PRIO_FC_STARTS: return "starts";
	case PRIO_FC_HELD: return "held";
	case PRIO_FC_NEVER: return "never";
	case PRIO_FC_HORIZON: return "after";
	}
	return "?";
}

const char *prio_forecast_how_name(enum prio_forecast_how how)
{
	return how == PRIO_FC_BACKFILL ? "backfill" : "main";
}
