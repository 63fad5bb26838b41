/* SPDX-License-Identifier: MIT */
/* Placeholder: job state names. */
#include "config.h"
#include "prio/job.h"
int prio_job_state_parse(const char *s, size_t n, enum prio_job_state *st) { (void)s; (void)n; *st = PRIO_JOB_PENDING; return -1; }
const char *prio_job_state_name(enum prio_job_state st) { (void)st; return "UNKNOWN"; }
