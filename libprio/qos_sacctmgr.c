/* SPDX-License-Identifier: MIT */
/*
 * Quality of service records from `sacctmgr -P show qos` (or `-p`, which
 * ends every line with '|'), with any subset and order of columns as long
 * as Name is there (a `format=` list); headers match in any case.
 *
 * Columns read (slurm-facts §9): Name, ID, Priority, GraceTime (a time
 * string, kept in seconds), Preempt (the comma list of QOS this one may
 * preempt), PreemptExemptTime (blank: unset, PRIO_INFINITE), PreemptMode
 * ("cluster", like "off", is 0: inherit the cluster's mode), Flags (NoDecay
 * and OverPartQOS as bits, the whole list kept as text), UsageThres and
 * UsageFactor (blank: 1.0); the limits the forecast applies (GrpJobs,
 * MaxJobsPU, MaxJobsPA: counts; GrpTRES, MaxTRESPU, MaxTRESPA: TRES lists,
 * blank when unset) and, by name only, those that change with usage
 * (GrpTRESMins, GrpTRESRunMins, GrpWall, MaxTRESRunMinsPA/PU).  Other
 * columns (per-job limits, Description) are read past harmlessly.
 *
 * prio_qos_link() (in prio_snapshot_finish) checks that every Preempt entry
 * names a QOS that exists; duplicate names are refused by the snapshot's
 * index step.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loadcache.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

#define MAX_COLS 64

enum qcol {
	Q_NAME,
	Q_ID,
	Q_PRIORITY,
	Q_GRACE_TIME,
	Q_PREEMPT,
	Q_PREEMPT_EXEMPT_TIME,
	Q_PREEMPT_MODE,
	Q_FLAGS,
	Q_USAGE_THRES,
	Q_USAGE_FACTOR,
	Q_GRP_JOBS,
	Q_MAX_JOBS_PU,
	Q_MAX_JOBS_PA,
	Q_GRP_TRES,
	Q_MAX_TRES_PU,
	Q_MAX_TRES_PA,
	Q_GRP_TRES_MINS,
	Q_GRP_TRES_RUN_MINS,
	Q_GRP_WALL,
	Q_MAX_TRES_RUN_MINS_PA,
	Q_MAX_TRES_RUN_MINS_PU,
	Q_COUNT,
	Q_OTHER = Q_COUNT
};

/* Header as sacctmgr prints it, and the name format= takes. */
static const char *const qcol_names[Q_COUNT][2] = {
    [Q_NAME] = {"Name", NULL},
    [Q_ID] = {"ID", NULL},
    [Q_PRIORITY] = {"Priority", NULL},
    [Q_GRACE_TIME] = {"GraceTime", NULL},
    [Q_PREEMPT] = {"Preempt", NULL},
    [Q_PREEMPT_EXEMPT_TIME] = {"PreemptExemptTime", NULL},
    [Q_PREEMPT_MODE] = {"PreemptMode", NULL},
    [Q_FLAGS] = {"Flags", NULL},
    [Q_USAGE_THRES] = {"UsageThres", "UsageThreshold"},
    [Q_USAGE_FACTOR] = {"UsageFactor", NULL},
    [Q_GRP_JOBS] = {"GrpJobs", NULL},
    [Q_MAX_JOBS_PU] = {"MaxJobsPU", "MaxJobsPerUser"},
    [Q_MAX_JOBS_PA] = {"MaxJobsPA", "MaxJobsPerAccount"},
    [Q_GRP_TRES] = {"GrpTRES", NULL},
    [Q_MAX_TRES_PU] = {"MaxTRESPU", "MaxTRESPerUser"},
    [Q_MAX_TRES_PA] = {"MaxTRESPA", "MaxTRESPerAccount"},
    [Q_GRP_TRES_MINS] = {"GrpTRESMins", NULL},
    [Q_GRP_TRES_RUN_MINS] = {"GrpTRESRunMins", NULL},
    [Q_GRP_WALL] = {"GrpWall", NULL},
    [Q_MAX_TRES_RUN_MINS_PA] = {"MaxTRESRunMinsPA", "MaxTRESRunMinsPerAccount"},
    [Q_MAX_TRES_RUN_MINS_PU] = {"MaxTRESRunMinsPU", "MaxTRESRunMinsPerUser"},
};

struct qos_load {
	struct prio_snapshot *snap;
	const struct prio_source *src;
	const char *file; /* src->name in the arena, for the records */
	enum qcol col[MAX_COLS];
	size_t ncols;
	bool trailing; /* -p: every line ends with '|' */
	bool have_header;
	unsigned long line, records;
};

struct field {
	const char *s;
	size_t n;
};

#define BAD(field, ...)                                                        \
	prio_error_set(err, PRIO_ERR_PARSE, l->src->name, l->line, field,      \
		       __VA_ARGS__)

static int nomem(struct qos_load *l, struct prio_error *err)
{
	return prio_error_set(err, PRIO_ERR_NOMEM, l->src->name, l->line, "",
			      "out of memory");
}

/* Split on '|' into f[0..max); the number of fields, or -1 when more. */
static long split(const char *p, size_t n, struct field *f, size_t max)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '|')
			continue;
		if (k == max)
			return -1;
		f[k].s = p + start;
		f[k].n = i - start;
		k++;
		start = i + 1;
	}
	return (long)k;
}

static int read_header(struct qos_load *l, const char *p, size_t n,
		       struct prio_error *err)
{
	struct field f[MAX_COLS];
	bool seen[Q_COUNT] = {false};
	long k;

	if (!memchr(p, '|', n)) {
		/* format=Name alone prints no '|' at all. */
		const char *h = p;
		size_t hn = n;

		text_trim(&h, &hn);
		if (!prio_word_eq(h, hn, "Name"))
			return BAD("", "expected sacctmgr -P or -p output ('|' "
				       "between fields)");
	}
	if (p[n - 1] == '|') {
		l->trailing = true;
		n--;
	}
	if ((k = split(p, n, f, MAX_COLS)) < 0)
		return BAD("", "more than %d columns", MAX_COLS);
	for (long c = 0; c < k; c++) {
		const char *h = f[c].s;
		size_t hn = f[c].n;
		enum qcol q = Q_OTHER;

		text_trim(&h, &hn);
		for (int j = 0; j < Q_COUNT && q == Q_OTHER; j++)
			if (prio_word_eq(h, hn, qcol_names[j][0]) ||
			    (qcol_names[j][1] &&
			     prio_word_eq(h, hn, qcol_names[j][1])))
				q = (enum qcol)j;
		if (q != Q_OTHER && seen[q])
			return BAD(qcol_names[q][0], "column %s appears twice",
				   qcol_names[q][0]);
		if (q != Q_OTHER)
			seen[q] = true;
		l->col[c] = q;
	}
	l->ncols = (size_t)k;
	if (!seen[Q_NAME])
		return BAD("Name", "no Name column: each QOS needs its name");
	l->have_header = true;
	return PRIO_OK;
}

/* A time string in seconds ("00:00:20", "1-00:00:00", "5" = 5 minutes). */
static int read_secs(struct qos_load *l, enum qcol c, const char *p, size_t n,
		     uint32_t *out, struct prio_error *err)
{
	char q[64];

	if (prio_time_str2secs(p, n, out) < 0 || !lc_duration_printed(p, n))
		return BAD(qcol_names[c][0],
			   "expected a time (such as 00:00:20), "
			   "got \"%s\"",
			   text_quote(p, n, q, sizeof(q)));
	return PRIO_OK;
}

static int read_preempt(struct qos_load *l, struct prio_qos *q, const char *p,
			size_t n, struct prio_error *err)
{
	uint32_t count = 1, k = 0;
	size_t start = 0;

	for (size_t i = 0; i < n; i++)
		count += p[i] == ',';
	q->preempt = prio_arena_alloc(&l->snap->arena, count * sizeof(prio_id));
	if (!q->preempt)
		return nomem(l, err);
	for (size_t i = 0; i <= n; i++) {
		const char *e;
		size_t en;

		if (i < n && p[i] != ',')
			continue;
		e = p + start;
		en = i - start;
		text_trim(&e, &en);
		start = i + 1;
		if (en == 0)
			return BAD("Preempt",
				   "empty QOS name in the Preempt list");
		q->preempt[k] = prio_snapshot_intern(l->snap, e, en);
		if (!q->preempt[k])
			return nomem(l, err);
		k++;
	}
	q->preempt_count = k;
	return PRIO_OK;
}

static int read_flags(struct qos_load *l, struct prio_qos *q, const char *p,
		      size_t n, struct prio_error *err)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		const char *e;
		size_t en;

		if (i < n && p[i] != ',')
			continue;
		e = p + start;
		en = i - start;
		text_trim(&e, &en);
		start = i + 1;
		if (prio_word_eq(e, en, "NoDecay"))
			q->flags |= PRIO_QOS_FLAG_NO_DECAY;
		else if (prio_word_eq(e, en, "OverPartQOS"))
			q->flags |= PRIO_QOS_FLAG_OVER_PART_QOS;
	}
	q->flags_text = prio_arena_strndup(&l->snap->arena, p, n);
	return q->flags_text ? PRIO_OK : nomem(l, err);
}

/* A limit column: into *lim (the row's, set up on the first). */
static int read_limit(struct qos_load *l, struct prio_limits *lim,
		      enum qcol c, const char *p, size_t n,
		      struct prio_error *err)
{
	char b[64];
	uint32_t *count = c == Q_GRP_JOBS      ? &lim->grp_jobs
			  : c == Q_MAX_JOBS_PU ? &lim->max_jobs_pu
			  : c == Q_MAX_JOBS_PA ? &lim->max_jobs_pa
					       : NULL;
	struct prio_tres_list *list = c == Q_GRP_TRES      ? &lim->grp_tres
				      : c == Q_MAX_TRES_PU ? &lim->max_tres_pu
				      : c == Q_MAX_TRES_PA ? &lim->max_tres_pa
							   : NULL;
	const char *why = "";

	if (count) {
		if (prio_parse_uint32(p, n, count) < 0 || *count >= PRIO_NO_VAL)
			return BAD(qcol_names[c][0],
				   "expected a count of jobs, got \"%s\"",
				   text_quote(p, n, b, sizeof(b)));
	} else if (list) {
		if (prio_tres_list_parse(&l->snap->arena, &l->snap->tres, p, n,
					 list, &why) < 0)
			return BAD(qcol_names[c][0],
				   "%s, got \"%s\" (a TRES list such as "
				   "cpu=8,node=2)",
				   why, text_quote(p, n, b, sizeof(b)));
	} else if (!lim->unmodelled) {
		lim->unmodelled = qcol_names[c][0];
	}
	return PRIO_OK;
}

static int read_field(struct qos_load *l, struct prio_qos *q, enum qcol c,
		      const char *p, size_t n, struct prio_error *err)
{
	char b[64];

	text_trim(&p, &n);
	switch (c) {
	case Q_NAME:
		if (n == 0)
			return BAD("Name", "empty QOS name");
		q->name = prio_snapshot_intern(l->snap, p, n);
		return q->name ? PRIO_OK : nomem(l, err);
	case Q_ID:
		if (n && prio_parse_uint32(p, n, &q->id) < 0)
			return BAD("ID", "expected a QOS id, got \"%s\"",
				   text_quote(p, n, b, sizeof(b)));
		return PRIO_OK;
	case Q_PRIORITY:
		/* sacctmgr prints 0 for a QOS without priority, never
		 * nothing (unlike the limits, blank when unset) */
		if (n == 0)
			return BAD("Priority", "empty (sacctmgr prints a "
					       "number, 0 when unset)");
		if (prio_parse_uint32(p, n, &q->priority) < 0)
			return BAD("Priority",
				   "expected an unsigned integer, got "
				   "\"%s\"",
				   text_quote(p, n, b, sizeof(b)));
		return PRIO_OK;
	case Q_GRACE_TIME:
		return n ? read_secs(l, c, p, n, &q->grace_time, err) : PRIO_OK;
	case Q_PREEMPT:
		return n ? read_preempt(l, q, p, n, err) : PRIO_OK;
	case Q_PREEMPT_EXEMPT_TIME:
		return n ? read_secs(l, c, p, n, &q->preempt_exempt_time, err)
			 : PRIO_OK;
	case Q_PREEMPT_MODE: {
		const char *why = "";

		if (n == 0 || prio_word_eq(p, n, "cluster"))
			return PRIO_OK;
		if (n >= sizeof(b))
			return BAD("PreemptMode", "unknown PreemptMode \"%s\"",
				   text_quote(p, n, b, sizeof(b)));
		memcpy(b, p, n);
		b[n] = '\0';
		if (prio_preempt_mode_parse(b, &q->preempt_mode, &why) < 0)
			return BAD("PreemptMode", "\"%s\": %s", b, why);
		return PRIO_OK;
	}
	case Q_FLAGS:
		return n ? read_flags(l, q, p, n, err) : PRIO_OK;
	case Q_USAGE_THRES:
	case Q_USAGE_FACTOR: {
		double v;

		if (n == 0)
			return PRIO_OK;
		if (prio_parse_double(p, n, &v) < 0 || !(v >= 0) || isinf(v))
			return BAD(qcol_names[c][0],
				   "expected a non-negative number, got \"%s\"",
				   text_quote(p, n, b, sizeof(b)));
		if (c == Q_USAGE_THRES)
			q->usage_threshold = v;
		else
			q->usage_factor = v;
		return PRIO_OK;
	}
	case Q_GRP_JOBS:
	case Q_MAX_JOBS_PU:
	case Q_MAX_JOBS_PA:
	case Q_GRP_TRES:
	case Q_MAX_TRES_PU:
	case Q_MAX_TRES_PA:
	case Q_GRP_TRES_MINS:
	case Q_GRP_TRES_RUN_MINS:
	case Q_GRP_WALL:
	case Q_MAX_TRES_RUN_MINS_PA:
	case Q_MAX_TRES_RUN_MINS_PU: {
		struct prio_limits *lim = (struct prio_limits *)q->limits;

		if (n == 0)
			return PRIO_OK;
		if (!lim) {
			lim = prio_arena_alloc(&l->snap->arena, sizeof(*lim));
			if (!lim)
				return nomem(l, err);
			prio_limits_init(lim);
			q->limits = lim;
		}
		return read_limit(l, lim, c, p, n, err);
	}
	case Q_COUNT:
		break;
	}
	return PRIO_OK;
}

static int read_row(struct qos_load *l, const char *p, size_t n,
		    struct prio_error *err)
{
	struct field f[MAX_COLS];
	struct prio_qos q, *slot;
	long k;
	int rc;

	if (l->trailing) {
		if (n == 0 || p[n - 1] != '|')
			return BAD("", "truncated line: sacctmgr -p ends every "
				       "line with '|'");
		n--;
	}
	k = split(p, n, f, l->ncols);
	if (k < 0)
		return BAD("", "more fields than the header's %zu", l->ncols);
	if ((size_t)k < l->ncols) {
		enum qcol m = l->col[k];

		return BAD(m == Q_OTHER ? "" : qcol_names[m][0],
			   "truncated line: %ld fields, the header has %zu", k,
			   l->ncols);
	}
	memset(&q, 0, sizeof(q));
	q.preempt_exempt_time = PRIO_INFINITE;
	q.usage_factor = 1.0;
	q.usage_threshold = NAN;
	q.file = l->file;
	q.line = l->line;
	for (long c = 0; c < k; c++)
		if (l->col[c] != Q_OTHER &&
		    (rc = read_field(l, &q, l->col[c], f[c].s, f[c].n, err)) <
			0)
			return rc;
	if (!(slot = prio_snapshot_new_qos(l->snap)))
		return nomem(l, err);
	*slot = q;
	l->records++;
	return PRIO_OK;
}

int prio_load_qos(struct prio_snapshot *snap, const struct prio_source *src,
		  struct prio_error *err)
{
	struct qos_load ld, *l = &ld;
	struct prio_line_reader lr;
	struct prio_line pl;
	int rc;

	memset(l, 0, sizeof(*l));
	l->snap = snap;
	l->src = src;
	l->file = prio_arena_strdup(&snap->arena, src->name);
	if (!l->file)
		return nomem(l, err);
	prio_line_reader_init(&lr, src);
	for (;;) {
		const char *p;
		size_t n;
		bool header;

		rc = prio_line_next(&lr, &pl, err);
		if (rc == 0)
			break;
		l->line = lr.number;
		header = !l->have_header;
		if (rc > 0) {
			p = pl.text;
			n = pl.len;
			text_trim(&p, &n);
			if (n == 0)
				continue;
			/* Keep the fields' own spaces: trim only for the
			 * blank test above. */
			rc = header ? read_header(l, pl.text, pl.len, err)
				    : read_row(l, pl.text, pl.len, err);
		}
		if (rc < 0 && (header || rc == PRIO_ERR_NOMEM))
			return rc; /* no header, no rows */
		if (rc < 0 && (rc = prio_snapshot_record_error(snap, err)) < 0)
			return rc;
	}
	if (!l->have_header)
		return prio_error_set(err, PRIO_ERR_PARSE, src->name,
				      lr.number ? lr.number : 1, "",
				      "no sacctmgr show qos header");
	return prio_snapshot_note_loaded(snap, PRIO_INPUT_QOS, src->name,
					 l->records);
}

int prio_qos_link(struct prio_snapshot *snap, struct prio_error *err)
{
	for (uint32_t i = 0; i < snap->qos_count; i++) {
		const struct prio_qos *q = &snap->qos[i];

		for (uint32_t k = 0; k < q->preempt_count; k++)
			if (!prio_snapshot_qos(snap, q->preempt[k]))
				return prio_error_set(
				    err, PRIO_ERR_PARSE, q->file ? q->file : "",
				    q->line, "Preempt",
				    "QOS %s may preempt QOS %s, which is not "
				    "defined",
				    prio_snapshot_str(snap, q->name),
				    prio_snapshot_str(snap, q->preempt[k]));
	}
	return PRIO_OK;
}
