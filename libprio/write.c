/* SPDX-License-Identifier: MIT */
/*
 * Table writers (DESIGN §1 "Writers", §3): Slurm-identical fixed-width text
 * in sprio's or print_fields' manner, '|'-separated parsable output, CSV and
 * JSON.
 *
 * How the text styles map to Slurm (slurm-facts §6 and §7; byte-checked
 * against tests/oracle/fairtree-basic/sprio_*.txt and sshare_*.txt):
 *  - sprio: "%.15i" is the value right-justified in 15 columns, "%9r" left-
 *    justified; in both cases a longer value is cut to its first 15 (9)
 *    characters, which is how "%16.14f" PRIORITY becomes "0.00000153" in a
 *    "%10y" column.  Literal text of the format string sits between fields.
 *  - print_fields (sshare, sacctmgr): each field, then one space; strings
 *    longer than the column keep width-1 characters and a '+'; doubles use
 *    "%f" and, when that overflows the column, the exponent form whose
 *    precision is reduced by the overflow so it fits; sentinels print blank.
 *    The header row cuts names without a '+', and a dash row follows.
 *
 * Speed: a row is built in one reused buffer and written with one fwrite;
 * numbers go through snprintf into a fixed scratch buffer.  JSON keeps one
 * jansson object for the row and mutates its values, so it allocates only
 * for string values.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>
#include <jansson.h>

#include "prio/error.h"
#include "prio/write.h"

/* Big enough for any double in any of our formats ("%.14f" of DBL_MAX is
 * 324 characters) and any exponent form that has to fit a column narrower
 * than the "%f" text. */
#define NUMBUF_SIZE 512

struct prio_writer {
	FILE *out;
	enum prio_output_mode mode;
	enum prio_text_style style;
	const struct prio_column *cols;
	size_t ncols;
	char *prefix;

	char *buf; /* the line being built */
	size_t len, cap;
	bool nomem;

	bool io_failed;
	int saved_errno;

	char **keys; /* JSON keys / CSV header: unique column ids */
	size_t nrows;

	/* JSON: the row object and, per column, reusable values. */
	json_t *row;
	json_t **jint, **jreal, **jstr;
	char *scratch; /* UTF-8 repair */
	size_t scratch_cap;

	char num[NUMBUF_SIZE];
};

/* ---- line buffer -------------------------------------------------------- */

static bool lb_reserve(struct prio_writer *w, size_t extra)
{
	if (w->nomem)
		return false;
	if (w->cap - w->len >= extra)
		return true;
	size_t cap = w->cap ? w->cap : 256;
	while (cap - w->len < extra) {
		if (cap > SIZE_MAX / 2) {
			w->nomem = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(w->buf, cap);
	if (!p) {
		w->nomem = true;
		return false;
	}
	w->buf = p;
	w->cap = cap;
	return true;
}

static void lb_put(struct prio_writer *w, const char *s, size_t n)
{
	if (n && lb_reserve(w, n)) {
		memcpy(w->buf + w->len, s, n);
		w->len += n;
	}
}

static void lb_putc(struct prio_writer *w, char c)
{
	if (lb_reserve(w, 1))
		w->buf[w->len++] = c;
}

static void lb_fill(struct prio_writer *w, char c, size_t n)
{
	if (n && lb_reserve(w, n)) {
		memset(w->buf + w->len, c, n);
		w->len += n;
	}
}

/* Write the built line; remember the first failure and its errno. */
static int lb_flush(struct prio_writer *w)
{
	if (w->nomem) {
		w->len = 0;
		return PRIO_ERR_NOMEM;
	}
	if (!w->io_failed && w->len) {
		errno = 0;
		if (fwrite(w->buf, 1, w->len, w->out) != w->len ||
		    ferror(w->out)) {
			w->io_failed = true;
			w->saved_errno = errno ? errno : EIO;
		}
	}
	w->len = 0;
	if (w->io_failed) {
		errno = w->saved_errno;
		return PRIO_ERR_IO;
	}
	return 0;
}

/* ---- rendering one value ------------------------------------------------ */

static bool is_pf(enum prio_numfmt f)
{
	return f == PRIO_NUMFMT_PF || f == PRIO_NUMFMT_PF32;
}

/* print_fields treats these double values as "not set". */
static bool pf_double_sentinel(double d)
{
	return d == (double)PRIO_NO_VAL || d == (double)PRIO_INFINITE ||
	       d == (double)PRIO_NO_VAL64 || d == (double)PRIO_INFINITE64;
}

static bool cell_is_blank(const struct prio_column *col,
			  const struct prio_cell *cell)
{
	switch (cell->kind) {
	case PRIO_CELL_STR:
		return cell->s == NULL;
	case PRIO_CELL_INT:
	case PRIO_CELL_BOOL:
		return false;
	case PRIO_CELL_UINT:
		if (!is_pf(col->numfmt))
			return false;
		if (cell->u == PRIO_NO_VAL64 || cell->u == PRIO_INFINITE64)
			return true;
		return col->numfmt == PRIO_NUMFMT_PF32 &&
		       (cell->u == PRIO_NO_VAL || cell->u == PRIO_INFINITE);
	case PRIO_CELL_DOUBLE:
		return is_pf(col->numfmt) && pf_double_sentinel(cell->d);
	case PRIO_CELL_BLANK:
	default:
		return true;
	}
}

/*
 * print_fields' double rule: "%f"; when that is wider than the column, the
 * exponent form with the precision first set to the width and then reduced
 * by however much that overflows (slurm-facts §7: width 10, 12345.678 gives
 * "1.2346e+04").
 */
static int render_pf_double(double d, int width, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%f", d);

	if (width <= 0 || n <= width || !isfinite(d))
		return n;
	int prec = width;
	int elen = snprintf(NULL, 0, "%.*e", prec, d);
	prec -= elen - width;
	if (prec < 0)
		prec = 0;
	return snprintf(buf, size, "%.*e", prec, d);
}

/* Decimal digits of v, like "%llu" but without printf's parsing: integer
 * columns (job ids, priorities) are the bulk of every table. */
static int render_u64(uint64_t v, bool neg, char *buf, size_t size)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		tmp[sizeof(tmp) - 1 - n++] = '-';
	if (size) {
		size_t c = (size_t)n < size - 1 ? (size_t)n : size - 1;
		memcpy(buf, tmp + sizeof(tmp) - n, c);
		buf[c] = '\0';
	}
	return n;
}

int prio_cell_render(const struct prio_column *col,
		     const struct prio_cell *cell, int width, char *buf,
		     size_t size)
{
	if (size)
		buf[0] = '\0';
	if (cell_is_blank(col, cell))
		return -1;
	switch (cell->kind) {
	case PRIO_CELL_STR: {
		size_t n = strlen(cell->s);
		if (size) {
			size_t c = n < size - 1 ? n : size - 1;
			memcpy(buf, cell->s, c);
			buf[c] = '\0';
		}
		return n > INT32_MAX ? INT32_MAX : (int)n;
	}
	case PRIO_CELL_BOOL:
		return snprintf(buf, size, "%s", cell->b ? "yes" : "no");
	case PRIO_CELL_INT:
		if (cell->i < 0)
			return render_u64(-(uint64_t)cell->i, true, buf, size);
		return render_u64((uint64_t)cell->i, false, buf, size);
	case PRIO_CELL_UINT:
		return render_u64(cell->u, false, buf, size);
	case PRIO_CELL_DOUBLE:
		switch (col->numfmt) {
		case PRIO_NUMFMT_FIXED0:
			return snprintf(buf, size, "%.0f", cell->d);
		case PRIO_NUMFMT_FIXED2:
			return snprintf(buf, size, "%.2f", cell->d);
		case PRIO_NUMFMT_FIXED7:
			return snprintf(buf, size, "%.7f", cell->d);
		case PRIO_NUMFMT_PRIO16:
			return snprintf(buf, size, "%16.14f", cell->d);
		case PRIO_NUMFMT_PF:
		case PRIO_NUMFMT_PF32:
			return render_pf_double(cell->d, width, buf, size);
		case PRIO_NUMFMT_PLAIN:
		default:
			return snprintf(buf, size, "%f", cell->d);
		}
	case PRIO_CELL_BLANK:
	default:
		return -1;
	}
}

/*
 * The text of a cell without allocating: strings point at the caller's
 * memory, numbers at w->num.  Returns false for a blank cell.
 */
static bool cell_text(struct prio_writer *w, const struct prio_column *col,
		      const struct prio_cell *cell, int width, const char **p,
		      size_t *n)
{
	if (cell->kind == PRIO_CELL_STR) {
		if (!cell->s)
			return false;
		*p = cell->s;
		*n = strlen(cell->s);
		return true;
	}
	int len = prio_cell_render(col, cell, width, w->num, sizeof(w->num));
	if (len < 0)
		return false;
	if ((size_t)len >= sizeof(w->num))
		len = (int)sizeof(w->num) - 1;
	*p = w->num;
	*n = (size_t)len;
	return true;
}

/* ---- text styles -------------------------------------------------------- */

/* sprio: justify in the width, which is also a maximum; 0 = natural. */
static void put_sprio_field(struct prio_writer *w,
			    const struct prio_column *col, const char *p,
			    size_t n)
{
	size_t width = col->width > 0 ? (size_t)col->width : 0;

	if (width) {
		if (n > width)
			n = width;
		if (col->right)
			lb_fill(w, ' ', width - n);
		lb_put(w, p, n);
		if (!col->right)
			lb_fill(w, ' ', width - n);
	} else {
		lb_put(w, p, n);
	}
	if (col->suffix)
		lb_put(w, col->suffix, strlen(col->suffix));
}

/* print_fields: pad to the width; cut_plus cuts a longer value to width-1
 * characters and a '+', cut_plain (header names) just cuts. */
enum pf_cut { PF_NOCUT, PF_CUT_PLUS, PF_CUT_PLAIN };

static void put_pf_field(struct prio_writer *w, const struct prio_column *col,
			 const char *p, size_t n, enum pf_cut cut)
{
	size_t width = col->width > 0 ? (size_t)col->width : 0;

	if (width && n > width && cut != PF_NOCUT) {
		if (cut == PF_CUT_PLUS) {
			lb_put(w, p, width - 1);
			lb_putc(w, '+');
		} else {
			lb_put(w, p, width);
		}
	} else {
		size_t pad = n < width ? width - n : 0;
		if (col->right)
			lb_fill(w, ' ', pad);
		lb_put(w, p, n);
		if (!col->right)
			lb_fill(w, ' ', pad);
	}
	lb_putc(w, ' ');
}

static void text_header(struct prio_writer *w)
{
	if (w->style == PRIO_STYLE_SPRIO) {
		if (w->prefix)
			lb_put(w, w->prefix, strlen(w->prefix));
		for (size_t i = 0; i < w->ncols; i++) {
			const char *h =
			    w->cols[i].header ? w->cols[i].header : "";
			put_sprio_field(w, &w->cols[i], h, strlen(h));
		}
		lb_putc(w, '\n');
		return;
	}
	for (size_t i = 0; i < w->ncols; i++) {
		const char *h = w->cols[i].header ? w->cols[i].header : "";
		put_pf_field(w, &w->cols[i], h, strlen(h), PF_CUT_PLAIN);
	}
	lb_putc(w, '\n');
	for (size_t i = 0; i < w->ncols; i++) {
		const struct prio_column *c = &w->cols[i];
		size_t dashes = c->width > 0
				    ? (size_t)c->width
				    : strlen(c->header ? c->header : "");
		lb_fill(w, '-', dashes);
		lb_putc(w, ' ');
	}
	lb_putc(w, '\n');
}

static void text_row(struct prio_writer *w, const struct prio_cell *cells)
{
	const char *p;
	size_t n;

	if (w->style == PRIO_STYLE_SPRIO) {
		if (w->prefix)
			lb_put(w, w->prefix, strlen(w->prefix));
		for (size_t i = 0; i < w->ncols; i++) {
			const struct prio_column *c = &w->cols[i];
			if (!cell_text(w, c, &cells[i], c->width, &p, &n)) {
				p = "";
				n = 0;
			}
			put_sprio_field(w, c, p, n);
		}
	} else {
		for (size_t i = 0; i < w->ncols; i++) {
			const struct prio_column *c = &w->cols[i];
			if (!cell_text(w, c, &cells[i], c->width, &p, &n)) {
				/* print_fields pads a blank to the width */
				put_pf_field(w, c, "", 0, PF_NOCUT);
				continue;
			}
			put_pf_field(w, c, p, n,
				     cells[i].kind == PRIO_CELL_STR
					 ? PF_CUT_PLUS
					 : PF_NOCUT);
		}
	}
	lb_putc(w, '\n');
}

/* ---- parsable and CSV --------------------------------------------------- */

static void put_sep(struct prio_writer *w, size_t i)
{
	if (w->mode == PRIO_OUT_PARSABLE)
		lb_putc(w, '|');
	else if (w->mode == PRIO_OUT_PARSABLE2 && i + 1 < w->ncols)
		lb_putc(w, '|');
	else if (w->mode == PRIO_OUT_CSV && i + 1 < w->ncols)
		lb_putc(w, ',');
}

static bool csv_needs_quotes(const char *p, size_t n)
{
	if (n == 0)
		return false;
	if (p[0] == ' ' || p[n - 1] == ' ')
		return true;
	for (size_t i = 0; i < n; i++)
		if (p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r')
			return true;
	return false;
}

static void put_csv_value(struct prio_writer *w, const char *p, size_t n)
{
	if (!csv_needs_quotes(p, n)) {
		lb_put(w, p, n);
		return;
	}
	/* worst case every byte is a quote: 2n + 2 */
	if (n > (SIZE_MAX - 2) / 2) {
		w->nomem = true;
		return;
	}
	if (!lb_reserve(w, 2 * n + 2))
		return;
	w->len += csv_write(w->buf + w->len, w->cap - w->len, p, n);
}

static void sep_header(struct prio_writer *w)
{
	for (size_t i = 0; i < w->ncols; i++) {
		if (w->mode == PRIO_OUT_CSV) {
			put_csv_value(w, w->keys[i], strlen(w->keys[i]));
		} else {
			const char *h =
			    w->cols[i].header ? w->cols[i].header : "";
			lb_put(w, h, strlen(h));
		}
		put_sep(w, i);
	}
	lb_putc(w, '\n');
}

static void sep_row(struct prio_writer *w, const struct prio_cell *cells)
{
	const char *p;
	size_t n;

	for (size_t i = 0; i < w->ncols; i++) {
		if (cell_text(w, &w->cols[i], &cells[i], 0, &p, &n)) {
			if (w->mode == PRIO_OUT_CSV)
				put_csv_value(w, p, n);
			else
				lb_put(w, p, n);
		}
		put_sep(w, i);
	}
	lb_putc(w, '\n');
}

/* ---- JSON --------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if invalid.
 * Same rules as jansson: no overlongs, no surrogates, nothing past U+10FFFF. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Copy s into w->scratch with every invalid byte replaced by U+FFFD. */
static const char *utf8_repair(struct prio_writer *w, const char *s)
{
	size_t n = strlen(s);

	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	if (w->scratch_cap < 3 * n + 1) {
		char *p = realloc(w->scratch, 3 * n + 1);
		if (!p)
			return NULL;
		w->scratch = p;
		w->scratch_cap = 3 * n + 1;
	}
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq(u + i, n - i);
		if (l) {
			memcpy(w->scratch + o, s + i, l);
			o += l;
			i += l;
		} else {
			memcpy(w->scratch + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	w->scratch[o] = '\0';
	return w->scratch;
}

static json_t *json_str_value(struct prio_writer *w, size_t i, const char *s)
{
	if (json_string_set(w->jstr[i], s) == 0)
		return w->jstr[i];
	const char *fixed = utf8_repair(w, s);
	if (!fixed || json_string_set(w->jstr[i], fixed) != 0)
		return NULL;
	return w->jstr[i];
}

static json_t *json_cell_value(struct prio_writer *w, size_t i,
			       const struct prio_cell *cell)
{
	const struct prio_column *c = &w->cols[i];

	if (cell_is_blank(c, cell))
		return json_null();
	switch (cell->kind) {
	case PRIO_CELL_STR:
		/* A blank cell is null (prio-tools(7) "JSON OUTPUT"), whether
		 * the table left it empty or prints a label in its place. */
		if (!cell->s[0] || cell->label)
			return json_null();
		return json_str_value(w, i, cell->s);
	case PRIO_CELL_BOOL:
		return cell->b ? json_true() : json_false();
	case PRIO_CELL_INT:
		json_integer_set(w->jint[i], (json_int_t)cell->i);
		return w->jint[i];
	case PRIO_CELL_UINT:
		if (cell->u <= (uint64_t)INT64_MAX) {
			json_integer_set(w->jint[i], (json_int_t)cell->u);
			return w->jint[i];
		}
		json_real_set(w->jreal[i], (double)cell->u);
		return w->jreal[i];
	case PRIO_CELL_DOUBLE:
		if (isnan(cell->d))
			return json_str_value(w, i, "nan");
		if (isinf(cell->d))
			return json_str_value(w, i,
					      cell->d > 0 ? "inf" : "-inf");
		json_real_set(w->jreal[i], cell->d);
		return w->jreal[i];
	case PRIO_CELL_BLANK:
	default:
		return json_null();
	}
}

static void json_row(struct prio_writer *w, const struct prio_cell *cells)
{
	for (size_t i = 0; i < w->ncols; i++) {
		json_t *v = json_cell_value(w, i, &cells[i]);
		if (!v || json_object_set(w->row, w->keys[i], v) != 0) {
			w->nomem = true;
			return;
		}
	}
	lb_put(w, w->nrows ? ",\n" : "\n", w->nrows ? 2 : 1);
	if (w->nomem)
		return;
	/* DBL_DIG (15) significant digits: every decimal a double holds
	 * exactly, without the binary noise of 17 (300.0000000000001 of a
	 * weight times 0.15 prints 300.0). */
	const size_t flags = JSON_COMPACT | JSON_REAL_PRECISION(15);
	size_t need =
	    json_dumpb(w->row, w->buf + w->len, w->cap - w->len, flags);
	if (need == 0) {
		w->nomem = true;
		return;
	}
	if (need > w->cap - w->len) {
		if (!lb_reserve(w, need))
			return;
		need =
		    json_dumpb(w->row, w->buf + w->len, w->cap - w->len, flags);
		if (need == 0 || need > w->cap - w->len) {
			w->nomem = true;
			return;
		}
	}
	w->len += need;
}

static int json_setup(struct prio_writer *w)
{
	w->row = json_object();
	w->jint = calloc(w->ncols ? w->ncols : 1, sizeof(*w->jint));
	w->jreal = calloc(w->ncols ? w->ncols : 1, sizeof(*w->jreal));
	w->jstr = calloc(w->ncols ? w->ncols : 1, sizeof(*w->jstr));
	if (!w->row || !w->jint || !w->jreal || !w->jstr)
		return -1;
	for (size_t i = 0; i < w->ncols; i++) {
		w->jint[i] = json_integer(0);
		w->jreal[i] = json_real(0.0);
		w->jstr[i] = json_string("");
		if (!w->jint[i] || !w->jreal[i] || !w->jstr[i])
			return -1;
		/* insert every key now: jansson keeps insertion order */
		if (json_object_set_new(w->row, w->keys[i], json_null()) != 0)
			return -1;
	}
	return 0;
}

/* ---- keys --------------------------------------------------------------- */

/*
 * Unique keys for JSON and the CSV header: the id, else the header, else
 * "column_N"; a repeated key gets "_2", "_3"...  A jansson object serves as
 * the set of keys taken, so this stays linear in the number of columns.
 */
/*
 * The shared JSON key of a column id that CSV headers keep for
 * compatibility (prio-tools(7) "JSON OUTPUT": one key per concept in every
 * tool).  preempt-plan's plan said "jobid", sreport's tables say "login",
 * and the squeue -o queue of preempt-plan --queue names its columns by
 * squeue's headers; JSON gets the key every other table uses.
 */
static const char *json_key(const char *id)
{
	static const char *const map[][2] = {
	    {"jobid", "job_id"},	    {"login", "user"},
	    {"JOBID", "job_id"},	    {"PARTITION", "partition"},
	    {"NAME", "name"},		    {"USER", "user"},
	    {"ST", "state"},		    {"STATE", "state_long"},
	    {"TIME", "time_used"},	    {"NODES", "nodes"},
	    {"NODELIST(REASON)", "nodelist_reason"},
	    {"NODELIST", "nodelist"},	    {"CPUS", "cpus"},
	    {"QOS", "qos"},		    {"ACCOUNT", "account"},
	    {"TIME_LIMIT", "time_limit"}, {"REASON", "reason"},
	    {"PRIORITY", "priority"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(id, map[i][0]) == 0)
			return map[i][1];
	return id;
}

static int make_keys(struct prio_writer *w)
{
	json_t *taken = json_object();
	int rc = -1;

	w->keys = calloc(w->ncols ? w->ncols : 1, sizeof(*w->keys));
	if (!taken || !w->keys)
		goto out;
	for (size_t i = 0; i < w->ncols; i++) {
		const struct prio_column *c = &w->cols[i];
		const char *base = c->id && *c->id	     ? c->id
				   : c->header && *c->header ? c->header
							     : NULL;
		char tmp[48];
		if (!base) {
			snprintf(tmp, sizeof(tmp), "column_%zu", i + 1);
			base = tmp;
		} else if (w->mode == PRIO_OUT_JSON) {
			base = json_key(base);
		}
		size_t blen = strlen(base);
		char *key = malloc(blen + 24);
		if (!key)
			goto out;
		memcpy(key, base, blen + 1);
		w->keys[i] = key;
		/* taken[key] holds the next suffix to try for that base */
		json_t *seen = json_object_get(taken, key);
		if (seen) {
			json_int_t k = json_integer_value(seen);
			do
				snprintf(key + blen, 24, "_%lld",
					 (long long)k++);
			while (json_object_get(taken, key));
			if (json_integer_set(seen, k) != 0)
				goto out;
		}
		if (json_object_set_new(taken, key, json_integer(2)) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(taken);
	return rc;
}

/* ---- public ------------------------------------------------------------- */

static void writer_free(struct prio_writer *w)
{
	if (!w)
		return;
	if (w->keys)
		for (size_t i = 0; i < w->ncols; i++)
			free(w->keys[i]);
	free(w->keys);
	for (size_t i = 0; i < w->ncols; i++) {
		if (w->jint)
			json_decref(w->jint[i]);
		if (w->jreal)
			json_decref(w->jreal[i]);
		if (w->jstr)
			json_decref(w->jstr[i]);
	}
	free(w->jint);
	free(w->jreal);
	free(w->jstr);
	json_decref(w->row);
	free(w->scratch);
	free(w->prefix);
	free(w->buf);
	free(w);
}

struct prio_writer *prio_writer_new(FILE *out, enum prio_output_mode mode,
				    enum prio_text_style style,
				    const struct prio_column *cols,
				    size_t ncols, bool header,
				    const char *prefix)
{
	if (!out || (ncols && !cols) || (unsigned)mode > PRIO_OUT_JSON ||
	    (unsigned)style > PRIO_STYLE_SSHARE) {
		errno = EINVAL;
		return NULL;
	}
	struct prio_writer *w = calloc(1, sizeof(*w));
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->out = out;
	w->mode = mode;
	w->style = style;
	w->cols = cols;
	w->ncols = ncols;
	if (prefix && *prefix && mode == PRIO_OUT_TEXT &&
	    style == PRIO_STYLE_SPRIO) {
		w->prefix = strdup(prefix);
		if (!w->prefix)
			goto nomem;
	}
	if ((mode == PRIO_OUT_CSV || mode == PRIO_OUT_JSON) &&
	    make_keys(w) != 0)
		goto nomem;
	if (mode == PRIO_OUT_JSON && json_setup(w) != 0)
		goto nomem;

	if (mode == PRIO_OUT_JSON)
		lb_putc(w, '[');
	else if (header && mode == PRIO_OUT_TEXT)
		text_header(w);
	else if (header)
		sep_header(w);
	if (w->nomem)
		goto nomem;
	/* a write error here is kept and reported by row() and finish() */
	(void)lb_flush(w);
	return w;
nomem:
	writer_free(w);
	errno = ENOMEM;
	return NULL;
}

int prio_writer_json_key(struct prio_writer *w, const char *id, const char *key)
{
	if (!w || w->mode != PRIO_OUT_JSON || w->nrows)
		return 0;
	for (size_t i = 0; i < w->ncols; i++) {
		if (!w->cols[i].id || strcmp(w->cols[i].id, id) != 0)
			continue;
		char *k = strdup(key);

		if (!k)
			return PRIO_ERR_NOMEM;
		free(w->keys[i]);
		w->keys[i] = k;
	}
	/* the row object again, keys in column order */
	json_object_clear(w->row);
	for (size_t i = 0; i < w->ncols; i++)
		if (json_object_set_new(w->row, w->keys[i], json_null()) != 0)
			return PRIO_ERR_NOMEM;
	return 0;
}

int prio_writer_row(struct prio_writer *w, const struct prio_cell *cells)
{
	if (w->io_failed) {
		errno = w->saved_errno;
		return PRIO_ERR_IO;
	}
	switch (w->mode) {
	case PRIO_OUT_TEXT:
		text_row(w, cells);
		break;
	case PRIO_OUT_JSON:
		json_row(w, cells);
		break;
	case PRIO_OUT_PARSABLE:
	case PRIO_OUT_PARSABLE2:
	case PRIO_OUT_CSV:
	default:
		sep_row(w, cells);
		break;
	}
	int rc = lb_flush(w);
	if (rc == PRIO_ERR_NOMEM)
		w->nomem = false; /* this row is lost; the caller decides */
	else
		w->nrows++;
	return rc;
}

int prio_writer_finish(struct prio_writer *w)
{
	if (!w)
		return 0;
	if (w->mode == PRIO_OUT_JSON) {
		lb_put(w, w->nrows ? "\n]\n" : "]\n", w->nrows ? 3 : 2);
		(void)lb_flush(w);
	}
	if (!w->io_failed) {
		errno = 0;
		if (fflush(w->out) != 0 || ferror(w->out)) {
			w->io_failed = true;
			w->saved_errno = errno ? errno : EIO;
		}
	}
	bool failed = w->io_failed;
	int saved = w->saved_errno;
	writer_free(w);
	if (failed) {
		errno = saved;
		return PRIO_ERR_IO;
	}
	return 0;
}
