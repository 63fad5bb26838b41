/* SPDX-License-Identifier: MIT */
/*
 * Issue 17: commands that read the sacct file as a stream (prio_sacct_stream:
 * each record handed over and forgotten), so that years of accounting run
 * in bounded memory: tres-bill's reports and --verify, fstree-show's usage
 * replay.  What they share: which file the stream reads, the load of every
 * other source before it, and the few records the checks after a load look
 * at, kept while the rest go by.
 */
#ifndef CMD_SACCT_STREAM_H
#define CMD_SACCT_STREAM_H

#include "common.h"
#include "prio/sacct.h"

/* The sacct file a stream reads: --sacct's, else the snapshot folder's;
 * NULL when there is none, it is standard input, or no other source is
 * named (the configuration file's sources are loaded whole).  buf holds a
 * folder's path. */
const char *cmd_sacct_stream_path(struct cmd_common *c, char *buf, size_t size);

/* Every source but sacct, quietly (cmd_load_warnings() prints the
 * warnings once the stream is over); < 0 when a load fails, snap freed
 * (the whole load then words the error). */
int cmd_load_but_sacct(struct cmd_common *c, struct prio_snapshot *snap);

/* The records a stream keeps for the checks that read snap->sacct after a
 * load (cmd_partial(): the first record, the first two users; the first
 * named cluster: a report's title). */
struct cmd_sacct_reps {
	struct prio_sacct_rec rec[4];
	unsigned n;
	prio_id user1, user2;
	bool have_cluster;
};
void cmd_sacct_reps_init(struct cmd_sacct_reps *r);
void cmd_sacct_reps_see(struct cmd_sacct_reps *r, const struct prio_sacct_rec *rec);
/* Add them to snap's records once the stream is over; exits 2 when out of
 * memory. */
void cmd_sacct_reps_store(const struct cmd_common *c, struct prio_snapshot *snap,
			  const struct cmd_sacct_reps *r);

#endif
