/* SPDX-License-Identifier: MIT */
/* Report windows, usage roll-ups and the billing of nodes, on cases the
 * sreport-final oracle (tests/cli/bill-sreport-oracle.sh) does not reach. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "prio/report_sreport.h"
#include "prio/rollup.h"
#include "prio/window.h"
#include "testutil.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

static time_t at(const char *s)
{
	time_t t;

	cr_assert_eq(prio_timestamp_parse(s, strlen(s), &t), 0, "%s", s);
	return t;
}

static void load(struct prio_snapshot *snap, const char *conf, const char *sacct)
{
	struct prio_error err;
	char msg[1024];

	utc();
	cr_assert_eq(prio_snapshot_init(snap), 0);
	if (conf)
		cr_assert_eq(prio_load_role(snap, PRIO_ROLE_CONF, test_path(conf), &err), 0,
			     "%s", prio_error_format(&err, msg, sizeof(msg)));
	if (sacct)
		cr_assert_eq(prio_load_role(snap, PRIO_ROLE_SACCT, test_path(sacct), &err), 0,
			     "%s", prio_error_format(&err, msg, sizeof(msg)));
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

Test(window, slurm_time_formats)
{
	time_t now, t;

	utc();
	now = at("2026-11-22T15:47:10");
	cr_assert_eq(prio_slurm_time_parse("2026-11-22T03:00:00", now, &t), 0);
	cr_assert_eq(t, at("2026-11-22T03:00:00"));
	cr_assert_eq(prio_slurm_time_parse("2026-11-20", now, &t), 0);
	cr_assert_eq(t, at("2026-11-20T00:00:00"));
	cr_assert_eq(prio_slurm_time_parse("2026-11-20T07", now, &t), 0);
	cr_assert_eq(t, at("2026-11-20T07:00:00"));
	cr_assert_eq(prio_slurm_time_parse("1120", now, &t), 0);
	cr_assert_eq(t, at("2026-11-20T00:00:00"));
	cr_assert_eq(prio_slurm_time_parse("112025", now, &t), 0);
	cr_assert_eq(t, at("2025-11-20T00:00:00"));
	cr_assert_eq(prio_slurm_time_parse("11/20/25-13:30", now, &t), 0);
	cr_assert_eq(t, at("2025-11-20T13:30:00"));
	cr_assert_eq(prio_slurm_time_parse("11.20", now, &t), 0);
	cr_assert_eq(t, at("2026-11-20T00:00:00"));
	cr_assert_eq(prio_slurm_time_parse("9:15pm", now, &t), 0);
	cr_assert_eq(t, at("2026-11-22T21:15:00"));
	cr_assert_eq(prio_slurm_time_parse("12:05 AM", now, &t), 0);
	cr_assert_eq(t, at("2026-11-22T00:05:00"));
	cr_assert_eq(prio_slurm_time_parse("now-2days", now, &t), 0);
	cr_assert_eq(t, now - 2 * 86400);
	cr_assert_eq(prio_slurm_time_parse("now+90", now, &t), 0);
	cr_assert_eq(t, now + 90);
	cr_assert_eq(prio_slurm_time_parse("now-3h", now, &t), 0);
	cr_assert_eq(t, now - 3 * 3600);
	cr_assert_eq(prio_slurm_time_parse("teatime", now, &t), 0);
	cr_assert_eq(t, at("2026-11-22T16:00:00"));
	cr_assert_eq(prio_slurm_time_parse("tomorrow", now, &t), 0);
	cr_assert_eq(t, at("2026-11-23T00:00:00"));
	cr_assert_eq(prio_slurm_time_parse("@1795320465", now, &t), 0);
	cr_assert_eq(t, 1795320465);
	cr_assert_eq(prio_slurm_time_parse("13/40", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("now-2fortnights", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("25:00", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("2026-11-22T03:00:00x", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("", now, &t), -1);
}

/* A start= or end= the zone skipped is no time of it: refused, as the
 * loaders refuse it; the repeated hour is its first instant. */
Test(window, dst_edges_as_the_loaders)
{
	time_t now = 1795319730, t;

	setenv("TZ", "America/New_York", 1);
	tzset();
	cr_assert_eq(prio_slurm_time_parse("2026-03-08T02:30:00", now, &t), -1);
	cr_assert_eq(prio_slurm_time_parse("2026-03-08T03:00:00", now, &t), 0);
	cr_assert_eq(t, 1772953200);
	cr_assert_eq(prio_slurm_time_parse("2026-11-01T01:30:00", now, &t), 0);
	cr_assert_eq(t, 1793511000);
	utc();
}

Test(window, rounded_to_the_hour_with_defaults)
{
	struct prio_window w;
	const char *bad = NULL;
	time_t now;

	utc();
	now = at("2026-11-22T15:47:10");
	/* sreport-final: end=04:07:45 -> the hour 03:00-04:00 */
	cr_assert_eq(prio_window_from_args("2026-11-22T03:00:00", "2026-11-22T04:07:45",
					   now, &w, &bad), 0);
	cr_assert_eq(w.start, at("2026-11-22T03:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T04:00:00"));
	/* within one hour: one hour from the start */
	cr_assert_eq(prio_window_from_args("03:10", "03:50", now, &w, &bad), 0);
	cr_assert_eq(w.end - w.start, 3600);
	/* defaults: yesterday */
	cr_assert_eq(prio_window_from_args(NULL, NULL, now, &w, &bad), 0);
	cr_assert_eq(w.start, at("2026-11-21T00:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T00:00:00"));
	cr_assert_eq(prio_window_from_args("soon", NULL, now, &w, &bad), -1);
	cr_assert_str_eq(bad, "soon");
}

Test(window, buckets_at_calendar_boundaries)
{
	struct prio_window w;
	time_t *b;

	utc();
	/* Wed 2026-11-18 12:00 to Wed 2026-12-02 00:00 */
	w.start = at("2026-11-18T12:00:00");
	w.end = at("2026-12-02T00:00:00");
	cr_assert_eq(prio_window_buckets(&w, PRIO_BY_WEEK, &b), 3);
	cr_assert_eq(b[1], at("2026-11-23T00:00:00")); /* a Monday */
	cr_assert_eq(b[2], at("2026-11-30T00:00:00"));
	cr_assert_eq(b[3], w.end);
	free(b);
	cr_assert_eq(prio_window_buckets(&w, PRIO_BY_MONTH, &b), 2);
	cr_assert_eq(b[1], at("2026-12-01T00:00:00"));
	free(b);
	cr_assert_eq(prio_window_buckets(&w, PRIO_BY_DAY, &b), 14);
	cr_assert_eq(b[1], at("2026-11-19T00:00:00"));
	free(b);
	cr_assert_eq(prio_window_buckets(&w, PRIO_BY_NONE, &b), 1);
	cr_assert_eq(b[1], w.end);
	free(b);
}

Test(rollup, span_clips_and_takes_suspended_time_out_of_cpu)
{
	struct prio_sacct_rec r;
	struct prio_usage_span sp;

	utc();
	memset(&r, 0, sizeof(r));
	r.start = at("2026-11-22T03:41:18");
	r.end = at("2026-11-22T03:42:41");
	r.suspended = 60;
	/* inside the window: 83 s run, 23 s of CPU (pre's job 1000) */
	cr_assert_eq(prio_usage_span(&r, at("2026-11-22T03:00:00"), at("2026-11-22T04:00:00"),
				     0, &sp), 83);
	cr_assert_eq(sp.secs, 23);
	/* cut by the window: 41 s of 83 inside, suspended share 60*41/83 */
	cr_assert_eq(prio_usage_span(&r, at("2026-11-22T03:42:00"), at("2026-11-22T04:00:00"),
				     0, &sp), 41);
	cr_assert_eq(sp.secs, 41 - 30);
	/* still running: up to now */
	r.end = 0;
	r.suspended = 0;
	cr_assert_eq(prio_usage_span(&r, at("2026-11-22T03:00:00"), at("2026-11-22T04:00:00"),
				     at("2026-11-22T03:50:00"), &sp), 522);
	/* never started */
	r.start = 0;
	cr_assert_eq(prio_usage_span(&r, 0, at("2026-11-22T04:00:00"), 0, &sp), 0);
}

Test(rollup, decay_integral_matches_per_second_decay)
{
	double d = prio_decay_factor(600), sum = 0;
	time_t s = 1000, e = 1000 + 1800, t = 4000;

	cr_assert_float_eq(d, 1 - 0.693 / 600, 1e-15);
	cr_assert_eq(prio_decay_factor(0), 1.0);
	/* Slurm with PriorityCalcPeriod=1 s: each second's usage is added
	 * pre-decayed and then decays every second until t */
	for (time_t k = s; k < e; k++)
		sum += pow(d, (double)(t - k));
	cr_assert(fabs(prio_usage_decayed_seconds(d, s, e, t) - sum) / sum < 1e-3,
		  "%f vs %f", prio_usage_decayed_seconds(d, s, e, t), sum);
	cr_assert_float_eq(prio_usage_decayed_seconds(1.0, s, e, t), 1800.0, 1e-9);
	cr_assert_eq(prio_usage_decayed_seconds(d, e, s, t), 0.0);
}

Test(rollup, array_task_counts)
{
	struct prio_snapshot snap;
	struct prio_sacct_rec r;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(prio_sacct_task_count(&snap, &r), 1);
	r.array_task_text = prio_snapshot_intern(&snap, "0-2", 3);
	cr_assert_eq(prio_sacct_task_count(&snap, &r), 3);
	r.array_task_text = prio_snapshot_intern(&snap, "1-5%2", 5);
	cr_assert_eq(prio_sacct_task_count(&snap, &r), 5);
	r.array_task_text = prio_snapshot_intern(&snap, "1,3,5-7", 7);
	cr_assert_eq(prio_sacct_task_count(&snap, &r), 5);
	r.array_task_text = prio_snapshot_intern(&snap, "0-9:3", 5);
	cr_assert_eq(prio_sacct_task_count(&snap, &r), 4);
	prio_snapshot_free(&snap);
}

Test(rollup, node_billing_is_the_largest_partition_billing)
{
	struct prio_snapshot snap;
	uint64_t *b, *tot;

	/* ft: CfgTRES billing=23 on every node (scontrol_show_node.txt) */
	load(&snap, "tests/oracle/fairtree-basic/slurm.conf", NULL);
	b = calloc(snap.node_count, sizeof(*b));
	tot = calloc(snap.tres.count, sizeof(*tot));
	prio_billing_nodes(&snap, b);
	cr_assert_eq(snap.node_count, 5);
	for (uint32_t i = 0; i < snap.node_count; i++)
		cr_assert_eq(b[i], 23);
	prio_cluster_tres(&snap, tot);
	cr_assert_eq(tot[PRIO_TRES_CPU], 40);
	cr_assert_eq(tot[PRIO_TRES_MEM], 80000);
	cr_assert_eq(tot[PRIO_TRES_NODE], 5);
	cr_assert_eq(tot[PRIO_TRES_BILLING], 115);
	free(b);
	free(tot);
	prio_snapshot_free(&snap);
	/* seed: no weights, billing = CPUs (CfgTRES billing=8) */
	load(&snap, "tests/oracle/seed-hierarchy/slurm.conf", NULL);
	b = calloc(snap.node_count, sizeof(*b));
	prio_billing_nodes(&snap, b);
	for (uint32_t i = 0; i < snap.node_count; i++)
		cr_assert_eq(b[i], 8);
	free(b);
	prio_snapshot_free(&snap);
}

Test(rollup, planned_cpu_from_the_records)
{
	struct prio_snapshot snap;
	struct prio_rollup r;
	struct prio_rollup_opts o;
	struct prio_error err;

	load(&snap, "tests/oracle/billing-max-tres/slurm.conf.max_tres",
	     "tests/oracle/sreport-final/sacct_a_P_X_all_pre.txt");
	memset(&o, 0, sizeof(o));
	o.window.start = at("2026-11-22T03:00:00");
	o.window.end = at("2026-11-22T04:00:00");
	o.now = 1795320473;
	cr_assert_eq(prio_rollup_run(&snap, &o, &r, &err), 0);
	/* Slurm says 557: these 553 CPU-seconds waited by the records sacct
	 * shows, plus 4 by first runs of requeued jobs it does not */
	cr_assert_eq(r.planned_cpu[0], 553);
	cr_assert_eq(r.bucket_count, 1);
	/* pb's usage is all visible: 5320 CPU-seconds as sreport says */
	for (uint32_t i = 0; i < r.entry_count; i++)
		if (strcmp(prio_snapshot_str(&snap, r.entries[i].user), "pb") == 0)
			cr_assert_eq(r.entries[i].secs[PRIO_TRES_CPU], 5320);
	prio_rollup_free(&r);
	prio_snapshot_free(&snap);
}

Test(rollup, decayed_usage_uses_unrounded_billing_and_usage_factor)
{
	struct prio_snapshot snap;
	struct prio_rollup r;
	struct prio_rollup_opts o;
	struct prio_error err;
	double want;

	/* billing-max-tres summed, running at 03:53:21: jobs 4000-4004 (the
	 * only ones in this minute) bill 6.25, 6, 6, 11, 6.5 (stored 6, 6, 6,
	 * 11, 6) */
	load(&snap, "tests/oracle/billing-max-tres/slurm.conf.default",
	     "tests/oracle/billing-max-tres/sacct_a_P_X_default_running.txt");
	memset(&o, 0, sizeof(o));
	o.window.start = at("2026-11-22T03:53:00");
	o.window.end = at("2026-11-22T03:54:00");
	o.now = 1795319601;
	o.decayed = true;
	cr_assert_eq(prio_rollup_run(&snap, &o, &r, &err), 0);
	want = 0;
	for (uint32_t i = 0; i < snap.sacct_count; i++) {
		const struct prio_sacct_rec *rec = &snap.sacct[i];
		const struct prio_partition *p = prio_snapshot_partition(&snap, rec->partition);
		struct prio_usage_span sp;

		if (rec->is_step || !p ||
		    !prio_usage_span(rec, o.window.start, o.window.end, o.now, &sp))
			continue;
		want += prio_billing_list(&snap.tres, &rec->alloc_tres, &p->billing_weights,
					  false) *
			prio_usage_decayed_seconds(prio_decay_factor(snap.conf.decay_half_life),
						   sp.start, sp.end, o.window.end);
	}
	cr_assert_gt(want, 0);
	cr_assert_float_eq(r.alloc_decayed[PRIO_TRES_BILLING], want, want * 1e-12);
	/* raw billing counts the stored integers: 5 s x (6+6+6+11+6) */
	cr_assert_eq(r.alloc[PRIO_TRES_BILLING], 5 * 35);
	/* decayed < raw but of the unrounded 35.75 per second */
	cr_assert_gt(want, 5 * 35 * 0.99);
	cr_assert_lt(want, 5 * 35.75);
	prio_rollup_free(&r);
	prio_snapshot_free(&snap);
}

Test(sreport, time_units_as_sreport_takes_them)
{
	cr_assert_eq(prio_sreport_unit_parse("s"), PRIO_UNIT_SECONDS);
	cr_assert_eq(prio_sreport_unit_parse("Seconds"), PRIO_UNIT_SECONDS);
	cr_assert_eq(prio_sreport_unit_parse("m"), PRIO_UNIT_MINUTES);
	cr_assert_eq(prio_sreport_unit_parse("HOURS"), PRIO_UNIT_HOURS);
	cr_assert_eq(prio_sreport_unit_parse("p"), PRIO_UNIT_PERCENT);
	cr_assert_eq(prio_sreport_unit_parse("secper"), PRIO_UNIT_SECPER);
	cr_assert_eq(prio_sreport_unit_parse("MinPer"), PRIO_UNIT_MINPER);
	cr_assert_eq(prio_sreport_unit_parse("hourper"), PRIO_UNIT_HOURPER);
	cr_assert_eq(prio_sreport_unit_parse("secs"), -1);
	cr_assert_eq(prio_sreport_unit_parse("days"), -1);
}

Test(billing, explain_names_the_dominant_tres)
{
	struct prio_snapshot snap;
	struct prio_tres_list l;
	struct prio_billing_term terms[8];
	struct prio_billing_detail d;
	const struct prio_partition *p;
	const char *why;

	load(&snap, "tests/oracle/billing-max-tres/slurm.conf.max_tres", NULL);
	p = prio_snapshot_partition(&snap, prio_snapshot_intern(&snap, "sum", 3));
	cr_assert_not_null(p);
	cr_assert_eq(prio_tres_list_parse(&snap.arena, &snap.tres, "cpu=2,mem=2G,node=2", 19,
					  &l, &why), 0);
	/* 2 nodes x (1 CPU, 1G) with MAX_TRES: max(2, 0.5, 4) = 4, node */
	cr_assert_float_eq(prio_billing_explain(&snap.tres, &l, &p->billing_weights, true,
						terms, &d), 4.0, 1e-12);
	cr_assert_eq(d.nterms, 3);
	cr_assert_eq(terms[d.dominant].tres, PRIO_TRES_NODE);
	cr_assert(terms[d.dominant].counted);
	cr_assert(!terms[0].counted);
	cr_assert_eq(d.truncated, 4);
	/* summed: 2 + 0.5 + 4 = 6.5, stored 6, all counted */
	cr_assert_float_eq(prio_billing_explain(&snap.tres, &l, &p->billing_weights, false,
						terms, &d), 6.5, 1e-12);
	cr_assert_eq(d.truncated, 6);
	for (uint32_t i = 0; i < d.nterms; i++)
		cr_assert(terms[i].counted);
	/* no weights: the CPU count */
	cr_assert_float_eq(prio_billing_explain(&snap.tres, &l, NULL, true, terms, &d), 2.0,
			   1e-12);
	cr_assert(!d.weighted);
	prio_snapshot_free(&snap);
}
