/* SPDX-License-Identifier: MIT */
/* prio-exporter's exposition (metrics.c): the two text formats written in
 * one pass, label values escaped as both specify, the exporter's own
 * counters, and the end marker only in OpenMetrics. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

Test(metrics, content_types)
{
	cr_assert_str_eq(prio_metrics_content_type(PRIO_METRICS_OPENMETRICS),
			 "application/openmetrics-text; version=1.0.0; "
			 "charset=utf-8");
	cr_assert_str_eq(prio_metrics_content_type(PRIO_METRICS_TEXT),
			 "text/plain; version=0.0.4; charset=utf-8");
}

Test(metrics, status_counters_in_both_formats)
{
	struct prio_metrics_status st = {1795319730, false, 3, 7};
	struct prio_metrics_text t;
	const char *om, *tx;

	cr_assert_eq(prio_metrics_render_status(&st, &t), 0);
	om = t.text[PRIO_METRICS_OPENMETRICS];
	tx = t.text[PRIO_METRICS_TEXT];
	/* OpenMetrics: the family without _total, its sample with it, the
	 * unit line, # EOF last */
	cr_assert_not_null(strstr(om, "# TYPE prio_exporter_load_errors counter\n"
				      "# HELP prio_exporter_load_errors "));
	cr_assert_not_null(strstr(om, "\nprio_exporter_load_errors_total 3\n"));
	cr_assert_not_null(strstr(om, "# UNIT prio_exporter_load_timestamp_seconds seconds\n"));
	cr_assert_not_null(strstr(om, "\nprio_exporter_load_timestamp_seconds 1795319730\n"));
	cr_assert_not_null(strstr(om, "\nprio_exporter_load_success 0\n"));
	cr_assert_str_eq(om + t.len[PRIO_METRICS_OPENMETRICS] - 6, "# EOF\n");
	/* 0.0.4: the family is the sample's name; no units, no end marker */
	cr_assert_not_null(strstr(tx, "# TYPE prio_exporter_loads_total counter\n"
				      "prio_exporter_loads_total 7\n"));
	cr_assert_null(strstr(tx, "# UNIT"));
	cr_assert_null(strstr(tx, "# EOF"));
	prio_metrics_text_free(&t);
}

/* samples/site, with one job's reason spoilt by every character the
 * formats escape. */
Test(metrics, site_labels_escaped_and_info_renamed)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_metrics_opts o = {.max_jobs = 1000};
	struct prio_metrics_text t;
	const char *paths[PRIO_ROLE_COUNT] = {0};
	const char *om, *tx;
	uint32_t k;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(
			 &snap, test_path("samples/site"), paths, &err),
		     0, "%s", err.message);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", err.message);
	for (k = 0; k < snap.job_count; k++)
		if (snap.jobs[k].state == PRIO_JOB_PENDING)
			break;
	cr_assert_lt(k, snap.job_count);
	snap.jobs[k].reason = prio_intern(&snap.strings, "a\\b\"c\nd");
	/* PrivateData withholds: said in an info family */
	cr_assert_eq(prio_metrics_render(&snap, &o, &t, &err), 0, "%s",
		     err.message);
	om = t.text[PRIO_METRICS_OPENMETRICS];
	tx = t.text[PRIO_METRICS_TEXT];
	cr_assert_not_null(strstr(om, ",reason=\"a\\\\b\\\"c\\nd\"} 1\n"), "%s", om);
	cr_assert_not_null(strstr(tx, ",reason=\"a\\\\b\\\"c\\nd\"} 1\n"));
	cr_assert_not_null(strstr(om, "# TYPE prio_withheld info\n"));
	cr_assert_not_null(strstr(tx, "# TYPE prio_withheld_info gauge\n"));
	/* the body has no end marker: the status follows it */
	cr_assert_null(strstr(om, "# EOF"));
	prio_metrics_text_free(&t);
	prio_snapshot_free(&snap);
}
