/* SPDX-License-Identifier: MIT */
/*
 * Usage roll-ups over a window (prio/rollup.h): one pass over the
 * accounting records, summed by (bucket, account, user) in an
 * open-addressing table, with the cluster's totals and its planned time
 * beside them.  Checked against sreport in tests/oracle/sreport-final:
 *  - a job counts from its start to its end, clipped to the hour
 *    (mallory's job 13 on ft, started 03:42:18 and still running at the
 *    capture, counts 1062 s in 03:00-04:00);
 *  - AllocTRES counts as stored: billing is the truncated integer (job 13:
 *    billing=7 x 1062 s), mem in MB (12G = 12288);
 *  - suspended time is not CPU usage, but it is usage of every other TRES
 *    (pre's jobs 1000-1002: 83 s between start and end, 60 s suspended:
 *    23 s x 8 CPUs each, but 83 s x 8000 MB and 83 s x billing 8; the
 *    pre totals differ from Slurm's by 968 CPU-s, 968000 MB-s and 968
 *    billing-s more, runs of requeued jobs that sacct -X hides, and by
 *    1440000 MB-s and 1440 billing-s exactly when suspended time is taken
 *    out of every TRES);
 *  - planned time is CPU only: requested CPUs times the seconds between
 *    eligibility and start (or the end of a job that never started),
 *    inside the window; pre: 553 CPU-seconds from its sacct records + 4
 *    from the first runs of requeued jobs sacct -X does not show = 557.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/billing.h"
#include "prio/rollup.h"
#include "prio/snapshot.h"

double prio_decay_factor(uint32_t half_life)
{
	if (half_life == 0)
		return 1.0;
	return 1.0 - 0.693 / (double)half_life;
}

double prio_usage_decayed_seconds(double d, time_t start, time_t end, time_t at)
{
	double ln;

	if (end <= start)
		return 0.0;
	if (d >= 1.0 || d <= 0.0)
		return (double)(end - start);
	ln = log(d);
	/* integral of d^(at - t) over [start, end) */
	return (pow(d, (double)(at - end)) - pow(d, (double)(at - start))) / -ln;
}

uint32_t prio_usage_span(const struct prio_sacct_rec *rec, time_t from,
			 time_t to, time_t now, struct prio_usage_span *sp)
{
	time_t start = rec->start, end = rec->end, s, e;
	double run, susp;

	sp->start = sp->end = from;
	sp->secs = 0;
	if (!start)
		return 0;
	if (!end || end < start)
		end = now > start ? now : start;
	s = start > from ? start : from;
	e = end < to ? end : to;
	if (e <= s)
		return 0;
	sp->start = s;
	sp->end = e;
	susp = rec->suspended;
	run = (double)(end - start);
	if (susp > 0 && (s > start || e < end) && run > 0)
		susp = floor(susp * (double)(e - s) / run + 0.5);
	sp->secs = susp >= (double)(e - s) ? 0 : (uint32_t)((e - s) - (time_t)susp);
	return (uint32_t)(e - s);
}

/* Number of tasks in "0-9%2", "1,3,5-7". */
uint32_t prio_sacct_task_count(const struct prio_snapshot *snap,
			       const struct prio_sacct_rec *rec)
{
	const char *p;
	uint64_t n = 0;

	if (rec->array_task_text == PRIO_NO_ID)
		return 1;
	p = prio_snapshot_str(snap, rec->array_task_text);
	while (*p && *p != '%') {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return 1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return 1;
			p = end;
		}
		if (*p == ':') { /* step "0-9:2" */
			unsigned long step = strtoul(p + 1, &end, 10);

			p = end;
			n += step ? (hi - lo) / step + 1 : 1;
		} else {
			n += hi - lo + 1;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '%')
			return 1;
	}
	if (n == 0)
		return 1;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void prio_cluster_tres(const struct prio_snapshot *snap, uint64_t *out)
{
	uint32_t n = snap->tres.count;
	uint64_t *billing = calloc(snap->node_count ? snap->node_count : 1,
				   sizeof(*billing));

	memset(out, 0, n * sizeof(*out));
	if (billing)
		prio_billing_nodes(snap, billing);
	for (uint32_t i = 0; i < snap->node_count; i++) {
		const struct prio_node *node = &snap->nodes[i];

		out[PRIO_TRES_CPU] += node->cpus;
		out[PRIO_TRES_MEM] += node->real_memory;
		out[PRIO_TRES_NODE] += 1;
		out[PRIO_TRES_BILLING] += billing ? billing[i] : node->cpus;
		for (uint32_t g = 0; g < node->gres_tres.count; g++)
			if (node->gres_tres.items[g].tres < n)
				out[node->gres_tres.items[g].tres] +=
				    node->gres_tres.items[g].count;
	}
	for (uint32_t l = 0; l < snap->conf.license_count; l++) {
		char name[256];
		int id;

		snprintf(name, sizeof(name), "license/%s", snap->conf.licenses[l].name);
		id = prio_tres_find(&snap->tres, name, strlen(name));
		if (id >= 0)
			out[id] = snap->conf.licenses[l].count;
	}
	free(billing);
}

static uint32_t hash_key(uint32_t bucket, prio_id account, prio_id user)
{
	uint64_t k = ((uint64_t)account << 32) ^ user ^ ((uint64_t)bucket << 48);

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return (uint32_t)k;
}

static int grow_slots(struct prio_rollup *r)
{
	uint32_t size = r->slot_mask ? (r->slot_mask + 1) * 2 : 1024;
	struct prio_rollup_slot *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -1;
	for (uint32_t i = 0; i < r->entry_count; i++) {
		const struct prio_rollup_entry *e = &r->entries[i];
		uint32_t h = hash_key(e->bucket, e->account, e->user) & (size - 1);

		while (slots[h].index)
			h = (h + 1) & (size - 1);
		slots[h] = (struct prio_rollup_slot){ e->bucket, e->account, e->user, i + 1 };
	}
	free(r->slots);
	r->slots = slots;
	r->slot_mask = size - 1;
	return 0;
}

/* Entry pools are re-pointed after a realloc. */
static void repoint(struct prio_rollup *r)
{
	for (uint32_t i = 0; i < r->entry_count; i++) {
		r->entries[i].secs = r->secs_pool + (size_t)i * r->tres_count;
		r->entries[i].decayed =
		    r->decayed_pool ? r->decayed_pool + (size_t)i * r->tres_count : NULL;
	}
}

/* The sums of (bucket, account, user): [tres_count] TRES-seconds, and the
 * decayed ones in *dec when decayed. */
static uint64_t *entry(struct prio_rollup *r, bool decayed, uint32_t bucket,
		       prio_id account, prio_id user, double **dec)
{
	uint32_t h;
	struct prio_rollup_entry *e;

	if ((r->entry_count + 1) * 2 > r->slot_mask + 1 && grow_slots(r) < 0)
		return NULL;
	h = hash_key(bucket, account, user) & r->slot_mask;
	while (r->slots[h].index) {
		const struct prio_rollup_slot *sl = &r->slots[h];

		if (sl->bucket == bucket && sl->account == account && sl->user == user) {
			size_t at = (size_t)(sl->index - 1) * r->tres_count;

			*dec = decayed ? r->decayed_pool + at : NULL;
			return r->secs_pool + at;
		}
		h = (h + 1) & r->slot_mask;
	}
	if (r->entry_count == r->entry_capacity) {
		uint32_t cap = r->entry_capacity ? r->entry_capacity * 2 : 256;
		struct prio_rollup_entry *ne = realloc(r->entries, cap * sizeof(*ne));
		uint64_t *ns;

		if (!ne)
			return NULL;
		r->entries = ne;
		ns = realloc(r->secs_pool, (size_t)cap * r->tres_count * sizeof(*ns));
		if (!ns)
			return NULL;
		r->secs_pool = ns;
		if (decayed) {
			double *nd = realloc(r->decayed_pool,
					     (size_t)cap * r->tres_count * sizeof(*nd));

			if (!nd)
				return NULL;
			r->decayed_pool = nd;
		}
		r->entry_capacity = cap;
		repoint(r);
	}
	e = &r->entries[r->entry_count];
	e->bucket = bucket;
	e->account = account;
	e->user = user;
	e->secs = r->secs_pool + (size_t)r->entry_count * r->tres_count;
	memset(e->secs, 0, r->tres_count * sizeof(*e->secs));
	e->decayed = NULL;
	if (decayed) {
		e->decayed = r->decayed_pool + (size_t)r->entry_count * r->tres_count;
		memset(e->decayed, 0, r->tres_count * sizeof(*e->decayed));
	}
	r->slots[h] = (struct prio_rollup_slot){ bucket, account, user, ++r->entry_count };
	*dec = e->decayed;
	return e->secs;
}

/* The first bucket whose end is after t (binary search). */
static uint32_t bucket_of(const struct prio_rollup *r, time_t t)
{
	uint32_t lo = 0, hi = r->bucket_count;

	while (lo + 1 < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (r->bounds[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Requested CPUs of a record: ReqTRES cpu, else NCPUS. */
static uint64_t req_cpus(const struct prio_sacct_rec *rec)
{
	uint64_t c = prio_tres_list_get(&rec->req_tres, PRIO_TRES_CPU, 0);

	return c ? c : rec->ncpus;
}

/* The time a record waited eligible, clipped to [from, to): *s..*e. */
static bool waited(const struct prio_sacct_rec *rec, time_t from, time_t to,
		   time_t now, time_t *s, time_t *e)
{
	if (!rec->eligible)
		return false;
	*e = rec->start ? rec->start : rec->end ? rec->end : now;
	*s = rec->eligible > from ? rec->eligible : from;
	if (*e > to)
		*e = to;
	return *e > *s;
}

static int add_record(struct prio_rollup *r, const struct prio_snapshot *snap,
		      const struct prio_rollup_opts *o,
		      const struct prio_sacct_rec *rec, double d, time_t at,
		      enum prio_billing_rule max_tres)
{
	time_t from = r->bounds[0], to = r->bounds[r->bucket_count];
	struct prio_usage_span whole;
	time_t ws, we;
	bool used = false;

	/* planned: waiting time of eligible jobs, CPU only */
	if (waited(rec, from, to, o->now, &ws, &we)) {
		uint64_t cpus = req_cpus(rec) * prio_sacct_task_count(snap, rec);

		for (uint32_t b = bucket_of(r, ws);
		     b < r->bucket_count && r->bounds[b] < we; b++) {
			time_t s = ws > r->bounds[b] ? ws : r->bounds[b];
			time_t e = we < r->bounds[b + 1] ? we : r->bounds[b + 1];

			if (e > s)
				r->planned_cpu[b] += (uint64_t)(e - s) * cpus;
		}
	}
	if (!prio_usage_span(rec, from, to, o->now, &whole))
		return 0;
	for (uint32_t b = bucket_of(r, whole.start); b < r->bucket_count; b++) {
		struct prio_usage_span sp;
		uint64_t *secs, *alloc = r->alloc + (size_t)b * r->tres_count;
		double scale = 0.0, billable = 0.0, uf = 1.0, *dec = NULL;
		uint64_t run;

		if (r->bounds[b] >= whole.end)
			break;
		if (!prio_usage_span(rec, r->bounds[b], r->bounds[b + 1], o->now, &sp))
			continue;
		secs = entry(r, o->decayed, b, rec->account, rec->user, &dec);
		if (!secs)
			return -1;
		used = true;
		run = (uint64_t)(sp.end - sp.start);
		for (uint32_t i = 0; i < rec->alloc_tres.count; i++) {
			uint32_t t = rec->alloc_tres.items[i].tres;
			uint64_t v = rec->alloc_tres.items[i].count *
				     (t == PRIO_TRES_CPU ? sp.secs : run);

			if (t >= r->tres_count)
				continue;
			secs[t] += v;
			alloc[t] += v;
		}
		if (!o->decayed)
			continue;
		/* decayed: the whole run inside the bucket */
		scale = prio_usage_decayed_seconds(d, sp.start, sp.end, at);
		{
			const struct prio_partition *p =
			    prio_snapshot_partition(snap, rec->partition);
			const struct prio_qos *q = prio_snapshot_qos(snap, rec->qos);

			if (p && p->billing_weights.count)
				billable = prio_billing_list(&snap->tres, &rec->alloc_tres,
							     &p->billing_weights, max_tres);
			else
				billable = (double)prio_tres_list_get(
				    &rec->alloc_tres, PRIO_TRES_BILLING,
				    prio_tres_list_get(&rec->alloc_tres, PRIO_TRES_CPU, 0));
			if (q && q->usage_factor >= 0)
				uf = q->usage_factor;
		}
		for (uint32_t i = 0; i < rec->alloc_tres.count; i++) {
			uint32_t t = rec->alloc_tres.items[i].tres;
			double v;

			if (t >= r->tres_count || t == PRIO_TRES_BILLING)
				continue;
			v = (double)rec->alloc_tres.items[i].count * scale * uf;
			dec[t] += v;
			r->alloc_decayed[(size_t)b * r->tres_count + t] += v;
		}
		dec[PRIO_TRES_BILLING] += billable * scale * uf;
		r->alloc_decayed[(size_t)b * r->tres_count + PRIO_TRES_BILLING] +=
		    billable * scale * uf;
	}
	if (used)
		r->records_used++;
	return 0;
}

int prio_rollup_begin(const struct prio_snapshot *snap,
		      const struct prio_rollup_opts *o, struct prio_rollup *r,
		      struct prio_error *err)
{
	long nb;

	memset(r, 0, sizeof(*r));
	if (o->window.end <= o->window.start)
		return prio_error_set(err, PRIO_ERR_USAGE, "", 0, "end",
				      "the window ends before it starts");
	r->opts = *o;
	r->decay = prio_decay_factor(snap->conf.decay_half_life);
	r->decay_at = o->decay_to ? o->decay_to : o->window.end;
	r->max_tres = (int)prio_billing_rule_of(&snap->conf);
	r->tres_count = snap->tres.count;
	r->by = o->by;
	r->now = o->now;
	nb = prio_window_buckets(&o->window, o->by, &r->bounds);
	if (nb <= 0)
		return prio_error_set(err, PRIO_ERR_LIMIT, "", 0, "by",
				      "too many buckets in the window");
	r->bucket_count = (uint32_t)nb;
	r->alloc = calloc((size_t)nb * r->tres_count, sizeof(*r->alloc));
	r->planned_cpu = calloc((size_t)nb, sizeof(*r->planned_cpu));
	if (o->decayed)
		r->alloc_decayed = calloc((size_t)nb * r->tres_count,
					  sizeof(*r->alloc_decayed));
	if (!r->alloc || !r->planned_cpu || (o->decayed && !r->alloc_decayed) ||
	    grow_slots(r) < 0) {
		prio_rollup_free(r);
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	}
	return 0;
}

int prio_rollup_add(struct prio_rollup *r, const struct prio_snapshot *snap,
		    const struct prio_sacct_rec *rec, struct prio_error *err)
{
	const struct prio_rollup_opts *o = &r->opts;

	if (rec->is_step)
		return 0;
	if (o->cluster != PRIO_NO_ID && rec->cluster != PRIO_NO_ID &&
	    rec->cluster != o->cluster)
		return 0;
	r->records++;
	if (add_record(r, snap, o, rec, r->decay, r->decay_at,
		       (enum prio_billing_rule)r->max_tres) < 0)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "out of memory");
	return 0;
}

int prio_rollup_run(const struct prio_snapshot *snap,
		    const struct prio_rollup_opts *o, struct prio_rollup *r,
		    struct prio_error *err)
{
	int rc = prio_rollup_begin(snap, o, r, err);

	for (uint32_t i = 0; rc == 0 && i < snap->sacct_count; i++)
		rc = prio_rollup_add(r, snap, &snap->sacct[i], err);
	if (rc < 0)
		prio_rollup_free(r);
	return rc;
}

void prio_rollup_free(struct prio_rollup *r)
{
	free(r->bounds);
	free(r->entries);
	free(r->alloc);
	free(r->alloc_decayed);
	free(r->planned_cpu);
	free(r->slots);
	free(r->secs_pool);
	free(r->decayed_pool);
	memset(r, 0, sizeof(*r));
}
