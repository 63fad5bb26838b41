/* SPDX-License-Identifier: MIT */
/*
 * Which Slurm a snapshot came from, and what that release prints and does
 * differently.  Versions are data: one table row per release (22.05 to
 * 26.05) says which formats and behaviours it has, and readers, writers
 * and engines ask the row instead of comparing version numbers.
 *
 * A release is written as its year and month, YYMM: 22.05 is 2205, 24.11
 * is 2411.  Maintenance releases (24.11.5) print and behave like their
 * release for everything modelled here.
 */
#ifndef PRIO_SLURM_VERSION_H
#define PRIO_SLURM_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The releases in the table, oldest first. */
#define PRIO_SLURM_OLDEST 2205
#define PRIO_SLURM_NEWEST 2605

/* Where the snapshot's release was learnt, weakest first: a stronger
 * source replaces a weaker one, never the reverse. */
enum prio_slurm_version_source {
	PRIO_VERSION_DEFAULT = 0, /* nothing said: the newest release */
	PRIO_VERSION_FORMAT,      /* the shape of an artefact (TRES= vs ReqTRES=) */
	PRIO_VERSION_MANIFEST,    /* prio-snap's MANIFEST "version" line */
	PRIO_VERSION_JSON,        /* squeue/sshare --json "meta" */
	PRIO_VERSION_CONFIG,      /* SLURM_VERSION of scontrol show config */
	PRIO_VERSION_OPTION,      /* --slurm-version */
};

/* What one release prints and does, for the parts prio-tools models.  Each
 * field names the release that introduced it in its comment. */
struct prio_slurm_release {
	uint16_t release;        /* 2411 */
	const char *name;        /* "24.11" */
	/* squeue --json's data_parser plugin version ("v0.0.42") */
	const char *json_parser;
	/* scontrol show job: ReqTRES=/AllocTRES= instead of TRES= (23.02) */
	bool job_req_alloc_tres;
	/* sprio: %o ACCOUNT and %n QOSNAME letters, in -l and the default
	 * formats (23.02) */
	bool sprio_account_qosname;
	/* sshare --json (23.11) */
	bool sshare_json;
	/* PriorityType defaults to priority/multifactor (23.11) */
	bool multifactor_default;
	/* PreemptMode CANCEL/REQUEUE: a job signalled for GraceTime is
	 * already preempted (24.05) */
	bool grace_counts_preempted;
	/* a job may carry several QOS, highest priority first (24.11) */
	bool multi_qos;
	/* PriorityFlags=MAX_TRES_GRES (25.05) */
	bool max_tres_gres;
	/* PreemptMode PRIORITY exists (25.05: a preemptor may only preempt a
	 * job of lower priority when its partition's, QOS's or the cluster's
	 * PreemptMode has it); a partition without its own PreemptMode does
	 * not imply it (25.05.1 fixed 25.05.0, where every such partition
	 * behaved as PRIORITY: higher-tier jobs stopped preempting lower-tier
	 * ones of higher job priority).  The table models 25.05.1 onwards. */
	bool partition_prio_mode_fixed;
	/* sreport rounds start times down and end times up (25.05) */
	bool sreport_round_outward;
	/* sreport user topusage gains a Partition column with partition
	 * associations (25.05) */
	bool topusage_partition;
	/* NO_NORMAL_ALL printed only when every NO_NORMAL_* flag is set
	 * (25.11.1; until then any NO_NORMAL_* flag printed as NO_NORMAL_ALL
	 * alone, so scontrol show config cannot tell which were set) */
	bool no_normal_all_exact;
	/* PreemptExemptTime also for SUSPEND and GANG under partition_prio
	 * (26.05) */
	bool exempt_time_suspend;
	/* --- preemption and billing rules (helper/behaviour) --- */
	/* PreemptParameters= exists, with min_exempt_priority,
	 * reclaim_licenses, reorder_count, send_user_signal, strict_order,
	 * youngest_first; 22.05 has only SchedulerParameters=preempt_* and
	 * refuses the key (23.02) */
	bool preempt_parameters;
	/* PreemptParameters=suspend_grace_time (23.11) */
	bool suspend_grace_time;
	/* --- job states (helper/multiqos) --- */
	/* JobState=EXPEDITING: a requeued job the scheduler runs before all
	 * others (25.11) */
	bool job_state_expediting;
	/* slurmdbd gives the associations by lineage, so the controller's
	 * children lists (Fair Tree's ties) are by name, users first; before,
	 * by lft: newest first (23.11) */
	bool assoc_lineage_order;
	/* --- the backfill scheduler's will-run test (cons_tres) --- */
	/* backfill.c bounds it by the next instant the map gives nodes
	 * back, else by the map's third change after the run (24.11) */
	bool will_run_bounded;
	/* it frees the running jobs that end by the start tried, not only
	 * those that end before it, and gives as the start the end of the
	 * last job it freed on a node it chose, not the group's last end
	 * (25.05.1; the row models it from 25.05) */
	bool will_run_last_relevant;
};

/* The row of a release: the newest row not after it (24.11.5 and 24.12
 * give 24.11's), NULL before 22.05. */
const struct prio_slurm_release *prio_slurm_release_of(uint16_t release);
/* Every row, oldest first; *n gets the count. */
const struct prio_slurm_release *prio_slurm_releases(size_t *n);

/*
 * Parse a Slurm version as people and tools write it: "24.11", "24.11.5",
 * "slurm 24.11.5", "slurm-wlm 24.11.5-4+deb13u1", "24.11.5-1".  Returns 0
 * with *release set (2411), or -1 when the text holds no version; an
 * out-of-table version (21.08, 27.05) parses, and is for the caller to
 * refuse or clamp.
 */
int prio_slurm_version_parse(const char *s, size_t n, uint16_t *release);

/* "22.05" for 2205, into buf. */
const char *prio_slurm_version_name(uint16_t release, char *buf, size_t size);

/* A source's name for --check ("scontrol show config"). */
const char *prio_slurm_version_source_name(enum prio_slurm_version_source src);

#endif
