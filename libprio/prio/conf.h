/* SPDX-License-Identifier: MIT */
/*
 * The cluster configuration as the controller sees it: priority weights and
 * flags, decay, billing, preemption settings, partitions and nodes.  Filled
 * from slurm.conf (conf_slurmconf.c), `scontrol show config`
 * (conf_scontrol.c) and `scontrol show partition|node` (partnode_scontrol.c);
 * all three produce the same values for the same cluster.  Top-level
 * parameters go through one key table (prio_config_set, also --set);
 * prio_config_link() (from prio_snapshot_finish) resolves partition nodes,
 * computes partition TRES totals and billing, and parses TRES weights.
 */
#ifndef PRIO_CONF_H
#define PRIO_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "intern.h"
#include "tres.h"

/* PriorityFlags bits, Slurm's values (slurm-facts constants). */
#define PRIO_FLAG_ACCRUE_ALWAYS   (1u << 0)
#define PRIO_FLAG_MAX_TRES        (1u << 1)
#define PRIO_FLAG_SIZE_RELATIVE   (1u << 2) /* SMALL_RELATIVE_TO_TIME */
#define PRIO_FLAG_DEPTH_OBLIVIOUS (1u << 3)
#define PRIO_FLAG_CALCULATE_RUNNING (1u << 4)
#define PRIO_FLAG_FAIR_TREE       (1u << 5)
#define PRIO_FLAG_INCR_ONLY       (1u << 6)
#define PRIO_FLAG_NO_NORMAL_ASSOC (1u << 7)
#define PRIO_FLAG_NO_NORMAL_PART  (1u << 8)
#define PRIO_FLAG_NO_NORMAL_QOS   (1u << 9)
#define PRIO_FLAG_NO_NORMAL_TRES  (1u << 10)
/* MAX(node TRES) + node GRES + SUM(global TRES) (25.05) */
#define PRIO_FLAG_MAX_TRES_GRES   (1u << 11)
#define PRIO_FLAG_NO_NORMAL_ALL                                               \
	(PRIO_FLAG_NO_NORMAL_ASSOC | PRIO_FLAG_NO_NORMAL_PART |               \
	 PRIO_FLAG_NO_NORMAL_QOS | PRIO_FLAG_NO_NORMAL_TRES)
/* Not a Slurm bit: the ticket-based algorithm of the seed documents. */
#define PRIO_FLAG_TICKET_BASED    (1u << 16)

/* PreemptMode bits. */
#define PRIO_PREEMPT_OFF     0x0000u
#define PRIO_PREEMPT_SUSPEND 0x0001u
#define PRIO_PREEMPT_REQUEUE 0x0002u
#define PRIO_PREEMPT_CANCEL  0x0008u
/* the preemptor's job priority must not be lower (25.05) */
#define PRIO_PREEMPT_PRIORITY 0x2000u
#define PRIO_PREEMPT_WITHIN  0x4000u
#define PRIO_PREEMPT_GANG    0x8000u

#define PRIO_SHARED_FORCE 0x8000u /* OR-ed into max_share for FORCE */

enum prio_reset_period {
	PRIO_RESET_NONE = 0, PRIO_RESET_NOW, PRIO_RESET_DAILY,
	PRIO_RESET_WEEKLY, PRIO_RESET_MONTHLY, PRIO_RESET_QUARTERLY,
	PRIO_RESET_YEARLY,
};

enum prio_preempt_type {
	PRIO_PREEMPT_TYPE_NONE = 0,
	PRIO_PREEMPT_TYPE_PARTITION_PRIO,
	PRIO_PREEMPT_TYPE_QOS,
};

/* A key/value as read: every top-level parameter (interpreted or not, the
 * last of a repeated key replacing the earlier one in place), and every
 * record line (NodeName, PartitionName, DownNodes, FrontendName, NodeSet,
 * SlurmctldHost; value = the rest of the line), in file order. */
struct prio_conf_kv {
	const char *key;   /* as written */
	const char *value; /* as written, quotes removed */
	const char *file;
	unsigned long line;
};

/* One Licenses= entry: cluster-wide count of license/<name>. */
struct prio_conf_license {
	const char *name;
	uint32_t count;
};

/* NodeSet=name Nodes=hostlist | Feature=name (slurm.conf): a name that
 * partitions may use in Nodes=. */
struct prio_conf_nodeset {
	const char *name;
	const char *nodes;   /* hostlist, or NULL */
	const char *feature; /* nodes with this feature, or NULL */
	const char *file;
	unsigned long line;
	struct prio_conf_nodeset *next; /* arena list */
};

/* PreemptParameters (23.02) merged with the older SchedulerParameters
 * spelling preempt_* (still read by 26.05): filled by prio_config_link(). */
struct prio_preempt_params {
	uint32_t reorder_count;       /* reorder_count=, default 1 */
	bool strict_order;            /* strict_order */
	bool youngest_first;          /* youngest_first */
	bool send_user_signal;        /* send_user_signal */
	bool reclaim_licenses;        /* reclaim_licenses (not modelled) */
	/* min_exempt_priority=: a job of higher priority is never
	 * preempted; PRIO_NO_VAL none */
	uint32_t min_exempt_priority;
	/* suspend_grace_time=: seconds between SIGTSTP and SIGSTOP when
	 * suspending (23.11; default 2) */
	uint32_t suspend_grace_time;
};

/* The backfill words of SchedulerParameters the forecast (forecast.h)
 * uses, filled by prio_config_link() with Slurm's defaults (the same from
 * 22.05 to 26.05: slurm.conf(5)).  Slurm logs a bad value and keeps its
 * default; here a value that is not a number in Slurm's range is refused
 * (file:line: SchedulerParameters: ...), so that a typo never leaves a
 * default silently in force. */
struct prio_sched_params {
	uint32_t bf_window;       /* minutes, default 1440, 1..43200 */
	uint32_t bf_resolution;   /* seconds, default 60, 1..3600 */
	uint32_t bf_max_job_test; /* default 500, 1..1000000 */
	uint32_t bf_max_job_user; /* default 0 (no limit) */
	uint32_t bf_interval;     /* seconds, default 30 */
	/* seconds the will-run test's window grows by after each group of
	 * ends that does not fit; 0 (default): it doubles */
	uint32_t bf_window_linear;
	bool bf_continue;         /* bf_continue */
	bool backfill;            /* SchedulerType is sched/backfill (default) */
};

struct prio_config {
	const char *cluster_name;
	const char *priority_type;          /* "priority/multifactor" */
	uint32_t weight_age, weight_assoc, weight_fairshare, weight_jobsize,
		 weight_partition, weight_qos;
	/* PriorityWeightTRES: .text as written (NULL unset); the items are
	 * parsed by prio_config_link() against the final TRES table. */
	struct prio_tres_weights weight_tres;
	uint32_t priority_flags;            /* PRIO_FLAG_*; default FAIR_TREE */
	const char *priority_flags_text;    /* as written, NULL if unset */
	uint32_t decay_half_life;           /* seconds; default 604800 */
	uint32_t calc_period;               /* seconds; default 300 */
	uint32_t max_age;                   /* seconds; default 604800 */
	enum prio_reset_period reset_period;
	bool favor_small;
	uint16_t dampening_factor;          /* default 1 */
	const char *accounting_storage_type;
	const char *accounting_storage_enforce;
	const char *accounting_storage_tres; /* as written */
	enum prio_preempt_type preempt_type;
	const char *preempt_type_text;
	uint16_t preempt_mode;              /* PRIO_PREEMPT_* bits */
	/* seconds; 0 (Slurm's default, printed 00:00:00) exempts nothing */
	uint32_t preempt_exempt_time;
	const char *scheduler_parameters;
	struct prio_sched_params sched;     /* its backfill words, at link */
	const char *preempt_parameters;     /* PreemptParameters as written */
	struct prio_preempt_params preempt; /* both spellings, at link */
	uint16_t sched_time_slice;          /* SchedulerTimeSlice, s; default 30 */
	const char *select_type;
	const char *select_type_parameters;
	uint32_t def_mem_per_cpu;           /* MB, 0 unset */
	const char *licenses_text;          /* Licenses as written */
	struct prio_conf_license *licenses; /* arena */
	uint32_t license_count;
	struct prio_conf_nodeset *nodesets;
	/* Every key/value read, in file order, for display and --set
	 * (malloc'ed, freed with the snapshot). */
	struct prio_conf_kv *kv;
	uint32_t kv_count, kv_capacity;
	/* private: open-addressing index of top-level keys in kv (arena) */
	uint32_t *kv_index;
	uint32_t kv_index_mask, kv_index_used;
};

struct prio_partition {
	prio_id name;
	const char *nodes_text;       /* hostlist as written, NULL none */
	uint32_t *nodes;              /* indices into snapshot nodes */
	uint32_t node_count;
	uint16_t job_factor;          /* PriorityJobFactor, default 1 */
	uint16_t tier;                /* PriorityTier, default 1 */
	uint32_t max_time;            /* minutes, PRIO_INFINITE unlimited */
	uint32_t default_time;        /* minutes, PRIO_NO_VAL unset */
	bool is_default;
	uint16_t preempt_mode;        /* PRIO_NO_VAL16 = cluster's */
	uint32_t grace_time;          /* seconds */
	uint16_t max_share;           /* OverSubscribe; FORCE bit included */
	const char *oversubscribe_text;
	/* TRESBillingWeights: .text as written; items parsed at link. */
	struct prio_tres_weights billing_weights;
	prio_id qos;                  /* partition QOS, PRIO_NO_ID none */
	const char *state;            /* "UP", ... */
	const char *allow_accounts;   /* as written, NULL = ALL */
	const char *allow_qos;        /* as written, NULL = ALL */
	/* Totals, from the nodes (or as scontrol printed them). */
	uint32_t total_cpus;
	uint32_t total_nodes;
	/* TRES totals for the TRES factor (slurm-facts §1.2), one per TRES of
	 * the table at link time (tres_count of them; arena): cpu = Σ
	 * cpus_efctv, mem = Σ RealMemory MB, node = node count, gres/... from
	 * the nodes' Gres, license/... cluster-wide, billing = the
	 * partition's weights applied to these, truncated (CPU count without
	 * weights).  Only configured TRES are filled. */
	uint64_t *tres_total;
	uint32_t tres_count;
	/* TRES= as `scontrol show partition` printed it (count 0 otherwise);
	 * used for the totals when no node records are loaded. */
	struct prio_tres_list tres_printed;
	const char *file;             /* where it was defined */
	unsigned long line;
};

struct prio_node {
	prio_id name;
	uint32_t cpus;                /* CPUTot / CPUs */
	uint32_t cpus_efctv;          /* CPUs minus specialised cores */
	uint16_t boards, sockets, cores_per_socket, threads_per_core;
	uint16_t core_spec_count;     /* CoreSpecCount */
	const char *cpu_spec_list;    /* CpuSpecList as written */
	uint64_t real_memory;         /* MB */
	const char *gres;             /* "gpu:4" or NULL */
	/* Gres as TRES counts (gres/gpu, gres/gpu:type), filled at link */
	struct prio_tres_list gres_tres;
	const char *features;         /* Features / AvailableFeatures */
	const char *state;
	uint32_t weight;
	/* TRESWeights: .text as written; items parsed at link. */
	struct prio_tres_weights tres_weights;
	/* Current allocation, from `scontrol show node` (0 otherwise). */
	uint32_t cpus_alloc;          /* CPUAlloc */
	uint64_t alloc_mem;           /* AllocMem, MB */
	struct prio_tres_list cfg_tres;   /* CfgTRES */
	struct prio_tres_list alloc_tres; /* AllocTRES */
	const char *partitions_text;  /* Partitions= as printed */
	const char *file;
	unsigned long line;
};

struct prio_snapshot;
struct prio_error;

/* Apply one top-level slurm.conf parameter Key=Value through the key table
 * shared by the slurm.conf loader, `scontrol show config` and --set:
 * validates the value as Slurm does, stores it, and records it in conf.kv
 * (replacing an earlier value of the same key).  Keys Slurm accepts that
 * the table does not model are only recorded; a key no supported release
 * accepts is refused with PRIO_ERR_USAGE, naming the closest known key
 * (`scontrol show config` readers keep such keys: later releases print
 * new ones).  An empty value restores the key's default (an unset value of
 * `scontrol show config`; slurm.conf and --set refuse "Key=" first).
 * Record keys (NodeName, PartitionName, ...) are refused with
 * PRIO_ERR_USAGE: they are lines, not parameters.  Errors are PRIO_ERR_PARSE with file, line and
 * the key as field.  Sets snap->have_config. */
int prio_config_set(struct prio_snapshot *snap, const char *key,
		    size_t key_len, const char *value, size_t value_len,
		    const char *file, unsigned long line,
		    struct prio_error *err);
/* True when some supported Slurm release (22.05..26.05) accepts key as a
 * top-level slurm.conf parameter or record line (case-insensitive). */
bool prio_config_key_known(const char *key, size_t key_len);
/* PRIO_OK for a known key, else PRIO_ERR_USAGE "unknown key (did you mean
 * CLOSEST?)" with the key as field. */
int prio_config_key_check(const char *key, size_t key_len, const char *file,
			  unsigned long line, struct prio_error *err);
/* The word of words[0..count) closest to s (case-insensitive edit
 * distance), or NULL when none is close enough to be a likely typo: for
 * "did you mean" hints. */
const char *prio_closest_word(const char *s, size_t n,
			      const char *const *words, size_t count);
/* Record a key/value in conf.kv without interpreting it; replace an earlier
 * entry of the same key (case-insensitive) when `replace`.  0 or
 * PRIO_ERR_NOMEM. */
int prio_config_record(struct prio_snapshot *snap, const char *key,
		       size_t key_len, const char *value, size_t value_len,
		       const char *file, unsigned long line, bool replace);
/* The recorded top-level entry of key (case-insensitive), NULL if none. */
const struct prio_conf_kv *prio_config_find(const struct prio_config *conf,
					    const char *key);

/*
 * The words of SchedulerParameters that change which jobs slurmctld's
 * schedulers start, or when, and that the forecast (forecast.h) does not
 * model (bf_max_job_part, bf_min_prio_reserve, default_queue_depth...), as
 * written and separated by ", " into buf (truncated with "..." to size);
 * returns how many.  A command that forecasts says so: its forecast
 * schedules as if they were unset.
 */
uint32_t prio_sched_params_unmodelled(const struct prio_config *conf,
				      char *buf, size_t size);

/* A partition / node with Slurm's defaults (name unset). */
void prio_partition_defaults(struct prio_partition *p);
void prio_node_defaults(struct prio_node *n);

/* Defaults exactly as Slurm 22.05 fills them. */
void prio_config_defaults(struct prio_config *conf);

/* Parse a PriorityFlags string (substring rules, slurm-facts §1.0):
 * MAX_TRES_GRES excludes MAX_TRES, as 25.05 reads it. */
uint32_t prio_priority_flags_parse(const char *s);
/* "FAIR_TREE,MAX_TRES"-style text for display; buf returned. */
const char *prio_priority_flags_format(uint32_t flags, char *buf,
				       unsigned size);
struct prio_slurm_release;
/* The flags as that release's `scontrol show config` prints them
 * ("NO_FAIR_TREE" when Fair Tree is off, nothing for it when on; before
 * 25.11.1 any NO_NORMAL_* flag prints as NO_NORMAL_ALL alone); buf
 * returned, "" for none. */
const char *prio_priority_flags_slurm(uint32_t flags,
				      const struct prio_slurm_release *rel,
				      char *buf, unsigned size);
/* PreemptMode comma list; -1 with a static reason when invalid. */
int prio_preempt_mode_parse(const char *s, uint16_t *mode, const char **why);
const char *prio_preempt_mode_format(uint16_t mode, char *buf, unsigned size);
/* OverSubscribe value to max_share; -1 when invalid. */
int prio_oversubscribe_parse(const char *s, uint16_t *max_share);

#endif
