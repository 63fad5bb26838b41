/* SPDX-License-Identifier: MIT */
/*
 * prio-diff's comparison (diff.h).  Every value compared is one another
 * tool prints for the same snapshot: settings as the configuration parser
 * holds them (so slurm.conf's "7-0" and scontrol's "7-00:00:00" compare
 * equal), association values as sshare's cells (prio_sshare_cells, the
 * text fstree-show prints), priorities and ranks from the scheduling queue
 * (prio_queue_build) and the weighted terms from --explain's
 * prio_explain_terms_of.  Each snapshot is computed at its own NOW: a diff
 * of two instants, not a what-if.
 *
 * Jobs are matched by id and submit time: a controller started afresh
 * (tests/oracle/fairtree-restart) gives old ids to new jobs, and a job of
 * another submit time is another job (one ended, one submitted).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/calc_time.h"
#include "prio/diff.h"
#include "prio/explain.h"
#include "prio/fairshare.h"
#include "prio/order.h"
#include "prio/priority.h"
#include "prio/report_sprio.h"
#include "prio/report_sshare.h"
#include "prio/timestr.h"
#include "prio/write.h"

static const char *const section_names[PRIO_DIFF_SECTION_COUNT] = {
    "config", "assoc", "jobs", "ranks"};

const char *prio_diff_section_name(enum prio_diff_section s)
{
	return (unsigned)s < PRIO_DIFF_SECTION_COUNT ? section_names[s] : "";
}

int prio_diff_section_parse(const char *s, size_t n)
{
	for (int k = 0; k < PRIO_DIFF_SECTION_COUNT; k++)
		if (strlen(section_names[k]) == n &&
		    !strncasecmp(section_names[k], s, n))
			return k;
	return -1;
}

void prio_diff_free(struct prio_diff *d)
{
	for (uint32_t i = 0; i < d->string_count; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* A string the diff owns (NULL on ENOMEM, the caller's err then). */
static const char *keep(struct prio_diff *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *keep(struct prio_diff *d, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (d->string_count == d->string_capacity) {
		uint32_t c = d->string_capacity ? 2 * d->string_capacity : 64;
		char **p = realloc(d->strings, c * sizeof(*p));

		if (!p)
			return NULL;
		d->strings = p;
		d->string_capacity = c;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	d->strings[d->string_count++] = s;
	return s;
}

static struct prio_diff_change *add(struct prio_diff *d,
				    enum prio_diff_section s, bool changed)
{
	struct prio_diff_change *c;

	if (d->count == d->capacity) {
		uint32_t cap = d->capacity ? 2 * d->capacity : 64;
		struct prio_diff_change *p = realloc(d->v, cap * sizeof(*p));

		if (!p)
			return NULL;
		d->v = p;
		d->capacity = cap;
	}
	c = &d->v[d->count++];
	memset(c, 0, sizeof(*c));
	c->section = s;
	c->changed = changed;
	c->old_value = c->new_value = c->delta = c->factor_delta = NAN;
	d->changed += changed;
	return c;
}

/* Is name in the comma-separated list (NULL list: no filter)?  A record
 * without the name (NULL) passes only when there is no filter. */
static bool listed(const char *list, const char *name)
{
	size_t n;

	if (!list)
		return true;
	if (!name)
		return false;
	n = strlen(name);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (e != NULL);
	}
	return false;
}

static bool pass(const struct prio_diff_options *o, const char *user,
		 const char *account, const char *partition)
{
	return listed(o->users, user) && listed(o->accounts, account) &&
	       listed(o->partitions, partition);
}

static bool strs_differ(const char *a, const char *b)
{
	if (!a || !b)
		return a != b;
	return strcmp(a, b) != 0;
}

int prio_diff_same_cluster(const struct prio_snapshot *a,
			   const struct prio_snapshot *b,
			   struct prio_error *err)
{
	const char *x = a->conf.cluster_name, *y = b->conf.cluster_name;

	if (x && y && *x && *y && strcasecmp(x, y))
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "ClusterName",
				      "the snapshots are of different clusters "
				      "(%s and %s; --force compares them anyway)",
				      x, y);
	return PRIO_OK;
}

/* --- config and weights ------------------------------------------------ */

/* A setting as text, in one canonical spelling (buf or the snapshot's
 * string), NULL when unset. */
typedef const char *(*setting_fn)(const struct prio_config *c, char *buf,
				  size_t size);

#define WEIGHT_FN(name, field)                                                \
	static const char *name(const struct prio_config *c, char *buf,       \
				size_t size)                                  \
	{                                                                     \
		snprintf(buf, size, "%u", c->field);                          \
		return buf;                                                   \
	}
WEIGHT_FN(w_age, weight_age)
WEIGHT_FN(w_assoc, weight_assoc)
WEIGHT_FN(w_fs, weight_fairshare)
WEIGHT_FN(w_js, weight_jobsize)
WEIGHT_FN(w_part, weight_partition)
WEIGHT_FN(w_qos, weight_qos)
WEIGHT_FN(damp, dampening_factor)

#define SECS_FN(name, field)                                                  \
	static const char *name(const struct prio_config *c, char *buf,       \
				size_t size)                                  \
	{                                                                     \
		return prio_secs2time_str(c->field, buf, size);               \
	}
SECS_FN(half_life, decay_half_life)
SECS_FN(calc_period, calc_period)
SECS_FN(max_age, max_age)

static const char *cluster(const struct prio_config *c, char *buf,
			   size_t size)
{
	(void)buf, (void)size;
	return c->cluster_name;
}

static const char *prio_type(const struct prio_config *c, char *buf,
			     size_t size)
{
	(void)buf, (void)size;
	return c->priority_type;
}

static const char *w_tres(const struct prio_config *c, char *buf, size_t size)
{
	(void)buf, (void)size;
	return c->weight_tres.text;
}

static const char *flags(const struct prio_config *c, char *buf, size_t size)
{
	return prio_priority_flags_format(c->priority_flags, buf,
					  (unsigned)size);
}

static const char *reset(const struct prio_config *c, char *buf, size_t size)
{
	static const char *const names[] = {"NONE",    "NOW",	    "DAILY",
					    "WEEKLY",  "MONTHLY", "QUARTERLY",
					    "YEARLY"};

	(void)buf, (void)size;
	return (unsigned)c->reset_period < sizeof(names) / sizeof(names[0])
		   ? names[c->reset_period]
		   : NULL;
}

static const char *favor_small(const struct prio_config *c, char *buf,
			       size_t size)
{
	(void)buf, (void)size;
	return c->favor_small ? "YES" : "NO";
}

static const char *storage(const struct prio_config *c, char *buf,
			   size_t size)
{
	(void)buf, (void)size;
	return c->accounting_storage_type;
}

/* The cluster-wide settings the priority and fairshare engines read. */
static const struct {
	const char *key;
	setting_fn get;
} settings[] = {
    {"ClusterName", cluster},
    {"PriorityType", prio_type},
    {"PriorityFlags", flags},
    {"PriorityWeightAge", w_age},
    {"PriorityWeightAssoc", w_assoc},
    {"PriorityWeightFairshare", w_fs},
    {"PriorityWeightJobSize", w_js},
    {"PriorityWeightPartition", w_part},
    {"PriorityWeightQOS", w_qos},
    {"PriorityWeightTRES", w_tres},
    {"PriorityDecayHalfLife", half_life},
    {"PriorityCalcPeriod", calc_period},
    {"PriorityMaxAge", max_age},
    {"PriorityUsageResetPeriod", reset},
    {"PriorityFavorSmall", favor_small},
    {"FairShareDampeningFactor", damp},
    {"AccountingStorageType", storage},
};

static int add_setting(struct prio_diff *d, const char *key,
		       const char *partition, const char *qos, const char *x,
		       const char *y, bool all)
{
	struct prio_diff_change *c;
	bool changed = strs_differ(x, y);

	if (!changed && !all)
		return 0;
	if (!(c = add(d, PRIO_DIFF_CONFIG, changed)))
		return -1;
	c->key = key;
	c->partition = partition;
	c->qos = qos;
	c->old_text = x ? keep(d, "%s", x) : NULL;
	c->new_text = y ? keep(d, "%s", y) : NULL;
	return (x && !c->old_text) || (y && !c->new_text) ? -1 : 0;
}

/* A partition's settings: PriorityJobFactor, PriorityTier,
 * TRESBillingWeights (NULL p: the partition is not in that snapshot). */
static void partition_settings(const struct prio_partition *p, char b[2][16],
			       const char *out[3])
{
	if (!p) {
		out[0] = out[1] = out[2] = NULL;
		return;
	}
	snprintf(b[0], sizeof(b[0]), "%u", p->job_factor);
	snprintf(b[1], sizeof(b[1]), "%u", p->tier);
	out[0] = b[0];
	out[1] = b[1];
	out[2] = p->billing_weights.text;
}

static const struct prio_partition *
partition_named(const struct prio_snapshot *s, const char *name)
{
	prio_id id = prio_intern_find(&s->strings, name, strlen(name));

	return id == PRIO_NO_ID ? NULL : prio_snapshot_partition(s, id);
}

static const struct prio_qos *qos_named(const struct prio_snapshot *s,
					const char *name)
{
	prio_id id = prio_intern_find(&s->strings, name, strlen(name));

	return id == PRIO_NO_ID ? NULL : prio_snapshot_qos(s, id);
}

static int diff_config(const struct prio_snapshot *a,
		       const struct prio_snapshot *b,
		       const struct prio_diff_options *o, struct prio_diff *d)
{
	static const char *const part_keys[3] = {
	    "PriorityJobFactor", "PriorityTier", "TRESBillingWeights"};
	char ba[256], bb[256];

	for (size_t k = 0; k < sizeof(settings) / sizeof(settings[0]); k++)
		if (add_setting(d, settings[k].key, NULL, NULL,
				settings[k].get(&a->conf, ba, sizeof(ba)),
				settings[k].get(&b->conf, bb, sizeof(bb)),
				o->all) < 0)
			return -1;
	/* partitions: b's in order, then those only a has */
	for (int side = 0; side < 2; side++) {
		const struct prio_snapshot *s = side ? a : b;

		for (uint32_t i = 0; i < s->partition_count; i++) {
			const char *name =
			    prio_snapshot_str(s, s->partitions[i].name);
			const struct prio_partition *pa =
			    side ? &s->partitions[i] : partition_named(a, name);
			const struct prio_partition *pb =
			    side ? partition_named(b, name) : &s->partitions[i];
			char xa[2][16], xb[2][16];
			const char *va[3], *vb[3];

			if (side && pb)
				continue;
			if (o->partitions && !listed(o->partitions, name))
				continue;
			partition_settings(pa, xa, va);
			partition_settings(pb, xb, vb);
			for (int k = 0; k < 3; k++)
				if (add_setting(d, part_keys[k], name, NULL,
						va[k], vb[k], o->all) < 0)
					return -1;
		}
	}
	/* QOS priorities */
	for (int side = 0; side < 2; side++) {
		const struct prio_snapshot *s = side ? a : b;

		for (uint32_t i = 0; i < s->qos_count; i++) {
			const char *name = prio_snapshot_str(s, s->qos[i].name);
			const struct prio_qos *qa =
			    side ? &s->qos[i] : qos_named(a, name);
			const struct prio_qos *qb =
			    side ? qos_named(b, name) : &s->qos[i];
			char xa[16], xb[16];

			if (side && qb)
				continue;
			if (qa)
				snprintf(xa, sizeof(xa), "%u", qa->priority);
			if (qb)
				snprintf(xb, sizeof(xb), "%u", qb->priority);
			if (add_setting(d, "Priority", NULL, name,
					qa ? xa : NULL, qb ? xb : NULL,
					o->all) < 0)
				return -1;
		}
	}
	return 0;
}

/* --- shares and usage -------------------------------------------------- */

static const enum prio_sshare_field assoc_fields[] = {
    PRIO_SSHARE_F_RAW_SHARES,	 PRIO_SSHARE_F_NORM_SHARES,
    PRIO_SSHARE_F_RAW_USAGE,	 PRIO_SSHARE_F_EFFECTV_USAGE,
    PRIO_SSHARE_F_FAIRSHARE,	 PRIO_SSHARE_F_LEVEL_FS,
};
#define NFIELDS (sizeof(assoc_fields) / sizeof(assoc_fields[0]))

/* One snapshot's associations as sshare prints them. */
struct assoc_key {
	char *key; /* "account\037user\037partition" */
	uint32_t assoc;
};

struct side {
	const struct prio_snapshot *s;
	struct prio_fs_result *res;
	enum prio_fs_algorithm algorithm;
	struct assoc_key *by_key; /* sorted by key */
};

static const char *str_or_empty(const struct prio_snapshot *s, prio_id id)
{
	return id == PRIO_NO_ID ? "" : prio_snapshot_str(s, id);
}

static char *assoc_key(const struct prio_snapshot *s, uint32_t i)
{
	const struct prio_assoc *r = &s->assocs[i];
	char *k;

	if (asprintf(&k, "%s\037%s\037%s", str_or_empty(s, r->account),
		     str_or_empty(s, r->user),
		     str_or_empty(s, r->partition)) < 0)
		return NULL;
	return k;
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(((const struct assoc_key *)x)->key,
		      ((const struct assoc_key *)y)->key);
}

static void side_free(struct side *sd)
{
	for (uint32_t i = 0; sd->by_key && i < sd->s->assoc_count; i++)
		free(sd->by_key[i].key);
	free(sd->by_key);
	free(sd->res);
}

static int side_init(struct side *sd, const struct prio_snapshot *s,
		     struct prio_error *err)
{
	struct prio_fs_setup setup = prio_fs_setup_of(s);

	memset(sd, 0, sizeof(*sd));
	sd->s = s;
	sd->algorithm = setup.algorithm;
	if (!s->assoc_count)
		return 0;
	sd->res = calloc(s->assoc_count, sizeof(*sd->res));
	sd->by_key = calloc(s->assoc_count, sizeof(*sd->by_key));
	if (!sd->res || !sd->by_key)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	/* fstree-show's values: the snapshot's algorithm at its clock */
	setup.cycle = s->now;
	if (prio_fairshare_slurm(s, &setup, sd->res, NULL, err) < 0)
		return err->status;
	for (uint32_t i = 0; i < s->assoc_count; i++) {
		sd->by_key[i].assoc = i;
		if (!(sd->by_key[i].key = assoc_key(s, i)))
			return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					      "out of memory");
	}
	qsort(sd->by_key, s->assoc_count, sizeof(*sd->by_key), key_cmp);
	return 0;
}

/* The association of `other` with the key of x's association i;
 * PRIO_ASSOC_NONE when absent (or out of memory: -1 in *rc). */
static uint32_t side_find(const struct side *other,
			  const struct prio_snapshot *x, uint32_t i, int *rc)
{
	struct assoc_key k = {assoc_key(x, i), 0};
	const struct assoc_key *hit;

	if (!k.key) {
		*rc = -1;
		return PRIO_ASSOC_NONE;
	}
	hit = other->s->assoc_count
		  ? bsearch(&k, other->by_key, other->s->assoc_count,
			    sizeof(k), key_cmp)
		  : NULL;
	free(k.key);
	return hit ? hit->assoc : PRIO_ASSOC_NONE;
}

/* sshare's column bit of each compared field. */
static const uint32_t field_bits[] = {
    PRIO_SSHARE_RAW_SHARES,    PRIO_SSHARE_NORM_SHARES,
    PRIO_SSHARE_RAW_USAGE,     PRIO_SSHARE_EFFECTV_USAGE,
    PRIO_SSHARE_FAIRSHARE,     PRIO_SSHARE_LEVEL_FS,
};

/* What sshare printed in a field, as it printed it (print_fields: "%f",
 * RawUsage an integer); false when it is not one of the printed numbers. */
static bool slurm_text(const struct prio_sshare_values *v, size_t k,
		       char *out, size_t size)
{
	double x;

	if (v->blank & field_bits[k]) {
		*out = '\0';
		return true;
	}
	switch (field_bits[k]) {
	case PRIO_SSHARE_RAW_USAGE:
		snprintf(out, size, "%llu", (unsigned long long)v->raw_usage);
		return true;
	case PRIO_SSHARE_NORM_SHARES: x = v->norm_shares; break;
	case PRIO_SSHARE_EFFECTV_USAGE: x = v->effectv_usage; break;
	case PRIO_SSHARE_FAIRSHARE: x = v->fairshare; break;
	case PRIO_SSHARE_LEVEL_FS: x = v->level_fs; break;
	default: return false; /* RawShares: the configuration's */
	}
	snprintf(out, size, "%f", x);
	return true;
}

/* The six cells of an association as text; "" for blank.  A field whose
 * bit is in `printed` is what sshare printed in the capture (its RawUsage
 * exact, not truncated; ratios of the controller's own clock); the others
 * are computed as fstree-show computes them. */
static void assoc_texts(const struct side *sd, uint32_t assoc,
			uint32_t printed, char text[NFIELDS][64])
{
	const struct prio_column *table = prio_sshare_fields();
	struct prio_field_sel sel[NFIELDS];
	struct prio_cell cells[NFIELDS];
	struct prio_sshare_rowbuf buf;

	for (size_t k = 0; k < NFIELDS; k++) {
		text[k][0] = '\0';
		if (assoc == PRIO_ASSOC_NONE)
			continue;
		memset(&sel[k], 0, sizeof(sel[k]));
		sel[k].index = assoc_fields[k];
		sel[k].col = table[assoc_fields[k]];
	}
	if (assoc == PRIO_ASSOC_NONE)
		return;
	prio_sshare_cells(sd->s, sd->res, sd->algorithm, NULL, assoc, 0, sel,
			  NFIELDS, cells, &buf);
	for (size_t k = 0; k < NFIELDS; k++) {
		if ((printed & field_bits[k]) &&
		    slurm_text(&sd->s->assocs[assoc].slurm, k, text[k],
			       sizeof(text[k])))
			continue;
		if (prio_cell_render(&sel[k].col, &cells[k], 0, text[k],
				     sizeof(text[k])) < 0)
			text[k][0] = '\0';
	}
}

/* The number a cell prints and its decimals; NAN for a blank or a word
 * ("parent"). */
static double cell_number(const char *t, int *decimals)
{
	char *end;
	double v;
	const char *dot;

	*decimals = 0;
	if (!*t)
		return NAN;
	v = strtod(t, &end);
	if (*end || end == t)
		return NAN;
	if ((dot = strchr(t, '.')) && !strpbrk(t, "eE"))
		*decimals = (int)strlen(dot + 1);
	return v;
}

/* v rounded to `decimals` places: the difference of two printed values
 * carries their precision, not the binary noise of the subtraction. */
static double round_to(double v, int decimals)
{
	double m = pow(10.0, decimals);

	return round(v * m) / m;
}

static int add_assoc(struct prio_diff *d, const struct side *sa,
		     const struct side *sb, uint32_t ia, uint32_t ib,
		     const struct prio_diff_options *o)
{
	const struct prio_snapshot *s = ib != PRIO_ASSOC_NONE ? sb->s : sa->s;
	const struct prio_assoc *r =
	    &s->assocs[ib != PRIO_ASSOC_NONE ? ib : ia];
	const char *account = r->account == PRIO_NO_ID
				  ? NULL
				  : prio_snapshot_str(s, r->account);
	const char *user =
	    r->user == PRIO_NO_ID ? NULL : prio_snapshot_str(s, r->user);
	const char *part = r->partition == PRIO_NO_ID
			       ? NULL
			       : prio_snapshot_str(s, r->partition);
	const struct prio_column *table = prio_sshare_fields();
	char ta[NFIELDS][64], tb[NFIELDS][64];
	bool level_fs = sa->algorithm == PRIO_FS_FAIR_TREE ||
			sb->algorithm == PRIO_FS_FAIR_TREE;

	/* an account row has no user: -u keeps only user rows; -p applies
	 * to partition associations only */
	if (!listed(o->users, user) || !listed(o->accounts, account) ||
	    (part && !listed(o->partitions, part)))
		return 0;
	/* Slurm's printed values where both captures have them: a value
	 * printed on one side and computed on the other would differ by the
	 * computation's rounding alone */
	uint32_t printed =
	    (ia != PRIO_ASSOC_NONE ? sa->s->assocs[ia].slurm.present : ~0u) &
	    (ib != PRIO_ASSOC_NONE ? sb->s->assocs[ib].slurm.present : ~0u);

	assoc_texts(sa, ia, printed, ta);
	assoc_texts(sb, ib, printed, tb);
	for (size_t k = 0; k < NFIELDS; k++) {
		struct prio_diff_change *c;
		bool changed = strcmp(ta[k], tb[k]) != 0;
		int da, db;

		if (assoc_fields[k] == PRIO_SSHARE_F_LEVEL_FS && !level_fs)
			continue;
		if (!changed && !o->all)
			continue;
		if (!(c = add(d, PRIO_DIFF_ASSOC, changed)))
			return -1;
		c->key = table[assoc_fields[k]].header;
		c->account = account;
		c->user = user;
		c->partition = part;
		c->old_value = cell_number(ta[k], &da);
		c->new_value = cell_number(tb[k], &db);
		c->decimals = da > db ? da : db;
		if (!isnan(c->old_value) && !isnan(c->new_value))
			c->delta = round_to(c->new_value - c->old_value,
					    c->decimals);
		/* a word ("parent") has no number: keep it as text */
		if (*ta[k] && isnan(c->old_value))
			c->old_text = keep(d, "%s", ta[k]);
		if (*tb[k] && isnan(c->new_value))
			c->new_text = keep(d, "%s", tb[k]);
	}
	return 0;
}

static int diff_assoc(const struct prio_snapshot *a,
		      const struct prio_snapshot *b,
		      const struct prio_diff_options *o, struct prio_diff *d,
		      struct prio_error *err)
{
	struct side sa, sb;
	int rc = 0;

	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	if ((rc = side_init(&sa, a, err)) < 0 ||
	    (rc = side_init(&sb, b, err)) < 0)
		goto out;
	/* b's rows in its tree order, then the ones only a has */
	for (uint32_t i = 0; i < b->assoc_count && rc == 0; i++) {
		uint32_t j = side_find(&sa, b, i, &rc);

		if (rc == 0)
			rc = add_assoc(d, &sa, &sb, j, i, o);
	}
	for (uint32_t i = 0; i < a->assoc_count && rc == 0; i++)
		if (side_find(&sb, a, i, &rc) == PRIO_ASSOC_NONE && rc == 0)
			rc = add_assoc(d, &sa, &sb, i, PRIO_ASSOC_NONE, o);
	if (rc < 0)
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				    "out of memory");
out:
	side_free(&sa);
	side_free(&sb);
	return rc;
}

/* --- jobs -------------------------------------------------------------- */

static bool job_active(const struct prio_job *j)
{
	switch (j->state) {
	case PRIO_JOB_RUNNING:
	case PRIO_JOB_SUSPENDED:
	case PRIO_JOB_COMPLETING:
	case PRIO_JOB_CONFIGURING:
	case PRIO_JOB_RESIZING:
	case PRIO_JOB_SIGNALING:
	case PRIO_JOB_STAGE_OUT:
	case PRIO_JOB_STOPPED:
		return true;
	default:
		return prio_job_state_pending((enum prio_job_state)j->state);
	}
}

static bool job_running(const struct prio_job *j)
{
	return job_active(j) &&
	       !prio_job_state_pending((enum prio_job_state)j->state);
}

/* The job of b that is a's job j: same id and, when both know it, the
 * same submit time. */
static const struct prio_job *same_job(const struct prio_snapshot *b,
				       const struct prio_job *j)
{
	const struct prio_job *k = prio_snapshot_find_job(b, j->job_id);

	if (k && j->submit_time && k->submit_time &&
	    j->submit_time != k->submit_time)
		return NULL;
	return k;
}

/* The job's partitions, comma-separated (a string the diff keeps). */
static const char *job_partitions(struct prio_diff *d,
				  const struct prio_snapshot *s,
				  const struct prio_job *j)
{
	char buf[512] = "";
	size_t used = 0;

	for (uint32_t k = 0; k < j->partition_count && used < sizeof(buf); k++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 k ? "," : "",
					 prio_snapshot_str(s, j->partitions[k]));
	return j->partition_count ? keep(d, "%s", buf) : NULL;
}

static bool job_pass(const struct prio_diff_options *o,
		     const struct prio_snapshot *s, const struct prio_job *j)
{
	const char *user = str_or_empty(s, j->user);
	const char *account = str_or_empty(s, j->account);

	if (!listed(o->users, user) || !listed(o->accounts, account))
		return false;
	if (!o->partitions)
		return true;
	for (uint32_t k = 0; k < j->partition_count; k++)
		if (listed(o->partitions,
			   prio_snapshot_str(s, j->partitions[k])))
			return true;
	return false;
}

static int add_job(struct prio_diff *d, const char *what,
		   const struct prio_snapshot *s, const struct prio_job *j,
		   const struct prio_diff_options *o)
{
	struct prio_diff_change *c;

	if (!job_pass(o, s, j))
		return 0;
	if (!(c = add(d, PRIO_DIFF_JOBS, true)))
		return -1;
	c->change = what;
	c->job_id = j->job_id;
	c->user = j->user == PRIO_NO_ID ? NULL : prio_snapshot_str(s, j->user);
	c->account = j->account == PRIO_NO_ID
			 ? NULL
			 : prio_snapshot_str(s, j->account);
	c->qos = j->qos == PRIO_NO_ID ? NULL : prio_snapshot_str(s, j->qos);
	c->partition = job_partitions(d, s, j);
	return j->partition_count && !c->partition ? -1 : 0;
}

static int job_id_cmp(const void *x, const void *y)
{
	const struct prio_job *a = *(const struct prio_job *const *)x;
	const struct prio_job *b = *(const struct prio_job *const *)y;

	return a->job_id < b->job_id ? -1 : a->job_id > b->job_id;
}

static int diff_jobs(const struct prio_snapshot *a,
		     const struct prio_snapshot *b,
		     const struct prio_diff_options *o, struct prio_diff *d,
		     struct prio_error *err)
{
	size_t n = (size_t)a->job_count + b->job_count;
	const struct prio_job **v = calloc(n ? n : 1, sizeof(*v));
	size_t m = 0;
	int rc = 0;

	if (!v)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	/* every change by job id: a's jobs that ended or started, then b's
	 * new ones, sorted together (odd pointers are b's: tagged apart) */
	for (uint32_t i = 0; i < a->job_count; i++) {
		const struct prio_job *j = &a->jobs[i], *k;

		if (!job_active(j))
			continue;
		k = same_job(b, j);
		if (!k || !job_active(k) ||
		    (prio_job_state_pending((enum prio_job_state)j->state) &&
		     job_running(k)))
			v[m++] = j;
	}
	for (uint32_t i = 0; i < b->job_count; i++) {
		const struct prio_job *j = &b->jobs[i];

		if (!same_job(a, j))
			v[m++] = j;
	}
	qsort(v, m, sizeof(*v), job_id_cmp);
	for (size_t i = 0; i < m && rc == 0; i++) {
		const struct prio_job *j = v[i], *k;
		bool from_a = j >= a->jobs && j < a->jobs + a->job_count;

		if (!from_a) {
			rc = add_job(d, "submitted", b, j, o);
			continue;
		}
		k = same_job(b, j);
		if (k && job_active(k))
			rc = add_job(d, "started", b, k, o);
		else
			rc = add_job(d, "ended", a, j, o);
	}
	free(v);
	if (rc < 0)
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				    "out of memory");
	return rc;
}

/* --- rank moves -------------------------------------------------------- */

/* The weighted terms of an entry summed per factor. */
static void entry_terms(const struct prio_engine *e,
			const struct prio_queue_entry *q,
			double points[PRIO_FACTOR_COUNT])
{
	const struct prio_job *job = &e->snap->jobs[q->job];
	struct prio_job_factors own, jf;
	struct prio_explain_terms t;
	uint32_t k = 0, nq = prio_job_qos_count(job);

	prio_job_factors(e, job, &own);
	while (k + 1 < nq && prio_job_qos_at(job, k) != q->qos)
		k++;
	prio_job_factors_at(e, job, &own, k, &jf);
	prio_explain_terms_of(e, job, &jf, q->partition, &t);
	for (int f = 0; f < PRIO_FACTOR_COUNT; f++)
		points[f] = 0.0;
	for (uint32_t i = 0; i < t.n; i++)
		points[t.t[i].factor] += t.t[i].points;
}

/* sprio's header of a factor ("FAIRSHARE"). */
static const char *factor_header(enum prio_factor f)
{
	const struct prio_sprio_letter *l =
	    prio_sprio_letter(prio_factor_info(f)->letter);

	return l ? l->header : prio_factor_info(f)->name;
}

static int add_rank(struct prio_diff *d, const struct prio_engine *ea,
		    const struct prio_engine *eb,
		    const struct prio_queue_entry *qa,
		    const struct prio_queue_entry *qb,
		    const struct prio_diff_options *o)
{
	const struct prio_snapshot *b = eb->snap;
	const struct prio_job *job = &b->jobs[qb->job];
	const char *part =
	    prio_snapshot_str(b, b->partitions[qb->partition].name);
	const char *user = str_or_empty(b, job->user);
	const char *account = str_or_empty(b, job->account);
	bool changed = qa->part_rank != qb->part_rank ||
		       qa->priority != qb->priority;
	double pa[PRIO_FACTOR_COUNT], pb[PRIO_FACTOR_COUNT], best = 0.0;
	struct prio_diff_change *c;

	if ((!changed && !o->all) || !pass(o, user, account, part))
		return 0;
	if (!(c = add(d, PRIO_DIFF_RANKS, changed)))
		return -1;
	c->job_id = job->job_id;
	c->user = job->user == PRIO_NO_ID ? NULL : user;
	c->account = job->account == PRIO_NO_ID ? NULL : account;
	c->partition = part;
	c->qos = qb->qos == PRIO_NO_ID ? NULL : prio_snapshot_str(b, qb->qos);
	c->old_rank = qa->part_rank;
	c->new_rank = qb->part_rank;
	c->old_value = qa->priority;
	c->new_value = qb->priority;
	c->delta = (double)qb->priority - (double)qa->priority;
	entry_terms(ea, qa, pa);
	entry_terms(eb, qb, pb);
	/* the factor whose weighted term moved most; ties go to sprio's
	 * column order.  Points are rounded as sprio prints them. */
	for (int f = 0; f < PRIO_FACTOR_COUNT; f++) {
		double m = round(pb[f]) - round(pa[f]);

		if (fabs(m) > fabs(best)) {
			best = m;
			c->factor = factor_header((enum prio_factor)f);
		}
	}
	if (c->factor)
		c->factor_delta = best;
	return 0;
}

/* The priorities sprio showed: at Slurm's last calculation before the
 * capture when the stored priorities tell it (prio-calc's clock), else
 * at the snapshot's NOW. */
static int at_last_calc(struct prio_engine *e, struct prio_error *err)
{
	struct prio_calc_time ct;

	if (prio_calc_time_find(e, &ct, err) < 0)
		return err->status;
	prio_engine_at_calc_time(e, &ct);
	prio_calc_time_free(&ct);
	return 0;
}

static int diff_ranks(const struct prio_snapshot *a,
		      const struct prio_snapshot *b,
		      const struct prio_diff_options *o, struct prio_diff *d,
		      struct prio_error *err)
{
	struct prio_engine ea, eb;
	struct prio_queue qa = {0}, qb = {0};
	bool ea_up = false, eb_up = false;
	int rc;

	/* each at its own clock: the two instants, not a what-if */
	if ((rc = prio_engine_init(&ea, a, a->now, err)) < 0)
		goto out;
	ea_up = true;
	if ((rc = prio_engine_init(&eb, b, b->now, err)) < 0)
		goto out;
	eb_up = true;
	if ((rc = at_last_calc(&ea, err)) < 0 ||
	    (rc = at_last_calc(&eb, err)) < 0)
		goto out;
	if ((rc = prio_queue_build(&ea, &qa, err)) < 0 ||
	    (rc = prio_queue_build(&eb, &qb, err)) < 0)
		goto out;
	/* b's queue order: where the jobs stand now */
	for (uint32_t i = 0; i < qb.count && rc == 0; i++) {
		const struct prio_queue_entry *y = &qb.entries[i], *x;
		const struct prio_job *jb = &b->jobs[y->job], *ja;
		const struct prio_partition *pa;
		const char *part =
		    prio_snapshot_str(b, b->partitions[y->partition].name);

		if (!(ja = same_job(a, jb)) || !(pa = partition_named(a, part)))
			continue;
		x = prio_queue_find(&qa, (uint32_t)(ja - a->jobs),
				    (uint32_t)(pa - a->partitions));
		if (x && (rc = add_rank(d, &ea, &eb, x, y, o)) < 0)
			rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					    "out of memory");
	}
out:
	prio_queue_free(&qa);
	prio_queue_free(&qb);
	if (ea_up)
		prio_engine_free(&ea);
	if (eb_up)
		prio_engine_free(&eb);
	return rc;
}

/* Rank moves partition by partition, in the new order. */
static int rank_cmp(const void *x, const void *y)
{
	const struct prio_diff_change *a = x, *b = y;
	int r = strcmp(a->partition, b->partition);

	return r ? r : (a->new_rank > b->new_rank) - (a->new_rank < b->new_rank);
}

int prio_diff_compute(const struct prio_snapshot *a,
		      const struct prio_snapshot *b,
		      const struct prio_diff_options *opt, struct prio_diff *d,
		      struct prio_error *err)
{
	unsigned sec = opt->sections ? opt->sections
				     : (1u << PRIO_DIFF_SECTION_COUNT) - 1;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	prio_error_clear(err);
	if ((sec & (1u << PRIO_DIFF_CONFIG)) && diff_config(a, b, opt, d) < 0)
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				    "out of memory");
	if (rc == 0 && (sec & (1u << PRIO_DIFF_ASSOC)) && a->assoc_count &&
	    b->assoc_count)
		rc = diff_assoc(a, b, opt, d, err);
	if (rc == 0 && (sec & (1u << PRIO_DIFF_JOBS)))
		rc = diff_jobs(a, b, opt, d, err);
	if (rc == 0 && (sec & (1u << PRIO_DIFF_RANKS))) {
		uint32_t first = d->count;

		rc = diff_ranks(a, b, opt, d, err);
		if (rc == 0 && d->count > first)
			qsort(d->v + first, d->count - first, sizeof(*d->v),
			      rank_cmp);
	}
	if (rc < 0)
		prio_diff_free(d);
	return rc;
}
