/* SPDX-License-Identifier: MIT */
/*
 * TRES billing, as Slurm's assoc_mgr_tres_weighted() computes it
 * (slurm-facts §5).  Weights lists are short (a handful of TRES), so the
 * "last weight wins" rule is a look-ahead over the list rather than a
 * per-call scratch array.
 */
#include "config.h"

#include "prio/billing.h"

/* Whether weight i is overridden by a later weight of the same TRES. */
static bool overridden(const struct prio_tres_weights *w, uint32_t i)
{
	for (uint32_t k = i + 1; k < w->count; k++)
		if (w->items[k].tres == w->items[i].tres)
			return true;
	return false;
}

/* Where the counts come from: an array by TRES index, or a count list. */
struct counts {
	const uint64_t *array;
	uint32_t n;
	const struct prio_tres_list *list;
};

static uint64_t count_of(const struct counts *c, uint32_t tres)
{
	if (c->list)
		return prio_tres_list_get(c->list, tres, 0);
	return tres < c->n ? c->array[tres] : 0;
}

static double weighted(const struct prio_tres_table *t, const struct counts *c,
		       const struct prio_tres_weights *w, bool max_tres)
{
	double sum = 0.0, max = 0.0;

	if (!w || !w->count)
		return (double)count_of(c, PRIO_TRES_CPU);
	for (uint32_t i = 0; i < w->count; i++) {
		uint32_t tres = w->items[i].tres;
		double v;

		if (tres == PRIO_TRES_BILLING || overridden(w, i))
			continue;
		v = (double)count_of(c, tres) * w->items[i].weight;
		if (max_tres && prio_tres_is_node_tres(t, tres)) {
			if (v > max)
				max = v;
		} else {
			sum += v;
		}
	}
	return sum + max;
}

double prio_billing_counts(const struct prio_tres_table *t,
			   const uint64_t *cnt, uint32_t n,
			   const struct prio_tres_weights *w, bool max_tres)
{
	struct counts c = { .array = cnt, .n = n };

	return weighted(t, &c, w, max_tres);
}

double prio_billing_list(const struct prio_tres_table *t,
			 const struct prio_tres_list *list,
			 const struct prio_tres_weights *w, bool max_tres)
{
	struct counts c = { .list = list };

	return weighted(t, &c, w, max_tres);
}

uint64_t prio_billing_truncate(double billing)
{
	if (!(billing > 0))
		return 0;
	if (billing >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)billing;
}
