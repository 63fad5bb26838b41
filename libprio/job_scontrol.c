/* SPDX-License-Identifier: MIT */
/*
 * Jobs from `scontrol show job`, in its three shapes:
 *  - multi-line: a record starts with "JobId=" in column 0, continues on
 *    indented lines and ends at the next record (blank lines between);
 *  - with -d, detail lines "     Nodes=n[1-2] CPU_IDs=0-7 Mem=8192 GRES="
 *    inside the record, one per group of nodes with the same allocation;
 *  - -o: one record per line, the same pairs (detail included with -d).
 * Values are printed unquoted and may hold spaces (JobName, Command,
 * Comment, Reason descriptions): a word that does not start "Identifier="
 * belongs to the value before it (kvscan.h describes the same rule).
 *
 * Speed (DESIGN §5, a million ~1 KB lines at 1 GB/s): one pass over each
 * line; a key is recognised by its length and a fixed-size memcmp, never
 * by walking a list of names; values are parsed in place; repeated values
 * (users, partitions, TRES strings, days of timestamps) are worked out once
 * through loadcache.h; the record is built on the stack and copied once
 * into the snapshot's job array (no allocation per record).
 *
 * The job's TRES come in two formats:
 *  - 22.05 prints one TRES=: the allocation when the job has one
 *    (tres_alloc_str), else the request.  A job with a NodeList gets it as
 *    tres_alloc, others as tres_req;
 *  - 23.02 and later print ReqTRES= (always) and AllocTRES= ("(null)" until
 *    the job is allocated), read as printed into tres_req and tres_alloc.
 *    The engines take tres_alloc when it has counts, else tres_req: the
 *    same list 22.05 printed as TRES=.
 * A record must hold its format's TRES keys (TRES=, or ReqTRES= and
 * AllocTRES=); one with neither format is truncated and refused.
 *
 * A key we read appears once in a record; a second one means a value held
 * text like "Priority=5" (a job name, a comment in -o output) and the
 * record is refused rather than read with the wrong value.  In the
 * multi-line shape, Slurm prints each free-text value (Command=, WorkDir=,
 * Comment=, StdOut=, SubmitLine= ...) alone on its line: such a line is
 * skipped whole, so its text can never look like a key.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "loadcache.h"
#include "text.h"
#include "prio/snapshot.h"
#include "prio/source.h"
#include "prio/timestr.h"

/* The keys every scontrol record prints; a record without one of them is
 * truncated or not scontrol output. */
enum sc_key {
	K_JOBID,
	K_JOBNAME,
	K_USERID,
	K_PRIORITY,
	K_NICE,
	K_ACCOUNT,
	K_QOS,
	K_JOBSTATE,
	K_REASON,
	K_SUBMITTIME,
	K_PARTITION,
	K_TIMELIMIT,
	K_NUMNODES,
	K_NUMCPUS,
	K_TRES,	     /* 22.05 */
	K_REQTRES,   /* 23.02 and later */
	K_ALLOCTRES, /* 23.02 and later */
	K_COUNT
};

static const char *const key_names[K_COUNT] = {
    "JobId",	 "JobName",   "UserId",	  "Priority", "Nice",
    "Account",	 "QOS",	      "JobState", "Reason",   "SubmitTime",
    "Partition", "TimeLimit", "NumNodes", "NumCPUs",  "TRES",
    "ReqTRES",	 "AllocTRES",
};

#define KEY_BIT(k) (1u << (k))
#define REQUIRED_COMMON (KEY_BIT(K_TRES) - 1)
#define REQUIRED_2205 (REQUIRED_COMMON | KEY_BIT(K_TRES))
#define REQUIRED_2302                                                          \
	(REQUIRED_COMMON | KEY_BIT(K_REQTRES) | KEY_BIT(K_ALLOCTRES))
#define TRES_2302 (KEY_BIT(K_REQTRES) | KEY_BIT(K_ALLOCTRES))
#define MAX_ALLOCS 65536u /* detail lines per job */

/* One Key=Value of a line, as offsets into it: the key is [k, e), the '='
 * at e, the value (e, vend). */
struct sc_pair {
	uint32_t k, e, vend;
};

/* What splits lines into pairs: pure work on the text, touching nothing of
 * the snapshot, so that a second thread can do it (see "two threads"). */
struct splitter {
	const char *limit; /* end of the input: words may be read up to it */
	uint64_t m_start[PRIO_MAX_LINE / 64 + 2]; /* the line's masks */
	uint64_t m_keyeq[PRIO_MAX_LINE / 64 + 2];
	struct sc_pair *pairs; /* the line's pairs (or a chunk's) */
	uint32_t count, cap;
};

struct pipe;

struct sc_loader {
	struct prio_snapshot *snap;
	const char *name;  /* for errors */
	const char *file;  /* arena copy, for records */
	struct prio_error *err;
	struct splitter split; /* lines split here (one thread) */
	struct pipe *pipe;     /* or by a second thread (large inputs) */
	struct lc_time_cache times;
	struct lc_table tres, parts, t_user, t_account, t_qos, t_reason;
	struct lc_last l_nodes, l_over, l_dep, l_host, l_misc, l_alloc;

	/* the record being read */
	bool open; /* a record has started */
	bool bad;  /* it had an error: skip to the next record */
	bool has_detail;
	bool reason_held, reason_admin;
	uint32_t seen; /* 1 << enum sc_key */
	/* the TRES format of the last complete record (2205 or 2302; 0 before
	 * the first): what a record with neither format's keys lacks */
	uint16_t tres_format;
	uint32_t last_line;
	struct prio_job job;
	struct prio_job_detail detail;
	struct prio_tres_list tres_list;
	struct prio_job_alloc *allocs; /* scratch, reused */
	uint32_t alloc_count, alloc_cap;
	unsigned long records;
	/* streamed (lc_jobs_stream): any error ends the stream, nothing is
	 * recorded; run, the run of the lines read now */
	bool strict;
	uint32_t run;
};

/* A bad value: fill the error, mark the record, and let keep_going decide.
 * Returns < 0 to stop loading. */
__attribute__((format(printf, 4, 5))) static int bad_value(struct sc_loader *ld,
							   uint32_t line,
							   const char *field,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prio_error_setv(ld->err, PRIO_ERR_PARSE, ld->name, line, field, fmt,
			ap);
	va_end(ap);
	ld->bad = true;
	return ld->strict ? PRIO_ERR_PARSE
			  : prio_snapshot_record_error(ld->snap, ld->err);
}

static int nomem(struct sc_loader *ld, uint32_t line)
{
	return prio_error_set(ld->err, PRIO_ERR_NOMEM, ld->name, line, "",
			      "out of memory");
}

static void begin_record(struct sc_loader *ld, uint32_t line)
{
	memset(&ld->job, 0, sizeof(ld->job));
	ld->job.array_task_id = PRIO_NO_VAL;
	ld->job.uid = PRIO_NO_VAL;
	ld->job.time_limit = PRIO_NO_VAL;
	ld->job.num_tasks = PRIO_NO_VAL;
	ld->job.line = line;
	ld->job.file = ld->file;
	memset(&ld->detail, 0, sizeof(ld->detail));
	ld->detail.het_job_offset = PRIO_NO_VAL;
	memset(&ld->tres_list, 0, sizeof(ld->tres_list));
	ld->has_detail = false;
	ld->reason_held = ld->reason_admin = false;
	ld->alloc_count = 0;
	ld->seen = 0;
	ld->open = true;
	ld->bad = false;
	ld->last_line = line;
}

static int finish_record(struct sc_loader *ld, bool at_eof)
{
	struct prio_job *slot;
	uint32_t missing;

	if (!ld->open)
		return 0;
	ld->open = false;
	if (ld->bad)
		return 0;
	if ((ld->seen & KEY_BIT(K_TRES)) && (ld->seen & TRES_2302))
		return bad_value(ld, ld->last_line, "TRES",
				 "job %u: TRES= (Slurm 22.05) and %s= (23.02 "
				 "and later) in one record",
				 ld->job.job_id,
				 ld->seen & KEY_BIT(K_REQTRES) ? "ReqTRES"
							       : "AllocTRES");
	if (ld->seen & KEY_BIT(K_TRES))
		ld->tres_format = 2205;
	else if (ld->seen & TRES_2302)
		ld->tres_format = 2302;
	else if (!ld->tres_format)
		ld->tres_format =
		    prio_snapshot_slurm(ld->snap)->job_req_alloc_tres ? 2302
								      : 2205;
	missing = (ld->tres_format == 2205 ? REQUIRED_2205 : REQUIRED_2302) &
		  ~ld->seen;
	if (missing) {
		int k = __builtin_ctz(missing);

		if (at_eof)
			return bad_value(ld, ld->last_line, key_names[k],
					 "job %u: input ends before %s= "
					 "(truncated record?)",
					 ld->job.job_id, key_names[k]);
		return bad_value(ld, ld->last_line, key_names[k],
				 "job %u: record has no %s=", ld->job.job_id,
				 key_names[k]);
	}
	if (ld->tres_format == 2302)
		; /* ReqTRES= and AllocTRES= went where they belong */
	else if (ld->job.node_list != PRIO_NO_ID)
		ld->job.tres_alloc = ld->tres_list;
	else
		ld->job.tres_req = ld->tres_list;
	ld->detail.nodes_shown = prio_job_requested_nodes(&ld->job);
	ld->has_detail |= ld->detail.nodes_shown != 0;
	ld->job.held = ld->job.priority == 0 && ld->reason_held;
	ld->job.held_by_admin = ld->job.held && ld->reason_admin;
	if (ld->alloc_count) {
		size_t size = ld->alloc_count * sizeof(*ld->allocs);

		ld->detail.allocs = prio_arena_alloc(&ld->snap->arena, size);
		if (!ld->detail.allocs)
			return nomem(ld, ld->job.line);
		memcpy(ld->detail.allocs, ld->allocs, size);
		ld->detail.alloc_count = ld->alloc_count;
		ld->has_detail = true;
	}
	if (ld->has_detail) {
		struct prio_job_detail *d =
		    prio_arena_alloc(&ld->snap->arena, sizeof(*d));

		if (!d)
			return nomem(ld, ld->job.line);
		*d = ld->detail;
		ld->job.detail = d;
	}
	slot = prio_snapshot_new_job(ld->snap);
	if (!slot)
		return nomem(ld, ld->job.line);
	*slot = ld->job;
	ld->records++;
	return 0;
}

/* --- values ------------------------------------------------------------- */

static int intern_or_unset(struct sc_loader *ld, struct lc_last *l,
			   const char *v, size_t n, prio_id *id)
{
	if (lc_unset(v, n)) {
		*id = PRIO_NO_ID;
		return 0;
	}
	return lc_intern(ld->snap, l, v, n, id);
}

static int intern_or_unset_t(struct sc_loader *ld, struct lc_table *t,
			     const char *v, size_t n, prio_id *id)
{
	if (lc_unset(v, n)) {
		*id = PRIO_NO_ID;
		return 0;
	}
	return lc_intern_t(ld->snap, t, v, n, id);
}

/* "8" or "4-8" (NumNodes, NumCPUs). */
static int min_max(const char *v, size_t n, uint32_t *lo, uint32_t *hi)
{
	const char *dash = memchr(v, '-', n);

	if (!dash) {
		*hi = 0;
		return lc_u32(v, n, lo);
	}
	if (lc_u32(v, (size_t)(dash - v), lo) < 0 ||
	    lc_u32(dash + 1, n - (size_t)(dash - v) - 1, hi) < 0)
		return -1;
	return 0;
}

static int parse_int32(const char *v, size_t n, int32_t *out)
{
	uint32_t u;

	if (n > 1 && v[0] == '-') {
		if (lc_u32(v + 1, n - 1, &u) < 0 || u > 2147483648u)
			return -1;
		*out = (int32_t)(0 - (int64_t)u);
		return 0;
	}
	if (n > 1 && v[0] == '+') {
		v++;
		n--;
	}
	if (lc_u32(v, n, &u) < 0 || u > INT32_MAX)
		return -1;
	*out = (int32_t)u;
	return 0;
}

static int timestamp(struct sc_loader *ld, uint32_t line, const char *field,
		     const char *v, size_t n, time_t *t)
{
	const char *want;
	char q[48];

	if (lc_timestamp(&ld->times, v, n, t) == 0)
		return 0;
	want = prio_timestamp_expected(v, n);
	return bad_value(ld, line, field, "expected %s, got \"%s\"",
			 want ? want : "a timestamp (YYYY-MM-DDTHH:MM:SS)",
			 text_quote(v, n, q, sizeof(q)));
}

/* "UserId=alice(1001)": a name and a uid. */
static int user_id(struct sc_loader *ld, uint32_t line, const char *v, size_t n)
{
	const char *lp = NULL;
	char q[48];

	for (size_t i = n; i-- > 0;)
		if (v[i] == '(') {
			lp = v + i;
			break;
		}
	if (lp && v[n - 1] == ')' && lp > v) {
		size_t un = (size_t)(lp - v);

		if (lc_u32(lp + 1, n - un - 2, &ld->job.uid) < 0)
			return bad_value(ld, line, "UserId",
					 "expected name(uid), got \"%s\"",
					 text_quote(v, n, q, sizeof(q)));
		if (un == 6 && memcmp(v, "(null)", 6) == 0)
			return 0;
		if (lc_intern_t(ld->snap, &ld->t_user, v, un, &ld->job.user) <
		    0)
			return nomem(ld, line);
		return 0;
	}
	if (n == 0 || lp)
		return bad_value(ld, line, "UserId",
				 "expected name(uid), got \"%s\"",
				 text_quote(v, n, q, sizeof(q)));
	/* a bare name or number: keep what there is */
	if (lc_u32(v, n, &ld->job.uid) < 0)
		ld->job.uid = PRIO_NO_VAL;
	if (lc_intern_t(ld->snap, &ld->t_user, v, n, &ld->job.user) < 0)
		return nomem(ld, line);
	return 0;
}

static int time_limit(struct sc_loader *ld, uint32_t line, const char *v,
		      size_t n)
{
	uint32_t secs;
	char q[48];

	if (n == 15 && memcmp(v, "Partition_Limit", 15) == 0) {
		ld->job.time_limit = PRIO_NO_VAL;
		return 0;
	}
	if (lc_duration_secs(v, n, &secs) < 0 || !lc_duration_printed(v, n))
		return bad_value(ld, line, "TimeLimit",
				 "expected D-HH:MM:SS, UNLIMITED or "
				 "Partition_Limit, got \"%s\"",
				 text_quote(v, n, q, sizeof(q)));
	ld->job.time_limit =
	    secs == PRIO_INFINITE ? PRIO_INFINITE : (secs + 59) / 60;
	return 0;
}

static int array_task(struct sc_loader *ld, uint32_t line, const char *v,
		      size_t n)
{
	char q[48];

	if (lc_u32(v, n, &ld->job.array_task_id) == 0)
		return 0;
	ld->job.array_task_id = PRIO_NO_VAL;
	for (size_t i = 0; i < n; i++)
		if (!((v[i] >= '0' && v[i] <= '9') || v[i] == '-' ||
		      v[i] == ',' || v[i] == '%' || v[i] == ':'))
			n = 0;
	if (n == 0 || n > 4096)
		return bad_value(ld, line, "ArrayTaskId",
				 "expected a task id or a range like 0-9%%2, "
				 "got \"%s\"",
				 text_quote(v, n, q, sizeof(q)));
	if (lc_intern(ld->snap, &ld->l_misc, v, n, &ld->job.array_task_text) <
	    0)
		return nomem(ld, line);
	return 0;
}

static struct prio_job_alloc *new_alloc(struct sc_loader *ld)
{
	if (ld->alloc_count == ld->alloc_cap) {
		uint32_t cap = ld->alloc_cap ? ld->alloc_cap * 2 : 16;
		struct prio_job_alloc *a;

		if (cap > MAX_ALLOCS)
			return NULL;
		a = realloc(ld->allocs, cap * sizeof(*a));
		if (!a)
			return NULL;
		ld->allocs = a;
		ld->alloc_cap = cap;
	}
	memset(&ld->allocs[ld->alloc_count], 0, sizeof(*ld->allocs));
	return &ld->allocs[ld->alloc_count++];
}

/* A TRES count list (TRES=, ReqTRES=, AllocTRES=), parsed once per
 * distinct text. */
static int tres_value(struct sc_loader *ld, uint32_t line, const char *field,
		      const char *v, size_t n, struct prio_tres_list *list)
{
	const char *why = "";
	char q[48];
	int rc = lc_tres_list(ld->snap, &ld->tres, v, n, list, &why);

	if (rc == -2)
		return nomem(ld, line);
	if (rc < 0)
		return bad_value(ld, line, field, "%s, got \"%s\"", why,
				 text_quote(v, n, q, sizeof(q)));
	return 0;
}

/* The first release whose jobs may have several QOS (24.11). */
static uint16_t multi_qos_release(void)
{
	size_t n;
	const struct prio_slurm_release *r = prio_slurm_releases(&n);

	for (size_t i = 0; i < n; i++)
		if (r[i].multi_qos)
			return r[i].release;
	return PRIO_SLURM_NEWEST;
}

/* A key read twice in one record: some value held "Key=" text. */
static int second_key(struct sc_loader *ld, uint32_t line, enum sc_key key)
{
	return bad_value(ld, line, key_names[key],
			 "a second %s= in the record of job %u (a value "
			 "holding \"%s=\"?)",
			 key_names[key], ld->job.job_id, key_names[key]);
}

#define IS(lit) (kn == sizeof(lit) - 1 && memcmp(k, lit, sizeof(lit) - 1) == 0)
#define SEEN(key)                                                              \
	do {                                                                   \
		if (ld->seen & KEY_BIT(key))                                   \
			return second_key(ld, line, key);                      \
		ld->seen |= KEY_BIT(key);                                      \
	} while (0)

/* One Key=Value of the current record. */
static int on_pair(struct sc_loader *ld, const char *k, size_t kn,
		   const char *v, size_t n, uint32_t line)
{
	struct prio_job *job = &ld->job;
	char q[48];
	uint32_t u;

	switch (kn) {
	case 3:
		if (IS("QOS")) {
			SEEN(K_QOS);
			/* scontrol prints (null) for a job without QOS, never
			 * an empty value: an empty one was cut or edited */
			if (n == 0)
				return bad_value(ld, line, "QOS",
						 "empty (scontrol prints a QOS "
						 "name or (null))");
			/* 24.11: a pending job submitted with several QOS
			 * prints the request, "low,high": 24.11 or later
			 * unless a stronger source said otherwise, which
			 * prio_jobs_link() checks once every input is read */
			if (memchr(v, ',', n)) {
				struct prio_job_qos_list *l = NULL;
				int rc = prio_job_qos_list_parse(ld->snap, v, n,
								 line, &l);

				prio_snapshot_note_at_least(
				    ld->snap, multi_qos_release());

				if (rc == -1)
					return nomem(ld, line);
				if (rc < 0)
					return bad_value(
					    ld, line, "QOS",
					    "an empty name in the QOS list "
					    "\"%s\"",
					    text_quote(v, n, q, sizeof(q)));
				/* a rare field: the job's detail holds it */
				ld->detail.qos_list = l;
				ld->has_detail = true;
				job->qos = l->ids[0];
				return 0;
			}
			if (intern_or_unset_t(ld, &ld->t_qos, v, n, &job->qos) <
			    0)
				return nomem(ld, line);
		} else if (IS("Mem")) {
			uint64_t mb;

			if (!ld->alloc_count)
				return 0;
			if (lc_size_mb(v, n, &mb) < 0)
				return bad_value(
				    ld, line, "Mem",
				    "expected megabytes, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
			ld->allocs[ld->alloc_count - 1].mem_mb = mb;
		}
		return 0;
	case 4:
		if (IS("Nice")) {
			SEEN(K_NICE);
			if (parse_int32(v, n, &job->nice) < 0)
				return bad_value(
				    ld, line, "Nice",
				    "expected an integer, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("TRES")) {
			SEEN(K_TRES);
			/* only 22.05 prints TRES= (23.02 split it into
			 * ReqTRES= and AllocTRES=) */
			if (ld->snap->slurm_release_source <
			    PRIO_VERSION_FORMAT)
				prio_snapshot_note_version(
				    ld->snap, 2205, PRIO_VERSION_FORMAT);
			return tres_value(ld, line, "TRES", v, n,
					  &ld->tres_list);
		}
		return 0;
	case 5:
		if (IS("JobId")) {
			SEEN(K_JOBID);
			if (lc_u32(v, n, &job->job_id) < 0)
				return bad_value(
				    ld, line, "JobId",
				    "expected a job id, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("Nodes")) {
			struct prio_job_alloc *a = new_alloc(ld);

			if (!a)
				return ld->alloc_cap >= MAX_ALLOCS
					   ? bad_value(ld, line, "Nodes",
						       "more than %u detail "
						       "lines in one job",
						       MAX_ALLOCS)
					   : nomem(ld, line);
			if (intern_or_unset(ld, &ld->l_alloc, v, n, &a->nodes) <
			    0)
				return nomem(ld, line);
		}
		return 0;
	case 6:
		if (IS("UserId")) {
			SEEN(K_USERID);
			return user_id(ld, line, v, n);
		} else if (IS("Reason")) {
			SEEN(K_REASON);
			ld->reason_held =
			    n >= 7 && memcmp(v, "JobHeld", 7) == 0;
			ld->reason_admin =
			    n == 12 && memcmp(v, "JobHeldAdmin", 12) == 0;
			if (lc_intern_t(ld->snap, &ld->t_reason, v, n,
					&job->reason) < 0)
				return nomem(ld, line);
		}
		return 0;
	case 7:
		if (IS("JobName")) {
			SEEN(K_JOBNAME);
			/* copied, not interned: names are often unique, and
			 * hashing a million of them costs a fifth of a load */
			job->name = prio_arena_strndup(&ld->snap->arena, v, n);
			if (!job->name)
				return nomem(ld, line);
		} else if (IS("Account")) {
			SEEN(K_ACCOUNT);
			if (intern_or_unset_t(ld, &ld->t_account, v, n,
					      &job->account) < 0)
				return nomem(ld, line);
		} else if (IS("NumCPUs")) {
			SEEN(K_NUMCPUS);
			if (min_max(v, n, &job->num_cpus, &job->max_cpus) < 0)
				return bad_value(
				    ld, line, "NumCPUs",
				    "expected a count or min-max, got "
				    "\"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("EndTime")) {
			return timestamp(ld, line, "EndTime", v, n,
					 &job->end_time);
		} else if (IS("Requeue")) {
			if (n != 1 || (v[0] != '0' && v[0] != '1'))
				return bad_value(ld, line, "Requeue",
						 "expected 0 or 1, got \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
			job->requeue = v[0] == '1';
		} else if (IS("ReqTRES")) {
			SEEN(K_REQTRES);
			/* 23.02 and later (the first record says it; a
			 * stronger source may have said more already) */
			if (ld->snap->slurm_release_source <
			    PRIO_VERSION_FORMAT)
				prio_snapshot_note_version(
				    ld->snap, 2302, PRIO_VERSION_FORMAT);
			return tres_value(ld, line, "ReqTRES", v, n,
					  &job->tres_req);
		} else if (IS("CPU_IDs")) {
			if (!ld->alloc_count)
				return bad_value(
				    ld, line, "CPU_IDs",
				    "CPU_IDs= without Nodes= before it");
			if (n && lc_count_ids(
				     v, n,
				     &ld->allocs[ld->alloc_count - 1].cpus) < 0)
				return bad_value(
				    ld, line, "CPU_IDs",
				    "expected CPU ids like 0-3,8, got "
				    "\"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		}
		return 0;
	case 8:
		if (IS("Priority")) {
			SEEN(K_PRIORITY);
			if (lc_u32(v, n, &job->priority) < 0)
				return bad_value(
				    ld, line, "Priority",
				    "expected an unsigned integer, "
				    "got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("JobState")) {
			enum prio_job_state st;

			SEEN(K_JOBSTATE);
			if (prio_job_state_parse(v, n, &st) < 0)
				return bad_value(ld, line, "JobState",
						 "unknown job state \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
			job->state = (uint8_t)st;
		} else if (IS("NumNodes")) {
			SEEN(K_NUMNODES);
			if (min_max(v, n, &job->min_nodes, &job->max_nodes) < 0)
				return bad_value(
				    ld, line, "NumNodes",
				    "expected a count or min-max, got "
				    "\"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("NumTasks")) {
			if (lc_unset(v, n))
				job->num_tasks = PRIO_NO_VAL;
			else if (lc_u32(v, n, &job->num_tasks) < 0)
				return bad_value(ld, line, "NumTasks",
						 "expected a count, got \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
		} else if (IS("NodeList")) {
			if (intern_or_unset(ld, &ld->l_nodes, v, n,
					    &job->node_list) < 0)
				return nomem(ld, line);
		} else if (IS("Restarts")) {
			if (lc_u32(v, n, &u) < 0)
				return bad_value(ld, line, "Restarts",
						 "expected a count, got \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
			if (u) {
				ld->detail.restarts = u;
				ld->has_detail = true;
			}
		} else if (IS("HetJobId")) {
			if (lc_u32(v, n, &job->het_job_id) < 0)
				return bad_value(
				    ld, line, "HetJobId",
				    "expected a job id, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("Licenses") || IS("Features")) {
			prio_id *id = k[0] == 'L' ? &ld->detail.licenses
						  : &ld->detail.features;

			if (intern_or_unset(ld, &ld->l_misc, v, n, id) < 0)
				return nomem(ld, line);
			ld->has_detail |= *id != PRIO_NO_ID;
		}
		return 0;
	case 9:
		if (IS("Partition")) {
			const struct lc_id_list *l;

			SEEN(K_PARTITION);
			/* every job has a partition: empty means edited */
			if (n == 0)
				return bad_value(ld, line, "Partition",
						 "empty (every job has a "
						 "partition)");
			l = lc_name_list(ld->snap, &ld->parts, v, n);
			if (!l)
				return nomem(ld, line);
			job->partitions = l->ids;
			job->partition_count = l->count;
		} else if (IS("TimeLimit")) {
			SEEN(K_TIMELIMIT);
			return time_limit(ld, line, v, n);
		} else if (IS("StartTime")) {
			return timestamp(ld, line, "StartTime", v, n,
					 &job->start_time);
		} else if (IS("CPUs/Task")) {
			if (lc_unset(v, n))
				job->cpus_per_task = 0;
			else if (lc_u32(v, n, &u) < 0 || u > UINT16_MAX)
				return bad_value(ld, line, "CPUs/Task",
						 "expected a count, got \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
			else
				job->cpus_per_task = (uint16_t)u;
		} else if (IS("AllocTRES")) {
			SEEN(K_ALLOCTRES);
			return tres_value(ld, line, "AllocTRES", v, n,
					  &job->tres_alloc);
		} else if (IS("BatchHost")) {
			if (intern_or_unset(ld, &ld->l_host, v, n,
					    &ld->detail.batch_host) < 0)
				return nomem(ld, line);
			ld->has_detail |= ld->detail.batch_host != PRIO_NO_ID;
		}
		return 0;
	case 10:
		if (IS("SubmitTime")) {
			SEEN(K_SUBMITTIME);
			return timestamp(ld, line, "SubmitTime", v, n,
					 &job->submit_time);
		} else if (IS("AccrueTime")) {
			return timestamp(ld, line, "AccrueTime", v, n,
					 &job->accrue_time);
		} else if (IS("Dependency")) {
			if (intern_or_unset(ld, &ld->l_dep, v, n,
					    &job->dependency) < 0)
				return nomem(ld, line);
		} else if (IS("ArrayJobId")) {
			if (lc_u32(v, n, &job->array_job_id) < 0)
				return bad_value(
				    ld, line, "ArrayJobId",
				    "expected a job id, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		}
		return 0;
	case 11:
		if (IS("SuspendTime")) {
			return timestamp(ld, line, "SuspendTime", v, n,
					 &job->suspend_time);
		} else if (IS("PreemptTime")) {
			return timestamp(ld, line, "PreemptTime", v, n,
					 &job->preempt_time);
		} else if (IS("ArrayTaskId")) {
			return array_task(ld, line, v, n);
		} else if (IS("Reservation")) {
			if (intern_or_unset(ld, &ld->l_misc, v, n,
					    &ld->detail.reservation) < 0)
				return nomem(ld, line);
			ld->has_detail |= ld->detail.reservation != PRIO_NO_ID;
		}
		return 0;
	case 12:
		if (IS("EligibleTime")) {
			return timestamp(ld, line, "EligibleTime", v, n,
					 &job->eligible_time);
		} else if (IS("MinMemoryCPU")) {
			job->mem_per_cpu = true;
			if (lc_size_mb(v, n, &job->min_memory) < 0)
				return bad_value(
				    ld, line, "MinMemoryCPU",
				    "expected a size like 1000M, got "
				    "\"%s\"",
				    text_quote(v, n, q, sizeof(q)));
		} else if (IS("HetJobOffset")) {
			if (lc_u32(v, n, &ld->detail.het_job_offset) < 0)
				return bad_value(
				    ld, line, "HetJobOffset",
				    "expected a number, got \"%s\"",
				    text_quote(v, n, q, sizeof(q)));
			ld->has_detail = true;
		}
		return 0;
	case 13:
		if (IS("OverSubscribe")) {
			if (intern_or_unset(ld, &ld->l_over, v, n,
					    &job->oversubscribe) < 0)
				return nomem(ld, line);
		} else if (IS("SchedNodeList")) {
			/* backfill's planned nodes: squeue --start's
			 * SCHEDNODES */
			if (intern_or_unset(ld, &ld->l_nodes, v, n,
					    &ld->detail.sched_nodes) < 0)
				return nomem(ld, line);
			ld->has_detail |= ld->detail.sched_nodes != PRIO_NO_ID;
		} else if (IS("MinMemoryNode")) {
			job->mem_per_cpu = false;
			if (lc_size_mb(v, n, &job->min_memory) < 0)
				return bad_value(ld, line, "MinMemoryNode",
						 "expected a size like 8G, got "
						 "\"%s\"",
						 text_quote(v, n, q, sizeof(q)));
		}
		return 0;
	case 16:
		/* NtasksPerN:B:S:C=2:0:*:*: the first field is
		 * --ntasks-per-node, 0 when the user left it to Slurm */
		if (IS("NtasksPerN:B:S:C")) {
			size_t m = 0;

			while (m < n && v[m] != ':')
				m++;
			if (m == 1 && v[0] == '*')
				job->ntasks_per_node = 0;
			else if (lc_u32(v, m, &job->ntasks_per_node) < 0)
				return bad_value(ld, line, "NtasksPerN:B:S:C",
						 "expected a count, got \"%s\"",
						 text_quote(v, n, q, sizeof(q)));
		}
		return 0;
	case 19:
		if (IS("PreemptEligibleTime")) {
			time_t t;
			int rc = timestamp(ld, line, "PreemptEligibleTime", v,
					   n, &t);

			if (rc == 0 && !ld->bad && t) {
				ld->detail.preempt_eligible_time = t;
				ld->has_detail = true;
			}
			return rc;
		}
		return 0;
	}
	return 0;
}

#undef SEEN

/* --- splitting ---------------------------------------------------------- */

#ifndef __SSE2__
/* 1: may be in a key (A-Z a-z 0-9 _ : / .); 3: may start one (a letter). */
/* clang-format off */
static const uint8_t key_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 1,
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0,
};
/* clang-format on */
#endif

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Splitting works on bit masks of the line, one bit per byte, so that the
 * work per Key=Value is a few bit operations rather than a loop over bytes
 * with a branch on each (DESIGN §5).  Sixteen bytes are classified at once
 * with SSE2 (any x86-64), byte by byte elsewhere:
 *   B  blanks, E  '=' signs, N  bytes that cannot be in a key (blanks and
 *   '=' among them), L  letters;
 * then, word by word with carries between words:
 *   S = bytes after a blank (or the line start) that are letters: where a
 *       key may start;
 *   F = for each bit of S, the first byte of N at or after it, found all at
 *       once by the carry of an addition: (~N + S) & N;
 *   K = F & E: the '=' that end a key ("Identifier=" after a blank).
 * A value then runs from its key's '=' to the blank before the next key,
 * so words of a value that do not look like "Key=" stay in it (JobName=a b,
 * Command=..., as kvscan.h describes).  NUL bytes are found in the same
 * pass.  Returns -1 when the line holds one.
 */
static int build_masks(struct splitter *sp, const char *p, size_t len)
{
	size_t words = (len + 63) / 64;
	uint64_t nul = 0, after_blank = 1, carry = 0;

	for (size_t w = 0; w < words; w++) {
		uint64_t b = 0, e = 0, n = 0, l = 0, z = 0, st, f, sum;
		size_t base = w * 64;
#ifdef __SSE2__
		const __m128i space = _mm_set1_epi8(' '),
			      tab = _mm_set1_epi8('\t');
		const __m128i eq = _mm_set1_epi8('='),
			      zero = _mm_setzero_si128();
		const __m128i x20 = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a');
		const __m128i dot = _mm_set1_epi8('.'), us = _mm_set1_epi8('_');
		const __m128i flip = _mm_set1_epi8((char)0x80);
		const __m128i lt26 = _mm_set1_epi8((char)(26 - 128));
		const __m128i lt13 = _mm_set1_epi8((char)(13 - 128));

		for (size_t k = 0; k < 64 && base + k < len; k += 16) {
			const char *q = p + base + k;
			__m128i x, letter, range, key;

			if (sp->limit - q >= 16) {
				x = _mm_loadu_si128(
				    (const __m128i *)(const void *)q);
			} else {
				unsigned char tmp[16] = {0};

				memcpy(tmp, q, (size_t)(sp->limit - q));
				x = _mm_loadu_si128(
				    (const __m128i *)(const void *)tmp);
			}
			/* letters: (c | 0x20) - 'a' < 26; ". / 0-9 :" are the
			 * contiguous 0x2e..0x3a; and '_' */
			letter = _mm_cmplt_epi8(
			    _mm_xor_si128(_mm_sub_epi8(_mm_or_si128(x, x20), a),
					  flip),
			    lt26);
			range = _mm_cmplt_epi8(
			    _mm_xor_si128(_mm_sub_epi8(x, dot), flip), lt13);
			key = _mm_or_si128(_mm_or_si128(letter, range),
					   _mm_cmpeq_epi8(x, us));
			b |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
				 _mm_cmpeq_epi8(x, space), _mm_cmpeq_epi8(x, tab)))
			     << k;
			e |= (uint64_t)(unsigned)_mm_movemask_epi8(
				 _mm_cmpeq_epi8(x, eq))
			     << k;
			n |= (uint64_t)((unsigned)_mm_movemask_epi8(key) ^
					0xffffu)
			     << k;
			l |= (uint64_t)(unsigned)_mm_movemask_epi8(letter) << k;
			z |= (uint64_t)(unsigned)_mm_movemask_epi8(
				 _mm_cmpeq_epi8(x, zero))
			     << k;
		}
#else
		for (size_t k = 0; k < 64 && base + k < len; k++) {
			unsigned char c = (unsigned char)p[base + k];

			b |= (uint64_t)is_blank((char)c) << k;
			e |= (uint64_t)(c == '=') << k;
			n |= (uint64_t)(key_class[c] == 0) << k;
			l |= (uint64_t)(key_class[c] == 3) << k;
			z |= (uint64_t)(c == 0) << k;
		}
#endif
		if (len - base < 64) {
			uint64_t keep = (1ull << (len - base)) - 1;

			b &= keep;
			e &= keep;
			l &= keep;
			z &= keep;
			n |= ~keep; /* the end of the line stops a key */
		}
		st = ((b << 1) | after_blank) & ~b & l;
		after_blank = b >> 63;
		sum = ~n + st;
		f = sum + carry;
		carry = (sum < st) | (f < sum);
		f &= n;
		sp->m_start[w] = st;
		sp->m_keyeq[w] = f & e;
		nul |= z;
	}
	return nul ? -1 : 0;
}

/* The last key start before position e (there is one: e ends a key). */
static inline size_t key_start(const uint64_t *st, size_t e)
{
	size_t w = e >> 6;
	uint64_t m = st[w] & ((1ull << (e & 63)) - 1);

	while (!m)
		m = st[--w];
	return (w << 6) + 63 - (size_t)__builtin_clzll(m);
}

static inline void trim_blanks(const char *p, size_t v, size_t *vend)
{
	while (*vend > v && is_blank(p[*vend - 1]))
		(*vend)--;
}

/* Keys whose values are free text (paths, commands, comments), printed
 * alone on their line in the multi-line shape (22.05 to 26.05). */
static bool free_text_key(const char *k, size_t kn)
{
	switch (kn) {
	case 5:
		return IS("StdIn") || IS("Extra");
	case 6:
		return IS("StdErr") || IS("StdOut");
	case 7:
		return IS("Command") || IS("WorkDir") || IS("Comment");
	case 10:
		return IS("SubmitLine");
	case 12:
		return IS("AdminComment");
	case 13:
		return IS("SystemComment");
	}
	return false;
}

static int add_pair(struct splitter *sp, size_t k, size_t e, size_t vend)
{
	if (sp->count == sp->cap) {
		uint32_t cap = sp->cap ? sp->cap * 2 : 256;
		struct sc_pair *n = realloc(sp->pairs, cap * sizeof(*n));

		if (!n)
			return -1;
		sp->pairs = n;
		sp->cap = cap;
	}
	sp->pairs[sp->count++] = (struct sc_pair){(uint32_t)k, (uint32_t)e,
						  (uint32_t)vend};
	return 0;
}

/* Every Key=Value of one line, in order (masks already built), appended
 * to sp->pairs.  Returns -1 out of memory. */
static int split_pairs(struct splitter *sp, const char *p, size_t len)
{
	size_t words = (len + 63) / 64, k = 0, e = 0;
	bool have = false;

	for (size_t w = 0; w < words; w++) {
		for (uint64_t x = sp->m_keyeq[w]; x; x &= x - 1) {
			size_t e2 = (w << 6) + (size_t)__builtin_ctzll(x);
			size_t k2 = key_start(sp->m_start, e2);

			if (!have && is_blank(p[0]) &&
			    free_text_key(p + k2, e2 - k2))
				return 0; /* nothing we read, only text */
			if (have) {
				size_t vend = k2 - 1;

				trim_blanks(p, e + 1, &vend);
				if (add_pair(sp, k, e, vend) < 0)
					return -1;
			}
			k = k2;
			e = e2;
			have = true;
		}
	}
	if (have) {
		size_t vend = len;

		trim_blanks(p, e + 1, &vend);
		return add_pair(sp, k, e, vend);
	}
	return 0;
}

/* The pairs of one line to on_pair(), in order, until the record is bad. */
static int parse_pairs(struct sc_loader *ld, const char *p,
		       const struct sc_pair *pairs, uint32_t count,
		       uint32_t line)
{
	for (uint32_t i = 0; i < count; i++) {
		const struct sc_pair *x = &pairs[i];
		int rc = on_pair(ld, p + x->k, x->e - x->k, p + x->e + 1,
				 x->vend - (x->e + 1), line);

		if (rc < 0)
			return rc;
		if (ld->bad)
			return 0;
	}
	return 0;
}

#undef IS

/* --- two threads --------------------------------------------------------- */

/*
 * A large input is split into lines and pairs by a second thread while this
 * one reads the values (issue 17: the machines this runs on have two cores
 * or more, and splitting is a third of a load).  The splitter touches only
 * the text, never the snapshot: interning, the arena, the job array, the
 * errors and their order stay with this thread, which takes the lines in
 * order, so everything a load does -- ids, warnings, the first error and
 * its line -- is what one thread does.  The splitter stops at the first line
 * it cannot split (longer than PRIO_MAX_LINE, a NUL byte, no memory); this
 * thread reads on from there itself, with the errors one thread gives.
 * Below PIPE_MIN_SIZE a thread costs more than it saves (a test lowers it
 * with lc_test.pipe_min).
 */
#ifndef PIPE_MIN_SIZE /* a test build may lower it */
#define PIPE_MIN_SIZE ((size_t)4 << 20)
#endif
#define PIPE_LINES 256u /* lines per chunk */
#define PIPE_RING 4u	/* chunks in flight */

/*
 * A stream (lc_jobs_stream()) has the splitter read the file itself, in
 * runs of whole lines, into buffers used in turn: a chunk holds lines of
 * one run, and at most PIPE_RING chunks are in flight (filled, or being
 * read here), so a run STREAM_BUFS back is held by none and its buffer
 * takes the next.  Six runs of 1 MiB, written over again and again, where
 * the whole file in fresh memory had the kernel clear every page of it
 * first (a third of `prio-calc -l` on L, 1.2 GB) and kept the text in
 * memory beside the jobs made of it.
 */
#define STREAM_BUFS (PIPE_RING + 2u)
#define STREAM_CHUNK ((size_t)1 << 20)

struct pipe_line {
	const char *text;
	uint32_t len, first, count; /* pairs [first, first + count) */
};

struct pipe_chunk {
	struct pipe_line lines[PIPE_LINES];
	uint32_t nlines;
	uint32_t run;	    /* a stream's run the lines are in */
	bool last;	    /* the splitter's last chunk */
	bool failed;	    /* a stream's read failed */
	const char *resume; /* non-NULL: it stopped at this line */
	struct splitter pairs; /* only pairs, count, cap used */
};

struct pipe {
	struct lc_ring q;
	const char *pos, *end; /* the splitter's place */
	struct splitter split;
	struct pipe_chunk ring[PIPE_RING];
	/* a stream: its reader, the buffers (bufs[runs % STREAM_BUFS] is the
	 * reader's own), the runs read, the last byte read, a read error */
	struct prio_chunks *ch;
	char *bufs[STREAM_BUFS];
	uint32_t runs;
	char last_byte;
	struct prio_error err;
	/* the reading side */
	struct pipe_chunk *cur;
	uint32_t next; /* next line of cur */
	bool done;     /* the splitter ended; the rest is read here */
	bool gave_up;  /* a stream's splitter stopped short of the end */
};

/* A stream's next run into pos..end: 1, 0 at the end, -1 on a read error
 * (or a line longer than a run). */
static int stream_next_run(struct pipe *pp)
{
	const char *data;
	size_t size;
	uint32_t n = pp->runs;
	int rc = prio_chunks_next(pp->ch, &data, &size, &pp->err);

	if (rc <= 0)
		return rc < 0 ? -1 : 0;
	/* the run stays in its buffer; the reader goes on in the one of
	 * the run STREAM_BUFS - 1 back */
	(void)prio_chunks_swap(pp->ch, pp->bufs[(n + 1) % STREAM_BUFS]);
	pp->runs = n + 1;
	pp->pos = data;
	pp->end = data + size;
	pp->split.limit = pp->end;
	pp->last_byte = data[size - 1];
	return 1;
}

/* Split lines into c until it is full, the input ends or a line cannot be
 * split. */
static void pipe_fill(struct pipe *pp, struct pipe_chunk *c)
{
	struct splitter *sp = &pp->split;

	c->nlines = 0;
	c->last = c->failed = false;
	c->resume = NULL;
	c->pairs.count = 0;
	c->run = pp->runs;
	while (c->nlines < PIPE_LINES) {
		const char *text = pp->pos, *nl;
		struct pipe_line *l;
		size_t len, step;

		if (text >= pp->end) {
			int rc;

			if (pp->ch && c->nlines)
				return; /* a chunk holds one run's lines */
			if (!pp->ch || (rc = stream_next_run(pp)) <= 0) {
				c->failed = pp->ch && rc < 0;
				c->last = true;
				return;
			}
			c->run = pp->runs;
			continue;
		}
		nl = memchr(text, '\n', (size_t)(pp->end - text));
		len = nl ? (size_t)(nl - text) : (size_t)(pp->end - text);
		step = len + (nl ? 1 : 0);
		if (len > PRIO_MAX_LINE)
			goto stop;
		if (len && text[len - 1] == '\r')
			len--;
		if (build_masks(sp, text, len) < 0)
			goto stop;
		/* the pairs go straight into the chunk's array */
		sp->pairs = c->pairs.pairs;
		sp->count = c->pairs.count;
		sp->cap = c->pairs.cap;
		l = &c->lines[c->nlines];
		l->first = sp->count;
		if (split_pairs(sp, text, len) < 0) {
			c->pairs.pairs = sp->pairs;
			c->pairs.cap = sp->cap;
			goto stop;
		}
		c->pairs.pairs = sp->pairs;
		c->pairs.cap = sp->cap;
		c->pairs.count = sp->count;
		l->text = text;
		l->len = (uint32_t)len;
		l->count = sp->count - l->first;
		c->nlines++;
		pp->pos = text + step;
	}
	return;
stop:
	c->last = true;
	c->resume = pp->pos; /* the line not split */
}

/*
 * Room for the jobs of a large input, made once: growing the array by
 * doubling copied it a dozen times and faulted its pages in 4 KiB at a time
 * (a tenth of `prio-calc -l` on M).  The guess is generous -- a record of
 * scontrol is 600 bytes and more, 17 keys at the least -- and costs only
 * address space where it is wrong: pages never written are never touched.
 * A larger input than guessed grows the array as before.
 */
static void reserve_jobs(struct prio_snapshot *snap, size_t input)
{
	size_t want = (size_t)snap->job_count + input / 400 + 16, bytes;
	struct prio_job *jobs;

	if (want > UINT32_MAX / 2 || want > SIZE_MAX / sizeof(*jobs) ||
	    want <= snap->job_capacity)
		return;
	bytes = want * sizeof(*jobs);
	if (!(jobs = realloc(snap->jobs, bytes)))
		return; /* the array grows as it would have */
	snap->jobs = jobs;
	snap->job_capacity = (uint32_t)want;
	lc_huge_pages(jobs, bytes);
}

static void *pipe_main(void *arg)
{
	struct pipe *pp = arg;

	for (;;) {
		int slot = lc_ring_slot(&pp->q);
		bool last;

		if (slot < 0)
			return NULL;
		pipe_fill(pp, &pp->ring[slot]);
		last = pp->ring[slot].last;
		lc_ring_filled(&pp->q);
		if (last)
			return NULL;
	}
}

static void pipe_free(struct pipe *pp)
{
	for (unsigned i = 0; i < PIPE_RING; i++)
		free(pp->ring[i].pairs.pairs);
	/* (the reader's own buffer is NULL here: it frees it) */
	for (unsigned i = 0; i < STREAM_BUFS; i++)
		free(pp->bufs[i]);
	free(pp);
}

/* Start the splitter over src, or over the runs ch reads (src NULL); NULL
 * (one thread, or for ch no stream) when that fails. */
static struct pipe *pipe_start(const struct prio_source *src,
			       struct prio_chunks *ch)
{
	struct pipe *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	if (ch) {
		pp->ch = ch;
		for (unsigned i = 0; i < STREAM_BUFS; i++)
			if (!(pp->bufs[i] = malloc(prio_chunks_cap(ch)))) {
				pipe_free(pp);
				return NULL;
			}
		/* the reader's first buffer is bufs[0] */
		free(prio_chunks_swap(ch, pp->bufs[0]));
	} else {
		pp->pos = src->data;
		pp->end = src->data + src->size;
		pp->split.limit = pp->end;
	}
	if (lc_ring_start(&pp->q, PIPE_RING, pipe_main, pp) < 0) {
		if (ch) /* the reader keeps bufs[0] */
			pp->bufs[0] = NULL;
		pipe_free(pp);
		return NULL;
	}
	return pp;
}

static void pipe_stop(struct pipe *pp)
{
	if (!pp)
		return;
	lc_ring_stop(&pp->q);
	if (pp->ch) /* the reader keeps the buffer it has */
		pp->bufs[pp->runs % STREAM_BUFS] = NULL;
	pipe_free(pp);
}

/* The next line the splitter split, in order: 1 with *l, 0 at its end
 * (r is then where this thread reads on, or at the end of the input). */
static int pipe_next(struct pipe *pp, struct lc_reader *r,
		     const struct pipe_line **l, const struct sc_pair **pairs)
{
	for (;;) {
		struct pipe_chunk *c = pp->cur;

		if (c && pp->next < c->nlines) {
			*l = &c->lines[pp->next++];
			*pairs = c->pairs.pairs + (*l)->first;
			r->number++;
			return 1;
		}
		if (c && c->last) {
			/* the lines before the stop were all taken: the
			 * rest, from the line it stopped at, is ours (a
			 * stream's rest is in no buffer: it gives up) */
			r->pos = c->resume ? c->resume : r->end;
			pp->gave_up = pp->ch && (c->resume || c->failed);
			pp->done = true;
			return 0;
		}
		pp->cur = &pp->ring[lc_ring_take(&pp->q)];
		pp->next = 0;
	}
}

/* --- the loader --------------------------------------------------------- */

static bool is_no_jobs(const struct prio_line *l)
{
	static const char msg[] = "No jobs in the system";

	return l->len >= sizeof(msg) - 1 &&
	       memcmp(l->text, msg, sizeof(msg) - 1) == 0;
}

/* A NUL byte or an over-long line: the record it is in is bad; keep_going
 * may go on after it. */
static int line_error(struct sc_loader *ld, unsigned long number)
{
	if (ld->err->status == PRIO_ERR_NOMEM)
		return ld->err->status;
	if (ld->strict)
		return PRIO_ERR_PARSE;
	if (!ld->open || ld->bad)
		begin_record(ld, (uint32_t)number);
	ld->bad = true;
	return prio_snapshot_record_error(ld->snap, ld->err);
}

/* A stream's runs before the one read now may be read over by the next
 * ones: nothing may point into them, so the values last seen there are
 * forgotten (one would else compare equal to new text at its place). */
static void forget_text(struct sc_loader *ld)
{
	struct lc_last *lasts[] = {&ld->l_nodes, &ld->l_over, &ld->l_dep,
				   &ld->l_host,	 &ld->l_misc, &ld->l_alloc};
	struct lc_table *tables[] = {&ld->tres,	   &ld->parts, &ld->t_user,
				     &ld->t_account, &ld->t_qos, &ld->t_reason};

	for (size_t i = 0; i < sizeof(lasts) / sizeof(*lasts); i++)
		lasts[i]->s = NULL;
	for (size_t i = 0; i < sizeof(tables) / sizeof(*tables); i++)
		tables[i]->last_s = NULL;
}

/* The next line split into pairs: 1 with line, *pairs and *count; 0 at the
 * end of the input; < 0 when it cannot be split (err set: too long, a NUL
 * byte, out of memory; for a stream, any line it could not give). */
static int next_line(struct sc_loader *ld, struct lc_reader *r,
		     struct prio_line *line, const struct sc_pair **pairs,
		     uint32_t *count)
{
	struct splitter *sp = &ld->split;
	int rc;

	if (ld->pipe && !ld->pipe->done) {
		const struct pipe_line *l;

		if (pipe_next(ld->pipe, r, &l, pairs) > 0) {
			line->text = l->text;
			line->len = l->len;
			line->number = r->number;
			*count = l->count;
			if (ld->pipe->cur->run != ld->run) {
				ld->run = ld->pipe->cur->run;
				forget_text(ld);
			}
			return 1;
		}
	}
	if (ld->pipe && ld->pipe->ch)
		return ld->pipe->gave_up
			   ? prio_error_set(ld->err, PRIO_ERR_IO, ld->name,
					    r->number + 1, "",
					    "the stream stopped here")
			   : 0;
	rc = lc_line_next(r, line, ld->err);
	if (rc <= 0)
		return rc;
	if (build_masks(sp, line->text, line->len) < 0)
		return prio_error_set(ld->err, PRIO_ERR_PARSE, ld->name,
				      line->number, "", "NUL byte in input");
	sp->count = 0;
	if (split_pairs(sp, line->text, line->len) < 0)
		return nomem(ld, (uint32_t)line->number);
	*pairs = sp->pairs;
	*count = sp->count;
	return 1;
}

/* The lines of src, or of the stream ld->pipe reads (src NULL). */
static int load(struct sc_loader *ld, const struct prio_source *src)
{
	struct lc_reader r = {0};
	struct prio_line line;
	const char *kept = src ? src->data : NULL; /* the input held from here on */
	int rc;

	if (src)
		lc_reader_init(&r, src);
	for (;;) {
		const struct sc_pair *pairs = NULL;
		uint32_t count = 0, no;
		const char *p;

		rc = next_line(ld, &r, &line, &pairs, &count);
		if (rc == 0)
			break;
		if (rc < 0) {
			if ((rc = line_error(ld, line.number)) < 0)
				return rc;
			continue;
		}
		p = line.text;
		no = (uint32_t)line.number;
		if (line.len == 0)
			continue;
		if (!is_blank(*p)) {
			if ((rc = finish_record(ld, false)) < 0)
				return rc;
			if (line.len < 6 || memcmp(p, "JobId=", 6) != 0) {
				char q[48];

				if (is_no_jobs(&line))
					continue;
				begin_record(ld, no);
				rc =
				    bad_value(ld, no, "JobId",
					      "expected a record starting with "
					      "JobId=, got \"%s\"",
					      text_quote(p, line.len, q, sizeof(q)));
				if (rc < 0)
					return rc;
				continue;
			}
			/* the records before this line are whole: nothing
			 * reads their text again */
			if (src)
				lc_give_back(src, &kept, p);
			begin_record(ld, no);
		} else if (!ld->open) {
			size_t q = 0;

			while (q < line.len && is_blank(p[q]))
				q++;
			if (q == line.len)
				continue; /* blank line between records */
			begin_record(ld, no);
			rc = bad_value(
			    ld, no, "JobId",
			    "an indented line before any JobId= record");
			if (rc < 0)
				return rc;
			continue;
		}
		if (ld->bad)
			continue;
		ld->last_line = no;
		if ((rc = parse_pairs(ld, p, pairs, count, no)) < 0)
			return rc;
	}
	return finish_record(ld, true);
}

/* A loader of the jobs in file name into snap, errors to err; NULL out of
 * memory (err set). */
static struct sc_loader *loader_new(struct prio_snapshot *snap,
				    const char *name, struct prio_error *err)
{
	struct sc_loader *ld = calloc(1, sizeof(*ld));

	if (!ld) {
		prio_error_set(err, PRIO_ERR_NOMEM, name, 0, "", "out of memory");
		return NULL;
	}
	ld->snap = snap;
	ld->name = name;
	ld->err = err;
	lc_time_cache_init(&ld->times);
	lc_table_init(&ld->tres);
	lc_table_init(&ld->parts);
	lc_table_init(&ld->t_user);
	lc_table_init(&ld->t_account);
	lc_table_init(&ld->t_qos);
	lc_table_init(&ld->t_reason);
	if (!(ld->file = prio_arena_strdup(&snap->arena, name))) {
		prio_error_set(err, PRIO_ERR_NOMEM, name, 0, "", "out of memory");
		free(ld);
		return NULL;
	}
	return ld;
}

/* The load's end: its records noted (rc 0), the loader freed. */
static int loader_end(struct sc_loader *ld, int rc)
{
	if (rc == 0)
		rc = prio_snapshot_note_loaded(ld->snap, PRIO_INPUT_JOBS_SCONTROL,
					       ld->name, ld->records);
	if (rc < 0 && ld->err->status == PRIO_OK)
		prio_error_set(ld->err, rc, ld->name, 0, "", "out of memory");
	lc_table_free(&ld->tres);
	lc_table_free(&ld->parts);
	lc_table_free(&ld->t_user);
	lc_table_free(&ld->t_account);
	lc_table_free(&ld->t_qos);
	lc_table_free(&ld->t_reason);
	free(ld->allocs);
	free(ld->split.pairs);
	free(ld);
	return rc;
}

/* Inputs from this size on are split by a second thread (and streamed). */
static size_t pipe_min(void)
{
	return lc_test.pipe_min ? lc_test.pipe_min : PIPE_MIN_SIZE;
}

int prio_load_jobs_scontrol(struct prio_snapshot *snap,
			    const struct prio_source *src,
			    struct prio_error *err)
{
	struct sc_loader *ld = loader_new(snap, src->name, err);
	int rc;

	if (!ld)
		return err->status;
	ld->split.limit = src->data + src->size;
	if (src->size >= pipe_min()) {
		reserve_jobs(snap, src->size);
		ld->pipe = pipe_start(src, NULL);
	}
	rc = load(ld, src);
	pipe_stop(ld->pipe);
	return loader_end(ld, rc);
}

/*
 * Whether the file ch opened is one the stream takes: plain text (not
 * gzip or zstd) of pipe_min() bytes or more, its first word "JobId=" and
 * its last byte a newline, so that the whole load's checks of the file
 * (prio_load_role's check_complete(): a cut last line, an empty input;
 * the kind, told by the first line) would all pass.
 */
static bool stream_takes(const struct prio_chunks *ch)
{
	char head[64], tail;
	off_t size = ch->before.st_size;
	ssize_t n;
	size_t i = 0;

	if (size < 0 || (uint64_t)size < pipe_min() ||
	    (n = pread(ch->fd, head, sizeof(head), 0)) < 4 ||
	    pread(ch->fd, &tail, 1, size - 1) != 1 || tail != '\n' ||
	    prio_codec_detect(head, (size_t)n))
		return false;
	while (i < (size_t)n && (is_blank(head[i]) || head[i] == '\n'))
		i++;
	return (size_t)n - i >= 6 && memcmp(head + i, "JobId=", 6) == 0;
}

int lc_jobs_stream(struct prio_snapshot *snap, const char *path)
{
	struct prio_error quiet;
	struct prio_chunks ch;
	struct sc_loader *ld;
	uint32_t jobs = snap->job_count;
	uint16_t release = snap->slurm_release;
	enum prio_slurm_version_source source = snap->slurm_release_source;
	int rc = -1;

	memset(&quiet, 0, sizeof(quiet));
	if (!path || strcmp(path, "-") == 0 || lc_test.no_stream ||
	    prio_chunks_open(&ch, path,
			     lc_test.stream_chunk ? lc_test.stream_chunk
						  : STREAM_CHUNK,
			     &quiet) < 0)
		return LC_LOAD_WHOLE;
	if (!stream_takes(&ch) || !(ld = loader_new(snap, path, &quiet))) {
		prio_chunks_close(&ch);
		return LC_LOAD_WHOLE;
	}
	ld->strict = true;
	reserve_jobs(snap, (size_t)ch.before.st_size);
	if ((ld->pipe = pipe_start(NULL, &ch))) {
		rc = load(ld, NULL);
		/* what the whole load would refuse: a file cut or rewritten
		 * while it was read */
		if (rc == 0 && (ld->pipe->last_byte != '\n' ||
				prio_chunks_finish(&ch, &quiet) < 0))
			rc = -1;
		if (rc < 0 && ld->pipe->err.status)
			quiet = ld->pipe->err;
		pipe_stop(ld->pipe);
	}
	rc = loader_end(ld, rc);
	prio_chunks_close(&ch);
	if (rc == 0) {
		/* (loads may run on several threads: prio-top's reload) */
		__atomic_fetch_add(&lc_test.jobs_streamed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	/* what it read is dropped: the whole load judges the file */
	snap->job_count = jobs;
	snap->slurm_release = release;
	snap->slurm_release_source = source;
	if (lc_test.stream_err)
		*lc_test.stream_err = quiet;
	return LC_LOAD_WHOLE;
}
