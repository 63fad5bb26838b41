/* SPDX-License-Identifier: MIT */
/*
 * fstree-show's parts: the sshare table (fstree-show.c), the drawn tree
 * (fstree-tree.c), the audit against a real sshare output
 * (fstree-audit.c), and the explanations --why and --when
 * (fstree-explain.c).  They share the loaded snapshot and its fairshare
 * results through struct fstree.
 */
#ifndef FSTREE_H
#define FSTREE_H

#include <stdbool.h>
#include <time.h>

#include "common.h"
#include "prio/report_sshare.h"
#include "prio/usage.h"

struct fstree {
	struct cmd_common c;
	struct prio_snapshot snap;
	enum prio_fs_algorithm algorithm;
	struct prio_fs_result *res; /* one per association */
	time_t at;		    /* evaluation time (--at, else now) */
	bool no_run;
	bool replayed; /* usage rebuilt from job records */
	bool moves;    /* loaded usage moved later (--when): date it */
	/* Slurm's last priority calculation as the stored priorities pin it
	 * (usage_from_last_calc; 0: not pinned, or not looked for) */
	time_t calc_at;
	bool streamed; /* ... as the sacct file streamed (replay_stream()) */
	bool ascii;    /* --tree without box characters */
	bool no_lag;   /* --no-lag */
	/* Slurm's classic one-cycle lag, as prio_fairshare_slurm modelled it
	 * (fstree_compute; prev_usage NULL when it does not apply). */
	struct prio_fs_lag lag;
	const char *account; /* --account: which association of a user */
};

/* The fairshare setup of the options: algorithm, evaluation time, --no-lag. */
struct prio_fs_setup fstree_setup(const struct fstree *f);
/* Compute res for the snapshot's current usage (exits 2 on error) as
 * prio_fairshare_slurm does for every tool: under classic and
 * DEPTH_OBLIVIOUS, with the running jobs loaded, with Slurm's lag of
 * account rows unless --no-lag. */
void fstree_compute(struct fstree *f);

/* The usage the options ask for: --replay (replay) or --at (f->at other
 * than NOW) rebuild or decay it; exits 2 when there is none. */
void fstree_set_usage(struct fstree *f, bool replay);

/* The user association of `user` (under `account` when given): its index,
 * or exits 2 naming what is missing or ambiguous. */
uint32_t fstree_find_user(struct fstree *f, const char *user,
			  const char *account, const char *option);

/* Each mode writes to stdout and returns the exit status. */
int fstree_tree(struct fstree *f);
/* One association as --tree's machine rows give it (account, user, parent,
 * depth, then its shares, usage and factors), for --why's too. */
#define FSTREE_NODE_COLS 12
extern const struct prio_column fstree_node_cols[FSTREE_NODE_COLS];
void fstree_node_cells(const struct fstree *f, uint32_t i, unsigned depth,
		       struct prio_cell *c);
int fstree_audit(struct fstree *f, const char *file);
int fstree_why(struct fstree *f, const char *user, const char *vs);
int fstree_when(struct fstree *f, const char *user, bool level_fs,
		double target);

/* --history DIR: user's rows over the series, a chart of them (view:
 * cmd_history_view; exit status). */
int fstree_history(struct fstree *f, const char *dir, const char *user,
		   bool algorithm_set, int view, bool ascii,
		   const char *usage);

/* Colour on: stdout is a terminal and NO_COLOR is unset. */
bool fstree_color(void);

#endif
