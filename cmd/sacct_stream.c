/* SPDX-License-Identifier: MIT */
/* What the commands that stream the sacct file share (sacct_stream.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sacct_stream.h"

const char *cmd_sacct_stream_path(struct cmd_common *c, char *buf, size_t size)
{
	const unsigned sacct_role = 1u << PRIO_ROLE_SACCT;
	const char *path = c->paths[PRIO_ROLE_SACCT];
	bool other = c->snapshot_dir != NULL;

	for (int k = 0; k < PRIO_ROLE_COUNT; k++)
		other = other || (k != PRIO_ROLE_SACCT && c->paths[k]);
	if (!other || !(c->folder_roles & sacct_role))
		return NULL;
	for (const char *const *n = prio_snapshot_dir_names(PRIO_ROLE_SACCT);
	     !path && c->snapshot_dir && *n; n++) {
		struct stat st;

		snprintf(buf, size, "%s/%s", c->snapshot_dir, *n);
		if (stat(buf, &st) == 0)
			path = buf;
	}
	if (!path || strcmp(path, "-") == 0)
		return NULL;
	return path;
}

int cmd_load_but_sacct(struct cmd_common *c, struct prio_snapshot *snap)
{
	const unsigned sacct_role = 1u << PRIO_ROLE_SACCT;
	const char *given = c->paths[PRIO_ROLE_SACCT];
	unsigned roles = c->folder_roles;
	struct prio_error err;
	int rc;

	c->folder_roles = roles & ~sacct_role;
	c->paths[PRIO_ROLE_SACCT] = NULL;
	rc = cmd_load_snapshot_from(c, NULL, snap, &err);
	c->folder_roles = roles;
	c->paths[PRIO_ROLE_SACCT] = given;
	return rc;
}

void cmd_sacct_reps_init(struct cmd_sacct_reps *r)
{
	memset(r, 0, sizeof(*r));
	r->user1 = r->user2 = PRIO_NO_ID;
}

void cmd_sacct_reps_see(struct cmd_sacct_reps *r, const struct prio_sacct_rec *rec)
{
	bool keep = !r->n;

	if (rec->user != PRIO_NO_ID && r->user1 == PRIO_NO_ID) {
		r->user1 = rec->user;
		keep = true;
	} else if (rec->user != PRIO_NO_ID && rec->user != r->user1 &&
		   r->user2 == PRIO_NO_ID) {
		r->user2 = rec->user;
		keep = true;
	}
	if (rec->cluster && !r->have_cluster) {
		r->have_cluster = true;
		keep = true;
	}
	if (keep)
		r->rec[r->n++] = *rec;
}

void cmd_sacct_reps_store(const struct cmd_common *c, struct prio_snapshot *snap,
			  const struct cmd_sacct_reps *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct prio_sacct_rec *slot = prio_snapshot_new_sacct(snap);

		if (!slot)
			cmd_die(c, "out of memory");
		*slot = r->rec[i];
	}
}
