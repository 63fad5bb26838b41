/* SPDX-License-Identifier: MIT */
/*
 * The table of Slurm releases (prio/slurm_version.h).  Rows come from what
 * real clusters printed (22.05 and 24.11 on loopback, see tests/oracle/) and,
 * for releases not observed, from their release notes and tagged sources
 * (../shared/slurm-versions.md keeps the list).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>

#include "prio/slurm_version.h"

/*   release name     parser     ReqTRES sprio  sshare mf     grace  mqos   mtg    pmode  round  topP   nna    exempt
 *   then the preemption block: pparams sgrace */
/* clang-format off */
#define ROW(r, n, p, a, b, c, d, e, f, g, h, i, j, k, l, pp, sg)               \
	{ r, n, p, a, b, c, d, e, f, g, h, i, j, k, l, pp, sg, JOBSTATES(r) }
/* clang-format on */
/* --- job states (helper/multiqos) and the will-run test: by release, so
 * that the rows above stay as they are --- JobState=EXPEDITING (25.11),
 * the will-run test's bound (24.11) and its start at the last end it
 * needed (25.05) */
#define JOBSTATES(r) .job_state_expediting = (r) >= 2511,                     \
			 .assoc_lineage_order = (r) >= 2311,                   \
			 .will_run_bounded = (r) >= 2411,                      \
			 .will_run_last_relevant = (r) >= 2505
static const struct prio_slurm_release releases[] = {
    ROW(2205, "22.05", "v0.0.38", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    ROW(2302, "23.02", "v0.0.39", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0),
    ROW(2311, "23.11", "v0.0.40", 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    ROW(2405, "24.05", "v0.0.41", 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    ROW(2411, "24.11", "v0.0.42", 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1),
    ROW(2505, "25.05", "v0.0.43", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1),
    ROW(2511, "25.11", "v0.0.44", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1),
    ROW(2605, "26.05", "v0.0.45", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
};
#undef ROW
#undef JOBSTATES

#define NRELEASES (sizeof(releases) / sizeof(releases[0]))

const struct prio_slurm_release *prio_slurm_releases(size_t *n)
{
	*n = NRELEASES;
	return releases;
}

const struct prio_slurm_release *prio_slurm_release_of(uint16_t release)
{
	const struct prio_slurm_release *best = NULL;

	for (size_t i = 0; i < NRELEASES; i++)
		if (releases[i].release <= release)
			best = &releases[i];
	return best;
}

/* Digits at s[*i] as a number of at most 4 digits; -1 when none. */
static int number_at(const char *s, size_t n, size_t *i)
{
	int v = 0, digits = 0;

	while (*i < n && isdigit((unsigned char)s[*i]) && digits < 5) {
		v = v * 10 + (s[*i] - '0');
		(*i)++;
		digits++;
	}
	return digits == 0 || digits > 4 ? -1 : v;
}

int prio_slurm_version_parse(const char *s, size_t n, uint16_t *release)
{
	/* The first "YY.MM" in the text: "slurm 24.11.5" and the package
	 * spelling "24.11.5-4+deb13u1" both qualify; a word before it (no
	 * digits) is a program or package name. */
	for (size_t start = 0; start < n; start++) {
		size_t i = start;
		int major, minor;

		if (!isdigit((unsigned char)s[i]) ||
		    (start > 0 && (isdigit((unsigned char)s[start - 1]) ||
				   s[start - 1] == '.')))
			continue;
		major = number_at(s, n, &i);
		if (major < 0 || i >= n || s[i] != '.')
			continue;
		i++;
		if (i >= n || !isdigit((unsigned char)s[i]))
			continue;
		minor = number_at(s, n, &i);
		/* Slurm's releases are YY.MM since 14.03 */
		if (minor < 1 || minor > 12 || major < 14 || major > 99)
			return -1;
		*release = (uint16_t)(major * 100 + minor);
		return 0;
	}
	return -1;
}

const char *prio_slurm_version_name(uint16_t release, char *buf, size_t size)
{
	snprintf(buf, size, "%02u.%02u", (unsigned)(release / 100),
		 (unsigned)(release % 100));
	return buf;
}

const char *prio_slurm_version_source_name(enum prio_slurm_version_source src)
{
	switch (src) {
	case PRIO_VERSION_DEFAULT: return "default (newest supported)";
	case PRIO_VERSION_FORMAT: return "the artefacts' format";
	case PRIO_VERSION_MANIFEST: return "MANIFEST";
	case PRIO_VERSION_JSON: return "JSON meta";
	case PRIO_VERSION_CONFIG: return "scontrol show config";
	case PRIO_VERSION_OPTION: return "--slurm-version";
	}
	return "?";
}
