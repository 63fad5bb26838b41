/* SPDX-License-Identifier: MIT */
/*
 * sdiag.txt (sdiag.h).  sdiag prints, under "Backfilling stats", the
 * start of the backfill scheduler's last cycle as
 *     Last cycle when: <ctime> (<Unix seconds>)
 * or "Last cycle when: N/A" before the first, and the cycle's length in
 * microseconds as "Last cycle: N".  The Unix seconds are read, not the
 * ctime, which is in the controller's zone and locale.  The same lines from
 * Slurm 22.05 to 24.11 (checked on their live clusters here).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prio/source.h"
#include "prio/value.h"
#include "sdiag.h"

/* line without its leading blanks starts with key: what follows, else NULL */
static const char *after_key(const struct prio_line *line, const char *key,
			     size_t *rest)
{
	size_t i = 0, klen = strlen(key);

	while (i < line->len && (line->text[i] == '\t' || line->text[i] == ' '))
		i++;
	if (line->len - i < klen || memcmp(line->text + i, key, klen) != 0)
		return NULL;
	*rest = line->len - i - klen;
	return line->text + i + klen;
}

int prio_load_sdiag(struct prio_snapshot *snap, const char *path,
		    struct prio_error *err)
{
	struct prio_source src;
	int rc = prio_source_open(&src, path, err);

	if (rc < 0)
		return rc;
	rc = prio_sdiag_read(snap, &src, err);
	prio_source_close(&src);
	return rc;
}

int prio_sdiag_read(struct prio_snapshot *snap, struct prio_source *src,
		    struct prio_error *err)
{
	struct prio_line_reader r;
	struct prio_line line;
	bool in_backfill = false, when_seen = false;
	int got, rc = 0;

	if ((rc = prio_source_check_whole(src, "sdiag's output", err)) < 0)
		return rc;
	prio_line_reader_init(&r, src);
	while ((got = prio_line_next(&r, &line, err)) > 0) {
		const char *v;
		size_t n;
		int64_t num;

		if (after_key(&line, "Backfilling stats", &n)) {
			in_backfill = true;
			continue;
		}
		if (!in_backfill)
			continue;
		if ((v = after_key(&line, "Last cycle when:", &n))) {
			const char *open, *close;

			while (n && *v == ' ')
				v++, n--;
			when_seen = true;
			if (n == 3 && memcmp(v, "N/A", 3) == 0)
				continue; /* no cycle yet: unknown */
			open = memrchr(v, '(', n);
			close = open ? memchr(open, ')', n - (size_t)(open - v))
				     : NULL;
			if (!close || close != v + n - 1 ||
			    prio_parse_int64(open + 1,
					     (size_t)(close - open - 1),
					     &num) < 0 || num <= 0) {
				rc = prio_error_set(
				    err, PRIO_ERR_PARSE, src->name, line.number,
				    "Last cycle when",
				    "expected \"<date> (<Unix seconds>)\" or "
				    "\"N/A\", got \"%.*s\"",
				    (int)(n > 60 ? 60 : n), v);
				break;
			}
			snap->bf_last_cycle = (time_t)num;
			continue;
		}
		if (when_seen && (v = after_key(&line, "Last cycle:", &n))) {
			while (n && *v == ' ')
				v++, n--;
			if (prio_parse_int64(v, n, &num) < 0 || num < 0 ||
			    num > UINT32_MAX) {
				rc = prio_error_set(
				    err, PRIO_ERR_PARSE, src->name, line.number,
				    "Last cycle",
				    "expected microseconds, got \"%.*s\"",
				    (int)(n > 60 ? 60 : n), v);
				break;
			}
			snap->bf_last_cycle_us = (uint32_t)num;
			/* the backfill section's lines that matter end here */
			break;
		}
	}
	if (rc >= 0 && got >= 0 && !when_seen)
		rc = prio_error_set(err, PRIO_ERR_PARSE, src->name, 0,
				    "Last cycle when",
				    "no \"Last cycle when:\" line under "
				    "\"Backfilling stats\": not sdiag's output");
	if (rc < 0)
		return rc;
	return got < 0 ? got : PRIO_OK;
}
