/* SPDX-License-Identifier: MIT */
/* Users' Elapsed / Timelimit from the sacct history (see prio/runtime.h). */
#include <stdlib.h>

#include "prio/job.h"
#include "prio/runtime.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

struct sample {
	prio_id user;
	double ratio;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->user != y->user)
		return x->user < y->user ? -1 : 1;
	return x->ratio < y->ratio ? -1 : x->ratio > y->ratio;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Whether the job ran and ended by its own doing (or its user's). */
static bool counted_state(uint8_t state)
{
	switch (state) {
	case PRIO_JOB_COMPLETE:
	case PRIO_JOB_CANCELLED:
	case PRIO_JOB_FAILED:
	case PRIO_JOB_TIMEOUT:
	case PRIO_JOB_OOM:
	case PRIO_JOB_DEADLINE:
		return true;
	default:
		return false;
	}
}

/* The median of the sorted v[0..n). */
static double median(const double *v, uint32_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int prio_runtime_history_build(const struct prio_snapshot *snap,
			       uint32_t min_jobs,
			       struct prio_runtime_history *h,
			       struct prio_error *err)
{
	struct sample *s = NULL;
	double *all = NULL;
	uint32_t n = 0;

	*h = (struct prio_runtime_history){.min_jobs = min_jobs};
	h->id_count = snap->strings.count;
	h->by_user = calloc(h->id_count ? h->id_count : 1, sizeof(*h->by_user));
	if (snap->sacct_count) {
		s = malloc((size_t)snap->sacct_count * sizeof(*s));
		all = malloc((size_t)snap->sacct_count * sizeof(*all));
	}
	if (!h->by_user || (snap->sacct_count && (!s || !all))) {
		free(s);
		free(all);
		prio_runtime_history_free(h);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	for (uint32_t i = 0; i < snap->sacct_count; i++) {
		const struct prio_sacct_rec *r = &snap->sacct[i];
		double ratio;

		if (r->is_step || !r->start || !r->end ||
		    !counted_state(r->state) || r->user == PRIO_NO_ID ||
		    r->user >= h->id_count || !r->time_limit ||
		    r->time_limit == PRIO_INFINITE ||
		    r->time_limit == PRIO_NO_VAL)
			continue;
		ratio = (double)r->elapsed / ((double)r->time_limit * 60);
		if (ratio > 1)
			ratio = 1;
		s[n] = (struct sample){r->user, ratio};
		all[n++] = ratio;
	}
	if (n) {
		qsort(s, n, sizeof(*s), cmp_sample);
		qsort(all, n, sizeof(*all), cmp_double);
	}
	for (uint32_t i = 0; i < n;) {
		uint32_t e = i;

		while (e < n && s[e].user == s[i].user)
			e++;
		/* the user's ratios are sorted: their median in place */
		h->by_user[s[i].user].jobs = e - i;
		if (e - i >= min_jobs) {
			uint32_t m = (e - i) / 2;

			h->by_user[s[i].user].ratio =
			    (e - i) % 2 ? s[i + m].ratio
					: (s[i + m - 1].ratio + s[i + m].ratio) / 2;
		}
		i = e;
	}
	h->cluster_jobs = n;
	if (n && n >= min_jobs)
		h->cluster_ratio = median(all, n);
	free(s);
	free(all);
	return 0;
}

double prio_runtime_ratio(const struct prio_runtime_history *h, prio_id user,
			  enum prio_runtime_source *src)
{
	enum prio_runtime_source from = PRIO_RUNTIME_LIMIT;
	double r = 1;

	if (user < h->id_count && h->by_user[user].jobs &&
	    h->by_user[user].jobs >= h->min_jobs) {
		r = h->by_user[user].ratio;
		from = PRIO_RUNTIME_USER;
	} else if (h->cluster_jobs && h->cluster_jobs >= h->min_jobs) {
		r = h->cluster_ratio;
		from = PRIO_RUNTIME_CLUSTER;
	}
	if (src)
		*src = from;
	return r;
}

void prio_runtime_history_free(struct prio_runtime_history *h)
{
	free(h->by_user);
	*h = (struct prio_runtime_history){0};
}
