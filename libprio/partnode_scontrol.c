/* SPDX-License-Identifier: MIT */
/*
 * `scontrol show partition` and `scontrol show node`, in both shapes Slurm
 * prints: the default one (a record starts with "PartitionName=" or
 * "NodeName=" at the start of a line, continues on indented lines and ends
 * at a blank line) and `-o` (one record per line).  kvscan splits the
 * "Key=Value" pairs, values with blanks included (OS=Linux 6.1 #1 SMP ...).
 *
 * Unset values print as "(null)", "N/A", "NONE" (DefaultTime) or
 * "UNLIMITED" (MaxTime).  A partition keeps TotalCPUs, TotalNodes and TRES=
 * as printed, so that its totals are known without node records; with node
 * records prio_config_link() recomputes them from the nodes.  Nodes keep
 * their current allocation (CPUAlloc, AllocMem, AllocTRES) for the
 * preemption planner.
 *
 * A line of blanks does not end a record, an empty line does: Slurm
 * (22.05 to 26.05) prints a node's Reason=, Comment=, Extra= ... after a
 * line holding only the indentation ("CurrentWatts=0 AveWatts=0", "   ",
 * "   Reason=maintenance [root@...]"), and a job record ends with one.
 * In that shape Slurm prints a node's free text (Reason=, its further
 * lines indented ten blanks, Comment=, Extra=) on lines of their own: they
 * are skipped whole, so that text like "Weight=5" in a reason is never
 * read as a key.  In the -o shape a key read twice in one node record
 * means such text, and the record is refused.
 * Keys Slurm added or dropped across releases (ResumeAfterTime, CapWatts,
 * ExtSensors*, TLSCert*, Topology, ExclusiveTopo, MaxCPUsPerSocket ...) are
 * not read.  A node's Version= is the release of its slurmd: no newer than
 * the controller's, so the newest one seen is a lower bound of the release
 * that printed the files, noted at the weakest (FORMAT) strength.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvscan.h"
#include "loadcache.h"
#include "text.h"
#include "prio/conf.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

#define PN_MAX_PAIRS 100000u /* pairs in one record: more is hostile */

#define ECHO_MAX 40
#define ECHO(v, n)                                                             \
	(int)((n) > ECHO_MAX ? ECHO_MAX : (n)), (v),                           \
	    ((n) > ECHO_MAX ? "..." : "")

struct pn_ctx {
	struct prio_snapshot *snap;
	struct prio_error *err;
	const char *file;
	struct kv_pair *pairs;
	size_t count, cap;
	unsigned long line;  /* first line of the record */
	struct text_idset seen; /* interned name -> defined already */
	unsigned long records;
	uint16_t slurmd_release; /* newest node Version=, 0 when none */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int nomem(struct pn_ctx *c)
{
	return prio_error_set(c->err, PRIO_ERR_NOMEM, c->file, c->line, "",
			      "out of memory");
}

/* prio_error_set takes the field as a plain string: copy the key. */
static int bad_value(struct pn_ctx *c, const struct kv_pair *p,
		     const char *what)
{
	char field[64];

	snprintf(field, sizeof(field), "%.*s", (int)p->key_len, p->key);
	return prio_error_set(c->err, PRIO_ERR_PARSE, c->file, c->line, field,
			      "expected %s, got \"%.*s%s\"", what,
			      ECHO(p->val, p->val_len));
}

static bool unset(const struct kv_pair *p)
{
	return kv_val_unset(p->val, p->val_len) ||
	       prio_word_eq(p->val, p->val_len, "(null)");
}

static const char *dup_val(struct pn_ctx *c, const struct kv_pair *p)
{
	return prio_arena_strndup(&c->snap->arena, p->val, p->val_len);
}


/* --- partitions ----------------------------------------------------------- */

static int partition_pair(struct pn_ctx *c, struct prio_partition *p,
			  const struct kv_pair *kv)
{
	struct prio_snapshot *snap = c->snap;
	const char *time_what = "a time or UNLIMITED";

	if (kv_key_is(kv, "Nodes")) {
		p->nodes_text = unset(kv) ? NULL : dup_val(c, kv);
		if (!unset(kv) && !p->nodes_text)
			return nomem(c);
	} else if (kv_key_is(kv, "Default")) {
		bool b;

		if (prio_parse_bool(kv->val, kv->val_len, &b) < 0)
			return bad_value(c, kv, "YES or NO");
		p->is_default = b;
	} else if (kv_key_is(kv, "PriorityJobFactor")) {
		if (prio_parse_uint16(kv->val, kv->val_len, &p->job_factor) < 0)
			return bad_value(c, kv, "an unsigned integer");
	} else if (kv_key_is(kv, "PriorityTier")) {
		if (prio_parse_uint16(kv->val, kv->val_len, &p->tier) < 0)
			return bad_value(c, kv, "an unsigned integer");
	} else if (kv_key_is(kv, "MaxTime")) {
		if (prio_time_str2mins(kv->val, kv->val_len, &p->max_time) < 0)
			return bad_value(c, kv, time_what);
	} else if (kv_key_is(kv, "DefaultTime")) {
		if (prio_word_eq(kv->val, kv->val_len, "NONE") || unset(kv))
			p->default_time = PRIO_NO_VAL;
		else if (prio_time_str2mins(kv->val, kv->val_len,
					    &p->default_time) < 0)
			return bad_value(c, kv, time_what);
	} else if (kv_key_is(kv, "PreemptMode")) {
		const char *why = NULL, *text = dup_val(c, kv);

		if (!text)
			return nomem(c);
		if (prio_preempt_mode_parse(text, &p->preempt_mode, &why) < 0)
			return bad_value(c, kv,
					 "a PreemptMode (OFF, CANCEL, REQUEUE, "
					 "SUSPEND, GANG, WITHIN)");
	} else if (kv_key_is(kv, "GraceTime")) {
		if (prio_parse_uint32(kv->val, kv->val_len, &p->grace_time) < 0)
			return bad_value(c, kv, "a number of seconds");
	} else if (kv_key_is(kv, "OverSubscribe")) {
		const char *text = dup_val(c, kv);

		if (!text)
			return nomem(c);
		if (prio_oversubscribe_parse(text, &p->max_share) < 0)
			return bad_value(c, kv,
					 "NO, YES[:n], FORCE[:n] or EXCLUSIVE");
		p->oversubscribe_text = text;
	} else if (kv_key_is(kv, "QoS")) {
		p->qos = unset(kv)
			     ? PRIO_NO_ID
			     : prio_snapshot_intern(snap, kv->val, kv->val_len);
		if (!unset(kv) && p->qos == PRIO_NO_ID)
			return nomem(c);
	} else if (kv_key_is(kv, "State")) {
		if (!(p->state = dup_val(c, kv)))
			return nomem(c);
	} else if (kv_key_is(kv, "TotalCPUs")) {
		if (prio_parse_uint32(kv->val, kv->val_len, &p->total_cpus) < 0)
			return bad_value(c, kv, "an unsigned integer");
	} else if (kv_key_is(kv, "TotalNodes")) {
		if (prio_parse_uint32(kv->val, kv->val_len, &p->total_nodes) <
		    0)
			return bad_value(c, kv, "an unsigned integer");
	} else if (kv_key_is(kv, "TRES")) {
		const char *why = NULL;

		if (prio_tres_list_parse(&snap->arena, &snap->tres, kv->val,
					 kv->val_len, &p->tres_printed,
					 &why) < 0 ||
		    lc_tres_once(&p->tres_printed, &why) < 0)
			return bad_value(c, kv,
					 "TRES counts (cpu=8,mem=16000M,...)");
	} else if (kv_key_is(kv, "TRESBillingWeights")) {
		memset(&p->billing_weights, 0, sizeof(p->billing_weights));
		if (!unset(kv) && !(p->billing_weights.text = dup_val(c, kv)))
			return nomem(c);
	} else if (kv_key_is(kv, "AllowAccounts")) {
		p->allow_accounts = prio_word_eq(kv->val, kv->val_len, "ALL")
					? NULL
					: dup_val(c, kv);
	} else if (kv_key_is(kv, "AllowQos")) {
		p->allow_qos = prio_word_eq(kv->val, kv->val_len, "ALL")
				   ? NULL
				   : dup_val(c, kv);
	}
	return 0;
}

/* A key of keys[0..nkeys) (any key when keys is NULL), twice in the
 * record: its index, else 0.  In a node's -o output, Reason= or Comment=
 * text holding "Key="; a partition has no free text, so any key printed
 * twice was pasted in. */
static size_t second_key(const struct pn_ctx *c, const char *const *keys,
			 size_t nkeys)
{
	for (size_t i = 2; i < c->count; i++) {
		bool read = keys == NULL;

		for (size_t k = 0; k < nkeys; k++)
			read |= kv_key_is(&c->pairs[i], keys[k]);
		for (size_t j = 1; read && j < i; j++)
			if (c->pairs[j].key_len == c->pairs[i].key_len &&
			    memcmp(c->pairs[j].key, c->pairs[i].key,
				   c->pairs[i].key_len) == 0)
				return i;
	}
	return 0;
}

static int partition_record(struct pn_ctx *c)
{
	struct prio_snapshot *snap = c->snap;
	struct prio_partition p, *slot;
	const struct kv_pair *first = &c->pairs[0];
	size_t dup;
	int rc;

	prio_partition_defaults(&p);
	p.name = prio_snapshot_intern(snap, first->val, first->val_len);
	if (p.name == PRIO_NO_ID)
		return first->val_len ? nomem(c)
				      : bad_value(c, first, "a partition name");
	if ((dup = second_key(c, NULL, 0)) != 0) {
		const struct kv_pair *kv = &c->pairs[dup];
		char field[64];

		snprintf(field, sizeof(field), "%.*s", (int)kv->key_len,
			 kv->key);
		return prio_error_set(c->err, PRIO_ERR_PARSE, c->file, c->line,
				      field,
				      "a second %s= in the record of "
				      "partition %s",
				      field, prio_snapshot_str(snap, p.name));
	}
	for (size_t i = 1; i < c->count; i++)
		if ((rc = partition_pair(c, &p, &c->pairs[i])) < 0)
			return rc;
	if ((rc = text_idset_mark(&c->seen, p.name)) != 0)
		return rc < 0
			   ? nomem(c)
			   : prio_error_set(c->err, PRIO_ERR_PARSE, c->file,
					    c->line, "PartitionName",
					    "duplicate entry for partition %s",
					    prio_snapshot_str(snap, p.name));
	slot = prio_snapshot_new_partition(snap);
	if (!slot)
		return nomem(c);
	p.file = c->file;
	p.line = c->line;
	*slot = p;
	return 0;
}

/* --- nodes ------------------------------------------------------------------
 */

static int node_pair(struct pn_ctx *c, struct prio_node *n,
		     const struct kv_pair *kv, bool *have_efctv)
{
	struct prio_snapshot *snap = c->snap;
	uint16_t *u16 = NULL;
	uint32_t *u32 = NULL;
	uint64_t *u64 = NULL;
	struct prio_tres_list *list = NULL;

	if (kv_key_is(kv, "CPUTot"))
		u32 = &n->cpus;
	else if (kv_key_is(kv, "CPUEfctv")) {
		u32 = &n->cpus_efctv;
		*have_efctv = true;
	} else if (kv_key_is(kv, "CPUAlloc"))
		u32 = &n->cpus_alloc;
	else if (kv_key_is(kv, "Boards"))
		u16 = &n->boards;
	else if (kv_key_is(kv, "Sockets"))
		u16 = &n->sockets;
	else if (kv_key_is(kv, "CoresPerSocket"))
		u16 = &n->cores_per_socket;
	else if (kv_key_is(kv, "ThreadsPerCore"))
		u16 = &n->threads_per_core;
	else if (kv_key_is(kv, "CoreSpecCount"))
		u16 = &n->core_spec_count;
	else if (kv_key_is(kv, "RealMemory"))
		u64 = &n->real_memory;
	else if (kv_key_is(kv, "AllocMem"))
		u64 = &n->alloc_mem;
	else if (kv_key_is(kv, "Weight"))
		u32 = &n->weight;
	else if (kv_key_is(kv, "CfgTRES"))
		list = &n->cfg_tres;
	else if (kv_key_is(kv, "AllocTRES"))
		list = &n->alloc_tres;
	else if (kv_key_is(kv, "Gres")) {
		n->gres = unset(kv) ? NULL : dup_val(c, kv);
		if (!unset(kv) && !n->gres)
			return nomem(c);
	} else if (kv_key_is(kv, "State")) {
		if (!(n->state = dup_val(c, kv)))
			return nomem(c);
	} else if (kv_key_is(kv, "AvailableFeatures")) {
		n->features = unset(kv) ? NULL : dup_val(c, kv);
	} else if (kv_key_is(kv, "CPUSpecList")) {
		n->cpu_spec_list = unset(kv) ? NULL : dup_val(c, kv);
	} else if (kv_key_is(kv, "Partitions")) {
		n->partitions_text = unset(kv) ? NULL : dup_val(c, kv);
	} else if (kv_key_is(kv, "Version")) {
		uint16_t release;

		/* "24.11.5"; "(null)" or text of another shape says nothing
		 * (a node that never registered) */
		if (prio_slurm_version_parse(kv->val, kv->val_len, &release) ==
			0 &&
		    release > c->slurmd_release)
			c->slurmd_release = release;
	} else if (kv_key_is(kv, "TRESWeights")) {
		memset(&n->tres_weights, 0, sizeof(n->tres_weights));
		if (!unset(kv) && !(n->tres_weights.text = dup_val(c, kv)))
			return nomem(c);
	}
	if (u16 && prio_parse_uint16(kv->val, kv->val_len, u16) < 0)
		return bad_value(c, kv, "an unsigned integer");
	if (u32 && prio_parse_uint32(kv->val, kv->val_len, u32) < 0)
		return bad_value(c, kv, "an unsigned integer");
	if (u64 && prio_parse_uint64(kv->val, kv->val_len, u64) < 0)
		return bad_value(c, kv, "an unsigned integer");
	if (list) {
		const char *why = NULL;

		if (prio_tres_list_parse(&snap->arena, &snap->tres, kv->val,
					 kv->val_len, list, &why) < 0 ||
		    lc_tres_once(list, &why) < 0)
			return bad_value(c, kv,
					 "TRES counts (cpu=8,mem=16000M,...)");
	}
	return 0;
}

/* The keys node_pair() reads. */
static const char *const node_keys[] = {
    "CPUTot",	      "CPUEfctv",    "CPUAlloc",       "Boards",
    "Sockets",	      "CoresPerSocket", "ThreadsPerCore", "CoreSpecCount",
    "RealMemory",     "AllocMem",    "Weight",	       "CfgTRES",
    "AllocTRES",      "Gres",	     "State",	       "AvailableFeatures",
    "CPUSpecList",    "Partitions",  "TRESWeights",    "Version",
};

static int node_record(struct pn_ctx *c)
{
	struct prio_snapshot *snap = c->snap;
	struct prio_node n, *slot;
	const struct kv_pair *first = &c->pairs[0];
	bool have_efctv = false;
	size_t dup;
	int rc;

	prio_node_defaults(&n);
	n.name = prio_snapshot_intern(snap, first->val, first->val_len);
	if (n.name == PRIO_NO_ID)
		return first->val_len ? nomem(c)
				      : bad_value(c, first, "a node name");
	if ((dup = second_key(c, node_keys,
			      sizeof(node_keys) / sizeof(*node_keys))) != 0) {
		const struct kv_pair *p = &c->pairs[dup];
		char field[64];

		snprintf(field, sizeof(field), "%.*s", (int)p->key_len, p->key);
		return prio_error_set(c->err, PRIO_ERR_PARSE, c->file, c->line,
				      field,
				      "a second %s= in the record of node %s "
				      "(a value holding \"%s=\"?)",
				      field, prio_snapshot_str(snap, n.name),
				      field);
	}
	for (size_t i = 1; i < c->count; i++)
		if ((rc = node_pair(c, &n, &c->pairs[i], &have_efctv)) < 0)
			return rc;
	if (!have_efctv) {
		/* Before CPUEfctv was printed: CPUs minus specialised cores. */
		uint32_t spec =
		    (uint32_t)n.core_spec_count * n.threads_per_core;

		n.cpus_efctv = spec >= n.cpus ? 0 : n.cpus - spec;
	}
	if ((rc = text_idset_mark(&c->seen, n.name)) != 0)
		return rc < 0 ? nomem(c)
			      : prio_error_set(c->err, PRIO_ERR_PARSE, c->file,
					       c->line, "NodeName",
					       "Duplicated NodeName %s",
					       prio_snapshot_str(snap, n.name));
	slot = prio_snapshot_new_node(snap);
	if (!slot)
		return nomem(c);
	n.file = c->file;
	n.line = c->line;
	*slot = n;
	return 0;
}

/* --- records -----------------------------------------------------------------
 */

/* The slurmds' newest release: at least the controller's... but only a
 * lower bound, so it replaces nothing stronger than another format hint,
 * and among format hints it may only raise the release (jobs.txt, read
 * before nodes.txt, says "23.02 or later" when it prints ReqTRES=). */
static void note_slurmd_release(struct prio_snapshot *snap, uint16_t release)
{
	prio_snapshot_note_at_least(snap, release);
}

/* A line of a node's free text in the multi-line shape: Reason=,
 * Comment= or Extra= after the indentation, or a reason's further line
 * (indented ten blanks, where keys are indented three). */
static bool node_free_text(const char *s, size_t n, size_t indent)
{
	static const char *const keys[] = {"Reason=", "Comment=", "Extra="};

	if (indent >= 10)
		return true;
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (n >= strlen(keys[k]) &&
		    memcmp(s, keys[k], strlen(keys[k])) == 0)
			return true;
	return false;
}

/* Append the pairs of one line to the record, growing the buffer. */
static int add_line(struct pn_ctx *c, const char *s, size_t n,
		    unsigned long number)
{
	for (;;) {
		size_t before = c->count;
		const char *stray = NULL;
		size_t stray_len = 0;

		if (c->cap && kv_split(s, n, c->pairs, &c->count, c->cap,
				       &stray, &stray_len) == 0) {
			if (stray_len)
				return prio_error_set(
				    c->err, PRIO_ERR_PARSE, c->file, number, "",
				    "expected Key=Value, got \"%.*s%s\"",
				    ECHO(stray, stray_len));
			return 0;
		}
		c->count = before;
		if (c->cap >= PN_MAX_PAIRS)
			return prio_error_set(
			    c->err, PRIO_ERR_LIMIT, c->file, number, "",
			    "more than %u Key=Value pairs in one record",
			    PN_MAX_PAIRS);
		{
			size_t cap = c->cap ? c->cap * 2 : 64;
			struct kv_pair *p = realloc(c->pairs, cap * sizeof(*p));

			if (!p)
				return nomem(c);
			c->pairs = p;
			c->cap = cap;
		}
	}
}

static int load_records(struct prio_snapshot *snap,
			const struct prio_source *src, struct prio_error *err,
			const char *first_key, enum prio_input_kind kind)
{
	struct pn_ctx c;
	struct prio_line_reader r;
	struct prio_line line;
	size_t key_len = strlen(first_key);
	bool open = false, skipping = false;
	int got, rc = 0;

	prio_error_clear(err);
	memset(&c, 0, sizeof(c));
	c.snap = snap;
	c.err = err;
	c.file = prio_arena_strdup(&snap->arena, src->name);
	if (!c.file)
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory");
	/* Names from earlier loads are duplicates too. */
	for (uint32_t i = 0;
	     kind == PRIO_INPUT_PARTITIONS && i < snap->partition_count; i++)
		if (text_idset_mark(&c.seen, snap->partitions[i].name) < 0)
			goto oom;
	for (uint32_t i = 0; kind == PRIO_INPUT_NODES && i < snap->node_count;
	     i++)
		if (text_idset_mark(&c.seen, snap->nodes[i].name) < 0)
			goto oom;
	prio_line_reader_init(&r, src);
	for (;;) {
		const char *s;
		size_t n;
		bool indented, blank;

		got = prio_line_next(&r, &line, err);
		if (got < 0) {
			if ((rc = prio_snapshot_record_error(snap, err)) < 0)
				goto out;
			/* The record with the bad line is dropped. */
			open = false;
			skipping = true;
			c.count = 0;
			continue;
		}
		s = got ? line.text : NULL;
		n = got ? line.len : 0;
		indented = n && is_blank(s[0]);
		blank = n == 0;
		if (indented) {
			size_t ind = 0;

			while (ind < n && is_blank(s[ind]))
				ind++;
			if (ind == n)
				continue; /* inside a record or between them */
			if (kind == PRIO_INPUT_NODES &&
			    node_free_text(s + ind, n - ind, ind))
				continue;
		}
		/* A record ends at an empty line, a new record or the end. */
		if (open && (got == 0 || blank || !indented)) {
			rc = kind == PRIO_INPUT_PARTITIONS
				 ? partition_record(&c)
				 : node_record(&c);
			if (rc == 0)
				c.records++;
			else if ((rc = prio_snapshot_record_error(snap, err)) <
				 0)
				goto out;
			open = false;
			c.count = 0;
		}
		if (got == 0)
			break;
		if (blank) {
			skipping = false;
			continue;
		}
		if (indented) {
			if (skipping)
				continue;
			if (!open) {
				prio_error_set(
				    err, PRIO_ERR_PARSE, c.file, line.number,
				    "",
				    "continuation line outside a %.*s record",
				    (int)key_len - 1, first_key);
				if ((rc = prio_snapshot_record_error(snap,
								     err)) < 0)
					goto out;
				skipping = true;
				continue;
			}
		} else {
			skipping = false;
			if (n <= key_len ||
			    memcmp(s, first_key, key_len) != 0) {
				prio_error_set(
				    err, PRIO_ERR_PARSE, c.file, line.number,
				    "",
				    "expected a %.*s record, got \"%.*s%s\"",
				    (int)key_len - 1, first_key, ECHO(s, n));
				if ((rc = prio_snapshot_record_error(snap,
								     err)) < 0)
					goto out;
				skipping = true;
				continue;
			}
			open = true;
			c.line = line.number;
			c.count = 0;
		}
		if ((rc = add_line(&c, s, n, line.number)) < 0) {
			if (rc == PRIO_ERR_NOMEM ||
			    (rc = prio_snapshot_record_error(snap, err)) < 0)
				goto out;
			open = false;
			skipping = true;
			c.count = 0;
		}
	}
	if (c.slurmd_release)
		note_slurmd_release(snap, c.slurmd_release);
	rc = prio_snapshot_note_loaded(snap, kind, src->name, c.records);
out:
	free(c.pairs);
	text_idset_free(&c.seen);
	return rc;
oom:
	rc = nomem(&c);
	goto out;
}

int prio_load_scontrol_partitions(struct prio_snapshot *snap,
				  const struct prio_source *src,
				  struct prio_error *err)
{
	return load_records(snap, src, err,
			    "PartitionName=", PRIO_INPUT_PARTITIONS);
}

int prio_load_scontrol_nodes(struct prio_snapshot *snap,
			     const struct prio_source *src,
			     struct prio_error *err)
{
	return load_records(snap, src, err, "NodeName=", PRIO_INPUT_NODES);
}
