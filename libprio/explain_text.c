/* SPDX-License-Identifier: MIT */
/*
 * "Why is my job waiting?" in words (prio-calc --explain, prio-top's detail
 * screen): the explanation of explain.h as lines of text, each also carrying
 * its numbers (section, partition, item, value, weight, points) so that a
 * front end can print the text or make table rows of the same lines.
 *
 *   Job 36 (user ivan, account genomics, QOS normal) is PENDING, reason ...
 *   Partition short (PriorityTier 1):
 *     1. 9th of 11 pending jobs in short: 8 ahead of it; 17th in the whole
 *        queue.
 *     2. Priority 5865, the sum of its terms (factor x weight = points):
 *     3. Against job 44 (root), just ahead in short ...
 *     4. Behind the fairshare term: ... the path from root ...
 *     5. What would put it ahead of job 44: ...
 *   warning: factors switched off (weight 0): ...
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/explain_text.h"
#include "prio/timestr.h"

struct out {
	const struct prio_snapshot *snap;
	const struct prio_engine *e;
	prio_explain_line_fn fn;
	void *ctx;
	int stop; /* the callback's first non-zero return */
};

/* One line with its numbers (NAN: none). */
static void say(struct out *out, const char *section, const char *partition,
		const char *item, double value, double weight, double points,
		const char *fmt, ...) __attribute__((format(printf, 8, 9)));

static void say(struct out *out, const char *section, const char *partition,
		const char *item, double value, double weight, double points,
		const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	struct prio_explain_line l;

	if (out->stop)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	l = (struct prio_explain_line){section, partition, item, value,
				       weight,	points,	   text};
	out->stop = out->fn(out->ctx, &l);
}

static const char *str(const struct out *out, prio_id id)
{
	return prio_snapshot_str(out->snap, id);
}

static const char *dur(int64_t secs, char *buf, size_t size)
{
	return prio_secs2time_str(secs, buf, size);
}

static const char *ordinal(uint32_t n, char *buf, size_t size)
{
	const char *suf = "th";

	if (n % 100 < 11 || n % 100 > 13)
		suf = n % 10 == 1   ? "st"
		      : n % 10 == 2 ? "nd"
		      : n % 10 == 3 ? "rd"
				    : "th";
	snprintf(buf, size, "%u%s", n, suf);
	return buf;
}

/* "fairshare" or "tres cpu" */
static const char *term_name(const struct out *out, enum prio_factor f,
			     uint32_t tres, char *buf, size_t size)
{
	if (f == PRIO_FACTOR_TRES)
		snprintf(buf, size, "tres %s", out->snap->tres.names[tres]);
	else
		snprintf(buf, size, "%s", prio_factor_info(f)->name);
	return buf;
}

static void terms_lines(struct out *out, const char *pname,
			const struct prio_explain_terms *t)
{
	char name[96];

	for (uint32_t i = 0; i < t->n; i++) {
		const struct prio_explain_term *x = &t->t[i];

		term_name(out, x->factor, x->tres, name, sizeof(name));
		if (x->factor == PRIO_FACTOR_NICE ||
		    x->factor == PRIO_FACTOR_SITE)
			say(out, "term", pname, name, x->value, x->weight,
			    x->points, "     %-16s %12.0f x %8.0f = %12.2f",
			    name, x->value, x->weight, x->points);
		else
			say(out, "term", pname, name, x->value, x->weight,
			    x->points, "     %-16s %12.7f x %8.6g = %12.2f",
			    name, x->value, x->weight, x->points);
	}
	say(out, "sum", pname, "sum", NAN, NAN, t->sum,
	    "     %-16s %12s   %8s   %12.2f -> priority %u%s", "sum", "", "",
	    t->sum, t->row.priority,
	    t->row.clamped ? " (clamped to 32 bits)"
	    : t->sum < 1.0 ? " (a sum below 1 counts as 1)"
	    : (double)t->row.priority > t->sum + 1 ? " (INCR_ONLY: never below "
						     "the stored priority)"
						   : " (truncated)");
}

static void diff_lines(struct out *out, const char *pname, const char *section,
		       const struct prio_explain_diff *d, uint32_t n)
{
	char name[96];

	for (uint32_t i = 0; i < n; i++) {
		term_name(out, d[i].factor, d[i].tres, name, sizeof(name));
		if (d[i].factor == PRIO_FACTOR_NICE ||
		    d[i].factor == PRIO_FACTOR_SITE)
			say(out, section, pname, name, d[i].mine, NAN,
			    d[i].points,
			    "       %s: %.0f vs %.0f -> %+.0f points", name,
			    d[i].mine, d[i].theirs, d[i].points);
		else
			say(out, section, pname, name, d[i].mine, NAN,
			    d[i].points,
			    "       %s: %.4f vs %.4f -> %+.*f points", name,
			    d[i].mine, d[i].theirs,
			    fabs(d[i].points) < 10 ? 2 : 0, d[i].points);
	}
}

/* 3: one job to compare with, then the terms that differ. */
static void against(struct out *out, const char *pname, const char *section,
		    const char *lead, const struct prio_job *other,
		    const char *where, const struct prio_explain_terms *terms,
		    const struct prio_explain_diff *d, uint32_t n)
{
	say(out, section, pname, "job", other->job_id, NAN, NAN,
	    "%s Against job %u (%s), %s with priority %u:", lead, other->job_id,
	    str(out, other->user), where, terms->row.priority);
	diff_lines(out, pname, section, d, n);
}

/* 4: the reasons behind one factor. */
static void why_lines(struct out *out, const struct prio_explain *x,
		      const struct prio_explain_part *xp, const char *pname,
		      enum prio_factor f)
{
	const struct prio_snapshot *snap = out->snap;
	const struct prio_engine *e = out->e;
	const struct prio_job *job = x->job;
	char b1[64], b2[64], b3[64];

	switch (f) {
	case PRIO_FACTOR_FAIRSHARE:
		if (!x->fs_levels) {
			say(out, "why", pname, "fairshare", NAN, NAN, NAN,
			    "     fairshare: the job's association is not in "
			    "the tree");
			break;
		}
		say(out, "why", pname, "fairshare", x->jf.fairshare, NAN, NAN,
		    "     fairshare (%s): the path from root",
		    e->fs_algorithm == PRIO_FS_FAIR_TREE ? "Fair Tree"
		    : e->fs_algorithm == PRIO_FS_DEPTH_OBLIVIOUS
			? "DEPTH_OBLIVIOUS"
			: "classic");
		for (uint32_t k = 0; k < x->fs_levels; k++) {
			const struct prio_explain_fs_level *l = &x->fs_path[k];
			const struct prio_assoc *a = &snap->assocs[l->assoc];
			char who[256];

			if (a->is_user)
				snprintf(who, sizeof(who), "user %s",
					 str(out, a->user));
			else
				snprintf(who, sizeof(who), "account %s",
					 str(out, a->account));
			if (e->fs_algorithm == PRIO_FS_FAIR_TREE)
				say(out, "why", pname, who, l->level_fs, NAN,
				    NAN,
				    "       %*s%s: shares %.6f, usage %.6f, "
				    "Level FS %g, %s of %u",
				    (int)(2 * k), "", who, l->norm_shares,
				    l->usage_efctv, l->level_fs,
				    ordinal(l->place, b1, sizeof(b1)),
				    l->siblings);
			else
				say(out, "why", pname, who, NAN, NAN, NAN,
				    "       %*s%s: norm shares %.6f, effective "
				    "usage %.6f",
				    (int)(2 * k), "", who, l->norm_shares,
				    l->usage_efctv);
		}
		if (e->fs_algorithm == PRIO_FS_FAIR_TREE &&
		    x->assoc != PRIO_ASSOC_NONE)
			say(out, "why", pname, "rank", x->jf.fairshare, NAN,
			    NAN,
			    "       rank %u of %u user associations -> factor "
			    "%.6f",
			    e->fs[x->assoc].rank, snap->user_assoc_count,
			    x->jf.fairshare);
		else
			say(out, "why", pname, "factor", x->jf.fairshare, NAN,
			    NAN, "       factor 2^(-(usage/shares)/%u) = %.6f",
			    snap->conf.dampening_factor, x->jf.fairshare);
		break;
	case PRIO_FACTOR_AGE:
		if (!x->jf.accrue_time) {
			say(out, "why", pname, "age", 0, NAN, NAN,
			    "     age: the job does not accrue age yet");
			break;
		}
		say(out, "why", pname, "age", x->jf.age, NAN, NAN,
		    "     age: accruing since %s, waited %s of PriorityMaxAge "
		    "%s%s%s",
		    prio_timestamp_format(x->jf.accrue_time, b1, sizeof(b1)),
		    dur(x->age_waited, b2, sizeof(b2)),
		    dur(snap->conf.max_age, b3, sizeof(b3)),
		    x->age_capped ? ": capped" : "; the maximum in ",
		    x->age_capped ? "" : dur(x->age_to_max, b1, sizeof(b1)));
		break;
	case PRIO_FACTOR_JOBSIZE:
		say(out, "why", pname, "jobsize", x->jf.jobsize, NAN, NAN,
		    "     jobsize: %u of %u nodes, %u of %llu CPUs; %s",
		    job->min_nodes, e->nodes, x->jf.cpus,
		    (unsigned long long)e->cluster_cpus,
		    (e->flags & PRIO_FLAG_SIZE_RELATIVE)
			? (snap->conf.favor_small
			       ? "SMALL_RELATIVE_TO_TIME and "
				 "PriorityFavorSmall: "
				 "fewer CPUs per minute of time limit rank "
				 "higher"
			       : "SMALL_RELATIVE_TO_TIME: more CPUs per minute "
				 "of time limit rank higher")
		    : snap->conf.favor_small
			? "PriorityFavorSmall=YES: smaller jobs rank higher"
			: "PriorityFavorSmall=NO: larger jobs rank higher");
		break;
	case PRIO_FACTOR_PARTITION:
		say(out, "why", pname, "partition",
		    xp->terms.row.partition_factor, NAN, NAN,
		    "     partition: PriorityJobFactor %u of the highest "
		    "%.0f%s",
		    snap->partitions[xp->partition].job_factor, e->part_max,
		    (e->flags & PRIO_FLAG_NO_NORMAL_PART) ? " (NO_NORMAL_PART: "
							    "not normalised)"
							  : "");
		break;
	case PRIO_FACTOR_QOS: {
		const struct prio_qos *q =
		    job->qos != PRIO_NO_ID ? prio_snapshot_qos(snap, job->qos)
					   : NULL;
		say(out, "why", pname, "qos", x->jf.qos, NAN, NAN,
		    "     qos: QOS %s has priority %u of the highest %.0f",
		    q ? str(out, q->name) : "(none)", q ? q->priority : 0,
		    e->qos_max);
		break;
	}
	case PRIO_FACTOR_ASSOC:
		say(out, "why", pname, "assoc", x->jf.assoc, NAN, NAN,
		    "     assoc: association priority %u of the highest %.0f",
		    x->assoc != PRIO_ASSOC_NONE
			? snap->assocs[x->assoc].priority_eff
			: 0,
		    e->assoc_max);
		break;
	case PRIO_FACTOR_NICE:
		say(out, "why", pname, "nice", (double)x->jf.nice, NAN, NAN,
		    "     nice: --nice=%lld takes %lld points off",
		    (long long)x->jf.nice, (long long)x->jf.nice);
		break;
	case PRIO_FACTOR_TRES:
		for (uint32_t k = 0; k < e->tres_count; k++) {
			const struct prio_partition *p =
			    &snap->partitions[xp->partition];
			uint32_t t = e->tres[k];

			say(out, "why", pname, snap->tres.names[t], NAN, NAN,
			    NAN, "     tres %s: %llu of %llu in %s",
			    snap->tres.names[t],
			    (unsigned long long)prio_job_tres_count(job, t),
			    (unsigned long long)(p->tres_total &&
							 t < p->tres_count
						     ? p->tres_total[t]
						     : 0),
			    pname);
		}
		break;
	case PRIO_FACTOR_SITE:
	case PRIO_FACTOR_COUNT:
		break;
	}
}

static void change_lines(struct out *out, const struct prio_explain *x,
			 const struct prio_explain_part *xp, const char *pname)
{
	const struct prio_snapshot *snap = out->snap;
	char b1[64];

	if (!xp->ahead)
		return;
	say(out, "change", pname, NULL, NAN, NAN, NAN,
	    "  5. What would put it ahead of job %u:", xp->ahead->job_id);
	if (out->e->weight[PRIO_FACTOR_AGE] && x->jf.accrue_time) {
		if (xp->age_helps)
			say(out, "change", pname, "age", (double)xp->age_wait,
			    NAN, NAN,
			    "     waiting: %s more (age alone, everything else "
			    "unchanged)",
			    dur(xp->age_wait, b1, sizeof(b1)));
		else
			say(out, "change", pname, "age", NAN, NAN, NAN,
			    "     waiting: not on its own (both jobs age alike "
			    "until PriorityMaxAge)");
	}
	if (xp->fs_searched) {
		if (xp->fs_helps) {
			say(out, "change", pname, "fairshare",
			    xp->fs_usage_needed, NAN, NAN,
			    "     usage: its association's RawUsage %.0f would "
			    "have to fall to %.0f (fairshare %.6f)",
			    xp->fs_usage_now, xp->fs_usage_needed,
			    xp->fs_factor_needed);
		} else if (xp->fs_usage_now > 0) {
			say(out, "change", pname, "fairshare", NAN, NAN, NAN,
			    "     usage: not even with no usage at all");
		} else {
			say(out, "change", pname, "fairshare", NAN, NAN, NAN,
			    "     usage: its association has no usage to give "
			    "up");
		}
	}
	if (xp->time_searched) {
		char when[32];

		if (xp->time_helps)
			say(out, "change", pname, "time",
			    (double)(xp->time_at - out->e->now), NAN, NAN,
			    "     time: at the calculation of %s (in %s), with "
			    "usage decaying and running jobs charging as --at "
			    "computes them",
			    prio_timestamp_format(xp->time_at, when,
						  sizeof(when)),
			    dur(xp->time_at - out->e->now, b1, sizeof(b1)));
		else
			say(out, "change", pname, "time", NAN, NAN, NAN,
			    "     time: not by %s, when no running job is left "
			    "and both ages are capped (after that decay moves "
			    "no ratio)",
			    prio_timestamp_format(xp->time_settled, when,
						  sizeof(when)));
	}
	for (uint32_t k = 0; k < xp->nalts; k++) {
		const struct prio_explain_alt *a = &xp->alts[k];
		const char *kind =
		    a->kind == PRIO_ALT_QOS ? "qos" : "partition";
		const char *name =
		    a->kind == PRIO_ALT_QOS
			? str(out, snap->qos[a->index].name)
			: str(out, snap->partitions[a->index].name);

		say(out, "change", pname, kind, (double)a->priority, NAN, NAN,
		    "     %s %s: priority %u, %s in %s", kind, name,
		    a->priority, ordinal(a->part_rank, b1, sizeof(b1)),
		    str(out, snap->partitions[a->partition].name));
	}
}

static void warnings(struct out *out, const struct prio_explain *x)
{
	const struct prio_engine *e = out->e;
	const struct prio_config *conf = &out->snap->conf;
	static const enum prio_factor fs[] = {
	    PRIO_FACTOR_AGE,	 PRIO_FACTOR_ASSOC,	PRIO_FACTOR_FAIRSHARE,
	    PRIO_FACTOR_JOBSIZE, PRIO_FACTOR_PARTITION, PRIO_FACTOR_QOS};
	char off[256] = "";

	for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
		if (e->weight[fs[k]])
			continue;
		size_t len = strlen(off);
		snprintf(off + len, sizeof(off) - len, "%s%s", len ? ", " : "",
			 prio_factor_info(fs[k])->name);
	}
	if (!e->tres_count) {
		size_t len = strlen(off);
		snprintf(off + len, sizeof(off) - len, "%stres",
			 len ? ", " : "");
	}
	if (*off)
		say(out, "warning", NULL, "disabled", NAN, NAN, NAN,
		    "warning: factors switched off (weight 0): %s", off);
	if (e->no_dbd && (conf->weight_age || conf->weight_fairshare))
		say(out, "warning", NULL, "no-slurmdbd", NAN, NAN, NAN,
		    "warning: AccountingStorageType is not slurmdbd: Slurm "
		    "ignores PriorityWeightAge and PriorityWeightFairshare");
	if (x->age_capped && e->weight[PRIO_FACTOR_AGE])
		say(out, "warning", NULL, "age-capped", 1, NAN, NAN,
		    "warning: age is capped: the job has waited PriorityMaxAge "
		    "or more");
	if (x->jf.jobsize >= 1.0 && e->weight[PRIO_FACTOR_JOBSIZE])
		say(out, "warning", NULL, "jobsize-capped", 1, NAN, NAN,
		    "warning: job size is at its maximum of 1");
	for (uint32_t k = 0; k < x->nparts; k++)
		if (x->parts[k].terms.row.clamped)
			say(out, "warning", NULL, "clamped", NAN, NAN, NAN,
			    "warning: the priority exceeds 32 bits and is "
			    "clamped to 4294967295");
}

static void explain_text(struct out *out, const struct prio_explain *x)
{
	const struct prio_snapshot *snap = out->snap;
	const struct prio_job *job = x->job;
	const char *reason = str(out, job->reason);
	char b1[64], b2[64], flags[256], where[128];

	/* a job that is not pending waits for nothing: no reason to give
	 * when Slurm has none ("None") */
	bool waits = job->state == PRIO_JOB_PENDING ||
		     (*reason && strcmp(reason, "None") != 0);

	say(out, "job", NULL, "job", (double)job->job_id, NAN, NAN,
	    "Job %u (user %s, account %s, QOS %s) is %s%s%s%s%s.",
	    job->job_id, str(out, job->user), str(out, job->account),
	    job->qos != PRIO_NO_ID ? str(out, job->qos) : "(null)",
	    prio_job_state_name(job->state), waits ? ", reason " : "",
	    waits ? (*reason ? reason : "(none)") : "",
	    x->reason_meaning ? ": " : "",
	    x->reason_meaning ? x->reason_meaning : "");
	if (prio_job_qos_list(job)) {
		const struct prio_job_qos_list *l = prio_job_qos_list(job);
		char names[256];
		size_t len = 0;

		names[0] = '\0';
		for (uint32_t k = 0; k < l->count; k++) {
			int m =
			    snprintf(names + len, sizeof(names) - len, "%s%s",
				     k ? ", " : "", str(out, l->ids[k]));

			if (m < 0 || (size_t)m >= sizeof(names) - len)
				break;
			len += (size_t)m;
		}
		say(out, "job", NULL, "qos-list", (double)l->count, NAN, NAN,
		    "It has several QOS (%s; highest priority first): sprio "
		    "and the queue have a row for each, and what follows is "
		    "that of the first.",
		    names);
	}
	say(out, "job", NULL, "clock", (double)out->e->now, NAN, NAN,
	    "Priority at %s, PriorityFlags %s.",
	    prio_timestamp_format(out->e->now, b1, sizeof(b1)),
	    prio_priority_flags_format(out->e->flags, flags, sizeof(flags)));
	if (!x->listed)
		say(out, "job", NULL, "unlisted", NAN, NAN, NAN,
		    "It is not in sprio's list nor in the queue: %s. Its "
		    "priority would be:",
		    x->unlisted);
	for (uint32_t k = 0; k < x->nparts; k++) {
		const struct prio_explain_part *xp = &x->parts[k];
		const char *pname =
		    str(out, snap->partitions[xp->partition].name);

		say(out, "part", pname, NULL, NAN, NAN, NAN, "%s", "");
		say(out, "part", pname, "tier",
		    snap->partitions[xp->partition].tier, NAN, NAN,
		    "Partition %s (PriorityTier %u):", pname,
		    snap->partitions[xp->partition].tier);
		if (xp->queued)
			say(out, "place", pname, "part_rank", xp->part_rank,
			    NAN, NAN,
			    "  1. %s of %u pending jobs in %s: %u ahead of it; "
			    "%s in the whole queue.",
			    ordinal(xp->part_rank, b1, sizeof(b1)),
			    xp->part_total, pname, xp->part_rank - 1,
			    ordinal(xp->rank, b2, sizeof(b2)));
		say(out, "sum", pname, NULL, NAN, NAN, NAN,
		    "  2. Priority %u, the sum of its terms (factor x weight = "
		    "points):",
		    xp->terms.row.priority);
		terms_lines(out, pname, &xp->terms);
		if (xp->ahead) {
			snprintf(where, sizeof(where), "just ahead in %s",
				 pname);
			against(out, pname, "ahead", "  3.", xp->ahead, where,
				&xp->ahead_terms, xp->ahead_diff,
				xp->ahead_ndiff);
			if (!xp->ahead_ndiff)
				say(out, "ahead", pname, NULL, NAN, NAN, NAN,
				    "       same priority: it was submitted "
				    "earlier");
		}
		if (xp->ahead_all) {
			const struct prio_partition *ap =
			    &snap->partitions[xp->ahead_all_partition];
			const struct prio_partition *mp =
			    &snap->partitions[xp->partition];
			bool tiers = ap->tier != mp->tier;

			snprintf(where, sizeof(where),
				 "just ahead in the whole queue (%s)",
				 str(out, ap->name));
			against(out, pname, "ahead_all", "    ", xp->ahead_all,
				where, &xp->ahead_all_terms, xp->ahead_all_diff,
				tiers ? 0 : xp->ahead_all_ndiff);
			if (tiers)
				say(out, "ahead_all", pname, "tier", ap->tier,
				    NAN, NAN,
				    "       %s has PriorityTier %u, above %u: "
				    "its "
				    "jobs come first whatever their priority",
				    str(out, ap->name), ap->tier, mp->tier);
		}
		if (xp->top) {
			snprintf(where, sizeof(where), "first in %s", pname);
			against(out, pname, "top", "    ", xp->top, where,
				&xp->top_terms, xp->top_diff, xp->top_ndiff);
		}
		if (xp->queued && !xp->ahead)
			say(out, "ahead", pname, NULL, NAN, NAN, NAN,
			    "  3. No pending job is ahead of it in %s.", pname);
		/* 4: the largest term against the job ahead in the partition
		 * and in the whole queue, else its own largest term */
		enum prio_factor big = PRIO_FACTOR_COUNT,
				 big_all = PRIO_FACTOR_COUNT;
		if (xp->ahead_ndiff && xp->ahead_diff[0].points < 0)
			big = xp->ahead_diff[0].factor;
		else if (!xp->ahead) {
			double best = 0;
			for (uint32_t i = 0; i < xp->terms.n; i++)
				if (fabs(xp->terms.t[i].points) > best) {
					best = fabs(xp->terms.t[i].points);
					big = xp->terms.t[i].factor;
				}
		}
		if (xp->ahead_all && xp->ahead_all_ndiff &&
		    xp->ahead_all_diff[0].points < 0 &&
		    snap->partitions[xp->ahead_all_partition].tier ==
			snap->partitions[xp->partition].tier)
			big_all = xp->ahead_all_diff[0].factor;
		if (big_all == big)
			big_all = PRIO_FACTOR_COUNT;
		for (int pass = 0; pass < 2; pass++) {
			enum prio_factor f = pass ? big_all : big;

			if (f == PRIO_FACTOR_COUNT)
				continue;
			say(out, "why", pname, NULL, NAN, NAN, NAN,
			    "  %s Behind the %s term%s:",
			    pass && big != PRIO_FACTOR_COUNT ? "  " : "4.",
			    prio_factor_info(f)->name,
			    pass ? " (against the whole queue)" : "");
			why_lines(out, x, xp, pname, f);
		}
		change_lines(out, x, xp, pname);
	}
	say(out, "part", NULL, NULL, NAN, NAN, NAN, "%s", "");
	warnings(out, x);
}

int prio_explain_render(const struct prio_engine *e,
			const struct prio_explain *x, prio_explain_line_fn fn,
			void *ctx)
{
	struct out out = {e->snap, e, fn, ctx, 0};

	explain_text(&out, x);
	return out.stop;
}

/* ---- the whole text in one string ---------------------------------------- */

int prio_explain_text_line(void *ctx, const struct prio_explain_line *l)
{
	struct prio_explain_text_buf *b = ctx;
	size_t n = strlen(l->text);

	if (b->len + n + 2 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 2)
			cap *= 2;
		if (!(p = realloc(b->s, cap))) {
			b->nomem = true;
			return 1;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, l->text, n);
	b->len += n;
	b->s[b->len++] = '\n';
	b->s[b->len] = '\0';
	return 0;
}

char *prio_explain_text(const struct prio_engine *e,
			const struct prio_explain *x)
{
	struct prio_explain_text_buf b = {NULL, 0, 0, false};

	prio_explain_render(e, x, prio_explain_text_line, &b);
	if (b.nomem) {
		free(b.s);
		return NULL;
	}
	return b.s ? b.s : calloc(1, 1);
}
