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

/*
 * Billing of counts cnt[0..n) (indexed by TRES) with weights w:
 *  - no weights: the CPU count;
 *  - otherwise Σ count·weight over the weighted TRES (the billing TRES
 *    itself skipped), or with max_tres the largest value among the node
 *    TRES (cpu, mem, node, every gres) plus the sum of the others.
 * A TRES weighted twice keeps its last weight, as Slurm's array does.
 * Counts of TRES at or beyond n count as 0.
 */
double prio_billing_counts(const struct prio_tres_table *t,
			   const uint64_t *cnt, uint32_t n,
			   const struct prio_tres_weights *w, bool max_tres);

/* The same over a TRES count list (a job's requested or allocated TRES).
 * Without weights the CPU count of the list is returned. */
double prio_billing_list(const struct prio_tres_table *t,
			 const struct prio_tres_list *list,
			 const struct prio_tres_weights *w, bool max_tres);

/* Slurm stores billing= as an integer: truncated, clamped to uint64. */
uint64_t prio_billing_truncate(double billing);

#endif
