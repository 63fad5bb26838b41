/* SPDX-License-Identifier: MIT */
/*
 * Limits from an association's dump text (acct_limits.h).  The dump loader has
 * checked the counts; the TRES lists are read here, when the forecast
 * needs them.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "prio/acct_limits.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"
#include "prio/value.h"

void prio_limits_init(struct prio_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->grp_jobs = l->max_jobs = l->max_jobs_pu = l->max_jobs_pa =
	    PRIO_NO_VAL;
}

bool prio_limits_any(const struct prio_limits *l)
{
	return l->grp_jobs != PRIO_NO_VAL || l->max_jobs != PRIO_NO_VAL ||
	       l->max_jobs_pu != PRIO_NO_VAL || l->max_jobs_pa != PRIO_NO_VAL ||
	       l->grp_tres.count || l->max_tres_pu.count || l->max_tres_pa.count;
}

static bool key_is(const char *p, size_t n, const char *key)
{
	return strlen(key) == n && !strncasecmp(p, key, n);
}

/* Limits of the dump that change with time or usage: not modelled. */
static const char *const unmodelled_keys[] = {
    "GrpTRESMins", "GrpTRESRunMins", "GrpWall", "MaxTRESRunMins",
    "GrpCPUMins",  "GrpCPURunMins",  "MaxCPURunMins",
};

int prio_limits_from_dump(struct prio_snapshot *snap, const char *text,
			  struct prio_limits *l, const char **key,
			  const char **val, size_t *vlen, const char **why)
{
	prio_limits_init(l);
	for (const char *p = text; p && *p;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		const char *v = eq ? eq + 1 : p + len;
		size_t kn = eq ? (size_t)(eq - p) : len,
		       vn = (size_t)(p + len - v);
		bool clear = vn == 2 && !memcmp(v, "-1", 2);
		uint32_t *count = NULL;
		struct prio_tres_list *list = NULL;

		*val = v;
		*vlen = vn;
		if (key_is(p, kn, "GrpJobs"))
			count = &l->grp_jobs, *key = "GrpJobs";
		else if (key_is(p, kn, "MaxJobs"))
			count = &l->max_jobs, *key = "MaxJobs";
		else if (key_is(p, kn, "GrpTRES"))
			list = &l->grp_tres, *key = "GrpTRES";
		else if (!clear && !l->unmodelled)
			for (size_t k = 0; k < sizeof(unmodelled_keys) /
						   sizeof(*unmodelled_keys);
			     k++)
				if (key_is(p, kn, unmodelled_keys[k]))
					l->unmodelled = unmodelled_keys[k];
		if (count && !clear && prio_parse_uint32(v, vn, count) < 0) {
			*why = "expected an unsigned integer or -1";
			return -1;
		}
		if (list && !clear &&
		    prio_tres_list_parse(&snap->arena, &snap->tres, v, vn, list,
					 why) < 0)
			return -1;
		p = end ? end + 1 : p + len;
	}
	return 0;
}
