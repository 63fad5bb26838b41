/* SPDX-License-Identifier: MIT */
/*
 * TRES billing (slurm-facts §5): the `billing` TRES Slurm charges usage in,
 * from TRES counts and a partition's TRESBillingWeights.  One formula for
 * every caller: partition billing totals, a job's billable TRES for usage
 * (unrounded double), AllocTRES billing= (truncated) and tres-bill.
 */
#ifndef PRIO_BILLING_H
#define PRIO_BILLING_H

#include <stdbool.h>
#include <stdint.h>

#include "tres.h"

/* How the weighted TRES add up (PriorityFlags).  PRIO_BILL_MAX_TRES is 1
 * so that `bool max_tres` callers keep their meaning. */
enum prio_billing_rule {
	PRIO_BILL_SUM = 0,      /* SUM(TRES) */
	PRIO_BILL_MAX_TRES = 1, /* MAX(node TRES) + SUM(global TRES) */
	/* MAX(cpu, mem, node) + SUM(gres) + SUM(global TRES) (25.05) */
	PRIO_BILL_MAX_TRES_GRES = 2,
};

struct prio_config;
/* The rule of a configuration's PriorityFlags. */
enum prio_billing_rule prio_billing_rule_of(const struct prio_config *conf);

/*
 * Billing of counts cnt[0..n) (indexed by TRES) with weights w:
 *  - no weights: the CPU count;
 *  - otherwise Σ count·weight over the weighted TRES (the billing TRES
 *    itself skipped), or with PRIO_BILL_MAX_TRES the largest value among
 *    the node TRES (cpu, mem, node, every gres) plus the sum of the
 *    others, or with PRIO_BILL_MAX_TRES_GRES the largest of cpu, mem and
 *    node plus every gres plus the others (assoc_mgr_tres_weighted() of
 *    25.05).
 * A TRES weighted twice keeps its last weight, as Slurm's array does.
 * Counts of TRES at or beyond n count as 0.
 */
double prio_billing_counts(const struct prio_tres_table *t,
			   const uint64_t *cnt, uint32_t n,
			   const struct prio_tres_weights *w,
			   enum prio_billing_rule rule);

/* The same over a TRES count list (a job's requested or allocated TRES).
 * Without weights the CPU count of the list is returned. */
double prio_billing_list(const struct prio_tres_table *t,
			 const struct prio_tres_list *list,
			 const struct prio_tres_weights *w,
			   enum prio_billing_rule rule);

/* Slurm stores billing= as an integer: truncated, clamped to uint64. */
uint64_t prio_billing_truncate(double billing);

/* One TRES's part of a billing value, for showing how it was reached. */
struct prio_billing_term {
	uint32_t tres;
	uint64_t count;
	double weight;  /* per unit (per MB for mem) after the unit divisor */
	double value;   /* count * weight */
	bool node_tres; /* cpu, mem, node or gres: MAX_TRES takes their max
			   (MAX_TRES_GRES: of cpu, mem and node only) */
	bool counted;   /* part of the result (under MAX_TRES only the largest
			   node TRES is) */
};

struct prio_billing_detail {
	double billing;   /* unrounded, as fairshare usage takes it */
	uint64_t truncated; /* as billing= shows it */
	bool weighted;    /* false: no weights, billing is the CPU count */
	bool max_tres;    /* MAX_TRES or MAX_TRES_GRES */
	enum prio_billing_rule rule;
	double node_max;  /* MAX_TRES: the largest node TRES value */
	double gres;      /* MAX_TRES_GRES: the sum of the gres TRES */
	double others;    /* MAX_TRES: the sum of the other TRES */
	int dominant;     /* index in terms of the largest value among the
			     node TRES (MAX_TRES) or among all (SUM); -1 none */
	uint32_t nterms;
};

/*
 * prio_billing_list() with its working: one term per weighted TRES (the
 * billing TRES and overridden weights left out), in the order of the
 * weights.  terms must hold w->count entries (1 when w is empty: the CPU
 * term).  Returns the unrounded billing.
 */
double prio_billing_explain(const struct prio_tres_table *t,
			    const struct prio_tres_list *list,
			    const struct prio_tres_weights *w,
			    enum prio_billing_rule rule,
			    struct prio_billing_term *terms,
			    struct prio_billing_detail *d);

struct prio_snapshot;
/*
 * The billing TRES of every node (out[node_count]), as slurmctld counts it
 * for the cluster's TRES (CfgTRES billing=, sreport's Reported billing):
 * the largest, over the partitions the node is in, of that partition's
 * billing of the node's own TRES (cpu, mem, node=1, gres), each truncated;
 * the CPU count for a node in no partition or in partitions without
 * weights.
 */
void prio_billing_nodes(const struct prio_snapshot *snap, uint64_t *out);

#endif
