/* SPDX-License-Identifier: MIT */
/*
 * `scontrol show config`: the configuration as the controller holds it, one
 * "Key<blanks>= Value" per line (Slurm pads keys to 23 columns; longer keys
 * push the '=' right).  The first line is "Configuration data as of
 * <time>"; after the main list come blank lines, section headers ending in
 * ':' ("Cgroup Support Configuration:", "MPI Plugins Configuration:") whose
 * keys belong to other files, "----- node_features/helpers -----" lines
 * naming a plugin inside "Node Features Configuration:", and status lines
 * such as "Slurmctld(primary) at vm is UP".
 *
 * Main-section keys go through prio_config_set(), the same key table as
 * slurm.conf, after undoing the spellings scontrol prints differently
 * (oracle scenarios, Slurm 22.05):
 *  - unset values print "(null)", "N/A" or nothing: the key's default
 *    (e.g. "PriorityFlags =" is the default FAIR_TREE, "PriorityWeightTRES =
 *    (null)" no TRES weights);
 *  - times print "00:10:00" / "7-00:00:00", which time strings accept;
 *    PreemptExemptTime prints "00:00:00" when not configured (its default)
 *    and "NONE" when slurm.conf set it to -1/INFINITE (22.05 to 26.05);
 *  - flags print as Slurm's own words ("NO_FAIR_TREE", "DEPTH_OBLIVIOUS,
 *    NO_FAIR_TREE", "NO_NORMAL_ALL", "MAX_TRES"), which the PriorityFlags
 *    substring rules read back to the same bits; PreemptMode prints
 *    "GANG,SUSPEND", read by the PreemptMode grammar;
 *  - booleans print "Yes"/"No", and "yes"/"no" from 24.11 (read without
 *    regard to case, as Slurm reads slurm.conf);
 *  - SchedulerTimeSlice prints "30 sec".
 * conf.kv keeps the values as printed.
 *
 * Keys the key table does not know are kept in conf.kv and otherwise
 * ignored: each release prints keys of its own (PreemptParameters, TLS*,
 * Certmgr*, HashPlugin, DataParserParameters, MaxBatchRequeue ...), and
 * this is Slurm's own list of what it holds, not a file a person typed, so
 * an unknown key here is no typo.  PreemptParameters (23.02) is kept as
 * printed, for the preemption model to read.
 */
#include "config.h"

#include <string.h>

#include "prio/conf.h"
#include "prio/snapshot.h"
#include "prio/value.h"

#define ECHO_MAX 40
#define ECHO(v, n)                                                             \
	(int)((n) > ECHO_MAX ? ECHO_MAX : (n)), (v),                           \
	    ((n) > ECHO_MAX ? "..." : "")

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Split "Key<blanks>= Value": 1 with the parts, 0 when the line has
 * another shape. */
static int split_line(const char *s, size_t n, const char **key,
		      size_t *key_len, const char **val, size_t *val_len)
{
	size_t i = 0, k;

	while (i < n && !is_blank(s[i]) && s[i] != '=')
		i++;
	k = i;
	if (k == 0 || i >= n || !is_blank(s[i]))
		return 0;
	while (i < n && is_blank(s[i]))
		i++;
	if (i >= n || s[i] != '=')
		return 0;
	i++;
	if (i < n && s[i] == ' ')
		i++;
	*key = s;
	*key_len = k;
	*val = s + i;
	*val_len = n - i;
	return 1;
}

static bool unset_value(const char *v, size_t n)
{
	return n == 0 || prio_word_eq(v, n, "(null)") ||
	       prio_word_eq(v, n, "N/A") || prio_word_eq(v, n, "(null type)");
}

int prio_load_scontrol_config(struct prio_snapshot *snap,
			      const struct prio_source *src,
			      struct prio_error *err)
{
	struct prio_line_reader r;
	struct prio_line line;
	unsigned long records = 0;
	bool main_section = true;
	const char *file = prio_arena_strdup(&snap->arena, src->name);
	int got, rc;

	prio_error_clear(err);
	if (!file)
		return prio_error_set(err, PRIO_ERR_NOMEM, src->name, 0, "",
				      "out of memory");
	prio_line_reader_init(&r, src);
	while ((got = prio_line_next(&r, &line, err)) != 0) {
		const char *s = line.text, *key, *val;
		size_t n = line.len, key_len, val_len;

		if (got < 0) {
			if ((rc = prio_snapshot_record_error(snap, err)) < 0)
				return rc;
			continue;
		}
		while (n && is_blank(s[n - 1]))
			n--;
		while (n && is_blank(*s)) {
			s++;
			n--;
		}
		if (n == 0)
			continue;
		if (!split_line(s, n, &key, &key_len, &val, &val_len)) {
			/* Headers and status lines carry no setting. */
			if (has_prefix(s, n, "Configuration data as of"))
				continue;
			if (has_prefix(s, n, "Slurmctld(") ||
			    has_prefix(s, n, "Slurmdbd")) {
				continue;
			}
			if (ends_with(s, n, ":")) {
				main_section = false;
				continue;
			}
			if (!main_section && has_prefix(s, n, "----- ") &&
			    ends_with(s, n, " -----"))
				continue; /* a plugin's name */
			prio_error_set(
			    err, PRIO_ERR_PARSE, file, line.number, "",
			    "expected \"Key = Value\", got \"%.*s%s\"",
			    ECHO(s, n));
			if ((rc = prio_snapshot_record_error(snap, err)) < 0)
				return rc;
			continue;
		}
		records++;
		if (!main_section) {
			/* cgroup.conf, mpi.conf...: kept for display only. */
			if (prio_config_record(snap, key, key_len, val, val_len,
					       file, line.number, false) < 0)
				return prio_error_set(err, PRIO_ERR_NOMEM, file,
						      line.number, "",
						      "out of memory");
			continue;
		}
		{
			const char *v = val;
			size_t vn = val_len;
			const struct prio_conf_kv *prev;
			char kb[80];

			/* scontrol prints each key of the main list once: a
			 * second one was pasted in, and which one counts is
			 * a guess */
			if (key_len < sizeof(kb)) {
				memcpy(kb, key, key_len);
				kb[key_len] = '\0';
				prev = prio_config_find(&snap->conf, kb);
				if (prev && prev->line &&
				    strcmp(prev->file, file) == 0) {
					prio_error_set(
					    err, PRIO_ERR_PARSE, file,
					    line.number, kb,
					    "printed twice (also at line %lu): "
					    "scontrol prints each key once",
					    prev->line);
					if ((rc = prio_snapshot_record_error(
						 snap, err)) < 0)
						return rc;
					continue;
				}
			}
			if (prio_word_eq(key, key_len, "SLURM_VERSION")) {
				uint16_t release;

				/* the release every other reader and writer
				 * follows (prio/slurm_version.h) */
				if (prio_slurm_version_parse(v, vn, &release) == 0)
					prio_snapshot_note_version(
					    snap, release, PRIO_VERSION_CONFIG);
			}
			if (unset_value(v, vn))
				vn = 0;
			else if (prio_word_eq(key, key_len,
					      "SchedulerTimeSlice") &&
				 ends_with(v, vn, " sec"))
				vn -= 4;
			else if (prio_word_eq(key, key_len,
					      "PreemptExemptTime") &&
				 prio_word_eq(v, vn, "NONE")) {
				v = "INFINITE";
				vn = 8;
			}
			rc = prio_config_set(snap, key, key_len, v, vn, file,
					     line.number, err);
			if (rc == PRIO_ERR_USAGE) {
				/* A record key printed as a setting: keep it.
				 */
				prio_error_clear(err);
				rc = 0;
			}
			if (rc < 0) {
				if ((rc = prio_snapshot_record_error(snap,
								     err)) < 0)
					return rc;
				continue;
			}
			/* Keep the value as printed. */
			if (prio_config_record(snap, key, key_len, val, val_len,
					       file, line.number, true) < 0)
				return prio_error_set(err, PRIO_ERR_NOMEM, file,
						      line.number, "",
						      "out of memory");
		}
	}
	snap->have_config = true;
	return prio_snapshot_note_loaded(snap, PRIO_INPUT_SCONTROL_CONFIG,
					 src->name, records);
}
