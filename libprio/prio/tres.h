/* SPDX-License-Identifier: MIT */
/*
 * Trackable resources (TRES).  A snapshot has one TRES table: the eight
 * built-in types at Slurm's fixed positions (slurm-facts, constants), then
 * dynamic ones ("gres/gpu", "license/matlab", "bb/cray") as they are met.
 * Names compare case-insensitively and are stored lower-case.
 */
#ifndef PRIO_TRES_H
#define PRIO_TRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

enum prio_tres_builtin {
	PRIO_TRES_CPU = 0,
	PRIO_TRES_MEM = 1,
	PRIO_TRES_ENERGY = 2,
	PRIO_TRES_NODE = 3,
	PRIO_TRES_BILLING = 4,
	PRIO_TRES_FS_DISK = 5,
	PRIO_TRES_VMEM = 6,
	PRIO_TRES_PAGES = 7,
	PRIO_TRES_BUILTIN_COUNT = 8,
};

#define PRIO_TRES_MAX 4096u /* more distinct TRES than this is hostile input */

struct prio_tres_table {
	char **names;       /* index -> "cpu", "gres/gpu", ... (lower-case) */
	bool *configured;   /* listed in AccountingStorageTRES or built-in */
	uint32_t count;
	uint32_t capacity;
};

int prio_tres_table_init(struct prio_tres_table *t);
void prio_tres_table_free(struct prio_tres_table *t);
/* Index of the TRES "type[/name]" (case-insensitive), or -1. */
int prio_tres_find(const struct prio_tres_table *t, const char *s, size_t n);
/* Index, adding the TRES when new; -1 on allocation failure or limit. */
int prio_tres_add(struct prio_tres_table *t, const char *s, size_t n);
/* True for the TRES MAX_TRES takes the maximum over: cpu, mem, node and every gres. */
bool prio_tres_is_node_tres(const struct prio_tres_table *t, uint32_t tres);

/* One count of one TRES.  mem and bb are in megabytes. */
struct prio_tres_count {
	uint32_t tres;
	uint64_t count;
};

struct prio_tres_list {
	struct prio_tres_count *items; /* arena memory */
	uint32_t count;
};

/* Parse "cpu=8,mem=8G,node=1,billing=10,gres/gpu:tesla=2" as scontrol,
 * squeue and sacct print it.  Memory suffixes K/M/G/T/P convert mem and bb to
 * MB; unknown TRES are added to the table.  "" and "(null)" give an empty
 * list.  Returns 0, or -1 with a static reason in *why. */
int prio_tres_list_parse(struct prio_arena *arena, struct prio_tres_table *t,
			 const char *s, size_t n, struct prio_tres_list *list,
			 const char **why);
/* The count of tres in list, or dflt when absent. */
uint64_t prio_tres_list_get(const struct prio_tres_list *list, uint32_t tres,
			    uint64_t dflt);

/* TRESBillingWeights / PriorityWeightTRES / node TRESWeights (slurm-facts
 * §5): "CPU=1.0,Mem=0.25G,GRES/gpu=2".  Only configured TRES are accepted. */
struct prio_tres_weight {
	uint32_t tres;
	double weight; /* per CPU, per MB, per node, ... after the unit divisor */
};

struct prio_tres_weights {
	struct prio_tres_weight *items; /* arena memory */
	uint32_t count;
	const char *text; /* as written, for display (sprio -w) */
};

/* Returns 0, or -1 with a message (Slurm's wording) in why. */
int prio_tres_weights_parse(struct prio_arena *arena,
			    const struct prio_tres_table *t, const char *s,
			    size_t n, struct prio_tres_weights *w, char *why,
			    size_t why_size);
/* The weight of tres, 0 when not listed. */
double prio_tres_weights_get(const struct prio_tres_weights *w, uint32_t tres);

#endif
