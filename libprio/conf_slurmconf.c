/* SPDX-License-Identifier: MIT */
/*
 * slurm.conf, read the way Slurm 22.05's parser reads it (slurm-facts §10):
 *
 *  - lines: a '#' preceded by an even number of backslashes starts a
 *    comment; a line ending (before trailing blanks) in an odd number of
 *    backslashes continues on the next one, joined directly; then every
 *    backslash escapes the character after it;
 *  - one "Key=Value" per line (keys case-insensitive, optional blanks around
 *    '=', "double quotes" around values with blanks); anything left over is
 *    a parse error; operators such as "+=" are refused;
 *  - record lines (NodeName, PartitionName, DownNodes, FrontendName,
 *    NodeSet, SlurmctldHost) take the rest of the line as their own
 *    key=value list; "DEFAULT" records hold defaults for later lines only;
 *  - "Include FILE" (case-insensitive, at the start of the line): relative
 *    to the including file's folder, glob(3) patterns, %c for the lower-cased
 *    ClusterName, at most 16 levels, cycles refused, a missing file an
 *    immediate error (Slurm waits up to 60 s for it; a file tool should not).
 *
 * Top-level parameters go through prio_config_set() (the key table in
 * conf.c); nodes and partitions become snapshot records.  Every error names
 * the file it was found in, its line and the key.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "text.h"
#include "prio/conf.h"
#include "prio/hostlist.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

#define SC_MAX_DEPTH 16	       /* nested Include levels */
#define SC_MAX_INCLUDES 10000u /* files read through Include, in all */

#define ECHO_MAX 40
#define ECHO(v, n)                                                             \
	(int)((n) > ECHO_MAX ? ECHO_MAX : (n)), (v),                           \
	    ((n) > ECHO_MAX ? "..." : "")

/* --- record keys -------------------------------------------------------- */

/* clang-format off */
enum part_key {
	PK_NODES, PK_DEFAULT, PK_MAXTIME, PK_DEFAULTTIME, PK_JOBFACTOR,
	PK_TIER, PK_PRIORITY, PK_PREEMPTMODE, PK_GRACETIME, PK_OVERSUBSCRIBE,
	PK_SHARED, PK_BILLING, PK_QOS, PK_STATE, PK_ALLOWACCOUNTS, PK_ALLOWQOS,
	PK_COUNT
};
/* clang-format on */

/* clang-format off */
static const char *const part_keys[PK_COUNT] = {
	[PK_NODES] = "Nodes",
	[PK_DEFAULT] = "Default",
	[PK_MAXTIME] = "MaxTime",
	[PK_DEFAULTTIME] = "DefaultTime",
	[PK_JOBFACTOR] = "PriorityJobFactor",
	[PK_TIER] = "PriorityTier",
	[PK_PRIORITY] = "Priority",
	[PK_PREEMPTMODE] = "PreemptMode",
	[PK_GRACETIME] = "GraceTime",
	[PK_OVERSUBSCRIBE] = "OverSubscribe",
	[PK_SHARED] = "Shared",
	[PK_BILLING] = "TRESBillingWeights",
	[PK_QOS] = "QOS",
	[PK_STATE] = "State",
	[PK_ALLOWACCOUNTS] = "AllowAccounts",
	[PK_ALLOWQOS] = "AllowQos",
};
/* clang-format on */

/* clang-format off */
enum node_key {
	NK_CPUS, NK_PROCS, NK_BOARDS, NK_SOCKETSPERBOARD, NK_SOCKETS,
	NK_CORES, NK_THREADS, NK_REALMEMORY, NK_GRES, NK_WEIGHT, NK_STATE,
	NK_TRESWEIGHTS, NK_CORESPECCOUNT, NK_CPUSPECLIST, NK_FEATURES,
	NK_FEATURE, NK_HOSTNAME, NK_ADDR, NK_BCASTADDR, NK_PORT,
	NK_COUNT
};
/* clang-format on */

/* clang-format off */
static const char *const node_keys[NK_COUNT] = {
	[NK_CPUS] = "CPUs",
	[NK_PROCS] = "Procs",
	[NK_BOARDS] = "Boards",
	[NK_SOCKETSPERBOARD] = "SocketsPerBoard",
	[NK_SOCKETS] = "Sockets",
	[NK_CORES] = "CoresPerSocket",
	[NK_THREADS] = "ThreadsPerCore",
	[NK_REALMEMORY] = "RealMemory",
	[NK_GRES] = "Gres",
	[NK_WEIGHT] = "Weight",
	[NK_STATE] = "State",
	[NK_TRESWEIGHTS] = "TRESWeights",
	[NK_CORESPECCOUNT] = "CoreSpecCount",
	[NK_CPUSPECLIST] = "CpuSpecList",
	[NK_FEATURES] = "Features",
	[NK_FEATURE] = "Feature",
	[NK_HOSTNAME] = "NodeHostname",
	[NK_ADDR] = "NodeAddr",
	[NK_BCASTADDR] = "BcastAddr",
	[NK_PORT] = "Port",
};
/* clang-format on */

/* Every key a record line may hold in some supported release: the union of
 * read_config.c's record option tables at 22.05..26.05 (names only).  Slurm
 * refuses any other key on the line; most of these are only checked for,
 * the model does not use them. */
/* clang-format off */
static const char *const part_known[] = {
	"AllocNodes", "AllowAccounts", "AllowGroups", "AllowQos", "Alternate",
	"CpuBind", "Default", "DefaultTime", "DefCPUPerGPU", "DefMemPerCPU",
	"DefMemPerGPU", "DefMemPerNode", "DenyAccounts", "DenyQos",
	"DisableRootJobs", "ExclusiveTopo", "ExclusiveUser", "GraceTime",
	"Hidden", "LLN", "MaxCPUsPerNode", "MaxCPUsPerSocket", "MaxMemPerCPU",
	"MaxMemPerNode", "MaxNodes", "MaxTime", "MinNodes", "Nodes",
	"OverSubscribe", "OverTimeLimit", "PowerDownOnIdle", "PreemptMode",
	"Priority", "PriorityJobFactor", "PriorityTier", "QOS", "ReqResv",
	"ResumeTimeout", "RootOnly", "SelectTypeParameters", "Shared", "State",
	"SuspendTime", "SuspendTimeout", "Topology", "TRESBillingWeights",
};
static const char *const node_known[] = {
	"BcastAddr", "Boards", "CoreSpecCount", "CoresPerSocket", "CpuBind",
	"CPUs", "CPUSpecList", "Feature", "Features", "Gres", "GresConf",
	"MemSpecLimit", "NodeAddr", "NodeHostname", "Parameters", "Port",
	"Procs", "RealMemory", "Reason", "RestrictedCoresPerGPU", "Sockets",
	"SocketsPerBoard", "State", "SuspendTime", "ThreadsPerCore", "TmpDisk",
	"Topology", "TRESWeights", "Weight",
};
static const char *const nodeset_known[] = { "Feature", "Nodes" };
static const char *const down_known[] = { "Reason", "State" };
static const char *const frontend_known[] = {
	"AllowGroups", "AllowUsers", "DenyGroups", "DenyUsers", "FrontendAddr",
	"Port", "Reason", "State",
};
/* clang-format on */

/* The keys a record line of kind `key` may hold, NULL when not checked
 * (SlurmctldHost: its value is all Slurm reads). */
struct record_kind {
	const char *name;
	const char *const *keys;
	size_t count;
};

#define RECORD_KIND(name, keys) { name, keys, sizeof(keys) / sizeof((keys)[0]) }
static const struct record_kind record_kinds[] = {
	RECORD_KIND("PartitionName", part_known),
	RECORD_KIND("NodeName", node_known),
	RECORD_KIND("NodeSet", nodeset_known),
	RECORD_KIND("DownNodes", down_known),
	RECORD_KIND("FrontendName", frontend_known),
};

static int key_index(const char *const *keys, int count, const char *k,
		     size_t n)
{
	for (int i = 0; i < count; i++)
		if (prio_word_eq(k, n, keys[i]))
			return i;
	return -1;
}

/* A value from a DEFAULT line, kept for later records. */
struct sc_default {
	const char *value; /* arena; NULL when unset */
	size_t len;
	const char *file;
	unsigned long line;
};

/* One key=value of a line, pointing into the line buffer. */
struct sc_pair {
	const char *key, *val;
	size_t key_len, val_len;
	char op; /* '+', '-', '*', '/' before '=', or 0 */
};

struct sc_ctx {
	struct prio_snapshot *snap;
	struct prio_error *err;
	unsigned depth;
	unsigned includes;
	char *stack[SC_MAX_DEPTH + 2]; /* real paths of the files being read */
	unsigned stack_len;
	unsigned long records;
	struct sc_default pdef[PK_COUNT], ndef[NK_COUNT];
	/* interned name -> bit 1 partition, bit 2 node (duplicates) */
	struct text_idset seen; /* per name: 1 partition, 2 node defined */
	struct sc_pair *pairs;
	size_t pair_cap;
	const struct record_kind *kind; /* of the record line being read */
};

/* --- small helpers ------------------------------------------------------ */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static bool is_key_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static int nomem(struct sc_ctx *c, const char *file, unsigned long line)
{
	return prio_error_set(c->err, PRIO_ERR_NOMEM, file, line, "",
			      "out of memory");
}

/* A bad record: an error, or (keep_going) a warning and 0 to skip it. */
static int record_error(struct sc_ctx *c)
{
	return prio_snapshot_record_error(c->snap, c->err);
}

/* --- key=value scanning --------------------------------------------------- */

/* Next "Key[op]=Value" of s[*pos..n), Slurm's keyvalue pattern.  Returns 1
 * with *p filled, 0 when only blanks remain, -1 when the text does not
 * match, -2 for a key with an empty value (p->key set, for the message). */
static int next_pair(const char *s, size_t n, size_t *pos, struct sc_pair *p)
{
	size_t i = *pos;

	while (i < n && is_blank(s[i]))
		i++;
	if (i >= n) {
		*pos = n;
		return 0;
	}
	p->key = s + i;
	while (i < n && is_key_char(s[i]))
		i++;
	p->key_len = (size_t)(s + i - p->key);
	if (!p->key_len)
		return -1;
	while (i < n && is_blank(s[i]))
		i++;
	p->op = 0;
	if (i + 1 < n && strchr("+-*/", s[i]) && s[i + 1] == '=')
		p->op = s[i++];
	if (i >= n || s[i] != '=')
		return -1;
	i++;
	while (i < n && is_blank(s[i]))
		i++;
	if (i < n && s[i] == '"') {
		const char *close = memchr(s + i + 1, '"', n - i - 1);

		if (close && (close + 1 == s + n || is_blank(close[1]))) {
			p->val = s + i + 1;
			p->val_len = (size_t)(close - p->val);
			*pos = (size_t)(close + 1 - s);
			return 1;
		}
	}
	p->val = s + i;
	while (i < n && !is_blank(s[i]))
		i++;
	p->val_len = (size_t)(s + i - p->val);
	if (!p->val_len)
		return -2;
	*pos = i;
	return 1;
}

/* "Key=" with nothing after it: Slurm's parser refuses the line; --set
 * refuses it the same way (whatif.c), rather than reading a default. */
static int empty_error(struct sc_ctx *c, const char *file, unsigned long line,
		       const struct sc_pair *p)
{
	char key[64];

	snprintf(key, sizeof(key), "%.*s",
		 (int)(p->key_len < sizeof(key) ? p->key_len : sizeof(key) - 1),
		 p->key);
	return prio_error_set(c->err, PRIO_ERR_PARSE, file, line, key,
			      "empty value");
}

static int parse_error(struct sc_ctx *c, const char *file, unsigned long line,
		       const char *s, size_t n)
{
	while (n && is_blank(*s)) {
		s++;
		n--;
	}
	return prio_error_set(c->err, PRIO_ERR_PARSE, file, line, "",
			      "Parse error: \"%.*s%s\"", ECHO(s, n));
}

static int op_error(struct sc_ctx *c, const char *file, unsigned long line,
		    const struct sc_pair *p)
{
	return prio_error_set(
	    c->err, PRIO_ERR_PARSE, file, line, "",
	    "%.*s: operator \"%c=\" is not supported in slurm.conf",
	    (int)(p->key_len > 64 ? 64 : p->key_len), p->key, p->op);
}

static bool key_known(const struct record_kind *kind, const struct sc_pair *p)
{
	for (size_t i = 0; i < kind->count; i++)
		if (prio_word_eq(p->key, p->key_len, kind->keys[i]))
			return true;
	return false;
}

/* A typo on a record line would silently leave the partition or node at a
 * default: refused, as Slurm's parser refuses it. */
static int unknown_record_key(struct sc_ctx *c, const char *file,
			      unsigned long line, const struct sc_pair *p)
{
	const char *near = prio_closest_word(p->key, p->key_len, c->kind->keys,
					     c->kind->count);
	char key[64];

	snprintf(key, sizeof(key), "%.*s",
		 (int)(p->key_len < sizeof(key) ? p->key_len : sizeof(key) - 1),
		 p->key);
	return prio_error_set(c->err, PRIO_ERR_PARSE, file, line, key,
			      "unknown %s key%s%s%s", c->kind->name,
			      near ? " (did you mean " : "", near ? near : "",
			      near ? "?)" : "");
}

/* Collect the pairs of s[pos..n) into c->pairs.  Returns the count, or -1
 * with c->err filled. */
static long scan_pairs(struct sc_ctx *c, const char *s, size_t n, size_t pos,
		       const char *file, unsigned long line)
{
	size_t count = 0;
	struct sc_pair p;
	int got;

	while ((got = next_pair(s, n, &pos, &p)) == 1) {
		if (p.op) {
			op_error(c, file, line, &p);
			return -1;
		}
		if (c->kind && !key_known(c->kind, &p)) {
			unknown_record_key(c, file, line, &p);
			return -1;
		}
		if (count == c->pair_cap) {
			size_t cap = c->pair_cap ? c->pair_cap * 2 : 32;
			struct sc_pair *np =
			    realloc(c->pairs, cap * sizeof(*np));

			if (!np) {
				nomem(c, file, line);
				return -1;
			}
			c->pairs = np;
			c->pair_cap = cap;
		}
		c->pairs[count++] = p;
	}
	if (got == -2) {
		empty_error(c, file, line, &p);
		return -1;
	}
	if (got < 0) {
		parse_error(c, file, line, s + pos, n - pos);
		return -1;
	}
	return (long)count;
}

/* --- partitions ----------------------------------------------------------- */

struct part_rec {
	struct prio_partition p;
	bool have_oversubscribe, have_shared, have_priority;
	uint16_t shared_share, priority;
	const char *shared_text;
};

static int part_value_error(struct sc_ctx *c, const char *file,
			    unsigned long line, int key, const char *what,
			    const char *v, size_t n)
{
	return prio_error_set(c->err, PRIO_ERR_PARSE, file, line,
			      part_keys[key], "expected %s, got \"%.*s%s\"",
			      what, ECHO(v, n));
}

static int part_apply(struct sc_ctx *c, struct part_rec *r, int key,
		      const char *v, size_t n, const char *file,
		      unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	struct prio_partition *p = &r->p;
	const char *time_what =
	    "a time (minutes, MM:SS, HH:MM:SS, D-HH:MM:SS or UNLIMITED)";
	char buf[64];
	bool b;

	switch ((enum part_key)key) {
	case PK_NODES:
		if (!(p->nodes_text = prio_arena_strndup(&snap->arena, v, n)))
			return nomem(c, file, line);
		return 0;
	case PK_DEFAULT:
		if (prio_parse_bool(v, n, &b) < 0)
			return part_value_error(c, file, line, key, "YES or NO",
						v, n);
		p->is_default = b;
		return 0;
	case PK_MAXTIME:
		if (prio_time_str2mins(v, n, &p->max_time) < 0)
			return part_value_error(c, file, line, key, time_what,
						v, n);
		return 0;
	case PK_DEFAULTTIME:
		if (prio_time_str2mins(v, n, &p->default_time) < 0)
			return part_value_error(c, file, line, key, time_what,
						v, n);
		return 0;
	case PK_JOBFACTOR:
		if (prio_parse_uint16(v, n, &p->job_factor) < 0)
			return part_value_error(c, file, line, key,
						"an unsigned integer", v, n);
		return 0;
	case PK_TIER:
		if (prio_parse_uint16(v, n, &p->tier) < 0)
			return part_value_error(c, file, line, key,
						"an unsigned integer", v, n);
		return 0;
	case PK_PRIORITY:
		if (prio_parse_uint16(v, n, &r->priority) < 0)
			return part_value_error(c, file, line, key,
						"an unsigned integer", v, n);
		r->have_priority = true;
		return 0;
	case PK_PREEMPTMODE: {
		const char *why = NULL;
		char *copy = prio_arena_strndup(&snap->arena, v, n);

		if (!copy)
			return nomem(c, file, line);
		if (prio_preempt_mode_parse(copy, &p->preempt_mode, &why) < 0)
			return prio_error_set(
			    c->err, PRIO_ERR_PARSE, file, line, part_keys[key],
			    "%s, got \"%.*s%s\"", why, ECHO(v, n));
		return 0;
	}
	case PK_GRACETIME:
		if (prio_parse_uint32(v, n, &p->grace_time) < 0)
			return part_value_error(c, file, line, key,
						"a number of seconds", v, n);
		return 0;
	case PK_OVERSUBSCRIBE:
	case PK_SHARED: {
		uint16_t share;

		if (n >= sizeof(buf))
			return part_value_error(
			    c, file, line, key,
			    "NO, YES[:n], FORCE[:n] or EXCLUSIVE", v, n);
		memcpy(buf, v, n);
		buf[n] = '\0';
		if (prio_oversubscribe_parse(buf, &share) < 0)
			return part_value_error(
			    c, file, line, key,
			    "NO, YES[:n], FORCE[:n] or EXCLUSIVE", v, n);
		if (key == PK_OVERSUBSCRIBE) {
			p->max_share = share;
			r->have_oversubscribe = true;
			if (!(p->oversubscribe_text =
				  prio_arena_strndup(&snap->arena, v, n)))
				return nomem(c, file, line);
		} else {
			r->shared_share = share;
			r->have_shared = true;
			if (!(r->shared_text =
				  prio_arena_strndup(&snap->arena, v, n)))
				return nomem(c, file, line);
		}
		return 0;
	}
	case PK_BILLING:
		memset(&p->billing_weights, 0, sizeof(p->billing_weights));
		if (!(p->billing_weights.text =
			  prio_arena_strndup(&snap->arena, v, n)))
			return nomem(c, file, line);
		return 0;
	case PK_QOS:
		p->qos = prio_snapshot_intern(snap, v, n);
		if (p->qos == PRIO_NO_ID)
			return nomem(c, file, line);
		return 0;
	case PK_STATE:
		if (!prio_word_eq(v, n, "UP") && !prio_word_eq(v, n, "DOWN") &&
		    !prio_word_eq(v, n, "DRAIN") &&
		    !prio_word_eq(v, n, "INACTIVE"))
			return part_value_error(c, file, line, key,
						"UP, DOWN, DRAIN or INACTIVE",
						v, n);
		if (!(p->state = prio_arena_strndup(&snap->arena, v, n)))
			return nomem(c, file, line);
		return 0;
	case PK_ALLOWACCOUNTS:
		if (!(p->allow_accounts =
			  prio_arena_strndup(&snap->arena, v, n)))
			return nomem(c, file, line);
		return 0;
	case PK_ALLOWQOS:
		if (!(p->allow_qos = prio_arena_strndup(&snap->arena, v, n)))
			return nomem(c, file, line);
		return 0;
	case PK_COUNT:
		break;
	}
	return 0;
}

/* Store the known keys of a DEFAULT line, merged over earlier ones. */
static int store_defaults(struct sc_ctx *c, struct sc_default *def,
			  const char *const *keys, int nkeys, long count,
			  const char *file, unsigned long line)
{
	for (long i = 0; i < count; i++) {
		const struct sc_pair *p = &c->pairs[i];
		int k = key_index(keys, nkeys, p->key, p->key_len);

		if (k < 0)
			continue;
		def[k].value =
		    prio_arena_strndup(&c->snap->arena, p->val, p->val_len);
		if (!def[k].value)
			return nomem(c, file, line);
		def[k].len = p->val_len;
		def[k].file = file;
		def[k].line = line;
	}
	return 0;
}

static int partition_line(struct sc_ctx *c, const struct sc_pair *first,
			  const char *s, size_t n, size_t pos, const char *file,
			  unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	struct part_rec r;
	uint32_t present = 0;
	long count = scan_pairs(c, s, n, pos, file, line);
	struct prio_partition *slot;
	prio_id name;
	int rc;

	if (count < 0)
		return c->err->status;
	if (prio_word_eq(first->val, first->val_len, "DEFAULT")) {
		/* Validate now, so that the lines using them cannot fail on a
		 * default value; then keep them for later lines. */
		memset(&r, 0, sizeof(r));
		prio_partition_defaults(&r.p);
		for (long i = 0; i < count; i++) {
			const struct sc_pair *p = &c->pairs[i];
			int k =
			    key_index(part_keys, PK_COUNT, p->key, p->key_len);

			if (k >= 0 &&
			    (rc = part_apply(c, &r, k, p->val, p->val_len, file,
					     line)) < 0)
				return rc;
		}
		return store_defaults(c, c->pdef, part_keys, PK_COUNT, count,
				      file, line);
	}
	memset(&r, 0, sizeof(r));
	prio_partition_defaults(&r.p);
	for (long i = 0; i < count; i++) {
		int k = key_index(part_keys, PK_COUNT, c->pairs[i].key,
				  c->pairs[i].key_len);

		if (k >= 0)
			present |= 1u << k;
	}
	for (int k = 0; k < PK_COUNT; k++) {
		if (!c->pdef[k].value || (present & (1u << k)))
			continue;
		if ((rc = part_apply(c, &r, k, c->pdef[k].value, c->pdef[k].len,
				     c->pdef[k].file, c->pdef[k].line)) < 0)
			return rc;
	}
	for (long i = 0; i < count; i++) {
		const struct sc_pair *p = &c->pairs[i];
		int k = key_index(part_keys, PK_COUNT, p->key, p->key_len);

		if (k >= 0 && (rc = part_apply(c, &r, k, p->val, p->val_len,
					       file, line)) < 0)
			return rc;
	}
	/* Legacy spellings (read_config.c): Priority= sets both factor and
	 * tier and overrides them; Shared= counts only without
	 * OverSubscribe=. */
	if (r.have_priority) {
		r.p.job_factor = r.priority;
		r.p.tier = r.priority;
	}
	if (!r.have_oversubscribe && r.have_shared) {
		r.p.max_share = r.shared_share;
		r.p.oversubscribe_text = r.shared_text;
	}
	name = prio_snapshot_intern(snap, first->val, first->val_len);
	if (name == PRIO_NO_ID || text_idset_reserve(&c->seen, name) < 0)
		return nomem(c, file, line);
	if (c->seen.seen[name] & 1)
		return prio_error_set(c->err, PRIO_ERR_PARSE, file, line,
				      "PartitionName",
				      "duplicate entry for partition %.*s%s",
				      ECHO(first->val, first->val_len));
	c->seen.seen[name] |= 1;
	slot = prio_snapshot_new_partition(snap);
	if (!slot)
		return nomem(c, file, line);
	*slot = r.p;
	slot->name = name;
	slot->file = file;
	slot->line = line;
	return 0;
}

/* --- nodes ---------------------------------------------------------------- */

struct node_rec {
	struct prio_node n;
	bool have[NK_COUNT];
	uint16_t cpus16, spb, sockets;
	const char *hostnames, *addrs, *bcast;
};

static int node_apply(struct sc_ctx *c, struct node_rec *r, int key,
		      const char *v, size_t n, const char *file,
		      unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	struct prio_node *node = &r->n;
	uint16_t *u16 = NULL;
	const char **str = NULL;

	switch ((enum node_key)key) {
	case NK_CPUS:
	case NK_PROCS:
		u16 = &r->cpus16;
		break;
	case NK_BOARDS:
		u16 = &node->boards;
		break;
	case NK_SOCKETSPERBOARD:
		u16 = &r->spb;
		break;
	case NK_SOCKETS:
		u16 = &r->sockets;
		break;
	case NK_CORES:
		u16 = &node->cores_per_socket;
		break;
	case NK_THREADS:
		u16 = &node->threads_per_core;
		break;
	case NK_CORESPECCOUNT:
		u16 = &node->core_spec_count;
		break;
	case NK_REALMEMORY:
		if (prio_parse_uint64(v, n, &node->real_memory) < 0)
			goto bad_number;
		break;
	case NK_WEIGHT:
		if (prio_parse_uint32(v, n, &node->weight) < 0)
			goto bad_number;
		break;
	case NK_GRES:
		str = &node->gres;
		break;
	case NK_STATE:
		str = &node->state;
		break;
	case NK_TRESWEIGHTS:
		memset(&node->tres_weights, 0, sizeof(node->tres_weights));
		str = &node->tres_weights.text;
		break;
	case NK_CPUSPECLIST:
		str = &node->cpu_spec_list;
		break;
	case NK_FEATURES:
	case NK_FEATURE:
		str = &node->features;
		break;
	case NK_HOSTNAME:
		str = &r->hostnames;
		break;
	case NK_ADDR:
		str = &r->addrs;
		break;
	case NK_BCASTADDR:
		str = &r->bcast;
		break;
	case NK_PORT:
	case NK_COUNT:
		break;
	}
	if (u16 && prio_parse_uint16(v, n, u16) < 0)
		goto bad_number;
	if (str && !(*str = prio_arena_strndup(&snap->arena, v, n)))
		return nomem(c, file, line);
	r->have[key] = true;
	return 0;
bad_number:
	return prio_error_set(
	    c->err, PRIO_ERR_PARSE, file, line, node_keys[key],
	    "expected an unsigned integer, got \"%.*s%s\"", ECHO(v, n));
}

/* CPUs named by CpuSpecList ("0-3,8"). */
static int count_cpu_list(const char *s, uint32_t *count)
{
	uint64_t total = 0;

	while (*s) {
		char *end;
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*s))
			return -1;
		lo = strtoul(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || hi - lo > 1000000)
			return -1;
		total += hi - lo + 1;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	*count = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
	return 0;
}

/* CPU topology as _parse_nodename() completes it, and the CPUs left
 * after specialised cores (cpus_efctv, slurmctld's node setup). */
static int node_finish(struct sc_ctx *c, struct node_rec *r, const char *file,
		       unsigned long line)
{
	struct prio_node *n = &r->n;
	bool cpus = r->have[NK_CPUS] || r->have[NK_PROCS];
	bool cores = r->have[NK_CORES], threads = r->have[NK_THREADS];
	uint32_t sockets, computed;

	if (r->have[NK_SOCKETSPERBOARD])
		sockets = (uint32_t)r->spb * n->boards;
	else if (r->have[NK_SOCKETS])
		sockets = r->sockets;
	else if (cpus && !cores && !threads)
		sockets = r->cpus16; /* only CPUs= given */
	else
		sockets = n->boards;
	if (sockets > UINT16_MAX)
		sockets = UINT16_MAX;
	n->cpus = cpus ? r->cpus16
		       : sockets * n->cores_per_socket * n->threads_per_core;
	if (cpus && (r->have[NK_SOCKETS] || r->have[NK_SOCKETSPERBOARD]) &&
	    !cores && !threads && n->cpus != sockets)
		sockets = n->cpus;
	computed = sockets * n->cores_per_socket * n->threads_per_core;
	/* Slurm resets an inconsistent CPUs= (with an error in its log). */
	if (n->cpus != sockets && n->cpus != sockets * n->cores_per_socket &&
	    n->cpus != computed)
		n->cpus = computed;
	n->sockets = (uint16_t)sockets;
	n->cpus_efctv = n->cpus;
	if (n->cpu_spec_list) {
		uint32_t spec;

		if (count_cpu_list(n->cpu_spec_list, &spec) < 0)
			return prio_error_set(
			    c->err, PRIO_ERR_PARSE, file, line, "CpuSpecList",
			    "expected CPU ids such as 0-3,8, got \"%.*s%s\"",
			    ECHO(n->cpu_spec_list, strlen(n->cpu_spec_list)));
		n->cpus_efctv = spec >= n->cpus ? 0 : n->cpus - spec;
	} else if (n->core_spec_count) {
		uint32_t spec =
		    (uint32_t)n->core_spec_count * n->threads_per_core;

		n->cpus_efctv = spec >= n->cpus ? 0 : n->cpus - spec;
	}
	return 0;
}

/* The number of names in a NodeHostname/NodeAddr hostlist. */
static int hostlist_count(const char *s, size_t *count, const char **why)
{
	struct prio_arena tmp;
	struct prio_hostlist hl;
	int rc;

	prio_arena_init(&tmp);
	rc = prio_hostlist_expand(&tmp, s, strlen(s), &hl, why);
	*count = hl.count;
	prio_arena_free(&tmp);
	return rc;
}

static int node_line(struct sc_ctx *c, const struct sc_pair *first,
		     const char *s, size_t n, size_t pos, const char *file,
		     unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	struct node_rec r;
	uint32_t present = 0;
	long count = scan_pairs(c, s, n, pos, file, line);
	struct prio_arena tmp;
	struct prio_hostlist hl;
	const char *why = NULL;
	int rc;

	if (count < 0)
		return c->err->status;
	memset(&r, 0, sizeof(r));
	prio_node_defaults(&r.n);
	if (prio_word_eq(first->val, first->val_len, "DEFAULT")) {
		for (long i = 0; i < count; i++) {
			const struct sc_pair *p = &c->pairs[i];
			int k =
			    key_index(node_keys, NK_COUNT, p->key, p->key_len);

			if (k == NK_HOSTNAME || k == NK_ADDR ||
			    k == NK_BCASTADDR)
				return prio_error_set(
				    c->err, PRIO_ERR_PARSE, file, line,
				    node_keys[k],
				    "NodeName=DEFAULT may not set %s",
				    node_keys[k]);
			if (k >= 0 &&
			    (rc = node_apply(c, &r, k, p->val, p->val_len, file,
					     line)) < 0)
				return rc;
		}
		return store_defaults(c, c->ndef, node_keys, NK_COUNT, count,
				      file, line);
	}
	if (prio_word_eq(first->val, first->val_len, "ALL"))
		return prio_error_set(c->err, PRIO_ERR_PARSE, file, line,
				      "NodeName", "NodeName=ALL is reserved");
	for (long i = 0; i < count; i++) {
		int k = key_index(node_keys, NK_COUNT, c->pairs[i].key,
				  c->pairs[i].key_len);

		if (k >= 0)
			present |= 1u << k;
	}
	for (int k = 0; k < NK_COUNT; k++) {
		if (!c->ndef[k].value || (present & (1u << k)))
			continue;
		if ((rc = node_apply(c, &r, k, c->ndef[k].value, c->ndef[k].len,
				     c->ndef[k].file, c->ndef[k].line)) < 0)
			return rc;
	}
	for (long i = 0; i < count; i++) {
		const struct sc_pair *p = &c->pairs[i];
		int k = key_index(node_keys, NK_COUNT, p->key, p->key_len);

		if (k >= 0 && (rc = node_apply(c, &r, k, p->val, p->val_len,
					       file, line)) < 0)
			return rc;
	}
	if ((rc = node_finish(c, &r, file, line)) < 0)
		return rc;

	prio_arena_init(&tmp);
	if (prio_hostlist_expand(&tmp, first->val, first->val_len, &hl, &why) <
	    0) {
		prio_arena_free(&tmp);
		return prio_error_set(c->err, PRIO_ERR_PARSE, file, line,
				      "NodeName",
				      "invalid hostlist \"%.*s%s\": %s",
				      ECHO(first->val, first->val_len), why);
	}
	/* NodeHostname / NodeAddr pair up with the names (node_conf.c). */
	{
		const char *lists[2] = {r.hostnames, r.addrs};
		const char *keys[2] = {"NodeHostname", "NodeAddr"};

		for (int i = 0; i < 2; i++) {
			size_t hc;

			if (!lists[i])
				continue;
			if (hostlist_count(lists[i], &hc, &why) < 0) {
				prio_arena_free(&tmp);
				return prio_error_set(
				    c->err, PRIO_ERR_PARSE, file, line, keys[i],
				    "invalid hostlist: %s", why);
			}
			if (hc > 1 && hc != hl.count) {
				prio_arena_free(&tmp);
				return prio_error_set(
				    c->err, PRIO_ERR_PARSE, file, line, keys[i],
				    "%s count must equal that of NodeName "
				    "records (%zu names, %zu %s)",
				    keys[i], hl.count, hc, keys[i]);
			}
		}
	}
	for (size_t i = 0; i < hl.count; i++) {
		prio_id name = prio_snapshot_intern(snap, hl.names[i],
						    strlen(hl.names[i]));
		struct prio_node *slot;

		if (name == PRIO_NO_ID || text_idset_reserve(&c->seen, name) < 0) {
			prio_arena_free(&tmp);
			return nomem(c, file, line);
		}
		if (c->seen.seen[name] & 2) {
			prio_error_set(
			    c->err, PRIO_ERR_PARSE, file, line, "NodeName",
			    "Duplicated NodeName %s in the config file",
			    prio_snapshot_str(snap, name));
			if ((rc = record_error(c)) < 0) {
				prio_arena_free(&tmp);
				return rc;
			}
			continue;
		}
		c->seen.seen[name] |= 2;
		slot = prio_snapshot_new_node(snap);
		if (!slot) {
			prio_arena_free(&tmp);
			return nomem(c, file, line);
		}
		*slot = r.n;
		slot->name = name;
		slot->file = file;
		slot->line = line;
	}
	prio_arena_free(&tmp);
	return 0;
}

/* --- NodeSet ----------------------------------------------------------------
 */

/* NodeSet=name Nodes=hostlist | Feature=name: partitions may name it in
 * their Nodes= list; prio_config_link() resolves it. */
static int nodeset_line(struct sc_ctx *c, const struct sc_pair *first,
			const char *s, size_t n, size_t pos, const char *file,
			unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	long count = scan_pairs(c, s, n, pos, file, line);
	struct prio_conf_nodeset *set;

	if (count < 0)
		return c->err->status;
	set = prio_arena_alloc(&snap->arena, sizeof(*set));
	if (!set)
		return nomem(c, file, line);
	/* Interned, so that linking finds it by id. */
	{
		prio_id id =
		    prio_snapshot_intern(snap, first->val, first->val_len);

		if (id == PRIO_NO_ID)
			return nomem(c, file, line);
		set->name = prio_snapshot_str(snap, id);
	}
	for (long i = 0; i < count; i++) {
		const struct sc_pair *p = &c->pairs[i];
		const char **dst = NULL;

		if (prio_word_eq(p->key, p->key_len, "Nodes"))
			dst = &set->nodes;
		else if (prio_word_eq(p->key, p->key_len, "Feature"))
			dst = &set->feature;
		if (dst && !(*dst = prio_arena_strndup(&snap->arena, p->val,
						       p->val_len)))
			return nomem(c, file, line);
	}
	if (!set->nodes && !set->feature)
		return prio_error_set(
		    c->err, PRIO_ERR_PARSE, file, line, "NodeSet",
		    "NodeSet %s needs Nodes= or Feature=", set->name);
	set->file = file;
	set->line = line;
	set->next = snap->conf.nodesets;
	snap->conf.nodesets = set;
	return 0;
}

/* --- Include ----------------------------------------------------------------
 */

static int parse_source(struct sc_ctx *c, const struct prio_source *src,
			const char *name, const char *dir);

static bool has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Read one included file (path as it will be shown). */
static int include_file(struct sc_ctx *c, const char *path, const char *file,
			unsigned long line)
{
	struct prio_snapshot *snap = c->snap;
	struct prio_source src;
	struct stat st;
	char *real, *shown, *dir, *slash;
	int rc;

	if (stat(path, &st) != 0)
		return prio_error_set(
		    c->err, errno == ENOENT ? PRIO_ERR_MISSING : PRIO_ERR_IO,
		    file, line, "Include", "\"Include\" failed: %s: %s", path,
		    strerror(errno));
	if (!S_ISREG(st.st_mode))
		return prio_error_set(
		    c->err, PRIO_ERR_IO, file, line, "Include",
		    "\"Include\" failed: %s is not a regular file", path);
	if (++c->includes > SC_MAX_INCLUDES)
		return prio_error_set(c->err, PRIO_ERR_LIMIT, file, line,
				      "Include", "more than %u included files",
				      SC_MAX_INCLUDES);
	if (c->depth >= SC_MAX_DEPTH)
		return prio_error_set(
		    c->err, PRIO_ERR_LIMIT, file, line, "Include",
		    "Include nested more than %d levels deep (at %s)",
		    SC_MAX_DEPTH, path);
	real = realpath(path, NULL);
	if (!real)
		return prio_error_set(c->err, PRIO_ERR_IO, file, line,
				      "Include", "\"Include\" failed: %s: %s",
				      path, strerror(errno));
	for (unsigned i = 0; i < c->stack_len; i++) {
		if (!strcmp(c->stack[i], real)) {
			free(real);
			return prio_error_set(
			    c->err, PRIO_ERR_PARSE, file, line, "Include",
			    "Include cycle: %s is already being read", path);
		}
	}
	shown = prio_arena_strdup(&snap->arena, path);
	dir = prio_arena_strdup(&snap->arena, path);
	if (!shown || !dir) {
		free(real);
		return nomem(c, file, line);
	}
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		dir = NULL;
	if ((rc = prio_source_open(&src, path, c->err)) < 0) {
		free(real);
		/* Name the Include line, not just the file. */
		c->err->line = line;
		snprintf(c->err->file, sizeof(c->err->file), "%s", file);
		snprintf(c->err->field, sizeof(c->err->field), "Include");
		return rc;
	}
	c->stack[c->stack_len++] = real;
	c->depth++;
	rc = parse_source(c, &src, shown, dir);
	c->depth--;
	c->stack_len--;
	free(real);
	prio_source_close(&src);
	return rc;
}

/* "Include FILE" line s[0..n): 1 if it is one (handled, rc in *rc), 0 if
 * the line is something else. */
static int include_line(struct sc_ctx *c, const char *s, size_t n,
			const char *file, unsigned long line, const char *dir,
			int *rc)
{
	const struct prio_config *conf = &c->snap->conf;
	size_t i = 7, start, end;
	char *pattern, *path;
	size_t plen = 0, cap;
	glob_t g;
	int grc;

	if (n < 8 || strncasecmp(s, "include", 7) != 0 || !is_blank(s[7]))
		return 0;
	while (i < n && is_blank(s[i]))
		i++;
	start = i;
	while (i < n && !is_blank(s[i]))
		i++;
	end = i;
	while (i < n && is_blank(s[i]))
		i++;
	if (start == end) {
		*rc = prio_error_set(c->err, PRIO_ERR_PARSE, file, line,
				     "Include", "Include needs a file name");
		return 1;
	}
	if (i < n) {
		*rc = parse_error(c, file, line, s + end, n - end);
		return 1;
	}
	/* %c -> lower-cased ClusterName (already lower-cased when stored). */
	cap = (end - start) *
		  (conf->cluster_name ? strlen(conf->cluster_name) + 1 : 1) +
	      (dir ? strlen(dir) : 0) + 2;
	pattern = malloc(cap);
	if (!pattern) {
		*rc = nomem(c, file, line);
		return 1;
	}
	if (dir && s[start] != '/') {
		plen = (size_t)sprintf(pattern, "%s/", dir);
	}
	for (size_t k = start; k < end; k++) {
		if (s[k] == '%' && k + 1 < end && s[k + 1] == 'c') {
			if (!conf->cluster_name) {
				free(pattern);
				*rc =
				    prio_error_set(c->err, PRIO_ERR_PARSE, file,
						   line, "Include",
						   "%%c in Include needs "
						   "ClusterName set before it");
				return 1;
			}
			plen += (size_t)sprintf(pattern + plen, "%s",
						conf->cluster_name);
			k++;
			continue;
		}
		pattern[plen++] = s[k];
	}
	pattern[plen] = '\0';
	path = pattern;
	memset(&g, 0, sizeof(g));
	grc = glob(pattern, 0, NULL, &g);
	if (grc == GLOB_NOMATCH && !has_glob_chars(pattern)) {
		*rc = include_file(c, path, file,
				   line); /* reports the missing file */
	} else if (grc == GLOB_NOMATCH) {
		*rc = 0; /* a pattern that matches nothing includes nothing */
	} else if (grc != 0) {
		*rc = prio_error_set(c->err, PRIO_ERR_IO, file, line, "Include",
				     "\"Include\" failed: cannot expand %s",
				     pattern);
	} else {
		*rc = 0;
		for (size_t k = 0; k < g.gl_pathc && *rc >= 0; k++) {
			*rc = include_file(c, g.gl_pathv[k], file, line);
			/* Errors inside the file were already counted as
			 * warnings with keep_going; what is left is this
			 * Include's own failure (or a fatal one). */
			if (*rc < 0 && *rc != PRIO_ERR_NOMEM)
				*rc = record_error(c);
		}
		globfree(&g);
		free(pattern);
		return 1;
	}
	if (*rc < 0 && *rc != PRIO_ERR_NOMEM)
		*rc = record_error(c);
	free(pattern);
	return 1;
}

/* --- lines ------------------------------------------------------------------
 */

/* One logical line (comments, continuations and escapes already done). */
static int logical_line(struct sc_ctx *c, const char *s, size_t n,
			const char *file, unsigned long line, const char *dir)
{
	struct sc_pair p;
	size_t pos = 0;
	int got, rc;

	if (include_line(c, s, n, file, line, dir, &rc))
		return rc;
	got = next_pair(s, n, &pos, &p);
	if (got == 0)
		return 0;
	if (got == -2)
		return empty_error(c, file, line, &p);
	if (got < 0)
		return parse_error(c, file, line, s, n);
	if (p.op)
		return op_error(c, file, line, &p);
	c->records++;
	if (prio_word_eq(p.key, p.key_len, "PartitionName") ||
	    prio_word_eq(p.key, p.key_len, "NodeName") ||
	    prio_word_eq(p.key, p.key_len, "DownNodes") ||
	    prio_word_eq(p.key, p.key_len, "FrontendName") ||
	    prio_word_eq(p.key, p.key_len, "NodeSet") ||
	    prio_word_eq(p.key, p.key_len, "SlurmctldHost")) {
		const char *rest = p.val;
		size_t rest_len = (size_t)(s + n - rest);

		c->kind = NULL;
		for (size_t i = 0; i < sizeof(record_kinds) / sizeof(record_kinds[0]);
		     i++)
			if (prio_word_eq(p.key, p.key_len, record_kinds[i].name))
				c->kind = &record_kinds[i];

		if (prio_word_eq(p.key, p.key_len, "PartitionName"))
			rc = partition_line(c, &p, s, n, pos, file, line);
		else if (prio_word_eq(p.key, p.key_len, "NodeName"))
			rc = node_line(c, &p, s, n, pos, file, line);
		else if (prio_word_eq(p.key, p.key_len, "NodeSet"))
			rc = nodeset_line(c, &p, s, n, pos, file, line);
		else
			rc = scan_pairs(c, s, n, pos, file, line) < 0
				 ? c->err->status
				 : 0;
		c->kind = NULL;
		if (rc < 0)
			return rc;
		while (rest_len && is_blank(rest[rest_len - 1]))
			rest_len--;
		if (prio_config_record(c->snap, p.key, p.key_len, rest,
				       rest_len, file, line, false) < 0)
			return nomem(c, file, line);
		c->snap->have_config = true;
		return 0;
	}
	/* One parameter per line. */
	while (pos < n && is_blank(s[pos]))
		pos++;
	if (pos < n)
		return parse_error(c, file, line, s + pos, n - pos);
	/* Key="" too: prio_config_set() would read it as the default */
	if (!p.val_len)
		return empty_error(c, file, line, &p);
	rc = prio_config_set(c->snap, p.key, p.key_len, p.val, p.val_len, file,
			     line, c->err);
	/* an unknown key is a fault of this file, as Slurm's parser says */
	if (rc == PRIO_ERR_USAGE)
		c->err->status = rc = PRIO_ERR_PARSE;
	return rc;
}

/* Length of line without its comment: the first '#' preceded by an even
 * number of backslashes. */
static size_t comment_cut(const char *s, size_t n)
{
	size_t bs = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\') {
			bs++;
			continue;
		}
		if (s[i] == '#' && bs % 2 == 0)
			return i;
		bs = 0;
	}
	return n;
}

/* Remove every backslash, keeping the character after it. */
static size_t unescape(char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\') {
			if (++i >= n)
				break;
		}
		s[o++] = s[i];
	}
	return o;
}

static int parse_source(struct sc_ctx *c, const struct prio_source *src,
			const char *name, const char *dir)
{
	struct prio_line_reader r;
	struct prio_line line;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	unsigned long first = 0;
	bool cont = false, skip = false;
	int rc = 0;

	prio_line_reader_init(&r, src);
	for (;;) {
		int got = prio_line_next(&r, &line, c->err);
		size_t n, t, bs, take;
		bool more;

		if (got < 0) {
			/* NUL byte or overlong line: the line reader named the
			 * source; show the name we use for this file. */
			snprintf(c->err->file, sizeof(c->err->file), "%s",
				 name);
			cont = false;
			len = 0;
			if ((rc = record_error(c)) < 0)
				break;
			continue;
		}
		if (got == 0) {
			if (cont && !skip && len) {
				len = unescape(buf, len);
				rc =
				    logical_line(c, buf, len, name, first, dir);
				if (rc < 0 && rc != PRIO_ERR_NOMEM)
					rc = record_error(c);
			}
			break;
		}
		n = comment_cut(line.text, line.len);
		if (!cont) {
			first = line.number;
			len = 0;
			skip = false;
		}
		t = n;
		while (t && is_blank(line.text[t - 1]))
			t--;
		bs = 0;
		while (bs < t && line.text[t - 1 - bs] == '\\')
			bs++;
		more = bs % 2 == 1;
		take = more ? t - 1 : n;
		if (!skip && len + take > PRIO_MAX_LINE) {
			prio_error_set(
			    c->err, PRIO_ERR_LIMIT, name, first, "",
			    "line longer than %u bytes (with continuations)",
			    PRIO_MAX_LINE);
			if ((rc = record_error(c)) < 0)
				break;
			skip = true;
		}
		if (!skip) {
			if (len + take + 1 > cap) {
				size_t ncap = cap ? cap : 256;
				char *nb;

				while (ncap < len + take + 1)
					ncap *= 2;
				nb = realloc(buf, ncap);
				if (!nb) {
					rc = nomem(c, name, line.number);
					break;
				}
				buf = nb;
				cap = ncap;
			}
			memcpy(buf + len, line.text, take);
			len += take;
		}
		cont = more;
		if (more)
			continue;
		if (skip)
			continue;
		len = unescape(buf, len);
		rc = logical_line(c, buf, len, name, first, dir);
		if (rc < 0 && rc != PRIO_ERR_NOMEM)
			rc = record_error(c);
		if (rc < 0)
			break;
	}
	free(buf);
	return rc < 0 ? rc : 0;
}

/* --- entry points
 * ------------------------------------------------------------- */

static void ctx_init(struct sc_ctx *c, struct prio_snapshot *snap,
		     struct prio_error *err)
{
	memset(c, 0, sizeof(*c));
	c->snap = snap;
	c->err = err;
}

/* Names defined by earlier loads count as duplicates too. */
static int ctx_seed(struct sc_ctx *c)
{
	for (uint32_t i = 0; i < c->snap->partition_count; i++) {
		prio_id id = c->snap->partitions[i].name;

		if (text_idset_reserve(&c->seen, id) < 0)
			return -1;
		c->seen.seen[id] |= 1;
	}
	for (uint32_t i = 0; i < c->snap->node_count; i++) {
		prio_id id = c->snap->nodes[i].name;

		if (text_idset_reserve(&c->seen, id) < 0)
			return -1;
		c->seen.seen[id] |= 2;
	}
	return 0;
}

static void ctx_free(struct sc_ctx *c)
{
	text_idset_free(&c->seen);
	free(c->pairs);
	for (unsigned i = 0; i < c->stack_len; i++)
		free(c->stack[i]);
}

static int load(struct prio_snapshot *snap, const struct prio_source *src,
		const char *path, struct prio_error *err)
{
	struct sc_ctx c;
	char *name, *dir = NULL;
	int rc;

	prio_error_clear(err);
	ctx_init(&c, snap, err);
	name = prio_arena_strdup(&snap->arena, src->name);
	if (!name || ctx_seed(&c) < 0) {
		ctx_free(&c);
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory");
	}
	if (path) {
		char *slash;

		c.stack[c.stack_len] = realpath(path, NULL);
		if (c.stack[c.stack_len])
			c.stack_len++;
		dir = prio_arena_strdup(&snap->arena, path);
		if (!dir) {
			ctx_free(&c);
			return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0,
					      "", "out of memory");
		}
		slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir ? 1 : 0] = '\0';
		else
			dir = NULL;
	}
	rc = parse_source(&c, src, name, dir);
	ctx_free(&c);
	if (rc < 0)
		return rc;
	snap->have_config = true;
	return prio_snapshot_note_loaded(snap, PRIO_INPUT_SLURMCONF, src->name,
					 c.records);
}

int prio_load_slurmconf(struct prio_snapshot *snap, const char *path,
			struct prio_error *err)
{
	struct prio_source src;
	int rc;

	if ((rc = prio_source_open(&src, path, err)) < 0)
		return rc;
	rc = load(snap, &src, strcmp(path, "-") ? path : NULL, err);
	prio_source_close(&src);
	return rc;
}

int prio_load_slurmconf_source(struct prio_snapshot *snap,
			       const struct prio_source *src,
			       struct prio_error *err)
{
	return load(snap, src, NULL, err);
}
