/* SPDX-License-Identifier: MIT */
/*
 * prio-exporter's exposition (metrics.h).  Every value comes from the
 * engines the commands use: prio_fairshare_slurm() as fstree-show calls
 * it, the priority engine at Slurm's last calculation as prio-calc sets
 * it up.  Both formats are written in one pass through two memory
 * streams; they differ only in the # UNIT lines, the info type (a gauge
 * named *_info in 0.0.4) and the end marker.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/calc_time.h"
#include "prio/fairshare.h"
#include "prio/metrics.h"
#include "prio/priority.h"
#include "prio/priority_inputs.h"
#include "prio/privacy.h"
#include "prio/timestr.h"
#include "prio/usage.h"

const char *prio_metrics_content_type(enum prio_metrics_format fmt)
{
	return fmt == PRIO_METRICS_OPENMETRICS
		   ? "application/openmetrics-text; version=1.0.0; "
		     "charset=utf-8"
		   : "text/plain; version=0.0.4; charset=utf-8";
}

void prio_metrics_text_free(struct prio_metrics_text *t)
{
	for (int f = 0; f < PRIO_METRICS_FORMAT_COUNT; f++) {
		free(t->text[f]);
		t->text[f] = NULL;
		t->len[f] = 0;
	}
}

/* ---- the two streams ------------------------------------------------------ */

struct mout {
	FILE *f[PRIO_METRICS_FORMAT_COUNT];
	const char *type; /* the current family's type */
};

static int mout_open(struct mout *m, struct prio_metrics_text *out)
{
	memset(out, 0, sizeof(*out));
	for (int f = 0; f < PRIO_METRICS_FORMAT_COUNT; f++) {
		m->f[f] = open_memstream(&out->text[f], &out->len[f]);
		if (!m->f[f]) {
			while (f-- > 0)
				fclose(m->f[f]);
			prio_metrics_text_free(out);
			return PRIO_ERR_NOMEM;
		}
	}
	return 0;
}

static int mout_close(struct mout *m, struct prio_metrics_text *out)
{
	int bad = 0;

	for (int f = 0; f < PRIO_METRICS_FORMAT_COUNT; f++) {
		bad |= ferror(m->f[f]);
		bad |= fclose(m->f[f]) != 0;
	}
	if (bad) {
		prio_metrics_text_free(out);
		return PRIO_ERR_NOMEM;
	}
	return 0;
}

/* A family's header.  OpenMetrics names the family without the _total or
 * _info of its samples; 0.0.4 has no info type and no units. */
static void family(struct mout *m, const char *name, const char *type,
		   const char *unit, const char *help)
{
	FILE *om = m->f[PRIO_METRICS_OPENMETRICS];
	FILE *tx = m->f[PRIO_METRICS_TEXT];
	bool info = strcmp(type, "info") == 0;
	bool counter = strcmp(type, "counter") == 0;
	const char *suffix = info ? "_info" : counter ? "_total" : "";

	m->type = type;
	fprintf(om, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(om, "# UNIT %s %s\n", name, unit);
	fprintf(om, "# HELP %s %s\n", name, help);
	fprintf(tx, "# HELP %s%s %s\n", name, suffix, help);
	fprintf(tx, "# TYPE %s%s %s\n", name, suffix, info ? "gauge" : type);
}

/* A label value as both formats escape it: backslash, double quote and
 * line feed. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* Integers exactly, other values with 15 significant digits (no binary
 * noise such as 0.30000000000000004), infinities and NaN as spelt by
 * both formats. */
static void put_value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.15g", v);
}

/* One sample; labels are name/value pairs, an empty value left out (as
 * Prometheus treats an empty label as an absent one). */
static void sample(struct mout *m, const char *name, const char **labels,
		   size_t nlabels, double v)
{
	const char *suffix = strcmp(m->type, "info") == 0	? "_info"
			     : strcmp(m->type, "counter") == 0 ? "_total"
							       : "";

	for (int k = 0; k < PRIO_METRICS_FORMAT_COUNT; k++) {
		FILE *f = m->f[k];
		bool first = true;

		fprintf(f, "%s%s", name, suffix);
		for (size_t i = 0; i + 1 < 2 * nlabels; i += 2) {
			if (!labels[i + 1] || !*labels[i + 1])
				continue;
			fprintf(f, "%s%s=\"", first ? "{" : ",", labels[i]);
			put_escaped(f, labels[i + 1]);
			fputc('"', f);
			first = false;
		}
		fputs(first ? " " : "} ", f);
		put_value(f, v);
		fputc('\n', f);
	}
}

/* A family of one sample without labels. */
static void scalar(struct mout *m, const char *name, const char *type,
		   const char *unit, const char *help, double v)
{
	family(m, name, type, unit, help);
	sample(m, name, NULL, 0, v);
}

/* ---- what may be exported --------------------------------------------------- */

enum withheld {
	W_USER_ASSOC, /* per-user association series */
	W_FAIRSHARE,  /* usage-derived association series */
	W_JOBS,       /* per-job series */
	W_COUNTS,     /* job counts */
	W_COUNT
};

struct policy {
	bool withheld[W_COUNT];
	char why[W_COUNT][256];
};

static void withhold(struct policy *p, enum withheld w, const char *fmt,
		     const char *arg)
{
	if (p->withheld[w])
		return;
	p->withheld[w] = true;
	snprintf(p->why[w], sizeof(p->why[w]), fmt, arg);
}

/*
 * Two reasons to leave a family out.  PrivateData: Slurm shows ordinary
 * users only their own usage (usage) or jobs (jobs), and an exporter
 * readable by anyone would undo that, so those per-user and per-job
 * series need --expose-private.  A partial snapshot (privacy.h): values
 * that depend on everyone would look real and be wrong, so they are left
 * out whatever the options.
 */
static void decide(const struct prio_snapshot *snap,
		   const struct prio_metrics_opts *o, struct policy *p)
{
	const struct prio_conf_kv *kv =
	    prio_config_find(&snap->conf, "PrivateData");
	unsigned flags = kv ? prio_private_data_flags(kv->value) : 0;
	char why[200];

	memset(p, 0, sizeof(*p));
	if (!o->expose_private && (flags & PRIO_PRIVATE_USAGE))
		withhold(p, W_USER_ASSOC,
			 "PrivateData=%s hides other users' usage "
			 "(--expose-private)",
			 kv->value);
	if (!o->expose_private && (flags & PRIO_PRIVATE_JOBS))
		withhold(p, W_JOBS,
			 "PrivateData=%s hides other users' jobs "
			 "(--expose-private)",
			 kv->value);
	if (prio_privacy_blocked(snap, PRIO_NEEDS_FAIRSHARE, why,
				 sizeof(why))) {
		withhold(p, W_FAIRSHARE, "partial snapshot: %s", why);
		withhold(p, W_JOBS, "partial snapshot: %s", why);
	}
	if (prio_privacy_view_partial(snap, PRIO_VIEW_JOBS, why, sizeof(why)))
		withhold(p, W_COUNTS, "partial snapshot: %s", why);
	if (!snap->conf.priority_type ||
	    strcmp(snap->conf.priority_type, "priority/multifactor") != 0)
		withhold(p, W_JOBS, "PriorityType=%s is not priority/multifactor",
			 snap->conf.priority_type ? snap->conf.priority_type
						  : "(null)");
}

/* ---- associations --------------------------------------------------------- */

enum assoc_series {
	A_SHARES_RAW,
	A_SHARES_NORM,
	A_USAGE_RAW,
	A_USAGE_NORM,
	A_USAGE_EFFECTIVE,
	A_FAIRSHARE,
	A_LEVEL_FS,
	A_COUNT
};

static const struct {
	const char *name, *help;
	bool usage; /* depends on every user's usage */
} assoc_series[A_COUNT] = {
	[A_SHARES_RAW] = {"prio_assoc_shares_raw",
			  "Shares of the association (sshare RawShares)", false},
	[A_SHARES_NORM] = {"prio_assoc_shares_norm",
			   "Normalized shares (sshare NormShares)", false},
	[A_USAGE_RAW] = {"prio_assoc_usage_raw",
			 "Decayed usage in TRES-billing-seconds (sshare "
			 "RawUsage)",
			 false},
	[A_USAGE_NORM] = {"prio_assoc_usage_norm",
			  "Usage over the root's (sshare NormUsage)", true},
	[A_USAGE_EFFECTIVE] = {"prio_assoc_usage_effective",
			       "Effective usage (sshare EffectvUsage)", true},
	[A_FAIRSHARE] = {"prio_assoc_fairshare",
			 "Fair-share factor (sshare FairShare)", true},
	[A_LEVEL_FS] = {"prio_assoc_level_fs",
			"Fair Tree Level FS (sshare LevelFS)", true},
};

static double assoc_value(const struct prio_assoc *a,
			  const struct prio_fs_result *r, enum assoc_series s)
{
	switch (s) {
	case A_SHARES_RAW:
		return a->shares_raw == PRIO_FS_USE_PARENT ||
			       a->shares_raw == PRIO_NO_VAL
			   ? NAN
			   : (double)a->shares_raw;
	case A_SHARES_NORM:
		return r->norm_shares;
	case A_USAGE_RAW:
		return a->usage_known ? (double)a->usage_raw : NAN;
	case A_USAGE_NORM:
		return r->usage_norm;
	case A_USAGE_EFFECTIVE:
		return (double)r->usage_efctv;
	case A_FAIRSHARE:
		return r->fairshare;
	case A_LEVEL_FS:
		return (double)r->level_fs;
	default:
		return NAN;
	}
}

static int render_assocs(struct mout *m, const struct prio_snapshot *snap,
			 const struct policy *p, struct prio_error *err)
{
	struct prio_fs_setup setup = prio_fs_setup_of(snap);
	struct prio_fs_result *res;
	int rc;

	if (!snap->assoc_count)
		return 0;
	res = calloc(snap->assoc_count, sizeof(*res));
	if (!res)
		return prio_error_set(err, PRIO_ERR_NOMEM, NULL, 0, NULL,
				      "out of memory");
	/* fstree-show's computation: the configured algorithm at the
	 * snapshot's clock, with Slurm's lag of account rows */
	setup.cycle = snap->now;
	rc = prio_fairshare_slurm(snap, &setup, res, NULL, err);
	if (rc < 0) {
		free(res);
		return rc;
	}
	for (int s = 0; s < A_COUNT; s++) {
		bool fair_tree = setup.algorithm == PRIO_FS_FAIR_TREE;

		if (assoc_series[s].usage && p->withheld[W_FAIRSHARE])
			continue;
		if (s == A_LEVEL_FS && !fair_tree)
			continue;
		family(m, assoc_series[s].name, "gauge", NULL,
		       assoc_series[s].help);
		for (uint32_t i = 0; i < snap->assoc_count; i++) {
			const struct prio_assoc *a = &snap->assocs[i];
			double v = assoc_value(a, &res[i], (enum assoc_series)s);
			const char *labels[] = {
			    "account", prio_snapshot_str(snap, a->account),
			    "user",    prio_snapshot_str(snap, a->user),
			    "partition",
			    prio_snapshot_str(snap, a->partition),
			};

			if (a->user != PRIO_NO_ID && p->withheld[W_USER_ASSOC])
				continue;
			/* blank in sshare: no sample (Level FS of the root
			 * and of Fairshare=parent associations too) */
			if (isnan(v) ||
			    (s == A_LEVEL_FS &&
			     (i == 0 || a->shares_raw == PRIO_FS_USE_PARENT)))
				continue;
			sample(m, assoc_series[s].name, labels, 3, v);
		}
	}
	free(res);
	return 0;
}

/* ---- job counts ------------------------------------------------------------ */

struct count {
	prio_id partition, reason;
	uint32_t n;
};

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->partition != y->partition)
		return x->partition < y->partition ? -1 : 1;
	return x->reason < y->reason ? -1 : x->reason > y->reason;
}

static int add_count(struct count **v, size_t *n, size_t *cap, prio_id part,
		     prio_id reason)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].partition == part && (*v)[i].reason == reason) {
			(*v)[i].n++;
			return 0;
		}
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 32;
		struct count *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return PRIO_ERR_NOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = (struct count){part, reason, 1};
	return 0;
}

/* Pending jobs count in every partition they wait for (as squeue lists
 * "a,b"), running ones in the first (the one they run in). */
static int render_counts(struct mout *m, const struct prio_snapshot *snap,
			 struct prio_error *err)
{
	struct count *pend = NULL, *run = NULL;
	size_t np = 0, cp = 0, nr = 0, cr = 0;
	int rc = 0;

	for (uint32_t j = 0; j < snap->job_count && rc == 0; j++) {
		const struct prio_job *job = &snap->jobs[j];

		if (job->state == PRIO_JOB_PENDING)
			for (uint32_t k = 0;
			     k < job->partition_count && rc == 0; k++)
				rc = add_count(&pend, &np, &cp,
					       job->partitions[k], job->reason);
		else if (job->state == PRIO_JOB_RUNNING && job->partition_count)
			rc = add_count(&run, &nr, &cr, job->partitions[0],
				       PRIO_NO_ID);
	}
	if (rc == 0) {
		if (np)
			qsort(pend, np, sizeof(*pend), cmp_count);
		if (nr)
			qsort(run, nr, sizeof(*run), cmp_count);
		family(m, "prio_jobs_pending", "gauge", NULL,
		       "Pending jobs per partition and reason (a job waiting "
		       "for several partitions counts in each)");
		for (size_t i = 0; i < np; i++) {
			const char *labels[] = {
			    "partition", prio_snapshot_str(snap, pend[i].partition),
			    "reason", prio_snapshot_str(snap, pend[i].reason)};

			sample(m, "prio_jobs_pending", labels, 2, pend[i].n);
		}
		family(m, "prio_jobs_running", "gauge", NULL,
		       "Running jobs per partition");
		for (size_t i = 0; i < nr; i++) {
			const char *labels[] = {
			    "partition", prio_snapshot_str(snap, run[i].partition)};

			sample(m, "prio_jobs_running", labels, 1, run[i].n);
		}
	}
	free(pend);
	free(run);
	if (rc < 0)
		return prio_error_set(err, rc, NULL, 0, NULL, "out of memory");
	return 0;
}

/* ---- pending jobs ---------------------------------------------------------- */

struct jrow {
	const struct prio_job *job;
	struct prio_job_factors jf;
	struct prio_row row;
	prio_id qos;
	uint32_t best; /* the job's highest priority over its rows */
};

static int cmp_jrow(const void *a, const void *b)
{
	const struct jrow *x = a, *y = b;

	if (x->best != y->best)
		return x->best > y->best ? -1 : 1;
	if (x->job->job_id != y->job->job_id)
		return x->job->job_id < y->job->job_id ? -1 : 1;
	if (x->row.priority != y->row.priority)
		return x->row.priority > y->row.priority ? -1 : 1;
	return 0;
}

/* Every sprio row (job, partition, QOS) of the listed jobs, as prio-calc
 * computes them. */
static int job_rows(const struct prio_engine *e, struct jrow **out,
		    size_t *nout)
{
	const struct prio_snapshot *snap = e->snap;
	uint32_t *parts = calloc(e->max_job_partitions + 1, sizeof(*parts));
	struct jrow *v = NULL;
	size_t n = 0, cap = 0;

	if (!parts)
		return PRIO_ERR_NOMEM;
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];
		struct prio_job_factors own;
		uint32_t np, nq, best = 0;
		size_t first = n;

		if (!prio_job_listed(e, job))
			continue;
		np = prio_job_partitions(e, job, parts);
		nq = prio_job_qos_count(job);
		prio_job_factors(e, job, &own);
		for (uint32_t k = 0; k < np * nq; k++) {
			struct jrow *r;

			if (n == cap) {
				size_t c = cap ? 2 * cap : 256;
				struct jrow *p = realloc(v, c * sizeof(*p));

				if (!p) {
					free(v);
					free(parts);
					return PRIO_ERR_NOMEM;
				}
				v = p;
				cap = c;
			}
			r = &v[n++];
			r->job = job;
			r->qos = prio_job_factors_at(e, job, &own, k % nq, &r->jf);
			prio_row_compute(e, job, &r->jf, parts[k / nq], &r->row);
			if (r->row.priority > best)
				best = r->row.priority;
		}
		for (size_t i = first; i < n; i++)
			v[i].best = best;
	}
	free(parts);
	*out = v;
	*nout = n;
	return 0;
}

static double term(const struct prio_engine *e, const struct jrow *r,
		   enum prio_factor f)
{
	switch (f) {
	case PRIO_FACTOR_SITE:
		return (double)r->jf.site;
	case PRIO_FACTOR_NICE:
		return (double)r->jf.nice;
	case PRIO_FACTOR_TRES:
		return r->row.tres_sum;
	case PRIO_FACTOR_PARTITION:
		return prio_weighted(e, f, r->row.partition_factor);
	case PRIO_FACTOR_AGE:
		return prio_weighted(e, f, r->jf.age);
	case PRIO_FACTOR_ASSOC:
		return prio_weighted(e, f, r->jf.assoc);
	case PRIO_FACTOR_FAIRSHARE:
		return prio_weighted(e, f, r->jf.fairshare);
	case PRIO_FACTOR_JOBSIZE:
		return prio_weighted(e, f, r->jf.jobsize);
	case PRIO_FACTOR_QOS:
		return prio_weighted(e, f, r->jf.qos);
	default:
		return NAN;
	}
}

static void render_job_rows(struct mout *m, const struct prio_engine *e,
			    const struct jrow *v, size_t n, uint32_t max_jobs,
			    uint32_t *shown, uint32_t *listed)
{
	const struct prio_snapshot *snap = e->snap;
	size_t end = 0;
	uint32_t jobs = 0;

	/* rows of one job are adjacent (sorted by the job's best, then its
	 * id): the first max_jobs jobs' rows */
	for (size_t i = 0; i < n; i++) {
		bool new_job = i == 0 || v[i].job != v[i - 1].job;

		if (new_job) {
			(*listed)++;
			if (jobs < max_jobs) {
				jobs++;
				end = i + 1;
			}
		} else if (end == i) {
			end = i + 1;
		}
	}
	*shown = jobs;
	family(m, "prio_job_priority", "gauge", NULL,
	       "Priority of a pending job in a partition and QOS (sprio "
	       "PRIORITY)");
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			family(m, "prio_job_priority_term", "gauge", NULL,
			       "A weighted term of a pending job's priority "
			       "(sprio's columns)");
		for (size_t i = 0; i < end; i++) {
			char id[16];
			const char *labels[] = {
			    "job_id",	 id,
			    "user",	 prio_snapshot_str(snap, v[i].job->user),
			    "account",	 prio_snapshot_str(snap, v[i].job->account),
			    "partition", prio_snapshot_str(
					     snap,
					     snap->partitions[v[i].row.partition]
						 .name),
			    "qos",	 prio_snapshot_str(snap, v[i].qos),
			    "factor",	 NULL,
			};

			snprintf(id, sizeof(id), "%u", v[i].job->job_id);
			if (pass == 0) {
				sample(m, "prio_job_priority", labels, 5,
				       v[i].row.priority);
				continue;
			}
			for (int f = 0; f < PRIO_FACTOR_COUNT; f++) {
				labels[11] = prio_factor_info(f)->name;
				sample(m, "prio_job_priority_term", labels, 6,
				       term(e, &v[i], (enum prio_factor)f));
			}
		}
	}
}

/* prio-calc's engine: usage as loaded, Slurm's fairshare with its lag,
 * the clock of Slurm's last calculation unless fixed. */
static int render_jobs(struct mout *m, const struct prio_snapshot *snap,
		       const struct prio_metrics_opts *o,
		       const struct policy *p, struct prio_error *err)
{
	struct prio_engine e;
	struct prio_calc_time ct;
	struct jrow *rows = NULL;
	size_t n = 0;
	uint32_t shown = 0, listed = 0;
	bool no_usage;
	int rc;

	memset(&ct, 0, sizeof(ct));
	rc = prio_engine_init_fs(&e, snap, snap->now, 0, err);
	if (rc < 0)
		return rc;
	rc = prio_engine_check_inputs(&e, err, &no_usage);
	if (rc == 0 && !o->fixed_clock) {
		rc = prio_calc_time_find(&e, &ct, err);
		if (rc == 0)
			prio_engine_at_calc_time(&e, &ct);
	}
	if (rc == 0) {
		bool found = !o->fixed_clock &&
			     (ct.status == PRIO_CALC_TIME_FOUND ||
			      ct.status == PRIO_CALC_TIME_ANY);

		scalar(m, "prio_calculation_timestamp_seconds", "gauge", "seconds",
		       "The clock priorities are computed at: Slurm's last "
		       "calculation when found, else the snapshot's time",
		       (double)e.now);
		scalar(m, "prio_calculation_found", "gauge", NULL,
		       "1 when the stored priorities pinned Slurm's last "
		       "calculation (prio-calc's clock), 0 when computed at "
		       "the snapshot's time",
		       found ? 1 : 0);
		if (!p->withheld[W_JOBS]) {
			rc = job_rows(&e, &rows, &n);
			if (rc < 0)
				prio_error_set(err, rc, NULL, 0, NULL,
					       "out of memory");
		}
	}
	if (rc == 0 && !p->withheld[W_JOBS]) {
		if (n)
			qsort(rows, n, sizeof(*rows), cmp_jrow);
		render_job_rows(m, &e, rows, n, o->max_jobs, &shown, &listed);
		scalar(m, "prio_jobs_omitted", "gauge", NULL,
		       "Pending jobs left out of the per-job series by "
		       "--max-jobs",
		       listed - shown);
	}
	free(rows);
	prio_calc_time_free(&ct);
	prio_engine_free(&e);
	return rc;
}

/* ---- the whole ------------------------------------------------------------- */

int prio_metrics_render(struct prio_snapshot *snap,
			const struct prio_metrics_opts *o,
			struct prio_metrics_text *out, struct prio_error *err)
{
	static const char *const families[W_COUNT] = {
	    [W_USER_ASSOC] = "prio_assoc_* (the rows of users)",
	    [W_FAIRSHARE] = "prio_assoc_usage_norm, prio_assoc_usage_effective, "
			    "prio_assoc_fairshare, prio_assoc_level_fs",
	    [W_JOBS] = "prio_job_priority, prio_job_priority_term",
	    [W_COUNTS] = "prio_jobs_pending, prio_jobs_running",
	};
	struct mout m;
	struct policy p;
	int rc;

	/* no RawUsage but job records: the usage Slurm would hold, as
	 * fstree-show and prio-calc rebuild it */
	if (prio_usage_needs_replay(snap) &&
	    (rc = prio_usage_replay(snap, snap->now, false, NULL, err)) < 0)
		return rc;
	decide(snap, o, &p);
	if (mout_open(&m, out) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, NULL, 0, NULL,
				      "out of memory");
	scalar(&m, "prio_snapshot_timestamp_seconds", "gauge", "seconds",
	       "When the snapshot was captured (its NOW)",
	       (double)snap->now);
	family(&m, "prio_withheld", "info", NULL,
	       "Series left out, and why (PrivateData or a partial "
	       "snapshot)");
	for (int w = 0; w < W_COUNT; w++) {
		const char *labels[] = {"families", families[w], "reason",
					p.why[w]};

		if (p.withheld[w])
			sample(&m, "prio_withheld", labels, 2, 1);
	}
	rc = render_assocs(&m, snap, &p, err);
	if (rc == 0 && !p.withheld[W_COUNTS])
		rc = render_counts(&m, snap, err);
	if (rc == 0)
		rc = render_jobs(&m, snap, o, &p, err);
	if (mout_close(&m, out) < 0 && rc == 0)
		rc = prio_error_set(err, PRIO_ERR_NOMEM, NULL, 0, NULL,
				    "out of memory");
	if (rc < 0)
		prio_metrics_text_free(out);
	return rc;
}

int prio_metrics_render_status(const struct prio_metrics_status *st,
			       struct prio_metrics_text *out)
{
	struct mout m;

	if (mout_open(&m, out) < 0)
		return PRIO_ERR_NOMEM;
	scalar(&m, "prio_exporter_load_timestamp_seconds", "gauge", "seconds",
	       "When the data served was read",
	       (double)st->last_load);
	scalar(&m, "prio_exporter_load_success", "gauge", NULL,
	       "1 when the latest load succeeded, 0 when it failed (the "
	       "last good data is served)",
	       st->last_load_ok ? 1 : 0);
	scalar(&m, "prio_exporter_load_errors", "counter", NULL,
	       "Loads that failed since the exporter started",
	       (double)st->load_errors);
	scalar(&m, "prio_exporter_loads", "counter", NULL,
	       "Loads that succeeded since the exporter started",
	       (double)st->loads);
	fputs("# EOF\n", m.f[PRIO_METRICS_OPENMETRICS]);
	return mout_close(&m, out);
}
