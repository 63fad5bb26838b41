/* SPDX-License-Identifier: MIT */
/*
 * Jobs from `squeue --json`, read with jansson into the same struct
 * prio_job that job_scontrol.c fills, for every data_parser version from
 * v0.0.38 (22.05) to v0.0.45 (26.05).
 *
 * The version comes from "meta" (json_slurm.h); the table `keys` below says
 * which job members each version prints (for every job, or only for some)
 * and how each is read.  What
 * changed between versions, as the tagged sources' parsers show it:
 *  - v0.0.38 (22.05, the openapi plugin): plain numbers, null for unset
 *    (nice null for 0); job_state one string; shared null (scontrol's
 *    OverSubscribe=OK) or none/oversubscribe/user/mcs; job_resources
 *    absent while pending, else {"allocated_nodes": [{"nodename",
 *    "memory_allocated", "sockets": {"0": {"cores": {"0": "allocated"}}}}]};
 *  - v0.0.39 (23.02): counts, priority, limits and memory wrapped as
 *    {"set","infinite","number"}; times still plain; job_resources {}
 *    when there is none (an empty object stands for null up to v0.0.41,
 *    null from v0.0.42); shared an array of at most one word ([] for
 *    scontrol's OK); preemptable_time new;
 *  - v0.0.40 (23.11): times wrapped too; job_state an array of strings
 *    (the base state plus flags such as COMPLETING, read as scontrol
 *    prints the state: the first flag of its list wins);
 *  - v0.0.41 (24.05): a negative nice printed negative (its unsigned
 *    32-bit image before); job_resources becomes {"nodes": {"allocation":
 *    [{"name", "cpus": {"count"}, "memory": {"allocated"}, "sockets"}]}};
 *  - v0.0.42 to v0.0.44 (24.11 to 25.11): keys added that no reading here
 *    needs (priority_by_partition, step_id, submit_line...);
 *  - v0.0.45 (26.05): "shared" only a placeholder (always []): the job's
 *    OverSubscribe is not in the output and is left unknown.
 * A number wrapped or plain is accepted in every version (the wrapper says
 * what it is).  A member of the wrong type is an error naming the member.
 * When the version is known, a member that version prints for every job
 * and that is missing is refused, naming the job: it is never read as
 * "nothing" (an allocation, a time).  Without "meta" only job_id,
 * job_state, priority, partition and user_name are required.
 *
 * Mapping to scontrol's fields, from the 22.05 captures (tests/oracle/
 * <scenario>/squeue_json.txt beside scontrol_show_job_d.txt of the same
 * second): times are Unix seconds, 0 (or unset) for none, INFINITE read as
 * none too (scontrol prints Unknown); time_limit is in minutes; a negative
 * nice comes out as its unsigned 32-bit image (-50 prints 4294967246);
 * node_count/max_nodes and cpus/max_cpus are NumNodes and NumCPUs;
 * tres_req_str and tres_alloc_str are both given (scontrol prints one).
 * jansson reports syntax errors with a line; errors in a job carry the
 * line where that job's object starts.
 */
#include "config.h"

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "json_slurm.h"
#include "loadcache.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

/* Interning caches, one per kind of name. */
enum { L_USER, L_ACCOUNT, L_QOS, L_REASON, L_NODES, L_OVER, L_DEP, L_HOST,
       L_MISC, L_COUNT };

struct js_loader {
	struct prio_snapshot *snap;
	const char *name;
	const char *file;
	struct prio_error *err;
	struct lc_table tres, parts;
	struct lc_last last[L_COUNT];
	unsigned parser; /* data_parser version, 38..45; 0 unknown */
	struct prio_job_alloc *allocs;
	uint32_t alloc_count, alloc_cap;
	unsigned long records;
};

/* One job being read. */
struct js_job {
	struct prio_job job;
	struct prio_job_detail d;
	bool has_detail;
	uint32_t line;
};

/* How a member is read. */
enum js_read {
	RD_JOB_ID,
	RD_STATE,
	RD_PRIORITY,
	RD_PARTITION,
	RD_USER_NAME,
	RD_U32,	      /* uint32 at `off` in the job; unset 0 */
	RD_U32_NOVAL, /* uint32 at `off`; unset PRIO_NO_VAL */
	RD_TIME,      /* time_t at `off` */
	RD_ID,	      /* interned name at `off`, cache `cache` */
	RD_DETAIL_ID, /* interned name at `off` in the detail */
	RD_TRES,      /* struct prio_tres_list at `off` */
	RD_JOB_NAME,
	RD_NICE,
	RD_SHARED,
	RD_MEM_CPU,
	RD_MEM_NODE,
	RD_RESOURCES,
	RD_REQUEUE,
	RD_RESTARTS,
	RD_CPUS_PER_TASK,
	RD_HET_OFFSET,
	RD_ARRAY_TEXT,
	RD_PREEMPTABLE,
	RD_QOS,       /* one QOS, or 24.11's list "low,high" */
};

/* A job member, the data_parser versions that print it (first..last), and
 * how it is read.  Sorted by key (bsearch).  Versions: 38 is 22.05's
 * openapi/v0.0.38, 39 23.02, 40 23.11, 41 24.05, 42 24.11, 43 25.05,
 * 44 25.11, 45 26.05. */
struct js_key {
	const char *key;
	uint8_t first, last;
	uint8_t need; /* the first version that prints it for every job */
	uint8_t read;
	uint8_t cache;
	uint16_t off;
	bool core; /* required even when the version is unknown */
};

#define JOB(f) offsetof(struct prio_job, f)
#define DET(f) offsetof(struct prio_job_detail, f)
#define K(k, a, b, r, c, o) {k, a, b, a, r, c, (uint16_t)(o), false}
#define CORE(k, r) {k, 38, 45, 38, r, 0, 0, true}

static const struct js_key keys[] = {
    K("account", 38, 45, RD_ID, L_ACCOUNT, JOB(account)),
    K("accrue_time", 38, 45, RD_TIME, 0, JOB(accrue_time)),
    K("array_job_id", 38, 45, RD_U32, 0, JOB(array_job_id)),
    K("array_task_id", 38, 45, RD_U32_NOVAL, 0, JOB(array_task_id)),
    K("array_task_string", 38, 45, RD_ARRAY_TEXT, 0, 0),
    K("batch_host", 38, 45, RD_DETAIL_ID, L_HOST, DET(batch_host)),
    K("cpus", 38, 45, RD_U32, 0, JOB(num_cpus)),
    K("cpus_per_task", 38, 45, RD_CPUS_PER_TASK, 0, 0),
    K("dependency", 38, 45, RD_ID, L_DEP, JOB(dependency)),
    K("eligible_time", 38, 45, RD_TIME, 0, JOB(eligible_time)),
    K("end_time", 38, 45, RD_TIME, 0, JOB(end_time)),
    K("features", 38, 45, RD_DETAIL_ID, L_MISC, DET(features)),
    K("het_job_id", 38, 45, RD_U32, 0, JOB(het_job_id)),
    K("het_job_offset", 38, 45, RD_HET_OFFSET, 0, 0),
    CORE("job_id", RD_JOB_ID),
    /* 22.05 leaves it out while a job has no resources: needed from 39 */
    {"job_resources", 38, 45, 39, RD_RESOURCES, 0, 0, false},
    CORE("job_state", RD_STATE),
    K("licenses", 38, 45, RD_DETAIL_ID, L_MISC, DET(licenses)),
    K("max_cpus", 38, 45, RD_U32, 0, JOB(max_cpus)),
    K("max_nodes", 38, 45, RD_U32, 0, JOB(max_nodes)),
    K("memory_per_cpu", 38, 45, RD_MEM_CPU, 0, 0),
    K("memory_per_node", 38, 45, RD_MEM_NODE, 0, 0),
    K("name", 38, 45, RD_JOB_NAME, 0, 0),
    K("nice", 38, 45, RD_NICE, 0, 0),
    K("node_count", 38, 45, RD_U32, 0, JOB(min_nodes)),
    K("nodes", 38, 45, RD_ID, L_NODES, JOB(node_list)),
    CORE("partition", RD_PARTITION),
    K("preempt_time", 38, 45, RD_TIME, 0, JOB(preempt_time)),
    K("preemptable_time", 39, 45, RD_PREEMPTABLE, 0, 0),
    CORE("priority", RD_PRIORITY),
    K("qos", 38, 45, RD_QOS, L_QOS, JOB(qos)),
    K("requeue", 38, 45, RD_REQUEUE, 0, 0),
    K("restart_cnt", 38, 45, RD_RESTARTS, 0, 0),
    K("resv_name", 38, 45, RD_DETAIL_ID, L_MISC, DET(reservation)),
    /* backfill's planned nodes; v0.0.38 omits them (22.05's jobs.c).
     * Not required (need 46): hand-trimmed captures without it load as
     * before, the job then has no plan */
    {"scheduled_nodes", 39, 45, 46, RD_DETAIL_ID, L_NODES, DET(sched_nodes),
     false},
    /* 26.05 prints [] in its place whatever the job asked */
    K("shared", 38, 44, RD_SHARED, 0, 0),
    K("start_time", 38, 45, RD_TIME, 0, JOB(start_time)),
    /* what squeue prints for the reason when set ("" when not); not
     * required, as scheduled_nodes */
    {"state_description", 38, 45, 46, RD_DETAIL_ID, L_MISC, DET(state_desc),
     false},
    K("state_reason", 38, 45, RD_ID, L_REASON, JOB(reason)),
    K("submit_time", 38, 45, RD_TIME, 0, JOB(submit_time)),
    K("suspend_time", 38, 45, RD_TIME, 0, JOB(suspend_time)),
    K("tasks", 38, 45, RD_U32_NOVAL, 0, JOB(num_tasks)),
    /* --ntasks-per-node; not required (22.05's v0.0.38 leaves it out,
     * later ones print NO_VAL16 when unset: the forecast reads any value
     * of 65534 and over as unset) */
    {"tasks_per_node", 38, 45, 46, RD_U32_NOVAL, 0, JOB(ntasks_per_node),
     false},
    K("time_limit", 38, 45, RD_U32_NOVAL, 0, JOB(time_limit)),
    K("tres_alloc_str", 38, 45, RD_TRES, 0, JOB(tres_alloc)),
    K("tres_req_str", 38, 45, RD_TRES, 0, JOB(tres_req)),
    K("user_id", 38, 45, RD_U32_NOVAL, 0, JOB(uid)),
    CORE("user_name", RD_USER_NAME),
};

#undef K
#undef CORE
#undef JOB
#undef DET

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* The allocation's layout by version: job_resources.allocated_nodes up to
 * v0.0.40, job_resources.nodes.allocation from v0.0.41. */
#define FIRST_NODES_ALLOCATION 41

static int key_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, ((const struct js_key *)b)->key);
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

static int nomem(struct js_loader *ld, uint32_t line, const char *field)
{
	return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line, field,
			      "out of memory");
}

/* An integer member, plain or wrapped: SET, UNSET or INFINITE; an error
 * for anything else. */
static int get_int(struct js_loader *ld, uint32_t line, const char *key,
		   const json_t *v, json_int_t *i, enum jsl_num *kind)
{
	*kind = jsl_int(v, i);
	if (*kind != JSL_BAD)
		return 0;
	if (json_is_object(v))
		return job_error(ld, line, key,
				 "expected an integer or {\"set\", "
				 "\"infinite\", \"number\"}, got an object "
				 "without them");
	return job_error(ld, line, key, "expected an integer, got %s",
			 jsl_type_name(v));
}

/* An unsigned 32-bit member; unset gives dflt, INFINITE PRIO_INFINITE. */
static int get_u32(struct js_loader *ld, uint32_t line, const char *key,
		   const json_t *v, uint32_t dflt, uint32_t *out)
{
	json_int_t i = 0;
	enum jsl_num kind;

	if (get_int(ld, line, key, v, &i, &kind) < 0)
		return -1;
	if (kind == JSL_UNSET) {
		*out = dflt;
		return 0;
	}
	if (kind == JSL_INFINITE) {
		*out = PRIO_INFINITE;
		return 0;
	}
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
	json_int_t i = 0;
	enum jsl_num kind = jsl_int(v, &i);

	if (kind == JSL_BAD || (kind == JSL_SET && i < 0))
		return job_error(ld, line, key, "expected Unix seconds, got %s",
				 jsl_type_name(v));
	/* unset and INFINITE: scontrol prints both as Unknown */
	*out = kind == JSL_SET ? (time_t)i : 0;
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
				 jsl_type_name(v));
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
		return nomem(ld, line, key);
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
		return nomem(ld, line, key);
	if (rc < 0)
		return job_error(ld, line, key, "%s, got \"%s\"", why,
				 text_quote(s, n, q, sizeof(q)));
	return 0;
}

/* Memory in MB, plain or wrapped; unset leaves the job's value alone. */
static int get_mem(struct js_loader *ld, struct js_job *j, const char *key,
		   const json_t *v, bool per_cpu)
{
	json_int_t i = 0;
	enum jsl_num kind = jsl_int(v, &i);

	if (kind == JSL_BAD || (kind == JSL_SET && i < 0))
		return job_error(ld, j->line, key, "expected megabytes, got %s",
				 jsl_type_name(v));
	if (kind == JSL_UNSET)
		return 0;
	/* INFINITE: the whole node's memory, which Slurm stores as 0 */
	j->job.min_memory = kind == JSL_SET ? (uint64_t)i : 0;
	j->job.mem_per_cpu = per_cpu;
	return 0;
}

/* scontrol prints one state: the first of these flags that is set, else
 * the base state (job_state_string()).  v0.0.40 on prints the base state
 * and every flag; flags scontrol does not print (LAUNCH_FAILED,
 * RECONFIG_FAIL, POWER_UP_NODE) are skipped as it skips them. */
static const char *const state_flags[] = {
    "COMPLETING", "STAGE_OUT",	  "CONFIGURING",  "RESIZING",
    "REQUEUED",	  "REQUEUE_FED",  "REQUEUE_HOLD", "SPECIAL_EXIT",
    "STOPPED",	  "REVOKED",	  "RESV_DEL_HOLD", "SIGNALING",
};
static const char *const state_ignored[] = {"LAUNCH_FAILED", "RECONFIG_FAIL",
					    "POWER_UP_NODE"};

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

static int parse_state(struct js_loader *ld, struct js_job *j, const char *s,
		       size_t n, enum prio_job_state *st)
{
	char q[48];

	if (prio_job_state_parse(s, n, st) < 0)
		return job_error(ld, j->line, "job_state",
				 "unknown job state \"%s\"",
				 text_quote(s, n, q, sizeof(q)));
	return 0;
}

static int get_state(struct js_loader *ld, struct js_job *j, const json_t *v)
{
	enum prio_job_state st;
	const char *base = NULL;
	size_t best = sizeof(state_flags) / sizeof(state_flags[0]), i;
	const json_t *e;

	if (json_is_string(v)) {
		if (parse_state(ld, j, json_string_value(v),
				json_string_length(v), &st) < 0)
			return -1;
		j->job.state = (uint8_t)st;
		return 0;
	}
	if (!json_is_array(v))
		return job_error(ld, j->line, "job_state",
				 "expected a string or an array of strings, "
				 "got %s",
				 jsl_type_name(v));
	json_array_foreach(v, i, e)
	{
		const char *s = json_string_value(e);
		size_t k;

		if (!s)
			return job_error(ld, j->line, "job_state",
					 "expected an array of strings, got "
					 "%s in it",
					 jsl_type_name(e));
		for (k = 0; k < best; k++)
			if (strcmp(s, state_flags[k]) == 0)
				break;
		if (k < best) {
			best = k;
			continue;
		}
		if (in_list(s, state_flags,
			    sizeof(state_flags) / sizeof(state_flags[0])) ||
		    in_list(s, state_ignored, sizeof(state_ignored) /
						  sizeof(state_ignored[0])))
			continue;
		if (parse_state(ld, j, s, strlen(s), &st) < 0)
			return -1;
		if (base)
			return job_error(ld, j->line, "job_state",
					 "job %u: two base states, %s and %s",
					 j->job.job_id, base, s);
		base = s;
	}
	if (best < sizeof(state_flags) / sizeof(state_flags[0]))
		base = state_flags[best];
	if (!base)
		return job_error(ld, j->line, "job_state",
				 "job %u: no base state in job_state",
				 j->job.job_id);
	if (parse_state(ld, j, base, strlen(base), &st) < 0)
		return -1;
	j->job.state = (uint8_t)st;
	return 0;
}

/* squeue's "shared" in scontrol's OverSubscribe words: null or [] is
 * scontrol's OK (the partition decides). */
static int get_shared(struct js_loader *ld, struct js_job *j, const json_t *v)
{
	static const char *const map[][2] = {
	    {"none", "NO"}, {"oversubscribe", "YES"}, {"user", "USER"},
	    {"mcs", "MCS"}, {"topo", "TOPO"},
	};
	const char *s = "", *w = "OK";
	char q[48];

	if (json_is_array(v)) {
		if (json_array_size(v) > 1)
			return job_error(ld, j->line, "shared",
					 "expected at most one word, got %zu",
					 json_array_size(v));
		if (json_array_size(v) == 1)
			v = json_array_get(v, 0);
		else
			v = json_null();
	}
	if (!json_is_null(v)) {
		size_t n;

		if (get_str(ld, j->line, "shared", v, &s, &n) < 0)
			return -1;
		w = NULL;
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (strcmp(s, map[i][0]) == 0)
				w = map[i][1];
		if (!w)
			return job_error(ld, j->line, "shared",
					 "unknown sharing \"%s\"",
					 text_quote(s, n, q, sizeof(q)));
	}
	if (lc_intern(ld->snap, &ld->last[L_OVER], w, strlen(w),
		      &j->job.oversubscribe) < 0)
		return nomem(ld, j->line, "shared");
	return 0;
}

static struct prio_job_alloc *new_alloc(struct js_loader *ld)
{
	struct prio_job_alloc *a;

	if (ld->alloc_count == ld->alloc_cap) {
		uint32_t cap = ld->alloc_cap ? ld->alloc_cap * 2 : 16;

		a = realloc(ld->allocs, cap * sizeof(*a));
		if (!a)
			return NULL;
		ld->allocs = a;
		ld->alloc_cap = cap;
	}
	a = &ld->allocs[ld->alloc_count++];
	memset(a, 0, sizeof(*a));
	return a;
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

/* A member of an allocation entry that must be there. */
static const json_t *need(struct js_loader *ld, struct js_job *j,
			  const json_t *o, const char *key, const char *path)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		job_error(ld, j->line, path,
			  "job %u: allocation entry without %s: the "
			  "allocation is unknown",
			  j->job.job_id, path);
	return v;
}

/* One node of the allocation. */
static int add_alloc(struct js_loader *ld, struct js_job *j,
		     const char *field, const json_t *name, uint32_t cpus,
		     uint32_t mem_mb)
{
	struct prio_job_alloc *a;

	if (!json_is_string(name))
		return job_error(ld, j->line, field,
				 "expected a node name, got %s",
				 jsl_type_name(name));
	if (!(a = new_alloc(ld)) ||
	    lc_intern(ld->snap, &ld->last[L_NODES], json_string_value(name),
		      json_string_length(name), &a->nodes) < 0)
		return nomem(ld, j->line, "job_resources");
	a->cpus = cpus;
	a->mem_mb = mem_mb;
	return 0;
}

/* v0.0.38 to v0.0.40: allocated_nodes[] with the cores listed. */
static int old_allocation(struct js_loader *ld, struct js_job *j,
			  const json_t *nodes)
{
	const json_t *node, *name, *mem;
	size_t i;

	json_array_foreach(nodes, i, node)
	{
		uint32_t m = 0;

		if (!(name = need(ld, j, node, "nodename", "nodename")) ||
		    !(mem = need(ld, j, node, "memory_allocated",
				 "memory_allocated")) ||
		    get_u32(ld, j->line, "memory_allocated", mem, 0, &m) < 0 ||
		    add_alloc(ld, j, "nodename", name,
			      count_cores(json_object_get(node, "sockets")),
			      m) < 0)
			return -1;
	}
	return 0;
}

/* v0.0.41 on: nodes.allocation[] with each node's CPU count. */
static int new_allocation(struct js_loader *ld, struct js_job *j,
			  const json_t *list)
{
	const json_t *node, *name, *cpus, *mem, *count, *alloc;
	size_t i;

	json_array_foreach(list, i, node)
	{
		uint32_t n = 0, m = 0;

		if (!(name = need(ld, j, node, "name", "nodes.allocation.name")) ||
		    !(cpus = need(ld, j, node, "cpus", "nodes.allocation.cpus")) ||
		    !(mem = need(ld, j, node, "memory",
				 "nodes.allocation.memory")) ||
		    !(count = need(ld, j, cpus, "count",
				   "nodes.allocation.cpus.count")) ||
		    !(alloc = need(ld, j, mem, "allocated",
				   "nodes.allocation.memory.allocated")) ||
		    get_u32(ld, j->line, "nodes.allocation.cpus.count", count,
			    0, &n) < 0 ||
		    get_u32(ld, j->line, "nodes.allocation.memory.allocated",
			    alloc, 0, &m) < 0 ||
		    add_alloc(ld, j, "nodes.allocation.name", name, n, m) < 0)
			return -1;
	}
	return 0;
}

/* The per-node allocation.  null, {} (or, in 22.05, no member) is a job
 * without resources; any other object must hold its version's list, else
 * the allocation would silently read as empty. */
static int get_resources(struct js_loader *ld, struct js_job *j,
			 const json_t *v)
{
	const json_t *old, *nodes, *list = NULL;

	ld->alloc_count = 0;
	/* v0.0.39 to v0.0.41 print {} for "none", later versions null */
	if (json_is_null(v) || (json_is_object(v) && json_object_size(v) == 0))
		return 0;
	if (!json_is_object(v))
		return job_error(ld, j->line, "job_resources",
				 "expected an object, got %s",
				 jsl_type_name(v));
	old = json_object_get(v, "allocated_nodes");
	nodes = json_object_get(v, "nodes");
	if (json_is_object(nodes))
		list = json_object_get(nodes, "allocation");
	if (ld->parser && ld->parser < FIRST_NODES_ALLOCATION)
		list = NULL;
	else if (ld->parser >= FIRST_NODES_ALLOCATION)
		old = NULL;
	if (old) {
		if (!json_is_array(old))
			return job_error(ld, j->line, "allocated_nodes",
					 "expected an array, got %s",
					 jsl_type_name(old));
		return old_allocation(ld, j, old);
	}
	if (list) {
		if (!json_is_array(list))
			return job_error(ld, j->line, "nodes.allocation",
					 "expected an array, got %s",
					 jsl_type_name(list));
		return new_allocation(ld, j, list);
	}
	return job_error(ld, j->line,
			 ld->parser && ld->parser < FIRST_NODES_ALLOCATION
			     ? "allocated_nodes"
			     : "nodes.allocation",
			 "job %u: job_resources without its list of nodes: "
			 "the allocation is unknown",
			 j->job.job_id);
}

static int read_member(struct js_loader *ld, struct js_job *j,
		       const struct js_key *k, const json_t *v)
{
	char *job = (char *)&j->job, *det = (char *)&j->d;
	const char *key = k->key, *s;
	uint32_t line = j->line, u;
	json_int_t i = 0;
	enum jsl_num kind;
	size_t n;

	switch ((enum js_read)k->read) {
	case RD_JOB_ID:
		return get_u32(ld, line, key, v, 0, &j->job.job_id);
	case RD_PRIORITY:
		return get_u32(ld, line, key, v, 0, &j->job.priority);
	case RD_STATE:
		return get_state(ld, j, v);
	case RD_PARTITION: {
		const struct lc_id_list *l;

		if (get_str(ld, line, key, v, &s, &n) < 0)
			return -1;
		if (!(l = lc_name_list(ld->snap, &ld->parts, s, n)))
			return nomem(ld, line, key);
		j->job.partitions = l->ids;
		j->job.partition_count = l->count;
		return 0;
	}
	case RD_USER_NAME:
		return get_name(ld, line, key, v, &ld->last[L_USER],
				&j->job.user);
	case RD_U32:
		return get_u32(ld, line, key, v, 0, (uint32_t *)(job + k->off));
	case RD_U32_NOVAL:
		return get_u32(ld, line, key, v, PRIO_NO_VAL,
			       (uint32_t *)(job + k->off));
	case RD_TIME:
		return get_time(ld, line, key, v, (time_t *)(job + k->off));
	case RD_ID:
		return get_name(ld, line, key, v, &ld->last[k->cache],
				(prio_id *)(job + k->off));
	case RD_QOS:
		/* 24.11: a job submitted with several QOS prints them as
		 * requested, as scontrol does; the release check and the
		 * sort come at link time (prio_jobs_link) */
		if (json_is_string(v) && strchr(json_string_value(v), ',')) {
			struct prio_job_qos_list *l = NULL;
			char q[48];
			int rc = prio_job_qos_list_parse(
			    ld->snap, json_string_value(v),
			    json_string_length(v), line, &l);

			if (rc == -1)
				return nomem(ld, line, key);
			if (rc < 0)
				return job_error(
				    ld, line, key,
				    "an empty name in the QOS list \"%s\"",
				    text_quote(json_string_value(v),
					       json_string_length(v), q,
					       sizeof(q)));
			/* a rare field: the job's detail holds it */
			j->d.qos_list = l;
			j->has_detail = true;
			j->job.qos = l->ids[0];
			return 0;
		}
		return get_name(ld, line, key, v, &ld->last[L_QOS], &j->job.qos);
	case RD_DETAIL_ID: {
		prio_id *id = (prio_id *)(det + k->off);

		if (get_name(ld, line, key, v, &ld->last[k->cache], id) < 0)
			return -1;
		j->has_detail |= *id != PRIO_NO_ID;
		return 0;
	}
	case RD_TRES:
		return get_tres(ld, line, key, v,
				(struct prio_tres_list *)(job + k->off));
	case RD_JOB_NAME:
		if (get_str(ld, line, key, v, &s, &n) < 0)
			return -1;
		j->job.name = prio_arena_strndup(&ld->snap->arena, s, n);
		return j->job.name ? 0 : nomem(ld, line, key);
	case RD_NICE:
		if (get_int(ld, line, key, v, &i, &kind) < 0)
			return -1;
		if (kind != JSL_SET)
			return 0; /* 22.05's null: nice 0 */
		if (i < INT32_MIN || i > (json_int_t)UINT32_MAX)
			return job_error(ld, line, key, "nice %lld out of range",
					 (long long)i);
		/* the unsigned image of a negative nice */
		j->job.nice = i > INT32_MAX ? (int32_t)(i - 4294967296LL)
					    : (int32_t)i;
		return 0;
	case RD_SHARED:
		return get_shared(ld, j, v);
	case RD_MEM_CPU:
		return get_mem(ld, j, key, v, true);
	case RD_MEM_NODE:
		return get_mem(ld, j, key, v, false);
	case RD_RESOURCES:
		return get_resources(ld, j, v);
	case RD_REQUEUE:
		if (!json_is_boolean(v))
			return job_error(ld, line, key,
					 "expected true or false, got %s",
					 jsl_type_name(v));
		j->job.requeue = json_is_true(v);
		return 0;
	case RD_RESTARTS:
		if (get_u32(ld, line, key, v, 0, &u) < 0)
			return -1;
		j->d.restarts = u;
		j->has_detail |= u != 0;
		return 0;
	case RD_CPUS_PER_TASK:
		if (get_u32(ld, line, key, v, 0, &u) < 0)
			return -1;
		if (u > UINT16_MAX)
			return job_error(ld, line, key, "%u is too large", u);
		j->job.cpus_per_task = (uint16_t)u;
		return 0;
	case RD_HET_OFFSET:
		return get_u32(ld, line, key, v, PRIO_NO_VAL,
			       &j->d.het_job_offset);
	case RD_ARRAY_TEXT:
		if (get_str(ld, line, key, v, &s, &n) < 0)
			return -1;
		if (n && lc_intern(ld->snap, &ld->last[L_MISC], s, n,
				   &j->job.array_task_text) < 0)
			return nomem(ld, line, key);
		return 0;
	case RD_PREEMPTABLE: {
		time_t t;

		if (get_time(ld, line, key, v, &t) < 0)
			return -1;
		j->d.preempt_eligible_time = t;
		j->has_detail |= t != 0;
		return 0;
	}
	}
	return 0;
}

static const char *const core_order[] = {"job_id", "job_state", "priority",
					 "partition", "user_name"};

static bool in_version(const struct js_loader *ld, const struct js_key *k)
{
	return !ld->parser || (ld->parser >= k->first && ld->parser <= k->last);
}

/* A member the job lacks: refused when its version always prints it. */
static int missing(struct js_loader *ld, struct js_job *j,
		   const struct js_key *k)
{
	if (k->read == RD_JOB_ID)
		return job_error(ld, j->line, "job_id",
				 "job object without job_id");
	if (k->core)
		return job_error(ld, j->line, k->key, "job %u has no %s",
				 j->job.job_id, k->key);
	return job_error(ld, j->line, k->key,
			 "job %u has no %s (data_parser v0.0.%u prints it "
			 "for every job)",
			 j->job.job_id, k->key, ld->parser);
}

static int finish_job(struct js_loader *ld, struct js_job *j)
{
	struct prio_job *job = &j->job, *slot;
	const char *r;

	j->d.nodes_shown = prio_job_requested_nodes(job);
	j->has_detail |= j->d.nodes_shown != 0;
	/* v0.0.38 (22.05) leaves the planned nodes out on purpose: squeue
	 * --start's SCHEDNODES cannot be told from it */
	job->sched_nodes_unknown = ld->parser == 38;
	if (job->het_job_id == 0)
		j->d.het_job_offset = PRIO_NO_VAL;
	else
		j->has_detail = true;
	r = prio_snapshot_str(ld->snap, job->reason);
	job->held = job->priority == 0 && strncmp(r, "JobHeld", 7) == 0;
	job->held_by_admin = job->held && strcmp(r, "JobHeldAdmin") == 0;
	if (ld->alloc_count) {
		size_t size = ld->alloc_count * sizeof(*ld->allocs);

		if (!(j->d.allocs = prio_arena_alloc(&ld->snap->arena, size)))
			return nomem(ld, j->line, "");
		memcpy(j->d.allocs, ld->allocs, size);
		j->d.alloc_count = ld->alloc_count;
		j->has_detail = true;
	}
	if (j->has_detail) {
		struct prio_job_detail *p =
		    prio_arena_alloc(&ld->snap->arena, sizeof(*p));

		if (!p)
			return nomem(ld, j->line, "");
		*p = j->d;
		job->detail = p;
	}
	if (!(slot = prio_snapshot_new_job(ld->snap)))
		return nomem(ld, j->line, "");
	*slot = *job;
	ld->records++;
	return 0;
}

static int load_job(struct js_loader *ld, const json_t *obj, uint32_t line)
{
	struct js_job j;
	uint64_t seen = 0;
	const char *key;
	json_t *v;

	_Static_assert(NKEYS <= 64, "one bit per key");
	if (!json_is_object(obj))
		return job_error(ld, line, "jobs",
				 "expected a job object, got %s",
				 jsl_type_name(obj));
	memset(&j, 0, sizeof(j));
	j.job.array_task_id = PRIO_NO_VAL;
	j.job.uid = PRIO_NO_VAL;
	j.job.time_limit = PRIO_NO_VAL;
	j.job.num_tasks = PRIO_NO_VAL;
	j.job.file = ld->file;
	j.job.line = line;
	j.d.het_job_offset = PRIO_NO_VAL;
	j.line = line;
	ld->alloc_count = 0;
	/* job_id first, so that every later message can name the job */
	if ((v = json_object_get(obj, "job_id")) &&
	    get_u32(ld, line, "job_id", v, 0, &j.job.job_id) < 0)
		return -1;
	json_object_foreach((json_t *)obj, key, v)
	{
		const struct js_key *k =
		    bsearch(key, keys, NKEYS, sizeof(keys[0]), key_cmp);

		if (!k || !in_version(ld, k))
			continue;
		seen |= 1ull << (k - keys);
		if (read_member(ld, &j, k, v) < 0)
			return -1;
	}
	/* The core members first, in the order of the older messages. */
	for (size_t c = 0; c < sizeof(core_order) / sizeof(core_order[0]);
	     c++) {
		const struct js_key *k = bsearch(core_order[c], keys, NKEYS,
						 sizeof(keys[0]), key_cmp);

		if (!(seen & (1ull << (k - keys))))
			return missing(ld, &j, k);
	}
	for (size_t i = 0; ld->parser && i < NKEYS; i++)
		if (!(seen & (1ull << i)) && in_version(ld, &keys[i]) &&
		    ld->parser >= keys[i].need)
			return missing(ld, &j, &keys[i]);
	return finish_job(ld, &j);
}

/* The checks of the document around the jobs, in the whole reading's
 * order: squeue's own errors, a "jobs" array, the data_parser version. */
static int check_root(struct js_loader *ld, const json_t *root)
{
	const json_t *errors, *jobs;
	struct jsl_meta meta;

	if (!json_is_object(root))
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1, "",
				      "expected squeue --json output (an object "
				      "with a \"jobs\" array)");
	errors = json_object_get(root, "errors");
	if (json_is_array(errors) && json_array_size(errors) > 0) {
		const json_t *e = json_array_get(errors, 0);
		const char *what =
		    json_string_value(json_object_get(e, "error"));

		if (!what)
			what = json_string_value(
			    json_object_get(e, "description"));
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1,
				      "errors",
				      "squeue reported an error: %.200s",
				      what ? what : "(no description)");
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs))
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1,
				      "jobs",
				      "expected squeue --json output (an object "
				      "with a \"jobs\" array)");
	jsl_meta_read(root, &meta);
	if (meta.parser && (meta.parser < 38 || meta.parser > 45))
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name, 1,
				      "meta", "data_parser v0.0.%u: only v0.0.38 "
				      "(Slurm 22.05) to v0.0.45 (26.05) are "
				      "known",
				      meta.parser);
	ld->parser = meta.parser;
	if (meta.release)
		prio_snapshot_note_version(ld->snap, meta.release,
					   PRIO_VERSION_JSON);
	return 0;
}

/* The whole document parsed at once: what says exactly what is wrong with
 * a document, and reads one with json-c's bare non-finite numbers. */
static int load_whole(struct js_loader *ld, const struct prio_source *src)
{
	json_error_t je;
	json_t *root, *jobs, *obj;
	uint32_t *lines = NULL;
	size_t nlines = 0, i, qn;
	char *quoted;
	int rc = 0;

	if (!(quoted = jsl_quote_nonfinite(src->data, src->size, &qn)) && qn)
		return nomem(ld, 0, "");
	root = json_loadb(quoted ? quoted : src->data, quoted ? qn : src->size,
			  JSON_REJECT_DUPLICATES, &je);
	free(quoted);
	if (!root)
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name,
				      je.line > 0 ? (unsigned long)je.line : 0,
				      "", "invalid JSON: %s", je.text);
	if ((rc = check_root(ld, root)) < 0)
		goto out;
	jobs = json_object_get(root, "jobs");
	lines = jsl_element_lines(src->data, src->size, "jobs", NULL, &nlines);
	if (!lines) {
		rc = nomem(ld, 0, "");
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

/*
 * Issue 17: the document split by a light scan of its structure, and each
 * job's object parsed, read and freed in turn, so that jansson's tree of
 * one job at a time is in memory (the whole tree took six times the text)
 * and stays warm in the cache.  Only for a plain document: one object
 * whose members have names without escapes, a "jobs" array of objects,
 * no bare non-finite number.  Anything else, and anything that goes wrong
 * in a job (a syntax error jansson finds, a job refused without
 * --keep-going), puts the snapshot back as it was and leaves the document
 * to load_whole(), whose error comes first where the whole parse finds it.
 */
struct js_span {
	size_t off, len;
	uint32_t line;
};

struct js_scan {
	const char *s;
	size_t n, i;
	uint32_t line;
};

static void scan_ws(struct js_scan *sc)
{
	for (; sc->i < sc->n; sc->i++) {
		char c = sc->s[sc->i];

		if (c == '\n')
			sc->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
	}
}

/* Past a string at sc->i (its '"'); false when it does not end. */
static bool scan_string(struct js_scan *sc)
{
	for (sc->i++; sc->i < sc->n; sc->i++) {
		char c = sc->s[sc->i];

		if (c == '"') {
			sc->i++;
			return true;
		}
		if (c == '\\')
			sc->i++;
		else if (c == '\n')
			sc->line++;
	}
	return false;
}

/* Past one value at sc->i, by its brackets and strings (jansson judges the
 * rest); false when the brackets do not close. */
static bool scan_value(struct js_scan *sc)
{
	unsigned depth = 0;

	while (sc->i < sc->n) {
		char c = sc->s[sc->i];

		if (c == '"') {
			if (!scan_string(sc))
				return false;
			if (!depth)
				return true;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return true; /* the end of a scalar */
			if (--depth == 0) {
				sc->i++;
				return true;
			}
		} else if (!depth && (c == ',' || c == ' ' || c == '\t' ||
				      c == '\r' || c == '\n')) {
			return true;
		} else if (c == '\n') {
			sc->line++;
		}
		sc->i++;
	}
	return depth == 0;
}

/* Split src: root gets every member but "jobs" (parsed), *spans the jobs'
 * objects.  false: not plain enough (or out of memory), use load_whole(). */
static bool scan_document(const char *s, size_t n, json_t *root,
			  struct js_span **spans, size_t *count)
{
	struct js_scan sc = {s, n, 0, 1};
	size_t cap = 0;
	bool have_jobs = false;

	*spans = NULL;
	*count = 0;
	scan_ws(&sc);
	if (sc.i >= n || s[sc.i++] != '{')
		return false;
	for (;;) {
		size_t key, key_len, val;
		json_error_t je;
		json_t *v;
		char name[64];

		scan_ws(&sc);
		if (sc.i < n && s[sc.i] == '}' && !json_object_size(root) &&
		    !have_jobs) {
			sc.i++;
			break;
		}
		if (sc.i >= n || s[sc.i] != '"')
			return false;
		key = sc.i + 1;
		if (!scan_string(&sc))
			return false;
		key_len = sc.i - 1 - key;
		if (key_len >= sizeof(name) || memchr(s + key, '\\', key_len))
			return false;
		memcpy(name, s + key, key_len);
		name[key_len] = '\0';
		scan_ws(&sc);
		if (sc.i >= n || s[sc.i++] != ':')
			return false;
		scan_ws(&sc);
		if (strcmp(name, "jobs") == 0) {
			if (have_jobs || sc.i >= n || s[sc.i++] != '[')
				return false;
			have_jobs = true;
			scan_ws(&sc);
			if (sc.i < n && s[sc.i] == ']') {
				sc.i++;
			} else {
				for (;;) {
					struct js_span sp = {sc.i, 0, sc.line};

					if (sc.i >= n || s[sc.i] != '{' ||
					    !scan_value(&sc))
						return false;
					sp.len = sc.i - sp.off;
					if (*count == cap) {
						size_t nc = cap ? 2 * cap : 256;
						void *g = realloc(*spans,
								  nc * sizeof(**spans));

						if (!g)
							return false;
						*spans = g;
						cap = nc;
					}
					(*spans)[(*count)++] = sp;
					scan_ws(&sc);
					if (sc.i < n && s[sc.i] == ',') {
						sc.i++;
						scan_ws(&sc);
						continue;
					}
					if (sc.i < n && s[sc.i] == ']') {
						sc.i++;
						break;
					}
					return false;
				}
			}
		} else {
			val = sc.i;
			if (!scan_value(&sc) || sc.i == val ||
			    json_object_get(root, name))
				return false;
			v = json_loadb(s + val, sc.i - val,
				       JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
				       &je);
			if (!v || json_object_set_new(root, name, v) < 0)
				return false;
		}
		scan_ws(&sc);
		if (sc.i < n && s[sc.i] == ',') {
			sc.i++;
			continue;
		}
		if (sc.i < n && s[sc.i] == '}') {
			sc.i++;
			break;
		}
		return false;
	}
	scan_ws(&sc);
	return sc.i == n && have_jobs;
}

/* 1: read; 0: not plain, snapshot as it was, use load_whole(); < 0: an
 * error of the document (as load_whole() would give it first). */
static int load_split(struct js_loader *ld, const struct prio_source *src)
{
	struct prio_snapshot *snap = ld->snap;
	uint32_t jobs0 = snap->job_count, warnings0 = snap->warning_count;
	size_t count = 0, qn;
	unsigned long records0 = ld->records;
	struct js_span *spans = NULL;
	json_t *root = json_object();
	char *quoted;
	int rc = 0;

	if (!root)
		return 0;
	if ((quoted = jsl_quote_nonfinite(src->data, src->size, &qn)) || qn) {
		free(quoted);
		json_decref(root);
		return 0;
	}
	if (!scan_document(src->data, src->size, root, &spans, &count) ||
	    json_object_set_new(root, "jobs", json_array()) < 0)
		goto whole;
	/* an error here may come after a syntax error in a job for the
	 * whole parse: let it tell */
	if (check_root(ld, root) < 0)
		goto undo;
	for (size_t i = 0; i < count; i++) {
		json_error_t je;
		json_t *obj = json_loadb(src->data + spans[i].off, spans[i].len,
					 JSON_REJECT_DUPLICATES, &je);
		int r;

		if (!obj)
			goto undo;
		r = load_job(ld, obj, spans[i].line);
		json_decref(obj);
		/* the caches' last strings were in the tree just freed */
		memset(ld->last, 0, sizeof(ld->last));
		ld->tres.last_s = ld->parts.last_s = NULL;
		if (r == 0)
			continue;
		if (!snap->keep_going || ld->err->status == PRIO_ERR_NOMEM)
			goto undo;
		if ((rc = prio_snapshot_record_error(snap, ld->err)) < 0)
			goto out;
	}
	rc = 1;
	goto out;
undo:
	snap->job_count = jobs0;
	snap->warning_count = warnings0;
	ld->records = records0;
	prio_error_clear(ld->err);
whole:
	rc = 0;
out:
	free(spans);
	json_decref(root);
	return rc;
}

static int load(struct js_loader *ld, const struct prio_source *src)
{
	const char *nul = memchr(src->data, '\0', src->size);
	int rc;

	if (nul)
		return prio_error_set(
		    ld->err, PRIO_ERR_PARSE, ld->name,
		    jsl_line_of(src->data, (size_t)(nul - src->data)), "",
		    "NUL byte in input");
	if ((rc = load_split(ld, src)) != 0)
		return rc < 0 ? rc : 0;
	return load_whole(ld, src);
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
