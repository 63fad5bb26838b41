/* SPDX-License-Identifier: MIT */
/* Core library: arena, interning, values, time strings, TRES, kvscan, sources. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "kvscan.h"
#include "testutil.h"

Test(arena, aligned_zeroed_and_large)
{
	struct prio_arena a;
	prio_arena_init(&a);
	char *p = prio_arena_alloc(&a, 3);
	char *q = prio_arena_alloc(&a, 1 << 20); /* larger than a block */
	cr_assert_not_null(p);
	cr_assert_not_null(q);
	cr_assert_eq((uintptr_t)q % 16, 0);
	cr_assert_eq(q[12345], 0);
	cr_assert_str_eq(prio_arena_strndup(&a, "abcdef", 3), "abc");
	prio_arena_free(&a);
}

Test(intern, ids_are_stable_and_dense)
{
	struct prio_arena a;
	struct prio_intern in;
	char name[32];
	prio_arena_init(&a);
	cr_assert_eq(prio_intern_init(&in, &a), 0);
	prio_id alice = prio_intern(&in, "alice");
	cr_assert_eq(alice, 1);
	cr_assert_eq(prio_intern(&in, "bob"), 2);
	cr_assert_eq(prio_intern(&in, "alice"), alice);
	cr_assert_eq(prio_intern(&in, ""), PRIO_NO_ID);
	/* Many names force several rehashes; all must stay findable. */
	for (int i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "user%06d", i);
		cr_assert_eq(prio_intern(&in, name), (prio_id)(3 + i));
	}
	cr_assert_eq(prio_intern_find(&in, "user054321", 10), 3 + 54321);
	cr_assert_str_eq(prio_intern_str(&in, 3 + 99999), "user099999");
	cr_assert_eq(prio_intern_find(&in, "nobody", 6), PRIO_NO_ID);
	cr_assert_str_eq(prio_intern_str(&in, 1u << 30), "");
	prio_intern_free(&in);
	prio_arena_free(&a);
}

static uint32_t u32(const char *s)
{
	uint32_t v = 12345;
	cr_assert_eq(prio_parse_uint32(s, strlen(s), &v), 0, "parse %s", s);
	return v;
}

Test(value, slurm_unsigned_rules)
{
	cr_assert_eq(u32("1000"), 1000);
	cr_assert_eq(u32("0x1f"), 31);
	cr_assert_eq(u32("010"), 8); /* leading zero is octal, as strtoul base 0 */
	cr_assert_eq(u32("2k"), 2048);
	cr_assert_eq(u32("UNLIMITED"), 0xffffffffu);
	cr_assert_eq(u32("infinite"), 0xffffffffu);
	uint32_t v;
	cr_assert_eq(prio_parse_uint32("-1", 2, &v), -1);
	cr_assert_eq(prio_parse_uint32("x", 1, &v), -1);
	cr_assert_eq(prio_parse_uint32("4294967296", 10, &v), -1);
	cr_assert_eq(prio_parse_uint32("12abc", 5, &v), -1);
	cr_assert_eq(prio_parse_uint32("", 0, &v), -1);
	uint16_t s;
	cr_assert_eq(prio_parse_uint16("1k", 2, &s), -1); /* no k for 16-bit */
	cr_assert_eq(prio_parse_uint16("65535", 5, &s), 0);
	cr_assert_eq(s, 65535);
	int64_t i;
	cr_assert_eq(prio_parse_int64("-9223372036854775808", 20, &i), 0);
	cr_assert_eq(i, INT64_MIN);
	cr_assert_eq(prio_parse_int64("9223372036854775808", 19, &i), -1);
	bool b;
	cr_assert_eq(prio_parse_bool("Up", 2, &b), 0);
	cr_assert(b);
	cr_assert_eq(prio_parse_bool("FALSE", 5, &b), 0);
	cr_assert(!b);
	cr_assert_eq(prio_parse_bool("maybe", 5, &b), -1);
	double d;
	cr_assert_eq(prio_parse_double("inf", 3, &d), 0);
	cr_assert(isinf(d));
	cr_assert_eq(prio_parse_double("0.466667", 8, &d), 0);
	cr_assert_float_eq(d, 0.466667, 1e-12);
	cr_assert_eq(prio_parse_double("1.5x", 4, &d), -1);
}

static uint32_t secs(const char *s)
{
	uint32_t v = 0;
	cr_assert_eq(prio_time_str2secs(s, strlen(s), &v), 0, "parse %s", s);
	return v;
}

static uint32_t mins(const char *s)
{
	uint32_t v = 0;
	cr_assert_eq(prio_time_str2mins(s, strlen(s), &v), 0, "parse %s", s);
	return v;
}

Test(timestr, durations)
{
	cr_assert_eq(secs("5"), 300);          /* bare number = minutes */
	cr_assert_eq(secs("5:30"), 330);       /* min:sec */
	cr_assert_eq(secs("1:02:03"), 3723);   /* h:m:s */
	cr_assert_eq(secs("2-3"), 2 * 86400 + 3 * 3600);
	cr_assert_eq(secs("2-3:04"), 2 * 86400 + 3 * 3600 + 240);
	cr_assert_eq(secs("0-00:10:00"), 600);
	cr_assert_eq(secs("14-0"), 14 * 86400);
	cr_assert_eq(secs("UNLIMITED"), PRIO_INFINITE);
	cr_assert_eq(secs("-1"), PRIO_INFINITE);
	cr_assert_eq(mins("1:30"), 2);         /* seconds round up to minutes */
	cr_assert_eq(mins("0-00:20:00"), 20);
	uint32_t v;
	cr_assert_eq(prio_time_str2secs("1:2:3:4", 7, &v), -1);
	cr_assert_eq(prio_time_str2secs("1:2-3", 5, &v), -1);
	cr_assert_eq(prio_time_str2secs("abc", 3, &v), -1);
	cr_assert_eq(prio_time_str2secs("1--2", 4, &v), -1);
	cr_assert_eq(prio_time_str2secs("", 0, &v), -1);
	char buf[32];
	cr_assert_str_eq(prio_secs2time_str(541, buf, sizeof(buf)), "00:09:01");
	cr_assert_str_eq(prio_secs2time_str(90061, buf, sizeof(buf)), "1-01:01:01");
	cr_assert_str_eq(prio_mins2time_str(PRIO_INFINITE, buf, sizeof(buf)), "UNLIMITED");
}

Test(timestr, timestamps_local_time)
{
	setenv("TZ", "UTC", 1);
	tzset();
	time_t t;
	cr_assert_eq(prio_timestamp_parse("2026-11-22T03:37:17", 19, &t), 0);
	cr_assert_eq(t, 1795318637);
	cr_assert_eq(prio_timestamp_parse("1795318637", 10, &t), 0);
	cr_assert_eq(t, 1795318637);
	cr_assert_eq(prio_timestamp_parse("Unknown", 7, &t), 0);
	cr_assert_eq(t, 0);
	cr_assert_eq(prio_timestamp_parse("2026-13-01T00:00:00", 19, &t), -1);
	cr_assert_eq(prio_timestamp_parse("2026-11-22X03:37:17", 19, &t), -1);
	char buf[32];
	cr_assert_str_eq(prio_timestamp_format(1795319730, buf, sizeof(buf)),
			 "2026-11-22T03:55:30");
}

Test(tres, count_lists_convert_memory_to_mb)
{
	struct prio_arena a;
	struct prio_tres_table t;
	struct prio_tres_list l;
	const char *why = NULL;
	const char *s = "cpu=8,mem=8G,node=1,billing=10,gres/gpu:tesla=2";
	prio_arena_init(&a);
	cr_assert_eq(prio_tres_table_init(&t), 0);
	cr_assert_eq(prio_tres_list_parse(&a, &t, s, strlen(s), &l, &why), 0);
	cr_assert_eq(l.count, 5);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_CPU, 0), 8);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_MEM, 0), 8192);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_BILLING, 0), 10);
	int gpu = prio_tres_find(&t, "GRES/GPU:TESLA", 14);
	cr_assert_eq(gpu, PRIO_TRES_BUILTIN_COUNT);
	cr_assert_eq(prio_tres_list_get(&l, (uint32_t)gpu, 0), 2);
	cr_assert(prio_tres_is_node_tres(&t, (uint32_t)gpu));
	cr_assert(!prio_tres_is_node_tres(&t, PRIO_TRES_BILLING));
	s = "cpu=40,mem=80000M,node=5,billing=59";
	cr_assert_eq(prio_tres_list_parse(&a, &t, s, strlen(s), &l, &why), 0);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_MEM, 0), 80000);
	s = "mem=2T";
	cr_assert_eq(prio_tres_list_parse(&a, &t, s, strlen(s), &l, &why), 0);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_MEM, 0), 2u * 1024 * 1024);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "(null)", 6, &l, &why), 0);
	cr_assert_eq(l.count, 0);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "cpu", 3, &l, &why), -1);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "cpu=x", 5, &l, &why), -1);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "mem=5Q", 6, &l, &why), -1);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "cpu=99999999999999999999", 24, &l, &why), -1);
	prio_tres_table_free(&t);
	prio_arena_free(&a);
}

Test(tres, billing_weights_units_as_slurm)
{
	struct prio_arena a;
	struct prio_tres_table t;
	struct prio_tres_weights w;
	char why[256];
	prio_arena_init(&a);
	prio_tres_table_init(&t);
	const char *s = "CPU=1.0,Mem=0.25G";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), 0);
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_CPU), 1.0, 1e-15);
	/* 0.25 per GB = 0.25/1024 per MB */
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_MEM), 0.25 / 1024, 1e-15);
	cr_assert_str_eq(w.text, s);
	/* K and M on memory are no conversion; only the first unit letter counts. */
	s = "Mem=0.25M,cpu=1K,Node=4";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), 0);
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_MEM), 0.25, 1e-15);
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_CPU), 1.0 / 1024, 1e-15);
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_NODE), 4.0, 1e-15);
	s = "Mem=1GB";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), 0);
	cr_assert_float_eq(prio_tres_weights_get(&w, PRIO_TRES_MEM), 1.0 / 1024, 1e-15);
	/* Unknown or unconfigured TRES, bad units, empty values are errors. */
	s = "gres/gpu=2";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), -1);
	cr_assert_str_eq(why, "TRES weight 'gres:gpu' is not a configured TRES type.");
	s = "cpu=1X";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), -1);
	s = "cpu=";
	cr_assert_eq(prio_tres_weights_parse(&a, &t, s, strlen(s), &w, why, sizeof(why)), -1);
	cr_assert_str_eq(why, "\"cpu=\" is an invalid TRES weight entry");
	prio_tres_table_free(&t);
	prio_arena_free(&a);
}

Test(kvscan, values_with_spaces_and_odd_keys)
{
	const char *line = "   OS=Linux 6.18.44 #1 SMP AllocNode:Sid=localhost:2399 CPUs/Task=1 TRES=cpu=8,mem=8G";
	struct kv_pair p[8];
	size_t n = 0;
	cr_assert_eq(kv_split(line, strlen(line), p, &n, 8, NULL, NULL), 0);
	cr_assert_eq(n, 4);
	cr_assert(kv_key_is(&p[0], "OS"));
	cr_assert_eq(p[0].val_len, strlen("Linux 6.18.44 #1 SMP"));
	cr_assert(kv_key_is(&p[1], "AllocNode:Sid"));
	cr_assert(kv_key_is(&p[2], "CPUs/Task"));
	cr_assert(kv_key_is_nocase(&p[3], "tres"));
	cr_assert_eq(strncmp(p[3].val, "cpu=8,mem=8G", p[3].val_len), 0);
	n = 0;
	cr_assert_eq(kv_split(line, strlen(line), p, &n, 2, NULL, NULL), -1);
	cr_assert(kv_val_unset("(null)", 6));
	cr_assert(!kv_val_unset("batch", 5));
}

Test(source, lines_nul_bytes_and_long_lines)
{
	struct prio_source src;
	struct prio_line_reader r;
	struct prio_line line;
	struct prio_error err;
	static const char text[] = "a\r\nbb\n\nlast";
	prio_source_from_memory(&src, "mem", text, sizeof(text) - 1);
	prio_line_reader_init(&r, &src);
	cr_assert_eq(prio_line_next(&r, &line, &err), 1);
	cr_assert_eq(line.len, 1); /* \r dropped */
	cr_assert_eq(prio_line_next(&r, &line, &err), 1);
	cr_assert_eq(line.number, 2);
	cr_assert_eq(prio_line_next(&r, &line, &err), 1);
	cr_assert_eq(line.len, 0);
	cr_assert_eq(prio_line_next(&r, &line, &err), 1);
	cr_assert_eq(strncmp(line.text, "last", 4), 0);
	cr_assert_eq(prio_line_next(&r, &line, &err), 0);

	static const char nul[] = "ok\nbad\0byte\n";
	prio_source_from_memory(&src, "nul.txt", nul, sizeof(nul) - 1);
	prio_line_reader_init(&r, &src);
	cr_assert_eq(prio_line_next(&r, &line, &err), 1);
	cr_assert_lt(prio_line_next(&r, &line, &err), 0);
	cr_assert_str_eq(err.file, "nul.txt");
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.message, "NUL byte in input");

	size_t big = 1024 * 1024;
	char *huge = malloc(big);
	memset(huge, 'x', big);
	prio_source_from_memory(&src, "huge", huge, big);
	prio_line_reader_init(&r, &src);
	cr_assert_eq(prio_line_next(&r, &line, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 1);
	free(huge);

	cr_assert_eq(prio_source_open(&src, "/nonexistent/file", &err), PRIO_ERR_MISSING);
	cr_assert_str_eq(err.file, "/nonexistent/file");
	cr_assert_eq(prio_source_open(&src, TOP_SRCDIR, &err), PRIO_ERR_IO);
	cr_assert_eq(prio_source_open(&src, test_path("tests/oracle/fairtree-basic/slurm.conf"), &err), 0);
	cr_assert(prio_source_starts_with(&src, "# ---- common part"));
	prio_source_close(&src);
}

Test(error, format_names_file_line_field)
{
	struct prio_error err;
	char buf[256];
	prio_error_clear(&err);
	cr_assert_eq(prio_error_set(&err, PRIO_ERR_PARSE, "slurm.conf", 42, "PriorityWeightAge",
				    "expected an unsigned integer, got \"%s\"", "x"), PRIO_ERR_PARSE);
	cr_assert_str_eq(prio_error_format(&err, buf, sizeof(buf)),
			 "slurm.conf:42: PriorityWeightAge: expected an unsigned integer, got \"x\"");
	prio_error_set(&err, PRIO_ERR_MISSING, "jobs.txt", 0, "", "cannot open: No such file");
	cr_assert_str_eq(prio_error_format(&err, buf, sizeof(buf)), "jobs.txt: cannot open: No such file");
}

Test(conf, defaults_and_flag_words)
{
	struct prio_config c;
	char buf[256];
	prio_config_defaults(&c);
	cr_assert_eq(c.decay_half_life, 604800);
	cr_assert_eq(c.max_age, 604800);
	cr_assert_eq(c.calc_period, 300);
	cr_assert_eq(c.weight_age, 0);
	cr_assert_eq(c.priority_flags, PRIO_FLAG_FAIR_TREE);
	cr_assert_eq(prio_priority_flags_parse("NO_FAIR_TREE"), 0);
	cr_assert_eq(prio_priority_flags_parse("depth_oblivious,max_tres"),
		     PRIO_FLAG_DEPTH_OBLIVIOUS | PRIO_FLAG_MAX_TRES);
	cr_assert_eq(prio_priority_flags_parse("NO_NORMAL_ALL") & PRIO_FLAG_NO_NORMAL_TRES,
		     PRIO_FLAG_NO_NORMAL_TRES);
	cr_assert_str_eq(prio_priority_flags_format(PRIO_FLAG_FAIR_TREE | PRIO_FLAG_MAX_TRES, buf, sizeof(buf)),
			 "FAIR_TREE,MAX_TRES");
	uint16_t mode;
	const char *why;
	cr_assert_eq(prio_preempt_mode_parse("SUSPEND,GANG", &mode, &why), 0);
	cr_assert_eq(mode, PRIO_PREEMPT_SUSPEND | PRIO_PREEMPT_GANG);
	cr_assert_str_eq(prio_preempt_mode_format(mode, buf, sizeof(buf)), "SUSPEND,GANG");
	cr_assert_eq(prio_preempt_mode_parse("cancel,requeue", &mode, &why), -1);
	cr_assert_eq(prio_preempt_mode_parse("gang,within", &mode, &why), -1);
	cr_assert_eq(prio_preempt_mode_parse("off", &mode, &why), 0);
	cr_assert_eq(mode, 0);
	cr_assert_str_eq(prio_preempt_mode_format(0, buf, sizeof(buf)), "OFF");
	uint16_t share;
	cr_assert_eq(prio_oversubscribe_parse("FORCE:1", &share), 0);
	cr_assert_eq(share, 1 | PRIO_SHARED_FORCE);
	cr_assert_eq(prio_oversubscribe_parse("EXCLUSIVE", &share), 0);
	cr_assert_eq(share, 0);
	cr_assert_eq(prio_oversubscribe_parse("YES", &share), 0);
	cr_assert_eq(share, 4);
	cr_assert_eq(prio_oversubscribe_parse("sometimes", &share), -1);
}
