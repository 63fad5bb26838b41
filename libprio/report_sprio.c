/* SPDX-License-Identifier: MIT */
/*
 * sprio's letters, default formats, rows and sort keys (slurm-facts §6),
 * checked byte for byte against every oracle scenario's sprio captures
 * (22.05) and against 24.11's sprio on a live cluster; what other releases
 * print differently is the table sprio_releases below.
 *
 * What sprio prints, per letter: weighted factors ("A") with "%.0f";
 * normalised factors ("a") as weighted value / configured weight with
 * "%.7f" (0 when the weight is 0); PRIORITY ("Y") as the truncated
 * client-side sum, "y" as that sum over 2^32-1 with "%16.14f" (the column
 * width then cuts it); NICE and SITE as integers; TRES ("T"/"t") as
 * "name=value" for every TRES whose weighted value is not 0.  The -w row
 * puts the configured weights in the factor columns, 1 in SITE and the
 * PriorityWeightTRES text in "T".
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/error.h"
#include "prio/report_sprio.h"

static const struct prio_sprio_letter letters[] = {
    {'a', "age_norm", "AGE", "age factor, normalised"},
    {'A', "age", "AGE", "age factor, weighted"},
    {'b', "assoc_norm", "ASSOC", "association factor, normalised"},
    {'B', "assoc", "ASSOC", "association factor, weighted"},
    {'c', "cluster", "CLUSTER", "cluster name (federations)"},
    {'f', "fairshare_norm", "FAIRSHARE", "fairshare factor, normalised"},
    {'F', "fairshare", "FAIRSHARE", "fairshare factor, weighted"},
    {'i', "job_id", "JOBID", "job id"},
    {'j', "jobsize_norm", "JOBSIZE", "job size factor, normalised"},
    {'J', "jobsize", "JOBSIZE", "job size factor, weighted"},
    {'N', "nice", "NICE", "nice value"},
    {'p', "partition_prio_norm", "PARTITION",
     "partition factor, normalised"},
    {'P', "partition_prio", "PARTITION", "partition factor, weighted"},
    {'q', "qos_norm", "QOS", "QOS factor, normalised"},
    {'Q', "qos", "QOS", "QOS factor, weighted"},
    {'r', "partition", "PARTITION", "partition name"},
    {'S', "site", "SITE", "site factor"},
    {'t', "tres_norm", "TRES", "TRES factors, normalised"},
    {'T', "tres", "TRES", "TRES factors, weighted"},
    {'u', "user", "USER", "user name"},
    {'y', "priority_norm", "PRIORITY", "priority over 2^32-1"},
    {'Y', "priority", "PRIORITY", "priority"},
    /* from 23.02 */
    {'n', "qos_name", "QOSNAME", "QOS name (23.02)"},
    {'o', "account", "ACCOUNT", "account (23.02)"},
    /* from 26.05 */
    {'s', "sluid", "SLUID", "job SLUID (26.05)"},
};

/*
 * What differs between releases, read from each tagged release's
 * src/sprio (opts.c, print.c, sort.c, sprio.c): a row holds from its
 * release until the next row's.  The default (short) formats, the -w row,
 * -n, the widths and the "Invalid job format specification" handling did
 * not change from 22.05 to 26.05; only these did:
 *  - 23.02 added %o ACCOUNT and %n QOSNAME (and the -S keys o, n), put
 *    them in the -l layouts (after USER, before QOS), and moved the
 *    -j/-u/-p filters from the controller into sprio, so that -j matching
 *    no job prints the header alone;
 *  - 26.05 added %s SLUID.
 * 23.11, 24.05, 24.11, 25.05 and 25.11 print what 23.02 prints.
 */
static const struct prio_sprio_release sprio_releases[] = {
    {2205, "aAbBcfFijJNpPqQrStTuyY", "ciNruaAfFjJpPqQtTyY",
     "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q "
     "%.11N %.20T",
     "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t", false},
    {2302, "aAbBcfFijJnNopPqQrStTuyY", "ciNnoruaAfFjJpPqQtTyY",
     "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P "
     "%.10n %.10Q %.11N %.20T",
     "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t", true},
    {2605, "aAbBcfFijJnNopPqQrsStTuyY", "ciNnoruaAfFjJpPqQtTyY",
     "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P "
     "%.10n %.10Q %.11N %.20T",
     "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t", true},
};

const struct prio_sprio_release *prio_sprio_release(uint16_t release)
{
	const struct prio_sprio_release *r = &sprio_releases[0];

	for (size_t i = 0;
	     i < sizeof(sprio_releases) / sizeof(sprio_releases[0]); i++)
		if (sprio_releases[i].since <= release)
			r = &sprio_releases[i];
	return r;
}

const struct prio_sprio_letter *prio_sprio_letters(size_t *n)
{
	*n = sizeof(letters) / sizeof(letters[0]);
	return letters;
}

const struct prio_sprio_letter *
prio_sprio_letter_in(const struct prio_sprio_release *rel, char letter)
{
	if (!letter || !strchr(rel->letters, letter))
		return NULL;
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (letters[i].letter == letter)
			return &letters[i];
	return NULL;
}

const struct prio_sprio_letter *prio_sprio_letter(char letter)
{
	return prio_sprio_letter_in(prio_sprio_release(PRIO_SLURM_OLDEST),
				    letter);
}

/* The factor behind a factor letter (either case), or -1. */
static int letter_factor(char l)
{
	switch (l) {
	case 'a': case 'A': return PRIO_FACTOR_AGE;
	case 'b': case 'B': return PRIO_FACTOR_ASSOC;
	case 'f': case 'F': return PRIO_FACTOR_FAIRSHARE;
	case 'j': case 'J': return PRIO_FACTOR_JOBSIZE;
	case 'p': case 'P': return PRIO_FACTOR_PARTITION;
	case 'q': case 'Q': return PRIO_FACTOR_QOS;
	default: return -1;
	}
}

static uint32_t conf_weight(const struct prio_config *conf, int factor)
{
	switch (factor) {
	case PRIO_FACTOR_AGE: return conf->weight_age;
	case PRIO_FACTOR_ASSOC: return conf->weight_assoc;
	case PRIO_FACTOR_FAIRSHARE: return conf->weight_fairshare;
	case PRIO_FACTOR_JOBSIZE: return conf->weight_jobsize;
	case PRIO_FACTOR_PARTITION: return conf->weight_partition;
	case PRIO_FACTOR_QOS: return conf->weight_qos;
	default: return 0;
	}
}

static bool tres_weighted(const struct prio_config *conf)
{
	return conf->weight_tres.text && *conf->weight_tres.text;
}

const char *prio_sprio_default_format(const struct prio_config *conf,
				      bool long_format, bool norm,
				      bool user_column, char *buf, size_t size)
{
	return prio_sprio_default_format_in(
	    prio_sprio_release(PRIO_SLURM_OLDEST), conf, long_format, norm,
	    user_column, buf, size);
}

const char *prio_sprio_default_format_in(const struct prio_sprio_release *rel,
					 const struct prio_config *conf,
					 bool long_format, bool norm,
					 bool user_column, char *buf,
					 size_t size)
{
	/* sprio's factor columns in order, weighted and normalised */
	static const char order[] = "ABFJPQ";
	size_t len;

	if (long_format) {
		snprintf(buf, size, "%s",
			 norm ? rel->long_norm_format : rel->long_format);
		return buf;
	}
	snprintf(buf, size, "%%.15i %%9r%s%s", user_column ? " %.8u" : "",
		 norm ? " %10y" : " %.10Y %.10S");
	for (const char *o = order; *o; o++) {
		if (!conf_weight(conf, letter_factor(*o)))
			continue;
		len = strlen(buf);
		snprintf(buf + len, size - len, norm ? " %%10%c" : " %%.10%c",
			 norm ? *o - 'A' + 'a' : *o);
	}
	if (tres_weighted(conf)) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s",
			 norm ? " %20t" : " %.20T");
	}
	return buf;
}

/* ---- table --------------------------------------------------------------- */

void prio_sprio_table_free(struct prio_sprio_table *t)
{
	if (!t)
		return;
	if (t->bufs)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->bufs[i]);
	free(t->bufs);
	free(t->buf_sizes);
	free(t->cols);
	free(t->letters);
	free(t->cells);
	free(t->tres_factor);
	prio_sprio_format_free(&t->fmt);
	memset(t, 0, sizeof(*t));
}

static enum prio_numfmt letter_numfmt(char l)
{
	if (letter_factor(l) >= 0)
		return l >= 'a' ? PRIO_NUMFMT_FIXED7 : PRIO_NUMFMT_FIXED0;
	if (l == 'y')
		return PRIO_NUMFMT_PRIO16;
	return PRIO_NUMFMT_PLAIN;
}

int prio_sprio_table_init(struct prio_sprio_table *t, const char *format,
			  void (*invalid)(char letter, void *ctx), void *ctx,
			  char *why, size_t why_size)
{
	return prio_sprio_table_init_in(t,
					prio_sprio_release(PRIO_SLURM_OLDEST),
					format, invalid, ctx, why, why_size);
}

int prio_sprio_table_init_in(struct prio_sprio_table *t,
			     const struct prio_sprio_release *rel,
			     const char *format,
			     void (*invalid)(char letter, void *ctx), void *ctx,
			     char *why, size_t why_size)
{
	int rc;
	size_t n;

	memset(t, 0, sizeof(*t));
	rc = prio_sprio_format_parse(format, &t->fmt, why, why_size);
	if (rc < 0)
		return rc;
	n = t->fmt.nitems ? t->fmt.nitems : 1;
	t->cols = calloc(n, sizeof(*t->cols));
	t->letters = calloc(n, 1);
	t->cells = calloc(n, sizeof(*t->cells));
	t->bufs = calloc(n, sizeof(*t->bufs));
	t->buf_sizes = calloc(n, sizeof(*t->buf_sizes));
	if (!t->cols || !t->letters || !t->cells || !t->bufs ||
	    !t->buf_sizes) {
		prio_sprio_table_free(t);
		snprintf(why, why_size, "out of memory");
		return PRIO_ERR_NOMEM;
	}
	t->prefix = t->fmt.prefix;
	for (size_t i = 0; i < t->fmt.nitems; i++) {
		const struct prio_sprio_item *it = &t->fmt.items[i];
		const struct prio_sprio_letter *l =
		    prio_sprio_letter_in(rel, it->letter);

		if (!l) {
			if (invalid)
				invalid(it->letter, ctx);
			continue;
		}
		if (it->letter == 's') {
			/* a real SLUID or nothing: an empty column would
			 * claim the jobs have none */
			prio_sprio_table_free(t);
			snprintf(why, why_size,
				 "%%s (SLUID): job SLUIDs are not read from "
				 "the inputs");
			return PRIO_ERR_USAGE;
		}
		struct prio_column *c = &t->cols[t->ncols];
		c->id = l->id;
		c->header = l->header;
		c->width = it->width;
		c->right = it->right;
		c->numfmt = letter_numfmt(it->letter);
		c->suffix = it->suffix;
		t->letters[t->ncols++] = it->letter;
	}
	return PRIO_OK;
}

/* Make room for len+1 bytes in column i's text buffer. */
static char *col_buf(struct prio_sprio_table *t, size_t i, size_t len)
{
	if (t->buf_sizes[i] < len + 1) {
		size_t sz = len + 64;
		char *p = realloc(t->bufs[i], sz);
		if (!p)
			return NULL;
		t->bufs[i] = p;
		t->buf_sizes[i] = sz;
	}
	return t->bufs[i];
}

/*
 * v as "%.0f" prints it, without printf: rounded to nearest, ties to even
 * (nearbyint in the default rounding mode is exactly printf's rule, since
 * both round the exact binary value), "-0" for small negatives.  Returns
 * false for values beyond int64 or not finite: then use printf.
 */
static bool fixed0(double v, int64_t *out, bool *neg_zero)
{
	double r;

	if (!(v > -9.2e18 && v < 9.2e18))
		return false;
	r = nearbyint(v);
	*out = (int64_t)r;
	*neg_zero = *out == 0 && signbit(v);
	return true;
}

/* Decimal digits of v at p (room for 21); returns the length. */
static size_t put_i64(char *p, int64_t v, bool neg_zero)
{
	char tmp[24];
	size_t n = 0, k = 0;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0 || neg_zero)
		p[k++] = '-';
	while (n)
		p[k++] = tmp[--n];
	return k;
}

/* A weighted factor's cell: an integer that prints as "%.0f" would. */
static struct prio_cell weighted_cell(const struct prio_sprio_table *t,
				      double v)
{
	int64_t i;
	bool nz;

	if (t->exact || !fixed0(v, &i, &nz) || nz)
		return prio_cell_double(v);
	return prio_cell_int(i);
}

/* "cpu=70,mem=15" (weighted, %.0f) or "cpu=0.10,mem=0.05" (normalised). */
static const char *tres_text(struct prio_sprio_table *t, size_t col,
			     const struct prio_engine *e, bool norm)
{
	size_t len = 0;
	char *b;

	if (!col_buf(t, col, 0))
		return NULL;
	t->bufs[col][0] = '\0';
	for (uint32_t k = 0; k < e->tres_count; k++) {
		double w = t->tres_factor[k] * e->tres_weight[k];
		const char *name = e->snap->tres.names[e->tres[k]];
		char num[400];
		int64_t iv;
		bool nz;
		int m;

		if (w == 0.0)
			continue;
		if (!norm && strlen(name) < sizeof(num) - 24 &&
		    fixed0(w, &iv, &nz)) {
			size_t nl = strlen(name);

			memcpy(num, name, nl);
			num[nl] = '=';
			m = (int)(nl + 1 + put_i64(num + nl + 1, iv, nz));
			num[m] = '\0';
		} else {
			m = snprintf(num, sizeof(num),
				     norm ? "%s=%.2f" : "%s=%.0f", name,
				     norm ? w / e->tres_weight[k] : w);
		}
		if (m < 0)
			continue;
		if (!(b = col_buf(t, col, len + 1 + (size_t)m)))
			return NULL;
		if (len)
			b[len++] = ',';
		memcpy(b + len, num, (size_t)m + 1);
		len += (size_t)m;
	}
	return t->bufs[col];
}

/* A job's account or QOS as sprio prints it: printf's "(null)" when the
 * job has none. */
static struct prio_cell name_or_null(const struct prio_snapshot *snap, prio_id id)
{
	return id == PRIO_NO_ID ? prio_cell_label("(null)")
				: prio_cell_str(prio_snapshot_str(snap, id));
}

static double norm_of(double weighted, uint32_t weight)
{
	return weight ? weighted / (double)weight : 0.0;
}

int prio_sprio_row_cells(struct prio_sprio_table *t,
			 const struct prio_engine *e,
			 const struct prio_job *job,
			 const struct prio_job_factors *jf,
			 const struct prio_row *row)
{
	return prio_sprio_row_cells_qos(t, e, job, jf, row, job->qos);
}

int prio_sprio_row_cells_qos(struct prio_sprio_table *t,
			     const struct prio_engine *e,
			     const struct prio_job *job,
			     const struct prio_job_factors *jf,
			     const struct prio_row *row, prio_id qos)
{
	const struct prio_snapshot *snap = e->snap;
	const struct prio_config *conf = &snap->conf;
	bool tres_done = false;

	if (e->tres_count && !t->tres_factor) {
		t->tres_factor = calloc(e->tres_count, sizeof(double));
		if (!t->tres_factor)
			return PRIO_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		char l = t->letters[i];
		int f = letter_factor(l);
		struct prio_cell *c = &t->cells[i];

		if (f >= 0) {
			double v = f == PRIO_FACTOR_AGE ? jf->age
				   : f == PRIO_FACTOR_ASSOC ? jf->assoc
				   : f == PRIO_FACTOR_FAIRSHARE ? jf->fairshare
				   : f == PRIO_FACTOR_JOBSIZE ? jf->jobsize
				   : f == PRIO_FACTOR_QOS ? jf->qos
							  : row->partition_factor;
			double w = prio_weighted(e, f, v);

			*c = l >= 'a' ? prio_cell_double(
					    norm_of(w, conf_weight(conf, f)))
				      : weighted_cell(t, w);
			continue;
		}
		switch (l) {
		case 'i':
			*c = prio_cell_uint(job->job_id);
			break;
		case 'r':
			*c = prio_cell_str(prio_snapshot_str(
			    snap, snap->partitions[row->partition].name));
			break;
		case 'u':
			*c = prio_cell_str(prio_snapshot_str(snap, job->user));
			break;
		case 'o':
			*c = name_or_null(snap, job->account);
			break;
		case 'n':
			*c = name_or_null(snap, qos);
			break;
		case 'c':
			/* not in a federation: printf of a NULL name */
			*c = prio_cell_label("(null)");
			break;
		case 'Y':
			*c = prio_cell_int(row->sum >= 9.2e18
					       ? INT64_MAX
					       : (int64_t)row->sum);
			break;
		case 'y':
			*c = prio_cell_double(row->sum / 4294967295.0);
			break;
		case 'S':
			*c = prio_cell_int(jf->site);
			break;
		case 'N':
			*c = prio_cell_int(jf->nice);
			break;
		case 't':
		case 'T': {
			const char *s;

			if (!tres_done && e->tres_count) {
				prio_row_tres(e, job, row->partition,
					      t->tres_factor);
				tres_done = true;
			}
			s = tres_text(t, i, e, l == 't');
			if (!s)
				return PRIO_ERR_NOMEM;
			*c = prio_cell_str(s);
			break;
		}
		default:
			*c = prio_cell_blank();
		}
	}
	return PRIO_OK;
}

int prio_sprio_weights_cells(struct prio_sprio_table *t,
			     const struct prio_config *conf)
{
	for (size_t i = 0; i < t->ncols; i++) {
		char l = t->letters[i];
		int f = letter_factor(l);
		struct prio_cell *c = &t->cells[i];

		if (f >= 0)
			*c = prio_cell_uint(conf_weight(conf, f));
		else if (l == 'i')
			*c = prio_cell_label("Weights");
		else if (l == 'S')
			*c = prio_cell_uint(1);
		else if (l == 'T' && tres_weighted(conf))
			*c = prio_cell_str(conf->weight_tres.text);
		else
			*c = prio_cell_blank();
	}
	return PRIO_OK;
}

/* ---- -S ------------------------------------------------------------------ */

int prio_sprio_sort_parse(const char *spec, struct prio_sprio_sort *s,
			  char *why, size_t why_size)
{
	return prio_sprio_sort_parse_in(prio_sprio_release(PRIO_SLURM_OLDEST),
					spec, s, why, why_size);
}

int prio_sprio_sort_parse_in(const struct prio_sprio_release *rel,
			     const char *spec, struct prio_sprio_sort *s,
			     char *why, size_t why_size)
{
	const char *valid = rel->sort_keys;
	bool desc = false;

	memset(s, 0, sizeof(*s));
	for (const char *p = spec; *p; p++) {
		if (*p == ',' || *p == '+') {
			desc = false;
			continue;
		}
		if (*p == '-') {
			desc = true;
			continue;
		}
		if (!strchr(valid, *p)) {
			snprintf(why, why_size, "Invalid sort specification: %c",
				 *p);
			return PRIO_ERR_USAGE;
		}
		if (s->nkeys == sizeof(s->keys)) {
			snprintf(why, why_size, "too many sort keys (at most %zu)",
				 sizeof(s->keys));
			return PRIO_ERR_USAGE;
		}
		s->keys[s->nkeys] = *p;
		s->desc[s->nkeys++] = desc;
		desc = false;
	}
	return PRIO_OK;
}

bool prio_sprio_sort_is_job_id(const struct prio_sprio_sort *s)
{
	return s->nkeys == 0 || (s->nkeys == 1 && s->keys[0] == 'i' &&
				 !s->desc[0]);
}

struct sort_ctx {
	const struct prio_engine *e;
	const struct prio_sprio_sort *s;
};

static int cmp_double(double a, double b)
{
	double d = a - b;

	if (d > -0.00001 && d < 0.00001) /* sprio's fuzzy_equal */
		return 0;
	return a < b ? -1 : 1;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Names as sprio's xstrcmp orders them: none before any. */
static int cmp_name(const struct prio_snapshot *snap, prio_id a, prio_id b)
{
	if (a == PRIO_NO_ID || b == PRIO_NO_ID)
		return (a != PRIO_NO_ID) - (b != PRIO_NO_ID);
	return strcmp(prio_snapshot_str(snap, a), prio_snapshot_str(snap, b));
}

static double rec_weighted(const struct prio_engine *e,
			   const struct prio_sprio_rec *r, int f)
{
	double v = f == PRIO_FACTOR_AGE ? r->jf.age
		   : f == PRIO_FACTOR_ASSOC ? r->jf.assoc
		   : f == PRIO_FACTOR_FAIRSHARE ? r->jf.fairshare
		   : f == PRIO_FACTOR_JOBSIZE ? r->jf.jobsize
		   : f == PRIO_FACTOR_QOS ? r->jf.qos
					  : r->row.partition_factor;
	return prio_weighted(e, f, v);
}

static int cmp_key(const struct prio_engine *e, char key,
		   const struct prio_sprio_rec *a,
		   const struct prio_sprio_rec *b)
{
	const struct prio_snapshot *snap = e->snap;
	int f = letter_factor(key);

	if (f >= 0)
		return cmp_double(rec_weighted(e, a, f), rec_weighted(e, b, f));
	switch (key) {
	case 'i':
		return cmp_u64(a->job->job_id, b->job->job_id);
	case 'N':
		return a->jf.nice < b->jf.nice ? -1 : a->jf.nice > b->jf.nice;
	case 'r':
		return strcmp(
		    prio_snapshot_str(snap, snap->partitions[a->row.partition].name),
		    prio_snapshot_str(snap, snap->partitions[b->row.partition].name));
	case 'u':
		return strcmp(prio_snapshot_str(snap, a->job->user),
			      prio_snapshot_str(snap, b->job->user));
	case 'o':
		return cmp_name(snap, a->job->account, b->job->account);
	case 'n':
		return cmp_name(snap, a->qos, b->qos);
	case 't':
	case 'T':
		return cmp_double(a->row.tres_sum, b->row.tres_sum);
	case 'y':
	case 'Y':
		return cmp_double(a->row.sum, b->row.sum);
	case 'c':
	default:
		return 0;
	}
}

static int cmp_recs(const void *pa, const void *pb, void *vctx)
{
	const struct sort_ctx *ctx = vctx;
	const struct prio_sprio_rec *a = pa, *b = pb;

	for (size_t k = 0; k < ctx->s->nkeys; k++) {
		int c = cmp_key(ctx->e, ctx->s->keys[k], a, b);

		if (c)
			return ctx->s->desc[k] ? -c : c;
	}
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int prio_sprio_sort_recs(const struct prio_engine *e,
			 const struct prio_sprio_sort *s,
			 struct prio_sprio_rec *recs, size_t n)
{
	struct sort_ctx ctx = {e, s};
	struct prio_sprio_sort dflt = {.keys = {'i'}, .nkeys = 1};

	if (s->nkeys == 0)
		ctx.s = &dflt;
	for (size_t i = 0; i < n; i++)
		recs[i].seq = (uint32_t)i;
	qsort_r(recs, n, sizeof(*recs), cmp_recs, &ctx);
	return PRIO_OK;
}
