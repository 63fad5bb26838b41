/* SPDX-License-Identifier: MIT */
/*
 * tres-bill: what Slurm charges, from files.
 *  - one job shape (-p PARTITION --tres cpu=16,mem=60G or -N/-n/-c/--mem
 *    like sbatch): its billing under the partition's TRESBillingWeights,
 *    each TRES's part, which one dominates under MAX_TRES, and per hour;
 *  - every job of a queue (--jobs / --snapshot);
 *  - --verify: recompute billing= of every sacct and scontrol record;
 *  - sreport's roll-ups (cluster Utilization, AccountUtilizationByUser,
 *    UserUtilizationByAccount, user TopUsage, job SizesByAccount) from
 *    sacct records, with sreport's words (start=, end=, TopCount=, ...),
 *    -t and -T, plus decayed usage (--decayed) and series (--by).
 * The billing formulas are libprio's (billing.h); the reports are
 * report_sreport.h's; this file only picks and prints.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "sacct_stream.h"
#include "prio/billing.h"
#include "prio/report_sreport.h"
#include "prio/rollup.h"
#include "prio/window.h"

#define USAGE                                                                  \
	"tres-bill [SOURCES] [-p PARTITION] (--tres=cpu=N,mem=SIZE,... | -N N -n N [-c N] [--mem=SIZE])\n" \
	"       tres-bill [SOURCES] --jobs=FILE | --snapshot=DIR\n"             \
	"       tres-bill [SOURCES] --verify\n"                                 \
	"       tres-bill [SOURCES] [-t UNIT] [-T TRES] cluster|user|job REPORT [start=T] [end=T] ..."

enum {
	OPT_TRES = OPT_COMMON_LAST + 1,
	OPT_MEM,
	OPT_MEM_PER_CPU,
	OPT_GRES,
	OPT_RATE,
	OPT_VERIFY,
	OPT_DECAYED,
	OPT_BY,
	OPT_UP_SINCE,
};

static void help(void)
{
	printf("Usage: %s\n\n"
	       "TRES billing as Slurm computes it, and sreport-style usage roll-ups.\n\n"
	       "One job shape:\n"
	       "  -p, --partition=NAME   the partition whose TRESBillingWeights apply\n"
	       "                         (default: the Default=YES partition)\n"
	       "      --tres=LIST        TRES counts, cpu=16,mem=60G,node=1,gres/gpu=2\n"
	       "  -N N                   nodes, as sbatch -N (default 1)\n"
	       "  -n, --ntasks=N         tasks (default 1 per node)\n"
	       "  -c, --cpus-per-task=N  CPUs per task (default 1)\n"
	       "      --mem=SIZE         memory per node (K, M, G, T; M if none)\n"
	       "      --mem-per-cpu=SIZE memory per CPU\n"
	       "      --gres=LIST        generic resources per node, gpu:2,gpu:tesla:1\n"
	       "      --rate=PRICE       price of one billing-hour, for the cost per hour\n"
	       "Every job of a queue: give --jobs=FILE or --snapshot=DIR and no shape\n"
	       "(-p: only that partition's rows).\n"
	       "      --verify           recompute billing= of every sacct and scontrol\n"
	       "                         record; exit 1 if any differs\n"
	       "Reports (sreport words: cluster Utilization | AccountUtilizationByUser |\n"
	       "UserUtilizationByAccount, user TopUsage, job SizesByAccount; options\n"
	       "start= end= cluster= accounts= users= TopCount= group tree grouping=\n"
	       "PrintJobCount):\n"
	       "  -t UNIT                seconds, minutes (default), hours, percent,\n"
	       "                         secper, minper, hourper\n"
	       "  -T, --tres=NAMES       TRES to report (billing,cpu,mem; ALL)\n"
	       "  -M, --cluster=NAME     the cluster (Cluster column; filters records)\n"
	       "      --decayed          add the usage fairshare sees: decayed by\n"
	       "                         PriorityDecayHalfLife to the window's end,\n"
	       "                         times the QOS UsageFactor\n"
	       "      --by=PERIOD        a series: day, week or month\n"
	       "      --up-since=TIME    the cluster was registered (up) from TIME on:\n"
	       "                         Reported counts from there\n",
	       USAGE);
	cmd_common_help(stdout);
	printf("\nExit status: 0 success, 1 --verify found differences, 2 usage or input error.\n"
	       "See tres-bill(1) and prio-tools(7).\n");
}

/* ---- small parsers ------------------------------------------------------ */

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 0xffffffffUL)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* "60G", "1000" (MB), "512K" -> MB. */
static int parse_mem(const char *s, uint64_t *mb)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0': case 'M': break;
	case 'K': v /= 1024; break;
	case 'G': v *= 1024; break;
	case 'T': v *= 1024.0 * 1024; break;
	default: return -1;
	}
	if (*end && end[1] && !(toupper((unsigned char)end[1]) == 'B' && !end[2]))
		return -1;
	if (v > 1e15)
		return -1;
	*mb = (uint64_t)(v + 0.5);
	return 0;
}

/* ---- shared output helpers --------------------------------------------- */

static void die_io(const struct cmd_common *c)
{
	cmd_die_write(c);
}

static struct prio_writer *writer(const struct cmd_common *c,
				  const struct prio_column *cols, size_t n)
{
	struct prio_writer *w = prio_writer_new(stdout, cmd_writer_mode(c->mode),
						PRIO_STYLE_SSHARE, cols, n,
						!c->noheader, NULL);

	if (!w)
		cmd_die(c, "out of memory");
	return w;
}

/*
 * JSON's job columns (prio-tools(7) "JSON OUTPUT"): job_id is the integer
 * (sacct's JobIDRaw, squeue --json's job_id) and job the text Slurm prints
 * ("12_3", "12_[1-5]"), as prio-calc --start gives them; text, -P and CSV
 * keep the one JobID column sacct prints.  out gets cols with a "job"
 * column after cols[at] when the output is JSON; returns the count.
 */
static size_t job_columns(const struct cmd_common *c, const struct prio_column *cols,
			  size_t n, size_t at, struct prio_column *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		out[k++] = cols[i];
		if (i == at && c->mode == CMD_OUT_JSON)
			out[k++] = (struct prio_column){ .id = "job", .header = "Job",
							 .numfmt = PRIO_NUMFMT_PLAIN };
	}
	return k;
}

/* The job id cells at cells[0] (and [1] in JSON); returns how many. */
static size_t job_cells(const struct cmd_common *c, struct prio_cell *cells,
			uint32_t raw, const char *text)
{
	if (c->mode != CMD_OUT_JSON) {
		cells[0] = prio_cell_str(text);
		return 1;
	}
	cells[0] = prio_cell_uint(raw);
	cells[1] = prio_cell_str(text);
	return 2;
}

static void row(const struct cmd_common *c, struct prio_writer *w,
		const struct prio_cell *cells)
{
	if (prio_writer_row(w, cells) < 0)
		die_io(c);
}

static void finish(const struct cmd_common *c, struct prio_writer *w)
{
	if (prio_writer_finish(w) < 0)
		die_io(c);
}

/* "cpu=4,mem=1G,node=1" as Slurm prints TRES lists (mem and bb in M/G/T
 * when whole, as scontrol does). */
static const char *tres_text(const struct prio_snapshot *snap,
			     const struct prio_tres_list *l, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < l->count && used + 1 < size; i++) {
		const char *name = snap->tres.names[l->items[i].tres];
		uint64_t v = l->items[i].count;
		const char *unit = "";
		int n;

		if (l->items[i].tres == PRIO_TRES_MEM || strncmp(name, "bb/", 3) == 0) {
			unit = "M";
			if (v && v % (1024ull * 1024) == 0) {
				v /= 1024ull * 1024;
				unit = "T";
			} else if (v && v % 1024 == 0) {
				v /= 1024;
				unit = "G";
			}
		}
		n = snprintf(buf + used, size - used, "%s%s=%llu%s", used ? "," : "",
			     name, (unsigned long long)v, unit);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

static const struct prio_partition *default_partition(const struct prio_snapshot *snap)
{
	for (uint32_t i = 0; i < snap->partition_count; i++)
		if (snap->partitions[i].is_default)
			return &snap->partitions[i];
	return snap->partition_count == 1 ? &snap->partitions[0] : NULL;
}

static enum prio_billing_rule max_tres(const struct prio_snapshot *snap)
{
	return prio_billing_rule_of(&snap->conf);
}

/* ---- one job shape ----------------------------------------------------- */

struct shape {
	const char *partition;
	const char *tres;
	uint32_t nodes, ntasks, cpus_per_task;
	bool nodes_set, ntasks_set, cpt_set;
	const char *mem, *mem_per_cpu, *gres;
	double rate;
	bool rate_set;
};

static bool shape_given(const struct shape *s)
{
	return s->tres || s->nodes_set || s->ntasks_set || s->cpt_set || s->mem ||
	       s->mem_per_cpu || s->gres;
}

static void add_count(struct prio_snapshot *snap, struct prio_tres_list *l,
		      const char *name, uint64_t v)
{
	int id = prio_tres_add(&snap->tres, name, strlen(name));

	if (id < 0)
		return;
	for (uint32_t i = 0; i < l->count; i++)
		if (l->items[i].tres == (uint32_t)id) {
			l->items[i].count += v;
			return;
		}
	l->items[l->count].tres = (uint32_t)id;
	l->items[l->count].count = v;
	l->count++;
}

/* The shape's options that exclude each other, and the sizes: usage
 * errors before any source is read. */
static void check_shape(const struct cmd_common *c, const struct shape *s)
{
	uint64_t per;

	if (s->tres && (s->nodes_set || s->ntasks_set || s->cpt_set || s->mem ||
			s->mem_per_cpu || s->gres))
		cmd_usage_error(c, NULL,
				"--tres and -N/-n/-c/--mem/--gres are mutually exclusive");
	if (s->mem && s->mem_per_cpu)
		cmd_usage_error(c, NULL, "--mem and --mem-per-cpu are mutually exclusive");
	if (s->mem && parse_mem(s->mem, &per) < 0)
		cmd_usage_error(c, NULL, "--mem: expected a size such as 4000, 60G or 1T, "
				"got \"%s\"", s->mem);
	if (s->mem_per_cpu && parse_mem(s->mem_per_cpu, &per) < 0)
		cmd_usage_error(c, NULL, "--mem-per-cpu: expected a size such as 1000 or 4G, "
				"got \"%s\"", s->mem_per_cpu);
}

/* The TRES counts of an sbatch-like request. */
static void shape_counts(const struct cmd_common *c, struct prio_snapshot *snap,
			 const struct shape *s, struct prio_tres_list *l)
{
	uint32_t nodes = s->nodes_set ? s->nodes : 1;
	uint32_t ntasks = s->ntasks_set ? s->ntasks : nodes;
	uint32_t cpt = s->cpt_set ? s->cpus_per_task : 1;
	uint64_t cpus = (uint64_t)ntasks * cpt, mem = 0, per;
	uint32_t ngres = 0;

	if (cpus < nodes)
		cpus = nodes;
	if (s->gres)
		for (const char *p = s->gres; *p; p++)
			ngres += *p == ',';
	l->items = prio_arena_alloc(&snap->arena, (4 + 2 * (ngres + 1)) * sizeof(*l->items));
	if (!l->items)
		cmd_die(c, "out of memory");
	l->count = 0;
	add_count(snap, l, "cpu", cpus);
	/* the sizes were checked with the command line (check_shape) */
	if (s->mem && parse_mem(s->mem, &per) == 0) {
		mem = per * nodes;
	} else if (s->mem_per_cpu && parse_mem(s->mem_per_cpu, &per) == 0) {
		mem = per * cpus;
	} else if (snap->conf.def_mem_per_cpu) {
		mem = (uint64_t)snap->conf.def_mem_per_cpu * cpus;
	}
	add_count(snap, l, "mem", mem);
	add_count(snap, l, "node", nodes);
	if (s->gres) {
		char *copy = strdup(s->gres), *save = NULL;

		if (!copy)
			cmd_die(c, "out of memory");
		for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
			/* name[:type][:count] */
			char *colon = strrchr(g, ':'), name[256];
			uint32_t count = 1;

			if (colon && parse_u32(colon + 1, &count) == 0)
				*colon = '\0';
			else if (colon && !colon[1])
				cmd_usage_error(c, NULL, "--gres: bad item \"%s\"", g);
			snprintf(name, sizeof(name), "gres/%s", g);
			if (strchr(g, ':')) {
				char base[256];

				snprintf(base, sizeof(base), "gres/%.*s",
					 (int)(strchr(g, ':') - g), g);
				add_count(snap, l, base, (uint64_t)count * nodes);
			}
			add_count(snap, l, name, (uint64_t)count * nodes);
		}
		free(copy);
	}
}

/* The parser adds a TRES it has not seen to the table: from a job record
 * that is right, from --tres it is a typo that would bill 0.  A TRES given
 * twice would silently count once.  Both are refused, naming the TRES the
 * snapshot knows. */
static void check_tres_list(const struct cmd_common *c, const struct prio_snapshot *snap,
			    const struct prio_tres_list *list, uint32_t known)
{
	for (uint32_t i = 0; i < list->count; i++) {
		uint32_t id = list->items[i].tres;

		if (id >= known) {
			char names[512];
			size_t used = 0;

			names[0] = '\0';
			for (uint32_t k = 0; k < known && used < sizeof(names); k++) {
				int n = snprintf(names + used, sizeof(names) - used, "%s%s",
						 k ? "," : "", snap->tres.names[k]);

				if (n < 0)
					break;
				used += (size_t)n;
			}
			cmd_die(c, "--tres: %s: unknown TRES (known: %s)", snap->tres.names[id],
				names);
		}
		for (uint32_t k = 0; k < i; k++)
			if (list->items[k].tres == id)
				cmd_die(c, "--tres: %s: given twice", snap->tres.names[id]);
	}
}

static int calculator(struct cmd_common *c, struct prio_snapshot *snap,
		      const struct shape *s)
{
	static const struct prio_column cols[] = {
		{ "tres", "TRES", 15, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "count", "Count", 12, true, PRIO_NUMFMT_PLAIN, NULL },
		{ "weight", "Weight", 12, true, PRIO_NUMFMT_PF, NULL },
		{ "billing", "Billing", 12, true, PRIO_NUMFMT_PF, NULL },
		{ "counted", "Counted", 7, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "cost_per_hour", "Cost/h", 12, true, PRIO_NUMFMT_PF, NULL },
	};
	const struct prio_partition *p;
	struct prio_tres_list list;
	struct prio_billing_term *terms;
	struct prio_billing_detail d;
	struct prio_writer *w;
	/* JSON: counted is a boolean and max_tres (last) says which term
	 * MAX_TRES took, the "max" of the text's Counted column */
	static const struct prio_column max_col = { "max_tres", "Max", 3, false,
						    PRIO_NUMFMT_PLAIN, NULL };
	struct prio_column use[7];
	size_t ncols = s->rate_set ? 6 : 5;
	const char *why;
	uint32_t known;

	if (s->partition) {
		prio_id id = prio_intern_find(&snap->strings, s->partition, strlen(s->partition));

		p = id ? prio_snapshot_partition(snap, id) : NULL;
		if (!p)
			cmd_die(c, "-p %s: no such partition in the configuration", s->partition);
	} else {
		p = default_partition(snap);
		if (!p && snap->partition_count)
			cmd_die(c, "no default partition: name one with -p");
	}
	if (s->tres) {
		known = snap->tres.count; /* the parser adds what it has not seen */
		if (prio_tres_list_parse(&snap->arena, &snap->tres, s->tres, strlen(s->tres),
					 &list, &why) < 0)
			cmd_usage_error(c, NULL, "--tres: %s: \"%s\"", why, s->tres);
		check_tres_list(c, snap, &list, known);
	} else {
		shape_counts(c, snap, s, &list);
	}
	terms = calloc(p && p->billing_weights.count ? p->billing_weights.count : 1,
		       sizeof(*terms));
	if (!terms)
		cmd_die(c, "out of memory");
	prio_billing_explain(&snap->tres, &list, p ? &p->billing_weights : NULL,
			     max_tres(snap), terms, &d);
	memcpy(use, cols, ncols * sizeof(cols[0]));
	if (c->mode == CMD_OUT_JSON)
		use[ncols] = max_col;
	w = writer(c, use, ncols + (c->mode == CMD_OUT_JSON));
	for (uint32_t i = 0; i < d.nterms; i++) {
		struct prio_cell cells[7] = {
			prio_cell_str(snap->tres.names[terms[i].tres]),
			prio_cell_uint(terms[i].count),
			prio_cell_double(terms[i].weight),
			prio_cell_double(terms[i].value),
			c->mode == CMD_OUT_JSON
			    ? prio_cell_bool(terms[i].counted)
			    : prio_cell_str(terms[i].counted ? (d.dominant == (int)i && d.max_tres
									? "max"
									: "yes")
							     : "no"),
			prio_cell_double(terms[i].counted ? terms[i].value * s->rate : 0),
		};
		cells[ncols] = prio_cell_bool(terms[i].counted && d.dominant == (int)i &&
					      d.max_tres);
		row(c, w, cells);
	}
	{
		struct prio_cell cells[7] = {
			prio_cell_str("billing"), prio_cell_uint(d.truncated),
			prio_cell_blank(), prio_cell_double(d.billing),
			prio_cell_str(""), prio_cell_double(d.billing * s->rate),
		};

		cells[ncols] = prio_cell_blank();
		row(c, w, cells);
	}
	finish(c, w);
	if (c->mode == CMD_OUT_TEXT && !c->noheader) {
		char buf[512];

		printf("\npartition %s, %s: billing=%llu (%f before truncation)\n",
		       p ? prio_snapshot_str(snap, p->name) : "(none)",
		       !d.weighted ? "no TRESBillingWeights, billing = CPUs"
		       : d.rule == PRIO_BILL_MAX_TRES_GRES ? "PriorityFlags=MAX_TRES_GRES"
		       : d.max_tres ? "PriorityFlags=MAX_TRES"
				    : "sum of weighted TRES",
		       (unsigned long long)d.truncated, d.billing);
		if (d.weighted && d.rule == PRIO_BILL_MAX_TRES_GRES && d.dominant >= 0)
			printf("MAX_TRES_GRES: %s dominates cpu, mem and node with %f; gres add %f; other TRES add %f\n",
			       snap->tres.names[terms[d.dominant].tres], d.node_max, d.gres,
			       d.others);
		else if (d.weighted && d.max_tres && d.dominant >= 0)
			printf("MAX_TRES: %s dominates the node TRES with %f; other TRES add %f\n",
			       snap->tres.names[terms[d.dominant].tres], d.node_max, d.others);
		else if (d.weighted && d.dominant >= 0)
			printf("largest part: %s, %f of %f\n",
			       snap->tres.names[terms[d.dominant].tres],
			       terms[d.dominant].value, d.billing);
		printf("per hour: %f billing-hours = %.0f billing-seconds (usage is charged unrounded)",
		       d.billing, d.billing * 3600.0);
		if (s->rate_set)
			printf("; cost %f at %g per billing-hour", d.billing * s->rate, s->rate);
		printf("\nrequest: %s\n", tres_text(snap, &list, buf, sizeof(buf)));
	}
	free(terms);
	return EXIT_OK;
}

/* ---- every job of a queue ---------------------------------------------- */

/* Every job of the queue, one row per job and partition (-p: only that
 * partition's rows). */
static int queue(struct cmd_common *c, struct prio_snapshot *snap,
		 const char *only)
{
	static const struct prio_column cols[] = {
		{ "job_id", "JobID", 12, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "partition", "Partition", 10, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "user", "User", 9, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "account", "Account", 10, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "state", "ST", 2, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "billing", "Billing", 8, true, PRIO_NUMFMT_PLAIN, NULL },
		{ "unrounded", "Unrounded", 12, true, PRIO_NUMFMT_PF, NULL },
		{ "dominant", "Dominant", 10, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "tres", "TRES", 40, false, PRIO_NUMFMT_PLAIN, NULL },
	};
	struct prio_writer *w;
	struct prio_billing_term *terms = NULL;
	uint32_t cap = 0;

	if (!(snap->roles_loaded & (1u << PRIO_ROLE_JOBS)))
		cmd_usage_error(c, USAGE, "nothing to do: give a job shape (--tres or -N/-n), "
			       "--jobs FILE, --verify or a report");
	prio_id only_id = only ? prio_intern_find(&snap->strings, only, strlen(only)) : 0;

	if (only && !only_id)
		cmd_die(c, "-p %s: no job or partition of that name", only);
	struct prio_column use[sizeof(cols) / sizeof(cols[0]) + 1];

	w = writer(c, use, job_columns(c, cols, sizeof(cols) / sizeof(cols[0]), 0, use));
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];
		const struct prio_tres_list *l =
		    job->tres_alloc.count ? &job->tres_alloc : &job->tres_req;

		for (uint32_t k = 0; k < (job->partition_count ? job->partition_count : 1); k++) {
			const struct prio_partition *p =
			    job->partition_count ? prio_snapshot_partition(snap, job->partitions[k])
						 : NULL;
			const struct prio_tres_weights *wt = p ? &p->billing_weights : NULL;
			uint32_t need = wt && wt->count ? wt->count : 1;
			struct prio_billing_detail d;
			char id[64], tres[512];

			if (only && (!job->partition_count || job->partitions[k] != only_id))
				continue;
			if (need > cap) {
				free(terms);
				cap = need;
				terms = calloc(cap, sizeof(*terms));
				if (!terms)
					cmd_die(c, "out of memory");
			}
			prio_billing_explain(&snap->tres, l, wt, max_tres(snap), terms, &d);
			if (job->array_task_text)
				snprintf(id, sizeof(id), "%u_[%s]", job->array_job_id,
					 prio_snapshot_str(snap, job->array_task_text));
			else if (job->array_task_id != PRIO_NO_VAL && job->array_job_id)
				snprintf(id, sizeof(id), "%u_%u", job->array_job_id,
					 job->array_task_id);
			else
				snprintf(id, sizeof(id), "%u", job->job_id);
			{
				struct prio_cell cells[10];
				size_t n = job_cells(c, cells, job->job_id, id);

				cells[n++] = prio_cell_str(job->partition_count
							   ? prio_snapshot_str(snap, job->partitions[k])
							   : "");
				cells[n++] = prio_cell_str(prio_snapshot_str(snap, job->user));
				cells[n++] = prio_cell_str(prio_snapshot_str(snap, job->account));
				cells[n++] = prio_cell_str(prio_job_state_short(job->state));
				cells[n++] = prio_cell_uint(d.truncated);
				cells[n++] = prio_cell_double(d.billing);
				cells[n++] = prio_cell_str(d.dominant >= 0
							   ? snap->tres.names[terms[d.dominant].tres]
							   : "");
				cells[n++] = prio_cell_str(tres_text(snap, l, tres, sizeof(tres)));
				row(c, w, cells);
			}
		}
	}
	finish(c, w);
	free(terms);
	return EXIT_OK;
}

/* ---- --verify ------------------------------------------------------------ */

/* A sacct row that differs, kept while the file streams (its record is
 * gone when the stream moves on) and printed once the stream is over. */
struct verify_kept {
	unsigned long line;
	uint32_t raw_id;
	prio_id partition;
	const char *field;
	uint64_t stored;
	double billing;
	char *job_id, *tres;
};

/* More differences than this and the stream gives up: the whole load then
 * prints them as it reads them, with the memory it always took. */
#define VERIFY_KEEP_MAX 100000u

struct verify {
	struct cmd_common *c;
	struct prio_snapshot *snap;
	struct prio_writer *w;
	unsigned long checked, differ, skipped, multi;
	bool count_only; /* JSON's first pass: the summary comes first */
	/* the sacct file streamed (verify_stream()): its counts and rows */
	bool streamed, keep, too_many;
	unsigned long s_checked, s_differ, s_skipped, s_multi;
	struct verify_kept *kept;
	size_t nkept, ckept;
};

/* Whether any partition's weights give `stored` for l. */
static bool some_partition_gives(const struct prio_snapshot *snap,
				 const struct prio_tres_list *l, uint64_t stored)
{
	for (uint32_t i = 0; i < snap->partition_count; i++)
		if (prio_billing_truncate(prio_billing_list(
			&snap->tres, l, &snap->partitions[i].billing_weights,
			max_tres(snap))) == stored)
			return true;
	return false;
}

static void verify_emit(struct verify *v, const char *source, unsigned long line,
			uint32_t raw_id, const char *job_id, prio_id partition,
			const char *field, uint64_t stored, double b, const char *tres)
{
	static const struct prio_column cols[] = {
		{ "source", "Source", 8, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "line", "Line", 6, true, PRIO_NUMFMT_PLAIN, NULL },
		{ "job_id", "JobID", 12, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "partition", "Partition", 10, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "field", "Field", 9, false, PRIO_NUMFMT_PLAIN, NULL },
		{ "stored", "Stored", 8, true, PRIO_NUMFMT_PLAIN, NULL },
		{ "computed", "Computed", 8, true, PRIO_NUMFMT_PLAIN, NULL },
		{ "unrounded", "Unrounded", 12, true, PRIO_NUMFMT_PF, NULL },
		{ "tres", "TRES", 40, false, PRIO_NUMFMT_PLAIN, NULL },
	};
	struct prio_cell cells[10] = { prio_cell_str(source), prio_cell_uint(line) };
	size_t n = 2 + job_cells(v->c, cells + 2, raw_id, job_id);

	if (!v->w) {
		static struct prio_column use[sizeof(cols) / sizeof(cols[0]) + 1];

		v->w = writer(v->c, use,
			      job_columns(v->c, cols, sizeof(cols) / sizeof(cols[0]), 2, use));
	}
	cells[n++] = prio_cell_str(prio_snapshot_str(v->snap, partition));
	cells[n++] = prio_cell_str(field);
	cells[n++] = prio_cell_uint(stored);
	cells[n++] = prio_cell_uint(prio_billing_truncate(b));
	cells[n++] = prio_cell_double(b);
	cells[n++] = prio_cell_str(tres);
	row(v->c, v->w, cells);
}

/* Keep a difference found while streaming; false past VERIFY_KEEP_MAX or
 * out of memory (the stream then gives up). */
static bool verify_keep(struct verify *v, unsigned long line, uint32_t raw_id,
			const char *job_id, prio_id partition, const char *field,
			uint64_t stored, double b, const char *tres)
{
	struct verify_kept *k;

	if (v->nkept >= VERIFY_KEEP_MAX)
		return false;
	if (v->nkept == v->ckept) {
		size_t cap = v->ckept ? 2 * v->ckept : 64;
		void *grown = realloc(v->kept, cap * sizeof(*v->kept));

		if (!grown)
			return false;
		v->kept = grown;
		v->ckept = cap;
	}
	k = &v->kept[v->nkept];
	*k = (struct verify_kept){ line, raw_id, partition, field, stored, b,
				   strdup(job_id), strdup(tres) };
	if (!k->job_id || !k->tres) {
		free(k->job_id);
		free(k->tres);
		return false;
	}
	v->nkept++;
	return true;
}

static void verify_kept_free(struct verify *v)
{
	for (size_t i = 0; i < v->nkept; i++) {
		free(v->kept[i].job_id);
		free(v->kept[i].tres);
	}
	free(v->kept);
	v->kept = NULL;
	v->nkept = v->ckept = 0;
}

/* any_partition: the value may come from another partition than the one
 * named (a job's ReqTRES is billed when it is submitted, with the first
 * partition Slurm tries; once it ran, sacct names only the partition it ran
 * in, so a job submitted to several partitions cannot be told apart). */
static void verify_one(struct verify *v, const char *source, unsigned long line,
		       uint32_t raw_id, const char *job_id, prio_id partition,
		       const struct prio_tres_list *l, const char *field,
		       bool any_partition)
{
	const struct prio_partition *p;
	uint64_t stored = prio_tres_list_get(l, PRIO_TRES_BILLING, PRIO_NO_VAL64);
	double b;
	char tres[512];

	if (stored == PRIO_NO_VAL64 || !l->count)
		return; /* nothing stored to check */
	p = partition ? prio_snapshot_partition(v->snap, partition) : NULL;
	if (!p) {
		v->skipped++;
		return;
	}
	b = prio_billing_list(&v->snap->tres, l, &p->billing_weights, max_tres(v->snap));
	v->checked++;
	if (prio_billing_truncate(b) == stored ||
	    (any_partition && some_partition_gives(v->snap, l, stored)))
		return;
	v->differ++;
	if (v->keep) {
		if (!verify_keep(v, line, raw_id, job_id, partition, field, stored, b,
				 tres_text(v->snap, l, tres, sizeof(tres))))
			v->too_many = true;
		return;
	}
	if (v->count_only)
		return;
	verify_emit(v, source, line, raw_id, job_id, partition, field, stored, b,
		    tres_text(v->snap, l, tres, sizeof(tres)));
}

/* A partition list of one name (a pending job may name several; its
 * requested billing then used whichever partition Slurm last tried). */
static prio_id single_partition(const struct prio_snapshot *snap, prio_id part)
{
	const char *s = prio_snapshot_str(snap, part);

	return strchr(s, ',') ? PRIO_NO_ID : part;
}

/* One sacct record's billing= values (steps carry none of their own). */
static void verify_sacct(struct verify *v, const struct prio_sacct_rec *r)
{
	prio_id part;
	char id[64];

	if (r->is_step)
		return;
	part = single_partition(v->snap, r->partition);
	if (!part && r->partition) {
		v->multi++;
		return;
	}
	prio_sacct_job_id_format(v->snap, r, id, sizeof(id));
	verify_one(v, "sacct", r->line, r->job_id, id, part, &r->alloc_tres, "AllocTRES",
		   false);
	verify_one(v, "sacct", r->line, r->job_id, id, part, &r->req_tres, "ReqTRES",
		   r->state != PRIO_JOB_PENDING);
}

static void verify_all(struct verify *v)
{
	const struct prio_snapshot *snap = v->snap;
	/* the job TRES' names: ReqTRES=/AllocTRES= from 23.02, else TRES= */
	bool split = prio_snapshot_slurm(snap)->job_req_alloc_tres;

	v->checked = v->differ = v->skipped = v->multi = 0;
	for (uint32_t i = 0; !v->streamed && i < snap->sacct_count; i++)
		verify_sacct(v, &snap->sacct[i]);
	if (v->streamed) {
		v->checked = v->s_checked;
		v->differ = v->s_differ;
		v->skipped = v->s_skipped;
		v->multi = v->s_multi;
		for (size_t i = 0; !v->count_only && i < v->nkept; i++) {
			const struct verify_kept *k = &v->kept[i];

			verify_emit(v, "sacct", k->line, k->raw_id, k->job_id, k->partition,
				    k->field, k->stored, k->billing, k->tres);
		}
	}
	for (uint32_t i = 0; i < snap->job_count; i++) {
		const struct prio_job *job = &snap->jobs[i];
		char id[64];

		if (job->partition_count != 1) {
			v->multi++;
			continue;
		}
		snprintf(id, sizeof(id), "%u", job->job_id);
		if (job->tres_alloc.count && job->tres_req.count) {
			/* both printed (ReqTRES= and AllocTRES= from 23.02,
			 * squeue --json): each billing= as sacct's */
			verify_one(v, "scontrol", job->line, job->job_id, id, job->partitions[0],
				   &job->tres_alloc, "AllocTRES", false);
			verify_one(v, "scontrol", job->line, job->job_id, id,
				   job->partitions[0], &job->tres_req,
				   "ReqTRES",
				   !prio_job_state_pending(job->state));
			continue;
		}
		/* 22.05's one TRES=: the allocation once there is one */
		verify_one(v, "scontrol", job->line, job->job_id, id, job->partitions[0],
			   job->tres_alloc.count ? &job->tres_alloc : &job->tres_req,
			   !split ? "TRES" : job->tres_alloc.count ? "AllocTRES" : "ReqTRES",
			   false);
	}
}

static int verify_stream_one(void *ctx, const struct prio_sacct_rec *rec,
			     struct prio_error *err)
{
	struct verify *v = ctx;

	verify_sacct(v, rec);
	if (v->too_many)
		return prio_error_set(err, PRIO_ERR_NOMEM, "", 0, "",
				      "more differences than the stream keeps");
	return 0;
}

/*
 * Issue 17: the sacct file's records checked as they stream, none kept but
 * the rows that differ (printed after the stream, before the job list's,
 * as the whole load prints them), so that years of accounting verify in
 * bounded memory.  As for the reports (report_stream()), whatever the
 * stream cannot judge alone is left to the whole load: false, nothing
 * printed, snap empty.
 */
static bool verify_stream(struct cmd_common *c, struct prio_snapshot *snap,
			  struct verify *v)
{
	const char *path;
	struct prio_error err;
	char buf[4096];
	int rc;

	if (c->live || !(path = cmd_sacct_stream_path(c, buf, sizeof(buf))) ||
	    cmd_load_but_sacct(c, snap) < 0)
		return false;
	v->c = c;
	v->snap = snap;
	v->keep = true;
	rc = prio_sacct_stream(snap, path, PRIO_SACCT_PARTITION, verify_stream_one, v,
			       &err);
	v->keep = false;
	if (rc < 0 && !v->too_many)
		cmd_die_error(c, &err);
	if (rc != 0) {
		verify_kept_free(v);
		v->too_many = false;
		v->checked = v->differ = v->skipped = v->multi = 0;
		prio_snapshot_free(snap);
		return false;
	}
	v->streamed = true;
	v->s_checked = v->checked;
	v->s_differ = v->differ;
	v->s_skipped = v->skipped;
	v->s_multi = v->multi;
	cmd_load_warnings(c, snap);
	return true;
}

static int verify(struct cmd_common *c, struct prio_snapshot *snap, struct verify *v)
{
	int rc;

	v->c = c;
	v->snap = snap;
	if (!(snap->roles_loaded & ((1u << PRIO_ROLE_SACCT) | (1u << PRIO_ROLE_JOBS))))
		cmd_die(c, "--verify needs sacct records (--sacct) or jobs (--jobs)");
	if (c->mode == CMD_OUT_JSON) {
		/* one object: the summary the text prints, then the rows that
		 * differ (a first pass counts, so the summary leads) */
		v->count_only = true;
		verify_all(v);
		printf("{\"checked\":%lu,\"differ\":%lu,\"no_partition\":%lu,"
		       "\"several_partitions\":%lu,\"differences\":",
		       v->checked, v->differ, v->skipped, v->multi);
		v->count_only = false;
	}
	verify_all(v);
	if (c->mode == CMD_OUT_JSON && !v->w)
		printf("[]\n");
	if (v->w)
		finish(c, v->w);
	if (c->mode == CMD_OUT_JSON)
		printf("}\n");
	if (c->mode == CMD_OUT_TEXT || c->mode == CMD_OUT_PARSABLE2)
		fprintf(v->differ ? stderr : stdout,
			"%s: %lu billing values checked, %lu differ; %lu without a known "
			"partition, %lu of jobs with several partitions not checked\n",
			c->prog, v->checked, v->differ, v->skipped, v->multi);
	rc = v->differ ? EXIT_NO : EXIT_OK;
	verify_kept_free(v);
	return rc;
}

/* ---- reports ------------------------------------------------------------ */

struct report_args {
	enum prio_sreport_kind kind;
	const char *start, *end, *cluster;
	const char *accounts, *users, *grouping;
	uint32_t top_count;
	bool group, tree, print_job_count;
};

/* Unique case-insensitive prefix of one of names[] (NULL-terminated), at
 * least min[i] characters; -1 none, -2 ambiguous. */
static int word(const char *s, const char *const *names, const unsigned *min)
{
	size_t n = strlen(s);
	int hit = -1;

	for (int i = 0; names[i]; i++)
		if (strcasecmp(s, names[i]) == 0)
			return i;
	for (int i = 0; names[i]; i++)
		if (n >= min[i] && n <= strlen(names[i]) && strncasecmp(s, names[i], n) == 0) {
			if (hit >= 0)
				return -2;
			hit = i;
		}
	return hit;
}

static void parse_report(struct cmd_common *c, int argc, char **argv,
			 struct report_args *a)
{
	static const char *const types[] = { "cluster", "user", "job", "reservation", NULL };
	static const unsigned types_min[] = { 1, 1, 1, 1 };
	static const char *const cluster_reports[] = {
		"AccountUtilizationByUser", "UserUtilizationByAccount", "Utilization",
		"UserUtilizationByWckey", "WCKeyUtilizationByUser", NULL };
	static const unsigned cluster_min[] = { 1, 5, 2, 18, 1 };
	static const char *const keys[] = {
		"start", "end", "clusters", "accounts", "users", "topcount", "group",
		"tree", "grouping", "printjobcount", "all_clusters", "format", "flatview",
		"acctasparent", "wckeys", "partitions", "jobs", "nodes", "gid", NULL };
	static const unsigned keys_min[] = { 1, 1, 1, 2, 1, 2, 2, 2, 5, 2, 2, 1, 2, 2,
					     1, 2, 1, 1, 2 };
	int t, r;

	memset(a, 0, sizeof(*a));
	t = word(argv[0], types, types_min);
	if (t < 0)
		cmd_usage_error(c, USAGE, "unknown report type '%s': cluster, user or job", argv[0]);
	if (argc < 2)
		cmd_usage_error(c, USAGE, "%s: which report?", argv[0]);
	switch (t) {
	case 0:
		r = word(argv[1], cluster_reports, cluster_min);
		if (r == 0)
			a->kind = PRIO_SREPORT_ACCOUNT_BY_USER;
		else if (r == 1)
			a->kind = PRIO_SREPORT_USER_BY_ACCOUNT;
		else if (r == 2)
			a->kind = PRIO_SREPORT_UTILIZATION;
		else if (r > 2)
			cmd_die(c, "cluster %s: WCKey reports are not supported (sacct records "
				"carry no WCKey here)", argv[1]);
		else
			cmd_usage_error(c, USAGE, "unknown cluster report '%s'", argv[1]);
		break;
	case 1:
		if (strncasecmp(argv[1], "TopUsage", strlen(argv[1])) != 0)
			cmd_usage_error(c, USAGE, "unknown user report '%s': TopUsage", argv[1]);
		a->kind = PRIO_SREPORT_TOP_USAGE;
		break;
	case 2:
		if (strncasecmp(argv[1], "SizesByAccount", strlen(argv[1])) != 0 ||
		    strlen(argv[1]) < 6)
			cmd_usage_error(c, USAGE, "unknown job report '%s': SizesByAccount",
					argv[1]);
		a->kind = PRIO_SREPORT_JOB_SIZES;
		break;
	default:
		cmd_die(c, "reservation reports are not supported (no reservation records)");
	}
	for (int i = 2; i < argc; i++) {
		char key[64];
		const char *eq = strchr(argv[i], '='), *val = eq ? eq + 1 : NULL;
		size_t kn = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		int k;

		snprintf(key, sizeof(key), "%.*s", (int)(kn < 63 ? kn : 63), argv[i]);
		k = word(key, keys, keys_min);
		if (k < 0)
			cmd_usage_error(c, USAGE, "unknown report option '%s'", argv[i]);
		if (k <= 5 || k == 8 || k == 11) {
			if (!val || !*val)
				cmd_usage_error(c, USAGE, "%s needs a value (%s=...)", key, keys[k]);
		}
		switch (k) {
		case 0: a->start = val; break;
		case 1: a->end = val; break;
		case 2: a->cluster = val; break;
		case 3: a->accounts = val; break;
		case 4: a->users = val; break;
		case 5:
			if (parse_u32(val, &a->top_count) < 0 || !a->top_count)
				cmd_usage_error(c, USAGE, "TopCount: expected a positive number, got \"%s\"",
						val);
			break;
		case 6: a->group = true; break;
		case 7: a->tree = true; break;
		case 8: a->grouping = val; break;
		case 9: a->print_job_count = true; break;
		case 10: break; /* one cluster here anyway */
		default:
			cmd_die(c, "report option '%s' is not supported", keys[k]);
		}
	}
}

/* Comma list of names to interned ids (names absent from the inputs are
 * dropped: nothing can match them). */
static prio_id *id_list(struct prio_snapshot *snap, const char *s, uint32_t *n)
{
	prio_id *ids;
	uint32_t cap = 1;
	const char *p = s;

	*n = 0;
	if (!s)
		return NULL;
	for (const char *q = s; *q; q++)
		cap += *q == ',';
	ids = prio_arena_alloc(&snap->arena, cap * sizeof(*ids));
	if (!ids)
		return NULL;
	while (*p) {
		size_t len = strcspn(p, ",");
		prio_id id = prio_intern_find(&snap->strings, p, len);

		/* sacctmgr keeps account names lower-case */
		if (!id) {
			char low[256];

			for (size_t i = 0; i < len && i < 255; i++)
				low[i] = (char)tolower((unsigned char)p[i]);
			id = prio_intern_find(&snap->strings, low, len < 255 ? len : 255);
		}
		ids[(*n)++] = id; /* PRIO_NO_ID matches nothing */
		p += len;
		if (*p == ',')
			p++;
	}
	return ids;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * sreport's TopUsage has a row per association, and from 25.05 a Partition
 * column when partition associations exist (before 25.05 with the same
 * Login and Account on several rows, 23.11 to 24.11 also counting the
 * partition associations' usage into the user's association of no
 * partition).  The roll-up here keys usage by account and user: say so
 * rather than print one summed row as if it were sreport's.
 */
static void warn_partition_assocs(struct cmd_common *c,
				  const struct prio_snapshot *snap)
{
	for (uint32_t i = 0; i < snap->assoc_count; i++)
		if (snap->assocs[i].is_user &&
		    snap->assocs[i].partition != PRIO_NO_ID) {
			cmd_warn(c, "warning: partition associations: sreport "
				    "prints a row for each (from 25.05 with a "
				    "Partition column); these rows sum a user's "
				    "associations of one account");
			return;
		}
}

/*
 * sreport's window, rounded as the snapshot's release rounds (25.05 rounds
 * a start down and an end up, earlier releases to the nearest hour).
 * sacct records and slurm.conf do not tell the release apart: when nothing
 * else said it and the two roundings differ, the report keeps the rounding
 * of the releases it was checked against (22.05's, tests/oracle/
 * sreport-final) and says so.  quiet: no word, -1 for a bad time (the
 * streamed report's first look; the report itself says it).
 */
static int report_window(struct cmd_common *c, const struct prio_snapshot *snap,
			 const struct report_args *a, struct prio_window *w,
			 bool quiet)
{
	const struct prio_slurm_release *rel = prio_snapshot_slurm(snap);
	bool unknown = snap->slurm_release_source == PRIO_VERSION_DEFAULT;
	struct prio_window other;
	const char *bad;
	char s1[32], e1[32], s2[32], e2[32];

	if (prio_window_from_args_in(a->start, a->end, snap->now,
				     !unknown && rel->sreport_round_outward, w,
				     &bad) < 0) {
		if (quiet)
			return -1;
		cmd_usage_error(c, NULL, "'%s': not a time (YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], "
				"HH:MM, now-2days ...)", bad);
	}
	if (quiet || !unknown || prio_window_from_args_in(a->start, a->end, snap->now,
						 true, &other, &bad) < 0 ||
	    (other.start == w->start && other.end == w->end))
		return 0;
	cmd_warn(c, "warning: the Slurm release is not known (--slurm-version): "
		    "reporting %s - %s as Slurm up to 24.11 rounds it; from 25.05 "
		    "it is %s - %s",
		 prio_timestamp_format(w->start, s1, sizeof(s1)),
		 prio_timestamp_format(w->end, e1, sizeof(e1)),
		 prio_timestamp_format(other.start, s2, sizeof(s2)),
		 prio_timestamp_format(other.end, e2, sizeof(e2)));
	return 0;
}

/*
 * Issue 17: a report's records streamed into the roll-up, none kept, so
 * that years of accounting (100M records) fit in bounded memory.  The
 * other sources are loaded first, quietly; then the sacct file is read a
 * chunk at a time and each record folded into the sums.  Whatever the
 * stream cannot judge alone (a bad or cut row, a record that may repeat
 * another, a file that is no regular file or changed meanwhile) is
 * redone by the whole load, which words every error and warning as
 * before: false, nothing printed, and main() loads as it always did.  So
 * are the reports that need every record after the roll-up (job
 * SizesByAccount), --live (its capture is read once), a cluster filter
 * (its id is the one the records intern) and sources from the
 * configuration file.  On success *r holds the sums, and snap keeps a few
 * records for the checks that look at them (the first record, the first
 * two users, the first named cluster: cmd_partial(), the report title).
 */
struct stream_ctx {
	struct prio_rollup *r;
	const struct prio_snapshot *snap;
	struct cmd_sacct_reps reps;
};

static int stream_one(void *ctx, const struct prio_sacct_rec *rec,
		      struct prio_error *err)
{
	struct stream_ctx *s = ctx;

	cmd_sacct_reps_see(&s->reps, rec);
	return prio_rollup_add(s->r, s->snap, rec, err);
}

static bool report_stream(struct cmd_common *c, struct prio_snapshot *snap,
			  int argc, char **argv, bool decayed,
			  enum prio_bucket_by by, const char *cluster_opt,
			  struct prio_rollup *r)
{
	const char *path;
	struct report_args a;
	struct prio_rollup_opts ro;
	struct prio_error err;
	struct stream_ctx s;
	char buf[4096];
	int rc;

	parse_report(c, argc, argv, &a);
	if (a.kind == PRIO_SREPORT_JOB_SIZES || c->live || cluster_opt ||
	    a.cluster || !(path = cmd_sacct_stream_path(c, buf, sizeof(buf))) ||
	    cmd_load_but_sacct(c, snap) < 0)
		return false;
	memset(&ro, 0, sizeof(ro));
	if (report_window(c, snap, &a, &ro.window, true) < 0) {
		prio_snapshot_free(snap);
		return false;
	}
	ro.by = by;
	ro.now = snap->now;
	ro.decayed = decayed;
	if (prio_rollup_begin(snap, &ro, r, &err) < 0) {
		prio_snapshot_free(snap);
		return false;
	}
	memset(&s, 0, sizeof(s));
	s.r = r;
	s.snap = snap;
	cmd_sacct_reps_init(&s.reps);
	rc = prio_sacct_stream(snap, path, ~(uint32_t)PRIO_SACCT_NODELIST,
			       stream_one, &s, &err);
	if (rc < 0)
		cmd_die_error(c, &err);
	if (rc == PRIO_SACCT_LOAD_WHOLE) {
		prio_rollup_free(r);
		prio_snapshot_free(snap);
		return false;
	}
	cmd_sacct_reps_store(c, snap, &s.reps);
	cmd_load_warnings(c, snap);
	return true;
}

/* A report; streamed: the roll-up report_stream() made, else NULL. */
static int report(struct cmd_common *c, struct prio_snapshot *snap, int argc,
		  char **argv, const char *tres_names, enum prio_sreport_unit unit,
		  bool decayed, enum prio_bucket_by by, const char *up_since,
		  const char *cluster_opt, struct prio_rollup *streamed)
{
	struct report_args a;
	struct prio_rollup_opts ro;
	struct prio_sreport_opts so;
	struct prio_rollup r;
	struct prio_sreport rep;
	struct prio_error err;
	uint32_t tres[PRIO_TRES_MAX], ntres = 0, grouping[64], ngrouping = 0;
	const char *cluster;

	parse_report(c, argc, argv, &a);
	if (!(snap->roles_loaded & (1u << PRIO_ROLE_SACCT)))
		cmd_die(c, "reports need job records: give --sacct FILE or a --snapshot with sacct.txt");
	memset(&ro, 0, sizeof(ro));
	memset(&so, 0, sizeof(so));
	report_window(c, snap, &a, &ro.window, false);
	ro.by = by;
	ro.now = snap->now;
	ro.decayed = decayed;
	cluster = cluster_opt ? cluster_opt : a.cluster;
	if (cluster) {
		ro.cluster = prio_intern_find(&snap->strings, cluster, strlen(cluster));
		so.cluster_name = cluster;
	} else if (snap->conf.cluster_name) {
		so.cluster_name = snap->conf.cluster_name;
	} else {
		for (uint32_t i = 0; i < snap->sacct_count && !so.cluster_name; i++)
			if (snap->sacct[i].cluster)
				so.cluster_name = prio_snapshot_str(snap, snap->sacct[i].cluster);
	}
	if (up_since) {
		if (prio_slurm_time_parse(up_since, snap->now, &so.up_since) < 0)
			cmd_usage_error(c, NULL, "--up-since: '%s' is not a time", up_since);
	}
	if (tres_names) {
		const char *p = tres_names;

		if (a.kind == PRIO_SREPORT_JOB_SIZES)
			cmd_usage_error(c, NULL,
					"-T: the job report takes no TRES list (CPU time only)");
		while (*p && ntres < PRIO_TRES_MAX) {
			size_t len = strcspn(p, ",");
			int id;

			if (len == 3 && strncasecmp(p, "ALL", 3) == 0) {
				for (uint32_t t = 0; t < snap->tres.count && ntres < PRIO_TRES_MAX; t++)
					if (snap->tres.configured[t] && t != PRIO_TRES_ENERGY &&
					    !(a.kind == PRIO_SREPORT_UTILIZATION && t == PRIO_TRES_NODE))
						tres[ntres++] = t;
			} else {
				id = prio_tres_find(&snap->tres, p, len);
				if (id < 0)
					cmd_die(c, "-T: unknown TRES '%.*s'", (int)len, p);
				if (id == PRIO_TRES_NODE && a.kind == PRIO_SREPORT_UTILIZATION)
					cmd_die(c, "TRES node usage is no longer reported in the "
						"Cluster Utilization report");
				tres[ntres++] = (uint32_t)id;
			}
			p += len;
			if (*p == ',')
				p++;
		}
		if (!ntres)
			cmd_usage_error(c, NULL, "-T: no TRES named");
		so.tres = tres;
		so.tres_count = ntres;
	}
	if (a.grouping) {
		if (strcasecmp(a.grouping, "individual") == 0) {
			so.individual = true;
		} else {
			char *copy = strdup(a.grouping), *save = NULL;

			if (!copy)
				cmd_die(c, "out of memory");
			for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
				if (ngrouping == 62 || parse_u32(g, &grouping[ngrouping]) < 0 ||
				    !grouping[ngrouping])
					cmd_usage_error(c, NULL, "Grouping: expected positive "
							"CPU counts, got \"%s\"", a.grouping);
				ngrouping++;
			}
			free(copy);
			qsort(grouping, ngrouping, sizeof(grouping[0]), cmp_u32);
			so.grouping = grouping;
			so.grouping_count = ngrouping;
		}
	}
	so.kind = a.kind;
	so.unit = unit;
	so.decayed = decayed;
	so.numbers = c->mode == CMD_OUT_JSON;
	so.top_count = a.top_count;
	so.group = a.group;
	so.tree = a.tree;
	so.print_job_count = a.print_job_count;
	so.accounts = id_list(snap, a.accounts, &so.account_count);
	so.users = id_list(snap, a.users, &so.user_count);
	if (a.kind == PRIO_SREPORT_TOP_USAGE)
		warn_partition_assocs(c, snap);
	if (streamed)
		r = *streamed;
	else if (prio_rollup_run(snap, &ro, &r, &err) < 0)
		cmd_die_error(c, &err);
	if (prio_sreport_build(snap, &r, &so, &rep, &err) < 0)
		cmd_die_error(c, &err);
	if (prio_sreport_write(stdout, &rep, cmd_writer_mode(c->mode), !c->noheader) < 0)
		die_io(c);
	prio_sreport_free(&rep);
	prio_rollup_free(&r);
	return EXIT_OK;
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
	static const struct option own[] = {
		{ "partition", required_argument, NULL, 'p' },
		{ "tres", required_argument, NULL, OPT_TRES },
		{ "ntasks", required_argument, NULL, 'n' },
		{ "cpus-per-task", required_argument, NULL, 'c' },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "mem-per-cpu", required_argument, NULL, OPT_MEM_PER_CPU },
		{ "gres", required_argument, NULL, OPT_GRES },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "decayed", no_argument, NULL, OPT_DECAYED },
		{ "by", required_argument, NULL, OPT_BY },
		{ "up-since", required_argument, NULL, OPT_UP_SINCE },
		{ "parsable", no_argument, NULL, 'P' },
		{ "noheader", no_argument, NULL, 'h' },
	};
	enum { NOWN = sizeof(own) / sizeof(own[0]) };
	const struct option *longopts = cmd_merge_options(own, NOWN);
	struct cmd_common c;
	struct prio_snapshot snap;
	struct shape shape;
	struct prio_rollup streamed;
	bool do_verify = false, decayed = false, have_streamed = false;
	struct verify ver = { .c = NULL };
	const char *tres_names = NULL, *up_since = NULL;
	enum prio_sreport_unit unit = PRIO_UNIT_MINUTES;
	enum prio_bucket_by by = PRIO_BY_NONE;
	int opt, rc, u;

	memset(&shape, 0, sizeof(shape));
	cmd_common_init(&c, "tres-bill");
	opterr = 0;
	/* options anywhere, before or after the report words, as sreport
	 * takes them (getopt moves the words, which never begin with '-',
	 * behind the options in their order) */
	while ((opt = getopt_long(argc, argv, ":p:N:n:c:t:T:M:Ph", longopts, NULL)) != -1) {
		if (cmd_common_option(&c, opt, optarg))
			continue;
		switch (opt) {
		case 'p': shape.partition = optarg; break;
		case OPT_TRES:
		case 'T':
			/* counts (cpu=4,...) for a job shape, names for a report */
			if (strchr(optarg, '='))
				shape.tres = optarg;
			else
				tres_names = optarg;
			break;
		case 'N':
			if (parse_u32(optarg, &shape.nodes) < 0 || !shape.nodes)
				cmd_usage_error(&c, USAGE, "-N: expected a positive node count, got \"%s\"", optarg);
			shape.nodes_set = true;
			break;
		case 'n':
			if (parse_u32(optarg, &shape.ntasks) < 0 || !shape.ntasks)
				cmd_usage_error(&c, USAGE, "-n: expected a positive task count, got \"%s\"", optarg);
			shape.ntasks_set = true;
			break;
		case 'c':
			if (parse_u32(optarg, &shape.cpus_per_task) < 0 || !shape.cpus_per_task)
				cmd_usage_error(&c, USAGE, "-c: expected a positive CPU count, got \"%s\"", optarg);
			shape.cpt_set = true;
			break;
		case OPT_MEM: shape.mem = optarg; break;
		case OPT_MEM_PER_CPU: shape.mem_per_cpu = optarg; break;
		case OPT_GRES: shape.gres = optarg; break;
		case OPT_RATE: {
			char *end;

			shape.rate = strtod(optarg, &end);
			if (end == optarg || *end || shape.rate < 0)
				cmd_usage_error(&c, USAGE, "--rate: expected a price, got \"%s\"", optarg);
			shape.rate_set = true;
			break;
		}
		case OPT_VERIFY: do_verify = true; break;
		case OPT_DECAYED: decayed = true; break;
		case OPT_BY:
			if (strcasecmp(optarg, "day") == 0)
				by = PRIO_BY_DAY;
			else if (strcasecmp(optarg, "week") == 0)
				by = PRIO_BY_WEEK;
			else if (strcasecmp(optarg, "month") == 0)
				by = PRIO_BY_MONTH;
			else
				cmd_usage_error(&c, USAGE, "--by: expected day, week or month, got \"%s\"", optarg);
			break;
		case OPT_UP_SINCE: up_since = optarg; break;
		case 'M':
			/* the same as the shared --cluster: --live asks that cluster */
			c.cluster = optarg;
			break;
		case 't':
			u = prio_sreport_unit_parse(optarg);
			if (u < 0)
				cmd_usage_error(&c, USAGE, "-t: unknown time format '%s' (seconds, "
						"minutes, hours, percent, secper, minper, hourper)", optarg);
			unit = (enum prio_sreport_unit)u;
			break;
		case 'P': cmd_output(&c, CMD_OUT_PARSABLE2); break;
		case 'h': c.noheader = true; break;
		case OPT_HELP: help(); return EXIT_OK;
		case OPT_VERSION: printf("tres-bill (prio-tools) %s\n", PACKAGE_VERSION); return EXIT_OK;
		case ':':
			cmd_usage_error(&c, USAGE, "option '%s' needs a value", argv[optind - 1]);
		default:
			cmd_usage_error(&c, USAGE, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc && (shape_given(&shape) || do_verify))
		cmd_usage_error(&c, USAGE, "a report ('%s') cannot be combined with a job shape "
				"or --verify", argv[optind]);
	if (shape_given(&shape) && do_verify)
		cmd_usage_error(&c, USAGE, "--verify takes no job shape");
	if (optind >= argc && (tres_names || decayed || by != PRIO_BY_NONE || up_since))
		cmd_usage_error(&c, USAGE, "-T NAMES, --decayed, --by and --up-since go with a report");
	/* the whole command line is checked before any source is read */
	check_shape(&c, &shape);
	if (optind < argc) {
		struct report_args ra;

		parse_report(&c, argc - optind, argv + optind, &ra);
	}
	/* only what the mode reads */
	if (shape_given(&shape))
		c.folder_roles = (1u << PRIO_ROLE_CONF) | (1u << PRIO_ROLE_PARTITIONS) |
				 (1u << PRIO_ROLE_NODES);
	else if (optind < argc)
		c.folder_roles &= ~(1u << PRIO_ROLE_JOBS);
	have_streamed = optind < argc &&
			report_stream(&c, &snap, argc - optind, argv + optind,
				      decayed, by, c.cluster, &streamed);
	if (do_verify && !shape_given(&shape))
		have_streamed = verify_stream(&c, &snap, &ver);
	if (!have_streamed)
		cmd_load_snapshot(&c, &snap);
	/* a report sums every user's records; a job's own bill does not */
	if (optind < argc)
		cmd_partial(&c, &snap, PRIO_NEEDS_ROLLUP, "the report", true);
	if (optind < argc)
		rc = report(&c, &snap, argc - optind, argv + optind, tres_names, unit, decayed,
			    by, up_since, c.cluster, have_streamed ? &streamed : NULL);
	else if (do_verify)
		rc = verify(&c, &snap, &ver);
	else if (shape_given(&shape))
		rc = calculator(&c, &snap, &shape);
	else
		rc = queue(&c, &snap, shape.partition);
	prio_snapshot_free(&snap);
	return rc;
}
