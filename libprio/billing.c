/* SPDX-License-Identifier: MIT */
/*
 * TRES billing, as Slurm's assoc_mgr_tres_weighted() computes it
 * (slurm-facts §5).  Weights lists are short (a handful of TRES), so the
 * "last weight wins" rule is a look-ahead over the list rather than a
 * per-call scratch array.
 *
 * A node's own billing (CfgTRES billing=, and what sreport counts as the
 * cluster's Reported billing) is the largest of its partitions' billing of
 * the node's TRES, each truncated: tests/oracle/fairtree-basic nodes of 8
 * CPUs and 16000 MB in batch (CPU=1,Mem=0.25G: 11.9), short (CPU=2,
 * Mem=0.5G: 23.8) and big (CPU=0.5,Mem=1G,Node=4: 23.6) show billing=23,
 * and sreport-final's ft cluster reports 5 x 23 = 115 billing per second;
 * sreport(1) -T says the same in words.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prio/billing.h"
#include "prio/conf.h"
#include "prio/snapshot.h"

enum prio_billing_rule prio_billing_rule_of(const struct prio_config *conf)
{
	if (conf->priority_flags & PRIO_FLAG_MAX_TRES_GRES)
		return PRIO_BILL_MAX_TRES_GRES;
	if (conf->priority_flags & PRIO_FLAG_MAX_TRES)
		return PRIO_BILL_MAX_TRES;
	return PRIO_BILL_SUM;
}

/* Where a weighted TRES goes under a rule: into the max of the node TRES,
 * the gres sum (MAX_TRES_GRES), or the sum of the others. */
enum bill_part { PART_SUM, PART_NODE, PART_GRES };

static enum bill_part bill_part(const struct prio_tres_table *t, uint32_t tres,
				enum prio_billing_rule rule)
{
	if (rule == PRIO_BILL_SUM || !prio_tres_is_node_tres(t, tres))
		return PART_SUM;
	if (rule == PRIO_BILL_MAX_TRES_GRES && tres != PRIO_TRES_CPU &&
	    tres != PRIO_TRES_MEM && tres != PRIO_TRES_NODE)
		return PART_GRES;
	return PART_NODE;
}

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
		       const struct prio_tres_weights *w,
		       enum prio_billing_rule rule)
{
	double sum = 0.0, max = 0.0, gres = 0.0;

	if (!w || !w->count)
		return (double)count_of(c, PRIO_TRES_CPU);
	for (uint32_t i = 0; i < w->count; i++) {
		uint32_t tres = w->items[i].tres;
		double v;

		if (tres == PRIO_TRES_BILLING || overridden(w, i))
			continue;
		v = (double)count_of(c, tres) * w->items[i].weight;
		switch (bill_part(t, tres, rule)) {
		case PART_NODE:
			if (v > max)
				max = v;
			break;
		case PART_GRES:
			gres += v;
			break;
		case PART_SUM:
			sum += v;
			break;
		}
	}
	/* 25.05's order of additions: (node max + gres) + global */
	return (max + gres) + sum;
}

double prio_billing_counts(const struct prio_tres_table *t,
			   const uint64_t *cnt, uint32_t n,
			   const struct prio_tres_weights *w,
			   enum prio_billing_rule rule)
{
	struct counts c = { .array = cnt, .n = n };

	return weighted(t, &c, w, rule);
}

double prio_billing_list(const struct prio_tres_table *t,
			 const struct prio_tres_list *list,
			 const struct prio_tres_weights *w,
			 enum prio_billing_rule rule)
{
	struct counts c = { .list = list };

	return weighted(t, &c, w, rule);
}

uint64_t prio_billing_truncate(double billing)
{
	if (!(billing > 0))
		return 0;
	if (billing >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)billing;
}

double prio_billing_explain(const struct prio_tres_table *t,
			    const struct prio_tres_list *list,
			    const struct prio_tres_weights *w,
			    enum prio_billing_rule rule,
			    struct prio_billing_term *terms,
			    struct prio_billing_detail *d)
{
	double sum = 0.0, gres = 0.0, max = -1.0, top = -1.0;
	bool max_tres = rule != PRIO_BILL_SUM;

	memset(d, 0, sizeof(*d));
	d->dominant = -1;
	d->max_tres = max_tres;
	d->rule = rule;
	if (!w || !w->count) {
		terms[0] = (struct prio_billing_term){
			.tres = PRIO_TRES_CPU,
			.count = prio_tres_list_get(list, PRIO_TRES_CPU, 0),
			.weight = 1.0,
			.node_tres = true,
			.counted = true,
		};
		terms[0].value = (double)terms[0].count;
		d->nterms = 1;
		d->dominant = 0;
		d->billing = terms[0].value;
		d->truncated = prio_billing_truncate(d->billing);
		return d->billing;
	}
	d->weighted = true;
	for (uint32_t i = 0; i < w->count; i++) {
		struct prio_billing_term *term = &terms[d->nterms];
		uint32_t tres = w->items[i].tres;

		if (tres == PRIO_TRES_BILLING || overridden(w, i))
			continue;
		term->tres = tres;
		term->count = prio_tres_list_get(list, tres, 0);
		term->weight = w->items[i].weight;
		term->value = (double)term->count * term->weight;
		term->node_tres = bill_part(t, tres, rule) == PART_NODE ||
				  (rule == PRIO_BILL_SUM &&
				   prio_tres_is_node_tres(t, tres));
		term->counted = !max_tres || !term->node_tres;
		if (bill_part(t, tres, rule) == PART_GRES) {
			gres += term->value;
		} else if (max_tres && term->node_tres) {
			if (term->value > max) {
				max = term->value;
				d->dominant = (int)d->nterms;
			}
		} else {
			sum += term->value;
			if (!max_tres && term->value > top) {
				top = term->value;
				d->dominant = (int)d->nterms;
			}
		}
		d->nterms++;
	}
	if (max_tres && d->dominant >= 0)
		terms[d->dominant].counted = true;
	d->node_max = max > 0 ? max : 0.0;
	d->gres = gres;
	d->others = sum;
	/* 25.05's order: (max + gres) + global */
	d->billing = (d->node_max + gres) + sum;
	d->truncated = prio_billing_truncate(d->billing);
	return d->billing;
}

void prio_billing_nodes(const struct prio_snapshot *snap, uint64_t *out)
{
	enum prio_billing_rule rule = prio_billing_rule_of(&snap->conf);
	uint32_t n = snap->tres.count;
	uint64_t *cnt = calloc(n ? n : 1, sizeof(*cnt));
	bool *seen = calloc(snap->node_count ? snap->node_count : 1, sizeof(*seen));

	for (uint32_t i = 0; i < snap->node_count; i++)
		out[i] = snap->nodes[i].cpus;
	if (!cnt || !seen) {
		free(cnt);
		free(seen);
		return;
	}
	for (uint32_t p = 0; p < snap->partition_count; p++) {
		const struct prio_partition *part = &snap->partitions[p];

		for (uint32_t k = 0; k < part->node_count; k++) {
			uint32_t idx = part->nodes[k];
			const struct prio_node *node = &snap->nodes[idx];
			uint64_t b;

			memset(cnt, 0, n * sizeof(*cnt));
			cnt[PRIO_TRES_CPU] = node->cpus;
			cnt[PRIO_TRES_MEM] = node->real_memory;
			cnt[PRIO_TRES_NODE] = 1;
			for (uint32_t g = 0; g < node->gres_tres.count; g++)
				if (node->gres_tres.items[g].tres < n)
					cnt[node->gres_tres.items[g].tres] +=
					    node->gres_tres.items[g].count;
			b = prio_billing_truncate(prio_billing_counts(
			    &snap->tres, cnt, n, &part->billing_weights, rule));
			if (!seen[idx] || b > out[idx])
				out[idx] = b;
			seen[idx] = true;
		}
	}
	free(cnt);
	free(seen);
}
