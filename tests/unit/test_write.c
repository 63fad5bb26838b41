/* SPDX-License-Identifier: MIT */
/*
 * Writers and format grammars (prio/write.h, prio/format.h).  The text
 * tests feed cell values by hand and compare the output byte for byte with
 * lines real Slurm 22.05 printed (tests/oracle/fairtree-basic and
 * flags-no-normal-all): sprio -l, -l -n, -w, -w -n, -o with every letter;
 * sshare -a -l, -a -l -P, -P with every field, and custom widths.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

/* ---- helpers ------------------------------------------------------------- */

/* Line n (1-based) of an oracle file, with its "\n". */
static char *oracle_line(const char *rel, int n)
{
	FILE *f = fopen(test_path(rel), "r");
	cr_assert_not_null(f, "cannot open %s", rel);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	for (int i = 0; i < n; i++) {
		len = getline(&line, &cap, f);
		cr_assert_geq(len, 0, "%s has fewer than %d lines", rel, n);
	}
	fclose(f);
	return line;
}

/* Several oracle lines concatenated. */
static char *oracle_lines(const char *rel, const int *lines, size_t n)
{
	size_t cap = 1, len = 0;
	char *all = calloc(1, 1);
	for (size_t i = 0; i < n; i++) {
		char *l = oracle_line(rel, lines[i]);
		size_t ll = strlen(l);
		cap = len + ll + 1;
		all = realloc(all, cap);
		memcpy(all + len, l, ll + 1);
		len += ll;
		free(l);
	}
	return all;
}

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	cr_assert_not_null(c->f);
}

static char *cap_close(struct capture *c)
{
	fclose(c->f);
	return c->buf;
}

/* ---- sprio: a letter table like the command's ---------------------------- */

struct letter {
	char letter;
	const char *id;
	const char *header;
	enum prio_numfmt numfmt;
};

static const struct letter letters[] = {
    {'i', "job_id", "JOBID", PRIO_NUMFMT_PLAIN},
    {'r', "partition", "PARTITION", PRIO_NUMFMT_PLAIN},
    {'u', "user", "USER", PRIO_NUMFMT_PLAIN},
    {'c', "cluster", "CLUSTER", PRIO_NUMFMT_PLAIN},
    {'Y', "priority", "PRIORITY", PRIO_NUMFMT_PLAIN},
    {'y', "priority_norm", "PRIORITY", PRIO_NUMFMT_PRIO16},
    {'S', "site", "SITE", PRIO_NUMFMT_FIXED0},
    {'a', "age_norm", "AGE", PRIO_NUMFMT_FIXED7},
    {'A', "age", "AGE", PRIO_NUMFMT_FIXED0},
    {'b', "assoc_norm", "ASSOC", PRIO_NUMFMT_FIXED7},
    {'B', "assoc", "ASSOC", PRIO_NUMFMT_FIXED0},
    {'f', "fairshare_norm", "FAIRSHARE", PRIO_NUMFMT_FIXED7},
    {'F', "fairshare", "FAIRSHARE", PRIO_NUMFMT_FIXED0},
    {'j', "jobsize_norm", "JOBSIZE", PRIO_NUMFMT_FIXED7},
    {'J', "jobsize", "JOBSIZE", PRIO_NUMFMT_FIXED0},
    {'N', "nice", "NICE", PRIO_NUMFMT_FIXED0},
    {'p', "partition_prio_norm", "PARTITION", PRIO_NUMFMT_FIXED7},
    {'P', "partition_prio", "PARTITION", PRIO_NUMFMT_FIXED0},
    {'q', "qos_norm", "QOS", PRIO_NUMFMT_FIXED7},
    {'Q', "qos", "QOS", PRIO_NUMFMT_FIXED0},
    {'t', "tres_norm", "TRES", PRIO_NUMFMT_PLAIN},
    {'T', "tres", "TRES", PRIO_NUMFMT_PLAIN},
};

struct sprio_table {
	struct prio_sprio_format fmt;
	struct prio_column cols[64];
	char letters[64];
	size_t n;
};

static void sprio_columns(const char *format, struct sprio_table *t)
{
	char why[200];
	cr_assert_eq(prio_sprio_format_parse(format, &t->fmt, why, sizeof(why)),
		     0, "%s", why);
	t->n = 0;
	for (size_t i = 0; i < t->fmt.nitems; i++) {
		const struct prio_sprio_item *it = &t->fmt.items[i];
		const struct letter *l = NULL;
		for (size_t k = 0; k < sizeof(letters) / sizeof(letters[0]);
		     k++)
			if (letters[k].letter == it->letter)
				l = &letters[k];
		cr_assert_not_null(l, "letter %c", it->letter);
		t->cols[t->n] = (struct prio_column){
		    .id = l->id,
		    .header = l->header,
		    .width = it->width,
		    .right = it->right,
		    .numfmt = l->numfmt,
		    .suffix = it->suffix,
		};
		t->letters[t->n++] = it->letter;
	}
}

/* One sprio row, values per letter. */
static void sprio_row(struct prio_writer *w, const struct sprio_table *t,
		      const struct prio_cell by_letter[128])
{
	struct prio_cell cells[64];
	for (size_t i = 0; i < t->n; i++)
		cells[i] = by_letter[(unsigned char)t->letters[i]];
	cr_assert_eq(prio_writer_row(w, cells), 0);
}

/* Job 25 of fairtree-basic as the controller reported it: weights Age=1000
 * Assoc=500 Fairshare=10000 JobSize=2000 Partition=3000 QOS=5000. */
static void job25(struct prio_cell c[128])
{
	double age = 255.0 / 1200.0; /* 0.2125: 212.5 weighted prints "212" */
	double fs = 8.0 / 15.0;

	memset(c, 0, 128 * sizeof(*c));
	c['i'] = prio_cell_uint(25);
	c['r'] = prio_cell_str("batch");
	c['u'] = prio_cell_str("alice");
	c['c'] = prio_cell_str("(null)");
	c['Y'] = prio_cell_int(6605);
	c['y'] = prio_cell_double(1.53804043e-06);
	c['S'] = prio_cell_double(0);
	c['a'] = prio_cell_double(age);
	c['A'] = prio_cell_double(age * 1000);
	c['b'] = prio_cell_double(0.05);
	c['B'] = prio_cell_double(0.05 * 500);
	c['f'] = prio_cell_double(fs);
	c['F'] = prio_cell_double(fs * 10000);
	c['j'] = prio_cell_double(0.15);
	c['J'] = prio_cell_double(0.15 * 2000);
	c['N'] = prio_cell_double(0);
	c['p'] = prio_cell_double(0.2);
	c['P'] = prio_cell_double(0.2 * 3000);
	c['q'] = prio_cell_double(0.01);
	c['Q'] = prio_cell_double(0.01 * 5000);
	c['t'] = prio_cell_str("cpu=0.10,mem=0.05");
	c['T'] = prio_cell_str("cpu=70,mem=15");
}

/* Job 27 of flags-no-normal-all (NO_NORMAL_ALL: factors above 1, a TRES
 * list longer than the 20-character column). */
static void job27(struct prio_cell c[128])
{
	memset(c, 0, 128 * sizeof(*c));
	c['i'] = prio_cell_uint(27);
	c['r'] = prio_cell_str("batch");
	c['u'] = prio_cell_str("carol");
	c['Y'] = prio_cell_int(4905945);
	c['y'] = prio_cell_double(0.00114225452637);
	c['S'] = prio_cell_double(0);
	c['a'] = prio_cell_double(0.6125);
	c['A'] = prio_cell_double(0.6125 * 1000); /* 612.5 -> "612" */
	c['b'] = prio_cell_double(20.0);
	c['B'] = prio_cell_double(10000);
	c['f'] = prio_cell_double(1.0 / 3.0);
	c['F'] = prio_cell_double(10000.0 / 3.0);
	c['j'] = prio_cell_double(0.4);
	c['J'] = prio_cell_double(800);
	c['N'] = prio_cell_double(0);
	c['p'] = prio_cell_double(10.0);
	c['P'] = prio_cell_double(30000);
	c['q'] = prio_cell_double(10.0);
	c['Q'] = prio_cell_double(50000);
	c['t'] = prio_cell_str("cpu=16.00,mem=16000.00");
	c['T'] = prio_cell_str("cpu=11200,mem=4800000");
}

static char *sprio_text(const char *format, void (*job)(struct prio_cell *),
			bool header)
{
	struct sprio_table t;
	struct prio_cell c[128];
	struct capture cap;

	sprio_columns(format, &t);
	cap_open(&cap);
	struct prio_writer *w =
	    prio_writer_new(cap.f, PRIO_OUT_TEXT, PRIO_STYLE_SPRIO, t.cols, t.n,
			    header, t.fmt.prefix);
	cr_assert_not_null(w);
	if (job) {
		job(c);
		sprio_row(w, &t, c);
	}
	cr_assert_eq(prio_writer_finish(w), 0);
	prio_sprio_format_free(&t.fmt);
	return cap_close(&cap);
}

#define SPRIO_L                                                                \
	"%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q "      \
	"%.11N %.20T"
#define SPRIO_LN "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t"

Test(write, sprio_l_header_and_row)
{
	char *got = sprio_text(SPRIO_L, job25, true);
	char *want = oracle_lines("tests/oracle/fairtree-basic/sprio_l.txt",
				  (int[]){1, 2}, 2);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sprio_l_tres_cut_to_20)
{
	char *got = sprio_text(SPRIO_L, job27, false);
	char *want =
	    oracle_line("tests/oracle/flags-no-normal-all/sprio_l.txt", 4);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sprio_l_n_normalised)
{
	char *got = sprio_text(SPRIO_LN, job25, true);
	char *want = oracle_lines("tests/oracle/fairtree-basic/sprio_l_n.txt",
				  (int[]){1, 2}, 2);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);

	/* %16.14f cut to 10, 20.0000000 filling the width, TRES cut at 20 */
	got = sprio_text(SPRIO_LN, job27, false);
	want = oracle_line("tests/oracle/flags-no-normal-all/sprio_l_n.txt", 4);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sprio_o_all_letters_natural_width)
{
	const char *fmt =
	    "%i|%r|%u|%c|%Y|%y|%S|%a|%A|%b|%B|%f|%F|%j|%J|%N|%p|%P|%q|%Q|%t|%T";
	char *got = sprio_text(fmt, job25, true);
	char *want = oracle_lines("tests/oracle/fairtree-basic/sprio_o_all.txt",
				  (int[]){1, 2}, 2);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

/* sprio -w: the weights row, blanks padded to their widths. */
static void weights(struct prio_cell c[128])
{
	memset(c, 0, 128 * sizeof(*c)); /* everything BLANK */
	c['i'] = prio_cell_str("Weights");
	c['S'] = prio_cell_uint(1);
	c['A'] = c['a'] = prio_cell_uint(1000);
	c['B'] = c['b'] = prio_cell_uint(500);
	c['F'] = c['f'] = prio_cell_uint(10000);
	c['J'] = c['j'] = prio_cell_uint(2000);
	c['P'] = c['p'] = prio_cell_uint(3000);
	c['Q'] = c['q'] = prio_cell_uint(5000);
	c['T'] = prio_cell_str("CPU=700,Mem=300");
}

Test(write, sprio_w_and_w_n)
{
	char *got = sprio_text(
	    "%.15i %9r %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.20T",
	    weights, true);
	char *want = oracle_lines("tests/oracle/fairtree-basic/sprio_w.txt",
				  (int[]){1, 2}, 2);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);

	got = sprio_text("%.15i %9r %10y %10a %10b %10f %10j %10p %10q %20t",
			 weights, true);
	want = oracle_lines("tests/oracle/fairtree-basic/sprio_w_n.txt",
			    (int[]){1, 2}, 2);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sprio_prefix_suffix_and_noheader)
{
	char *got = sprio_text(">> %.5i: %3u!", job25, true);
	cr_assert_str_eq(got, ">> JOBID: USE!\n>>    25: ali!\n");
	free(got);

	got = sprio_text("[%i]", job25, false);
	cr_assert_str_eq(got, "[25]\n");
	free(got);
}

Test(write, fixed0_rounds_half_to_even)
{
	struct prio_column col = {
	    .id = "x", .header = "X", .numfmt = PRIO_NUMFMT_FIXED0};
	char buf[64];
	const struct {
		double v;
		const char *s;
	} cases[] = {
	    {212.5, "212"}, {213.5, "214"},	 {0.5, "0"},   {1.5, "2"},
	    {2.5, "2"},	    {5333.3333, "5333"}, {-0.5, "-0"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct prio_cell c = prio_cell_double(cases[i].v);
		prio_cell_render(&col, &c, 0, buf, sizeof(buf));
		cr_assert_str_eq(buf, cases[i].s, "%g", cases[i].v);
	}
	/* the oracle's own ties: 255/1200 and 0.6125 of a 1000 weight */
	struct prio_cell c = prio_cell_double(255.0 / 1200.0 * 1000);
	prio_cell_render(&col, &c, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "212");
}

/* ---- sshare: the field table ----------------------------------------------
 */

enum sf {
	SF_ACCOUNT,
	SF_CLUSTER,
	SF_EFFECTV,
	SF_FAIRSHARE,
	SF_GRPTRESMINS,
	SF_GRPTRESRAW,
	SF_ID,
	SF_LEVELFS,
	SF_NORMSHARES,
	SF_NORMUSAGE,
	SF_PARTITION,
	SF_RAWSHARES,
	SF_RAWUSAGE,
	SF_TRESRUNMINS,
	SF_USER,
};

static const struct prio_column sshare_table[] = {
    [SF_ACCOUNT] = {"account", "Account", 20, false, PRIO_NUMFMT_PLAIN, NULL},
    [SF_CLUSTER] = {"cluster", "Cluster", 10, true, PRIO_NUMFMT_PLAIN, NULL},
    [SF_EFFECTV] = {"effectv_usage", "EffectvUsage", 13, true, PRIO_NUMFMT_PF,
		    NULL},
    [SF_FAIRSHARE] = {"fairshare", "FairShare", 10, true, PRIO_NUMFMT_PF, NULL},
    [SF_GRPTRESMINS] = {"grp_tres_mins", "GrpTRESMins", 30, true,
			PRIO_NUMFMT_PLAIN, NULL},
    [SF_GRPTRESRAW] = {"grp_tres_raw", "GrpTRESRaw", 30, true,
		       PRIO_NUMFMT_PLAIN, NULL},
    [SF_ID] = {"id", "ID", 6, true, PRIO_NUMFMT_PF32, NULL},
    [SF_LEVELFS] = {"level_fs", "LevelFS", 10, true, PRIO_NUMFMT_PF, NULL},
    [SF_NORMSHARES] = {"norm_shares", "NormShares", 11, true, PRIO_NUMFMT_PF,
		       NULL},
    [SF_NORMUSAGE] = {"norm_usage", "NormUsage", 11, true, PRIO_NUMFMT_PF,
		      NULL},
    [SF_PARTITION] = {"partition", "Partition", 12, true, PRIO_NUMFMT_PLAIN,
		      NULL},
    [SF_RAWSHARES] = {"raw_shares", "RawShares", 10, true, PRIO_NUMFMT_PF32,
		      NULL},
    [SF_RAWUSAGE] = {"raw_usage", "RawUsage", 11, true, PRIO_NUMFMT_PF, NULL},
    [SF_TRESRUNMINS] = {"tres_run_mins", "TRESRunMins", 30, true,
			PRIO_NUMFMT_PLAIN, NULL},
    [SF_USER] = {"user", "User", 10, true, PRIO_NUMFMT_PLAIN, NULL},
};
#define NSF (sizeof(sshare_table) / sizeof(sshare_table[0]))

#define TRES0 "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"

/* Rows of fairtree-basic: cells indexed by enum sf. */
static void ft_rows(struct prio_cell rows[5][NSF])
{
	memset(rows, 0, 5 * NSF * sizeof(rows[0][0]));
	for (int r = 0; r < 5; r++) {
		rows[r][SF_CLUSTER] = prio_cell_str("ft");
		rows[r][SF_PARTITION] = prio_cell_str("");
		rows[r][SF_GRPTRESMINS] = prio_cell_str("");
	}
	struct prio_cell *c = rows[0]; /* root: sentinels print blank */
	c[SF_ACCOUNT] = prio_cell_str("root");
	c[SF_USER] = prio_cell_str(NULL);
	c[SF_ID] = prio_cell_uint(1);
	c[SF_RAWSHARES] = prio_cell_uint(PRIO_NO_VAL);
	c[SF_NORMSHARES] = prio_cell_double(0.0);
	c[SF_RAWUSAGE] = prio_cell_uint(35834);
	c[SF_NORMUSAGE] = prio_cell_double((double)PRIO_NO_VAL);
	c[SF_EFFECTV] = prio_cell_double(1.0);
	c[SF_FAIRSHARE] = prio_cell_blank();
	c[SF_LEVELFS] = prio_cell_double((double)PRIO_NO_VAL);
	c[SF_GRPTRESRAW] =
	    prio_cell_str("cpu=385,mem=587045,energy=0,node=112,billing=550,fs/"
			  "disk=0,vmem=0,pages=0");
	c[SF_TRESRUNMINS] =
	    prio_cell_str("cpu=4422,mem=7451033,energy=0,node=1328,billing="
			  "5626,fs/disk=0,vmem=0,pages=0");

	c = rows[1]; /* user root: LevelFS infinity */
	c[SF_ACCOUNT] = prio_cell_str(" root");
	c[SF_USER] = prio_cell_str("root");
	c[SF_ID] = prio_cell_uint(2);
	c[SF_RAWSHARES] = prio_cell_uint(1);
	c[SF_NORMSHARES] = prio_cell_double(1.0 / 81.0);
	c[SF_RAWUSAGE] = prio_cell_uint(0);
	c[SF_NORMUSAGE] = prio_cell_double(0.0);
	c[SF_EFFECTV] = prio_cell_double(0.0);
	c[SF_FAIRSHARE] = prio_cell_double(1.0);
	c[SF_LEVELFS] = prio_cell_double(INFINITY);
	c[SF_GRPTRESRAW] = prio_cell_str(TRES0);
	c[SF_TRESRUNMINS] = prio_cell_str(TRES0);

	c = rows[2]; /* account bio: FairShare NO_VAL as a double */
	c[SF_ACCOUNT] = prio_cell_str(" bio");
	c[SF_USER] = prio_cell_blank();
	c[SF_ID] = prio_cell_uint(5);
	c[SF_RAWSHARES] = prio_cell_uint(10);
	c[SF_NORMSHARES] = prio_cell_double(10.0 / 81.0);
	c[SF_RAWUSAGE] = prio_cell_uint(4896);
	c[SF_NORMUSAGE] = prio_cell_double(0.136650);
	c[SF_EFFECTV] = prio_cell_double(0.136650);
	c[SF_FAIRSHARE] = prio_cell_double((double)PRIO_NO_VAL);
	c[SF_LEVELFS] = prio_cell_double(0.903452);
	c[SF_GRPTRESRAW] = prio_cell_str("cpu=39,mem=60479,energy=0,node=11,"
					 "billing=75,fs/disk=0,vmem=0,pages=0");
	c[SF_TRESRUNMINS] =
	    prio_cell_str("cpu=462,mem=710860,energy=0,node=231,billing=462,fs/"
			  "disk=0,vmem=0,pages=0");

	c = rows[3]; /* user ivan */
	c[SF_ACCOUNT] = prio_cell_str("   genomics");
	c[SF_USER] = prio_cell_str("ivan");
	c[SF_ID] = prio_cell_uint(21);
	c[SF_RAWSHARES] = prio_cell_uint(1);
	c[SF_NORMSHARES] = prio_cell_double(0.5);
	c[SF_RAWUSAGE] = prio_cell_uint(4771);
	c[SF_NORMUSAGE] = prio_cell_double(0.133166);
	c[SF_EFFECTV] = prio_cell_double(0.974505);
	c[SF_FAIRSHARE] = prio_cell_double(1.0 / 15.0);
	c[SF_LEVELFS] = prio_cell_double(0.513081);
	c[SF_GRPTRESRAW] = prio_cell_str("cpu=38,mem=58807,energy=0,node=10,"
					 "billing=74,fs/disk=0,vmem=0,pages=0");
	c[SF_TRESRUNMINS] =
	    prio_cell_str("cpu=462,mem=710860,energy=0,node=231,billing=462,fs/"
			  "disk=0,vmem=0,pages=0");

	c = rows[4]; /* user oscar, Fairshare=parent */
	c[SF_ACCOUNT] = prio_cell_str("   genomics");
	c[SF_USER] = prio_cell_str("oscar");
	c[SF_ID] = prio_cell_uint(23);
	c[SF_RAWSHARES] = prio_cell_str("parent");
	c[SF_NORMSHARES] = prio_cell_double(1.0);
	c[SF_RAWUSAGE] = prio_cell_uint(124);
	c[SF_NORMUSAGE] = prio_cell_double(0.003484);
	c[SF_EFFECTV] = prio_cell_double(0.025495);
	c[SF_FAIRSHARE] = prio_cell_double(0.2);
	c[SF_LEVELFS] = prio_cell_double((double)PRIO_NO_VAL);
	c[SF_GRPTRESRAW] = prio_cell_str("cpu=1,mem=1672,energy=0,node=1,"
					 "billing=1,fs/disk=0,vmem=0,pages=0");
	c[SF_TRESRUNMINS] = prio_cell_str(TRES0);
}

/* Print the five rows with the columns "-o list" selects. */
static char *sshare_out(const char *list, enum prio_output_mode mode,
			bool header)
{
	struct prio_field_sel sel[32];
	struct prio_column cols[32];
	struct prio_cell rows[5][NSF], cells[32];
	size_t n;
	char why[200];
	struct capture cap;

	cr_assert_eq(prio_fieldlist_parse(list, sshare_table, NSF, sel, 32, &n,
					  why, sizeof(why)),
		     0, "%s", why);
	for (size_t i = 0; i < n; i++)
		cols[i] = sel[i].col;
	ft_rows(rows);
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(cap.f, mode, PRIO_STYLE_SSHARE,
						cols, n, header, NULL);
	cr_assert_not_null(w);
	for (int r = 0; r < 5; r++) {
		for (size_t i = 0; i < n; i++)
			cells[i] = rows[r][sel[i].index];
		cr_assert_eq(prio_writer_row(w, cells), 0);
	}
	cr_assert_eq(prio_writer_finish(w), 0);
	return cap_close(&cap);
}

#define SSHARE_L                                                               \
	"Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,"   \
	"FairShare,LevelFS,GrpTRESMins,TRESRunMins"

Test(write, sshare_a_l_text)
{
	char *got = sshare_out(SSHARE_L, PRIO_OUT_TEXT, true);
	/* header, dashes, root (blanks), user root (inf), bio, ivan, oscar
	 * (parent); TRESRunMins cut to 30 with '+' */
	char *want = oracle_lines("tests/oracle/fairtree-basic/sshare_a_l.txt",
				  (int[]){1, 2, 3, 4, 5, 7, 9}, 7);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sshare_a_default_text_noheader)
{
	char *got = sshare_out(
	    "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare",
	    PRIO_OUT_TEXT, false);
	char *want = oracle_lines("tests/oracle/fairtree-basic/sshare_a.txt",
				  (int[]){3, 4, 5, 7, 9}, 5);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sshare_a_l_parsable2)
{
	char *got = sshare_out(SSHARE_L, PRIO_OUT_PARSABLE2, true);
	char *want =
	    oracle_lines("tests/oracle/fairtree-basic/sshare_a_l_P.txt",
			 (int[]){1, 2, 3, 4, 6, 8}, 6);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);

	got = sshare_out(
	    "Account,User,Cluster,Partition,ID,RawShares,NormShares,RawUsage,"
	    "NormUsage,"
	    "EffectvUsage,FairShare,LevelFS,GrpTRESMins,GrpTRESRaw,TRESRunMins",
	    PRIO_OUT_PARSABLE2, true);
	want =
	    oracle_lines("tests/oracle/fairtree-basic/sshare_a_l_P_o_all.txt",
			 (int[]){1, 2, 3, 4, 6, 8}, 6);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sshare_parsable_trailing_bar)
{
	char *got = sshare_out("Account,User,RawShares,LevelFS",
			       PRIO_OUT_PARSABLE, true);
	cr_assert_str_eq(got, "Account|User|RawShares|LevelFS|\n"
			      "root||||\n"
			      " root|root|1|inf|\n"
			      " bio||10|0.903452|\n"
			      "   genomics|ivan|1|0.513081|\n"
			      "   genomics|oscar|parent||\n");
	free(got);
}

Test(write, sshare_custom_widths)
{
	char *got = sshare_out(
	    "Account%30,User%12,ID,RawShares,NormShares%14,RawUsage%14,"
	    "NormUsage%14,EffectvUsage%14,FairShare%14,LevelFS%16,"
	    "GrpTRESRaw%120,TRESRunMins%120",
	    PRIO_OUT_TEXT, true);
	char *want =
	    oracle_lines("tests/oracle/fairtree-basic/sshare_a_o_all_wide.txt",
			 (int[]){1, 2, 3, 4, 5, 7, 9}, 7);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
}

Test(write, sshare_left_justified_width_and_cut)
{
	char *got = sshare_out("acc%-6,u%-3,lev%-9", PRIO_OUT_TEXT, true);
	cr_assert_str_eq(got, "Accoun Use LevelFS   \n"
			      "------ --- --------- \n"
			      "root                 \n"
			      " root  ro+ inf       \n"
			      " bio       0.903452  \n"
			      "   ge+ iv+ 0.513081  \n"
			      "   ge+ os+           \n");
	free(got);
}

Test(write, pf_double_exponent_fallback)
{
	struct prio_column col = {.id = "x",
				  .header = "X",
				  .width = 10,
				  .right = true,
				  .numfmt = PRIO_NUMFMT_PF};
	char buf[600];
	struct prio_cell c = prio_cell_double(12345.678);

	cr_assert_eq(prio_cell_render(&col, &c, 10, buf, sizeof(buf)), 10);
	cr_assert_str_eq(buf, "1.2346e+04");
	/* natural "%f" when there is no width (parsable) or it fits */
	prio_cell_render(&col, &c, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "12345.678000");
	prio_cell_render(&col, &c, 12, buf, sizeof(buf));
	cr_assert_str_eq(buf, "12345.678000");
	c.d = 123456789.0;
	prio_cell_render(&col, &c, 10, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1.2346e+08");
	prio_cell_render(&col, &c, 13, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1.2345679e+08");
	/* far too narrow: precision 0, still printed whole */
	prio_cell_render(&col, &c, 3, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1e+08");
	/* huge values do not overflow the buffer */
	c.d = 1e308;
	cr_assert_gt(prio_cell_render(&col, &c, 0, buf, sizeof(buf)), 300);
	prio_cell_render(&col, &c, 10, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1.000e+308");
	/* sentinels blank, infinity "inf" */
	c.d = (double)PRIO_NO_VAL64;
	cr_assert_eq(prio_cell_render(&col, &c, 10, buf, sizeof(buf)), -1);
	c.d = (double)PRIO_INFINITE;
	cr_assert_eq(prio_cell_render(&col, &c, 10, buf, sizeof(buf)), -1);
	c.d = INFINITY;
	prio_cell_render(&col, &c, 10, buf, sizeof(buf));
	cr_assert_str_eq(buf, "inf");

	/* in a text table: right-justified in its width, then a space */
	struct capture cap;
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(
	    cap.f, PRIO_OUT_TEXT, PRIO_STYLE_SSHARE, &col, 1, false, NULL);
	struct prio_cell cells[1] = {prio_cell_double(12345.678)};
	prio_writer_row(w, cells);
	cells[0] = prio_cell_double(0.5);
	prio_writer_row(w, cells);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	cr_assert_str_eq(got, "1.2346e+04 \n  0.500000 \n");
	free(got);
}

Test(write, pf_integer_sentinels)
{
	struct prio_column pf = {.id = "x", .numfmt = PRIO_NUMFMT_PF};
	struct prio_column pf32 = {.id = "x", .numfmt = PRIO_NUMFMT_PF32};
	struct prio_column plain = {.id = "x", .numfmt = PRIO_NUMFMT_PLAIN};
	char buf[64];
	struct prio_cell c = prio_cell_uint(PRIO_NO_VAL);

	/* print_fields_uint64 only blanks the 64-bit sentinels */
	cr_assert_eq(prio_cell_render(&pf, &c, 0, buf, sizeof(buf)), 10);
	cr_assert_str_eq(buf, "4294967294");
	cr_assert_eq(prio_cell_render(&pf32, &c, 0, buf, sizeof(buf)), -1);
	c.u = PRIO_INFINITE;
	cr_assert_eq(prio_cell_render(&pf32, &c, 0, buf, sizeof(buf)), -1);
	c.u = PRIO_INFINITE64;
	cr_assert_eq(prio_cell_render(&pf, &c, 0, buf, sizeof(buf)), -1);
	cr_assert_eq(prio_cell_render(&plain, &c, 0, buf, sizeof(buf)), 20);
	cr_assert_str_eq(buf, "18446744073709551615");
	c = prio_cell_int(-42);
	prio_cell_render(&pf32, &c, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "-42");
	c = prio_cell_int(INT64_MIN);
	cr_assert_eq(prio_cell_render(&plain, &c, 0, buf, sizeof(buf)), 20);
	cr_assert_str_eq(buf, "-9223372036854775808");
	c = prio_cell_int(0);
	prio_cell_render(&plain, &c, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0");
	/* a small buffer gets the start, the return value the full length */
	c = prio_cell_uint(123456);
	cr_assert_eq(prio_cell_render(&plain, &c, 0, buf, 4), 6);
	cr_assert_str_eq(buf, "123");
}

/* ---- CSV and JSON -------------------------------------------------------- */

static const struct prio_column mixed_cols[] = {
    {"name", "Name", 10, false, PRIO_NUMFMT_PLAIN, NULL},
    {"count", "Count", 6, true, PRIO_NUMFMT_PLAIN, NULL},
    {"share", "Share", 10, true, PRIO_NUMFMT_PF, NULL},
    {"level_fs", "LevelFS", 10, true, PRIO_NUMFMT_PF, NULL},
    {"note", "Note", 10, true, PRIO_NUMFMT_PLAIN, NULL},
};

static char *mixed_out(enum prio_output_mode mode, bool header)
{
	struct capture cap;
	struct prio_cell rows[3][5] = {
	    {prio_cell_str("a,b"), prio_cell_int(-3), prio_cell_double(0.25),
	     prio_cell_double(INFINITY), prio_cell_str("say \"hi\"\nbye")},
	    {prio_cell_str("plain"), prio_cell_uint(UINT64_MAX - 5),
	     prio_cell_double((double)PRIO_NO_VAL), prio_cell_double(1.5),
	     prio_cell_blank()},
	    {prio_cell_str(" pad "), prio_cell_uint(7), prio_cell_double(NAN),
	     prio_cell_double(-INFINITY), prio_cell_str("bad \xff utf8")},
	};
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(cap.f, mode, PRIO_STYLE_SSHARE,
						mixed_cols, 5, header, NULL);
	cr_assert_not_null(w);
	for (int r = 0; r < 3; r++)
		cr_assert_eq(prio_writer_row(w, rows[r]), 0);
	cr_assert_eq(prio_writer_finish(w), 0);
	return cap_close(&cap);
}

Test(write, csv_quoting)
{
	char *got = mixed_out(PRIO_OUT_CSV, true);
	cr_assert_str_eq(got,
			 "name,count,share,level_fs,note\n"
			 "\"a,b\",-3,0.250000,inf,\"say \"\"hi\"\"\nbye\"\n"
			 "plain,18446744073709551610,,1.500000,\n"
			 "\" pad \",7,nan,-inf,bad \xff utf8\n");
	free(got);
	got = mixed_out(PRIO_OUT_CSV, false);
	cr_assert_eq(strncmp(got, "\"a,b\"", 5), 0);
	free(got);
}

Test(write, json_typed_values)
{
	char *got = mixed_out(PRIO_OUT_JSON, true);
	json_error_t jerr;
	json_t *doc = json_loads(got, 0, &jerr);
	cr_assert_not_null(doc, "%s: %s", jerr.text, got);
	cr_assert(json_is_array(doc));
	cr_assert_eq(json_array_size(doc), 3);

	json_t *r0 = json_array_get(doc, 0);
	cr_assert_str_eq(json_string_value(json_object_get(r0, "name")), "a,b");
	cr_assert(json_is_integer(json_object_get(r0, "count")));
	cr_assert_eq(json_integer_value(json_object_get(r0, "count")), -3);
	cr_assert(json_is_real(json_object_get(r0, "share")));
	cr_assert_float_eq(json_real_value(json_object_get(r0, "share")), 0.25,
			   1e-15);
	cr_assert_str_eq(json_string_value(json_object_get(r0, "level_fs")),
			 "inf");
	cr_assert_str_eq(json_string_value(json_object_get(r0, "note")),
			 "say \"hi\"\nbye");

	json_t *r1 = json_array_get(doc, 1);
	cr_assert(json_is_real(json_object_get(r1, "count"))); /* > INT64_MAX */
	cr_assert(json_is_null(json_object_get(r1, "share"))); /* NO_VAL */
	cr_assert_float_eq(json_number_value(json_object_get(r1, "level_fs")),
			   1.5, 0);
	cr_assert(json_is_null(json_object_get(r1, "note"))); /* blank */

	json_t *r2 = json_array_get(doc, 2);
	cr_assert_str_eq(json_string_value(json_object_get(r2, "name")),
			 " pad ");
	cr_assert_eq(json_integer_value(json_object_get(r2, "count")), 7);
	cr_assert_str_eq(json_string_value(json_object_get(r2, "share")),
			 "nan");
	cr_assert_str_eq(json_string_value(json_object_get(r2, "level_fs")),
			 "-inf");
	cr_assert_str_eq(json_string_value(json_object_get(r2, "note")),
			 "bad \xef\xbf\xbd utf8");

	/* keys in column order, one object per line */
	cr_assert_eq(
	    strncmp(got, "[\n{\"name\":\"a,b\",\"count\":-3,\"share\":0.25,",
		    40),
	    0, "%s", got);
	json_decref(doc);
	free(got);
}

Test(write, json_clean_reals_and_empty_table)
{
	struct prio_column col = {.id = "v", .header = "V"};
	struct capture cap;
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(
	    cap.f, PRIO_OUT_JSON, PRIO_STYLE_SPRIO, &col, 1, true, NULL);
	struct prio_cell c[1] = {prio_cell_double(0.1 + 0.2)};
	prio_writer_row(w, c);
	c[0] = prio_cell_double(8.0 / 15.0);
	prio_writer_row(w, c);
	/* sprio's JOBSIZE weight 2000 times a normalised 0.15 */
	c[0] = prio_cell_double(2000 * (0.25 - 0.1));
	prio_writer_row(w, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	cr_assert_str_eq(got, "[\n{\"v\":0.3},\n{\"v\":0.533333333333333},\n"
			      "{\"v\":300.0}\n]\n");
	free(got);

	cap_open(&cap);
	w = prio_writer_new(cap.f, PRIO_OUT_JSON, PRIO_STYLE_SPRIO, &col, 1,
			    true, NULL);
	cr_assert_eq(prio_writer_finish(w), 0);
	got = cap_close(&cap);
	cr_assert_str_eq(got, "[]\n");
	free(got);
}

/* prio-tools(7) "JSON OUTPUT": blanks are null whatever the table prints in
 * their place, flags are booleans, and the text keeps its words. */
Test(write, json_nulls_and_booleans)
{
	const struct prio_column cols[] = {
	    {.id = "job_id", .header = "JOBID"},
	    {.id = "grp_tres_mins", .header = "GrpTRESMins"},
	    {.id = "counted", .header = "Counted"},
	};
	struct prio_cell c[3] = {prio_cell_label("Weights"), prio_cell_str(""),
				 prio_cell_bool(true)};
	struct capture cap;

	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(
	    cap.f, PRIO_OUT_JSON, PRIO_STYLE_SPRIO, cols, 3, true, NULL);
	prio_writer_row(w, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	cr_assert_str_eq(got, "[\n{\"job_id\":null,\"grp_tres_mins\":null,"
			      "\"counted\":true}\n]\n");
	free(got);

	cap_open(&cap);
	w = prio_writer_new(cap.f, PRIO_OUT_PARSABLE2, PRIO_STYLE_SPRIO, cols,
			    3, false, NULL);
	prio_writer_row(w, c);
	c[2] = prio_cell_bool(false);
	prio_writer_row(w, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	got = cap_close(&cap);
	cr_assert_str_eq(got, "Weights||yes\nWeights||no\n");
	free(got);
}

/* JSON keys are the shared ones where the CSV header keeps an older id */
Test(write, json_shared_keys)
{
	const struct prio_column cols[] = {
	    {.id = "jobid", .header = "JOBID"},
	    {.id = "login", .header = "Login"},
	};
	struct prio_cell c[2] = {prio_cell_uint(7), prio_cell_str("alice")};
	struct capture cap;

	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(
	    cap.f, PRIO_OUT_JSON, PRIO_STYLE_SPRIO, cols, 2, true, NULL);
	prio_writer_row(w, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	cr_assert_str_eq(got, "[\n{\"job_id\":7,\"user\":\"alice\"}\n]\n");
	free(got);

	cap_open(&cap);
	w = prio_writer_new(cap.f, PRIO_OUT_CSV, PRIO_STYLE_SPRIO, cols, 2,
			    true, NULL);
	prio_writer_row(w, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	got = cap_close(&cap);
	cr_assert_str_eq(got, "jobid,login\n7,alice\n");
	free(got);
}

Test(write, duplicate_ids_get_suffixes)
{
	const struct prio_column cols[] = {
	    {.id = "job_id", .header = "JOBID"},
	    {.id = "job_id", .header = "JOBID"},
	    {.id = "job_id_2", .header = "X"},
	    {.id = NULL, .header = "Age"},
	    {.id = NULL, .header = NULL},
	};
	struct prio_cell cells[5] = {prio_cell_int(1), prio_cell_int(2),
				     prio_cell_int(3), prio_cell_int(4),
				     prio_cell_int(5)};
	struct capture cap;
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(
	    cap.f, PRIO_OUT_CSV, PRIO_STYLE_SPRIO, cols, 5, true, NULL);
	prio_writer_row(w, cells);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	cr_assert_str_eq(
	    got, "job_id,job_id_2,job_id_2_2,Age,column_5\n1,2,3,4,5\n");
	free(got);
}

Test(write, sprio_style_parsable)
{
	struct sprio_table t;
	struct prio_cell c[128];
	struct capture cap;

	sprio_columns("%.15i %9r %.10Y %10y", &t);
	job25(c);
	cap_open(&cap);
	struct prio_writer *w =
	    prio_writer_new(cap.f, PRIO_OUT_PARSABLE2, PRIO_STYLE_SPRIO, t.cols,
			    t.n, true, t.fmt.prefix);
	sprio_row(w, &t, c);
	cr_assert_eq(prio_writer_finish(w), 0);
	char *got = cap_close(&cap);
	/* no widths, no cutting, no literal text between fields */
	cr_assert_str_eq(got, "JOBID|PARTITION|PRIORITY|PRIORITY\n25|batch|"
			      "6605|0.00000153804043\n");
	free(got);
	prio_sprio_format_free(&t.fmt);
}

Test(write, write_error_reported)
{
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		cr_skip_test("no /dev/full");
	struct prio_column col = {.id = "v", .header = "V", .width = 5};
	struct prio_writer *w = prio_writer_new(
	    f, PRIO_OUT_TEXT, PRIO_STYLE_SSHARE, &col, 1, true, NULL);
	cr_assert_not_null(w);
	struct prio_cell c[1] = {prio_cell_str("x")};
	int rc = 0;
	/* stdio buffers: keep writing until the failure surfaces */
	for (int i = 0; i < 100000 && rc == 0; i++)
		rc = prio_writer_row(w, c);
	cr_assert_eq(rc, PRIO_ERR_IO);
	cr_assert_eq(errno, ENOSPC);
	errno = 0;
	cr_assert_eq(prio_writer_finish(w), PRIO_ERR_IO);
	cr_assert_eq(errno, ENOSPC);
	fclose(f);

	/* an error only at the final flush */
	f = fopen("/dev/full", "w");
	w = prio_writer_new(f, PRIO_OUT_PARSABLE2, PRIO_STYLE_SSHARE, &col, 1,
			    true, NULL);
	cr_assert_eq(prio_writer_row(w, c), 0);
	cr_assert_eq(prio_writer_finish(w), PRIO_ERR_IO);
	cr_assert_eq(errno, ENOSPC);
	fclose(f);
}

Test(write, bad_arguments)
{
	struct prio_column col = {.id = "v"};
	errno = 0;
	cr_assert_null(prio_writer_new(NULL, PRIO_OUT_TEXT, PRIO_STYLE_SPRIO,
				       &col, 1, true, NULL));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(prio_writer_new(stdout, (enum prio_output_mode)99,
				       PRIO_STYLE_SPRIO, &col, 1, true, NULL));
	cr_assert_eq(prio_writer_finish(NULL), 0);
}

Test(write, many_rows_stream)
{
	/* 200k rows through a text writer: checks nothing is kept per row */
	struct prio_column cols[2] = {
	    {"job_id", "JOBID", 15, true, PRIO_NUMFMT_PLAIN, " "},
	    {"age", "AGE", 10, true, PRIO_NUMFMT_FIXED0, NULL},
	};
	FILE *f = fopen("/dev/null", "w");
	cr_assert_not_null(f);
	struct prio_writer *w = prio_writer_new(
	    f, PRIO_OUT_TEXT, PRIO_STYLE_SPRIO, cols, 2, true, NULL);
	for (unsigned i = 0; i < 200000; i++) {
		struct prio_cell c[2] = {prio_cell_uint(i),
					 prio_cell_double(i * 0.5)};
		cr_assert_eq(prio_writer_row(w, c), 0);
	}
	cr_assert_eq(prio_writer_finish(w), 0);
	fclose(f);
}

/* ---- sprio -o grammar ---------------------------------------------------- */

Test(format, sprio_default_long)
{
	struct prio_sprio_format f;
	char why[200];
	cr_assert_eq(prio_sprio_format_parse(SPRIO_L, &f, why, sizeof(why)), 0);
	cr_assert_str_eq(f.prefix, "");
	cr_assert_eq(f.nitems, 13);
	cr_assert_eq(f.items[0].letter, 'i');
	cr_assert_eq(f.items[0].width, 15);
	cr_assert(f.items[0].right);
	cr_assert_str_eq(f.items[0].suffix, " ");
	cr_assert_eq(f.items[1].letter, 'r');
	cr_assert_eq(f.items[1].width, 9);
	cr_assert_not(f.items[1].right);
	cr_assert_eq(f.items[3].letter, 'Y');
	cr_assert_eq(f.items[3].width, 10);
	cr_assert_eq(f.items[12].letter, 'T');
	cr_assert_eq(f.items[12].width, 20);
	cr_assert_str_eq(f.items[12].suffix, "");
	prio_sprio_format_free(&f);
}

Test(format, sprio_prefix_suffix_widths)
{
	struct prio_sprio_format f;
	char why[200];
	cr_assert_eq(prio_sprio_format_parse("Job %i is %.10Y, tres=%20t.", &f,
					     why, sizeof(why)),
		     0);
	cr_assert_str_eq(f.prefix, "Job ");
	cr_assert_eq(f.nitems, 3);
	cr_assert_eq(f.items[0].letter, 'i');
	cr_assert_eq(f.items[0].width, 0); /* natural */
	cr_assert_not(f.items[0].right);
	cr_assert_str_eq(f.items[0].suffix, " is ");
	cr_assert_eq(f.items[1].letter, 'Y');
	cr_assert_eq(f.items[1].width, 10);
	cr_assert(f.items[1].right);
	cr_assert_str_eq(f.items[1].suffix, ", tres=");
	cr_assert_eq(f.items[2].letter, 't');
	cr_assert_eq(f.items[2].width, 20);
	cr_assert_not(f.items[2].right);
	cr_assert_str_eq(f.items[2].suffix, ".");
	prio_sprio_format_free(&f);

	/* '.' with no digits: right-justified, natural width */
	cr_assert_eq(prio_sprio_format_parse("%.u", &f, why, sizeof(why)), 0);
	cr_assert_eq(f.items[0].width, 0);
	cr_assert(f.items[0].right);
	prio_sprio_format_free(&f);

	/* no '%' at all: only a prefix */
	cr_assert_eq(prio_sprio_format_parse("hello", &f, why, sizeof(why)), 0);
	cr_assert_str_eq(f.prefix, "hello");
	cr_assert_eq(f.nitems, 0);
	prio_sprio_format_free(&f);

	/* every letter comes back, known or not, "%%" included */
	cr_assert_eq(prio_sprio_format_parse("%z%5%", &f, why, sizeof(why)), 0);
	cr_assert_eq(f.nitems, 2);
	cr_assert_eq(f.items[0].letter, 'z');
	cr_assert_eq(f.items[1].letter, '%');
	cr_assert_eq(f.items[1].width, 5);
	prio_sprio_format_free(&f);
}

Test(format, sprio_errors)
{
	struct prio_sprio_format f;
	char why[200];

	cr_assert_eq(prio_sprio_format_parse("%i %", &f, why, sizeof(why)),
		     PRIO_ERR_USAGE);
	cr_assert(strstr(why, "no field letter"), "%s", why);
	cr_assert_eq(f.nitems, 0);
	prio_sprio_format_free(&f);
	cr_assert_eq(prio_sprio_format_parse("%i %.10", &f, why, sizeof(why)),
		     PRIO_ERR_USAGE);
	cr_assert(strstr(why, "\"%.10\""), "%s", why);
	cr_assert_eq(prio_sprio_format_parse("%99999999999999999999i", &f, why,
					     sizeof(why)),
		     PRIO_ERR_USAGE);
	cr_assert(strstr(why, "too large"), "%s", why);
	cr_assert_eq(prio_sprio_format_parse(NULL, &f, why, sizeof(why)),
		     PRIO_ERR_USAGE);
}

/* ---- sshare -o field lists ----------------------------------------------- */

static size_t fields(const char *list, struct prio_field_sel *sel, char *why)
{
	size_t n = 99;
	int rc = prio_fieldlist_parse(list, sshare_table, NSF, sel, 16, &n, why,
				      200);
	return rc == 0 ? n : (size_t)-1;
}

Test(format, fieldlist_prefix_match)
{
	struct prio_field_sel sel[16];
	char why[200];

	cr_assert_eq(fields("A,Eff,p,raw,RAWU,n,f,levelfs", sel, why), 8, "%s",
		     why);
	cr_assert_eq(sel[0].index, SF_ACCOUNT);
	cr_assert_eq(sel[1].index, SF_EFFECTV);
	cr_assert_eq(sel[2].index, SF_PARTITION);
	cr_assert_eq(sel[3].index, SF_RAWSHARES);
	cr_assert_eq(sel[4].index, SF_RAWUSAGE);
	cr_assert_eq(sel[5].index, SF_NORMSHARES);
	cr_assert_eq(sel[6].index, SF_FAIRSHARE);
	cr_assert_eq(sel[7].index, SF_LEVELFS);
	/* default widths and justification from the table */
	cr_assert_eq(sel[0].col.width, 20);
	cr_assert_not(sel[0].col.right);
	cr_assert_eq(sel[1].col.width, 13);
	cr_assert(sel[1].col.right);
	cr_assert_str_eq(sel[1].col.header, "EffectvUsage");
}

Test(format, fieldlist_widths)
{
	struct prio_field_sel sel[16];
	char why[200];

	cr_assert_eq(
	    fields("Account%30,User%-12,ID%0,TRESRunMins%+5", sel, why), 4,
	    "%s", why);
	cr_assert_eq(sel[0].col.width, 30);
	cr_assert(
	    sel[0].col.right); /* a positive width right-justifies Account */
	cr_assert_eq(sel[1].col.width, 12);
	cr_assert_not(sel[1].col.right);
	cr_assert_eq(sel[2].col.width, 0);
	cr_assert_eq(sel[3].col.width, 5);
	cr_assert(sel[3].col.right);
	cr_assert_eq(sel[0].item_len, strlen("Account%30"));
}

Test(format, fieldlist_duplicates_move_last)
{
	struct prio_field_sel sel[16];
	char why[200];

	cr_assert_eq(fields("user,account,USER,,rawshares,", sel, why), 3, "%s",
		     why);
	cr_assert_eq(sel[0].index, SF_ACCOUNT);
	cr_assert_eq(sel[1].index, SF_USER);
	cr_assert_eq(sel[2].index, SF_RAWSHARES);
	/* a different width is a different item */
	cr_assert_eq(fields("user%5,user", sel, why), 2, "%s", why);
	cr_assert_eq(sel[0].col.width, 5);
	cr_assert_eq(sel[1].col.width, 10);
}

Test(format, fieldlist_errors)
{
	struct prio_field_sel sel[16];
	char why[200];

	cr_assert_eq(fields("Account,Bogus", sel, why), (size_t)-1);
	cr_assert_str_eq(why, "Invalid field requested: \"bogus\"");
	/* longer than the name */
	cr_assert_eq(fields("Accounts", sel, why), (size_t)-1);
	cr_assert_str_eq(why, "Invalid field requested: \"accounts\"");
	cr_assert_eq(fields("%5", sel, why), (size_t)-1);
	cr_assert_str_eq(why, "Invalid field requested: \"%5\"");
	cr_assert_eq(fields("User%x", sel, why), (size_t)-1);
	cr_assert(strstr(why, "Invalid field width in \"user%x\""), "%s", why);
	cr_assert_eq(fields("User%", sel, why), (size_t)-1);
	cr_assert_eq(fields("User%999999", sel, why), (size_t)-1);
	/* more distinct fields than the caller has room for */
	size_t n = 0;
	cr_assert_eq(prio_fieldlist_parse("a,u,id", sshare_table, NSF, sel, 2,
					  &n, why, 200),
		     PRIO_ERR_USAGE);
	cr_assert(strstr(why, "too many"), "%s", why);
}

/* ---- whole oracle files ---------------------------------------------------
 * Every scenario captured "sprio -o <every letter>" and "sshare -P -o <every
 * field>" at the same second as the default tables.  Feeding those values
 * back as cells must reproduce the default tables byte for byte: every row,
 * every column, of every scenario.
 */

static const char *const scenarios[] = {
    "classic",
    "depth-oblivious",
    "fairtree-basic",
    "fairtree-restart",
    "flags-favor-small",
    "flags-max-tres",
    "flags-no-normal-all",
    "seed-hierarchy",
};

static char *slurp(const char *rel)
{
	FILE *f = fopen(test_path(rel), "r");
	cr_assert_not_null(f, "cannot open %s", rel);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* Split s in place on sep; returns the number of pieces. */
static size_t split(char *s, char sep, char **out, size_t max)
{
	size_t n = 0;
	for (;;) {
		cr_assert_lt(n, max);
		out[n++] = s;
		char *p = strchr(s, sep);
		if (!p)
			return n;
		*p = '\0';
		s = p + 1;
	}
}

static struct prio_cell cell_number(const char *s, bool is_uint)
{
	if (!*s)
		return prio_cell_blank();
	if (is_uint)
		return prio_cell_uint(strtoull(s, NULL, 10));
	return prio_cell_double(strtod(s, NULL)); /* "inf" too */
}

#define SPRIO_O_ALL                                                            \
	"%i|%r|%u|%c|%Y|%y|%S|%a|%A|%b|%B|%f|%F|%j|%J|%N|%p|%P|%q|%Q|%t|%T"

/* Format of the default "sprio" table, from its header (the optional
 * columns depend on which weights are non-zero). */
static void sprio_default_format(const char *header, char *fmt, size_t size)
{
	char *h = strndup(header, strcspn(header, "\n")), *tok, *save = NULL;
	bool seen_part = false;
	fmt[0] = '\0';
	for (tok = strtok_r(h, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		const char *f = NULL;
		if (!strcmp(tok, "JOBID"))
			f = "%.15i";
		else if (!strcmp(tok, "PARTITION"))
			f = seen_part ? "%.10P" : "%9r", seen_part = true;
		else if (!strcmp(tok, "USER"))
			f = "%.8u";
		else if (!strcmp(tok, "PRIORITY"))
			f = "%.10Y";
		else if (!strcmp(tok, "SITE"))
			f = "%.10S";
		else if (!strcmp(tok, "AGE"))
			f = "%.10A";
		else if (!strcmp(tok, "ASSOC"))
			f = "%.10B";
		else if (!strcmp(tok, "FAIRSHARE"))
			f = "%.10F";
		else if (!strcmp(tok, "JOBSIZE"))
			f = "%.10J";
		else if (!strcmp(tok, "QOS"))
			f = "%.10Q";
		else if (!strcmp(tok, "TRES"))
			f = "%.20T";
		cr_assert_not_null(f, "unknown header %s", tok);
		if (fmt[0])
			strncat(fmt, " ", size - strlen(fmt) - 1);
		strncat(fmt, f, size - strlen(fmt) - 1);
	}
	free(h);
}

static char *sprio_from_o_all(const char *scen, const char *format)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/oracle/%s/sprio_o_all.txt", scen);
	char *all = slurp(rel);
	char *lines[256];
	size_t nl = split(all, '\n', lines, 256);
	struct sprio_table t;
	struct capture cap;

	sprio_columns(format, &t);
	cap_open(&cap);
	struct prio_writer *w =
	    prio_writer_new(cap.f, PRIO_OUT_TEXT, PRIO_STYLE_SPRIO, t.cols, t.n,
			    true, t.fmt.prefix);
	const char *order = "iruc"
			    "YySaAbBfFjJNpPqQtT";
	for (size_t l = 1; l < nl; l++) {
		if (!*lines[l])
			continue;
		char *v[32];
		cr_assert_eq(split(lines[l], '|', v, 32), 22, "%s line %zu",
			     rel, l + 1);
		struct prio_cell c[128];
		memset(c, 0, sizeof(c));
		for (size_t k = 0; k < 22; k++) {
			char L = order[k];
			if (strchr("ructT", L))
				c[(int)L] = prio_cell_str(v[k]);
			else if (L == 'i')
				c[(int)L] =
				    prio_cell_uint(strtoull(v[k], NULL, 10));
			else if (L == 'Y')
				c[(int)L] =
				    prio_cell_int(strtoll(v[k], NULL, 10));
			else
				c[(int)L] = cell_number(v[k], false);
		}
		sprio_row(w, &t, c);
	}
	cr_assert_eq(prio_writer_finish(w), 0);
	prio_sprio_format_free(&t.fmt);
	free(all);
	return cap_close(&cap);
}

Test(write, oracle_sprio_whole_files)
{
	for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
		const char *scen = scenarios[s];
		char rel[256], fmt[512];
		struct {
			const char *file;
			const char *format;
		} targets[] = {
		    {"sprio_l.txt", SPRIO_L},
		    {"sprio_l_n.txt", SPRIO_LN},
		    {"sprio.txt", NULL},
		};
		for (size_t k = 0; k < 3; k++) {
			snprintf(rel, sizeof(rel), "tests/oracle/%s/%s", scen,
				 targets[k].file);
			char *want = slurp(rel);
			const char *format = targets[k].format;
			if (!format) {
				sprio_default_format(want, fmt, sizeof(fmt));
				format = fmt;
			}
			char *got = sprio_from_o_all(scen, format);
			cr_expect_str_eq(got, want, "%s", rel);
			free(got);
			free(want);
		}
	}
}

static char *sshare_from_o_all(const char *scen, const char *list,
			       enum prio_output_mode mode)
{
	char rel[256], why[200];
	snprintf(rel, sizeof(rel), "tests/oracle/%s/sshare_a_l_P_o_all.txt",
		 scen);
	char *all = slurp(rel);
	char *lines[512];
	size_t nl = split(all, '\n', lines, 512);
	char *names[32];
	size_t nf = split(lines[0], '|', names, 32);
	size_t field_of[32]; /* o_all column -> enum sf */
	for (size_t k = 0; k < nf; k++) {
		field_of[k] = NSF;
		for (size_t i = 0; i < NSF; i++)
			if (!strcmp(sshare_table[i].header, names[k]))
				field_of[k] = i;
		cr_assert_lt(field_of[k], NSF, "%s", names[k]);
	}

	struct prio_field_sel sel[32];
	struct prio_column cols[32];
	size_t n;
	cr_assert_eq(prio_fieldlist_parse(list, sshare_table, NSF, sel, 32, &n,
					  why, sizeof(why)),
		     0, "%s", why);
	for (size_t i = 0; i < n; i++)
		cols[i] = sel[i].col;
	struct capture cap;
	cap_open(&cap);
	struct prio_writer *w = prio_writer_new(cap.f, mode, PRIO_STYLE_SSHARE,
						cols, n, true, NULL);
	for (size_t l = 1; l < nl; l++) {
		if (!*lines[l])
			continue;
		char *v[32];
		cr_assert_eq(split(lines[l], '|', v, 32), nf);
		struct prio_cell by_field[NSF], cells[32];
		for (size_t k = 0; k < nf; k++) {
			size_t f = field_of[k];
			switch (f) {
			case SF_ID:
			case SF_RAWUSAGE:
				by_field[f] = cell_number(v[k], true);
				break;
			case SF_RAWSHARES:
				by_field[f] = !strcmp(v[k], "parent")
						  ? prio_cell_str("parent")
						  : cell_number(v[k], true);
				break;
			case SF_EFFECTV:
			case SF_FAIRSHARE:
			case SF_LEVELFS:
			case SF_NORMSHARES:
			case SF_NORMUSAGE:
				by_field[f] = cell_number(v[k], false);
				break;
			default:
				by_field[f] = prio_cell_str(v[k]);
			}
		}
		for (size_t i = 0; i < n; i++)
			cells[i] = by_field[sel[i].index];
		cr_assert_eq(prio_writer_row(w, cells), 0);
	}
	cr_assert_eq(prio_writer_finish(w), 0);
	free(all);
	return cap_close(&cap);
}

/* The field list of a captured table, from its header line. */
static void list_from_header(const char *text, char sep, char *list,
			     size_t size)
{
	size_t o = 0;
	bool in = false;
	list[0] = '\0';
	for (const char *p = text; *p && *p != '\n' && o + 2 < size; p++) {
		bool word = sep ? *p != sep : *p != ' ';
		if (word) {
			if (!in && o)
				list[o++] = ',';
			list[o++] = *p;
		}
		in = word;
	}
	list[o] = '\0';
}

Test(write, oracle_sshare_whole_files)
{
	for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
		const char *scen = scenarios[s];
		char rel[256], list[512];
		const char *files[] = {"sshare_a.txt", "sshare_a_l.txt",
				       "sshare_a_l_P.txt",
				       "sshare_a_o_all_wide.txt"};
		for (size_t k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel), "tests/oracle/%s/%s", scen,
				 files[k]);
			char *want = slurp(rel);
			enum prio_output_mode mode = PRIO_OUT_TEXT;
			if (k == 2) {
				mode = PRIO_OUT_PARSABLE2;
				list_from_header(want, '|', list, sizeof(list));
			} else if (k == 3) {
				snprintf(
				    list, sizeof(list), "%s",
				    "Account%30,User%12,ID,RawShares,"
				    "NormShares%14,"
				    "RawUsage%14,NormUsage%14,EffectvUsage%14,"
				    "FairShare%14,LevelFS%16,GrpTRESRaw%120,"
				    "TRESRunMins%120");
			} else {
				list_from_header(want, 0, list, sizeof(list));
			}
			char *got = sshare_from_o_all(scen, list, mode);
			cr_expect_str_eq(got, want, "%s", rel);
			free(got);
			free(want);
		}
	}
}
