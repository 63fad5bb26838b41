/* SPDX-License-Identifier: MIT */
/*
 * The zone local times are read in: the one prio-snap recorded in MANIFEST
 * (by name, else its offset), whatever TZ the reader has; and the two DST
 * edges, where a local reading names two instants or none.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <unistd.h>

#include "loadcache.h"
#include "testutil.h"

static void zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

/* 2026-11-26T10:04:49Z, the NOW of the real 24.11.5 capture */
#define CAPTURE 1795687489

struct folder {
	char dir[32];
};

static void put(const struct folder *f, const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* A snapshot folder: MANIFEST (version, then the zone line given), NOW,
 * a slurm.conf and two sacct records, one submitted in July (summer time
 * in Berlin, +0200) and one at the capture in November (+0100), both
 * printed as a Berlin cluster prints them. */
static void make_folder(struct folder *f, const char *zone_line)
{
	char manifest[256];

	snprintf(f->dir, sizeof(f->dir), "/tmp/prio-zone-XXXXXX");
	cr_assert_not_null(mkdtemp(f->dir));
	snprintf(manifest, sizeof(manifest), "version\tslurm-wlm 24.11.5\n%s",
		 zone_line);
	put(f, "MANIFEST", manifest);
	put(f, "NOW", "1795687489\n");
	put(f, "slurm.conf", "ClusterName=live\n");
	put(f, "sacct.txt",
	    "JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Eligible|Start|"
	    "End|Elapsed|ElapsedRaw|Suspended|State|AllocTRES|ReqTRES|NNodes|"
	    "NCPUS|TimelimitRaw\n"
	    "1|1|pllive1|acca|batch|normal|2026-07-15T12:00:00|"
	    "2026-07-15T12:00:00|2026-07-15T12:00:01|2026-07-15T12:01:40|"
	    "00:01:39|99|00:00:00|COMPLETED|billing=6,cpu=5,mem=5000M,node=1|"
	    "billing=6,cpu=5,mem=5000M,node=1|1|5|10\n"
	    "2|2|pllive2|acca|batch|normal|2026-11-26T11:04:49|"
	    "2026-11-26T11:04:49|Unknown|Unknown|00:00:00|0|00:00:00|PENDING|"
	    "|billing=6,cpu=5,mem=5000M,node=1|1|5|10\n");
}

static void remove_folder(struct folder *f)
{
	static const char *const names[] = { "MANIFEST", "NOW", "slurm.conf",
					      "sacct.txt" };
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", f->dir, names[i]);
		remove(path);
	}
	rmdir(f->dir);
}

static int load(struct prio_snapshot *snap, const struct folder *f,
		struct prio_error *err)
{
	prio_snapshot_init(snap);
	prio_error_clear(err);
	return prio_snapshot_load_sources(snap, f->dir, NULL, err);
}

/* Berlin's name knows July was on summer time although the capture's
 * offset was +0100; the reader in Tokyo changes nothing. */
Test(zone, recorded_name_whatever_the_readers_tz)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_clock_notes notes;
	struct folder f;
	char buf[256];

	zone("Asia/Tokyo");
	make_folder(&f, "zone\tEurope/Berlin\t+0100\n");
	cr_assert_eq(load(&snap, &f, &err), PRIO_OK, "%s", err.message);
	cr_assert_eq(snap.zone_use, PRIO_ZONE_NAMED);
	cr_assert_eq(snap.sacct_count, 2);
	cr_assert_eq(snap.sacct[0].submit, 1784109600); /* 2026-07-15T10:00:00Z */
	cr_assert_eq(snap.sacct[1].submit, CAPTURE);
	/* and printed back as the cluster printed it */
	cr_assert_str_eq(prio_timestamp_format(CAPTURE, buf, sizeof(buf)),
			 "2026-11-26T11:04:49");
	prio_snapshot_clock_notes(&snap, &notes);
	cr_assert_str_eq(notes.zone, "");
	cr_assert(strstr(prio_snapshot_zone_describe(&snap, buf, sizeof(buf)),
			 "Europe/Berlin (+0100 at NOW), from /tmp/prio-zone-"),
		  "%s", buf);
	prio_snapshot_free(&snap);
	/* a folder without a zone goes back to the reader's own TZ */
	put(&f, "MANIFEST", "version\tslurm-wlm 24.11.5\n");
	cr_assert_eq(load(&snap, &f, &err), PRIO_OK, "%s", err.message);
	cr_assert_eq(snap.zone_use, PRIO_ZONE_PROCESS);
	cr_assert_str_eq(getenv("TZ"), "Asia/Tokyo");
	/* 11:04:49 in Tokyo: 02:04:49Z, nine hours before the capture */
	cr_assert_eq(snap.sacct[1].submit, CAPTURE - 8 * 3600);
	prio_snapshot_free(&snap);
	remove_folder(&f);
}

/* prio-snap writes "unknown" when it finds no zone name: the offset at
 * capture is all there is, used with a warning. */
Test(zone, unknown_name_falls_back_to_the_offset)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_clock_notes notes;
	struct folder f;
	char buf[32];

	zone("Asia/Tokyo");
	make_folder(&f, "zone\tunknown\t+0100\n");
	cr_assert_eq(load(&snap, &f, &err), PRIO_OK, "%s", err.message);
	cr_assert_eq(snap.zone_use, PRIO_ZONE_FIXED);
	/* July at +0100 too: an hour later than Berlin's summer time */
	cr_assert_eq(snap.sacct[0].submit, 1784109600 + 3600);
	cr_assert_eq(snap.sacct[1].submit, CAPTURE);
	cr_assert_str_eq(prio_timestamp_format(CAPTURE, buf, sizeof(buf)),
			 "2026-11-26T11:04:49");
	prio_snapshot_clock_notes(&snap, &notes);
	cr_assert(strstr(notes.zone, "/MANIFEST:2: zone: \"unknown\" is not in "
				     "this machine's time zone database: local "
				     "times are read and printed at the offset "
				     "recorded at capture, +0100 (times across a "
				     "DST change may be an hour off)"),
		  "%s", notes.zone);
	prio_snapshot_free(&snap);
	prio_zone_restore();
	cr_assert_str_eq(getenv("TZ"), "Asia/Tokyo");
	remove_folder(&f);
}

/* A machine without the time zone database (a minimal container) still
 * knows UTC by its names: no fallback warning, the times as UTC. */
Test(zone, utc_without_the_database)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_clock_notes notes;
	struct folder f;
	char buf[32];

	zone("Asia/Tokyo");
	setenv("TZDIR", "/nonexistent", 1);
	make_folder(&f, "zone\tEtc/UTC\t+0000\n");
	cr_assert_eq(load(&snap, &f, &err), PRIO_OK, "%s", err.message);
	cr_assert_eq(snap.zone_use, PRIO_ZONE_NAMED);
	prio_snapshot_clock_notes(&snap, &notes);
	cr_assert_eq(notes.zone[0], '\0', "%s", notes.zone);
	cr_assert_str_eq(prio_timestamp_format(CAPTURE, buf, sizeof(buf)),
			 "2026-11-26T10:04:49");
	prio_snapshot_free(&snap);
	prio_zone_restore();
	unsetenv("TZDIR");
	remove_folder(&f);
}

/* A name that did not have the recorded offset at the capture's NOW is
 * not the zone the cluster printed in: refused, one line. */
Test(zone, name_and_offset_disagree)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct folder f;
	char buf[512];

	zone("UTC");
	make_folder(&f, "zone\tEurope/Berlin\t-0500\n");
	cr_assert_lt(load(&snap, &f, &err), 0);
	cr_assert(strstr(prio_error_format(&err, buf, sizeof(buf)),
			 "/MANIFEST:2: zone: Europe/Berlin is +0100 at NOW "
			 "2026-11-26T11:04:49, prio-snap recorded -0500: the "
			 "cluster did not print in that zone, or this machine's "
			 "time zone database is not the cluster's"),
		  "%s", buf);
	cr_assert_str_eq(getenv("TZ"), "UTC");
	prio_snapshot_free(&snap);
	remove_folder(&f);
}

Test(zone, malformed_zone_line_refused)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct folder f;
	char buf[512];

	zone("UTC");
	make_folder(&f, "zone\tEurope/Berlin\n");
	cr_assert_lt(load(&snap, &f, &err), 0);
	cr_assert(strstr(prio_error_format(&err, buf, sizeof(buf)),
			 "/MANIFEST:2: zone: expected NAME<TAB>+HHMM (the TZ "
			 "name and date +%z at capture), got \"Europe/Berlin\""),
		  "%s", buf);
	prio_snapshot_free(&snap);
	remove_folder(&f);
}

/* US clocks went back from 02:00 EDT to 01:00 EST on 2026-11-01: 01:30
 * happened twice.  The first (EDT, 05:30Z) is taken, whatever was
 * converted before (glibc's mktime guesses from its previous call). */
Test(zone, repeated_hour_is_its_first_instant)
{
	struct lc_time_cache c;
	time_t t;

	zone("America/New_York");
	cr_assert_eq(prio_timestamp_parse("2026-11-01T01:30:00", 19, &t), 0);
	cr_assert_eq(t, 1793511000);
	cr_assert_eq(prio_timestamp_parse("2026-11-01T03:00:00", 19, &t), 0);
	cr_assert_eq(prio_timestamp_parse("2026-11-01T01:30:00", 19, &t), 0);
	cr_assert_eq(t, 1793511000);
	/* the loaders' cached path agrees */
	lc_time_cache_init(&c);
	cr_assert_eq(lc_timestamp(&c, "2026-11-01T03:00:00", 19, &t), 0);
	cr_assert_eq(t, 1793511000 + 2 * 3600 + 1800); /* 08:00Z, EST */
	cr_assert_eq(lc_timestamp(&c, "2026-11-01T01:30:00", 19, &t), 0);
	cr_assert_eq(t, 1793511000);
}

/* ...and went forward from 02:00 EST to 03:00 EDT on 2026-03-08: no clock
 * in New York showed 02:30.  Slurm never prints it; refused. */
Test(zone, skipped_hour_is_refused)
{
	struct lc_time_cache c;
	time_t t;

	zone("America/New_York");
	cr_assert_eq(prio_timestamp_parse("2026-03-08T02:30:00", 19, &t), -2);
	cr_assert_str_eq(prio_timestamp_expected("2026-03-08T02:30:00", 19),
			 "a local time that exists in the zone (the clocks "
			 "skipped this one at a DST change)");
	cr_assert_eq(prio_timestamp_parse("2026-03-08T03:00:00", 19, &t), 0);
	cr_assert_eq(t, 1772953200); /* 07:00Z */
	cr_assert_eq(prio_timestamp_parse("2026-03-08T01:59:59", 19, &t), 0);
	cr_assert_eq(t, 1772953200 - 1); /* 06:59:59Z, EST */
	lc_time_cache_init(&c);
	cr_assert_lt(lc_timestamp(&c, "2026-03-08T02:30:00", 19, &t), 0);
	cr_assert_eq(lc_timestamp(&c, "2026-03-08T03:00:00", 19, &t), 0);
	cr_assert_eq(t, 1772953200);
	/* a time that exists is not explained away */
	cr_assert_null(prio_timestamp_expected("2026-03-08T03:00:00", 19));
}

/* What a user may type: an offset makes the time absolute. */
Test(zone, offsets_are_absolute)
{
	static const struct {
		const char *text;
		time_t t;
	} cases[] = {
		{ "2026-11-22T03:55:30Z", 1795319730 },
		{ "2026-11-22T04:55:30+01:00", 1795319730 },
		{ "2026-11-21T22:55:30-0500", 1795319730 },
		{ "2026-11-22T12:55:30+09", 1795319730 },
		{ "2026-11-22T03:55Z", 1795319700 },
	};
	time_t t;

	zone("Asia/Tokyo");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].text;

		cr_assert_eq(prio_timestamp_parse(s, strlen(s), &t), 0, "%s", s);
		cr_assert_eq(t, cases[i].t, "%s", s);
	}
	cr_assert_eq(prio_timestamp_parse("2026-11-22Z", 11, &t), -1);
	cr_assert_eq(prio_timestamp_parse("2026-11-22T03:55:30+25:00", 25, &t), -1);
	cr_assert_eq(prio_timestamp_parse("2026-11-22T03:55:30+0", 21, &t), -1);
}

/* What prio-snap may have found in TZ: a POSIX rule is a zone (with its
 * DST); a path under zoneinfo names its zone; /etc/localtime would be the
 * reading machine's own zone, so only the offset is kept. */
Test(zone, names_as_tz_gives_them)
{
	static const struct {
		const char *line;
		enum prio_zone_use use;
		time_t july; /* 2026-07-15T12:00:00 in the zone */
	} cases[] = {
		{ "zone\tCET-1CEST,M3.5.0,M10.5.0/3\t+0100\n", PRIO_ZONE_NAMED,
		  1784109600 },
		{ "zone\t:Europe/Berlin\t+0100\n", PRIO_ZONE_NAMED, 1784109600 },
		{ "zone\t/usr/share/zoneinfo/Europe/Berlin\t+0100\n",
		  PRIO_ZONE_NAMED, 1784109600 },
		{ "zone\t/etc/localtime\t+0100\n", PRIO_ZONE_FIXED,
		  1784109600 + 3600 },
		{ "zone\tJST\t+0100\n", PRIO_ZONE_FIXED, 1784109600 + 3600 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct prio_snapshot snap;
		struct prio_error err;
		struct folder f;

		zone("Asia/Tokyo");
		make_folder(&f, cases[i].line);
		cr_assert_eq(load(&snap, &f, &err), PRIO_OK, "%s: %s",
			     cases[i].line, err.message);
		cr_assert_eq(snap.zone_use, cases[i].use, "%s", cases[i].line);
		cr_assert_eq(snap.sacct[0].submit, cases[i].july, "%s",
			     cases[i].line);
		cr_assert_eq(snap.sacct[1].submit, CAPTURE, "%s", cases[i].line);
		prio_snapshot_free(&snap);
		prio_zone_restore();
		remove_folder(&f);
	}
}
