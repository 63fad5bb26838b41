/* SPDX-License-Identifier: MIT */
/* Placeholder: replaced by its loader. */
#include "config.h"
#include "prio/snapshot.h"
int prio_load_qos(struct prio_snapshot *snap, const struct prio_source *src, struct prio_error *err)
{ (void)snap; return prio_error_set(err, PRIO_ERR_USAGE, src->name, 0, "", "not implemented yet"); }
int prio_qos_link(struct prio_snapshot *snap, struct prio_error *err)
{ (void)snap; (void)err; return 0; }
