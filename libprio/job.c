/* SPDX-License-Identifier: MIT */
/* Placeholder: job state names. */
#include "config.h"
#include "prio/job.h"
#include "prio/snapshot.h"
int prio_job_state_parse(const char *s, size_t n, enum prio_job_state *st) { (void)s; (void)n; *st = PRIO_JOB_PENDING; return -1; }
const char *prio_job_state_name(enum prio_job_state st) { (void)st; return "UNKNOWN"; }
int prio_jobs_link(struct prio_snapshot *snap, struct prio_error *err) { (void)snap; (void)err; return 0; }
