/* SPDX-License-Identifier: MIT */
/*
 * What-if assignments (see whatif.h).  Top-level keys go through the same
 * key table as slurm.conf (prio_config_set), so a --set value is validated
 * exactly as the file's would be; record values use Slurm's value rules
 * (value.h, timestr.h) directly.  Lookups are linear: a command line holds
 * a handful of assignments.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/conf.h"
#include "prio/job.h"
#include "prio/slurm_version.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"
#include "prio/whatif.h"

/* One parsed assignment: kind:NAME.key=value, kind and name empty for a
 * top-level parameter. */
struct assignment {
	const char *origin;
	const char *kind, *name, *key, *value;
	size_t kind_len, name_len, key_len, value_len;
	char field[64]; /* the key, NUL-terminated, for messages */
};

#define BAD_USAGE(a, err, ...)                                                 \
	prio_error_set(err, PRIO_ERR_USAGE, (a)->origin, 0,                     \
		       (a)->field, __VA_ARGS__)
#define BAD_VALUE(a, err, ...)                                                 \
	prio_error_set(err, PRIO_ERR_PARSE, (a)->origin, 0,                     \
		       (a)->field, __VA_ARGS__)

static void set_field(struct assignment *a)
{
	size_t n = a->key_len < sizeof(a->field) - 1 ? a->key_len
						      : sizeof(a->field) - 1;

	memcpy(a->field, a->key, n);
	a->field[n] = '\0';
}

static bool key_is(const struct assignment *a, const char *word)
{
	return prio_word_eq(a->key, a->key_len, word);
}

static int split(const char *text, const char *origin, struct assignment *a,
		 struct prio_error *err)
{
	const char *eq = strchr(text, '='), *colon, *dot;

	memset(a, 0, sizeof(*a));
	a->origin = origin;
	if (!eq || eq == text)
		return prio_error_set(err, PRIO_ERR_USAGE, origin, 0, "",
				      "expected Key=Value or kind:NAME.Key=Value, got \"%.60s\"",
				      text);
	a->value = eq + 1;
	a->value_len = strlen(eq + 1);
	colon = memchr(text, ':', (size_t)(eq - text));
	if (!colon) {
		a->key = text;
		a->key_len = (size_t)(eq - text);
		set_field(a);
		return PRIO_OK;
	}
	a->kind = text;
	a->kind_len = (size_t)(colon - text);
	/* The key follows the last '.' before '=': names may hold dots. */
	dot = NULL;
	for (const char *p = colon + 1; p < eq; p++)
		if (*p == '.')
			dot = p;
	if (!dot || dot == colon + 1 || dot + 1 == eq)
		return prio_error_set(err, PRIO_ERR_USAGE, origin, 0, "",
				      "expected kind:NAME.Key=Value, got \"%.60s\"", text);
	a->name = colon + 1;
	a->name_len = (size_t)(dot - a->name);
	a->key = dot + 1;
	a->key_len = (size_t)(eq - a->key);
	set_field(a);
	return PRIO_OK;
}

static bool kind_is(const struct assignment *a, const char *word)
{
	return prio_word_eq(a->kind, a->kind_len, word);
}

/* The value as a NUL-terminated string (values are short). */
static const char *value_str(const struct assignment *a, char *buf, size_t size)
{
	size_t n = a->value_len < size - 1 ? a->value_len : size - 1;

	memcpy(buf, a->value, n);
	buf[n] = '\0';
	return buf;
}

static int uint16_value(const struct assignment *a, uint16_t *out,
			struct prio_error *err)
{
	if (prio_parse_uint16(a->value, a->value_len, out) < 0)
		return BAD_VALUE(a, err, "expected an unsigned 16-bit integer, got \"%.*s\"",
				 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
	return PRIO_OK;
}

static int uint32_value(const struct assignment *a, uint32_t *out,
			struct prio_error *err)
{
	if (prio_parse_uint32(a->value, a->value_len, out) < 0)
		return BAD_VALUE(a, err, "expected an unsigned integer, got \"%.*s\"",
				 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
	return PRIO_OK;
}

static int seconds_value(const struct assignment *a, uint32_t *out,
			 struct prio_error *err)
{
	if (prio_time_str2secs(a->value, a->value_len, out) < 0)
		return BAD_VALUE(a, err, "expected a time (min, h:m:s, d-h:m:s, INFINITE), got \"%.*s\"",
				 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
	return PRIO_OK;
}

static int preempt_mode_value(const struct assignment *a, uint16_t *out,
			      struct prio_error *err)
{
	char buf[128];
	const char *why = NULL;

	if (prio_preempt_mode_parse(value_str(a, buf, sizeof(buf)), out, &why) < 0)
		return BAD_VALUE(a, err, "%s", why);
	return PRIO_OK;
}

static char *arena_value(struct prio_snapshot *snap, const struct assignment *a,
			 struct prio_error *err)
{
	char *s = prio_arena_strndup(&snap->arena, a->value, a->value_len);

	if (!s)
		prio_error_set(err, PRIO_ERR_NOMEM, a->origin, 0, "", "out of memory");
	return s;
}

/* A record key the what-if does not change: a likely typo of one it does
 * is named as such, as for slurm.conf keys (conf.c); otherwise the keys
 * that can be changed are listed. */
static int bad_key(const struct assignment *a, struct prio_error *err,
		   const char *kind, const char *const *keys, size_t count)
{
	const char *near = prio_closest_word(a->key, a->key_len, keys, count);
	char list[256];
	size_t used = 0;

	if (near)
		return BAD_USAGE(a, err, "unknown key (did you mean %s?)", near);
	list[0] = '\0';
	for (size_t i = 0; i < count && used < sizeof(list); i++) {
		int n = snprintf(list + used, sizeof(list) - used, "%s%s",
				 i ? ", " : "", keys[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return BAD_USAGE(a, err, "not %s key a what-if can change (%s)", kind,
			 list);
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define BAD_KEY(a, err, kind, keys) bad_key(a, err, kind, keys, COUNT_OF(keys))

static const char *const partition_keys[] = {
	"PriorityJobFactor", "PriorityTier", "Priority", "MaxTime",
	"GraceTime", "PreemptMode", "TRESBillingWeights",
};
static const char *const qos_keys[] = {
	"Priority", "UsageFactor", "GraceTime", "PreemptMode",
	"PreemptExemptTime",
};
static const char *const assoc_keys[] = {
	"Fairshare", "Shares", "RawShares", "Priority", "RawUsage",
};
static const char *const job_keys[] = { "Nice", "QOS", "Partition" };

static int set_partition(struct prio_snapshot *snap, const struct assignment *a,
			 struct prio_error *err)
{
	struct prio_partition *p = NULL;

	for (uint32_t i = 0; i < snap->partition_count && !p; i++) {
		const char *name = prio_snapshot_str(snap, snap->partitions[i].name);

		if (strlen(name) == a->name_len && !memcmp(name, a->name, a->name_len))
			p = &snap->partitions[i];
	}
	if (!p)
		return BAD_USAGE(a, err, "no partition \"%.*s\"", (int)a->name_len, a->name);
	if (key_is(a, "PriorityJobFactor"))
		return uint16_value(a, &p->job_factor, err);
	if (key_is(a, "PriorityTier"))
		return uint16_value(a, &p->tier, err);
	if (key_is(a, "Priority")) {
		/* the legacy key sets both, as in slurm.conf */
		int rc = uint16_value(a, &p->job_factor, err);

		if (rc == 0)
			p->tier = p->job_factor;
		return rc;
	}
	if (key_is(a, "MaxTime")) {
		if (prio_time_str2mins(a->value, a->value_len, &p->max_time) < 0)
			return BAD_VALUE(a, err, "expected a time, got \"%.*s\"",
					 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
		return PRIO_OK;
	}
	if (key_is(a, "GraceTime"))
		return uint32_value(a, &p->grace_time, err);
	if (key_is(a, "PreemptMode"))
		return preempt_mode_value(a, &p->preempt_mode, err);
	if (key_is(a, "TRESBillingWeights")) {
		/* parsed against the TRES table when the snapshot is linked */
		char *text = arena_value(snap, a, err);

		if (!text)
			return PRIO_ERR_NOMEM;
		memset(&p->billing_weights, 0, sizeof(p->billing_weights));
		p->billing_weights.text = text;
		return PRIO_OK;
	}
	return BAD_KEY(a, err, "a partition", partition_keys);
}

static int set_qos(struct prio_snapshot *snap, const struct assignment *a,
		   struct prio_error *err)
{
	struct prio_qos *q = NULL;

	for (uint32_t i = 0; i < snap->qos_count && !q; i++) {
		const char *name = prio_snapshot_str(snap, snap->qos[i].name);

		if (strlen(name) == a->name_len && !strncasecmp(name, a->name, a->name_len))
			q = &snap->qos[i];
	}
	if (!q)
		return BAD_USAGE(a, err, "no QOS \"%.*s\"", (int)a->name_len, a->name);
	if (key_is(a, "Priority"))
		return uint32_value(a, &q->priority, err);
	if (key_is(a, "GraceTime"))
		return seconds_value(a, &q->grace_time, err);
	if (key_is(a, "PreemptExemptTime"))
		return seconds_value(a, &q->preempt_exempt_time, err);
	if (key_is(a, "PreemptMode")) {
		char buf[128];

		if (!strcasecmp(value_str(a, buf, sizeof(buf)), "cluster")) {
			q->preempt_mode = 0;
			return PRIO_OK;
		}
		return preempt_mode_value(a, &q->preempt_mode, err);
	}
	if (key_is(a, "UsageFactor")) {
		double f;

		if (prio_parse_double(a->value, a->value_len, &f) < 0 || !isfinite(f) || f < 0)
			return BAD_VALUE(a, err, "expected a non-negative number, got \"%.*s\"",
					 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
		q->usage_factor = f;
		return PRIO_OK;
	}
	return BAD_KEY(a, err, "a QOS", qos_keys);
}

/* ACCOUNT[/USER[/PARTITION]]: the account association, or a user's. */
static struct prio_assoc *find_assoc(struct prio_snapshot *snap,
				     const char *name, size_t len)
{
	const char *slash = memchr(name, '/', len), *slash2 = NULL;
	size_t acct_len = slash ? (size_t)(slash - name) : len;
	const char *user = slash ? slash + 1 : NULL;
	size_t user_len = slash ? len - acct_len - 1 : 0, part_len = 0;
	const char *part = NULL;

	if (user) {
		slash2 = memchr(user, '/', user_len);
		if (slash2) {
			part = slash2 + 1;
			part_len = user_len - (size_t)(slash2 - user) - 1;
			user_len = (size_t)(slash2 - user);
		}
	}
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		struct prio_assoc *as = &snap->assocs[i];
		const char *acct = prio_snapshot_str(snap, as->account);

		if (strlen(acct) != acct_len || strncasecmp(acct, name, acct_len))
			continue;
		if (!user) {
			if (!as->is_user)
				return as;
			continue;
		}
		if (!as->is_user)
			continue;
		{
			const char *u = prio_snapshot_str(snap, as->user);
			const char *p = prio_snapshot_str(snap, as->partition);

			if (strlen(u) != user_len || memcmp(u, user, user_len))
				continue;
			if (part ? strlen(p) != part_len || memcmp(p, part, part_len)
				 : as->partition != PRIO_NO_ID)
				continue;
			return as;
		}
	}
	return NULL;
}

static int set_assoc(struct prio_snapshot *snap, const struct assignment *a,
		     struct prio_error *err)
{
	struct prio_assoc *as = find_assoc(snap, a->name, a->name_len);

	if (!as)
		return BAD_USAGE(a, err, "no association \"%.*s\" (ACCOUNT or ACCOUNT/USER[/PARTITION])",
				 (int)a->name_len, a->name);
	if (key_is(a, "Fairshare") || key_is(a, "Shares") || key_is(a, "RawShares")) {
		uint32_t v;

		if (prio_word_eq(a->value, a->value_len, "parent")) {
			as->shares_raw = PRIO_FS_USE_PARENT;
			return PRIO_OK;
		}
		if (prio_parse_uint32(a->value, a->value_len, &v) < 0 || v >= PRIO_FS_USE_PARENT)
			return BAD_VALUE(a, err, "expected shares (an integer) or parent, got \"%.*s\"",
					 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
		as->shares_raw = v;
		return PRIO_OK;
	}
	if (key_is(a, "Priority"))
		return uint32_value(a, &as->priority, err);
	if (key_is(a, "RawUsage")) {
		double u;

		if (prio_parse_double(a->value, a->value_len, &u) < 0 || !isfinite(u) || u < 0)
			return BAD_VALUE(a, err, "expected a non-negative number, got \"%.*s\"",
					 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
		as->usage_raw = u;
		as->usage_known = true;
		return PRIO_OK;
	}
	return BAD_KEY(a, err, "an association", assoc_keys);
}

/* Before prio_snapshot_finish() the name index may not exist yet: the
 * names are interned, so equal ids are equal names. */
static bool qos_loaded(const struct prio_snapshot *snap, prio_id name)
{
	for (uint32_t i = 0; i < snap->qos_count; i++)
		if (snap->qos[i].name == name)
			return true;
	return false;
}

static int set_job(struct prio_snapshot *snap, const struct assignment *a,
		   struct prio_error *err)
{
	struct prio_job *job = NULL;
	uint32_t id;

	if (prio_parse_uint32(a->name, a->name_len, &id) < 0)
		return BAD_USAGE(a, err, "expected a job id, got \"%.*s\"", (int)a->name_len,
				 a->name);
	for (uint32_t i = 0; i < snap->job_count && !job; i++)
		if (snap->jobs[i].job_id == id)
			job = &snap->jobs[i];
	if (!job)
		return BAD_USAGE(a, err, "no job %u", id);
	if (key_is(a, "Nice")) {
		int64_t v;

		/* Slurm's range: |nice| <= NICE_OFFSET - 3 */
		if (prio_parse_int64(a->value, a->value_len, &v) < 0 || v > 2147483645LL ||
		    v < -2147483645LL)
			return BAD_VALUE(a, err, "expected an integer within +/- 2147483645, got \"%.*s\"",
					 (int)(a->value_len > 40 ? 40 : a->value_len), a->value);
		job->nice = (int32_t)v;
		return PRIO_OK;
	}
	if (key_is(a, "QOS")) {
		const struct prio_slurm_release *rel =
		    prio_snapshot_slurm(snap);
		struct prio_job_qos_list *l = NULL;
		int rc;

		if (!memchr(a->value, ',', a->value_len)) {
			if (prio_job_set_qos_list(snap, job, NULL) < 0)
				return prio_error_set(err, PRIO_ERR_NOMEM,
						      a->origin, 0, "",
						      "out of memory");
			job->qos =
			    prio_snapshot_intern(snap, a->value, a->value_len);
			return a->value_len && !job->qos ? PRIO_ERR_NOMEM
							 : PRIO_OK;
		}
		/* several QOS (24.11): refused here, where the assignment can
		 * be named; prio_snapshot_finish() sorts them */
		if (!rel->multi_qos)
			return BAD_VALUE(
			    a, err,
			    "several QOS \"%.*s\" (Slurm %s has one QOS per "
			    "job; several came with 24.11)",
			    (int)(a->value_len > 40 ? 40 : a->value_len),
			    a->value, rel->name);
		rc = prio_job_qos_list_parse(snap, a->value, a->value_len,
					     job->line, &l);
		if (rc == -1)
			return prio_error_set(err, PRIO_ERR_NOMEM, a->origin, 0,
					      "", "out of memory");
		if (rc < 0)
			return BAD_VALUE(a, err, "empty QOS name in \"%.*s\"",
					 (int)a->value_len, a->value);
		for (uint32_t k = 0; snap->qos_count && k < l->count; k++)
			if (!qos_loaded(snap, l->ids[k]))
				return BAD_USAGE(
				    a, err, "no QOS \"%.40s\"",
				    prio_snapshot_str(snap, l->ids[k]));
		if (prio_job_set_qos_list(snap, job, l) < 0)
			return prio_error_set(err, PRIO_ERR_NOMEM, a->origin, 0,
					      "", "out of memory");
		return PRIO_OK;
	}
	if (key_is(a, "Partition")) {
		uint32_t n = 1, k = 0;
		prio_id *parts;
		size_t start = 0;

		for (size_t i = 0; i < a->value_len; i++)
			n += a->value[i] == ',';
		parts = prio_arena_alloc(&snap->arena, n * sizeof(*parts));
		if (!parts)
			return prio_error_set(err, PRIO_ERR_NOMEM, a->origin, 0, "", "out of memory");
		for (size_t i = 0; i <= a->value_len; i++) {
			if (i < a->value_len && a->value[i] != ',')
				continue;
			if (i == start)
				return BAD_VALUE(a, err, "empty partition name in \"%.*s\"",
						 (int)a->value_len, a->value);
			parts[k] = prio_snapshot_intern(snap, a->value + start, i - start);
			if (!parts[k++])
				return prio_error_set(err, PRIO_ERR_NOMEM, a->origin, 0, "",
						      "out of memory");
			start = i + 1;
		}
		job->partitions = parts;
		job->partition_count = k;
		return PRIO_OK;
	}
	return BAD_KEY(a, err, "a job", job_keys);
}

/* A plain key that is no slurm.conf parameter but a record key
 * (PriorityTier=5): say how to name the record, rather than guess a
 * parameter of similar spelling.  Otherwise the key table's refusal. */
static int plain_key_refused(const struct assignment *a, struct prio_error *err)
{
	static const struct {
		const char *prefix;
		const char *const *keys;
		size_t count;
	} kinds[] = {
		{ "partition:NAME.", partition_keys, COUNT_OF(partition_keys) },
		{ "qos:NAME.", qos_keys, COUNT_OF(qos_keys) },
		{ "assoc:ACCOUNT[/USER].", assoc_keys, COUNT_OF(assoc_keys) },
		{ "job:ID.", job_keys, COUNT_OF(job_keys) },
	};
	char forms[192];
	size_t used = 0;

	forms[0] = '\0';
	for (size_t i = 0; i < COUNT_OF(kinds); i++)
		for (size_t k = 0; k < kinds[i].count; k++)
			if (key_is(a, kinds[i].keys[k]) && used < sizeof(forms)) {
				int n = snprintf(forms + used, sizeof(forms) - used,
						 "%s%s%s", used ? " or " : "",
						 kinds[i].prefix, kinds[i].keys[k]);

				if (n > 0)
					used += (size_t)n;
			}
	if (used)
		return BAD_USAGE(a, err, "not a slurm.conf parameter (did you mean %s?)",
				 forms);
	return prio_config_key_check(a->key, a->key_len, a->origin, 0, err);
}

int prio_snapshot_set(struct prio_snapshot *snap, const char *assignment,
		      const char *origin, struct prio_error *err)
{
	struct assignment a;
	int rc;

	if ((rc = split(assignment, origin, &a, err)) < 0)
		return rc;
	/* slurm.conf refuses "Key=" (conf_slurmconf.c): a what-if that
	 * silently meant "the default" would answer another question */
	if (!a.value_len)
		return BAD_VALUE(&a, err, "empty value");
	if (!a.kind && !prio_config_key_known(a.key, a.key_len))
		return plain_key_refused(&a, err);
	if (!a.kind)
		return prio_config_set(snap, a.key, a.key_len, a.value, a.value_len,
				       origin, 0, err);
	if (kind_is(&a, "partition") || kind_is(&a, "part"))
		return set_partition(snap, &a, err);
	if (kind_is(&a, "qos"))
		return set_qos(snap, &a, err);
	if (kind_is(&a, "assoc") || kind_is(&a, "account"))
		return set_assoc(snap, &a, err);
	if (kind_is(&a, "job"))
		return set_job(snap, &a, err);
	return prio_error_set(err, PRIO_ERR_USAGE, origin, 0, "",
			      "unknown kind \"%.*s\" (partition, qos, assoc, job, or a plain slurm.conf Key=Value)",
			      (int)a.kind_len, a.kind);
}
