/* SPDX-License-Identifier: MIT */
/*
 * Jobs from `squeue --json` (Slurm 22.05, openapi/v0.0.38), read with
 * jansson into the same struct prio_job that job_scontrol.c fills.
 *
 * Mapping, as the 22.05 captures show it (tests/oracle/<scenario>/
 * squeue_json.txt beside scontrol_show_job_d.txt of the same second):
 *  - times are Unix seconds, 0 for unset; time_limit is in minutes;
 *  - "nice" is null for 0 and a negative nice comes out as its unsigned
 *    32-bit image (-50 prints 4294967246);
 *  - node_count/max_nodes and cpus/max_cpus are NumNodes and NumCPUs, the
 *    max 0 when scontrol prints no range;
 *  - tres_req_str and tres_alloc_str are both given (scontrol prints one);
 *  - "shared" is null where scontrol says OverSubscribe=OK, else none /
 *    oversubscribe / user / mcs for NO / YES / USER / MCS;
 *  - job_resources.allocated_nodes lists the cores given on each node:
 *    they become prio_job_alloc records, one per node.
 * Unknown members are ignored; a member of the wrong type is an error
 * naming the member.  jansson reports syntax errors with a line; errors in
 * a job carry the line where that job's object starts, found by a light
 * scan of the text (jansson keeps no positions).
 */
#include "config.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loadcache.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

struct js_loader {
	struct prio_snapshot *snap;
	const char *name;
	const char *file;
	struct prio_error *err;
	struct lc_table tres, parts;
	struct lc_last l_user, l_account, l_qos, l_reason, l_nodes,
	    l_over, l_dep, l_host, l_misc;
	struct prio_job_alloc *allocs;
	uint32_t alloc_count, alloc_cap;
	unsigned long records;
};

/* Where each element of the top-level "jobs" array starts (1-based lines),
 * without parsing values: strings and brackets are enough. */
static uint32_t *job_lines(const char *s, size_t n, size_t *count)
{
	size_t cap = 64, k = 0;
	uint32_t *lines = malloc(cap * sizeof(*lines));
	uint32_t line = 1;
	int depth = 0;
	bool in_jobs = false;
	const char *last = NULL; /* last string closed at depth 1 */
	size_t last_n = 0;

	if (!lines)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			line++;
		} else if (c == '"') {
			size_t start = ++i;

			while (i < n && s[i] != '"') {
				if (s[i] == '\\')
					i++;
				else if (s[i] == '\n')
					line++;
				i++;
			}
			if (depth == 1) {
				last = s + start;
				last_n = i - start;
			}
		} else if (c == '{' || c == '[') {
			if (c == '[' && depth == 1)
				in_jobs =
				    last_n == 4 && memcmp(last, "jobs", 4) == 0;
			if (c == '{' && depth == 2 && in_jobs) {
				if (k == cap) {
					uint32_t *nl;

					cap *= 2;
					nl = realloc(lines,
						     cap * sizeof(*lines));
					if (!nl) {
						free(lines);
						return NULL;
					}
					lines = nl;
				}
				lines[k++] = line;
			}
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth == 1)
				in_jobs = false;
		}
	}
	*count = k;
	return lines;
}

__attribute__((format(printf, 4, 5))) static int job_error(struct js_loader *ld,
							   uint32_t line,
							   const char *field,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prio_error_setv(ld->err, PRIO_ERR_PARSE, ld->name, line, field, fmt,
			ap);
	va_end(ap);
	return -1;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

/* An unsigned 32-bit member; null gives dflt. */
static int get_u32(struct js_loader *ld, uint32_t line, const char *key,
		   const json_t *v, uint32_t dflt, uint32_t *out)
{
	json_int_t i;

	if (json_is_null(v)) {
		*out = dflt;
		return 0;
	}
	if (!json_is_integer(v))
		return job_error(ld, line, key, "expected an integer, got %s",
				 type_name(v));
	i = json_integer_value(v);
	if (i < 0 || i > (json_int_t)UINT32_MAX)
		return job_error(
		    ld, line, key,
		    "expected an unsigned 32-bit integer, got %lld",
		    (long long)i);
	*out = (uint32_t)i;
	return 0;
}

static int get_time(struct js_loader *ld, uint32_t line, const char *key,
		    const json_t *v, time_t *out)
{
	json_int_t i;

	if (json_is_null(v)) {
		*out = 0;
		return 0;
	}
	if (!json_is_integer(v) || (i = json_integer_value(v)) < 0)
		return job_error(ld, line, key, "expected Unix seconds, got %s",
				 type_name(v));
	*out = (time_t)i;
	return 0;
}

static int get_str(struct js_loader *ld, uint32_t line, const char *key,
		   const json_t *v, const char **s, size_t *n)
{
	if (json_is_null(v)) {
		*s = "";
		*n = 0;
		return 0;
	}
	if (!json_is_string(v))
		return job_error(ld, line, key, "expected a string, got %s",
				 type_name(v));
	*s = json_string_value(v);
	*n = json_string_length(v);
	return 0;
}

/* A string member interned; "" gives PRIO_NO_ID. */
static int get_name(struct js_loader *ld, uint32_t line, const char *key,
		    const json_t *v, struct lc_last *l, prio_id *id)
{
	const char *s;
	size_t n;

	if (get_str(ld, line, key, v, &s, &n) < 0)
		return -1;
	if (lc_intern(ld->snap, l, s, n, id) < 0)
		return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line,
				      key, "out of memory");
	return 0;
}

static int get_tres(struct js_loader *ld, uint32_t line, const char *key,
		    const json_t *v, struct prio_tres_list *list)
{
	const char *s, *why = "";
	size_t n;
	char q[48];
	int rc;

	if (get_str(ld, line, key, v, &s, &n) < 0)
		return -1;
	rc = lc_tres_list(ld->snap, &ld->tres, s, n, list, &why);
	if (rc == -2)
		return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line,
				      key, "out of memory");
	if (rc < 0)
		return job_error(ld, line, key, "%s, got \"%s\"", why,
				 text_quote(s, n, q, sizeof(q)));
	return 0;
}

/* Cores marked allocated in {"0": {"cores": {"0": "allocated", ...}}}. */
static uint32_t count_cores(const json_t *sockets)
{
	const char *sk, *ck;
	json_t *sock, *core;
	uint32_t n = 0;

	json_object_foreach((json_t *)sockets, sk, sock)
	{
		json_t *cores = json_object_get(sock, "cores");

		json_object_foreach(cores, ck, core)
		{
			const char *s = json_string_value(core);

			n += s && strncmp(s, "allocated", 9) == 0;
		}
	}
	return n;
}

static int job_resources(struct js_loader *ld, uint32_t line, const json_t *v)
{
	const json_t *nodes, *node;
	size_t i;

	ld->alloc_count = 0;
	if (json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return job_error(ld, line, "job_resources",
				 "expected an object, got %s", type_name(v));
	nodes = json_object_get(v, "allocated_nodes");
	if (!nodes)
		return 0;
	if (!json_is_array(nodes))
		return job_error(ld, line, "allocated_nodes",
				 "expected an array, got %s", type_name(nodes));
	json_array_foreach(nodes, i, node)
	{
		struct prio_job_alloc *a;
		const json_t *name = json_object_get(node, "nodename");
		const json_t *mem = json_object_get(node, "memory_allocated");
		uint32_t mem32 = 0;

		if (!json_is_string(name))
			return job_error(
			    ld, line, "nodename",
			    "expected a node name in allocated_nodes");
		if (ld->alloc_count == ld->alloc_cap) {
			uint32_t cap = ld->alloc_cap ? ld->alloc_cap * 2 : 16;

			a = realloc(ld->allocs, cap * sizeof(*a));
			if (!a)
				return prio_error_set(ld->err, PRIO_ERR_NOMEM,
						      ld->name, line, "",
						      "out of memory");
			ld->allocs = a;
			ld->alloc_cap = cap;
		}
		a = &ld->allocs[ld->alloc_count++];
		memset(a, 0, sizeof(*a));
		if (lc_intern(ld->snap, &ld->l_nodes, json_string_value(name),
			      json_string_length(name), &a->nodes) < 0)
			return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name,
					      line, "", "out of memory");
		if (mem &&
		    get_u32(ld, line, "memory_allocated", mem, 0, &mem32) < 0)
			return -1;
		a->mem_mb = mem32;
		a->cpus = count_cores(json_object_get(node, "sockets"));
	}
	return 0;
}

/* squeue's "shared" in scontrol's OverSubscribe words. */
static const char *oversubscribe_word(const char *s)
{
	static const char *const map[][2] = {
	    {"none", "NO"},
	    {"oversubscribe", "YES"},
	    {"user", "USER"},
	    {"mcs", "MCS"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(s, map[i][0]) == 0)
			return map[i][1];
	return s;
}

enum { J_ID = 1, J_STATE = 2, J_PRIO = 4, J_PART = 8, J_USER = 16 };

#define IS(lit) (kn == sizeof(lit) - 1 && memcmp(k, lit, sizeof(lit) - 1) == 0)

static int on_member(struct js_loader *ld, struct prio_job *job,
		     struct prio_job_detail *d, bool *has_detail,
		     unsigned *seen, const char *k, const json_t *v,
		     uint32_t line)
{
	size_t kn = strlen(k), n;
	const char *s;
	uint32_t u;
	char q[48];

	switch (kn) {
	case 3:
		if (IS("qos")) {
			/* 24.11: several QOS, as scontrol prints them */
			if (json_is_string(v) &&
			    strchr(json_string_value(v), ',')) {
				struct prio_job_qos_list *l = NULL;
				int rc = prio_job_qos_list_parse(
				    ld->snap, json_string_value(v),
				    json_string_length(v), line, &l);

				if (rc == -1)
					return prio_error_set(
					    ld->err, PRIO_ERR_NOMEM, ld->name,
					    line, k, "out of memory");
				if (rc < 0)
					return job_error(
					    ld, line, k,
					    "an empty name in the QOS list "
					    "\"%s\"",
					    text_quote(json_string_value(v),
						       json_string_length(v), q,
						       sizeof(q)));
				/* a rare field: the job's detail holds it */
				d->qos_list = l;
				*has_detail = true;
				job->qos = l->ids[0];
				return 0;
			}
			return get_name(ld, line, k, v, &ld->l_qos, &job->qos);
		}
		return 0;
	case 4:
		if (IS("name")) {
			const char *text;
			size_t len;

			if (get_str(ld, line, k, v, &text, &len) < 0)
				return -1;
			job->name = prio_arena_strndup(&ld->snap->arena, text, len);
			if (!job->name)
				return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name,
						      line, k, "out of memory");
			return 0;
		}
		if (IS("cpus"))
			return get_u32(ld, line, k, v, 0, &job->num_cpus);
		if (IS("nice")) {
			json_int_t i;

			if (json_is_null(v))
				return 0;
			if (!json_is_integer(v))
				return job_error(ld, line, k,
						 "expected an integer, got %s",
						 type_name(v));
			i = json_integer_value(v);
			if (i < INT32_MIN || i > (json_int_t)UINT32_MAX)
				return job_error(ld, line, k,
						 "nice %lld out of range",
						 (long long)i);
			/* the unsigned image of a negative nice */
			job->nice = i > INT32_MAX ? (int32_t)(i - 4294967296LL)
						  : (int32_t)i;
		}
		return 0;
	case 5:
		if (IS("nodes"))
			return get_name(ld, line, k, v, &ld->l_nodes,
					&job->node_list);
		if (IS("tasks"))
			return get_u32(ld, line, k, v, PRIO_NO_VAL,
				       &job->num_tasks);
		return 0;
	case 6:
		if (IS("job_id")) {
			*seen |= J_ID;
			return get_u32(ld, line, k, v, 0, &job->job_id);
		}
		if (IS("shared")) {
			const char *w = "OK";

			if (!json_is_null(v)) {
				if (get_str(ld, line, k, v, &s, &n) < 0)
					return -1;
				w = oversubscribe_word(s);
			}
			if (lc_intern(ld->snap, &ld->l_over, w, strlen(w),
				      &job->oversubscribe) < 0)
				goto nomem;
		}
		return 0;
	case 7:
		if (IS("account"))
			return get_name(ld, line, k, v, &ld->l_account,
					&job->account);
		if (IS("user_id")) {
			*seen |= J_USER;
			return get_u32(ld, line, k, v, PRIO_NO_VAL, &job->uid);
		}
		if (IS("requeue")) {
			if (!json_is_boolean(v))
				return job_error(
				    ld, line, k,
				    "expected true or false, got %s",
				    type_name(v));
			job->requeue = json_is_true(v);
		}
		return 0;
	case 8:
		if (IS("priority")) {
			*seen |= J_PRIO;
			return get_u32(ld, line, k, v, 0, &job->priority);
		}
		if (IS("end_time"))
			return get_time(ld, line, k, v, &job->end_time);
		if (IS("max_cpus"))
			return get_u32(ld, line, k, v, 0, &job->max_cpus);
		if (IS("licenses") || IS("features")) {
			prio_id *id = k[0] == 'l' ? &d->licenses : &d->features;

			if (get_name(ld, line, k, v, &ld->l_misc, id) < 0)
				return -1;
			*has_detail |= *id != PRIO_NO_ID;
		}
		return 0;
	case 9:
		if (IS("user_name")) {
			*seen |= J_USER;
			return get_name(ld, line, k, v, &ld->l_user,
					&job->user);
		}
		if (IS("partition")) {
			const struct lc_id_list *l;

			*seen |= J_PART;
			if (get_str(ld, line, k, v, &s, &n) < 0)
				return -1;
			l = lc_name_list(ld->snap, &ld->parts, s, n);
			if (!l)
				goto nomem;
			job->partitions = l->ids;
			job->partition_count = l->count;
			return 0;
		}
		if (IS("job_state")) {
			enum prio_job_state st;

			*seen |= J_STATE;
			if (get_str(ld, line, k, v, &s, &n) < 0)
				return -1;
			if (prio_job_state_parse(s, n, &st) < 0)
				return job_error(ld, line, k,
						 "unknown job state \"%s\"",
						 text_quote(s, n, q, sizeof(q)));
			job->state = (uint8_t)st;
			return 0;
		}
		if (IS("max_nodes"))
			return get_u32(ld, line, k, v, 0, &job->max_nodes);
		if (IS("resv_name")) {
			if (get_name(ld, line, k, v, &ld->l_misc,
				     &d->reservation) < 0)
				return -1;
			*has_detail |= d->reservation != PRIO_NO_ID;
		}
		return 0;
	case 10:
		if (IS("start_time"))
			return get_time(ld, line, k, v, &job->start_time);
		if (IS("time_limit"))
			return get_u32(ld, line, k, v, PRIO_NO_VAL,
				       &job->time_limit);
		if (IS("node_count"))
			return get_u32(ld, line, k, v, 0, &job->min_nodes);
		if (IS("dependency"))
			return get_name(ld, line, k, v, &ld->l_dep,
					&job->dependency);
		if (IS("het_job_id"))
			return get_u32(ld, line, k, v, 0, &job->het_job_id);
		if (IS("batch_host")) {
			if (get_name(ld, line, k, v, &ld->l_host,
				     &d->batch_host) < 0)
				return -1;
			*has_detail |= d->batch_host != PRIO_NO_ID;
		}
		return 0;
	case 11:
		if (IS("submit_time"))
			return get_time(ld, line, k, v, &job->submit_time);
		if (IS("accrue_time"))
			return get_time(ld, line, k, v, &job->accrue_time);
		if (IS("restart_cnt")) {
			if (get_u32(ld, line, k, v, 0, &u) < 0)
				return -1;
			d->restarts = u;
			*has_detail |= u != 0;
		}
		return 0;
	case 12:
		if (IS("state_reason"))
			return get_name(ld, line, k, v, &ld->l_reason,
					&job->reason);
		if (IS("array_job_id"))
			return get_u32(ld, line, k, v, 0, &job->array_job_id);
		if (IS("tres_req_str"))
			return get_tres(ld, line, k, v, &job->tres_req);
		if (IS("suspend_time"))
			return get_time(ld, line, k, v, &job->suspend_time);
		if (IS("preempt_time"))
			return get_time(ld, line, k, v, &job->preempt_time);
		return 0;
	case 13:
		if (IS("eligible_time"))
			return get_time(ld, line, k, v, &job->eligible_time);
		if (IS("array_task_id"))
			return get_u32(ld, line, k, v, PRIO_NO_VAL,
				       &job->array_task_id);
		if (IS("cpus_per_task")) {
			if (get_u32(ld, line, k, v, 0, &u) < 0)
				return -1;
			if (u > UINT16_MAX)
				return job_error(ld, line, k, "%u is too large",
						 u);
			job->cpus_per_task = (uint16_t)u;
			return 0;
		}
		if (IS("job_resources")) {
			if (job_resources(ld, line, v) < 0)
				return -1;
			return 0;
		}
		return 0;
	case 14:
		if (IS("tres_alloc_str"))
			return get_tres(ld, line, k, v, &job->tres_alloc);
		if (IS("het_job_offset")) {
			if (get_u32(ld, line, k, v, PRIO_NO_VAL, &u) < 0)
				return -1;
			d->het_job_offset = u;
			return 0;
		}
		if (IS("memory_per_cpu")) {
			uint64_t mb;

			if (json_is_null(v))
				return 0;
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				return job_error(ld, line, k,
						 "expected megabytes, got %s",
						 type_name(v));
			mb = (uint64_t)json_integer_value(v);
			job->min_memory = mb;
			job->mem_per_cpu = true;
		}
		return 0;
	case 15:
		if (IS("memory_per_node")) {
			if (json_is_null(v))
				return 0;
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				return job_error(ld, line, k,
						 "expected megabytes, got %s",
						 type_name(v));
			job->min_memory = (uint64_t)json_integer_value(v);
			job->mem_per_cpu = false;
		}
		return 0;
	case 17:
		if (IS("array_task_string")) {
			if (get_str(ld, line, k, v, &s, &n) < 0)
				return -1;
			if (n && lc_intern(ld->snap, &ld->l_misc, s, n,
					   &job->array_task_text) < 0)
				goto nomem;
		}
		return 0;
	}
	return 0;
nomem:
	return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line, k,
			      "out of memory");
}

#undef IS

static int load_job(struct js_loader *ld, const json_t *obj, uint32_t line)
{
	struct prio_job job, *slot;
	struct prio_job_detail d;
	bool has_detail = false;
	unsigned seen = 0;
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return job_error(ld, line, "jobs",
				 "expected a job object, got %s",
				 type_name(obj));
	memset(&job, 0, sizeof(job));
	job.array_task_id = PRIO_NO_VAL;
	job.uid = PRIO_NO_VAL;
	job.time_limit = PRIO_NO_VAL;
	job.num_tasks = PRIO_NO_VAL;
	job.file = ld->file;
	job.line = line;
	memset(&d, 0, sizeof(d));
	d.het_job_offset = PRIO_NO_VAL;
	ld->alloc_count = 0;
	json_object_foreach((json_t *)obj, key, v)
	{
		if (on_member(ld, &job, &d, &has_detail, &seen, key, v, line) <
		    0)
			return -1;
	}
	if (!(seen & J_ID))
		return job_error(ld, line, "job_id",
				 "job object without job_id");
	if (!(seen & J_STATE))
		return job_error(ld, line, "job_state",
				 "job %u has no job_state", job.job_id);
	if (!(seen & J_PRIO))
		return job_error(ld, line, "priority", "job %u has no priority",
				 job.job_id);
	if (!(seen & J_PART))
		return job_error(ld, line, "partition",
				 "job %u has no partition", job.job_id);
	if (!(seen & J_USER))
		return job_error(ld, line, "user_name",
				 "job %u has no user_name", job.job_id);
	prio_job_requested_nodes(&job);
	if (job.het_job_id == 0)
		d.het_job_offset = PRIO_NO_VAL;
	else
		has_detail = true;
	{
		const char *r = prio_snapshot_str(ld->snap, job.reason);

		job.held = job.priority == 0 && strncmp(r, "JobHeld", 7) == 0;
		job.held_by_admin = job.held && strcmp(r, "JobHeldAdmin") == 0;
	}
	if (ld->alloc_count) {
		size_t size = ld->alloc_count * sizeof(*ld->allocs);

		d.allocs = prio_arena_alloc(&ld->snap->arena, size);
		if (!d.allocs)
			goto nomem;
		memcpy(d.allocs, ld->allocs, size);
		d.alloc_count = ld->alloc_count;
		has_detail = true;
	}
	if (has_detail) {
		struct prio_job_detail *p =
		    prio_arena_alloc(&ld->snap->arena, sizeof(*p));

		if (!p)
			goto nomem;
		*p = d;
		job.detail = p;
	}
	slot = prio_snapshot_new_job(ld->snap);
	if (!slot)
		goto nomem;
	*slot = job;
	ld->records++;
	return 0;
nomem:
	return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line, "",
			      "out of memory");
}

static uint32_t line_of(const char *s, size_t pos)
{
	uint32_t line = 1;

	for (size_t i = 0; i < pos; i++)
		line += s[i] == '\n';
	return line;
}

static int load(struct js_loader *ld, const struct prio_source *src)
{
	const char *nul = memchr(src->data, '\0', src->size);
	json_error_t je;
	json_t *root, *jobs, *errors, *obj;
	uint32_t *lines = NULL;
	size_t nlines = 0, i;
	int rc = 0;

	if (nul)
		return prio_error_set(
		    ld->err, PRIO_ERR_PARSE, ld->name,
		    line_of(src->data, (size_t)(nul - src->data)), "",
		    "NUL byte in input");
	root = json_loadb(src->data, src->size, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name,
				      je.line > 0 ? (unsigned long)je.line : 0,
				      "", "invalid JSON: %s", je.text);
	if (!json_is_object(root)) {
		rc = prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1, "",
				    "expected squeue --json output (an object "
				    "with a \"jobs\" array)");
		goto out;
	}
	errors = json_object_get(root, "errors");
	if (json_is_array(errors) && json_array_size(errors) > 0) {
		const json_t *e = json_array_get(errors, 0);
		const char *what =
		    json_string_value(json_object_get(e, "error"));

		if (!what)
			what = json_string_value(
			    json_object_get(e, "description"));
		rc =
		    prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1,
				   "errors", "squeue reported an error: %.200s",
				   what ? what : "(no description)");
		goto out;
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs)) {
		rc =
		    prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1, "jobs",
				   "expected squeue --json output (an object "
				   "with a \"jobs\" array)");
		goto out;
	}
	lines = job_lines(src->data, src->size, &nlines);
	if (!lines) {
		rc = prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, 0, "",
				    "out of memory");
		goto out;
	}
	json_array_foreach(jobs, i, obj)
	{
		uint32_t line = i < nlines ? lines[i] : 1;

		if (load_job(ld, obj, line) == 0)
			continue;
		if ((rc = prio_snapshot_record_error(ld->snap, ld->err)) < 0)
			goto out;
	}
out:
	free(lines);
	json_decref(root);
	return rc;
}

int prio_load_jobs_squeue_json(struct prio_snapshot *snap,
			       const struct prio_source *src,
			       struct prio_error *err)
{
	struct js_loader ld;
	int rc;

	memset(&ld, 0, sizeof(ld));
	ld.snap = snap;
	ld.name = src->name;
	ld.err = err;
	ld.file = prio_arena_strdup(&snap->arena, src->name);
	lc_table_init(&ld.tres);
	lc_table_init(&ld.parts);
	if (!ld.file)
		rc = prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				    "out of memory");
	else
		rc = load(&ld, src);
	if (rc == 0)
		rc = prio_snapshot_note_loaded(snap, PRIO_INPUT_JOBS_JSON,
					       src->name, ld.records);
	/* this reader takes data_parser v0.0.38 alone: what it read is 22.05
	 * (a weak hint: MANIFEST, meta or config outrank it) */
	if (rc == 0)
		prio_snapshot_note_version(snap, 2205, PRIO_VERSION_FORMAT);
	if (rc < 0 && err->status == PRIO_OK)
		prio_error_set(err, rc, src->name, 0, "", "out of memory");
	lc_table_free(&ld.tres);
	lc_table_free(&ld.parts);
	free(ld.allocs);
	return rc;
}
