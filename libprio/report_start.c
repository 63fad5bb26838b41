/* SPDX-License-Identifier: MIT */
/*
 * squeue --start's table (report_start.h): letters, cells and order.
 * Checked byte for byte against the 24.11 oracles' squeue_start.txt
 * (tests/cli/start-oracle-2411.sh).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio/error.h"
#include "prio/report_start.h"
#include "prio/snapshot.h"
#include "prio/timestr.h"

struct start_letter {
	char letter;
	const char *id;	    /* column id (JSON key, CSV header) */
	const char *header; /* squeue's header */
};

/* squeue's headers (src/squeue/print.c); ids as prio-calc's other JSON */
static const struct start_letter letters[] = {
    {'i', "job", "JOBID"},
    {'A', "job_id", "JOBID"},
    {'P', "partition", "PARTITION"},
    {'j', "name", "NAME"},
    {'u', "user", "USER"},
    {'U', "uid", "UID"},
    {'a', "account", "ACCOUNT"},
    {'q', "qos", "QOS"},
    {'t', "state", "ST"},
    {'T', "state_long", "STATE"},
    {'S', "start_time", "START_TIME"},
    {'e', "end_time", "END_TIME"},
    {'V', "submit_time", "SUBMIT_TIME"},
    {'D', "nodes", "NODES"},
    {'Y', "sched_nodes", "SCHEDNODES"},
    {'R', "reason", "NODELIST(REASON)"},
    {'Q', "priority", "PRIORITY"},
    {'C', "cpus", "CPUS"},
};

const char prio_start_letters[] = "iAPjuUaqtTSeVDYRQC";

static const struct start_letter *find_letter(char c)
{
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (letters[i].letter == c)
			return &letters[i];
	return NULL;
}

int prio_start_table_init(struct prio_start_table *t, const char *format,
			  bool machine, time_t now, char *why, size_t why_size)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->machine = machine;
	t->now = now;
	if (prio_sprio_format_parse(format ? format : PRIO_START_DEFAULT_FORMAT,
				    &t->fmt, why, why_size) < 0) {
		char inner[200];

		snprintf(inner, sizeof(inner), "%s", why);
		snprintf(why, why_size, "-o: %s", inner);
		return -1;
	}
	for (size_t i = 0; i < t->fmt.nitems; i++) {
		char c = t->fmt.items[i].letter;

		if (!find_letter(c)) {
			snprintf(why, why_size,
				 "-o: %%%c is not a letter prio-calc --start "
				 "prints (it knows %%%s)",
				 c,
				 "i %A %P %j %u %U %a %q %t %T %S %e %V %D "
				 "%Y %R %Q %C");
			prio_sprio_format_free(&t->fmt);
			return -1;
		}
	}
	/* machine output: %i is two columns, the integer and the text */
	for (size_t i = 0; i < t->fmt.nitems; i++)
		n += machine && t->fmt.items[i].letter == 'i' ? 2 : 1;
	t->cols = calloc(n ? n : 1, sizeof(*t->cols));
	t->letters = calloc(n ? n : 1, 1);
	t->cells = calloc(n ? n : 1, sizeof(*t->cells));
	t->bufs = calloc(n ? n : 1, sizeof(*t->bufs));
	if (!t->cols || !t->letters || !t->cells || !t->bufs) {
		prio_start_table_free(t);
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->fmt.nitems; i++) {
		const struct prio_sprio_item *it = &t->fmt.items[i];
		const struct start_letter *l = find_letter(it->letter);
		struct prio_column *c = &t->cols[t->ncols];

		if (machine && it->letter == 'i') {
			/* the integer first: job_id as in prio-calc's JSON */
			c->id = "job_id";
			c->header = "JOB_ID";
			t->letters[t->ncols++] = 'A';
			c = &t->cols[t->ncols];
		}
		c->id = l->id;
		c->header = l->header;
		c->width = it->width;
		c->right = it->right;
		c->suffix = it->suffix;
		t->letters[t->ncols++] = it->letter;
		t->shows_sched_nodes |= it->letter == 'Y';
	}
	return 0;
}

void prio_start_table_free(struct prio_start_table *t)
{
	prio_sprio_format_free(&t->fmt);
	free(t->cols);
	free(t->letters);
	free(t->cells);
	free(t->bufs);
	memset(t, 0, sizeof(*t));
}

bool prio_start_listed(const struct prio_job *job)
{
	/* squeue -t PD compares the base state: the held and requeued
	 * flavours scontrol names on their own are pending too */
	switch ((enum prio_job_state)job->state) {
	case PRIO_JOB_REQUEUE_HOLD:
	case PRIO_JOB_SPECIAL_EXIT:
	case PRIO_JOB_RESV_DEL_HOLD:
		return true;
	default:
		return prio_job_state_pending((enum prio_job_state)job->state);
	}
}

const char *prio_start_job_id(const struct prio_snapshot *snap,
			      const struct prio_job *job, char *buf,
			      size_t size)
{
	if (job->array_task_text != PRIO_NO_ID)
		snprintf(buf, size, "%u_[%s]",
			 job->array_job_id ? job->array_job_id : job->job_id,
			 prio_snapshot_str(snap, job->array_task_text));
	else if (job->array_task_id != PRIO_NO_VAL)
		snprintf(buf, size, "%u_%u", job->array_job_id,
			 job->array_task_id);
	else if (job->het_job_id && job->detail &&
		 job->detail->het_job_offset != PRIO_NO_VAL)
		snprintf(buf, size, "%u+%u", job->het_job_id,
			 job->detail->het_job_offset);
	else
		snprintf(buf, size, "%u", job->job_id);
	return buf;
}

const char *prio_start_partitions(const struct prio_snapshot *snap,
				  const struct prio_job *job, char *buf,
				  size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < job->partition_count && off < size; k++)
		off += (size_t)snprintf(
		    buf + off, size - off, "%s%s", k ? "," : "",
		    prio_snapshot_str(snap, job->partitions[k]));
	return buf;
}

const char *prio_start_reason(const struct prio_snapshot *snap,
			      const struct prio_job *job, char *buf,
			      size_t size)
{
	const char *r;
	size_t i;

	/* squeue --json gives the description as the controller holds it;
	 * scontrol printed it as Reason= with '_' for every blank, which
	 * squeue shows as blanks again (no reason name has a '_') */
	if (job->detail && job->detail->state_desc != PRIO_NO_ID)
		return prio_snapshot_str(snap, job->detail->state_desc);
	r = job->reason != PRIO_NO_ID ? prio_snapshot_str(snap, job->reason)
				      : "None";
	for (i = 0; r[i] && i + 1 < size; i++)
		buf[i] = r[i] == '_' ? ' ' : r[i];
	buf[i] = '\0';
	return buf;
}

static struct prio_cell time_cell(const struct prio_start_table *t, time_t v,
				  char *buf, size_t size)
{
	if (!v)
		return t->machine ? prio_cell_blank() : prio_cell_str("N/A");
	return prio_cell_str(prio_timestamp_format(v, buf, size));
}

static const char *str_or_null(const struct prio_snapshot *snap, prio_id id)
{
	/* printf's "(null)" for the NULL strings squeue passes on */
	return id != PRIO_NO_ID ? prio_snapshot_str(snap, id) : "(null)";
}

void prio_start_row_cells(struct prio_start_table *t,
			  const struct prio_snapshot *snap,
			  const struct prio_job *job)
{
	for (size_t i = 0; i < t->ncols; i++) {
		char *b = t->bufs[i];
		size_t bs = sizeof(t->bufs[i]);
		struct prio_cell *c = &t->cells[i];
		prio_id sn;

		switch (t->letters[i]) {
		case 'i':
			*c = prio_cell_str(prio_start_job_id(snap, job, b, bs));
			break;
		case 'A':
			*c = t->machine
				 ? prio_cell_uint(job->job_id)
				 : prio_cell_str(
				       (snprintf(b, bs, "%u", job->job_id), b));
			break;
		case 'P':
			*c = prio_cell_str(
			    prio_start_partitions(snap, job, b, bs));
			break;
		case 'j':
			*c = prio_cell_str(job->name ? job->name : "(null)");
			break;
		case 'u':
			*c = prio_cell_str(prio_snapshot_str(snap, job->user));
			break;
		case 'U':
			*c = job->uid == PRIO_NO_VAL ? prio_cell_blank()
						     : prio_cell_uint(job->uid);
			break;
		case 'a':
			*c = t->machine && job->account == PRIO_NO_ID
				 ? prio_cell_blank()
				 : prio_cell_str(
				       str_or_null(snap, job->account));
			break;
		case 'q':
			*c = t->machine && job->qos == PRIO_NO_ID
				 ? prio_cell_blank()
				 : prio_cell_str(str_or_null(snap, job->qos));
			break;
		case 't':
			*c = prio_cell_str(prio_job_state_short(
			    (enum prio_job_state)job->state));
			break;
		case 'T':
			*c = prio_cell_str(prio_job_state_name(
			    (enum prio_job_state)job->state));
			break;
		case 'S':
			*c = time_cell(t, job->start_time, b, bs);
			break;
		case 'e':
			/* squeue: an unlimited job not yet ended ends NONE */
			if (job->time_limit == PRIO_INFINITE &&
			    job->end_time > t->now)
				*c = prio_cell_str("NONE");
			else
				*c = time_cell(t, job->end_time, b, bs);
			break;
		case 'V':
			*c = time_cell(t, job->submit_time, b, bs);
			break;
		case 'D':
			*c = t->machine
				 ? prio_cell_uint(prio_job_nodes_shown(job))
				 : prio_cell_str(
				       (snprintf(b, bs, "%u",
						 prio_job_nodes_shown(job)),
					b));
			break;
		case 'Y':
			sn = prio_job_sched_nodes(job);
			if (job->sched_nodes_unknown ||
			    (t->machine && sn == PRIO_NO_ID))
				*c = prio_cell_blank();
			else
				*c = prio_cell_str(str_or_null(snap, sn));
			break;
		case 'R':
			if (!prio_start_listed(job)) {
				*c = prio_cell_str(
				    job->node_list != PRIO_NO_ID
					? prio_snapshot_str(snap,
							    job->node_list)
					: "");
			} else if (t->machine) {
				*c = prio_cell_str(
				    prio_start_reason(snap, job, b, bs));
			} else {
				char r[sizeof(t->bufs[i]) - 2];

				snprintf(
				    b, bs, "(%s)",
				    prio_start_reason(snap, job, r, sizeof(r)));
				*c = prio_cell_str(b);
			}
			break;
		case 'Q':
			*c =
			    t->machine
				? prio_cell_uint(job->priority)
				: prio_cell_str((
				      snprintf(b, bs, "%u", job->priority), b));
			break;
		case 'C':
			*c =
			    t->machine
				? prio_cell_uint(job->num_cpus)
				: prio_cell_str((
				      snprintf(b, bs, "%u", job->num_cpus), b));
			break;
		default:
			*c = prio_cell_blank();
		}
	}
}

struct start_key {
	time_t when; /* 0: no estimate */
	uint32_t ix;
};

static int cmp_start(const void *a, const void *b)
{
	const struct start_key *x = a, *y = b;

	if (!x->when != !y->when)
		return x->when ? -1 : 1;
	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

int prio_start_sort(const struct prio_snapshot *snap, time_t now, uint32_t *ix,
		    size_t n)
{
	struct start_key *k = malloc((n ? n : 1) * sizeof(*k));

	if (!k)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct prio_job *job = &snap->jobs[ix[i]];

		k[i].ix = ix[i];
		k[i].when = job->start_time;
		/* squeue's _get_start_time: a pending job's past estimate
		 * sorts as now (its state exactly PENDING, no flag) */
		if (k[i].when && job->state == PRIO_JOB_PENDING &&
		    k[i].when < now)
			k[i].when = now;
	}
	qsort(k, n, sizeof(*k), cmp_start);
	for (size_t i = 0; i < n; i++)
		ix[i] = k[i].ix;
	free(k);
	return 0;
}
