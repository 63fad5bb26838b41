/* SPDX-License-Identifier: MIT */
/*
 * preempt-plan: if this pending job starts, whose jobs stop, how (suspend,
 * requeue, cancel) and when -- the way Slurm 22.05 decides it, and the
 * placement that preempts the fewest jobs.  The job is a pending job of the
 * snapshot (--job) or described with sbatch's options.
 *
 * The engines are in libprio (preempt.h, report_preempt.h); this file
 * parses options and prints.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "prio/preempt.h"
#include "prio/report_preempt.h"

#define USAGE                                                                  \
	"preempt-plan [--snapshot DIR | --conf F --jobs F ...] "               \
	"(--job JOBID | -p PART -N NODES -n TASKS ...) "                       \
	"[--strategy slurm|minimal|both] [--queue] [-o FMT] "                  \
	"[-P|--csv|--json] [-h]"

enum {
	OPT_JOB = OPT_COMMON_LAST + 1,
	OPT_MEM,
	OPT_MEM_PER_CPU,
	OPT_USER,
	OPT_PRIORITY,
	OPT_EXCLUSIVE,
	OPT_OVERSUBSCRIBE,
	OPT_STRATEGY,
	OPT_SEARCH_LIMIT,
	OPT_QUEUE,
};

enum strategy { STRAT_SLURM = 1, STRAT_MINIMAL = 2, STRAT_BOTH = 3 };

/* What the command line asked, before the snapshot exists. */
struct args {
	const char *job;
	const char *partition, *qos, *account, *user, *name;
	uint32_t min_nodes, max_nodes, ntasks, cpus_per_task, time_limit;
	uint32_t priority;
	uint64_t mem_mb;
	bool mem_per_cpu, exclusive, oversubscribe;
	enum strategy strategy;
	uint64_t search_limit;
	bool queue_only;
	const char *format;
};

/* The help text is laid out as printed. */
/* clang-format off */
static void help(void)
{
	printf("Usage: %s\n\n"
	       "Which running jobs a pending job would preempt, how and when, the\n"
	       "way Slurm decides it, and the placement that preempts fewest.\n\n"
	       "The pending job:\n"
	       "      --job=JOBID        a pending job of the snapshot\n"
	       "  -p, --partition=NAME   or described like sbatch: its partition\n"
	       "  -N, --nodes=MIN[-MAX]  node count (--nodes with a file: the nodes\n"
	       "                         source)\n"
	       "  -n, --ntasks=N         tasks\n"
	       "  -c, --cpus-per-task=N  CPUs per task\n"
	       "      --mem=SIZE         memory per node (MB, or K/M/G/T suffix)\n"
	       "      --mem-per-cpu=SIZE memory per CPU\n"
	       "  -q, --qos=NAME         QOS (--qos with a file: the QOS source)\n"
	       "  -t, --time=TIME        time limit (minutes, or H:MM:SS, D-HH...)\n"
	       "  -A, --account=NAME     account\n"
	       "      --user=NAME        user\n"
	       "  -J, --job-name=NAME    job name\n"
	       "      --priority=N       job priority (for QOS PreemptMode WITHIN)\n"
	       "      --exclusive        whole nodes\n"
	       "      --oversubscribe    share CPUs where OverSubscribe=YES allows\n"
	       "The plan:\n"
	       "      --strategy=WHICH   slurm, minimal or both (default both)\n"
	       "      --search-limit=N   feasibility tests the minimal search may\n"
	       "                         make (default %u)\n"
	       "      --queue            print only the queue afterwards\n"
	       "  -o, --format=FMT       squeue -o format of that queue\n"
	       "                         (default \"%s\")\n",
	       USAGE, PRIO_PREEMPT_DEFAULT_STEPS, PRIO_SQUEUE_DEFAULT_FORMAT);
	cmd_common_help(stdout);
	printf("\nExit status: 0 the job can start, 1 it cannot even with "
	       "preemption,\n2 usage or input error.  See preempt-plan(1).\n");
}
/* clang-format on */

static uint32_t parse_count(const struct cmd_common *c, const char *opt,
			    const char *arg, bool zero_ok)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v > 0x7fffffffUL || arg[0] == '-' ||
	    (!zero_ok && v == 0))
		cmd_usage_error(c, USAGE,
				"%s: expected a %s integer, got \"%s\"", opt,
				zero_ok ? "non-negative" : "positive", arg);
	return (uint32_t)v;
}

static void parse_nodes(const struct cmd_common *c, const char *arg,
			struct args *a)
{
	const char *dash = strchr(arg, '-');
	char min[32];

	if (!dash) {
		a->min_nodes = parse_count(c, "--nodes", arg, false);
		return;
	}
	if ((size_t)(dash - arg) >= sizeof(min))
		cmd_usage_error(c, USAGE,
				"--nodes: expected MIN[-MAX], got \"%s\"", arg);
	memcpy(min, arg, (size_t)(dash - arg));
	min[dash - arg] = '\0';
	a->min_nodes = parse_count(c, "--nodes", min, false);
	a->max_nodes = parse_count(c, "--nodes", dash + 1, false);
	if (a->max_nodes < a->min_nodes)
		cmd_usage_error(c, USAGE, "--nodes: MAX below MIN in \"%s\"",
				arg);
}

static uint64_t parse_mem(const struct cmd_common *c, const char *opt,
			  const char *arg)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || arg[0] == '-')
		goto bad;
	switch (*end) {
	case '\0':
		break;
	case 'K':
	case 'k':
		mult = 0;
		break;
	case 'M':
	case 'm':
		break;
	case 'G':
	case 'g':
		mult = 1024;
		break;
	case 'T':
	case 't':
		mult = 1024 * 1024;
		break;
	default:
		goto bad;
	}
	if (*end && end[1] && !((end[1] == 'B' || end[1] == 'b') && !end[2]))
		goto bad;
	if (mult == 0)
		return (v + 1023) / 1024;
	if (v > UINT64_MAX / mult)
		goto bad;
	return v * mult;
bad:
	cmd_usage_error(c, USAGE,
			"%s: expected a size like 4000, 4G, got \"%s\"", opt,
			arg);
}

static enum strategy parse_strategy(const struct cmd_common *c, const char *arg)
{
	if (!strcmp(arg, "slurm"))
		return STRAT_SLURM;
	if (!strcmp(arg, "minimal"))
		return STRAT_MINIMAL;
	if (!strcmp(arg, "both"))
		return STRAT_BOTH;
	cmd_usage_error(
	    c, USAGE, "--strategy: expected slurm, minimal or both, got \"%s\"",
	    arg);
}

/* The snapshot index of a job "123" or "123_4"; UINT32_MAX if absent. */
static uint32_t find_job(const struct cmd_common *c,
			 const struct prio_snapshot *snap, const char *arg)
{
	char *end;
	unsigned long id, task = ULONG_MAX;

	errno = 0;
	id = strtoul(arg, &end, 10);
	if (*end == '_') {
		const char *t = end + 1;

		task = strtoul(t, &end, 10);
		if (end == t)
			end = (char *)t - 1;
	}
	if (errno || end == arg || *end || arg[0] == '-')
		cmd_usage_error(c, USAGE,
				"--job: expected a job id, got \"%s\"", arg);
	for (uint32_t j = 0; j < snap->job_count; j++) {
		const struct prio_job *job = &snap->jobs[j];

		if (task == ULONG_MAX
			? job->job_id == id
			: job->array_job_id == id && job->array_task_id == task)
			return j;
	}
	return UINT32_MAX;
}

static prio_id intern_opt(const struct cmd_common *c,
			  struct prio_snapshot *snap, const char *s)
{
	prio_id id;

	if (!s)
		return PRIO_NO_ID;
	id = prio_snapshot_intern(snap, s, strlen(s));
	if (!id)
		cmd_die(c, "out of memory");
	return id;
}

static void build_request(const struct cmd_common *c,
			  struct prio_snapshot *snap, const struct args *a,
			  struct prio_preempt_request *req)
{
	struct prio_error err;

	prio_preempt_request_init(req);
	req->partition = intern_opt(c, snap, a->partition);
	req->qos = intern_opt(c, snap, a->qos);
	req->account = intern_opt(c, snap, a->account);
	req->user = intern_opt(c, snap, a->user);
	req->name = a->name;
	req->min_nodes = a->min_nodes;
	req->max_nodes = a->max_nodes;
	req->ntasks = a->ntasks;
	req->cpus_per_task = a->cpus_per_task;
	req->mem_mb = a->mem_mb;
	req->mem_per_cpu = a->mem_per_cpu;
	if (a->time_limit)
		req->time_limit = a->time_limit;
	req->priority = a->priority;
	req->exclusive = a->exclusive;
	req->oversubscribe = a->oversubscribe;
	if (a->job) {
		uint32_t j = find_job(c, snap, a->job);

		if (j == UINT32_MAX)
			cmd_die(c, "--job %s: no such job in the snapshot",
				a->job);
		prio_error_clear(&err);
		if (prio_preempt_request_from_job(snap, j, req, &err) < 0)
			cmd_die(c, "--job %s: %s", a->job, err.message);
	}
	if (!req->name)
		req->name = "preemptor";
}

/* --- text output ----------------------------------------------------- */

static const char *plan_title(const struct prio_preempt_plan *p)
{
	return p->strategy == PRIO_STRATEGY_SLURM ? "Slurm's plan"
						  : "Minimal plan";
}

static const char *when(const struct prio_snapshot *snap, time_t t, char *buf,
			size_t size)
{
	if (t == snap->now) {
		char ts[32];

		snprintf(buf, size, "now (%s)",
			 prio_timestamp_format(t, ts, sizeof(ts)));
		return buf;
	}
	return prio_timestamp_format(t, buf, size);
}

/* The job's nodes compressed ("pren[1-3]"). */
static const char *plan_nodes(const struct prio_snapshot *snap,
			      const struct prio_preempt_plan *p, char *buf,
			      size_t size)
{
	char **names =
	    malloc((p->node_count ? p->node_count : 1) * sizeof(*names));

	if (!names) {
		snprintf(buf, size, "(out of memory)");
		return buf;
	}
	for (uint32_t i = 0; i < p->node_count; i++)
		names[i] = (char *)prio_snapshot_str(
		    snap, snap->nodes[p->nodes[i]].name);
	prio_hostlist_compress(names, p->node_count, buf, size);
	free(names);
	return buf;
}

static void print_summary(const struct prio_preempt_ctx *ctx,
			  const struct prio_preempt_plan *p)
{
	const struct prio_snapshot *snap = ctx->snap;
	char nodes[4096], t[64];

	printf("%s: ", plan_title(p));
	if (!p->can_start) {
		printf("job %u cannot start, even with preemption: %s\n",
		       ctx->req.job_id, p->why_not);
		return;
	}
	printf("job %u starts %s on %s", ctx->req.job_id,
	       when(snap, p->start_time, t, sizeof(t)),
	       plan_nodes(snap, p, nodes, sizeof(nodes)));
	if (!p->victim_count) {
		printf(", preempting nothing");
	} else {
		const char *sep = " (";

		printf(", preempting %u job%s", p->victim_count,
		       p->victim_count == 1 ? "" : "s");
		for (int a = PRIO_ACTION_SUSPEND; a < PRIO_ACTION_COUNT; a++)
			if (p->action_count[a]) {
				printf("%s%s %u", sep,
				       prio_preempt_action_name(
					   (enum prio_preempt_action)a),
				       p->action_count[a]);
				sep = ", ";
			}
		printf(")");
		if (p->lost_cpu_seconds)
			printf(", %llu CPU-seconds of work lost",
			       (unsigned long long)p->lost_cpu_seconds);
	}
	if (p->strategy == PRIO_STRATEGY_MINIMAL)
		printf(p->exact ? " [exact, %llu steps]"
				: " [best found in %llu steps, not proven "
				  "minimal]",
		       (unsigned long long)p->steps);
	printf("\n");
}

static void print_saving(const struct prio_preempt_plan *s,
			 const struct prio_preempt_plan *m)
{
	if (!s->can_start || !m->can_start)
		return;
	if (m->victim_count < s->victim_count)
		printf(
		    "The minimal plan preempts %u job%s fewer (%u instead of "
		    "%u)",
		    s->victim_count - m->victim_count,
		    s->victim_count - m->victim_count == 1 ? "" : "s",
		    m->victim_count, s->victim_count);
	else
		printf("Both plans preempt %u job%s", s->victim_count,
		       s->victim_count == 1 ? "" : "s");
	if (m->lost_cpu_seconds < s->lost_cpu_seconds)
		printf("%s %llu CPU-seconds less work lost",
		       m->victim_count < s->victim_count ? ", and"
							 : "; the minimal "
							   "plan has",
		       (unsigned long long)(s->lost_cpu_seconds -
					    m->lost_cpu_seconds));
	printf(".\n");
}

static bool same_plan(const struct prio_preempt_plan *a,
		      const struct prio_preempt_plan *b)
{
	if (a->can_start != b->can_start || a->node_count != b->node_count ||
	    a->victim_count != b->victim_count)
		return false;
	for (uint32_t i = 0; i < a->node_count; i++)
		if (a->nodes[i] != b->nodes[i])
			return false;
	for (uint32_t i = 0; i < a->entry_count; i++)
		if (a->entries[i].action != b->entries[i].action)
			return false;
	return true;
}

/* Every job holding resources: victims first in the order Slurm acts,
 * then the others in job order. */
static uint32_t *row_order(const struct prio_preempt_plan *p)
{
	uint32_t *order =
	    malloc((p->entry_count ? p->entry_count : 1) * sizeof(*order));
	uint32_t k = 0;

	if (!order)
		return NULL;
	for (uint32_t v = 0; v < p->victim_count; v++)
		order[k++] = p->victims[v];
	for (uint32_t i = 0; i < p->entry_count; i++)
		if (p->entries[i].action == PRIO_ACTION_NONE)
			order[k++] = i;
	return order;
}

static void print_jobs(const struct cmd_common *c,
		       const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_plan *p,
		       const struct prio_preempt_plan *m)
{
	static const struct prio_column cols[] = {
	    {"jobid", "JOBID", 8, true, PRIO_NUMFMT_PLAIN, " "},
	    {"partition", "PARTITION", 9, true, PRIO_NUMFMT_PLAIN, " "},
	    {"user", "USER", 8, true, PRIO_NUMFMT_PLAIN, " "},
	    {"nodes", "NODELIST", 15, false, PRIO_NUMFMT_PLAIN, " "},
	    {"mode", "MODE", 7, true, PRIO_NUMFMT_PLAIN, " "},
	    {"grace", "GRACE", 5, true, PRIO_NUMFMT_PLAIN, " "},
	    {"action", "ACTION", 7, true, PRIO_NUMFMT_PLAIN, " "},
	    {"minimal", "MINIMAL", 7, true, PRIO_NUMFMT_PLAIN, " "},
	    {"why", "WHY", 0, false, PRIO_NUMFMT_PLAIN, NULL},
	};
	struct prio_column use[9];
	struct prio_cell cells[PRIO_PCOL_COUNT], out[9];
	struct prio_preempt_row_text text;
	struct prio_writer *w;
	uint32_t *order = row_order(p);
	size_t n = 0;
	char reason[1100];

	if (!order)
		cmd_die(c, "out of memory");
	memcpy(use, cols, sizeof(cols));
	if (m) {
		use[6].header =
		    p->strategy == PRIO_STRATEGY_SLURM ? "SLURM" : "ACTION";
		n = 9;
	} else {
		use[7] = use[8];
		n = 8;
	}
	w = prio_writer_new(stdout, PRIO_OUT_TEXT, PRIO_STYLE_SPRIO, use, n,
			    !c->noheader, NULL);
	if (!w)
		cmd_die(c, "out of memory");
	for (uint32_t i = 0; i < p->entry_count; i++) {
		uint32_t e = order[i];

		prio_preempt_row(ctx, p, m, e, cells, &text);
		out[0] = cells[PRIO_PCOL_JOBID];
		out[1] = cells[PRIO_PCOL_PARTITION];
		out[2] = cells[PRIO_PCOL_USER];
		out[3] = cells[PRIO_PCOL_NODES];
		out[4] = cells[PRIO_PCOL_MODE];
		out[5] = cells[PRIO_PCOL_GRACE];
		out[6] = cells[PRIO_PCOL_ACTION];
		if (m) {
			out[7] = cells[PRIO_PCOL_MIN_ACTION];
			if (p->entries[e].action == m->entries[e].action)
				out[8] = prio_cell_str(text.reason);
			else {
				snprintf(reason, sizeof(reason),
					 "%s | minimal: %s", text.reason,
					 text.min_reason);
				out[8] = prio_cell_str(reason);
			}
		} else {
			out[7] = cells[PRIO_PCOL_REASON];
		}
		if (prio_writer_row(w, out) < 0)
			break;
	}
	free(order);
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
}

/* Print the job ids of victims[from..to) of p, comma-separated. */
static void print_ids(const struct prio_snapshot *snap,
		      const struct prio_preempt_plan *p, const uint32_t *v,
		      uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		printf("%s%u", i ? ", " : "",
		       snap->jobs[p->entries[v[i]].job].job_id);
}

static const struct prio_preempt_plan *sort_plan;

/* Killed and requeued victims by stop time, then action, then the order
 * Slurm acts in. */
static int cmp_stop(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct prio_preempt_entry *e = &sort_plan->entries[x];
	const struct prio_preempt_entry *f = &sort_plan->entries[y];

	if (e->stop_time != f->stop_time)
		return e->stop_time < f->stop_time ? -1 : 1;
	if (e->action != f->action)
		return e->action < f->action ? -1 : 1;
	return e->rank < f->rank ? -1 : e->rank > f->rank;
}

static void print_next(const struct cmd_common *c,
		       const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_plan *p, bool both)
{
	const struct prio_snapshot *snap = ctx->snap;
	uint32_t *stop =
	    malloc((p->victim_count ? p->victim_count : 1) * sizeof(*stop));
	uint32_t *susp =
	    malloc((p->victim_count ? p->victim_count : 1) * sizeof(*susp));
	uint32_t ns = 0, nk = 0;
	int grace_note = 0;
	char t[64], u[64], nodes[4096];

	if (!stop || !susp)
		cmd_die(c, "out of memory");
	printf("What happens next (%s):\n",
	       both ? "both plans" : plan_title(p));
	for (uint32_t v = 0; v < p->victim_count; v++) {
		const struct prio_preempt_entry *e = &p->entries[p->victims[v]];

		if (e->action == PRIO_ACTION_SUSPEND) {
			susp[ns++] = p->victims[v];
			continue;
		}
		stop[nk++] = p->victims[v];
		if (e->signal_time)
			printf(
			    "  %s  job %u: SIGCONT and SIGTERM, GraceTime "
			    "%u s until %s\n",
			    prio_timestamp_format(e->signal_time, t, sizeof(t)),
			    snap->jobs[e->job].job_id, e->grace,
			    prio_timestamp_format(e->stop_time, u, sizeof(u)));
		if (e->signal_time)
			grace_note = e->grace_exit_preempted ? 2 : 1;
	}
	/* What an exit on SIGTERM within GraceTime means changed in 24.05. */
	if (grace_note == 2)
		printf("  (a job that exits on SIGTERM within its GraceTime "
		       "counts as preempted: PREEMPTED, or requeued)\n");
	else if (grace_note == 1)
		printf("  (a job that exits on SIGTERM within its GraceTime "
		       "ends as it exited and is not requeued: Slurm before "
		       "24.05)\n");
	sort_plan = p;
	qsort(stop, nk, sizeof(*stop), cmp_stop);
	for (uint32_t i = 0, j; i < nk; i = j) {
		const struct prio_preempt_entry *e = &p->entries[stop[i]];

		for (j = i + 1;
		     j < nk && p->entries[stop[j]].stop_time == e->stop_time &&
		     p->entries[stop[j]].action == e->action;
		     j++)
			;
		printf("  %s  ",
		       prio_timestamp_format(e->stop_time, t, sizeof(t)));
		print_ids(snap, p, stop + i, j - i);
		if (e->action == PRIO_ACTION_REQUEUE)
			printf(" requeued (pending, eligible again at %s: "
			       "BeginTime)\n",
			       prio_timestamp_format(e->resume_time, u,
						     sizeof(u)));
		else
			printf(" %s (SIGKILL; state PREEMPTED)\n",
			       e->grace ? "killed" : "cancelled");
	}
	if (ns) {
		printf("  %s  ",
		       prio_timestamp_format(p->start_time, t, sizeof(t)));
		print_ids(snap, p, susp, ns);
		printf(" suspended by the gang scheduler\n");
	}
	printf("  %s  job %u starts on %s\n",
	       prio_timestamp_format(p->start_time, t, sizeof(t)),
	       ctx->req.job_id, plan_nodes(snap, p, nodes, sizeof(nodes)));
	if (p->end_time) {
		printf("  %s  job %u reaches its time limit at the latest",
		       prio_timestamp_format(p->end_time, t, sizeof(t)),
		       ctx->req.job_id);
		if (ns) {
			printf("; when it ends ");
			print_ids(snap, p, susp, ns);
			printf(" resume%s", ns == 1 ? "s" : "");
		}
		printf("\n");
	} else if (ns) {
		printf("  (no time limit)  ");
		print_ids(snap, p, susp, ns);
		printf(" resume when job %u ends\n", ctx->req.job_id);
	}
	free(stop);
	free(susp);
}

static void print_queue(const struct cmd_common *c,
			const struct prio_preempt_ctx *ctx,
			const struct prio_preempt_plan *p, const char *format,
			enum prio_output_mode mode)
{
	struct prio_squeue_table t;
	struct prio_preempt_queue q;
	struct prio_error err;
	struct prio_writer *w;
	struct prio_cell *cells;
	char(*bufs)[160];
	char why[256];

	if (prio_squeue_table_init(&t, format, why, sizeof(why)) < 0)
		cmd_usage_error(c, USAGE, "--format: %s", why);
	prio_error_clear(&err);
	if (prio_preempt_queue_build(ctx, p, &q, &err) < 0)
		cmd_die_error(c, &err);
	cells = calloc(t.ncols ? t.ncols : 1, sizeof(*cells));
	bufs = calloc(t.ncols ? t.ncols : 1, sizeof(*bufs));
	w = cells && bufs
		? prio_writer_new(stdout, mode, PRIO_STYLE_SPRIO, t.cols,
				  t.ncols, !c->noheader,
				  mode == PRIO_OUT_TEXT ? t.fmt.prefix : NULL)
		: NULL;
	if (!w)
		cmd_die(c, "out of memory");
	for (uint32_t i = 0; i < q.count; i++) {
		prio_squeue_cells(&t, ctx, &q, &q.rows[i], cells, bufs);
		if (prio_writer_row(w, cells) < 0)
			break;
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
	free(cells);
	free(bufs);
	prio_preempt_queue_free(&q);
	prio_squeue_table_free(&t);
}

static void print_text(const struct cmd_common *c,
		       const struct prio_preempt_ctx *ctx,
		       const struct prio_preempt_plan *first,
		       const struct prio_preempt_plan *second,
		       const char *format)
{
	const struct prio_snapshot *snap = ctx->snap;
	const struct prio_config *conf = &snap->conf;
	char a[32], mode[64], nodes[32];
	bool both = false;

	if (ctx->max_nodes > ctx->need_nodes)
		snprintf(nodes, sizeof(nodes), "%u-%u", ctx->need_nodes,
			 ctx->max_nodes);
	else
		snprintf(nodes, sizeof(nodes), "%u", ctx->need_nodes);
	printf("Job %u%s: partition %s (PriorityTier %u), %s%s node%s, %u "
	       "CPU%s, QOS %s, time limit %s\n",
	       ctx->req.job_id,
	       ctx->req.job_index == UINT32_MAX ? " (described)" : " (pending)",
	       prio_snapshot_str(snap, ctx->partition->name),
	       ctx->partition->tier, nodes, ctx->whole_nodes ? " whole" : "",
	       ctx->max_nodes == 1 ? "" : "s", ctx->need_cpus,
	       ctx->need_cpus == 1 ? "" : "s",
	       ctx->req.qos ? prio_snapshot_str(snap, ctx->req.qos) : "(none)",
	       prio_mins2time_str(ctx->req.time_limit, a, sizeof(a)));
	printf("Cluster: PreemptType=%s PreemptMode=%s %s, %u job%s holding "
	       "resources, %u preemptable\n",
	       conf->preempt_type_text ? conf->preempt_type_text
				       : "preempt/none",
	       prio_preempt_mode_format(conf->preempt_mode, mode, sizeof(mode)),
	       ctx->res->select == PRIO_SELECT_LINEAR ? "select/linear"
						      : "select/cons_tres",
	       ctx->entry_count, ctx->entry_count == 1 ? "" : "s",
	       ctx->cand_count);
	printf("\n");
	print_summary(ctx, first);
	if (second) {
		print_summary(ctx, second);
		print_saving(first, second);
	}
	printf("\n");
	print_jobs(c, ctx, first, second);
	if (second && same_plan(first, second)) {
		second = NULL;
		both = true;
	}
	if (first->can_start) {
		printf("\n");
		print_next(c, ctx, first, both);
		printf("\nQueue afterwards (%s):\n",
		       both ? "both plans" : plan_title(first));
		fflush(stdout);
		print_queue(c, ctx, first, format, PRIO_OUT_TEXT);
	}
	if (second && second->can_start) {
		printf("\n");
		print_next(c, ctx, second, false);
		printf("\nQueue afterwards (%s):\n", plan_title(second));
		fflush(stdout);
		print_queue(c, ctx, second, format, PRIO_OUT_TEXT);
	}
}

static void print_machine(const struct cmd_common *c,
			  const struct prio_preempt_ctx *ctx,
			  const struct prio_preempt_plan *first,
			  const struct prio_preempt_plan *second)
{
	struct prio_cell cells[PRIO_PCOL_COUNT];
	struct prio_preempt_row_text text;
	size_t n = second ? PRIO_PCOL_COUNT : PRIO_PCOL_MIN_ACTION;
	struct prio_writer *w =
	    prio_writer_new(stdout, cmd_writer_mode(c->mode), PRIO_STYLE_SPRIO,
			    prio_preempt_columns, n, !c->noheader, NULL);

	/* JSON: "nodes" is a node count in every tool, the names nodelist */
	if (!w || prio_writer_json_key(w, "nodes", "nodelist") < 0)
		cmd_die(c, "out of memory");
	for (uint32_t i = 0; i < first->entry_count; i++) {
		prio_preempt_row(ctx, first, second, i, cells, &text);
		if (prio_writer_row(w, cells) < 0)
			break;
	}
	if (prio_writer_finish(w) < 0)
		cmd_die_write(c);
}

static bool is_node_count(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0)
		return false;
	if (s[n] == '-')
		s += n + 1, n = strspn(s, "0123456789");
	return n > 0 && s[n] == '\0';
}

static bool is_file_name(const char *s)
{
	return !strcmp(s, "-") || strchr(s, '/') || access(s, F_OK) == 0;
}

static void parse_args(int argc, char **argv, struct cmd_common *c,
		       struct args *a)
{
	static const struct option own[] = {
	    {"job", required_argument, NULL, OPT_JOB},
	    {"partition", required_argument, NULL, 'p'},
	    {"ntasks", required_argument, NULL, 'n'},
	    {"cpus-per-task", required_argument, NULL, 'c'},
	    {"mem", required_argument, NULL, OPT_MEM},
	    {"mem-per-cpu", required_argument, NULL, OPT_MEM_PER_CPU},
	    {"time", required_argument, NULL, 't'},
	    {"account", required_argument, NULL, 'A'},
	    {"user", required_argument, NULL, OPT_USER},
	    {"job-name", required_argument, NULL, 'J'},
	    {"priority", required_argument, NULL, OPT_PRIORITY},
	    {"exclusive", no_argument, NULL, OPT_EXCLUSIVE},
	    {"oversubscribe", no_argument, NULL, OPT_OVERSUBSCRIBE},
	    {"strategy", required_argument, NULL, OPT_STRATEGY},
	    {"search-limit", required_argument, NULL, OPT_SEARCH_LIMIT},
	    {"queue", no_argument, NULL, OPT_QUEUE},
	    {"format", required_argument, NULL, 'o'},
	    {"parsable", no_argument, NULL, 'P'},
	    {"noheader", no_argument, NULL, 'h'},
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	const struct option *longopts = cmd_merge_options(own, NOWN);
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":p:N:n:c:q:t:A:J:o:Ph", longopts,
				  NULL)) != -1) {
		/* sbatch's --nodes and --qos share their names with the
		 * source options: a count is a node count, a name that is
		 * no file is a QOS. */
		if (opt == OPT_NODES && is_node_count(optarg))
			opt = 'N';
		else if (opt == OPT_QOS && !is_file_name(optarg))
			opt = 'q';
		else if (cmd_common_option(c, opt, optarg))
			continue;
		switch (opt) {
		case OPT_JOB:
			a->job = optarg;
			break;
		case 'p':
			a->partition = optarg;
			break;
		case 'N':
			parse_nodes(c, optarg, a);
			break;
		case 'n':
			a->ntasks = parse_count(c, "--ntasks", optarg, false);
			break;
		case 'c':
			a->cpus_per_task =
			    parse_count(c, "--cpus-per-task", optarg, false);
			break;
		case OPT_MEM:
			a->mem_mb = parse_mem(c, "--mem", optarg);
			a->mem_per_cpu = false;
			break;
		case OPT_MEM_PER_CPU:
			a->mem_mb = parse_mem(c, "--mem-per-cpu", optarg);
			a->mem_per_cpu = true;
			break;
		case 'q':
			a->qos = optarg;
			break;
		case 't':
			if (prio_time_str2mins(optarg, strlen(optarg),
					       &a->time_limit) < 0 ||
			    a->time_limit == 0)
				cmd_usage_error(c, USAGE,
						"--time: expected a time limit "
						"like 30, 2:00:00 or 1-0, got "
						"\"%s\"",
						optarg);
			break;
		case 'A':
			a->account = optarg;
			break;
		case OPT_USER:
			a->user = optarg;
			break;
		case 'J':
			a->name = optarg;
			break;
		case OPT_PRIORITY:
			a->priority =
			    parse_count(c, "--priority", optarg, true);
			break;
		case OPT_EXCLUSIVE:
			a->exclusive = true;
			break;
		case OPT_OVERSUBSCRIBE:
			a->oversubscribe = true;
			break;
		case OPT_STRATEGY:
			a->strategy = parse_strategy(c, optarg);
			break;
		case OPT_SEARCH_LIMIT:
			a->search_limit =
			    parse_count(c, "--search-limit", optarg, false);
			break;
		case OPT_QUEUE:
			a->queue_only = true;
			break;
		case 'o':
			a->format = optarg;
			break;
		case 'P':
			cmd_output(c, CMD_OUT_PARSABLE2);
			break;
		case 'h':
			c->noheader = true;
			break;
		case OPT_HELP:
			help();
			exit(EXIT_OK);
		case OPT_VERSION:
			printf("preempt-plan (prio-tools) %s\n",
			       PACKAGE_VERSION);
			exit(EXIT_OK);
		case ':':
			cmd_usage_error(c, USAGE, "option '%s' needs a value",
					argv[optind - 1]);
		default:
			cmd_usage_error(c, USAGE, "unknown option '%s'",
					argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd_usage_error(c, USAGE, "unexpected argument '%s'",
				argv[optind]);
	if (!a->job && !a->partition && !a->min_nodes && !a->ntasks)
		cmd_usage_error(c, USAGE,
				"which job? give --job JOBID or describe it "
				"(-p, -N, -n, ...)");
	/* a bad -o is a usage error before any output, not after the plan
	 * was printed (print_queue checks it again where it is used) */
	if (a->format) {
		struct prio_squeue_table t;
		char why[256];

		if (prio_squeue_table_init(&t, a->format, why, sizeof(why)) < 0)
			cmd_usage_error(c, USAGE, "--format: %s", why);
		prio_squeue_table_free(&t);
	}
}

int main(int argc, char **argv)
{
	/* static: the option lists it owns stay reachable until exit */
	static struct cmd_common c;
	struct args a = {.strategy = STRAT_BOTH};
	struct prio_snapshot snap;
	struct prio_resources res;
	struct prio_preempt_request req;
	struct prio_preempt_ctx ctx;
	struct prio_preempt_plan slurm, minimal;
	const struct prio_preempt_plan *first, *second = NULL;
	struct prio_error err;
	bool have_slurm = false, have_minimal = false;
	int rc;

	cmd_common_init(&c, "preempt-plan");
	c.folder_roles = 1u << PRIO_ROLE_CONF | 1u << PRIO_ROLE_QOS |
			 1u << PRIO_ROLE_JOBS | 1u << PRIO_ROLE_NODES |
			 1u << PRIO_ROLE_PARTITIONS;
	parse_args(argc, argv, &c, &a);
	cmd_load_snapshot(&c, &snap);
	/* Which running jobs end first, and so what a plan frees, follows
	 * from NOW: the wall clock is seldom when the queue was read
	 * (issue 13), so say it was used, as --check does. */
	if (snap.now_wall) {
		struct prio_clock_notes notes;

		prio_snapshot_clock_notes(&snap, &notes);
		cmd_warn(&c, "warning: %s", notes.wall);
	}
	/* Licenses are not simulated: say so rather than plan without them,
	 * on stderr and in every output mode (a warning, issue 13). */
	if (snap.conf.preempt.reclaim_licenses)
		cmd_warn(&c, "warning: PreemptParameters=reclaim_licenses is "
			     "set: preemption to free licenses is not "
			     "modelled");
	/* the candidates are other users' running jobs */
	cmd_partial(&c, &snap, PRIO_NEEDS_PREEMPT, "the preemption plan", true);
	if (!snap.partition_count)
		cmd_die(
		    &c,
		    "no partitions: give a slurm.conf (--conf) or 'scontrol "
		    "show partition' output (--partitions)");
	build_request(&c, &snap, &a, &req);
	prio_error_clear(&err);
	if (prio_resources_build(&snap, &res, &err) < 0)
		cmd_die_error(&c, &err);
	if (prio_preempt_ctx_init(&ctx, &snap, &res, &req, &err) < 0) {
		if (err.status == PRIO_ERR_USAGE && !err.file[0])
			cmd_die(&c, "%s%s%s", err.field,
				err.field[0] ? ": " : "", err.message);
		cmd_die_error(&c, &err);
	}
	if ((a.strategy & STRAT_SLURM) || a.strategy == STRAT_MINIMAL) {
		if (prio_preempt_plan_slurm(&ctx, &slurm, &err) < 0)
			cmd_die_error(&c, &err);
		have_slurm = true;
	}
	if (a.strategy & STRAT_MINIMAL) {
		if (prio_preempt_plan_minimal(&ctx, &slurm, a.search_limit,
					      &minimal, &err) < 0)
			cmd_die_error(&c, &err);
		have_minimal = true;
	}
	first = a.strategy == STRAT_MINIMAL ? &minimal : &slurm;
	if (a.strategy == STRAT_BOTH)
		second = &minimal;
	if (a.queue_only)
		print_queue(&c, &ctx, first,
			    a.format ? a.format : PRIO_SQUEUE_DEFAULT_FORMAT,
			    cmd_writer_mode(c.mode));
	else if (c.mode == CMD_OUT_TEXT)
		print_text(&c, &ctx, first, second,
			   a.format ? a.format : PRIO_SQUEUE_DEFAULT_FORMAT);
	else
		print_machine(&c, &ctx, first, second);
	rc = first->can_start ? EXIT_OK : EXIT_NO;
	if (fflush(stdout) != 0)
		cmd_die_write(&c);
	if (have_slurm)
		prio_preempt_plan_free(&slurm);
	if (have_minimal)
		prio_preempt_plan_free(&minimal);
	prio_preempt_ctx_free(&ctx);
	prio_resources_free(&res);
	prio_snapshot_free(&snap);
	return rc;
}
