/* SPDX-License-Identifier: MIT */
/*
 * The viewer's queue table as shown (prio/top.h): its columns, every row
 * sorted by one of them, the rows a filter keeps, and how each row moved
 * since the last what-if.  Sorting happens when the sort, the filter or the
 * data change, never per frame: a front end draws view[first..last] only.
 *
 * Ties always fall back to the scheduling order (the rank), so a sort by
 * user lists each user's jobs in the order Slurm would start them.  Each
 * row gets one integer key (text columns: the rank of the distinct string,
 * sorted once; descending: the key complemented) and its rank, and one
 * qsort of these plain keys orders 100k rows in a few milliseconds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "prio/timestr.h"
#include "top_model.h"

static const struct prio_top_col_info columns[PRIO_TOP_COL_COUNT] = {
    [PRIO_TOP_COL_RANK] = {"rank", "RANK", true, false},
    [PRIO_TOP_COL_MOVED] = {"moved", "MOVED", true, true},
    [PRIO_TOP_COL_JOB] = {"jobid", "JOBID", true, false},
    [PRIO_TOP_COL_USER] = {"user", "USER", false, false},
    [PRIO_TOP_COL_ACCOUNT] = {"account", "ACCOUNT", false, false},
    [PRIO_TOP_COL_PARTITION] = {"partition", "PARTITION", false, false},
    [PRIO_TOP_COL_QOS] = {"qos", "QOS", false, false},
    [PRIO_TOP_COL_PRIORITY] = {"priority", "PRIORITY", true, true},
    [PRIO_TOP_COL_FACTORS] = {"factors", "FACTORS", false, true},
    [PRIO_TOP_COL_REASON] = {"reason", "REASON", false, false},
    [PRIO_TOP_COL_START] = {"start", "SLURM_START", true, false},
    [PRIO_TOP_COL_FORECAST] = {"forecast", "START", true, false},
};

const struct prio_top_col_info *prio_top_col_info(enum prio_top_col col)
{
	return (unsigned)col < PRIO_TOP_COL_COUNT ? &columns[col] : NULL;
}

int prio_top_col_parse(const char *id, enum prio_top_col *out)
{
	for (int c = 0; c < PRIO_TOP_COL_COUNT; c++)
		if (!strcasecmp(columns[c].id, id)) {
			*out = (enum prio_top_col)c;
			return 0;
		}
	return -1;
}

/* ---- moves ----------------------------------------------------------------
 */

void top_mark_moves(struct prio_top *t)
{
	const struct prio_top_before *b = t->before;
	struct prio_top_job *jobs = t->r->jobs;

	t->moved_count = 0;
	for (uint32_t k = 0; k < t->njobs; k++) {
		jobs[k].change = PRIO_TOP_SAME;
		jobs[k].moved = 0;
	}
	if (!b || b->job_count != t->snap->job_count)
		return;
	for (uint32_t k = 0; k < t->njobs; k++) {
		uint64_t key = top_place_key(t, &jobs[k]);
		uint32_t lo = 0, hi = b->count;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (b->places[mid].key < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == b->count || b->places[lo].key != key) {
			jobs[k].change = PRIO_TOP_NEW;
			t->moved_count++;
		} else if (b->places[lo].part_rank != jobs[k].part_rank) {
			jobs[k].change = PRIO_TOP_MOVED;
			jobs[k].moved = (int32_t)b->places[lo].part_rank -
					(int32_t)jobs[k].part_rank;
			t->moved_count++;
		}
	}
}

/* ---- sorting --------------------------------------------------------------
 */

static const char *str(const struct prio_top *t, prio_id id)
{
	return id == PRIO_NO_ID ? "" : prio_snapshot_str(t->snap, id);
}

prio_id prio_top_cell_id(const struct prio_top *t, const struct prio_top_job *j,
			 enum prio_top_col col)
{
	const struct prio_job *job = &t->snap->jobs[j->job];

	switch (col) {
	case PRIO_TOP_COL_USER:
		return job->user;
	case PRIO_TOP_COL_ACCOUNT:
		return job->account;
	case PRIO_TOP_COL_PARTITION:
		return t->snap->partitions[j->partition].name;
	case PRIO_TOP_COL_QOS:
		return j->qos;
	case PRIO_TOP_COL_REASON:
		return job->reason;
	default:
		return PRIO_NO_ID;
	}
}

/* Our forecast's start as the header's clock shows time: the time of day
 * on the snapshot's day, the whole timestamp else; or the word of
 * prio-calc --forecast's START. */
static const char *forecast_cell(const struct prio_top *t,
				 const struct prio_top_job *j, char *buf,
				 size_t size)
{
	const struct prio_forecast_row *r = prio_top_forecast_row(t, j);
	time_t snap = t->snap->now;
	struct tm ts, tr;

	if (!r) {
		buf[0] = '\0';
		return buf;
	}
	if (r->status != PRIO_FC_STARTS)
		return prio_forecast_status_name(
		    (enum prio_forecast_status)r->status);
	localtime_r(&snap, &ts);
	localtime_r(&r->start, &tr);
	if (ts.tm_year == tr.tm_year && ts.tm_yday == tr.tm_yday)
		strftime(buf, size, "%H:%M:%S", &tr);
	else
		prio_timestamp_format(r->start, buf, size);
	return buf;
}

const char *prio_top_cell(const struct prio_top *t,
			  const struct prio_top_job *j, enum prio_top_col col,
			  char *buf, size_t size)
{
	int32_t m = j->moved < 0 ? -j->moved : j->moved;

	switch (col) {
	case PRIO_TOP_COL_RANK:
		snprintf(buf, size, "%u", j->rank);
		break;
	case PRIO_TOP_COL_JOB:
		snprintf(buf, size, "%u", t->snap->jobs[j->job].job_id);
		break;
	case PRIO_TOP_COL_PRIORITY:
		snprintf(buf, size, "%u", j->priority);
		break;
	case PRIO_TOP_COL_MOVED:
		if (j->change == PRIO_TOP_NEW)
			snprintf(buf, size, "new");
		else if (j->change == PRIO_TOP_MOVED)
			snprintf(buf, size, "%c%d", j->moved > 0 ? '+' : '-',
				 m);
		else
			buf[0] = '\0';
		break;
	case PRIO_TOP_COL_FACTORS:
		buf[0] = '\0';
		break;
	case PRIO_TOP_COL_START:
		/* squeue --start's START_TIME; blank when backfill has not
		 * planned the job */
		if (t->snap->jobs[j->job].start_time)
			prio_timestamp_format(t->snap->jobs[j->job].start_time,
					      buf, size);
		else
			buf[0] = '\0';
		break;
	case PRIO_TOP_COL_FORECAST:
		return forecast_cell(t, j, buf, size);
	default:
		return str(t, prio_top_cell_id(t, j, col));
	}
	return buf;
}

static int cmp_id_str(const void *pa, const void *pb, void *vt)
{
	const struct prio_top *t = vt;

	return strcmp(str(t, *(const prio_id *)pa),
		      str(t, *(const prio_id *)pb));
}

/* Rank every interned string the column uses, so that rows compare by
 * integers.  NULL on ENOMEM. */
static uint32_t *rank_strings(const struct prio_top *t, enum prio_top_col col)
{
	uint32_t n = t->snap->strings.count + 1, m = 0;
	uint32_t *rank = calloc(n, sizeof(*rank));
	prio_id *ids = malloc(n * sizeof(*ids));

	if (!rank || !ids) {
		free(rank);
		free(ids);
		return NULL;
	}
	for (uint32_t k = 0; k < t->njobs; k++) {
		prio_id id = prio_top_cell_id(t, &t->jobs[k], col);

		if (id != PRIO_NO_ID && id < n && !rank[id]) {
			rank[id] = 1;
			ids[m++] = id;
		}
	}
	qsort_r(ids, m, sizeof(*ids), cmp_id_str, (void *)t);
	for (uint32_t i = 0; i < m; i++)
		rank[ids[i]] = i + 1;
	free(ids);
	return rank;
}

/* One row's sort key: the column's value as an unsigned integer in the
 * order wanted (descending: complemented), then the rank. */
struct sort_key {
	uint64_t key;
	uint32_t rank, row;
};

static int cmp_keys(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* A double as an unsigned integer of the same order. */
static uint64_t ordered_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static uint64_t row_key(const struct prio_top *t, const struct prio_top_job *j,
			enum prio_top_col col, const uint32_t *str_rank)
{
	prio_id id;

	switch (col) {
	case PRIO_TOP_COL_RANK:
		return 0;
	case PRIO_TOP_COL_MOVED:
		/* new entries above every move, then places gained */
		return j->change == PRIO_TOP_NEW
			   ? UINT64_MAX
			   : (uint64_t)((int64_t)j->moved + INT64_C(1) +
					INT32_MAX);
	case PRIO_TOP_COL_JOB:
		return t->snap->jobs[j->job].job_id;
	case PRIO_TOP_COL_PRIORITY:
		return j->priority;
	case PRIO_TOP_COL_FACTORS:
		return ordered_bits(j->sum);
	case PRIO_TOP_COL_START:
		/* no estimate after every estimate */
		return t->snap->jobs[j->job].start_time
			   ? (uint64_t)t->snap->jobs[j->job].start_time
			   : UINT64_MAX;
	case PRIO_TOP_COL_FORECAST: {
		/* starts by time, then the words in the forecast's order
		 * (after, never, held), then no forecast */
		const struct prio_forecast_row *r = prio_top_forecast_row(t, j);

		if (!r)
			return UINT64_MAX;
		if (r->status == PRIO_FC_STARTS)
			return (uint64_t)r->start;
		return UINT64_MAX - 4 + r->status;
	}
	default:
		id = prio_top_cell_id(t, j, col);
		return id == PRIO_NO_ID ? 0 : str_rank[id];
	}
}

/* view = the rows of order that the filter keeps */
static void filter_rows(struct prio_top *t)
{
	const struct prio_top_filter *f = &t->filter;
	prio_id user = PRIO_NO_ID, part = PRIO_NO_ID;
	bool none = false;

	if (f->user) {
		user = prio_intern_find(&t->snap->strings, f->user,
					strlen(f->user));
		none = none || user == PRIO_NO_ID;
	}
	if (f->partition) {
		part = prio_intern_find(&t->snap->strings, f->partition,
					strlen(f->partition));
		none = none || part == PRIO_NO_ID;
	}
	t->nview = 0;
	if (none)
		return;
	for (uint32_t k = 0; k < t->njobs; k++) {
		uint32_t i = t->order[k];
		const struct prio_top_job *j = &t->jobs[i];
		const struct prio_job *job = &t->snap->jobs[j->job];

		if (f->user && job->user != user)
			continue;
		if (f->partition &&
		    t->snap->partitions[j->partition].name != part)
			continue;
		if (f->account && strcasecmp(str(t, job->account), f->account))
			continue;
		if (f->text && !prio_top_row_matches(t, i, f->text))
			continue;
		t->view[t->nview++] = i;
	}
}

int top_table_build(struct prio_top *t)
{
	uint32_t n = t->njobs ? t->njobs : 1;
	uint32_t *order = realloc(t->order, n * sizeof(*order));

	if (!order)
		return PRIO_ERR_NOMEM;
	t->order = order;
	order = realloc(t->view, n * sizeof(*order));
	if (!order)
		return PRIO_ERR_NOMEM;
	t->view = order;
	prio_top_sort(t, t->sort, t->desc);
	return PRIO_OK;
}

void prio_top_sort(struct prio_top *t, enum prio_top_col col, bool desc)
{
	struct sort_key *keys;
	uint32_t *str_rank = NULL;
	bool text;

	t->sort = col;
	t->desc = desc;
	for (uint32_t k = 0; k < t->njobs; k++)
		t->order[k] = k;
	if (col == PRIO_TOP_COL_RANK) {
		/* the rows are in scheduling order already */
		for (uint32_t k = 0; desc && k < t->njobs; k++)
			t->order[k] = t->njobs - 1 - k;
		filter_rows(t);
		return;
	}
	text = col == PRIO_TOP_COL_USER || col == PRIO_TOP_COL_ACCOUNT ||
	       col == PRIO_TOP_COL_PARTITION || col == PRIO_TOP_COL_QOS ||
	       col == PRIO_TOP_COL_REASON;
	keys = malloc((t->njobs ? t->njobs : 1) * sizeof(*keys));
	if (text)
		str_rank = rank_strings(t, col);
	if (keys && (!text || str_rank)) {
		for (uint32_t k = 0; k < t->njobs; k++) {
			uint64_t key = row_key(t, &t->jobs[k], col, str_rank);

			keys[k] = (struct sort_key){desc ? ~key : key,
						    t->jobs[k].rank, k};
		}
		qsort(keys, t->njobs, sizeof(*keys), cmp_keys);
		for (uint32_t k = 0; k < t->njobs; k++)
			t->order[k] = keys[k].row;
	}
	/* out of memory: left in scheduling order */
	free(keys);
	free(str_rank);
	filter_rows(t);
}

/* ---- filters and search ---------------------------------------------------
 */

static int set_str(const char **slot, const char *value)
{
	char *copy = NULL;

	if (value && *value && !(copy = strdup(value)))
		return PRIO_ERR_NOMEM;
	free((char *)*slot);
	*slot = copy;
	return PRIO_OK;
}

int prio_top_set_filter(struct prio_top *t, const struct prio_top_filter *f)
{
	struct prio_top_filter copy = *f; /* f may be t->filter itself */
	struct prio_top_filter fresh = {NULL, NULL, NULL, NULL};

	if (set_str(&fresh.user, copy.user) < 0 ||
	    set_str(&fresh.account, copy.account) < 0 ||
	    set_str(&fresh.partition, copy.partition) < 0 ||
	    set_str(&fresh.text, copy.text) < 0) {
		free((char *)fresh.user);
		free((char *)fresh.account);
		free((char *)fresh.partition);
		free((char *)fresh.text);
		return PRIO_ERR_NOMEM;
	}
	free((char *)t->filter.user);
	free((char *)t->filter.account);
	free((char *)t->filter.partition);
	free((char *)t->filter.text);
	t->filter = fresh;
	filter_rows(t);
	return PRIO_OK;
}

bool prio_top_row_matches(const struct prio_top *t, uint32_t row,
			  const char *text)
{
	static const enum prio_top_col searched[] = {
	    PRIO_TOP_COL_JOB,	    PRIO_TOP_COL_USER, PRIO_TOP_COL_ACCOUNT,
	    PRIO_TOP_COL_PARTITION, PRIO_TOP_COL_QOS,  PRIO_TOP_COL_REASON};
	char buf[32];

	if (!text || !*text)
		return true;
	for (size_t i = 0; i < sizeof(searched) / sizeof(searched[0]); i++)
		if (strcasestr(prio_top_cell(t, &t->jobs[row], searched[i], buf,
					     sizeof(buf)),
			       text))
			return true;
	return false;
}

uint32_t prio_top_find_job(const struct prio_top *t, uint32_t job_id,
			   uint32_t partition)
{
	for (uint32_t k = 0; k < t->nview; k++) {
		const struct prio_top_job *j = &t->jobs[t->view[k]];

		if (t->snap->jobs[j->job].job_id == job_id &&
		    (partition == PRIO_NO_VAL || j->partition == partition))
			return k;
	}
	return UINT32_MAX;
}
