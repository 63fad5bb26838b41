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

/* Digits s[0..n) as a number no larger than max; -1 when not. */
static int digits(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
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

	if (!src->size || src->data[src->size - 1] != '\n') {
		unsigned long n = 1;

		for (size_t i = 0; i < src->size; i++)
			n += src->data[i] == '\n';
		return prio_error_set(err, PRIO_ERR_PARSE, src->name, n, "",
				      src->size ? "the last record is cut (no "
						  "final newline)"
						: "empty input: expected "
						  "sdiag's output");
	}
	prio_line_reader_init(&r, src);
	while ((got = prio_line_next(&r, &line, err)) > 0) {
		const char *v;
		size_t n;
		uint64_t num;

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
			    digits(open + 1, (size_t)(close - open - 1),
				   INT64_MAX, &num) < 0 || !num) {
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
			if (digits(v, n, UINT32_MAX, &num) < 0) {
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
