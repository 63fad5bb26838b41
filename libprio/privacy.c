/* SPDX-License-Identifier: MIT */
/*
 * PrivateData and partial snapshots (see prio/privacy.h).  How Slurm hides
 * (slurm.conf(5), PrivateData; 24.11's assoc_mgr_get_shares and
 * _hide_job_user_rec, read to learn the rule):
 *  - "usage": sshare shows a user who is not root, SlurmUser, an Operator
 *    or an Administrator only their own user associations (and those of
 *    accounts they coordinate): no root row, no other user;
 *  - "jobs": squeue, scontrol show job and sprio list only the user's own
 *    jobs (and those of accounts they coordinate); without slurmdbd, sacct
 *    too (with slurmdbd its own PrivateData decides, which a snapshot does
 *    not carry: the controller's is taken as its likeness);
 *  - "accounts", "users", "events", "reservations", "nodes",
 *    "partitions": nothing the computations here read from sshare, the
 *    queue or sacct (hidden nodes or partitions leave their files empty,
 *    which the loaders refuse).
 * The value is matched as Slurm matches it: a substring each, "all" for
 * everything.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prio/privacy.h"
#include "prio/snapshot.h"

unsigned prio_private_data_flags(const char *value)
{
	static const struct {
		const char *stem;
		unsigned flag;
	} stems[] = {
		{ "account", PRIO_PRIVATE_ACCOUNTS },
		{ "event", PRIO_PRIVATE_EVENTS },
		{ "job", PRIO_PRIVATE_JOBS },
		{ "node", PRIO_PRIVATE_NODES },
		{ "partition", PRIO_PRIVATE_PARTITIONS },
		{ "reservation", PRIO_PRIVATE_RESERVATIONS },
		{ "usage", PRIO_PRIVATE_USAGE },
		{ "user", PRIO_PRIVATE_USERS },
	};
	unsigned flags = 0;

	if (!value)
		return 0;
	for (size_t i = 0; i < sizeof(stems) / sizeof(stems[0]); i++)
		if (strcasestr(value, stems[i].stem))
			flags |= stems[i].flag;
	if (strcasestr(value, "all"))
		flags = ~0u;
	return flags;
}

static const char *const role_names[] = {
	[PRIO_CAPTURER_UNKNOWN] = "unknown",
	[PRIO_CAPTURER_NONE] = "None",
	[PRIO_CAPTURER_OPERATOR] = "Operator",
	[PRIO_CAPTURER_ADMINISTRATOR] = "Administrator",
	[PRIO_CAPTURER_SLURMUSER] = "SlurmUser",
	[PRIO_CAPTURER_ROOT] = "root",
};

const char *prio_capturer_role_name(enum prio_capturer_role role)
{
	return (unsigned)role < sizeof(role_names) / sizeof(role_names[0])
		   ? role_names[role]
		   : "unknown";
}

int prio_privacy_manifest_line(struct prio_snapshot *snap, const char *text,
			       size_t len)
{
	const char *name, *tab;
	size_t nlen, rlen;

	if (len < 5 || memcmp(text, "user\t", 5) != 0)
		return 0;
	name = text + 5;
	tab = memchr(name, '\t', len - 5);
	nlen = tab ? (size_t)(tab - name) : len - 5;
	if (!nlen || nlen >= sizeof(snap->capturer))
		return 1; /* no usable name: the capturer stays unknown */
	memcpy(snap->capturer, name, nlen);
	snap->capturer[nlen] = '\0';
	snap->capturer_role = PRIO_CAPTURER_UNKNOWN;
	if (!tab)
		return 1;
	rlen = len - 5 - nlen - 1;
	for (unsigned r = 1; r < sizeof(role_names) / sizeof(role_names[0]); r++)
		if (strlen(role_names[r]) == rlen &&
		    strncasecmp(role_names[r], tab + 1, rlen) == 0)
			snap->capturer_role = (uint8_t)r;
	return 1;
}

/* Root, SlurmUser, Operators and Administrators see everything. */
static bool capturer_privileged(const struct prio_snapshot *snap)
{
	return snap->capturer_role >= PRIO_CAPTURER_OPERATOR;
}

static unsigned private_flags(const struct prio_snapshot *snap)
{
	const struct prio_conf_kv *kv =
	    prio_config_find(&snap->conf, "PrivateData");

	return kv ? prio_private_data_flags(kv->value) : 0;
}

/* "alice (AdminLevel None)": who the configuration hid things from */
static const char *capturer_text(const struct prio_snapshot *snap,
				 char *buf, size_t size)
{
	if (!*snap->capturer)
		snprintf(buf, size, "the capturing user (MANIFEST does not "
				    "name one)");
	else
		snprintf(buf, size, "%s (AdminLevel %s)", snap->capturer,
			 snap->capturer_role == PRIO_CAPTURER_UNKNOWN
			     ? "not recorded"
			     : prio_capturer_role_name(snap->capturer_role));
	return buf;
}

/* The configuration hides `flag` from the capturer. */
static bool config_hides(const struct prio_snapshot *snap, unsigned flag)
{
	return (private_flags(snap) & flag) && !capturer_privileged(snap);
}

bool prio_privacy_withhold_usage(struct prio_snapshot *snap, const char *name)
{
	if (snap->assume_complete || !config_hides(snap, PRIO_PRIVATE_USAGE))
		return false;
	if (!*snap->usage_withheld)
		snprintf(snap->usage_withheld, sizeof(snap->usage_withheld),
			 "%s", name);
	return true;
}

/* Running minutes sshare printed for an association (TRESRunMins cpu=N):
 * the association has jobs running now. */
static bool assoc_running(const struct prio_assoc *a)
{
	const char *t = a->slurm.tres_run_mins, *p;

	if (!t || !(p = strstr(t, "cpu=")))
		return false;
	return strtoull(p + 4, NULL, 10) > 0;
}

static bool job_active(const struct prio_job *job)
{
	return prio_job_state_pending(job->state) ||
	       prio_job_state_allocated(job->state);
}

/* The one user among the queue's live jobs (PRIO_NO_ID when none or
 * several: *several tells which). */
static prio_id queue_single_user(const struct prio_snapshot *snap,
				 bool *several)
{
	prio_id one = PRIO_NO_ID;

	*several = false;
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];

		if (!job_active(job) || job->user == PRIO_NO_ID)
			continue;
		if (one != PRIO_NO_ID && job->user != one) {
			*several = true;
			return PRIO_NO_ID;
		}
		one = job->user;
	}
	return one;
}

/* The queue is visibly partial: its live jobs are one user's (or none)
 * while sshare shows another user with jobs running now. */
static const char *jobs_visibly_partial(const struct prio_snapshot *snap,
					char *buf, size_t size)
{
	bool several;
	prio_id one = queue_single_user(snap, &several);

	if (several || !snap->have_config)
		return NULL;
	for (uint32_t i = 0; i < snap->assoc_count; i++) {
		const struct prio_assoc *a = &snap->assocs[i];

		if (!a->is_user || a->user == one || !assoc_running(a))
			continue;
		if (one == PRIO_NO_ID)
			snprintf(buf, size,
				 "the queue holds no live job while sshare "
				 "shows %s running (TRESRunMins)",
				 prio_snapshot_str(snap, a->user));
		else
			snprintf(buf, size,
				 "the queue holds only %s's jobs while sshare "
				 "shows %s running (TRESRunMins)",
				 prio_snapshot_str(snap, one),
				 prio_snapshot_str(snap, a->user));
		return buf;
	}
	return NULL;
}

/* sacct is visibly partial: its records are one user's while the queue
 * has another user's job running now (sacct -a lists running jobs). */
static const char *history_visibly_partial(const struct prio_snapshot *snap,
					   char *buf, size_t size)
{
	prio_id one = PRIO_NO_ID;

	if (!snap->sacct_count)
		return NULL;
	for (uint32_t i = 0; i < snap->sacct_count; i++) {
		prio_id u = snap->sacct[i].user;

		if (u == PRIO_NO_ID)
			continue;
		if (one != PRIO_NO_ID && u != one)
			return NULL;
		one = u;
	}
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];

		if (job->state != PRIO_JOB_RUNNING || job->user == one ||
		    job->user == PRIO_NO_ID)
			continue;
		snprintf(buf, size,
			 "sacct holds only %s's records while %s's job %u "
			 "runs",
			 one != PRIO_NO_ID ? prio_snapshot_str(snap, one)
					   : "no user",
			 prio_snapshot_str(snap, job->user), job->job_id);
		return buf;
	}
	return NULL;
}

/* Each view: the input that holds it, the PrivateData value that hides
 * it from an ordinary user, and how its partiality shows in the data. */
static const struct view_rule {
	enum prio_role role;
	unsigned hidden_by;
	const char *setting, *what;
	const char *(*visibly_partial)(const struct prio_snapshot *snap,
				       char *buf, size_t size);
} view_rules[PRIO_VIEW_COUNT] = {
	[PRIO_VIEW_USAGE] = { PRIO_ROLE_ASSOC, PRIO_PRIVATE_USAGE, "usage",
			      "usage", NULL },
	[PRIO_VIEW_JOBS] = { PRIO_ROLE_JOBS, PRIO_PRIVATE_JOBS, "jobs", "jobs",
			     jobs_visibly_partial },
	[PRIO_VIEW_HISTORY] = { PRIO_ROLE_SACCT, PRIO_PRIVATE_JOBS, "jobs",
				"sacct records", history_visibly_partial },
};

const char *prio_privacy_view_partial(const struct prio_snapshot *snap,
				      enum prio_view view, char *buf,
				      size_t size)
{
	const struct view_rule *r;
	/* the loader left sshare unread when the configuration hides other
	 * users' usage; a partial sshare read anyway (no PrivateData in the
	 * configuration) lacks its root row and the loader refuses it */
	const char *withheld = view == PRIO_VIEW_USAGE ? snap->usage_withheld : "";
	char who[160];

	if (snap->assume_complete || (unsigned)view >= PRIO_VIEW_COUNT)
		return NULL;
	r = &view_rules[view];
	if (*withheld || ((snap->roles_loaded & (1u << r->role)) &&
			  config_hides(snap, r->hidden_by))) {
		snprintf(buf, size, "%s%sPrivateData=%s hides other users' %s "
				    "from %s",
			 withheld, *withheld ? " not read: " : "", r->setting,
			 r->what, capturer_text(snap, who, sizeof(who)));
		return buf;
	}
	if (!(snap->roles_loaded & (1u << r->role)) || !r->visibly_partial)
		return NULL;
	return r->visibly_partial(snap, buf, size);
}

/*
 * The rule: which output needs which views complete.  A priority adds
 * the FAIRSHARE term only when its weight is not 0, so ranks need the
 * usage only then; the ASSOC factor needs the tree, which is gone only
 * when the sshare input was withheld and no sacctmgr dump stands in.
 */
const char *prio_privacy_blocked(const struct prio_snapshot *snap,
				 enum prio_needs need, char *buf, size_t size)
{
	bool fairshare_weighs = snap->conf.weight_fairshare != 0;
	bool assoc_weighs = snap->conf.weight_assoc != 0;

	switch (need) {
	case PRIO_NEEDS_FAIRSHARE:
		return prio_privacy_view_partial(snap, PRIO_VIEW_USAGE, buf,
						 size);
	case PRIO_NEEDS_ASSOC:
		if (snap->assoc_count)
			return NULL;
		return prio_privacy_view_partial(snap, PRIO_VIEW_USAGE, buf,
						 size);
	case PRIO_NEEDS_RANK: {
		const char *why =
		    prio_privacy_view_partial(snap, PRIO_VIEW_JOBS, buf, size);

		if (!why && fairshare_weighs)
			why = prio_privacy_blocked(snap, PRIO_NEEDS_FAIRSHARE,
						   buf, size);
		if (!why && assoc_weighs)
			why = prio_privacy_blocked(snap, PRIO_NEEDS_ASSOC, buf,
						   size);
		return why;
	}
	case PRIO_NEEDS_PREEMPT:
		return prio_privacy_view_partial(snap, PRIO_VIEW_JOBS, buf,
						 size);
	case PRIO_NEEDS_ROLLUP:
		return prio_privacy_view_partial(snap, PRIO_VIEW_HISTORY, buf,
						 size);
	case PRIO_NEEDS_ADVANCE:
		return prio_privacy_view_partial(snap, PRIO_VIEW_JOBS, buf,
						 size);
	case PRIO_NEEDS_REPLAY: {
		const char *why = prio_privacy_view_partial(
		    snap, PRIO_VIEW_HISTORY, buf, size);

		return why ? why
			   : prio_privacy_view_partial(snap, PRIO_VIEW_JOBS,
						       buf, size);
	}
	default:
		return NULL;
	}
}
