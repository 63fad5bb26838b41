/* SPDX-License-Identifier: MIT */
/*
 * The writers that mirror Slurm's tables, per Slurm release: which sprio
 * letters and -S keys each release knows and the headers of its -l layout
 * (read from each tagged release's src/sprio), and that the release table's
 * sprio_account_qosname agrees; sreport's window as each release rounds it
 * (slurmdb_report_set_start_end_time of 24.11 and 25.05).  One test per
 * release, named after it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "prio/report_sprio.h"
#include "prio/report_sshare.h"
#include "prio/slurm_version.h"
#include "prio/timestr.h"
#include "prio/window.h"
#include "testutil.h"

/* Every letter a release's sprio -o accepts, probed one by one. */
static char refused[64];
static void note_refused(char l, void *ctx)
{
	(void)ctx;
	refused[strlen(refused)] = l;
}

static void accepted_letters(uint16_t release, char *out)
{
	const struct prio_sprio_release *rel = prio_sprio_release(release);
	static const char probe[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n = 0;

	for (const char *p = probe; *p; p++) {
		struct prio_sprio_table t;
		char fmt[8], why[256];
		int rc;

		snprintf(fmt, sizeof(fmt), "%%%c", *p);
		memset(refused, 0, sizeof(refused));
		rc = prio_sprio_table_init_in(&t, rel, fmt, note_refused, NULL,
					      why, sizeof(why));
		if (rc == PRIO_ERR_USAGE) {
			/* known, but no input carries it (SLUID) */
			cr_assert_eq(*p, 's', "%c: %s", *p, why);
			out[n++] = *p;
			continue;
		}
		cr_assert_eq(rc, 0);
		if (!refused[0])
			out[n++] = *p;
		else
			cr_assert_eq(refused[0], *p);
		prio_sprio_table_free(&t);
	}
	out[n] = '\0';
}

/* The -S keys a release accepts. */
static void accepted_keys(uint16_t release, char *out)
{
	const struct prio_sprio_release *rel = prio_sprio_release(release);
	static const char probe[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n = 0;

	for (const char *p = probe; *p; p++) {
		struct prio_sprio_sort s;
		char spec[2] = {*p, 0}, why[128];

		if (prio_sprio_sort_parse_in(rel, spec, &s, why, sizeof(why)) ==
		    0)
			out[n++] = *p;
		else
			cr_assert(strstr(why, "Invalid sort specification"));
	}
	out[n] = '\0';
}

/* The headers of the release's -l (or -l -n) layout, space-separated. */
static void long_headers(uint16_t release, bool norm, char *out, size_t size)
{
	const struct prio_sprio_release *rel = prio_sprio_release(release);
	struct prio_sprio_table t;
	struct prio_config conf;
	char fmt[256], why[128];
	size_t len = 0;

	memset(&conf, 0, sizeof(conf));
	prio_sprio_default_format_in(rel, &conf, true, norm, false, fmt,
				     sizeof(fmt));
	cr_assert_eq(prio_sprio_table_init_in(&t, rel, fmt, NULL, NULL, why,
					      sizeof(why)),
		     0);
	out[0] = '\0';
	for (size_t i = 0; i < t.ncols; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					i ? " " : "", t.cols[i].header);
	prio_sprio_table_free(&t);
}

/* in probe order: lower case, then upper case */
#define L22 "abcfijpqrtuyABFJNPQSTY"
#define L23 "abcfijnopqrtuyABFJNPQSTY"
#define K22 "acfijpqrtuyAFJNPQTY"
#define K23 "acfijnopqrtuyAFJNPQTY"
#define LONG22                                                                 \
	"JOBID PARTITION USER PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE "      \
	"PARTITION QOS NICE TRES"
/* 24.11.5's own `sprio -l` header (tests/cli/writers-data) */
#define LONG23                                                                 \
	"JOBID PARTITION USER ACCOUNT PRIORITY SITE AGE ASSOC FAIRSHARE "      \
	"JOBSIZE PARTITION QOSNAME QOS NICE TRES"
#define NORM22                                                                 \
	"JOBID PARTITION USER PRIORITY AGE ASSOC FAIRSHARE JOBSIZE PARTITION " \
	"QOS TRES"
#define NORM23                                                                 \
	"JOBID PARTITION USER ACCOUNT PRIORITY AGE ASSOC FAIRSHARE JOBSIZE "   \
	"PARTITION QOSNAME QOS TRES"

static void check_release(const char *name, const char *letters,
			  const char *keys, const char *lng, const char *norm)
{
	uint16_t r;
	char got[64], hdr[512];
	const struct prio_slurm_release *row;

	cr_assert_eq(prio_slurm_version_parse(name, strlen(name), &r), 0);
	accepted_letters(r, got);
	cr_assert_str_eq(got, letters, "%s: -o letters", name);
	accepted_keys(r, got);
	cr_assert_str_eq(got, keys, "%s: -S keys", name);
	long_headers(r, false, hdr, sizeof(hdr));
	cr_assert_str_eq(hdr, lng, "%s: -l", name);
	long_headers(r, true, hdr, sizeof(hdr));
	cr_assert_str_eq(hdr, norm, "%s: -l -n", name);
	/* the release table says the same */
	row = prio_slurm_release_of(r);
	cr_assert_not_null(row);
	cr_assert_eq(row->sprio_account_qosname, strchr(letters, 'o') != NULL,
		     "%s", name);
	cr_assert_eq(prio_sprio_release(r)->client_filter,
		     row->sprio_account_qosname, "%s", name);
}

Test(writers, sprio_22_05)
{
	check_release("22.05", L22, K22, LONG22, NORM22);
}

Test(writers, sprio_23_02)
{
	check_release("23.02", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_23_11)
{
	check_release("23.11", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_24_05)
{
	check_release("24.05", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_24_11)
{
	check_release("24.11", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_25_05)
{
	check_release("25.05", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_25_11)
{
	check_release("25.11", L23, K23, LONG23, NORM23);
}

Test(writers, sprio_26_05)
{
	check_release("26.05", "abcfijnopqrstuyABFJNPQSTY", K23, LONG23,
		      NORM23);
}

/* The new letters' columns: ids for JSON/CSV, headers, justification and
 * width as the -l layout gives them (24.11's sprio -l: ACCOUNT %.8o,
 * QOSNAME %.10n, both right-justified). */
Test(writers, sprio_account_qosname_columns_24_11)
{
	const struct prio_sprio_release *rel = prio_sprio_release(2411);
	struct prio_sprio_table t;
	char why[128];

	cr_assert_eq(prio_sprio_table_init_in(&t, rel, "%.8o %.10n", NULL, NULL,
					      why, sizeof(why)),
		     0);
	cr_assert_eq(t.ncols, 2);
	cr_assert_str_eq(t.cols[0].id, "account");
	cr_assert_str_eq(t.cols[0].header, "ACCOUNT");
	cr_assert_eq(t.cols[0].width, 8);
	cr_assert(t.cols[0].right);
	cr_assert_str_eq(t.cols[1].id, "qos_name");
	cr_assert_str_eq(t.cols[1].header, "QOSNAME");
	cr_assert_eq(t.cols[1].width, 10);
	prio_sprio_table_free(&t);
}

/* ---- sreport's window ------------------------------------------------ */

static time_t at(const char *s)
{
	time_t t;

	cr_assert_eq(prio_timestamp_parse(s, strlen(s), &t), 0, "%s", s);
	return t;
}

/* The window of start/end for a release, at 2026-11-22T15:47:10 UTC. */
static void window_of(const char *release, const char *start, const char *end,
		      struct prio_window *w)
{
	const char *bad = NULL;
	uint16_t r;

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_slurm_version_parse(release, strlen(release), &r), 0);
	cr_assert_eq(prio_window_from_args_in(
			 start, end, at("2026-11-22T15:47:10"),
			 prio_slurm_release_of(r)->sreport_round_outward, w,
			 &bad),
		     0);
}

/* 24.11: a time given is rounded to the nearest minute, then hour */
Test(writers, sreport_window_24_11)
{
	struct prio_window w;

	window_of("24.11", "2026-11-22T03:45:00", "2026-11-22T04:20:00", &w);
	/* 04:00 - 04:00, made one hour */
	cr_assert_eq(w.start, at("2026-11-22T04:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T05:00:00"));
	window_of("24.11", "2026-11-22T03:29:29", "2026-11-22T04:29:30", &w);
	cr_assert_eq(w.start, at("2026-11-22T03:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T05:00:00"));
	/* defaults: yesterday */
	window_of("24.11", NULL, NULL, &w);
	cr_assert_eq(w.start, at("2026-11-21T00:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T00:00:00"));
	/* an end after the clock is the clock */
	window_of("24.11", "2026-11-22T13:00:00", "2026-11-22T23:00:00", &w);
	cr_assert_eq(w.end, at("2026-11-22T16:00:00"));
	/* 22.05 rounds the same way */
	window_of("22.05", "2026-11-22T03:45:00", "2026-11-22T04:20:00", &w);
	cr_assert_eq(w.start, at("2026-11-22T04:00:00"));
}

/* 25.05: a start is rounded down, an end up - the default end too, from
 * the clock's minutes and seconds */
Test(writers, sreport_window_25_05)
{
	struct prio_window w;

	window_of("25.05", "2026-11-22T03:45:00", "2026-11-22T04:20:00", &w);
	cr_assert_eq(w.start, at("2026-11-22T03:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T05:00:00"));
	window_of("25.05", "2026-11-22T03:00:00", "2026-11-22T04:00:00", &w);
	cr_assert_eq(w.end, at("2026-11-22T04:00:00"));
	window_of("25.05", "2026-11-22T03:00:00", "2026-11-22T04:00:01", &w);
	cr_assert_eq(w.end, at("2026-11-22T05:00:00"));
	window_of("25.05", NULL, NULL, &w);
	cr_assert_eq(w.start, at("2026-11-21T00:00:00"));
	cr_assert_eq(w.end, at("2026-11-22T01:00:00"));
	window_of("26.05", "2026-11-22T13:00:00", "2026-11-22T23:00:00", &w);
	cr_assert_eq(w.end, at("2026-11-22T16:00:00"));
}

/* ---- sshare's FairShare column ---------------------------------------- */

static bool fs_users_only_as(uint16_t release)
{
	struct prio_snapshot snap;
	bool v;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	if (release)
		prio_snapshot_note_version(&snap, release, PRIO_VERSION_OPTION);
	v = prio_sshare_fs_users_only(&snap);
	prio_snapshot_free(&snap);
	return v;
}

/* 25.11: user rows only (account rows blank under every algorithm);
 * 25.05 and before: every row; release unknown: as before 25.11 */
Test(writers, sshare_fairshare_25_11)
{
	cr_assert(fs_users_only_as(2511));
	cr_assert(fs_users_only_as(2605));
	cr_assert_not(fs_users_only_as(2505));
	cr_assert_not(fs_users_only_as(2205));
	cr_assert_not(fs_users_only_as(0));
}
