/* SPDX-License-Identifier: MIT */
/*
 * The snapshot: owner of everything loaded for one moment of a cluster.
 * Record arrays grow by doubling (no per-record malloc); strings live in the
 * arena or the intern table.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prio/snapshot.h"

int prio_snapshot_init(struct prio_snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	prio_arena_init(&snap->arena);
	if (prio_intern_init(&snap->strings, &snap->arena) < 0)
		return PRIO_ERR_NOMEM;
	if (prio_tres_table_init(&snap->tres) < 0) {
		prio_intern_free(&snap->strings);
		return PRIO_ERR_NOMEM;
	}
	prio_config_defaults(&snap->conf);
	snap->folder_roles = (1u << PRIO_ROLE_COUNT) - 1;
	return PRIO_OK;
}

void prio_snapshot_free(struct prio_snapshot *snap)
{
	free(snap->partitions);
	free(snap->nodes);
	free(snap->qos);
	free(snap->assocs);
	free(snap->jobs);
	free(snap->sacct);
	free(snap->warnings);
	free(snap->loaded);
	free(snap->conf.kv);
	free(snap->partition_by_name);
	free(snap->node_by_name);
	free(snap->qos_by_name);
	free(snap->assoc_slots);
	free(snap->job_slots);
	prio_tres_table_free(&snap->tres);
	prio_intern_free(&snap->strings);
	prio_arena_free(&snap->arena);
	memset(snap, 0, sizeof(*snap));
}

/* Grow *array (elements of size elem) so that one more fits; return the new
 * zeroed slot. */
static void *grow(void **array, uint32_t *count, uint32_t *capacity,
		  size_t elem)
{
	char *slot;

	if (*count == *capacity) {
		uint32_t cap = *capacity ? *capacity * 2 : 16;
		void *p;

		if (cap < *capacity || (size_t)cap > SIZE_MAX / elem)
			return NULL;
		p = realloc(*array, (size_t)cap * elem);
		if (!p)
			return NULL;
		*array = p;
		*capacity = cap;
	}
	slot = (char *)*array + (size_t)(*count) * elem;
	memset(slot, 0, elem);
	(*count)++;
	return slot;
}

#define GROW(snap, arr, cnt, cap) \
	grow((void **)&(snap)->arr, &(snap)->cnt, &(snap)->cap, sizeof(*(snap)->arr))

struct prio_partition *prio_snapshot_new_partition(struct prio_snapshot *snap)
{
	return GROW(snap, partitions, partition_count, partition_capacity);
}

struct prio_node *prio_snapshot_new_node(struct prio_snapshot *snap)
{
	return GROW(snap, nodes, node_count, node_capacity);
}

struct prio_qos *prio_snapshot_new_qos(struct prio_snapshot *snap)
{
	return GROW(snap, qos, qos_count, qos_capacity);
}

struct prio_assoc *prio_snapshot_new_assoc(struct prio_snapshot *snap)
{
	return GROW(snap, assocs, assoc_count, assoc_capacity);
}

struct prio_job *prio_snapshot_new_job(struct prio_snapshot *snap)
{
	return GROW(snap, jobs, job_count, job_capacity);
}

struct prio_sacct_rec *prio_snapshot_new_sacct(struct prio_snapshot *snap)
{
	return GROW(snap, sacct, sacct_count, sacct_capacity);
}

int prio_snapshot_record_error(struct prio_snapshot *snap,
			       struct prio_error *err)
{
	struct prio_warning *w;

	if (!snap->keep_going || err->status == PRIO_ERR_NOMEM)
		return err->status ? err->status : PRIO_ERR_PARSE;
	w = GROW(snap, warnings, warning_count, warning_capacity);
	if (!w)
		return PRIO_ERR_NOMEM;
	w->error = *err;
	prio_error_clear(err);
	return PRIO_OK;
}

int prio_snapshot_note_loaded(struct prio_snapshot *snap,
			      enum prio_input_kind kind, const char *name,
			      unsigned long records)
{
	struct prio_loaded *l = GROW(snap, loaded, loaded_count, loaded_capacity);

	if (!l)
		return PRIO_ERR_NOMEM;
	l->kind = kind;
	l->name = prio_arena_strdup(&snap->arena, name ? name : "");
	l->records = records;
	return l->name ? PRIO_OK : PRIO_ERR_NOMEM;
}

void prio_snapshot_note_version(struct prio_snapshot *snap, uint16_t release,
				enum prio_slurm_version_source source)
{
	/* Equal strength: the first word stands (a second artefact of the
	 * same kind is no better informed). */
	if (snap->slurm_release && source <= snap->slurm_release_source)
		return;
	snap->slurm_release = release;
	snap->slurm_release_source = source;
}

void prio_snapshot_note_at_least(struct prio_snapshot *snap, uint16_t release)
{
	if (snap->slurm_release_source < PRIO_VERSION_FORMAT)
		prio_snapshot_note_version(snap, release, PRIO_VERSION_FORMAT);
	else if (snap->slurm_release_source == PRIO_VERSION_FORMAT &&
		 snap->slurm_release < release)
		snap->slurm_release = release;
}

const struct prio_slurm_release *
prio_snapshot_slurm(const struct prio_snapshot *snap)
{
	const struct prio_slurm_release *r;
	size_t n;

	if (!snap->slurm_release) {
		r = prio_slurm_releases(&n);
		return &r[n - 1];
	}
	r = prio_slurm_release_of(snap->slurm_release);
	return r ? r : prio_slurm_releases(&n);
}

prio_id prio_snapshot_intern(struct prio_snapshot *snap, const char *s,
			     size_t n)
{
	return prio_intern_n(&snap->strings, s, n);
}

const char *prio_snapshot_str(const struct prio_snapshot *snap, prio_id id)
{
	return prio_intern_str(&snap->strings, id);
}

const char *prio_input_kind_name(enum prio_input_kind kind)
{
	static const char *const names[PRIO_INPUT_KIND_COUNT] = {
		[PRIO_INPUT_SLURMCONF] = "slurm.conf",
		[PRIO_INPUT_SCONTROL_CONFIG] = "scontrol show config",
		[PRIO_INPUT_PARTITIONS] = "scontrol show partition",
		[PRIO_INPUT_NODES] = "scontrol show node",
		[PRIO_INPUT_ASSOC_DUMP] = "sacctmgr dump",
		[PRIO_INPUT_SSHARE] = "sshare",
		[PRIO_INPUT_QOS] = "sacctmgr show qos",
		[PRIO_INPUT_JOBS_SCONTROL] = "scontrol show job",
		[PRIO_INPUT_JOBS_JSON] = "squeue --json",
		[PRIO_INPUT_SACCT] = "sacct",
		[PRIO_INPUT_SSHARE_JSON] = "sshare --json",
	};

	return (unsigned)kind < PRIO_INPUT_KIND_COUNT ? names[kind] : "unknown";
}

static uint32_t lookup(const uint32_t *index, uint32_t size, prio_id name)
{
	if (!index || name == PRIO_NO_ID || name >= size)
		return UINT32_MAX;
	return index[name];
}

struct prio_partition *prio_snapshot_partition(const struct prio_snapshot *snap,
					       prio_id name)
{
	uint32_t i = lookup(snap->partition_by_name, snap->index_size, name);

	return i == UINT32_MAX ? NULL : &snap->partitions[i];
}

struct prio_node *prio_snapshot_node(const struct prio_snapshot *snap,
				     prio_id name)
{
	uint32_t i = lookup(snap->node_by_name, snap->index_size, name);

	return i == UINT32_MAX ? NULL : &snap->nodes[i];
}

struct prio_qos *prio_snapshot_qos(const struct prio_snapshot *snap,
				   prio_id name)
{
	uint32_t i = lookup(snap->qos_by_name, snap->index_size, name);

	return i == UINT32_MAX ? NULL : &snap->qos[i];
}
