/* SPDX-License-Identifier: MIT */
/*
 * One moment of one cluster: configuration, partitions, nodes, QOS, the
 * association tree, jobs, accounting records and the clock.  Everything
 * loaded lives in the snapshot's arena and dies with prio_snapshot_free().
 *
 * Loaders append to the snapshot; prio_snapshot_finish() then links records
 * (partition nodes, job partitions, the tree) and checks what can only be
 * checked once everything is in.
 */
#ifndef PRIO_SNAPSHOT_H
#define PRIO_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "arena.h"
#include "assoc.h"
#include "conf.h"
#include "error.h"
#include "intern.h"
#include "job.h"
#include "qos.h"
#include "sacct.h"
#include "slurm_version.h"
#include "source.h"
#include "tres.h"

/* What a loaded input was, for --check and for messages. */
enum prio_input_kind {
	PRIO_INPUT_SLURMCONF = 0,   /* slurm.conf */
	PRIO_INPUT_SCONTROL_CONFIG, /* scontrol show config */
	PRIO_INPUT_PARTITIONS,      /* scontrol show partition */
	PRIO_INPUT_NODES,           /* scontrol show node */
	PRIO_INPUT_ASSOC_DUMP,      /* sacctmgr dump */
	PRIO_INPUT_SSHARE,          /* sshare -P / -p / plain */
	PRIO_INPUT_QOS,             /* sacctmgr -P show qos */
	PRIO_INPUT_JOBS_SCONTROL,   /* scontrol show job */
	PRIO_INPUT_JOBS_JSON,       /* squeue --json */
	PRIO_INPUT_SACCT,           /* sacct -P */
	PRIO_INPUT_SSHARE_JSON,     /* sshare --json (23.11+) */
	PRIO_INPUT_KIND_COUNT
};

const char *prio_input_kind_name(enum prio_input_kind kind);

/* A problem that did not stop loading (with keep_going). */
struct prio_warning {
	struct prio_error error;
};

struct prio_loaded {
	enum prio_input_kind kind;
	const char *name;     /* path as given */
	unsigned long records; /* records taken from it */
};

struct prio_assoc_slot; /* private (assoc.c) */

struct prio_snapshot {
	struct prio_arena arena;
	struct prio_intern strings;
	struct prio_tres_table tres;

	time_t now;           /* the snapshot's clock */
	/* When the associations' usage was computed, when known to be
	 * before now: Slurm's last priority calculation, found from the
	 * stored priorities (prio_snapshot_at_calc_time).  RawUsage moves
	 * only at a calculation, so usage moved to a later time counts from
	 * it (prio_snapshot_usage_time).  After usage is moved to a later
	 * time for good (prio-calc --at), that time.  0: now. */
	time_t usage_at;
	/* The usage was rebuilt from job records (prio_usage_replay) at an
	 * instant of ours, not loaded from a calculation of Slurm's: never
	 * dated to one. */
	bool usage_rebuilt;
	/* slurmctld's own record of its last priority calculation (the
	 * start of its decay cycle, whole seconds): the folder's
	 * priority_last_decay_ran, a copy prio-snap takes of the file of
	 * that name in StateSaveLocation when it can read it.  0: none.
	 * prio_calc_time_find() takes it where the stored priorities do not
	 * pin the instant themselves. */
	time_t last_decay_ran;
	/* The backfill scheduler's last cycle as the folder's sdiag.txt
	 * gives it: its start (Unix seconds; 0: none, or no sdiag.txt) and
	 * its length in microseconds.  The forecast places its backfill
	 * passes on that timer (prio_forecast_run()). */
	time_t bf_last_cycle;
	uint32_t bf_last_cycle_us;
	bool now_known;       /* from NOW, --now, or a capture stamp */
	bool now_wall;        /* none of those: the wall clock at load */
	/* prio-snap's MANIFEST "zone<TAB>NAME<TAB>+HHMM": the zone the
	 * text outputs' local times were printed in, and its UTC offset at
	 * capture (seconds east).  zone_known false without that line. */
	bool zone_known;
	char zone_name[64];
	long zone_offset;
	/* How local times are read and printed (prio_snapshot_use_zone):
	 * the process's TZ (no zone recorded), the recorded name, or the
	 * recorded offset when the name is not in the time zone database
	 * (zone_note then holds the warning).  zone_file:zone_line is the
	 * MANIFEST line, for messages. */
	enum prio_zone_use {
		PRIO_ZONE_PROCESS = 0,
		PRIO_ZONE_NAMED,
		PRIO_ZONE_FIXED,
	} zone_use;
	char zone_file[256];
	unsigned zone_line;
	char zone_note[768];
	bool keep_going;      /* malformed records become warnings */
	/* Who captured the snapshot (MANIFEST "user" line, privacy.c):
	 * capturer "" when unknown, capturer_role an enum
	 * prio_capturer_role.  assume_complete (--assume-complete) says every
	 * view is whole whatever PrivateData hides; usage_withheld names the
	 * sshare input left unread because it is partial. */
	char capturer[64];
	uint8_t capturer_role;
	bool assume_complete;
	char usage_withheld[256];

	/* The Slurm release the artefacts came from (YYMM, 2411) and where
	 * that was learnt; see prio_snapshot_note_version().  Readers and
	 * writers ask prio_snapshot_slurm() for the release's row. */
	uint16_t slurm_release;
	enum prio_slurm_version_source slurm_release_source;

	bool have_config;
	struct prio_config conf;

	struct prio_partition *partitions;
	uint32_t partition_count, partition_capacity;
	struct prio_node *nodes;
	uint32_t node_count, node_capacity;
	struct prio_qos *qos;
	uint32_t qos_count, qos_capacity;
	struct prio_assoc *assocs;   /* index 0 is root once a tree is loaded */
	uint32_t assoc_count, assoc_capacity;
	uint32_t user_assoc_count;   /* Fair Tree's N */
	uint32_t sshare_columns;     /* PRIO_SSHARE_* the sshare input had */
	struct prio_job *jobs;
	uint32_t job_count, job_capacity;
	struct prio_sacct_rec *sacct;
	uint32_t sacct_count, sacct_capacity;
	uint32_t sacct_columns;      /* PRIO_SACCT_* the sacct input had */

	struct prio_warning *warnings;
	uint32_t warning_count, warning_capacity;
	struct prio_loaded *loaded;
	uint32_t loaded_count, loaded_capacity;

	/* Indices by interned id, built by prio_snapshot_finish(). */
	uint32_t *partition_by_name; /* id -> index or UINT32_MAX */
	uint32_t *node_by_name;
	uint32_t *qos_by_name;
	uint32_t index_size;
	/* Associations by (account, user, partition), built by
	 * prio_assoc_link(): open addressing, each slot its key and index
	 * (assoc.c). */
	struct prio_assoc_slot *assoc_slots;
	uint32_t assoc_slot_mask;
	/* Jobs by id for prio_snapshot_find_job(), built at finish:
	 * open addressing, index + 1, 0 empty.  It describes job_index_count
	 * jobs at job_index_base; when the job array has changed since, the
	 * lookup scans instead. */
	uint32_t *job_slots;
	uint32_t job_slot_mask;
	uint32_t job_index_count;
	const struct prio_job *job_index_base;
	unsigned roles_loaded;       /* 1 << enum prio_role */
	/* Roles read from a snapshot folder (1 << enum prio_role; all by
	 * default): a tool that never uses job history leaves sacct.txt
	 * unread.  Explicit paths are always read. */
	unsigned folder_roles;
	bool finished;
};

int prio_snapshot_init(struct prio_snapshot *snap);
void prio_snapshot_free(struct prio_snapshot *snap);

/* Grow one of the record arrays and return a zeroed slot, NULL on ENOMEM. */
struct prio_partition *prio_snapshot_new_partition(struct prio_snapshot *snap);
struct prio_node *prio_snapshot_new_node(struct prio_snapshot *snap);
struct prio_qos *prio_snapshot_new_qos(struct prio_snapshot *snap);
struct prio_assoc *prio_snapshot_new_assoc(struct prio_snapshot *snap);
struct prio_job *prio_snapshot_new_job(struct prio_snapshot *snap);
struct prio_sacct_rec *prio_snapshot_new_sacct(struct prio_snapshot *snap);

/* A loader met a bad record.  With keep_going the error becomes a warning
 * and 0 is returned (skip the record, go on); otherwise err->status. */
int prio_snapshot_record_error(struct prio_snapshot *snap,
			       struct prio_error *err);
/* Note a loaded input (for --check). */
int prio_snapshot_note_loaded(struct prio_snapshot *snap,
			      enum prio_input_kind kind, const char *name,
			      unsigned long records);

/* The artefacts say they come from `release` (YYMM), learnt from `source`:
 * kept when no stronger source has spoken (a --slurm-version or the
 * configuration's SLURM_VERSION outranks a format's hint). */
void prio_snapshot_note_version(struct prio_snapshot *snap, uint16_t release,
				enum prio_slurm_version_source source);
/* An artefact printed what only `release` and later print (a QOS list,
 * a slurmd's Version=): a format hint that replaces no stronger source and
 * among format hints only raises the release. */
void prio_snapshot_note_at_least(struct prio_snapshot *snap, uint16_t release);
/* The row of the snapshot's release (the newest release when nothing said;
 * a release before 22.05 reads as 22.05). */
const struct prio_slurm_release *
prio_snapshot_slurm(const struct prio_snapshot *snap);

/* Interning shortcuts. */
prio_id prio_snapshot_intern(struct prio_snapshot *snap, const char *s,
			     size_t n);
const char *prio_snapshot_str(const struct prio_snapshot *snap, prio_id id);

/* --- loaders: each reads one artefact into the snapshot ----------------- */
/* slurm.conf with Include (paths relative to the including file). */
int prio_load_slurmconf(struct prio_snapshot *snap, const char *path,
			struct prio_error *err);
int prio_load_slurmconf_source(struct prio_snapshot *snap,
			       const struct prio_source *src,
			       struct prio_error *err);
int prio_load_scontrol_config(struct prio_snapshot *snap,
			      const struct prio_source *src,
			      struct prio_error *err);
int prio_load_scontrol_partitions(struct prio_snapshot *snap,
				  const struct prio_source *src,
				  struct prio_error *err);
int prio_load_scontrol_nodes(struct prio_snapshot *snap,
			     const struct prio_source *src,
			     struct prio_error *err);
int prio_load_assoc_dump(struct prio_snapshot *snap,
			 const struct prio_source *src, struct prio_error *err);
int prio_load_sshare(struct prio_snapshot *snap, const struct prio_source *src,
		     struct prio_error *err);
/* sshare --json: the same tree and values, usage in full precision. */
int prio_load_sshare_json(struct prio_snapshot *snap,
			  const struct prio_source *src,
			  struct prio_error *err);
int prio_load_qos(struct prio_snapshot *snap, const struct prio_source *src,
		  struct prio_error *err);
int prio_load_jobs_scontrol(struct prio_snapshot *snap,
			    const struct prio_source *src,
			    struct prio_error *err);
int prio_load_jobs_squeue_json(struct prio_snapshot *snap,
			       const struct prio_source *src,
			       struct prio_error *err);
int prio_load_sacct(struct prio_snapshot *snap, const struct prio_source *src,
		    struct prio_error *err);

/* --- detection and folders ---------------------------------------------- */
/* Which artefact src holds, from its content; -1 if none fits.  `hint`
 * narrows the choice to one family (config, assoc, jobs...) or is -1. */
int prio_detect_input(const struct prio_source *src, int hint);

/* Open path ("-" = stdin), detect its format among the kinds allowed for
 * `role` and load it. */
enum prio_role {
	PRIO_ROLE_CONF, PRIO_ROLE_ASSOC, PRIO_ROLE_QOS, PRIO_ROLE_JOBS,
	PRIO_ROLE_SACCT, PRIO_ROLE_NODES, PRIO_ROLE_PARTITIONS,
	PRIO_ROLE_COUNT
};
int prio_load_role(struct prio_snapshot *snap, enum prio_role role,
		   const char *path, struct prio_error *err);
const char *prio_role_option(enum prio_role role); /* "--conf", ... */

/* The fixed file names of a snapshot folder (DESIGN §2), NULL-terminated
 * list of candidates per role in order of preference. */
const char *const *prio_snapshot_dir_names(enum prio_role role);

/* Load a set of sources: for each role, paths[role] when non-NULL, else the
 * folder's file for that role when dir is non-NULL, the role is in
 * snap->folder_roles and the file exists.  The
 * folder's NOW file (epoch seconds) sets the clock unless now_known is
 * already set.  Stops at the first error. */
int prio_snapshot_load_sources(struct prio_snapshot *snap, const char *dir,
			       const char *const paths[PRIO_ROLE_COUNT],
			       struct prio_error *err);
/* Make the recorded zone (zone_known) the process's local time, so that
 * every local time of the text sources is read in it and every local time
 * printed is in it (clock.c says why the process's TZ and not a zone
 * argument); without one, go back to the TZ the process started with.
 * The name is used when this machine's time zone database has it (or it
 * is a POSIX TZ rule), else the recorded offset, with zone_note set.  When
 * capture_known, the name must have the recorded offset at capture: else
 * an error "MANIFEST:N: zone: ...".  prio_snapshot_load_sources() calls
 * it after reading MANIFEST and NOW, before any other file. */
int prio_snapshot_use_zone(struct prio_snapshot *snap, time_t capture,
			   bool capture_known, struct prio_error *err);
/* Back to the TZ the process started with (no-op if never switched). */
void prio_zone_restore(void);
/* For --check: the zone local times are in and where it came from. */
const char *prio_snapshot_zone_describe(const struct prio_snapshot *snap,
					char *buf, size_t size);
/* Clock and zone checks of a loaded snapshot (clock.c), each a one-line
 * message or "" when all is well:
 * zone: MANIFEST's zone name is not in the time zone database, the fixed
 *   offset recorded at capture is used (every command warns);
 * future: pending jobs submitted after NOW (times read in another zone,
 *   or --now too early); all_future tells whether none is left;
 * wall: NOW came from the wall clock (no NOW file, no --now). */
struct prio_clock_notes {
	char zone[768];
	char future[320];
	char wall[160];
	bool all_future;
};
void prio_snapshot_clock_notes(const struct prio_snapshot *snap,
			       struct prio_clock_notes *notes);
/* "+HHMM" / "-HHMM" to seconds east of UTC; -1 when malformed. */
int prio_parse_utc_offset(const char *s, size_t len, long *out);

/* Which roles were loaded (bit 1<<role), for "needed X, lacked it". */
unsigned prio_snapshot_roles_loaded(const struct prio_snapshot *snap);

/* After loading: index by name, then link each family of records (the
 * three steps below, in that order).  Call once, after the last loader. */
int prio_snapshot_finish(struct prio_snapshot *snap, struct prio_error *err);
/* (Re)build the job-by-id index prio_snapshot_find_job() uses; finish
 * calls it after linking.  A job id given twice keeps its first record, as
 * the scan did.  0, or -1 out of memory (the lookup then scans). */
int prio_snapshot_index_jobs(struct prio_snapshot *snap);

/* Steps of prio_snapshot_finish(), each owned by its family's file:
 * configuration (conf.c): partitions to nodes, partition totals, TRES
 *   weights parsed against the final TRES table, cross-key checks;
 * QOS (qos_sacctmgr.c): Preempt lists checked against the QOS defined;
 * associations (assoc.c): children linked in sshare order, depth, user
 *   count, cycles and orphans refused;
 * jobs (job.c): cross-references checked once everything is in. */
int prio_config_link(struct prio_snapshot *snap, struct prio_error *err);
int prio_qos_link(struct prio_snapshot *snap, struct prio_error *err);
int prio_assoc_link(struct prio_snapshot *snap, struct prio_error *err);
int prio_jobs_link(struct prio_snapshot *snap, struct prio_error *err);

/* Lookups (after finish); NULL when absent. */
struct prio_partition *prio_snapshot_partition(const struct prio_snapshot *snap,
					       prio_id name);
struct prio_node *prio_snapshot_node(const struct prio_snapshot *snap,
				     prio_id name);
struct prio_qos *prio_snapshot_qos(const struct prio_snapshot *snap,
				   prio_id name);
/* The association with that key (user PRIO_NO_ID for an account's own
 * association), PRIO_ASSOC_NONE when absent. */
uint32_t prio_snapshot_assoc(const struct prio_snapshot *snap, prio_id account,
			     prio_id user, prio_id partition);
/* A job's association in a partition as Slurm picks it: the user's
 * association for (account, partition) when one exists, else the user's
 * association for the account; PRIO_ASSOC_NONE when neither does. */
uint32_t prio_snapshot_job_assoc(const struct prio_snapshot *snap,
				 const struct prio_job *job, prio_id partition);

#endif
