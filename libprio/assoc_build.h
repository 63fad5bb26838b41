/* SPDX-License-Identifier: MIT */
/*
 * Internal: what the two association loaders (assoc_dump.c, assoc_sshare.c)
 * share while they read one source into the snapshot's tree.
 *
 * The first association source builds the tree; a second one (a snapshot
 * folder holds both assoc.cfg and sshare.txt) merges into it: each of its
 * records must name an association the tree already has, keyed by
 * (account, user, partition), and at the end every association of the tree
 * must have been named, so two captures that do not match are never
 * silently combined.  The builder holds the key index and a mark per record
 * for that bookkeeping; it lives for one load and is freed at its end.
 */
#ifndef PRIO_ASSOC_BUILD_H
#define PRIO_ASSOC_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "prio/snapshot.h"

/* Bits of assoc_build.mark[]. */
#define ASSOC_SEEN 0x01u    /* named by this source */
#define ASSOC_PENDING 0x02u /* dump: named by a Parent line, not yet defined   \
			     */

struct assoc_build {
	struct prio_snapshot *snap;
	const char *file;	/* this source's name, in the arena */
	const char *first_file; /* merging: where the tree came from */
	bool merging;		/* the tree existed before this source */
	uint8_t from;		/* PRIO_ASSOC_FROM_* of this source */
	uint32_t existing;	/* records before this source */
	uint32_t *slots;	/* key hash: index + 1, 0 when empty */
	uint32_t mask, used;
	uint8_t *mark; /* per record, ASSOC_* bits */
	uint32_t mark_cap;
};

/* Start reading src: copy its name, index the records already loaded.
 * PRIO_ERR_NOMEM with err filled on failure. */
int assoc_build_begin(struct assoc_build *b, struct prio_snapshot *snap,
		      const struct prio_source *src, uint8_t from,
		      struct prio_error *err);
void assoc_build_end(struct assoc_build *b);

/* The index of the association with that key, PRIO_ASSOC_NONE if none. */
uint32_t assoc_build_find(const struct assoc_build *b, prio_id account,
			  prio_id user, prio_id partition);

/* A new zeroed record with that key (parent, children NONE; shares and
 * priority unset; file and line set), indexed; PRIO_ASSOC_NONE when out of
 * memory.  Pointers into snap->assocs are stale afterwards. */
uint32_t assoc_build_new(struct assoc_build *b, prio_id account, prio_id user,
			 prio_id partition, unsigned long line);

static inline uint8_t assoc_build_marks(const struct assoc_build *b, uint32_t i)
{
	return i < b->mark_cap ? b->mark[i] : 0;
}
static inline void assoc_build_set(struct assoc_build *b, uint32_t i,
				   uint8_t bits)
{
	b->mark[i] |=
	    bits; /* assoc_build_new keeps mark[] as large as needed */
}

/* "physics/hep", "hep/alice", "hep/alice/big" or "root": how messages name
 * an association (account path is not needed: accounts are unique). */
const char *assoc_build_name(const struct prio_snapshot *snap, uint32_t i,
			     char *buf, size_t size);

/* Merging: the shares this source gives for record i against the tree's;
 * a difference is an error at line (field names the column).  Shares unset
 * on either side, and the root's (sshare leaves it blank), are not
 * compared.  Sets the tree's value when it had none. */
int assoc_build_shares(struct assoc_build *b, uint32_t i, uint32_t shares,
		       unsigned long line, const char *field,
		       struct prio_error *err);

/* Merging, at the end of the source: every record of the tree must have
 * been named.  Errors name this source at `line` (its last line). */
int assoc_build_all_seen(struct assoc_build *b, unsigned long line,
			 struct prio_error *err);

/* After a first load: depth of every new record, and the checks only the
 * whole tree allows (cycles through forward Parent references, depth);
 * errors name the offending record's line. */
int assoc_build_depths(struct assoc_build *b, struct prio_error *err);


#endif
