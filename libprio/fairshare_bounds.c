/* SPDX-License-Identifier: MIT */
/*
 * How far Slurm's printed fairshare values may lie from ours when the usage
 * we start from was truncated: sshare prints RawUsage as an integer
 * (slurm-facts §7), so each association's true usage is somewhere in
 * [RawUsage, RawUsage + 1).  Audits and the oracle tests accept a value of
 * Slurm's when it lies in the interval these bounds give.
 *
 * Interval arithmetic over the formulas of fairshare.c, walked in the same
 * pre-order (a parent's interval is known before its children's):
 *  - NormUsage u / root, Fair Tree's U = u / fs-parent u: lowest with the
 *    numerator at its low end and the denominator at its high end;
 *  - Level FS = S / U (S exact);
 *  - classic UE = (1 - k) UN + k UE_parent with k = shares / level_shares in
 *    [0, 1]: increasing in both, so the ends come from the ends;
 *  - DEPTH_OBLIVIOUS UE = ratio_p * ratio_l^k(ratio_p) * SN is increasing in
 *    ratio_p and in ratio_l (k only depends on ratio_p and is 1 wherever
 *    ln ratio_p and ln ratio_l share a sign, so the function is continuous
 *    and d ln UE / d ratio_p > 0 in both regions);
 *  - F = 2^(-UE/SN/D) is decreasing in UE.
 * Fair Tree's FairShare is a rank: exact.  The ticket-based factor depends
 * on every active branch at once and gets [0, 1].
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare_tree.h"
#include "prio/fairshare.h"

/* [a / (b + s), (a + s) / b] for a true ratio (a..a+s) / (b..b+s), where
 * the numerator is part of the denominator (so the ratio is at most 1). */
static void ratio_bounds(long double a, long double b, double s, double out[2])
{
	long double lo, hi;

	if (b + s <= 0) {
		out[0] = out[1] = 0.0;
		return;
	}
	lo = a / (b + s);
	hi = b > 0 ? (a + s) / b : 1.0L;
	if (hi > 1.0L)
		hi = 1.0L;
	if (hi < lo)
		hi = lo;
	out[0] = (double)lo;
	out[1] = (double)hi;
}

static void exact(double v, double out[2])
{
	out[0] = out[1] = v;
}

static double classic_factor(double ue, double sn, double damp)
{
	return sn <= 0 ? 0.0 : pow(2.0, -(ue / sn) / damp);
}

static double depth_oblivious_f(double rp, double rl)
{
	double k = 1.0;

	if (rp <= 0 || rl <= 0)
		return 0.0;
	if (isinf(rl))
		return INFINITY;
	if (log(rp) * log(rl) < 0) {
		double f = 5.0 * log(rp);

		k = 1.0 / (1.0 + f * f);
	}
	return rp * pow(rl, k);
}

/* DEPTH_OBLIVIOUS sibling sums at the low ends (sib[0]) and the high ends
 * (sib[1]) of every input interval. */
static int sibling_bounds(const struct prio_snapshot *snap,
			  const struct fs_tree *t,
			  const struct prio_fs_bounds *b,
			  const struct prio_fs_lag *lag, long double *sib[2])
{
	long double *buf = calloc(6 * (size_t)t->n, sizeof(*buf));
	uint32_t *first = lag ? malloc((size_t)t->n * sizeof(*first)) : NULL;

	sib[0] = calloc(t->n, sizeof(*sib[0]));
	sib[1] = calloc(t->n, sizeof(*sib[1]));
	if (!buf || !sib[0] || !sib[1] || (lag && !first)) {
		free(buf);
		free(first);
		return PRIO_ERR_NOMEM;
	}
	if (lag)
		fs_first_pending_job(snap, first);
	for (int end = 0; end < 2; end++) {
		long double *now = buf + (size_t)(3 * end) * t->n,
			    *p1 = now + t->n, *p2 = p1 + t->n;
		struct fs_sib_inputs in = {now, lag ? p1 : NULL,
					   lag ? p2 : NULL, first, NULL};
		const long double *prev2 =
		    lag && lag->prev2_usage ? lag->prev2_usage : NULL;

		for (uint32_t i = 1; i < t->n; i++) {
			double r[2];

			now[i] = b[i].usage_norm[end];
			if (!lag)
				continue;
			ratio_bounds(lag->prev_usage[i], lag->prev_usage[0],
				     lag->prev_slack, r);
			p1[i] = r[end];
			if (prev2)
				ratio_bounds(prev2[i], prev2[0],
					     lag->prev2_slack, r);
			p2[i] = r[end];
		}
		if (fs_sibling_sums(snap, t, &in, sib[end]) < 0) {
			free(buf);
			free(first);
			return PRIO_ERR_NOMEM;
		}
	}
	free(buf);
	free(first);
	return PRIO_OK;
}

int prio_fairshare_bounds(const struct prio_snapshot *snap,
			  enum prio_fs_algorithm algorithm,
			  const struct prio_fs_result *res, double slack,
			  const struct prio_fs_lag *lag,
			  struct prio_fs_bounds *out, struct prio_error *err)
{
	const long double *prev =
	    lag && algorithm != PRIO_FS_FAIR_TREE ? lag->prev_usage : NULL;
	const struct prio_assoc *as = snap->assocs;
	double damp =
	    snap->conf.dampening_factor ? snap->conf.dampening_factor : 1;
	long double *sib[2] = {NULL, NULL};
	struct fs_tree t;
	int rc;

	if ((rc = fs_tree_build(snap, &t, err)) < 0)
		return rc;
	for (uint32_t i = 0; i < t.n; i++) {
		struct prio_fs_bounds *b = &out[i];

		exact(res[i].level_fs, b->level_fs);
		exact(res[i].fairshare, b->fairshare);
		exact((double)res[i].usage_efctv, b->usage_efctv);
		if (i == 0)
			exact(NAN, b->usage_norm);
		else if (prev && !as[i].is_user)
			ratio_bounds(prev[i], prev[0], lag->prev_slack,
				     b->usage_norm);
		else
			ratio_bounds(as[i].usage_raw, as[0].usage_raw, slack,
				     b->usage_norm);
	}
	if (algorithm == PRIO_FS_DEPTH_OBLIVIOUS &&
	    (rc = sibling_bounds(snap, &t, out, prev ? lag : NULL, sib)) < 0) {
		fs_tree_free(&t);
		return prio_error_set(err, rc, "", 0, "", "out of memory");
	}
	for (uint32_t k = 1; k < t.n; k++) {
		uint32_t i = t.order[k], p = t.fs_parent[i];
		const struct prio_fs_result *r = &res[i];
		struct prio_fs_bounds *b = &out[i];
		double sn = r->norm_shares;

		switch (algorithm) {
		case PRIO_FS_FAIR_TREE:
			ratio_bounds(as[i].usage_raw, as[p].usage_raw, slack,
				     b->usage_efctv);
			if (fs_is_parent_shares(&as[i]) || sn == 0.0)
				break; /* infinity, NO_VAL or 0: no usage
					  involved */
			b->level_fs[0] = b->usage_efctv[1] > 0
					     ? sn / b->usage_efctv[1]
					     : INFINITY;
			b->level_fs[1] = b->usage_efctv[0] > 0
					     ? sn / b->usage_efctv[0]
					     : INFINITY;
			break;
		case PRIO_FS_CLASSIC:
		case PRIO_FS_DEPTH_OBLIVIOUS:
		case PRIO_FS_TICKET:
			if (p == 0) {
				memcpy(b->usage_efctv, b->usage_norm,
				       sizeof(b->usage_efctv));
			} else if (fs_is_parent_shares(&as[i]) ||
				   r->level_shares == 0) {
				memcpy(b->usage_efctv, out[p].usage_efctv,
				       sizeof(b->usage_efctv));
			} else if (algorithm == PRIO_FS_DEPTH_OBLIVIOUS &&
				   r->sibling_unset) {
				/* An unset sibling (2^32) swamps the sum: UE
				 * is ~1e-10 of SN, and the truncated usages
				 * move it by a relative 1/u + 1/R at most,
				 * far inside these ends. */
				b->usage_efctv[0] = 0.5 * (double)r->usage_efctv;
				b->usage_efctv[1] = 2.0 * (double)r->usage_efctv;
			} else if (algorithm == PRIO_FS_DEPTH_OBLIVIOUS) {
				double sn_p = res[p].norm_shares, lo, hi;
				const double *ue_p = out[p].usage_efctv,
					     *un = b->usage_norm;

				if (sn == 0 || sn_p == 0) {
					memcpy(b->usage_efctv, un,
					       sizeof(b->usage_efctv));
					break;
				}
				lo = depth_oblivious_f(
				    ue_p[0] / sn_p,
				    sib[1][i] > 0
					? (un[0] / sn) /
					      ((double)sib[1][i] / sn_p)
					: 0);
				hi = depth_oblivious_f(
				    ue_p[1] / sn_p,
				    sib[0][i] > 0
					? (un[1] / sn) /
					      ((double)sib[0][i] / sn_p)
					: INFINITY);
				lo *= sn;
				hi *= sn;
				/* Where a usage may be 0, Slurm falls back to
				 * UE = UN. */
				if (ue_p[0] == 0 || un[0] == 0) {
					lo = lo < un[0] ? lo : un[0];
					hi = hi > un[1] ? hi : un[1];
				}
				b->usage_efctv[0] = lo;
				b->usage_efctv[1] = hi;
			} else {
				double kk = (double)fs_shares_of(&as[i]) /
					    r->level_shares;

				b->usage_efctv[0] =
				    (1 - kk) * b->usage_norm[0] +
				    kk * out[p].usage_efctv[0];
				b->usage_efctv[1] =
				    (1 - kk) * b->usage_norm[1] +
				    kk * out[p].usage_efctv[1];
			}
			if (algorithm == PRIO_FS_TICKET) {
				double floor = 0.01 * sn;

				/* UE = max(UN, SN / 100) from the raw UN
				 * bounds. */
				b->usage_efctv[0] = b->usage_norm[0] > floor
							? b->usage_norm[0]
							: floor;
				b->usage_efctv[1] = b->usage_norm[1] > floor
							? b->usage_norm[1]
							: floor;
				if (!isnan(r->fairshare)) {
					b->fairshare[0] = 0.0;
					b->fairshare[1] = 1.0;
				}
				break;
			}
			b->fairshare[0] =
			    classic_factor(b->usage_efctv[1], sn, damp);
			b->fairshare[1] =
			    classic_factor(b->usage_efctv[0], sn, damp);
			break;
		}
	}
	free(sib[0]);
	free(sib[1]);
	fs_tree_free(&t);
	return PRIO_OK;
}
