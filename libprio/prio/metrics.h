/* SPDX-License-Identifier: MIT */
/*
 * The Prometheus exposition of a snapshot (prio-exporter): the fairshare
 * of every association as fstree-show computes it, the pending and running
 * job counts per partition and reason, and per pending job the priority
 * and its weighted terms as prio-calc computes them, at the clock of
 * Slurm's last calculation (calc_time.h).
 *
 * One pass writes two texts: the OpenMetrics 1.0 exposition and the older
 * Prometheus text format 0.0.4 (for scrapers that do not accept
 * OpenMetrics), so a server renders a snapshot once per load and answers
 * every scrape from memory.  Nothing is printed: the texts are returned.
 */
#ifndef PRIO_METRICS_H
#define PRIO_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "snapshot.h"

enum prio_metrics_format {
	PRIO_METRICS_OPENMETRICS = 0, /* application/openmetrics-text 1.0.0 */
	PRIO_METRICS_TEXT,            /* text/plain 0.0.4 */
	PRIO_METRICS_FORMAT_COUNT
};

/* The Content-Type header of a format. */
const char *prio_metrics_content_type(enum prio_metrics_format fmt);

struct prio_metrics_opts {
	/* per-job series for at most this many pending jobs, highest
	 * priority first (0: none) */
	uint32_t max_jobs;
	/* export per-user and per-job series even where the snapshot's
	 * PrivateData hides them from ordinary users */
	bool expose_private;
	/* compute at snap->now instead of Slurm's last calculation (the
	 * caller's --now) */
	bool fixed_clock;
};

/* A rendered text per format (malloc'd, NUL-terminated). */
struct prio_metrics_text {
	char *text[PRIO_METRICS_FORMAT_COUNT];
	size_t len[PRIO_METRICS_FORMAT_COUNT];
};
void prio_metrics_text_free(struct prio_metrics_text *t);

/* The snapshot's families.  snap must be finished; its usage may be
 * rebuilt from job records (as fstree-show and prio-calc do when there is
 * no RawUsage).  Returns 0, or a negative status with err filled. */
int prio_metrics_render(struct prio_snapshot *snap,
			const struct prio_metrics_opts *o,
			struct prio_metrics_text *out, struct prio_error *err);

/* The exporter's own state, rendered per scrape after the snapshot's
 * families, with the end marker ("# EOF" in OpenMetrics). */
struct prio_metrics_status {
	time_t last_load;      /* when the data served was read (0: never) */
	bool last_load_ok;     /* the latest attempt succeeded */
	uint64_t load_errors;  /* failed loads since start */
	uint64_t loads;        /* successful loads since start */
};
int prio_metrics_render_status(const struct prio_metrics_status *st,
			       struct prio_metrics_text *out);

#endif
