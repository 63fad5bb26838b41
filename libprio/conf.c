/* SPDX-License-Identifier: MIT */
/*
 * Configuration values shared by every config loader (slurm-facts §1.0, §5,
 * §9, §10):
 *  - Slurm 22.05's defaults, and the small grammars of PriorityFlags,
 *    PreemptMode and OverSubscribe;
 *  - the key table: every top-level slurm.conf parameter we interpret, with
 *    its type, destination and validation, applied by prio_config_set() for
 *    slurm.conf, `scontrol show config` and --set alike;
 *  - conf.kv, every key/value read, for display;
 *  - prio_config_link(): partitions to nodes, partition TRES totals and
 *    billing, TRES weight strings parsed against the final TRES table, and
 *    the cross-key checks Slurm makes fatal.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/billing.h"
#include "prio/conf.h"
#include "prio/hostlist.h"
#include "prio/slurm_version.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

void prio_config_defaults(struct prio_config *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->priority_type = "priority/basic";
	conf->priority_flags = PRIO_FLAG_FAIR_TREE;
	conf->decay_half_life = 604800;
	conf->calc_period = 300;
	conf->max_age = 604800;
	conf->reset_period = PRIO_RESET_NONE;
	conf->dampening_factor = 1;
	conf->preempt_type = PRIO_PREEMPT_TYPE_NONE;
	conf->preempt_mode = PRIO_PREEMPT_OFF;
	/* Slurm leaves the global PreemptExemptTime at 0 (scontrol prints
	 * 00:00:00 when it is not configured): nothing is exempt. */
	conf->preempt_exempt_time = 0;
	conf->sched_time_slice = 30;
	conf->preempt.reorder_count = 1;
	conf->preempt.min_exempt_priority = PRIO_NO_VAL;
	conf->preempt.suspend_grace_time = 2;
}

void prio_partition_defaults(struct prio_partition *p)
{
	memset(p, 0, sizeof(*p));
	p->job_factor = 1;
	p->tier = 1;
	p->max_time = PRIO_INFINITE;
	p->default_time = PRIO_NO_VAL;
	p->preempt_mode = PRIO_NO_VAL16;
	p->max_share = 1; /* OverSubscribe=NO */
	p->state = "UP";
}

void prio_node_defaults(struct prio_node *n)
{
	memset(n, 0, sizeof(*n));
	n->cpus = 1;
	n->cpus_efctv = 1;
	n->boards = 1;
	n->sockets = 1;
	n->cores_per_socket = 1;
	n->threads_per_core = 1;
	n->real_memory = 1;
	n->weight = 1;
}

uint32_t prio_priority_flags_parse(const char *s)
{
	uint32_t flags = PRIO_FLAG_FAIR_TREE;

	/* Substring tests, as Slurm does: "xMAX_TRESy" sets MAX_TRES too. */
	if (!s)
		return flags;
	if (strcasestr(s, "ACCRUE_ALWAYS"))
		flags |= PRIO_FLAG_ACCRUE_ALWAYS;
	if (strcasestr(s, "SMALL_RELATIVE_TO_TIME"))
		flags |= PRIO_FLAG_SIZE_RELATIVE;
	if (strcasestr(s, "CALCULATE_RUNNING"))
		flags |= PRIO_FLAG_CALCULATE_RUNNING;
	if (strcasestr(s, "DEPTH_OBLIVIOUS")) {
		flags |= PRIO_FLAG_DEPTH_OBLIVIOUS;
		flags &= ~PRIO_FLAG_FAIR_TREE;
	} else if (strcasestr(s, "NO_FAIR_TREE")) {
		flags &= ~PRIO_FLAG_FAIR_TREE;
	}
	if (strcasestr(s, "TICKET_BASED")) {
		flags |= PRIO_FLAG_TICKET_BASED;
		flags &= ~PRIO_FLAG_FAIR_TREE;
	}
	if (strcasestr(s, "INCR_ONLY"))
		flags |= PRIO_FLAG_INCR_ONLY;
	/* 25.05 tests the longer name first: MAX_TRES_GRES is not also
	 * MAX_TRES.  A release without it is refused at link time. */
	if (strcasestr(s, "MAX_TRES_GRES"))
		flags |= PRIO_FLAG_MAX_TRES_GRES;
	else if (strcasestr(s, "MAX_TRES"))
		flags |= PRIO_FLAG_MAX_TRES;
	if (strcasestr(s, "NO_NORMAL_ALL"))
		flags |= PRIO_FLAG_NO_NORMAL_ASSOC | PRIO_FLAG_NO_NORMAL_PART |
			 PRIO_FLAG_NO_NORMAL_QOS | PRIO_FLAG_NO_NORMAL_TRES;
	if (strcasestr(s, "NO_NORMAL_ASSOC"))
		flags |= PRIO_FLAG_NO_NORMAL_ASSOC;
	if (strcasestr(s, "NO_NORMAL_PART"))
		flags |= PRIO_FLAG_NO_NORMAL_PART;
	if (strcasestr(s, "NO_NORMAL_QOS"))
		flags |= PRIO_FLAG_NO_NORMAL_QOS;
	if (strcasestr(s, "NO_NORMAL_TRES"))
		flags |= PRIO_FLAG_NO_NORMAL_TRES;
	return flags;
}

/* PriorityFlags names in the order Slurm prints them
 * (slurm_protocol_defs.c priority_flags_string()), then our own. */
static const struct {
	uint32_t bit;
	const char *name;
} flag_names[] = {
    {PRIO_FLAG_ACCRUE_ALWAYS, "ACCRUE_ALWAYS"},
    {PRIO_FLAG_SIZE_RELATIVE, "SMALL_RELATIVE_TO_TIME"},
    {PRIO_FLAG_CALCULATE_RUNNING, "CALCULATE_RUNNING"},
    {PRIO_FLAG_DEPTH_OBLIVIOUS, "DEPTH_OBLIVIOUS"},
    {PRIO_FLAG_FAIR_TREE, "FAIR_TREE"},
    {PRIO_FLAG_INCR_ONLY, "INCR_ONLY"},
    {PRIO_FLAG_MAX_TRES, "MAX_TRES"},
    {PRIO_FLAG_MAX_TRES_GRES, "MAX_TRES_GRES"},
    {PRIO_FLAG_NO_NORMAL_ASSOC, "NO_NORMAL_ASSOC"},
    {PRIO_FLAG_NO_NORMAL_PART, "NO_NORMAL_PART"},
    {PRIO_FLAG_NO_NORMAL_QOS, "NO_NORMAL_QOS"},
    {PRIO_FLAG_NO_NORMAL_TRES, "NO_NORMAL_TRES"},
    {PRIO_FLAG_TICKET_BASED, "TICKET_BASED"},
};
#define NFLAG_NAMES (sizeof(flag_names) / sizeof(flag_names[0]))

/* Append ",name" (or "name" first) to buf; false when it does not fit. */
static bool flags_append(char *buf, unsigned size, size_t *used,
			 const char *name)
{
	int n = snprintf(buf + *used, size - *used, "%s%s", *used ? "," : "",
			 name);

	if (n < 0 || (size_t)n >= size - *used)
		return false;
	*used += (size_t)n;
	return true;
}

const char *prio_priority_flags_format(uint32_t flags, char *buf, unsigned size)
{
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < NFLAG_NAMES; i++)
		if ((flags & flag_names[i].bit) &&
		    !flags_append(buf, size, &used, flag_names[i].name))
			break;
	return buf;
}

const char *prio_priority_flags_slurm(uint32_t flags,
				      const struct prio_slurm_release *rel,
				      char *buf, unsigned size)
{
	uint32_t nn = flags & PRIO_FLAG_NO_NORMAL_ALL;
	/* Until 25.11.1 one NO_NORMAL_* flag was enough for NO_NORMAL_ALL,
	 * which then stood for all of them. */
	bool all = nn && (nn == PRIO_FLAG_NO_NORMAL_ALL ||
			  !(rel && rel->no_normal_all_exact));
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < NFLAG_NAMES; i++) {
		uint32_t bit = flag_names[i].bit;
		const char *name = flag_names[i].name;
		bool set = (flags & bit) != 0;

		if (bit == PRIO_FLAG_TICKET_BASED)
			continue; /* not a Slurm flag */
		if (bit == PRIO_FLAG_FAIR_TREE) {
			/* shown only by its absence */
			set = !set;
			name = "NO_FAIR_TREE";
		} else if (bit & PRIO_FLAG_NO_NORMAL_ALL) {
			if (all && bit == PRIO_FLAG_NO_NORMAL_ASSOC) {
				set = true;
				name = "NO_NORMAL_ALL";
			} else if (all) {
				set = false;
			}
		}
		if (set && !flags_append(buf, size, &used, name))
			break;
	}
	return buf;
}

int prio_preempt_mode_parse(const char *s, uint16_t *mode, const char **why)
{
	uint16_t m = 0;
	int exclusive = 0;
	const char *p = s;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if ((n == 3 && !strncasecmp(p, "off", 3)) ||
		    (n == 7 && !strncasecmp(p, "cluster", 7))) {
			exclusive++;
		} else if (n == 6 && !strncasecmp(p, "cancel", 6)) {
			m |= PRIO_PREEMPT_CANCEL;
			exclusive++;
		} else if (n == 7 && !strncasecmp(p, "requeue", 7)) {
			m |= PRIO_PREEMPT_REQUEUE;
			exclusive++;
		} else if ((n == 7 && !strncasecmp(p, "suspend", 7)) ||
			   (n == 2 && !strncasecmp(p, "on", 2))) {
			m |= PRIO_PREEMPT_SUSPEND;
			exclusive++;
		} else if (n == 4 && !strncasecmp(p, "gang", 4)) {
			m |= PRIO_PREEMPT_GANG;
		} else if (n == 6 && !strncasecmp(p, "within", 6)) {
			m |= PRIO_PREEMPT_WITHIN;
		} else if (n == 8 && !strncasecmp(p, "priority", 8)) {
			/* 25.05; older releases refused at link time */
			m |= PRIO_PREEMPT_PRIORITY;
		} else {
			*why = "unknown PreemptMode word (expected off, "
			       "cancel, requeue, suspend, gang, within or "
			       "priority)";
			return -1;
		}
		p = comma ? comma + 1 : NULL;
	}
	if (exclusive > 1) {
		*why = "at most one of off, cancel, requeue and suspend";
		return -1;
	}
	if ((m & PRIO_PREEMPT_GANG) && (m & PRIO_PREEMPT_WITHIN)) {
		*why = "GANG and WITHIN cannot be combined";
		return -1;
	}
	if ((m & PRIO_PREEMPT_GANG) && (m & PRIO_PREEMPT_PRIORITY)) {
		*why = "GANG and PRIORITY cannot be combined";
		return -1;
	}
	*mode = m;
	return 0;
}

const char *prio_preempt_mode_format(uint16_t mode, char *buf, unsigned size)
{
	const uint16_t extra =
	    PRIO_PREEMPT_GANG | PRIO_PREEMPT_WITHIN | PRIO_PREEMPT_PRIORITY;
	const char *base = "OFF";
	size_t used = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (mode & PRIO_PREEMPT_CANCEL)
		base = "CANCEL";
	else if (mode & PRIO_PREEMPT_REQUEUE)
		base = "REQUEUE";
	else if (mode & PRIO_PREEMPT_SUSPEND)
		base = "SUSPEND";
	/* The base mode, then the modifiers; a bare modifier alone. */
	if ((mode & (uint16_t)~extra) || !(mode & extra))
		flags_append(buf, size, &used, base);
	if (mode & PRIO_PREEMPT_GANG)
		flags_append(buf, size, &used, "GANG");
	if (mode & PRIO_PREEMPT_WITHIN)
		flags_append(buf, size, &used, "WITHIN");
	if (mode & PRIO_PREEMPT_PRIORITY)
		flags_append(buf, size, &used, "PRIORITY");
	return buf;
}

int prio_oversubscribe_parse(const char *s, uint16_t *max_share)
{
	char *end;
	long n;

	if (!strcasecmp(s, "NO")) {
		*max_share = 1;
	} else if (!strcasecmp(s, "EXCLUSIVE")) {
		*max_share = 0;
	} else if (!strcasecmp(s, "YES")) {
		*max_share = 4;
	} else if (!strcasecmp(s, "FORCE")) {
		*max_share = 4 | PRIO_SHARED_FORCE;
	} else if (!strncasecmp(s, "YES:", 4)) {
		n = strtol(s + 4, &end, 10);
		if (*end || end == s + 4 || n > 0x7fff)
			return -1;
		*max_share = n <= 1 ? 1 : (uint16_t)n; /* n<=1 means NO */
	} else if (!strncasecmp(s, "FORCE:", 6)) {
		n = strtol(s + 6, &end, 10);
		if (*end || end == s + 6 || n > 0x7fff)
			return -1;
		*max_share =
		    n < 1 ? 1 : (uint16_t)((uint16_t)n | PRIO_SHARED_FORCE);
	} else {
		return -1;
	}
	return 0;
}

/* --- conf.kv ------------------------------------------------------------ */

static uint32_t key_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= (uint32_t)tolower((unsigned char)s[i]);
		h *= 16777619u;
	}
	return h;
}

static bool key_eq(const char *a, const char *b, size_t bn)
{
	return strlen(a) == bn && strncasecmp(a, b, bn) == 0;
}

/* Slot of key in the index (its kv entry + 1, or 0 when absent). */
static uint32_t *kv_slot(const struct prio_config *conf, const char *key,
			 size_t n)
{
	uint32_t i;

	if (!conf->kv_index)
		return NULL;
	i = key_hash(key, n) & conf->kv_index_mask;
	for (;;) {
		uint32_t *slot = &conf->kv_index[i];

		if (!*slot || key_eq(conf->kv[*slot - 1].key, key, n))
			return slot;
		i = (i + 1) & conf->kv_index_mask;
	}
}

/* Make room for one more indexed key; the old table stays in the arena
 * (doubling keeps the waste below the final size). */
static int kv_index_grow(struct prio_snapshot *snap)
{
	struct prio_config *conf = &snap->conf;
	uint32_t size = conf->kv_index ? (conf->kv_index_mask + 1) * 2 : 64;
	uint32_t *old = conf->kv_index, old_size = conf->kv_index_mask + 1;

	if ((conf->kv_index_used + 1) * 2 <= old_size && old)
		return PRIO_OK;
	conf->kv_index =
	    prio_arena_alloc(&snap->arena, size * sizeof(uint32_t));
	if (!conf->kv_index) {
		conf->kv_index = old;
		return PRIO_ERR_NOMEM;
	}
	conf->kv_index_mask = size - 1;
	if (old) {
		for (uint32_t i = 0; i < old_size; i++) {
			const struct prio_conf_kv *kv;

			if (!old[i])
				continue;
			kv = &conf->kv[old[i] - 1];
			*kv_slot(conf, kv->key, strlen(kv->key)) = old[i];
		}
	}
	return PRIO_OK;
}

int prio_config_record(struct prio_snapshot *snap, const char *key,
		       size_t key_len, const char *value, size_t value_len,
		       const char *file, unsigned long line, bool replace)
{
	struct prio_config *conf = &snap->conf;
	struct prio_conf_kv *kv;
	uint32_t *slot = NULL;
	const char *v = prio_arena_strndup(&snap->arena, value, value_len);

	/* The caller's file name may not outlive the snapshot (--set). */
	if (file && *file) {
		prio_id id = prio_snapshot_intern(snap, file, strlen(file));

		if (id == PRIO_NO_ID)
			return PRIO_ERR_NOMEM;
		file = prio_snapshot_str(snap, id);
	} else {
		file = "";
	}
	if (!v)
		return PRIO_ERR_NOMEM;
	if (replace) {
		if (kv_index_grow(snap) < 0)
			return PRIO_ERR_NOMEM;
		slot = kv_slot(conf, key, key_len);
		if (*slot) {
			kv = &conf->kv[*slot - 1];
			kv->value = v;
			kv->file = file;
			kv->line = line;
			return PRIO_OK;
		}
	}
	if (conf->kv_count == conf->kv_capacity) {
		uint32_t cap = conf->kv_capacity ? conf->kv_capacity * 2 : 64;
		struct prio_conf_kv *p;

		if (cap < conf->kv_capacity)
			return PRIO_ERR_NOMEM;
		p = realloc(conf->kv, (size_t)cap * sizeof(*p));
		if (!p)
			return PRIO_ERR_NOMEM;
		conf->kv = p;
		conf->kv_capacity = cap;
	}
	kv = &conf->kv[conf->kv_count];
	kv->key = prio_arena_strndup(&snap->arena, key, key_len);
	if (!kv->key)
		return PRIO_ERR_NOMEM;
	kv->value = v;
	kv->file = file;
	kv->line = line;
	conf->kv_count++;
	if (slot) {
		*slot = conf->kv_count;
		conf->kv_index_used++;
	}
	return PRIO_OK;
}

const struct prio_conf_kv *prio_config_find(const struct prio_config *conf,
					    const char *key)
{
	uint32_t *slot = kv_slot(conf, key, strlen(key));

	return slot && *slot ? &conf->kv[*slot - 1] : NULL;
}

/* --- the key table ------------------------------------------------------ */

enum conf_type {
	CT_STR,	     /* const char *, copied */
	CT_LOWER,    /* const char *, lower-cased (ClusterName) */
	CT_U16,	     /* uint16_t, Slurm's uint16 rules */
	CT_U32,	     /* uint32_t */
	CT_BOOL,     /* bool */
	CT_MINS,     /* uint32_t seconds from time_str2mins() x 60 */
	CT_SECS,     /* uint32_t seconds from time_str2secs() */
	CT_FLAGS,    /* PriorityFlags */
	CT_RESET,    /* PriorityUsageResetPeriod */
	CT_PTYPE,    /* PreemptType */
	CT_PMODE,    /* PreemptMode */
	CT_TRESW,    /* PriorityWeightTRES, parsed at link */
	CT_ACCTTRES, /* AccountingStorageTRES */
	CT_LICENSES, /* Licenses */
};

struct conf_key {
	const char *name; /* Slurm's spelling, matched case-insensitively */
	enum conf_type type;
	size_t offset; /* into struct prio_config */
	uint32_t min;  /* smallest valid value (numbers; minutes for CT_MINS) */
};

#define CF(field) offsetof(struct prio_config, field)

/* clang-format off */
static const struct conf_key conf_keys[] = {
	{ "AccountingStorageEnforce", CT_STR, CF(accounting_storage_enforce), 0 },
	{ "AccountingStorageTRES", CT_ACCTTRES, CF(accounting_storage_tres), 0 },
	{ "AccountingStorageType", CT_STR, CF(accounting_storage_type), 0 },
	{ "ClusterName", CT_LOWER, CF(cluster_name), 0 },
	{ "DefMemPerCPU", CT_U32, CF(def_mem_per_cpu), 0 },
	{ "FairShareDampeningFactor", CT_U16, CF(dampening_factor), 1 },
	{ "Licenses", CT_LICENSES, CF(licenses_text), 0 },
	{ "PreemptExemptTime", CT_SECS, CF(preempt_exempt_time), 0 },
	{ "PreemptMode", CT_PMODE, CF(preempt_mode), 0 },
	{ "PreemptType", CT_PTYPE, CF(preempt_type), 0 },
	{ "PriorityCalcPeriod", CT_MINS, CF(calc_period), 1 },
	{ "PriorityDecayHalfLife", CT_MINS, CF(decay_half_life), 0 },
	{ "PriorityFavorSmall", CT_BOOL, CF(favor_small), 0 },
	{ "PriorityFlags", CT_FLAGS, CF(priority_flags), 0 },
	{ "PriorityMaxAge", CT_MINS, CF(max_age), 0 },
	{ "PriorityType", CT_STR, CF(priority_type), 0 },
	{ "PriorityUsageResetPeriod", CT_RESET, CF(reset_period), 0 },
	{ "PriorityWeightAge", CT_U32, CF(weight_age), 0 },
	{ "PriorityWeightAssoc", CT_U32, CF(weight_assoc), 0 },
	{ "PriorityWeightFairShare", CT_U32, CF(weight_fairshare), 0 },
	{ "PriorityWeightJobSize", CT_U32, CF(weight_jobsize), 0 },
	{ "PriorityWeightPartition", CT_U32, CF(weight_partition), 0 },
	{ "PriorityWeightQOS", CT_U32, CF(weight_qos), 0 },
	{ "PriorityWeightTRES", CT_TRESW, CF(weight_tres), 0 },
	{ "PreemptParameters", CT_STR, CF(preempt_parameters), 0 },
	{ "SchedulerParameters", CT_STR, CF(scheduler_parameters), 0 },
	{ "SchedulerTimeSlice", CT_U16, CF(sched_time_slice), 0 },
	{ "SelectType", CT_STR, CF(select_type), 0 },
	{ "SelectTypeParameters", CT_STR, CF(select_type_parameters), 0 },
};
/* clang-format on */

/* Lines that hold a record, not one parameter (slurm-facts §10). */
/* clang-format off */
static const char *const record_keys[] = {
	"NodeName", "PartitionName", "DownNodes", "FrontendName", "NodeSet",
	"SlurmctldHost", "Include",
};
/* clang-format on */

/* Every top-level slurm.conf key some supported release accepts: the union
 * of the option tables of Slurm's read_config.c at 22.05, 23.02, 23.11,
 * 24.05, 24.11, 25.05, 25.11 and 26.05 (names only; keys later removed stay
 * known so older configurations still load).  Slurm refuses a key outside
 * its table, so a typo here must not become a silent default: most of these
 * are only recorded, the model does not need them. */
/* clang-format off */
static const char *const slurm_conf_known[] = {
	"AccountingStorageBackupHost", "AccountingStorageEnforce",
	"AccountingStorageExternalHost", "AccountingStorageHost",
	"AccountingStorageLoc", "AccountingStorageParameters",
	"AccountingStoragePass", "AccountingStoragePort",
	"AccountingStorageTRES", "AccountingStorageType",
	"AccountingStorageUser", "AccountingStoreFlags",
	"AccountingStoreJobComment", "AcctGatherEnergyType",
	"AcctGatherFilesystemType", "AcctGatherInfinibandType",
	"AcctGatherInterconnectType", "AcctGatherNodeFreq",
	"AcctGatherProfileType", "AllowSpecResourcesUsage",
	"AuthAltParameters", "AuthAltTypes", "AuthInfo", "AuthType",
	"BackupAddr", "BackupController", "BatchStartTimeout", "BcastExclude",
	"BcastParameters", "BurstBufferParameters", "BurstBufferType",
	"CertgenParameters", "CertgenType", "CertmgrParameters", "CertmgrType",
	"CliFilterParameters", "CliFilterPlugins", "ClusterName",
	"CommunicationParameters", "CompleteWait", "ControlAddr",
	"ControlMachine", "CoreSpecPlugin", "CpuFreqDef", "CpuFreqGovernors",
	"CredType", "CryptoType", "DataParserParameters", "DebugFlags",
	"DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU", "DefMemPerNode",
	"DependencyParameters", "DisableRootJobs", "DownNodes", "EioTimeout",
	"EnforcePartLimits", "Epilog", "EpilogMsgTime", "EpilogSlurmctld",
	"EpilogTimeout", "ExtSensorsFreq", "ExtSensorsType",
	"FairShareDampeningFactor", "FastSchedule", "FederationParameters",
	"FirstJobId", "FrontendName", "GetEnvTimeout", "GpuFreqDef",
	"GresTypes", "GroupUpdateForce", "GroupUpdateTime", "HashPlugin",
	"HealthCheckInterval", "HealthCheckNodeState", "HealthCheckProgram",
	"HealthCheckTimeout", "HttpParserType", "InactiveLimit",
	"InteractiveStepOptions", "JobAcctGatherFrequency",
	"JobAcctGatherParams", "JobAcctGatherType", "JobCompHost",
	"JobCompLoc", "JobCompParams", "JobCompPass", "JobCompPassScript",
	"JobCompPort", "JobCompType", "JobCompUser", "JobContainerType",
	"JobCredentialPrivateKey", "JobCredentialPublicCertificate",
	"JobFileAppend", "JobRequeue", "JobSubmitPlugins", "KeepAliveTime",
	"KillOnBadExit", "KillWait", "LaunchParameters", "LaunchType",
	"LicenseParameters", "Licenses", "LogTimeFormat", "MailDomain",
	"MailProg", "MaxArraySize", "MaxBatchRequeue", "MaxDBDMsgs",
	"MaxJobCount", "MaxJobId", "MaxMemPerCPU", "MaxMemPerNode",
	"MaxNodeCount", "MaxStepCount", "MaxTasksPerNode", "MCSParameters",
	"MCSPlugin", "MessageTimeout", "MetricsAuthUsers", "MetricsParameters",
	"MetricsType", "MinJobAge", "MpiDefault", "MpiParams", "NamespaceType",
	"NodeFeaturesPlugins", "NodeName", "NodeSet", "OverTimeLimit",
	"PartitionName", "PluginDir", "PlugStackConfig", "PowerAction",
	"PowerParameters", "PowerPlugin", "PreemptExemptTime", "PreemptMode",
	"PreemptParameters", "PreemptType", "PrEpParameters", "PrEpPlugins",
	"PriorityCalcPeriod", "PriorityDecayHalfLife", "PriorityFavorSmall",
	"PriorityFlags", "PriorityMaxAge", "PriorityParameters",
	"PrioritySiteFactorParameters", "PrioritySiteFactorPlugin",
	"PriorityType", "PriorityUsageResetPeriod", "PriorityWeightAge",
	"PriorityWeightAssoc", "PriorityWeightFairshare",
	"PriorityWeightJobSize", "PriorityWeightPartition",
	"PriorityWeightQOS", "PriorityWeightTRES", "PrivateData",
	"ProctrackType", "Prolog", "PrologEpilogTimeout", "PrologFlags",
	"PrologSlurmctld", "PrologTimeout", "PropagatePrioProcess",
	"PropagateResourceLimits", "PropagateResourceLimitsExcept",
	"RebootProgram", "ReconfigFlags", "RequeueExit", "RequeueExitHold",
	"ResumeFailProgram", "ResumeProgram", "ResumeRate", "ResumeTimeout",
	"ResvEpilog", "ResvOverRun", "ResvProlog", "ReturnToService",
	"RoutePlugin", "SallocDefaultCommand", "SbcastParameters",
	"SchedulerAuth", "SchedulerParameters", "SchedulerTimeSlice",
	"SchedulerType", "ScronParameters", "SelectType",
	"SelectTypeParameters", "SlurmctldAddr", "SlurmctldDebug",
	"SlurmctldHost", "SlurmctldHttpAuthParameters", "SlurmctldLogFile",
	"SlurmctldParameters", "SlurmctldPidFile", "SlurmctldPlugstack",
	"SlurmctldPort", "SlurmctldPrimaryOffProg", "SlurmctldPrimaryOnProg",
	"SlurmctldSyslogDebug", "SlurmctldTimeout", "SlurmdDebug",
	"SlurmdHttpAuthParameters", "SlurmdLogFile", "SlurmdParameters",
	"SlurmdPidFile", "SlurmdPort", "SlurmdSpoolDir", "SlurmdSyslogDebug",
	"SlurmdTimeout", "SlurmdUser", "SlurmSchedLogFile",
	"SlurmSchedLogLevel", "SlurmUser", "SrunEpilog", "SrunPortRange",
	"SrunProlog", "StateSaveLocation", "SuspendExcNodes",
	"SuspendExcParts", "SuspendExcStates", "SuspendProgram", "SuspendRate",
	"SuspendTime", "SuspendTimeout", "SwitchParameters", "SwitchType",
	"TaskEpilog", "TaskPlugin", "TaskPluginParam", "TaskProlog",
	"TCPTimeout", "TLSParameters", "TLSType", "TmpFS", "TopologyParam",
	"TopologyPlugin", "TrackWCKey", "TreeWidth", "UnkillableStepProgram",
	"UnkillableStepTimeout", "UrlParserType", "UsePAM", "VSizeFactor",
	"WaitTime", "X11Parameters",
};
/* clang-format on */

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

bool prio_config_key_known(const char *key, size_t key_len)
{
	for (size_t i = 0; i < COUNT_OF(slurm_conf_known); i++)
		if (key_eq(slurm_conf_known[i], key, key_len))
			return true;
	return false;
}

int prio_config_key_check(const char *key, size_t key_len, const char *file,
			  unsigned long line, struct prio_error *err)
{
	char name[64];
	const char *near;

	if (prio_config_key_known(key, key_len))
		return PRIO_OK;
	near = prio_closest_word(key, key_len, slurm_conf_known,
				 COUNT_OF(slurm_conf_known));
	snprintf(name, sizeof(name), "%.*s",
		 (int)(key_len < sizeof(name) ? key_len : sizeof(name) - 1), key);
	/* PRIO_ERR_USAGE: `scontrol show config` readers keep such keys (a
	 * later release may print new ones) */
	return prio_error_set(err, PRIO_ERR_USAGE, file ? file : "", line, name,
			      "unknown key%s%s%s", near ? " (did you mean " : "",
			      near ? near : "", near ? "?)" : "");
}

/* Optimal string alignment distance (edits and swaps of neighbours, which
 * catch "Weihgt"), case-insensitive; limit + 1 once it exceeds limit. */
#define CLOSEST_MAX 64
static unsigned word_distance(const char *a, size_t an, const char *b,
			      unsigned limit)
{
	unsigned rows[3][CLOSEST_MAX + 1];
	size_t bn = strlen(b);

	if (bn > CLOSEST_MAX || an > CLOSEST_MAX)
		return limit + 1;
	for (size_t j = 0; j <= bn; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= an; i++) {
		unsigned *cur = rows[i % 3], *prev = rows[(i - 1) % 3],
			 *prev2 = rows[(i + 1) % 3], best;

		cur[0] = (unsigned)i;
		best = cur[0];
		for (size_t j = 1; j <= bn; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			unsigned d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > limit)
			return limit + 1;
	}
	return rows[an % 3][bn];
}

const char *prio_closest_word(const char *s, size_t n,
			      const char *const *words, size_t count)
{
	/* a third of a short word is a different word, not a typo */
	unsigned limit = n < 5 ? 1 : n < 12 ? 2 : 3;
	const char *best = NULL;

	for (size_t i = 0; i < count; i++) {
		unsigned d = word_distance(s, n, words[i], limit);

		if (d <= limit) {
			best = words[i];
			limit = d - (d > 0);
			if (d == 0)
				break;
		}
	}
	return best;
}

static const struct conf_key *conf_key_find(const char *key, size_t n)
{
	for (size_t i = 0; i < sizeof(conf_keys) / sizeof(conf_keys[0]); i++)
		if (key_eq(conf_keys[i].name, key, n))
			return &conf_keys[i];
	return NULL;
}

/* Echo of an offending value, cut to 40 bytes. */
#define ECHO_MAX 40
#define ECHO(v, n)                                                             \
	(int)((n) > ECHO_MAX ? ECHO_MAX : (n)), (v),                           \
	    ((n) > ECHO_MAX ? "..." : "")

static int bad_value(struct prio_error *err, const char *file,
		     unsigned long line, const char *key, const char *what,
		     const char *v, size_t n)
{
	return prio_error_set(err, PRIO_ERR_PARSE, file, line, key,
			      "expected %s, got \"%.*s%s\"", what, ECHO(v, n));
}

static int parse_reset(const char *v, size_t n, enum prio_reset_period *out)
{
	static const char *const words[] = {
	    "NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (prio_word_eq(v, n, words[i])) {
			*out = (enum prio_reset_period)i;
			return 0;
		}
	}
	return -1;
}

static int parse_preempt_type(const char *v, size_t n,
			      enum prio_preempt_type *out)
{
	if (prio_word_eq(v, n, "preempt/none"))
		*out = PRIO_PREEMPT_TYPE_NONE;
	else if (prio_word_eq(v, n, "preempt/partition_prio"))
		*out = PRIO_PREEMPT_TYPE_PARTITION_PRIO;
	else if (prio_word_eq(v, n, "preempt/qos"))
		*out = PRIO_PREEMPT_TYPE_QOS;
	else
		return -1;
	return 0;
}

/* Licenses=name[:count],... (also name=count); count defaults to 1. */
static int parse_licenses(struct prio_snapshot *snap, const char *v, size_t n,
			  struct prio_conf_license **out, uint32_t *count)
{
	uint32_t items = 1, k = 0;
	size_t i = 0;
	struct prio_conf_license *l;

	for (size_t j = 0; j < n; j++)
		if (v[j] == ',')
			items++;
	l = prio_arena_alloc(&snap->arena, items * sizeof(*l));
	if (!l)
		return PRIO_ERR_NOMEM;
	while (i < n) {
		const char *comma = memchr(v + i, ',', n - i);
		size_t len = comma ? (size_t)(comma - (v + i)) : n - i;
		const char *item = v + i, *sep = NULL;
		size_t name_len = len;
		uint32_t c = 1;

		for (size_t j = 0; j < len; j++) {
			if (item[j] == ':' || item[j] == '=') {
				sep = item + j;
				break;
			}
		}
		if (sep) {
			name_len = (size_t)(sep - item);
			if (prio_parse_uint32(sep + 1, len - name_len - 1, &c) <
			    0)
				return -1;
		}
		if (name_len == 0)
			return -1;
		l[k].name = prio_arena_strndup(&snap->arena, item, name_len);
		if (!l[k].name)
			return PRIO_ERR_NOMEM;
		l[k].count = c;
		k++;
		i += len + 1;
	}
	*out = l;
	*count = k;
	return 0;
}

/* AccountingStorageTRES: comma list of TRES names, each added to the
 * table and marked configured (prio_config_link() recomputes the marks
 * from the final value). */
static int apply_acct_tres(struct prio_snapshot *snap, const char *v, size_t n)
{
	size_t i = 0;

	while (i < n) {
		const char *comma = memchr(v + i, ',', n - i);
		size_t len = comma ? (size_t)(comma - (v + i)) : n - i;
		int id;

		if (len == 0)
			return -1;
		id = prio_tres_add(&snap->tres, v + i, len);
		if (id < 0)
			return -1;
		snap->tres.configured[id] = true;
		i += len + 1;
	}
	return 0;
}

static void restore_default(struct prio_config *conf, const struct conf_key *k)
{
	struct prio_config d;
	char *dst = (char *)conf + k->offset;
	const char *src = (const char *)&d + k->offset;

	prio_config_defaults(&d);
	switch (k->type) {
	case CT_STR:
	case CT_LOWER:
	case CT_ACCTTRES:
		*(const char **)(void *)dst =
		    *(const char *const *)(const void *)src;
		break;
	case CT_U16:
	case CT_PMODE:
		memcpy(dst, src, sizeof(uint16_t));
		break;
	case CT_U32:
	case CT_MINS:
	case CT_SECS:
		memcpy(dst, src, sizeof(uint32_t));
		break;
	case CT_BOOL:
		memcpy(dst, src, sizeof(bool));
		break;
	case CT_FLAGS:
		conf->priority_flags = d.priority_flags;
		conf->priority_flags_text = NULL;
		break;
	case CT_RESET:
		conf->reset_period = d.reset_period;
		break;
	case CT_PTYPE:
		conf->preempt_type = d.preempt_type;
		conf->preempt_type_text = NULL;
		break;
	case CT_TRESW:
		memset(&conf->weight_tres, 0, sizeof(conf->weight_tres));
		break;
	case CT_LICENSES:
		conf->licenses_text = NULL;
		conf->licenses = NULL;
		conf->license_count = 0;
		break;
	}
}

static int apply_key(struct prio_snapshot *snap, const struct conf_key *k,
		     const char *v, size_t n, const char *file,
		     unsigned long line, struct prio_error *err)
{
	struct prio_config *conf = &snap->conf;
	char *dst = (char *)conf + k->offset;
	const char *why = NULL;
	char *copy;

	switch (k->type) {
	case CT_STR:
	case CT_LOWER:
		copy = prio_arena_strndup(&snap->arena, v, n);
		if (!copy)
			goto nomem;
		if (k->type == CT_LOWER)
			for (char *c = copy; *c; c++)
				*c = (char)tolower((unsigned char)*c);
		memcpy(dst, &copy, sizeof(copy));
		return PRIO_OK;
	case CT_U16: {
		uint16_t x;

		if (prio_parse_uint16(v, n, &x) < 0)
			return bad_value(err, file, line, k->name,
					 "an unsigned integer", v, n);
		if (x < k->min)
			return prio_error_set(err, PRIO_ERR_PARSE, file, line,
					      k->name,
					      "must be at least %u, got %u",
					      (unsigned)k->min, (unsigned)x);
		memcpy(dst, &x, sizeof(x));
		return PRIO_OK;
	}
	case CT_U32: {
		uint32_t x;

		if (prio_parse_uint32(v, n, &x) < 0)
			return bad_value(err, file, line, k->name,
					 "an unsigned integer", v, n);
		memcpy(dst, &x, sizeof(x));
		return PRIO_OK;
	}
	case CT_BOOL: {
		bool x;

		if (prio_parse_bool(v, n, &x) < 0)
			return bad_value(err, file, line, k->name, "yes or no",
					 v, n);
		memcpy(dst, &x, sizeof(x));
		return PRIO_OK;
	}
	case CT_MINS: {
		uint32_t mins, secs;

		if (prio_time_str2mins(v, n, &mins) < 0)
			return bad_value(err, file, line, k->name,
					 "a time (minutes, MM:SS, HH:MM:SS, "
					 "D-HH:MM:SS or UNLIMITED)",
					 v, n);
		if (mins < k->min)
			return prio_error_set(
			    err, PRIO_ERR_PARSE, file, line, k->name,
			    "must be at least %u minute%s, got \"%.*s%s\"",
			    (unsigned)k->min, k->min == 1 ? "" : "s",
			    ECHO(v, n));
		/* Slurm multiplies in 32 bits: INFINITE minutes wrap to a
		 * huge number of seconds (slurm-facts §1.0). */
		secs = (uint32_t)((uint64_t)mins * 60u);
		memcpy(dst, &secs, sizeof(secs));
		return PRIO_OK;
	}
	case CT_SECS: {
		uint32_t secs;

		if (prio_time_str2secs(v, n, &secs) < 0)
			return bad_value(err, file, line, k->name,
					 "a time (minutes, MM:SS, HH:MM:SS, "
					 "D-HH:MM:SS or UNLIMITED)",
					 v, n);
		memcpy(dst, &secs, sizeof(secs));
		return PRIO_OK;
	}
	case CT_FLAGS:
		copy = prio_arena_strndup(&snap->arena, v, n);
		if (!copy)
			goto nomem;
		conf->priority_flags = prio_priority_flags_parse(copy);
		conf->priority_flags_text = copy;
		return PRIO_OK;
	case CT_RESET:
		if (parse_reset(v, n, &conf->reset_period) < 0)
			return bad_value(err, file, line, k->name,
					 "NONE, NOW, DAILY, WEEKLY, MONTHLY, "
					 "QUARTERLY or YEARLY",
					 v, n);
		return PRIO_OK;
	case CT_PTYPE:
		if (parse_preempt_type(v, n, &conf->preempt_type) < 0)
			return bad_value(err, file, line, k->name,
					 "preempt/none, preempt/partition_prio "
					 "or preempt/qos",
					 v, n);
		conf->preempt_type_text =
		    prio_arena_strndup(&snap->arena, v, n);
		if (!conf->preempt_type_text)
			goto nomem;
		return PRIO_OK;
	case CT_PMODE: {
		uint16_t mode;

		copy = prio_arena_strndup(&snap->arena, v, n);
		if (!copy)
			goto nomem;
		if (prio_preempt_mode_parse(copy, &mode, &why) < 0)
			return prio_error_set(err, PRIO_ERR_PARSE, file, line,
					      k->name, "%s, got \"%.*s%s\"",
					      why, ECHO(v, n));
		/* read_config.c refuses a global SUSPEND without GANG. */
		if ((mode & PRIO_PREEMPT_SUSPEND) &&
		    !(mode & PRIO_PREEMPT_GANG))
			return prio_error_set(
			    err, PRIO_ERR_PARSE, file, line, k->name,
			    "PreemptMode=SUSPEND requires GANG too");
		conf->preempt_mode = mode;
		return PRIO_OK;
	}
	case CT_TRESW:
		memset(&conf->weight_tres, 0, sizeof(conf->weight_tres));
		conf->weight_tres.text = prio_arena_strndup(&snap->arena, v, n);
		if (!conf->weight_tres.text)
			goto nomem;
		return PRIO_OK;
	case CT_ACCTTRES:
		if (apply_acct_tres(snap, v, n) < 0)
			return bad_value(err, file, line, k->name,
					 "a comma list of TRES names", v, n);
		conf->accounting_storage_tres =
		    prio_arena_strndup(&snap->arena, v, n);
		if (!conf->accounting_storage_tres)
			goto nomem;
		return PRIO_OK;
	case CT_LICENSES: {
		struct prio_conf_license *l;
		uint32_t count;
		int rc = parse_licenses(snap, v, n, &l, &count);

		if (rc == PRIO_ERR_NOMEM)
			goto nomem;
		if (rc < 0)
			return bad_value(err, file, line, k->name,
					 "name[:count] items", v, n);
		conf->licenses = l;
		conf->license_count = count;
		conf->licenses_text = prio_arena_strndup(&snap->arena, v, n);
		if (!conf->licenses_text)
			goto nomem;
		return PRIO_OK;
	}
	}
	return PRIO_OK;
nomem:
	return prio_error_set(err, PRIO_ERR_NOMEM, file, line, k->name,
			      "out of memory");
}

int prio_config_set(struct prio_snapshot *snap, const char *key, size_t key_len,
		    const char *value, size_t value_len, const char *file,
		    unsigned long line, struct prio_error *err)
{
	const struct conf_key *k;
	int rc;

	if (!file)
		file = "";
	for (size_t i = 0; i < sizeof(record_keys) / sizeof(record_keys[0]);
	     i++)
		if (key_eq(record_keys[i], key, key_len))
			return prio_error_set(
			    err, PRIO_ERR_USAGE, file, line, record_keys[i],
			    "%s is a record line, not a parameter",
			    record_keys[i]);
	if (key_len == 0)
		return prio_error_set(err, PRIO_ERR_PARSE, file, line, "",
				      "empty key");
	k = conf_key_find(key, key_len);
	if (!k && (rc = prio_config_key_check(key, key_len, file, line, err)) < 0)
		return rc;
	if (k) {
		if (value_len == 0)
			restore_default(&snap->conf, k);
		else if ((rc = apply_key(snap, k, value, value_len, file, line,
					 err)) < 0)
			return rc;
	}
	if (prio_config_record(snap, key, key_len, value, value_len, file, line,
			       true) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, file, line, "",
				      "out of memory");
	snap->have_config = true;
	return PRIO_OK;
}

/* --- linking ------------------------------------------------------------ */

/* Where a top-level key was set, for errors found at link time. */
static void key_location(const struct prio_snapshot *snap, const char *key,
			 const char **file, unsigned long *line)
{
	const struct prio_conf_kv *kv = prio_config_find(&snap->conf, key);

	*file = kv ? kv->file : "";
	*line = kv ? kv->line : 0;
}

/* A link-time problem with one record: an error, or a warning with
 * keep_going (the caller then drops the offending value). */
static int link_error(struct prio_snapshot *snap, struct prio_error *err)
{
	return prio_snapshot_record_error(snap, err);
}

/* The configured TRES are the built-in ones plus AccountingStorageTRES. */
static int mark_configured_tres(struct prio_snapshot *snap,
				struct prio_error *err)
{
	const char *s = snap->conf.accounting_storage_tres;

	for (uint32_t i = PRIO_TRES_BUILTIN_COUNT; i < snap->tres.count; i++)
		snap->tres.configured[i] = false;
	if (s && apply_acct_tres(snap, s, strlen(s)) < 0)
		return prio_error_set(err, PRIO_ERR_LIMIT, "", 0,
				      "AccountingStorageTRES",
				      "too many distinct TRES");
	return PRIO_OK;
}

/* Parse a weights string in place; on error fill err and clear w. */
static int parse_weights(struct prio_snapshot *snap,
			 struct prio_tres_weights *w, const char *file,
			 unsigned long line, const char *field,
			 struct prio_error *err)
{
	char why[256];
	const char *text = w->text;

	if (!text)
		return PRIO_OK;
	if (prio_tres_weights_parse(&snap->arena, &snap->tres, text,
				    strlen(text), w, why, sizeof(why)) < 0) {
		memset(w, 0, sizeof(*w));
		if (!strcmp(why, "out of memory"))
			return prio_error_set(err, PRIO_ERR_NOMEM, file, line,
					      field, "out of memory");
		prio_error_set(err, PRIO_ERR_PARSE, file, line, field, "%s",
			       why);
		return link_error(snap, err);
	}
	return PRIO_OK;
}

/* A number with an optional K/M/G/T/P multiplier (Gres counts). */
static int gres_count(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (n == 0)
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return -1;
	if (i + 1 == n) {
		const char *units = "KMGTP",
			   *u = strchr(units, toupper((unsigned char)s[i]));

		if (!u || !s[i])
			return -1;
		for (long k = 0; k <= u - units; k++) {
			if (v > UINT64_MAX / 1024)
				return -1;
			v *= 1024;
		}
	} else if (i != n) {
		return -1;
	}
	*out = v;
	return 0;
}

/* Add count to the TRES "gres/<name>[:<type>]" when it is configured. */
static void gres_add(const struct prio_snapshot *snap,
		     struct prio_tres_count *items, uint32_t *k,
		     const char *name, size_t name_len, const char *type,
		     size_t type_len, uint64_t count)
{
	char buf[256];
	int n, id;

	if (type)
		n = snprintf(buf, sizeof(buf), "gres/%.*s:%.*s", (int)name_len,
			     name, (int)type_len, type);
	else
		n = snprintf(buf, sizeof(buf), "gres/%.*s", (int)name_len,
			     name);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	id = prio_tres_find(&snap->tres, buf, (size_t)n);
	if (id < 0 || !snap->tres.configured[id])
		return;
	for (uint32_t i = 0; i < *k; i++) {
		if (items[i].tres == (uint32_t)id) {
			items[i].count += count;
			return;
		}
	}
	items[*k].tres = (uint32_t)id;
	items[*k].count = count;
	(*k)++;
}

/* Node Gres= ("gpu:tesla:2(S:0-1),mps:100") as counts of configured gres
 * TRES: each item is name[:type][:count] (count 1 when absent, K/M/G...
 * multipliers allowed); "no_consume" is a flag, not a type. */
static int node_gres_tres(struct prio_snapshot *snap, struct prio_node *node)
{
	const char *s = node->gres;
	size_t n, i = 0, items = 1;
	uint32_t k = 0;
	struct prio_tres_count *out;

	memset(&node->gres_tres, 0, sizeof(node->gres_tres));
	if (!s || !*s)
		return PRIO_OK;
	n = strlen(s);
	for (size_t j = 0; j < n; j++)
		if (s[j] == ',')
			items++;
	out = prio_arena_alloc(&snap->arena, 2 * items * sizeof(*out));
	if (!out)
		return PRIO_ERR_NOMEM;
	while (i < n) {
		size_t start = i, end, parts = 0;
		int depth = 0;
		const char *part[8];
		size_t plen[8];
		uint64_t count = 1;
		const char *type = NULL;
		size_t type_len = 0;

		for (; i < n; i++) {
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && depth)
				depth--;
			else if (s[i] == ',' && !depth)
				break;
		}
		end = i++;
		/* Drop a "(S:0-1)" socket binding. */
		for (size_t j = start; j < end; j++) {
			if (s[j] == '(') {
				end = j;
				break;
			}
		}
		for (size_t j = start; j <= end && parts < 8;) {
			const char *colon = memchr(s + j, ':', end - j);
			size_t len =
			    colon ? (size_t)(colon - (s + j)) : end - j;

			part[parts] = s + j;
			plen[parts++] = len;
			j += len + 1;
			if (!colon)
				break;
		}
		if (parts == 0 || plen[0] == 0)
			continue;
		if (parts > 1 &&
		    gres_count(part[parts - 1], plen[parts - 1], &count) == 0)
			parts--;
		else
			count = 1;
		for (size_t p = 1; p < parts; p++) {
			if (prio_word_eq(part[p], plen[p], "no_consume"))
				continue;
			if (!type) {
				type = part[p];
				type_len = plen[p];
			}
		}
		gres_add(snap, out, &k, part[0], plen[0], NULL, 0, count);
		if (type)
			gres_add(snap, out, &k, part[0], plen[0], type,
				 type_len, count);
	}
	node->gres_tres.items = out;
	node->gres_tres.count = k;
	return PRIO_OK;
}

/* Scratch memory of one linking pass. */
struct link_scratch {
	uint32_t *mark;	 /* node -> partition index + 1 that listed it */
	uint32_t *nodes; /* node indices of the partition being linked */
	/* interned name -> NodeSet (NULL when there are none) */
	const struct prio_conf_nodeset **set_by_id;
	uint32_t set_ids;
};

static bool has_feature(const char *features, const char *want)
{
	size_t n = strlen(want);

	for (const char *s = features; s && *s;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		if (len == n && !memcmp(s, want, n))
			return true;
		s = comma ? comma + 1 : NULL;
	}
	return false;
}

static void add_node(struct prio_partition *p, struct link_scratch *x,
		     uint32_t part_index, uint32_t ni)
{
	if (x->mark[ni] == part_index + 1)
		return; /* listed twice: Slurm keeps a node bitmap */
	x->mark[ni] = part_index + 1;
	x->nodes[p->node_count++] = ni;
}

/* Add the nodes of a hostlist; names that are not nodes may be NodeSets
 * (one level: a NodeSet's own list names nodes).  *unknown gets the first
 * name that is neither. */
static int add_hostlist(struct prio_snapshot *snap, struct prio_partition *p,
			struct link_scratch *x, uint32_t part_index,
			const char *list, bool sets, const char **unknown,
			const char **why)
{
	struct prio_hostlist hl;

	if (prio_hostlist_expand(&snap->arena, list, strlen(list), &hl, why) <
	    0)
		return PRIO_ERR_PARSE;
	for (size_t k = 0; k < hl.count; k++) {
		prio_id id = prio_intern_find(&snap->strings, hl.names[k],
					      strlen(hl.names[k]));
		struct prio_node *node = prio_snapshot_node(snap, id);
		const struct prio_conf_nodeset *set = NULL;

		if (node) {
			add_node(p, x, part_index,
				 (uint32_t)(node - snap->nodes));
			continue;
		}
		if (sets && x->set_by_id && id != PRIO_NO_ID && id < x->set_ids)
			set = x->set_by_id[id];
		if (!set) {
			if (!*unknown)
				*unknown = hl.names[k];
			continue;
		}
		if (set->feature) {
			for (uint32_t i = 0; i < snap->node_count; i++)
				if (has_feature(snap->nodes[i].features,
						set->feature))
					add_node(p, x, part_index, i);
		}
		if (set->nodes) {
			int rc = add_hostlist(snap, p, x, part_index,
					      set->nodes, false, unknown, why);

			if (rc < 0)
				return rc;
		}
	}
	return PRIO_OK;
}

/* Resolve p->nodes_text to node indices (each node once). */
static int partition_nodes(struct prio_snapshot *snap, struct prio_partition *p,
			   uint32_t part_index, struct link_scratch *x,
			   struct prio_error *err)
{
	const char *why = NULL, *unknown = NULL;
	int rc;

	p->node_count = 0;
	if (prio_word_eq(p->nodes_text, strlen(p->nodes_text), "ALL")) {
		for (uint32_t k = 0; k < snap->node_count; k++)
			x->nodes[k] = k;
		p->node_count = snap->node_count;
	} else if (add_hostlist(snap, p, x, part_index, p->nodes_text, true,
				&unknown, &why) < 0) {
		p->node_count = 0;
		prio_error_set(err, PRIO_ERR_PARSE, p->file, p->line, "Nodes",
			       "invalid hostlist \"%.*s%s\": %s",
			       ECHO(p->nodes_text, strlen(p->nodes_text)), why);
		return link_error(snap, err);
	}
	p->nodes = prio_arena_alloc(&snap->arena, ((size_t)p->node_count + 1) *
						      sizeof(uint32_t));
	if (!p->nodes)
		return prio_error_set(err, PRIO_ERR_NOMEM, p->file, p->line,
				      "Nodes", "out of memory");
	memcpy(p->nodes, x->nodes, (size_t)p->node_count * sizeof(uint32_t));
	if (unknown) {
		prio_error_set(err, PRIO_ERR_PARSE, p->file, p->line, "Nodes",
			       "partition %s names unknown node %.*s%s",
			       prio_snapshot_str(snap, p->name),
			       ECHO(unknown, strlen(unknown)));
		if ((rc = link_error(snap, err)) < 0)
			return rc;
	}
	return PRIO_OK;
}

/* Partition TRES totals and billing (slurm-facts §1.2, §5). */
static int partition_totals(struct prio_snapshot *snap,
			    struct prio_partition *p, bool from_nodes,
			    struct prio_error *err)
{
	uint32_t count = snap->tres.count;
	uint64_t *t =
	    prio_arena_alloc(&snap->arena, (size_t)count * sizeof(*t));
	bool billing_known = false;

	if (!t)
		return prio_error_set(err, PRIO_ERR_NOMEM, p->file, p->line, "",
				      "out of memory");
	p->tres_total = t;
	p->tres_count = count;
	if (from_nodes) {
		uint64_t cpus = 0, mem = 0;

		for (uint32_t k = 0; k < p->node_count; k++) {
			const struct prio_node *node =
			    &snap->nodes[p->nodes[k]];

			cpus += node->cpus_efctv;
			mem += node->real_memory;
			for (uint32_t g = 0; g < node->gres_tres.count; g++)
				t[node->gres_tres.items[g].tres] +=
				    node->gres_tres.items[g].count;
		}
		p->total_cpus = cpus > UINT32_MAX ? UINT32_MAX : (uint32_t)cpus;
		p->total_nodes = p->node_count;
		t[PRIO_TRES_CPU] = cpus;
		t[PRIO_TRES_MEM] = mem;
		t[PRIO_TRES_NODE] = p->node_count;
	} else if (p->tres_printed.count) {
		/* As scontrol printed them, billing included. */
		for (uint32_t i = 0; i < p->tres_printed.count; i++) {
			uint32_t id = p->tres_printed.items[i].tres;

			if (id < count && snap->tres.configured[id]) {
				t[id] = p->tres_printed.items[i].count;
				billing_known |= id == PRIO_TRES_BILLING;
			}
		}
	} else {
		t[PRIO_TRES_CPU] = p->total_cpus;
		t[PRIO_TRES_NODE] = p->total_nodes;
	}
	/* Licenses (and burst buffers, which we do not know) count
	 * cluster-wide. */
	for (uint32_t i = 0; i < snap->conf.license_count; i++) {
		char buf[256];
		int n = snprintf(buf, sizeof(buf), "license/%s",
				 snap->conf.licenses[i].name);
		int id = n > 0 && (size_t)n < sizeof(buf)
			     ? prio_tres_find(&snap->tres, buf, (size_t)n)
			     : -1;

		if (id >= 0 && snap->tres.configured[id])
			t[id] = snap->conf.licenses[i].count;
	}
	for (uint32_t i = PRIO_TRES_BUILTIN_COUNT; i < count; i++)
		if (!snap->tres.configured[i])
			t[i] = 0;
	if (!billing_known) {
		t[PRIO_TRES_BILLING] = prio_billing_truncate(prio_billing_counts(
		    &snap->tres, t, count, &p->billing_weights,
		    prio_billing_rule_of(&snap->conf)));
	}
	return PRIO_OK;
}

/* --- what a release has ------------------------------------------------ */

/* A key's value is refused for the snapshot's release. */
static int release_refuse(struct prio_snapshot *snap, const char *file,
			  unsigned long line, const char *field,
			  struct prio_error *err, const char *what,
			  const char *since)
{
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);

	prio_error_set(err, PRIO_ERR_PARSE, file, line, field,
		       "%s is new in Slurm %s; the snapshot is Slurm %s "
		       "(--slurm-version to say otherwise)",
		       what, since, rel->name);
	return link_error(snap, err);
}

/* The words of PreemptParameters (23.02, suspend_grace_time 23.11) and
 * the older SchedulerParameters=preempt_* spelling, merged the way
 * select_cons_tres.c and preempt.c read them: a boolean is on when either
 * spelling has it, reorder_count= comes from PreemptParameters first.
 * Slurm finds the words by substring and ignores the rest; an unknown
 * word here is refused instead, so that a typo does not silently leave
 * the default in force. */
static int preempt_params_link(struct prio_snapshot *snap,
			       struct prio_error *err)
{
	struct prio_config *c = &snap->conf;
	struct prio_preempt_params *pp = &c->preempt;
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);
	const char *sp = c->scheduler_parameters, *hit;
	const char *v = c->preempt_parameters;
	const char *file;
	unsigned long line;
	bool have_reorder = false;
	long reorder = 1;

	memset(pp, 0, sizeof(*pp));
	pp->min_exempt_priority = PRIO_NO_VAL;
	pp->suspend_grace_time = 2;
	key_location(snap, "PreemptParameters", &file, &line);
	int rc;

	/* With --keep-going a refused word is left out, as if unset. */
	if (v && *v && !rel->preempt_parameters) {
		if ((rc = release_refuse(snap, file, line, "PreemptParameters",
					 err, "PreemptParameters", "23.02")) < 0)
			return rc;
		v = NULL;
	}
	while (v && *v) {
		const char *comma = strchr(v, ',');
		size_t n = comma ? (size_t)(comma - v) : strlen(v);
		const char *eq = memchr(v, '=', n);
		size_t wn = eq ? (size_t)(eq - v) : n;
		char num[32];
		char *end;
		unsigned long long x = 0;
		bool has_num = false;

		if (eq) {
			size_t vn = n - wn - 1;

			if (vn == 0 || vn >= sizeof(num))
				goto bad_number;
			memcpy(num, eq + 1, vn);
			num[vn] = '\0';
			x = strtoull(num, &end, 10);
			if (*end || num[0] == '-' || x > UINT32_MAX)
				goto bad_number;
			has_num = true;
		}
#define WORD(w) (wn == sizeof(w) - 1 && !strncasecmp(v, w, wn))
		if (WORD("strict_order") && !has_num) {
			pp->strict_order = true;
		} else if (WORD("youngest_first") && !has_num) {
			pp->youngest_first = true;
		} else if (WORD("send_user_signal") && !has_num) {
			pp->send_user_signal = true;
		} else if (WORD("reclaim_licenses") && !has_num) {
			pp->reclaim_licenses = true;
		} else if (WORD("reorder_count") && has_num) {
			if (!have_reorder)
				reorder = (long)x;
			have_reorder = true;
		} else if (WORD("min_exempt_priority") && has_num) {
			pp->min_exempt_priority = (uint32_t)x;
		} else if (WORD("suspend_grace_time") && has_num) {
			if (rel->suspend_grace_time)
				pp->suspend_grace_time = (uint32_t)x;
			else if ((rc = release_refuse(
				      snap, file, line, "PreemptParameters",
				      err, "suspend_grace_time", "23.11")) < 0)
				return rc;
		} else if (n) {
			prio_error_set(err, PRIO_ERR_PARSE, file, line,
				       "PreemptParameters",
				       "unknown word \"%.*s\" (known: "
				       "min_exempt_priority=N, "
				       "reclaim_licenses, reorder_count=N, "
				       "send_user_signal, strict_order, "
				       "%syoungest_first)",
				       (int)n, v,
				       rel->suspend_grace_time
					   ? "suspend_grace_time=N, "
					   : "");
			if ((rc = link_error(snap, err)) < 0)
				return rc;
		}
#undef WORD
		v = comma ? comma + 1 : NULL;
		continue;
	bad_number:
		prio_error_set(err, PRIO_ERR_PARSE, file, line,
			       "PreemptParameters",
			       "\"%.*s\": expected word=N with N a number",
			       (int)n, v);
		if ((rc = link_error(snap, err)) < 0)
			return rc;
		v = comma ? comma + 1 : NULL;
	}
	if (sp) {
		pp->strict_order |= strcasestr(sp, "preempt_strict_order") != NULL;
		pp->youngest_first |=
		    strcasestr(sp, "preempt_youngest_first") != NULL;
		pp->send_user_signal |=
		    strcasestr(sp, "preempt_send_user_signal") != NULL;
		hit = strcasestr(sp, "preempt_reorder_count=");
		if (!have_reorder && hit)
			reorder = strtol(hit + 22, NULL, 10);
	}
	/* Slurm logs a negative count and uses the default. */
	pp->reorder_count = reorder < 0 ? 1 : (uint32_t)reorder;
	return PRIO_OK;
}

/* The backfill words of SchedulerParameters (struct prio_sched_params).
 * Slurm finds each word by substring in a list that holds many others
 * (default_queue_depth=, max_rpc_cnt=...), so other words are left alone;
 * a word read here must carry a number in Slurm's range. */
static int sched_params_link(struct prio_snapshot *snap,
			     struct prio_error *err)
{
	static const struct {
		const char *word;
		size_t off;
		unsigned long min, max;
	} nums[] = {
#define SP(f) offsetof(struct prio_sched_params, f)
	    {"bf_window", SP(bf_window), 1, 43200},
	    {"bf_resolution", SP(bf_resolution), 1, 3600},
	    {"bf_max_job_test", SP(bf_max_job_test), 1, 1000000},
	    {"bf_max_job_user", SP(bf_max_job_user), 0, 1000000},
	    {"bf_interval", SP(bf_interval), 1, 10800},
	    {"bf_window_linear", SP(bf_window_linear), 1, 2147483647},
#undef SP
	};
	struct prio_sched_params *sp = &snap->conf.sched;
	const struct prio_conf_kv *type =
	    prio_config_find(&snap->conf, "SchedulerType");
	const char *v = snap->conf.scheduler_parameters;
	const char *file;
	unsigned long line;
	bool have_test = false, old_test = false;
	int rc;

	sp->bf_window = 1440;
	sp->bf_resolution = 60;
	sp->bf_max_job_test = 500;
	sp->bf_max_job_user = 0;
	sp->bf_interval = 30;
	sp->bf_window_linear = 0;
	sp->bf_continue = false;
	sp->backfill = !type || !type->value || !*type->value ||
		       strcasestr(type->value, "backfill") != NULL;
	key_location(snap, "SchedulerParameters", &file, &line);
	while (v && *v) {
		const char *comma = strchr(v, ',');
		size_t n = comma ? (size_t)(comma - v) : strlen(v);
		const char *eq = memchr(v, '=', n);
		size_t wn = eq ? (size_t)(eq - v) : n;

		if (wn == 11 && !strncasecmp(v, "bf_continue", 11))
			sp->bf_continue = true;
		if (wn == 15 && !strncasecmp(v, "bf_max_job_test", 15))
			have_test = true;
		if (wn == 10 && !strncasecmp(v, "max_job_bf", 10))
			old_test = true;
		for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
			char num[32];
			char *end;
			unsigned long long x;
			size_t vn;

			if (wn != strlen(nums[k].word) ||
			    strncasecmp(v, nums[k].word, wn))
				continue;
			vn = eq ? n - wn - 1 : 0;
			if (vn && vn < sizeof(num)) {
				memcpy(num, eq + 1, vn);
				num[vn] = '\0';
				errno = 0;
				x = strtoull(num, &end, 10);
				if (!*end && num[0] != '-' && !errno &&
				    x >= nums[k].min && x <= nums[k].max) {
					*(uint32_t *)((char *)sp +
						      nums[k].off) = (uint32_t)x;
					break;
				}
			}
			prio_error_set(err, PRIO_ERR_PARSE, file, line,
				       "SchedulerParameters",
				       "%s=%.*s%s: expected a number from %lu "
				       "to %lu",
				       nums[k].word, ECHO(eq ? eq + 1 : "", vn),
				       nums[k].min, nums[k].max);
			if ((rc = link_error(snap, err)) < 0)
				return rc;
		}
		v = comma ? comma + 1 : NULL;
	}
	/* slurmctld refuses to start with the old spelling of
	 * bf_max_job_test, unless the new one is there too */
	if (old_test && !have_test) {
		prio_error_set(err, PRIO_ERR_PARSE, file, line,
			       "SchedulerParameters",
			       "max_job_bf: no longer supported (slurmctld "
			       "refuses to start with it): bf_max_job_test is "
			       "its name");
		if ((rc = link_error(snap, err)) < 0)
			return rc;
	}
	return PRIO_OK;
}

/* Sorted; each as Slurm spells it, matched as a whole word (with or without
 * "=value"). */
static const char *const sched_unmodelled[] = {
    "assoc_limit_stop",       "bf_busy_nodes",
    "bf_hetjob_prio",         "bf_ignore_newly_avail_nodes",
    "bf_job_part_count_reserve", "bf_licenses",
    "bf_max_job_array_resv",  "bf_max_job_assoc",
    "bf_max_job_part",        "bf_max_job_start",
    "bf_max_job_user_part",   "bf_min_age_reserve",
    "bf_min_prio_reserve",    "bf_one_resv_per_job",
    "bf_running_job_reserve", "bf_topopt_enable",
    "default_queue_depth",    "pack_serial_at_end",
    "partition_job_depth",    "sched_max_job_start",
    "time_min_as_soft_limit",
};

uint32_t prio_sched_params_unmodelled(const struct prio_config *conf,
				      char *buf, size_t size)
{
	const char *v = conf->scheduler_parameters;
	uint32_t count = 0;
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	while (v && *v) {
		const char *comma = strchr(v, ',');
		size_t n = comma ? (size_t)(comma - v) : strlen(v);
		const char *eq;
		size_t wn;

		while (n && (*v == ' ' || *v == '\t'))
			v++, n--;
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		eq = memchr(v, '=', n);
		wn = eq ? (size_t)(eq - v) : n;
		for (size_t k = 0;
		     k < sizeof(sched_unmodelled) / sizeof(*sched_unmodelled);
		     k++) {
			if (strlen(sched_unmodelled[k]) != wn ||
			    strncasecmp(v, sched_unmodelled[k], wn))
				continue;
			if (size && used < size) {
				int w = snprintf(buf + used, size - used,
						 "%s%.*s", count ? ", " : "",
						 (int)n, v);

				used += w > 0 ? (size_t)w : 0;
				if (used >= size && size > 4)
					memcpy(buf + size - 4, "...", 4);
			}
			count++;
			break;
		}
		v = comma ? comma + 1 : NULL;
	}
	return count;
}

/* Values that a release before 25.05 does not have: PriorityFlags
 * MAX_TRES_GRES and PreemptMode PRIORITY (cluster, partitions). */
static int release_checks(struct prio_snapshot *snap, struct prio_error *err)
{
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);
	struct prio_config *c = &snap->conf;
	const uint16_t prio_bit = PRIO_PREEMPT_PRIORITY;
	const char *file;
	unsigned long line;
	int rc;

	/* Refused; with --keep-going each goes on as the old release reads
	 * it. */
	if ((c->priority_flags & PRIO_FLAG_MAX_TRES_GRES) &&
	    !rel->max_tres_gres) {
		key_location(snap, "PriorityFlags", &file, &line);
		/* Older releases find "MAX_TRES" inside it and bill with
		 * MAX_TRES: refused rather than guessed. */
		if ((rc = release_refuse(snap, file, line, "PriorityFlags",
					 err, "MAX_TRES_GRES", "25.05")) < 0)
			return rc;
		c->priority_flags &= ~PRIO_FLAG_MAX_TRES_GRES;
		c->priority_flags |= PRIO_FLAG_MAX_TRES;
	}
	if (rel->partition_prio_mode_fixed)
		return PRIO_OK;
	/* Older releases refuse the word: without it the mode is what
	 * remains. */
	if (c->preempt_mode & prio_bit) {
		key_location(snap, "PreemptMode", &file, &line);
		if ((rc = release_refuse(snap, file, line, "PreemptMode", err,
					 "PreemptMode PRIORITY", "25.05")) < 0)
			return rc;
		c->preempt_mode &= (uint16_t)~prio_bit;
	}
	for (uint32_t i = 0; i < snap->partition_count; i++) {
		struct prio_partition *p = &snap->partitions[i];

		if (p->preempt_mode == PRIO_NO_VAL16 ||
		    !(p->preempt_mode & prio_bit))
			continue;
		if ((rc = release_refuse(snap, p->file, p->line, "PreemptMode",
					 err, "PreemptMode PRIORITY",
					 "25.05")) < 0)
			return rc;
		p->preempt_mode &= (uint16_t)~prio_bit;
	}
	for (uint32_t i = 0; i < snap->qos_count; i++) {
		struct prio_qos *q = &snap->qos[i];

		if (!(q->preempt_mode & prio_bit))
			continue;
		if ((rc = release_refuse(snap, q->file, q->line, "PreemptMode",
					 err, "PreemptMode PRIORITY",
					 "25.05")) < 0)
			return rc;
		q->preempt_mode &= (uint16_t)~prio_bit;
	}
	return PRIO_OK;
}

/* Slurm's fatal cross-key checks (slurm-facts §1.0, §9). */
static int config_checks(struct prio_snapshot *snap, struct prio_error *err)
{
	const struct prio_config *c = &snap->conf;
	const char *file;
	unsigned long line;
	int rc;

	if (c->priority_type && strstr(c->priority_type, "multifactor") &&
	    c->decay_half_life == 0 && c->reset_period == PRIO_RESET_NONE) {
		key_location(snap, "PriorityDecayHalfLife", &file, &line);
		prio_error_set(err, PRIO_ERR_PARSE, file, line,
			       "PriorityDecayHalfLife",
			       "You have to either have PriorityDecayHalfLife "
			       "!= 0 or PriorityUsageResetPeriod set");
		if ((rc = link_error(snap, err)) < 0)
			return rc;
	}
	{
		uint16_t base =
		    c->preempt_mode &
		    (uint16_t) ~(PRIO_PREEMPT_GANG | PRIO_PREEMPT_WITHIN |
				 PRIO_PREEMPT_PRIORITY);
		bool bad =
		    c->preempt_type == PRIO_PREEMPT_TYPE_NONE
			? (c->preempt_mode & (uint16_t)~PRIO_PREEMPT_GANG) != 0
			: base == 0;

		if (bad) {
			key_location(snap, "PreemptMode", &file, &line);
			if (!*file)
				key_location(snap, "PreemptType", &file, &line);
			prio_error_set(
			    err, PRIO_ERR_PARSE, file, line, "PreemptMode",
			    "PreemptType and PreemptMode values incompatible");
			if ((rc = link_error(snap, err)) < 0)
				return rc;
		}
	}
	return PRIO_OK;
}

int prio_config_link(struct prio_snapshot *snap, struct prio_error *err)
{
	struct link_scratch x = {NULL, NULL, NULL, 0};
	uint32_t last_default = UINT32_MAX;
	int rc = PRIO_OK;

	if ((rc = mark_configured_tres(snap, err)) < 0)
		return rc;
	if (snap->conf.weight_tres.text) {
		const char *file;
		unsigned long line;

		key_location(snap, "PriorityWeightTRES", &file, &line);
		if ((rc = parse_weights(snap, &snap->conf.weight_tres, file,
					line, "PriorityWeightTRES", err)) < 0)
			return rc;
	}
	if (snap->have_config && (rc = config_checks(snap, err)) < 0)
		return rc;
	if ((rc = preempt_params_link(snap, err)) < 0 ||
	    (rc = sched_params_link(snap, err)) < 0 ||
	    (rc = release_checks(snap, err)) < 0)
		return rc;
	for (uint32_t i = 0; i < snap->node_count; i++) {
		struct prio_node *node = &snap->nodes[i];

		if ((rc = parse_weights(snap, &node->tres_weights, node->file,
					node->line, "TRESWeights", err)) < 0)
			return rc;
		if (node_gres_tres(snap, node) < 0)
			return prio_error_set(err, PRIO_ERR_NOMEM, node->file,
					      node->line, "Gres",
					      "out of memory");
	}
	x.mark = calloc(snap->node_count + 1, sizeof(*x.mark));
	x.nodes = calloc(snap->node_count + 1, sizeof(*x.nodes));
	if (!x.mark || !x.nodes) {
		rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				    "out of memory");
		goto out;
	}
	if (snap->conf.nodesets) {
		/* The list holds later NodeSet lines first: filling the map in
		 * list order leaves the first definition of a name. */
		x.set_ids = snap->strings.count;
		x.set_by_id =
		    calloc((size_t)x.set_ids + 1, sizeof(*x.set_by_id));
		if (!x.set_by_id) {
			rc = prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
					    "out of memory");
			goto out;
		}
		for (const struct prio_conf_nodeset *set = snap->conf.nodesets;
		     set; set = set->next) {
			prio_id id = prio_intern_find(&snap->strings, set->name,
						      strlen(set->name));

			if (id != PRIO_NO_ID && id < x.set_ids)
				x.set_by_id[id] = set;
		}
	}
	for (uint32_t i = 0; i < snap->partition_count; i++) {
		struct prio_partition *p = &snap->partitions[i];
		bool from_nodes = false;

		if (p->is_default)
			last_default = i;
		if ((rc = parse_weights(snap, &p->billing_weights, p->file,
					p->line, "TRESBillingWeights", err)) <
		    0)
			goto out;
		if (snap->node_count && p->nodes_text) {
			if (!p->nodes &&
			    (rc = partition_nodes(snap, p, i, &x, err)) < 0)
				goto out;
			from_nodes = true;
		} else if (snap->node_count) {
			/* A partition without nodes. */
			p->node_count = 0;
			from_nodes = true;
		}
		if ((rc = partition_totals(snap, p, from_nodes, err)) <
		    0)
			goto out;
	}
	/* The last Default=YES wins. */
	for (uint32_t i = 0; i < snap->partition_count; i++)
		snap->partitions[i].is_default = i == last_default;
out:
	free(x.mark);
	free(x.nodes);
	free(x.set_by_id);
	return rc < 0 ? rc : PRIO_OK;
}
