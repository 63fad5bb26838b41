/* SPDX-License-Identifier: MIT */
/*
 * The inputs a weight needs (prio/priority_inputs.h): Slurm computes every
 * factor from the controller's own records; offline, a weighted factor
 * whose records were not given would silently count 0 and reorder the
 * queue, so it is refused with the option that would serve it.
 */
#include "config.h"

#include "prio/priority_inputs.h"

int prio_engine_check_inputs(const struct prio_engine *e,
			     struct prio_error *err, bool *no_usage)
{
	const struct prio_snapshot *snap = e->snap;
	bool any = false;

	if (no_usage)
		*no_usage = false;
	for (uint32_t i = 0; i < snap->job_count && !any; i++)
		any = prio_job_listed(e, &snap->jobs[i]);
	if (!any)
		return PRIO_OK;
	if (!snap->assoc_count && e->weight[PRIO_FACTOR_FAIRSHARE] &&
	    !*snap->usage_withheld)
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "PriorityWeightFairshare is %u but no "
				      "associations were loaded: give --assoc",
				      e->weight[PRIO_FACTOR_FAIRSHARE]);
	if (!snap->assoc_count && e->weight[PRIO_FACTOR_ASSOC] &&
	    !*snap->usage_withheld)
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "PriorityWeightAssoc is %u but no "
				      "associations were loaded: give --assoc",
				      e->weight[PRIO_FACTOR_ASSOC]);
	if (!snap->qos_count && e->weight[PRIO_FACTOR_QOS])
		return prio_error_set(err, PRIO_ERR_MISSING, "", 0, "",
				      "PriorityWeightQOS is %u but no QOS were "
				      "loaded: give --qos",
				      e->weight[PRIO_FACTOR_QOS]);
	if (!snap->node_count &&
	    (e->weight[PRIO_FACTOR_JOBSIZE] || e->tres_count))
		return prio_error_set(
		    err, PRIO_ERR_MISSING, "", 0, "",
		    "job size and TRES factors need the nodes: "
		    "give --conf with NodeName lines or --nodes");
	if (no_usage)
		*no_usage = snap->assoc_count && !*snap->usage_withheld &&
			    e->weight[PRIO_FACTOR_FAIRSHARE] &&
			    !snap->assocs[0].usage_known;
	return PRIO_OK;
}
