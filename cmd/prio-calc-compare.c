/* SPDX-License-Identifier: MIT */
/*
 * prio-calc --compare --set ...: which pending jobs a what-if moves, and by
 * how many places, in each partition's scheduling queue.  The snapshot is
 * loaded twice, as captured and with the assignments, each queue is built
 * with the same engine, and the entries are matched by job id and
 * partition name (a --set may move a job to other partitions: it then
 * leaves one queue and enters another).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prio-calc.h"

static const struct prio_column compare_columns[] = {
    {.id = "partition", .header = "PARTITION", .width = 9, .suffix = " "},
    {.id = "job_id", .header = "JOBID", .width = 15, .right = true,
     .suffix = " "},
    {.id = "user", .header = "USER", .width = 8, .right = true, .suffix = " "},
    {.id = "rank_before", .header = "BEFORE", .width = 6, .right = true,
     .suffix = " "},
    {.id = "rank_after", .header = "AFTER", .width = 6, .right = true,
     .suffix = " "},
    {.id = "moved_up", .header = "MOVED_UP", .width = 8, .right = true,
     .suffix = " "},
    {.id = "priority_before", .header = "PRIO_BEFORE", .width = 11,
     .right = true, .suffix = " "},
    {.id = "priority_after", .header = "PRIO_AFTER", .width = 11,
     .right = true},
};

/* One queue entry, named so that two snapshots can be matched. */
struct key {
	uint32_t job_id;
	uint32_t job; /* index into its snapshot's jobs */
	const char *partition;
	const char *user;
	uint32_t part_rank, priority;
	uint32_t part_order; /* the partition's place in the snapshot */
};

static struct key *keys_of(const struct prio_snapshot *snap,
			   const struct prio_queue *q)
{
	struct key *k = malloc((q->count ? q->count : 1) * sizeof(*k));

	if (!k)
		return NULL;
	for (uint32_t i = 0; i < q->count; i++) {
		const struct prio_queue_entry *en = &q->entries[i];
		const struct prio_job *job = &snap->jobs[en->job];

		k[i] = (struct key){
		    job->job_id,
		    en->job,
		    prio_snapshot_str(snap, snap->partitions[en->partition].name),
		    prio_snapshot_str(snap, job->user),
		    en->part_rank,
		    en->priority,
		    en->partition};
	}
	return k;
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->job_id != b->job_id)
		return a->job_id < b->job_id ? -1 : 1;
	return strcmp(a->partition, b->partition);
}

/* A matched pair; before or after may be missing. */
struct change {
	const struct key *before, *after;
};

static int cmp_change(const void *pa, const void *pb)
{
	const struct change *a = pa, *b = pb;
	const struct key *x = a->after ? a->after : a->before;
	const struct key *y = b->after ? b->after : b->before;
	int c = strcmp(x->partition, y->partition);

	if (c)
		return c;
	/* present entries by their new place, departed ones after */
	if (!a->after != !b->after)
		return a->after ? -1 : 1;
	return x->part_rank < y->part_rank ? -1 : x->part_rank > y->part_rank;
}

int calc_compare(struct calc_opts *o)
{
	struct cmd_common *c = &o->c;
	struct prio_snapshot s0, s1;
	struct prio_engine e0, e1;
	struct prio_queue q0, q1;
	struct prio_error err;
	struct calc_filter f;
	struct key *k0, *k1;
	struct change *ch;
	struct prio_writer *w;
	uint32_t i = 0, j = 0, n = 0;

	calc_load(o, &s0, &e0, false);
	calc_load(o, &s1, &e1, true);
	calc_filter_init(&f, o, &s1);
	if (prio_queue_build(&e0, &q0, &err) < 0 ||
	    prio_queue_build(&e1, &q1, &err) < 0)
		cmd_die_error(c, &err);
	k0 = keys_of(&s0, &q0);
	k1 = keys_of(&s1, &q1);
	ch = malloc((size_t)(q0.count + q1.count + 1) * sizeof(*ch));
	if (!k0 || !k1 || !ch)
		cmd_die(c, "out of memory");
	qsort(k0, q0.count, sizeof(*k0), cmp_key);
	qsort(k1, q1.count, sizeof(*k1), cmp_key);
	while (i < q0.count || j < q1.count) {
		int cmp = i == q0.count	  ? 1
			  : j == q1.count ? -1
					  : cmp_key(&k0[i], &k1[j]);
		struct change x = {cmp <= 0 ? &k0[i] : NULL,
				   cmp >= 0 ? &k1[j] : NULL};

		i += cmp <= 0;
		j += cmp >= 0;
		/* only what moves: a new place, or in or out of a queue */
		if (x.before && x.after &&
		    x.before->part_rank == x.after->part_rank)
			continue;
		ch[n++] = x;
	}
	qsort(ch, n, sizeof(*ch), cmp_change);

	w = prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    compare_columns,
			    sizeof(compare_columns) / sizeof(compare_columns[0]),
			    !c->noheader, NULL);
	if (!w)
		cmd_die(c, "cannot start the table: %s", strerror(errno));
	for (uint32_t k = 0; k < n; k++) {
		const struct key *b = ch[k].before, *a = ch[k].after;
		const struct key *any = a ? a : b;
		/* an entry after the what-if knows its job; one that left
		 * every queue is looked up (it may have left the queue only) */
		const struct prio_job *job =
		    a ? &s1.jobs[a->job] : prio_snapshot_find_job(&s1, b->job_id);
		struct prio_cell cells[8];

		if ((job && !calc_filter_job(&f, job)) ||
		    !calc_filter_partition(&f, any->partition))
			continue;
		cells[0] = prio_cell_str(any->partition);
		cells[1] = prio_cell_uint(any->job_id);
		cells[2] = prio_cell_str(any->user);
		cells[3] = b ? prio_cell_uint(b->part_rank) : prio_cell_str("new");
		cells[4] = a ? prio_cell_uint(a->part_rank) : prio_cell_str("gone");
		cells[5] = a && b ? prio_cell_int((int64_t)b->part_rank -
						  (int64_t)a->part_rank)
				  : prio_cell_blank();
		cells[6] = b ? prio_cell_uint(b->priority) : prio_cell_blank();
		cells[7] = a ? prio_cell_uint(a->priority) : prio_cell_blank();
		if (prio_writer_row(w, cells) < 0)
			cmd_die_write(c);
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	free(ch);
	free(k0);
	free(k1);
	calc_filter_free(&f);
	prio_queue_free(&q0);
	prio_queue_free(&q1);
	prio_engine_free(&e0);
	prio_engine_free(&e1);
	prio_snapshot_free(&s0);
	prio_snapshot_free(&s1);
	return EXIT_OK;
}
