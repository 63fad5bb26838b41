/* SPDX-License-Identifier: MIT */
/*
 * The cluster configuration as the controller sees it: priority weights and
 * flags, decay, billing, preemption settings, partitions and nodes.  Filled
 * from slurm.conf (conf_slurmconf.c), `scontrol show config`
 * (conf_scontrol.c) and `scontrol show partition|node` (partnode_scontrol.c);
 * all three produce the same values for the same cluster.
 */
#ifndef PRIO_CONF_H
#define PRIO_CONF_H

#include <stdbool.h>
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
/* Not a Slurm bit: the ticket-based algorithm of the seed documents. */
#define PRIO_FLAG_TICKET_BASED    (1u << 16)

/* PreemptMode bits. */
#define PRIO_PREEMPT_OFF     0x0000u
#define PRIO_PREEMPT_SUSPEND 0x0001u
#define PRIO_PREEMPT_REQUEUE 0x0002u
#define PRIO_PREEMPT_CANCEL  0x0008u
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

/* A key we keep for display but do not interpret, or any key as written. */
struct prio_conf_kv {
	const char *key;   /* as written */
	const char *value; /* as written, quotes removed */
	const char *file;
	unsigned long line;
};

struct prio_config {
	const char *cluster_name;
	const char *priority_type;          /* "priority/multifactor" */
	uint32_t weight_age, weight_assoc, weight_fairshare, weight_jobsize,
		 weight_partition, weight_qos;
	struct prio_tres_weights weight_tres; /* count 0 when unset */
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
	uint32_t preempt_exempt_time;       /* seconds; PRIO_INFINITE unset */
	const char *scheduler_parameters;
	const char *select_type;
	const char *select_type_parameters;
	uint32_t def_mem_per_cpu;           /* MB, 0 unset */
	/* Every key/value read, in file order, for display and --set. */
	struct prio_conf_kv *kv;
	uint32_t kv_count, kv_capacity;
};

struct prio_partition {
	prio_id name;
	const char *nodes_text;       /* hostlist as written */
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
	struct prio_tres_weights billing_weights;
	prio_id qos;                  /* partition QOS, PRIO_NO_ID none */
	const char *state;            /* "UP", ... */
	/* Totals, from the nodes (or as scontrol printed them). */
	uint32_t total_cpus;
	uint32_t total_nodes;
	const char *file;             /* where it was defined */
	unsigned long line;
};

struct prio_node {
	prio_id name;
	uint32_t cpus;                /* CPUTot / CPUs */
	uint32_t cpus_efctv;          /* CPUs minus specialised cores */
	uint16_t boards, sockets, cores_per_socket, threads_per_core;
	uint64_t real_memory;         /* MB */
	const char *gres;             /* "gpu:4" or NULL */
	const char *state;
	uint32_t weight;
	struct prio_tres_weights tres_weights;
	const char *file;
	unsigned long line;
};

/* Defaults exactly as Slurm 22.05 fills them. */
void prio_config_defaults(struct prio_config *conf);

/* Parse a PriorityFlags string (substring rules, slurm-facts §1.0). */
uint32_t prio_priority_flags_parse(const char *s);
/* "FAIR_TREE,MAX_TRES"-style text for display; buf returned. */
const char *prio_priority_flags_format(uint32_t flags, char *buf,
				       unsigned size);
/* PreemptMode comma list; -1 with a static reason when invalid. */
int prio_preempt_mode_parse(const char *s, uint16_t *mode, const char **why);
const char *prio_preempt_mode_format(uint16_t mode, char *buf, unsigned size);
/* OverSubscribe value to max_share; -1 when invalid. */
int prio_oversubscribe_parse(const char *s, uint16_t *max_share);

#endif
