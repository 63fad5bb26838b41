/* SPDX-License-Identifier: MIT */
/*
 * Configuration loaders: slurm.conf (lines, Include, records, the key
 * table), `scontrol show config`, `scontrol show partition|node` (both
 * shapes), and prio_config_link (partition nodes, TRES totals, billing,
 * weights, cross-key checks).  Real values come from the oracle captures.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* --- helpers -------------------------------------------------------------- */

static char msg[1024];

static const char *fmt(const struct prio_error *err)
{
	return prio_error_format(err, msg, sizeof(msg));
}

static int load_text(struct prio_snapshot *snap, const char *text,
		     struct prio_error *err)
{
	struct prio_source src;

	test_source(&src, "test.conf", text);
	return prio_load_slurmconf_source(snap, &src, err);
}

/* Load text as slurm.conf and finish; both must succeed. */
static void conf_ok(struct prio_snapshot *snap, const char *text)
{
	struct prio_error err;

	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(load_text(snap, text, &err), 0, "%s", fmt(&err));
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s", fmt(&err));
}

/* Load text as slurm.conf; expect the load to fail with status. */
static void conf_fails(const char *text, int status, unsigned long line,
		       const char *field, struct prio_error *err)
{
	struct prio_snapshot snap;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(load_text(&snap, text, err), status, "got %s", fmt(err));
	cr_assert_eq(err->line, line, "%s", fmt(err));
	cr_assert_str_eq(err->field, field, "%s", fmt(err));
	prio_snapshot_free(&snap);
}

/* Load text, then expect prio_snapshot_finish to fail. */
static void link_fails(const char *text, int status, unsigned long line,
		       const char *field, struct prio_error *err)
{
	struct prio_snapshot snap;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(load_text(&snap, text, err), 0, "%s", fmt(err));
	cr_assert_eq(prio_snapshot_finish(&snap, err), status, "got %s", fmt(err));
	cr_assert_eq(err->line, line, "%s", fmt(err));
	cr_assert_str_eq(err->field, field, "%s", fmt(err));
	prio_snapshot_free(&snap);
}

static struct prio_partition *part(struct prio_snapshot *snap, const char *name)
{
	for (uint32_t i = 0; i < snap->partition_count; i++)
		if (!strcmp(prio_snapshot_str(snap, snap->partitions[i].name), name))
			return &snap->partitions[i];
	cr_assert_fail("no partition %s", name);
	return NULL;
}

static struct prio_node *node(struct prio_snapshot *snap, const char *name)
{
	for (uint32_t i = 0; i < snap->node_count; i++)
		if (!strcmp(prio_snapshot_str(snap, snap->nodes[i].name), name))
			return &snap->nodes[i];
	cr_assert_fail("no node %s", name);
	return NULL;
}

static int tres_id(const struct prio_snapshot *snap, const char *name)
{
	return prio_tres_find(&snap->tres, name, strlen(name));
}

static uint64_t total(const struct prio_partition *p, int tres)
{
	cr_assert_geq(tres, 0);
	cr_assert_lt((uint32_t)tres, p->tres_count);
	return p->tres_total[tres];
}

enum loader { L_SLURMCONF, L_CONFIG, L_PARTITIONS, L_NODES };

static int load_path(struct prio_snapshot *snap, enum loader which,
		     const char *path, struct prio_error *err)
{
	struct prio_source src;
	int rc;

	if (which == L_SLURMCONF)
		return prio_load_slurmconf(snap, path, err);
	if ((rc = prio_source_open(&src, path, err)) < 0)
		return rc;
	if (which == L_CONFIG)
		rc = prio_load_scontrol_config(snap, &src, err);
	else if (which == L_PARTITIONS)
		rc = prio_load_scontrol_partitions(snap, &src, err);
	else
		rc = prio_load_scontrol_nodes(snap, &src, err);
	prio_source_close(&src);
	return rc;
}

/* Load one file with one loader and finish, all without errors. */
static void load_ok(struct prio_snapshot *snap, enum loader which,
		    const char *path)
{
	struct prio_error err;

	cr_assert_eq(prio_snapshot_init(snap), 0);
	cr_assert_eq(load_path(snap, which, path, &err), 0, "%s", fmt(&err));
	cr_assert_eq(prio_snapshot_finish(snap, &err), 0, "%s", fmt(&err));
	cr_assert_eq(snap->warning_count, 0);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* What `scontrol -o` prints for the same records: each multi-line record
 * on one line (continuation lines joined with one blank). */
static char *one_line_form(const char *path)
{
	char *in = read_file(path), *out = malloc(strlen(in) + 2), *o = out;
	const char *s = in;
	bool open = false;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		const char *t = s;
		size_t tn = n;

		while (tn && (*t == ' ' || *t == '\t')) {
			t++;
			tn--;
		}
		while (tn && t[tn - 1] == ' ')
			tn--;
		if (tn == 0 && n) {
			/* a line of blanks inside a record: -o prints its
			 * line end as a blank */
		} else if (tn == 0) {
			if (open)
				*o++ = '\n';
			open = false;
		} else {
			if (open && t == s)
				*o++ = '\n'; /* a new record without blank line */
			else if (open)
				*o++ = ' ';
			memcpy(o, t, tn);
			o += tn;
			open = true;
		}
		s += n + (nl ? 1 : 0);
	}
	if (open)
		*o++ = '\n';
	*o = '\0';
	free(in);
	return out;
}

static int load_memory(struct prio_snapshot *snap, enum loader which,
		       const char *text, struct prio_error *err)
{
	struct prio_source src;

	test_source(&src, "capture.txt", text);
	if (which == L_CONFIG)
		return prio_load_scontrol_config(snap, &src, err);
	if (which == L_PARTITIONS)
		return prio_load_scontrol_partitions(snap, &src, err);
	if (which == L_NODES)
		return prio_load_scontrol_nodes(snap, &src, err);
	return prio_load_slurmconf_source(snap, &src, err);
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* --- slurm.conf: the oracle ----------------------------------------------------- */

Test(conf, fairtree_basic_slurm_conf)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/fairtree-basic/slurm.conf"));
	const struct prio_config *c = &snap.conf;
	cr_assert(snap.have_config);
	cr_assert_str_eq(c->cluster_name, "ft");
	cr_assert_str_eq(c->priority_type, "priority/multifactor");
	cr_assert_eq(c->weight_age, 1000);
	cr_assert_eq(c->weight_assoc, 500);
	cr_assert_eq(c->weight_fairshare, 10000);
	cr_assert_eq(c->weight_jobsize, 2000);
	cr_assert_eq(c->weight_partition, 3000);
	cr_assert_eq(c->weight_qos, 5000);
	cr_assert_eq(c->weight_tres.count, 2);
	cr_assert_float_eq(prio_tres_weights_get(&c->weight_tres, PRIO_TRES_CPU), 700.0, 1e-9);
	cr_assert_float_eq(prio_tres_weights_get(&c->weight_tres, PRIO_TRES_MEM), 300.0, 1e-9);
	cr_assert_eq(c->priority_flags, PRIO_FLAG_FAIR_TREE);
	cr_assert_eq(c->decay_half_life, 600);
	cr_assert_eq(c->calc_period, 60);
	cr_assert_eq(c->max_age, 1200);
	cr_assert_eq(c->reset_period, PRIO_RESET_NONE);
	cr_assert(!c->favor_small);
	cr_assert_eq(c->dampening_factor, 1);
	cr_assert_eq(c->preempt_type, PRIO_PREEMPT_TYPE_NONE);
	cr_assert_eq(c->preempt_mode, PRIO_PREEMPT_OFF);
	cr_assert_eq(c->def_mem_per_cpu, 1000);
	cr_assert_str_eq(c->accounting_storage_enforce, "associations,limits,qos");
	cr_assert_str_eq(c->select_type_parameters, "CR_Core_Memory");
	cr_assert_str_eq(c->scheduler_parameters, "bf_interval=5,sched_interval=5");

	cr_assert_eq(snap.node_count, 5);
	for (uint32_t i = 0; i < snap.node_count; i++) {
		cr_assert_eq(snap.nodes[i].cpus, 8);
		cr_assert_eq(snap.nodes[i].cpus_efctv, 8);
		cr_assert_eq(snap.nodes[i].real_memory, 16000);
		cr_assert_eq(snap.nodes[i].cores_per_socket, 8);
		cr_assert_eq(snap.nodes[i].sockets, 1);
	}
	cr_assert_str_eq(prio_snapshot_str(&snap, snap.nodes[4].name), "ftn5");
	cr_assert_eq(snap.nodes[4].line, 44);

	cr_assert_eq(snap.partition_count, 3);
	struct prio_partition *batch = part(&snap, "batch"), *shrt = part(&snap, "short"),
			      *big = part(&snap, "big");
	cr_assert(batch->is_default);
	cr_assert(!big->is_default);
	cr_assert_eq(batch->job_factor, 10);
	cr_assert_eq(shrt->job_factor, 50);
	cr_assert_eq(shrt->max_time, 120);
	cr_assert_eq(batch->max_time, PRIO_INFINITE);
	cr_assert_eq(big->tier, 2);
	cr_assert_eq(big->job_factor, 1);
	cr_assert_eq(big->node_count, 5);
	cr_assert_eq(big->total_cpus, 40);
	cr_assert_eq(big->billing_weights.count, 3);
	cr_assert_float_eq(prio_tres_weights_get(&big->billing_weights, PRIO_TRES_CPU), 0.5, 1e-12);
	cr_assert_float_eq(prio_tres_weights_get(&big->billing_weights, PRIO_TRES_MEM),
			   1.0 / 1024, 1e-12);
	cr_assert_float_eq(prio_tres_weights_get(&big->billing_weights, PRIO_TRES_NODE), 4.0, 1e-12);
	/* TRES totals as scontrol printed them: cpu=40,mem=80000M,node=5 and
	 * billing 59 / 119 / 118 (truncated). */
	cr_assert_eq(total(big, PRIO_TRES_CPU), 40);
	cr_assert_eq(total(big, PRIO_TRES_MEM), 80000);
	cr_assert_eq(total(big, PRIO_TRES_NODE), 5);
	cr_assert_eq(total(big, PRIO_TRES_BILLING), 118);
	cr_assert_eq(total(batch, PRIO_TRES_BILLING), 59);
	cr_assert_eq(total(shrt, PRIO_TRES_BILLING), 119);
	cr_assert_str_eq(big->file, test_path("tests/oracle/fairtree-basic/slurm.conf"));
	cr_assert_eq(big->line, 63);
	/* Unknown keys are kept for display, interpreted keys too. */
	const struct prio_conf_kv *kv = prio_config_find(c, "SlurmctldPort");
	cr_assert_not_null(kv);
	cr_assert_str_eq(kv->value, "6817");
	cr_assert_eq(kv->line, 4);
	kv = prio_config_find(c, "priorityweightqos");
	cr_assert_not_null(kv);
	cr_assert_str_eq(kv->value, "5000");
	cr_assert_eq(snap.loaded_count, 1);
	cr_assert_eq(snap.loaded[0].kind, PRIO_INPUT_SLURMCONF);
	cr_assert_gt(snap.loaded[0].records, 50);
	prio_snapshot_free(&snap);
}

Test(conf, scenario_specific_settings)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/depth-oblivious/slurm.conf"));
	cr_assert_eq(snap.conf.priority_flags, PRIO_FLAG_DEPTH_OBLIVIOUS);
	prio_snapshot_free(&snap);

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/flags-no-normal-all/slurm.conf"));
	cr_assert_eq(snap.conf.priority_flags,
		     PRIO_FLAG_FAIR_TREE | PRIO_FLAG_NO_NORMAL_ASSOC | PRIO_FLAG_NO_NORMAL_PART |
			     PRIO_FLAG_NO_NORMAL_QOS | PRIO_FLAG_NO_NORMAL_TRES);
	prio_snapshot_free(&snap);

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/flags-favor-small/slurm.conf"));
	cr_assert(snap.conf.favor_small);
	prio_snapshot_free(&snap);

	load_ok(&snap, L_SLURMCONF,
		test_path("tests/oracle/preemption-b-three-partitions/slurm.conf"));
	cr_assert_eq(snap.conf.preempt_type, PRIO_PREEMPT_TYPE_PARTITION_PRIO);
	cr_assert_eq(snap.conf.preempt_mode, PRIO_PREEMPT_SUSPEND | PRIO_PREEMPT_GANG);
	cr_assert_eq(snap.conf.decay_half_life, 604800); /* defaults */
	cr_assert_eq(snap.conf.calc_period, 300);
	cr_assert_eq(snap.conf.weight_tres.count, 0);
	cr_assert_eq(part(&snap, "low")->preempt_mode, PRIO_PREEMPT_REQUEUE);
	cr_assert_eq(part(&snap, "low")->tier, 10);
	cr_assert_eq(part(&snap, "med")->preempt_mode, PRIO_PREEMPT_SUSPEND);
	cr_assert_eq(part(&snap, "med")->max_share, 1 | PRIO_SHARED_FORCE);
	cr_assert_eq(part(&snap, "hi")->preempt_mode, PRIO_PREEMPT_OFF);
	cr_assert_eq(part(&snap, "hi")->tier, 30);
	/* No billing weights: billing = the CPU count. */
	cr_assert_eq(total(part(&snap, "low"), PRIO_TRES_BILLING), 40);
	prio_snapshot_free(&snap);

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/seed-hierarchy/slurm.conf"));
	struct prio_partition *priv = part(&snap, "private");
	cr_assert_eq(priv->job_factor, 1000);
	cr_assert_eq(priv->tier, 10);
	cr_assert_eq(priv->node_count, 1);
	cr_assert_eq(priv->total_cpus, 8);
	cr_assert_str_eq(priv->allow_accounts, "xlim_optics");
	cr_assert_eq(part(&snap, "long")->max_time, 14 * 24 * 60);
	cr_assert_eq(snap.conf.weight_fairshare, 70000);
	cr_assert_eq(snap.conf.max_age, 604800);
	cr_assert_eq(snap.conf.decay_half_life, 300);
	prio_snapshot_free(&snap);

	/* billing-max-tres: the same weights, summed or maxed. */
	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/billing-max-tres/slurm.conf.default"));
	cr_assert_eq(total(part(&snap, "sum"), PRIO_TRES_BILLING), 69);
	cr_assert_eq(total(part(&snap, "gpuish"), PRIO_TRES_BILLING), 98);
	prio_snapshot_free(&snap);
	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/billing-max-tres/slurm.conf.max_tres"));
	cr_assert(snap.conf.priority_flags & PRIO_FLAG_MAX_TRES);
	/* max(cpu 40, mem 19.5, node 10) and max(cpu 20, mem 78.1) */
	cr_assert_eq(total(part(&snap, "sum"), PRIO_TRES_BILLING), 40);
	cr_assert_eq(total(part(&snap, "gpuish"), PRIO_TRES_BILLING), 78);
	prio_snapshot_free(&snap);
}

static enum loader loader_of(const char *base)
{
	if (!strncmp(base, "slurm.conf", 10))
		return L_SLURMCONF;
	if (!strcmp(base, "scontrol_show_config.txt"))
		return L_CONFIG;
	if (!strncmp(base, "scontrol_show_partition", 23))
		return L_PARTITIONS;
	return L_NODES;
}

Test(conf, every_oracle_config_file_loads)
{
	const char *patterns[] = { "tests/oracle/*/slurm.conf*",
				   "tests/oracle/*/scontrol_show_config.txt",
				   "tests/oracle/*/scontrol_show_partition*.txt",
				   "tests/oracle/*/scontrol_show_node.txt" };
	unsigned files = 0;

	for (size_t k = 0; k < 4; k++) {
		glob_t g;

		cr_assert_eq(glob(test_path(patterns[k]), 0, NULL, &g), 0);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct prio_snapshot snap;
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			enum loader which = loader_of(base);

			load_ok(&snap, which, g.gl_pathv[i]);
			cr_assert_gt(snap.loaded[0].records, 0, "%s", g.gl_pathv[i]);
			if (which == L_PARTITIONS)
				cr_assert_geq(snap.partition_count, 2, "%s", g.gl_pathv[i]);
			if (which == L_NODES)
				cr_assert_geq(snap.node_count, 4, "%s", g.gl_pathv[i]);
			prio_snapshot_free(&snap);
			files++;
		}
		globfree(&g);
	}
	/* 22.05: 12 slurm.conf, 10 config dumps, 11 partition and 8 node
	 * captures; later releases' scenarios add theirs */
	cr_assert_geq(files, 41);
}

/* --- slurm.conf and scontrol agree ------------------------------------------ */

static void same_weights(const struct prio_snapshot *a, const struct prio_tres_weights *wa,
			 const struct prio_snapshot *b, const struct prio_tres_weights *wb,
			 const char *what)
{
	cr_assert_eq(wa->count, wb->count, "%s", what);
	for (uint32_t i = 0; i < wa->count; i++) {
		const char *name = a->tres.names[wa->items[i].tres];
		int id = tres_id(b, name);

		cr_assert_geq(id, 0, "%s: %s", what, name);
		cr_assert_float_eq(prio_tres_weights_get(wb, (uint32_t)id), wa->items[i].weight,
				   1e-12, "%s: %s", what, name);
	}
}

static void same_config(const struct prio_snapshot *a, const struct prio_snapshot *b,
			const char *dir)
{
	const struct prio_config *x = &a->conf, *y = &b->conf;

	cr_assert_str_eq(x->cluster_name, y->cluster_name, "%s", dir);
	cr_assert_str_eq(x->priority_type, y->priority_type, "%s", dir);
	cr_assert_eq(x->weight_age, y->weight_age, "%s", dir);
	cr_assert_eq(x->weight_assoc, y->weight_assoc, "%s", dir);
	cr_assert_eq(x->weight_fairshare, y->weight_fairshare, "%s", dir);
	cr_assert_eq(x->weight_jobsize, y->weight_jobsize, "%s", dir);
	cr_assert_eq(x->weight_partition, y->weight_partition, "%s", dir);
	cr_assert_eq(x->weight_qos, y->weight_qos, "%s", dir);
	same_weights(a, &x->weight_tres, b, &y->weight_tres, dir);
	cr_assert_eq(x->priority_flags, y->priority_flags, "%s", dir);
	cr_assert_eq(x->decay_half_life, y->decay_half_life, "%s", dir);
	cr_assert_eq(x->calc_period, y->calc_period, "%s", dir);
	cr_assert_eq(x->max_age, y->max_age, "%s", dir);
	cr_assert_eq(x->reset_period, y->reset_period, "%s", dir);
	cr_assert_eq(x->favor_small, y->favor_small, "%s", dir);
	cr_assert_eq(x->dampening_factor, y->dampening_factor, "%s", dir);
	cr_assert_eq(x->preempt_type, y->preempt_type, "%s", dir);
	cr_assert_eq(x->preempt_mode, y->preempt_mode, "%s", dir);
	cr_assert_eq(x->preempt_exempt_time, y->preempt_exempt_time, "%s", dir);
	cr_assert_str_eq(str(x->accounting_storage_enforce), str(y->accounting_storage_enforce),
			 "%s", dir);
	cr_assert_str_eq(str(x->scheduler_parameters), str(y->scheduler_parameters), "%s", dir);
	cr_assert_eq(strcasecmp(str(x->select_type_parameters), str(y->select_type_parameters)),
		     0, "%s", dir);
	cr_assert_eq(x->sched_time_slice, y->sched_time_slice, "%s", dir);
	cr_assert_eq(x->def_mem_per_cpu, y->def_mem_per_cpu, "%s", dir);
	/* The configured TRES: slurm.conf lists cpu,mem,node,billing, scontrol
	 * prints them with the built-in ones. */
	cr_assert_eq(a->tres.count, b->tres.count, "%s", dir);
	for (uint32_t i = 0; i < a->tres.count; i++) {
		int id = tres_id(b, a->tres.names[i]);

		cr_assert_geq(id, 0);
		cr_assert_eq(a->tres.configured[i], b->tres.configured[id], "%s %s", dir,
			     a->tres.names[i]);
	}
}

static void same_partitions(const struct prio_snapshot *a, const struct prio_snapshot *b,
			    const char *dir)
{
	cr_assert_eq(a->partition_count, b->partition_count, "%s", dir);
	for (uint32_t i = 0; i < b->partition_count; i++) {
		const struct prio_partition *q = &b->partitions[i];
		const char *name = prio_snapshot_str(b, q->name);
		const struct prio_partition *p = NULL;

		for (uint32_t k = 0; k < a->partition_count; k++)
			if (!strcmp(prio_snapshot_str(a, a->partitions[k].name), name))
				p = &a->partitions[k];
		cr_assert_not_null(p, "%s: %s", dir, name);
		cr_assert_eq(p->job_factor, q->job_factor, "%s: %s", dir, name);
		cr_assert_eq(p->tier, q->tier, "%s: %s", dir, name);
		cr_assert_eq(p->max_time, q->max_time, "%s: %s", dir, name);
		cr_assert_eq(p->default_time, q->default_time, "%s: %s", dir, name);
		cr_assert_eq(p->is_default, q->is_default, "%s: %s", dir, name);
		/* scontrol prints the cluster's mode for a partition without
		 * its own. */
		cr_assert_eq(p->preempt_mode == PRIO_NO_VAL16 ? a->conf.preempt_mode : p->preempt_mode,
			     q->preempt_mode, "%s: %s", dir, name);
		cr_assert_eq(p->grace_time, q->grace_time, "%s: %s", dir, name);
		cr_assert_eq(p->max_share, q->max_share, "%s: %s", dir, name);
		same_weights(a, &p->billing_weights, b, &q->billing_weights, name);
		cr_assert_eq(p->total_nodes, q->total_nodes, "%s: %s", dir, name);
		cr_assert_eq(p->total_cpus, q->total_cpus, "%s: %s", dir, name);
		cr_assert_str_eq(str(p->allow_accounts), str(q->allow_accounts), "%s: %s", dir, name);
		/* TRES totals computed from the nodes equal the printed ones,
		 * billing included. */
		for (uint32_t t = 0; t < PRIO_TRES_BUILTIN_COUNT; t++)
			cr_assert_eq(p->tres_total[t], q->tres_total[t], "%s: %s %s", dir, name,
				     a->tres.names[t]);
	}
}

Test(conf, slurm_conf_equals_scontrol_show_config)
{
	glob_t g;
	unsigned compared = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_config.txt"), 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char dir[4096], path[4200];
		struct prio_snapshot a, b;
		struct stat st;

		snprintf(dir, sizeof(dir), "%s", g.gl_pathv[i]);
		*strrchr(dir, '/') = '\0';
		snprintf(path, sizeof(path), "%s/slurm.conf", dir);
		if (stat(path, &st) != 0)
			continue;
		load_ok(&a, L_SLURMCONF, path);
		load_ok(&b, L_CONFIG, g.gl_pathv[i]);
		same_config(&a, &b, dir);
		compared++;
		prio_snapshot_free(&b);
		prio_snapshot_free(&a);
	}
	globfree(&g);
	cr_assert_geq(compared, 10);
}

Test(conf, slurm_conf_partitions_equal_scontrol_show_partition)
{
	glob_t g;
	unsigned compared = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_partition*.txt"), 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char dir[4096], path[4200];
		struct prio_snapshot a, b;
		struct stat st;
		bool dflt = strstr(g.gl_pathv[i], "_default") != NULL;

		snprintf(dir, sizeof(dir), "%s", g.gl_pathv[i]);
		*strrchr(dir, '/') = '\0';
		snprintf(path, sizeof(path), "%s/slurm.conf%s", dir, dflt ? ".default" : "");
		if (stat(path, &st) != 0)
			continue;
		load_ok(&a, L_SLURMCONF, path);
		load_ok(&b, L_PARTITIONS, g.gl_pathv[i]);
		same_partitions(&a, &b, g.gl_pathv[i]);
		compared++;
		prio_snapshot_free(&b);
		prio_snapshot_free(&a);
	}
	globfree(&g);
	cr_assert_geq(compared, 11);
}

Test(conf, slurm_conf_nodes_equal_scontrol_show_node)
{
	glob_t g;
	unsigned compared = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_node.txt"), 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char dir[4096], path[4200];
		struct prio_snapshot a, b;

		snprintf(dir, sizeof(dir), "%s", g.gl_pathv[i]);
		*strrchr(dir, '/') = '\0';
		snprintf(path, sizeof(path), "%s/slurm.conf", dir);
		load_ok(&a, L_SLURMCONF, path);
		load_ok(&b, L_NODES, g.gl_pathv[i]);
		cr_assert_eq(a.node_count, b.node_count);
		for (uint32_t k = 0; k < b.node_count; k++) {
			const struct prio_node *m = &b.nodes[k];
			const struct prio_node *n = node(&a, prio_snapshot_str(&b, m->name));

			cr_assert_eq(n->cpus, m->cpus);
			cr_assert_eq(n->cpus_efctv, m->cpus_efctv);
			cr_assert_eq(n->boards, m->boards);
			cr_assert_eq(n->sockets, m->sockets);
			cr_assert_eq(n->cores_per_socket, m->cores_per_socket);
			cr_assert_eq(n->threads_per_core, m->threads_per_core);
			cr_assert_eq(n->real_memory, m->real_memory);
			cr_assert_eq(n->weight, m->weight);
		}
		compared++;
		prio_snapshot_free(&b);
		prio_snapshot_free(&a);
	}
	globfree(&g);
	cr_assert_geq(compared, 8);
}

/* --- scontrol show partition / node ---------------------------------------------- */

Test(conf, scontrol_partitions_keep_printed_totals)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_PARTITIONS, test_path("tests/oracle/fairtree-basic/scontrol_show_partition.txt"));
	cr_assert_eq(snap.partition_count, 3);
	cr_assert_eq(snap.node_count, 0);
	struct prio_partition *big = part(&snap, "big");
	cr_assert_str_eq(big->nodes_text, "ftn[1-5]");
	cr_assert_eq(big->total_cpus, 40);
	cr_assert_eq(big->total_nodes, 5);
	cr_assert_eq(big->tier, 2);
	cr_assert_eq(big->line, 29);
	cr_assert_eq(total(big, PRIO_TRES_MEM), 80000);
	cr_assert_eq(total(big, PRIO_TRES_BILLING), 118);
	cr_assert_eq(big->default_time, PRIO_NO_VAL);
	cr_assert_eq(big->qos, PRIO_NO_ID);
	cr_assert_str_eq(big->state, "UP");
	cr_assert(part(&snap, "batch")->is_default);
	prio_snapshot_free(&snap);

	load_ok(&snap, L_PARTITIONS,
		test_path("tests/oracle/preemption-a-partition-suspend/scontrol_show_partition.txt"));
	cr_assert_eq(part(&snap, "hipri")->preempt_mode, PRIO_PREEMPT_SUSPEND | PRIO_PREEMPT_GANG);
	cr_assert_eq(part(&snap, "hipri")->max_share, 1 | PRIO_SHARED_FORCE);
	prio_snapshot_free(&snap);
}

/* seed-hierarchy prints mem=62.50G for 64000 MB. */
Test(conf, printed_tres_with_decimals)
{
	struct prio_arena a;
	struct prio_tres_table t;
	struct prio_tres_list l;
	const char *why = NULL;

	prio_arena_init(&a);
	cr_assert_eq(prio_tres_table_init(&t), 0);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "cpu=32,mem=62.50G,node=4", 24, &l, &why), 0);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_MEM, 0), 64000);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "mem=1.5T", 8, &l, &why), 0);
	cr_assert_eq(prio_tres_list_get(&l, PRIO_TRES_MEM, 0), 1572864);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "cpu=1.5", 7, &l, &why), -1);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "mem=1.G", 7, &l, &why), -1);
	cr_assert_eq(prio_tres_list_parse(&a, &t, "mem=1.5GB", 9, &l, &why), -1);
	prio_tres_table_free(&t);
	prio_arena_free(&a);
}

Test(conf, scontrol_nodes_keep_allocation)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_NODES, test_path("tests/oracle/fairtree-basic/scontrol_show_node.txt"));
	cr_assert_eq(snap.node_count, 5);
	struct prio_node *n1 = node(&snap, "ftn1"), *n2 = node(&snap, "ftn2");
	cr_assert_eq(n1->cpus, 8);
	cr_assert_eq(n1->cpus_efctv, 8);
	cr_assert_eq(n1->cpus_alloc, 8);
	cr_assert_eq(n1->alloc_mem, 12288);
	cr_assert_eq(n2->alloc_mem, 15360);
	cr_assert_eq(prio_tres_list_get(&n1->alloc_tres, PRIO_TRES_MEM, 0), 12288);
	cr_assert_eq(prio_tres_list_get(&n1->cfg_tres, PRIO_TRES_MEM, 0), 16000);
	cr_assert_eq(prio_tres_list_get(&n1->cfg_tres, PRIO_TRES_BILLING, 0), 23);
	cr_assert_str_eq(n1->state, "ALLOCATED");
	cr_assert_str_eq(n1->partitions_text, "batch,short,big");
	cr_assert_null(n1->gres);
	cr_assert_eq(n1->real_memory, 16000);
	cr_assert_eq(n1->line, 1);
	cr_assert_eq(n2->line, 19);
	prio_snapshot_free(&snap);
}

Test(conf, scontrol_partitions_and_nodes_link_together)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(load_path(&snap, L_PARTITIONS,
			       test_path("tests/oracle/seed-hierarchy/scontrol_show_partition.txt"), &err), 0);
	cr_assert_eq(load_path(&snap, L_NODES,
			       test_path("tests/oracle/seed-hierarchy/scontrol_show_node.txt"), &err), 0);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", fmt(&err));
	struct prio_partition *priv = part(&snap, "private"), *normal = part(&snap, "normal");
	cr_assert_eq(priv->node_count, 1);
	cr_assert_str_eq(prio_snapshot_str(&snap, snap.nodes[priv->nodes[0]].name), "seedn4");
	cr_assert_eq(normal->node_count, 4);
	cr_assert_eq(normal->total_cpus, 32);
	cr_assert_eq(total(normal, PRIO_TRES_MEM), 64000);
	cr_assert_eq(total(normal, PRIO_TRES_BILLING), 32);
	prio_snapshot_free(&snap);
}

/* The -o shape of each capture loads to the same records. */
Test(conf, scontrol_one_line_form_equals_multi_line)
{
	const char *dirs[] = { "fairtree-basic", "seed-hierarchy", "preemption-b-three-partitions" };

	for (size_t d = 0; d < 3; d++) {
		char path[512];
		enum loader kinds[2] = { L_PARTITIONS, L_NODES };
		const char *names[2] = { "scontrol_show_partition.txt", "scontrol_show_node.txt" };

		for (int k = 0; k < 2; k++) {
			struct prio_snapshot a, b;
			struct prio_error err;
			struct stat st;
			char *text;

			snprintf(path, sizeof(path), "tests/oracle/%s/%s", dirs[d], names[k]);
			if (stat(test_path(path), &st) != 0)
				continue;
			load_ok(&a, kinds[k], test_path(path));
			text = one_line_form(test_path(path));
			cr_assert_null(strstr(text, "\n   "), "really one line per record");
			prio_snapshot_init(&b);
			cr_assert_eq(load_memory(&b, kinds[k], text, &err), 0, "%s", fmt(&err));
			cr_assert_eq(prio_snapshot_finish(&b, &err), 0, "%s", fmt(&err));
			if (kinds[k] == L_PARTITIONS) {
				cr_assert_eq(a.partition_count, b.partition_count);
				same_partitions(&a, &b, path);
				/* Record k is on line k+1. */
				cr_assert_eq(b.partitions[1].line, 2);
			} else {
				cr_assert_eq(a.node_count, b.node_count);
				for (uint32_t i = 0; i < a.node_count; i++) {
					const struct prio_node *x = &a.nodes[i], *y = &b.nodes[i];

					cr_assert_eq(x->name, y->name);
					cr_assert_eq(x->cpus, y->cpus);
					cr_assert_eq(x->cpus_alloc, y->cpus_alloc);
					cr_assert_eq(x->alloc_mem, y->alloc_mem);
					cr_assert_eq(x->real_memory, y->real_memory);
					cr_assert_str_eq(x->state, y->state);
					cr_assert_eq(prio_tres_list_get(&x->alloc_tres, PRIO_TRES_CPU, 0),
						     prio_tres_list_get(&y->alloc_tres, PRIO_TRES_CPU, 0));
					cr_assert_eq(y->line, i + 1);
				}
			}
			free(text);
			prio_snapshot_free(&b);
			prio_snapshot_free(&a);
		}
	}
}

Test(conf, scontrol_partition_and_node_errors)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_PARTITIONS,
				 "PartitionName=a Nodes=n1 TotalCPUs=4\n"
				 "PartitionName=b PriorityTier=x\n", &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "PriorityTier");
	cr_assert_str_eq(err.message, "expected an unsigned integer, got \"x\"");
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_PARTITIONS,
				 "PartitionName=a\n   Nodes=n1\n\nPartitionName=a\n   Nodes=n2\n", &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 4);
	cr_assert_str_eq(err.field, "PartitionName");
	cr_assert_str_eq(err.message, "duplicate entry for partition a");
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES, "No nodes in the system\n", &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES, "   CPUTot=4\n", &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 1);
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES, "NodeName=n1 CPUTot=4\nNodeName=n1 CPUTot=4\n", &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "NodeName");
	prio_snapshot_free(&snap);

	/* keep_going: the bad record is a warning, the others load. */
	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(load_memory(&snap, L_NODES,
				 "NodeName=n1 CPUTot=4\nNodeName=n2 RealMemory=lots\nNodeName=n3 CPUTot=2\n",
				 &err), 0);
	cr_assert_eq(snap.node_count, 2);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 2);
	cr_assert_str_eq(snap.warnings[0].error.field, "RealMemory");
	cr_assert_eq(snap.loaded[0].records, 2);
	prio_snapshot_free(&snap);

	/* NUL byte and an overlong line in a capture. */
	static const char nul[] = "NodeName=n1 CPUTot=4\nNodeName=n2\0 CPUTot=4\n";
	struct prio_source src;
	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "nodes.txt", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_scontrol_nodes(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);
}

Test(conf, scontrol_node_gres_counts_toward_partition_tres)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(prio_config_set(&snap, "AccountingStorageTRES", 21, "gres/gpu,gres/gpu:a100", 22,
				     "--set", 0, &err), 0, "%s", fmt(&err));
	cr_assert_eq(load_memory(&snap, L_PARTITIONS,
				 "PartitionName=gpu Nodes=g[1-2] TRESBillingWeights=CPU=1,GRES/gpu=10\n",
				 &err), 0, "%s", fmt(&err));
	cr_assert_eq(load_memory(&snap, L_NODES,
				 "NodeName=g1 CPUTot=16 CPUEfctv=14 RealMemory=64000 Gres=gpu:a100:4(S:0-1)\n"
				 "NodeName=g2 CPUTot=16 RealMemory=64000 Gres=gpu:2,mps:100\n", &err),
		     0, "%s", fmt(&err));
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", fmt(&err));
	struct prio_partition *p = part(&snap, "gpu");
	cr_assert_eq(total(p, PRIO_TRES_CPU), 30);
	cr_assert_eq(total(p, tres_id(&snap, "gres/gpu")), 6);
	cr_assert_eq(total(p, tres_id(&snap, "gres/gpu:a100")), 4);
	cr_assert_eq(total(p, PRIO_TRES_BILLING), 30 + 60);
	prio_snapshot_free(&snap);
}

/* --- scontrol show config ---------------------------------------------------------- */

Test(conf, scontrol_config_sections_and_status_lines)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG,
				 "Configuration data as of 2026-11-22T03:55:30\n"
				 "ClusterName             = ft\n"
				 "PowerPlugin             = \n"
				 "PriorityFlags           = NO_FAIR_TREE\n"
				 "PriorityWeightAge       = 1000\n"
				 "PriorityWeightTRES      = (null)\n"
				 "SchedulerTimeSlice      = 45 sec\n"
				 "SlurmctldHost[0]        = vm(127.0.0.1)\n"
				 "PreemptExemptTime       = 00:01:30\n"
				 "\n"
				 "Cgroup Support Configuration:\n"
				 "ConstrainCores          = yes\n"
				 "PriorityWeightAge       = 7\n"
				 "\n"
				 "MPI Plugins Configuration:\n"
				 "PMIxCliTmpDirBase       = (null)\n"
				 "\n"
				 "Slurmctld(primary) at vm is UP\n", &err), 0, "%s", fmt(&err));
	cr_assert_eq(snap.conf.weight_age, 1000, "section keys are not slurm.conf keys");
	cr_assert_eq(snap.conf.priority_flags, 0);
	cr_assert_eq(snap.conf.sched_time_slice, 45);
	cr_assert_eq(snap.conf.preempt_exempt_time, 90);
	cr_assert_null(snap.conf.weight_tres.text);
	const struct prio_conf_kv *kv = prio_config_find(&snap.conf, "SchedulerTimeSlice");
	cr_assert_str_eq(kv->value, "45 sec", "kept as printed");
	cr_assert_eq(kv->line, 7);
	cr_assert_str_eq(prio_config_find(&snap.conf, "SlurmctldHost[0]")->value, "vm(127.0.0.1)");
	bool seen_cgroup = false;
	for (uint32_t i = 0; i < snap.conf.kv_count; i++)
		seen_cgroup |= !strcmp(snap.conf.kv[i].key, "ConstrainCores");
	cr_assert(seen_cgroup);
	cr_assert_eq(snap.loaded[0].kind, PRIO_INPUT_SCONTROL_CONFIG);
	cr_assert_eq(snap.loaded[0].records, 11);
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG,
				 "Configuration data as of 2026-11-22T03:55:30\n"
				 "PriorityWeightAge       = lots\n", &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "PriorityWeightAge");
	cr_assert_str_eq(err.message, "expected an unsigned integer, got \"lots\"");
	prio_snapshot_free(&snap);

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG, "ClusterName = ft\nthis is not a setting\n", &err),
		     PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	prio_snapshot_free(&snap);
}

/* --- slurm.conf: the line grammar ------------------------------------------------------ */

Test(conf, comments_and_escaped_hash)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "# a comment\n"
		       "PriorityWeightAge=5 # trailing comment\n"
		       "   # indented comment\n"
		       "ClusterName=a\\#b\n"
		       "SchedulerParameters=x\\\\#not part of the value\n");
	cr_assert_eq(snap.conf.weight_age, 5);
	cr_assert_str_eq(snap.conf.cluster_name, "a#b");
	/* an escaped backslash before '#': the '#' starts a comment */
	cr_assert_str_eq(snap.conf.scheduler_parameters, "x\\");
	prio_snapshot_free(&snap);
}

Test(conf, continuation_lines_join_directly)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "PriorityWeight\\\n"
		       "Age=7\n"
		       "PriorityWeightQOS=1\\   # comment after the backslash\n"
		       "0\n"
		       "NodeName=n1 CPUs=4 \\\n"
		       "   RealMemory=100\n"
		       "PartitionName=p Nodes=n1 \\\n"
		       "\tPriorityTier=4 \\\n"
		       "\tPriorityJobFactor=9\n"
		       "ClusterName=ab\\\\\n"
		       "PriorityWeightAssoc=3\n");
	cr_assert_eq(snap.conf.weight_age, 7);
	cr_assert_eq(snap.conf.weight_qos, 10);
	cr_assert_eq(node(&snap, "n1")->real_memory, 100);
	cr_assert_eq(part(&snap, "p")->tier, 4);
	cr_assert_eq(part(&snap, "p")->job_factor, 9);
	cr_assert_eq(part(&snap, "p")->line, 7);
	/* An even number of backslashes does not continue. */
	cr_assert_str_eq(snap.conf.cluster_name, "ab\\");
	cr_assert_eq(snap.conf.weight_assoc, 3);
	prio_snapshot_free(&snap);
}

Test(conf, quotes_blanks_and_case)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "SchedulerParameters=\"bf_interval=5, sched_interval=5\"\n"
		       "ClusterName  =  Spaced\n"
		       "SelectTypeParameters='CR_Core'\n"
		       "priorityweightage=3\n"
		       "PRIORITYFLAGS=max_tres,calculate_running\n"
		       "nodename=n1 cpus=2\n"
		       "partitionname=p nodes=n1 prioritytier=6\n");
	cr_assert_str_eq(snap.conf.scheduler_parameters, "bf_interval=5, sched_interval=5");
	cr_assert_str_eq(snap.conf.cluster_name, "spaced");
	cr_assert_str_eq(snap.conf.select_type_parameters, "'CR_Core'");
	cr_assert_eq(snap.conf.weight_age, 3);
	cr_assert_eq(snap.conf.priority_flags,
		     PRIO_FLAG_FAIR_TREE | PRIO_FLAG_MAX_TRES | PRIO_FLAG_CALCULATE_RUNNING);
	cr_assert_eq(node(&snap, "n1")->cpus, 2);
	cr_assert_eq(part(&snap, "p")->tier, 6);
	prio_snapshot_free(&snap);
}

Test(conf, one_parameter_per_line)
{
	struct prio_error err;

	conf_fails("ClusterName=x\nPriorityWeightAge=1 PriorityWeightQOS=2\n", PRIO_ERR_PARSE, 2, "", &err);
	cr_assert_str_eq(err.message, "Parse error: \"PriorityWeightQOS=2\"");
	cr_assert_str_eq(err.file, "test.conf");
	conf_fails("just some words\n", PRIO_ERR_PARSE, 1, "", &err);
	/* an empty value names its key (--set refuses it alike) */
	conf_fails("PriorityWeightAge=\n", PRIO_ERR_PARSE, 1, "PriorityWeightAge", &err);
	cr_assert_str_eq(fmt(&err), "test.conf:1: PriorityWeightAge: empty value");
	conf_fails("PriorityWeightAge=\"\"\n", PRIO_ERR_PARSE, 1, "PriorityWeightAge", &err);
	conf_fails("PartitionName=p Nodes=n1 State=\n", PRIO_ERR_PARSE, 1, "State", &err);
	conf_fails("PriorityWeightAge+=1\n", PRIO_ERR_PARSE, 1, "", &err);
	cr_assert_not_null(strstr(err.message, "\"+=\""), "%s", err.message);
	conf_fails("PartitionName=p Nodes=n1 Oops\n", PRIO_ERR_PARSE, 1, "", &err);
}

Test(conf, bad_values_name_file_line_and_key)
{
	struct prio_error err;

	conf_fails("ClusterName=x\n\nPriorityWeightAge=x\n", PRIO_ERR_PARSE, 3, "PriorityWeightAge", &err);
	cr_assert_str_eq(fmt(&err),
			 "test.conf:3: PriorityWeightAge: expected an unsigned integer, got \"x\"");
	conf_fails("PriorityWeightAge=-1\n", PRIO_ERR_PARSE, 1, "PriorityWeightAge", &err);
	conf_fails("PriorityWeightAge=99999999999\n", PRIO_ERR_PARSE, 1, "PriorityWeightAge", &err);
	conf_fails("FairShareDampeningFactor=0\n", PRIO_ERR_PARSE, 1, "FairShareDampeningFactor", &err);
	conf_fails("PriorityFavorSmall=maybe\n", PRIO_ERR_PARSE, 1, "PriorityFavorSmall", &err);
	conf_fails("PriorityUsageResetPeriod=HOURLY\n", PRIO_ERR_PARSE, 1,
		   "PriorityUsageResetPeriod", &err);
	conf_fails("PriorityDecayHalfLife=1h\n", PRIO_ERR_PARSE, 1, "PriorityDecayHalfLife", &err);
	conf_fails("PriorityCalcPeriod=0\n", PRIO_ERR_PARSE, 1, "PriorityCalcPeriod", &err);
	conf_fails("PreemptType=preempt/bogus\n", PRIO_ERR_PARSE, 1, "PreemptType", &err);
	conf_fails("PreemptMode=sometimes\n", PRIO_ERR_PARSE, 1, "PreemptMode", &err);
	conf_fails("PreemptMode=CANCEL,REQUEUE\n", PRIO_ERR_PARSE, 1, "PreemptMode", &err);
	conf_fails("PreemptMode=SUSPEND\n", PRIO_ERR_PARSE, 1, "PreemptMode", &err);
	cr_assert_str_eq(err.message, "PreemptMode=SUSPEND requires GANG too");
	conf_fails("Licenses=matlab:lots\n", PRIO_ERR_PARSE, 1, "Licenses", &err);
	conf_fails("PartitionName=p Nodes=n1 MaxTime=forever\n", PRIO_ERR_PARSE, 1, "MaxTime", &err);
	conf_fails("PartitionName=p Nodes=n1 PriorityTier=70000\n", PRIO_ERR_PARSE, 1, "PriorityTier",
		   &err);
	conf_fails("PartitionName=p OverSubscribe=SOMETIMES\n", PRIO_ERR_PARSE, 1, "OverSubscribe",
		   &err);
	conf_fails("PartitionName=p State=OPEN\n", PRIO_ERR_PARSE, 1, "State", &err);
	conf_fails("NodeName=n1 CPUs=four\n", PRIO_ERR_PARSE, 1, "CPUs", &err);
	conf_fails("NodeName=n1 CpuSpecList=a-b\n", PRIO_ERR_PARSE, 1, "CpuSpecList", &err);
	/* Long values are echoed cut short. */
	conf_fails("PriorityWeightQOS=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
		   PRIO_ERR_PARSE, 1, "PriorityWeightQOS", &err);
	cr_assert_lt(strlen(err.message), 100);
}

Test(conf, time_strings_as_slurm_reads_them)
{
	struct prio_snapshot snap;

	/* time_str2mins rounds seconds up; PreemptExemptTime keeps seconds. */
	conf_ok(&snap, "PriorityDecayHalfLife=1:30\n"
		       "PriorityCalcPeriod=00:00:30\n"
		       "PriorityMaxAge=1-00:00:00\n"
		       "PreemptExemptTime=1:30\n"
		       "PartitionName=p MaxTime=2-12 DefaultTime=45\n");
	cr_assert_eq(snap.conf.decay_half_life, 120);
	cr_assert_eq(snap.conf.calc_period, 60);
	cr_assert_eq(snap.conf.max_age, 86400);
	cr_assert_eq(snap.conf.preempt_exempt_time, 90);
	cr_assert_eq(part(&snap, "p")->max_time, 60 * 60);
	cr_assert_eq(part(&snap, "p")->default_time, 45);
	prio_snapshot_free(&snap);

	/* INFINITE minutes times 60 wraps in 32 bits, as in Slurm. */
	conf_ok(&snap, "PriorityMaxAge=UNLIMITED\nPreemptExemptTime=INFINITE\n");
	cr_assert_eq(snap.conf.max_age, (uint32_t)(0xffffffffull * 60));
	cr_assert_eq(snap.conf.preempt_exempt_time, PRIO_INFINITE);
	prio_snapshot_free(&snap);
}

Test(conf, integers_as_slurm_reads_them)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "PriorityWeightAge=0x10\n"
		       "PriorityWeightQOS=010\n"
		       "PriorityWeightJobSize=2k\n"
		       "PriorityWeightPartition=UNLIMITED\n"
		       "FairShareDampeningFactor=3\n");
	cr_assert_eq(snap.conf.weight_age, 16);
	cr_assert_eq(snap.conf.weight_qos, 8);
	cr_assert_eq(snap.conf.weight_jobsize, 2048);
	cr_assert_eq(snap.conf.weight_partition, 0xffffffffu);
	cr_assert_eq(snap.conf.dampening_factor, 3);
	prio_snapshot_free(&snap);
}

Test(conf, unknown_keys_kept_and_last_value_wins)
{
	struct prio_snapshot snap;

	/* a key Slurm accepts that the model does not use */
	conf_ok(&snap, "SlurmctldPort=baz\n"
		       "PriorityWeightAge=1\n"
		       "SlurmctldHost=vm(127.0.0.1)\n"
		       "SlurmctldHost=backup\n"
		       "priorityweightage=2\n");
	cr_assert_eq(snap.conf.weight_age, 2);
	const struct prio_conf_kv *kv = prio_config_find(&snap.conf, "slurmctldport");
	cr_assert_not_null(kv);
	cr_assert_str_eq(kv->value, "baz");
	cr_assert_str_eq(kv->file, "test.conf");
	cr_assert_eq(kv->line, 1);
	kv = prio_config_find(&snap.conf, "PriorityWeightAge");
	cr_assert_str_eq(kv->value, "2");
	cr_assert_eq(kv->line, 5);
	/* one entry per top-level key, every record line kept */
	cr_assert_eq(snap.conf.kv_count, 4);
	cr_assert_str_eq(snap.conf.kv[2].value, "vm(127.0.0.1)");
	cr_assert_str_eq(snap.conf.kv[3].value, "backup");
	prio_snapshot_free(&snap);
}

/* Slurm refuses a key outside its table (read_config.c): a typo must not
 * load as "that parameter at its default". */
Test(conf, unknown_key_refused_with_the_closest_known_one)
{
	struct prio_error err;

	conf_fails("ClusterName=x\nPriorityWeihgtQOS=50000\n", PRIO_ERR_PARSE, 2,
		   "PriorityWeihgtQOS", &err);
	cr_assert_str_eq(fmt(&err), "test.conf:2: PriorityWeihgtQOS: unknown key "
				    "(did you mean PriorityWeightQOS?)");
	conf_fails("PriortyDecayHalfLife=7-0\n", PRIO_ERR_PARSE, 1, "PriortyDecayHalfLife", &err);
	cr_assert_str_eq(err.message, "unknown key (did you mean PriorityDecayHalfLife?)");
	/* nothing close: no guess */
	conf_fails("Frobnicate=1\n", PRIO_ERR_PARSE, 1, "Frobnicate", &err);
	cr_assert_str_eq(err.message, "unknown key");
	/* record lines hold their own keys (read_config.c's record tables) */
	conf_fails("NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1 PriorityTeir=2\n",
		   PRIO_ERR_PARSE, 2, "PriorityTeir", &err);
	cr_assert_str_eq(err.message, "unknown PartitionName key (did you mean PriorityTier?)");
	conf_fails("PartitionName=DEFAULT MaxTme=10\n", PRIO_ERR_PARSE, 1, "MaxTme", &err);
	conf_fails("NodeName=n1 CPUs=4 RealMemroy=1000\n", PRIO_ERR_PARSE, 1, "RealMemroy", &err);
	cr_assert_str_eq(err.message, "unknown NodeName key (did you mean RealMemory?)");
	conf_fails("NodeName=n1 CPUs=4\nNodeSet=s Nodes=n1 Colour=red\n", PRIO_ERR_PARSE, 2,
		   "Colour", &err);
	conf_fails("DownNodes=n1 Reason=x Sate=DOWN\n", PRIO_ERR_PARSE, 1, "Sate", &err);
	/* a parameter's name is not a record key */
	conf_fails("NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1 PriorityWeightAge=1\n",
		   PRIO_ERR_PARSE, 2, "PriorityWeightAge", &err);
}

/* Keys of record lines Slurm accepts but the model does not use load. */
Test(conf, record_keys_slurm_accepts_load)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=n1 CPUs=4 TmpDisk=100 MemSpecLimit=10 Reason=x\n"
		       "NodeSet=s Feature=f\n"
		       "PartitionName=p Nodes=n1 MaxNodes=1 ExclusiveUser=YES "
		       "DenyAccounts=a Hidden=YES LLN=NO\n"
		       "DownNodes=n1 State=DOWN Reason=\"broken fan\"\n");
	cr_assert_eq(snap.partition_count, 1);
	prio_snapshot_free(&snap);
}

/* The known keys are the union of 22.05..26.05: keys later removed
 * (SlurmctldPlugstack after 22.05, SchedulerAuth after 23.11,
 * AccountingStorageLoc after 25.05) and keys added later (PreemptParameters
 * 23.02, TLSType 24.05, CertmgrType 24.11, MetricsType 25.11,
 * LicenseParameters 26.05) all load; the case does not matter, as in
 * Slurm. */
Test(conf, known_keys_span_the_supported_releases)
{
	static const char *const keys[] = {
		"AccountingStorageLoc", "SlurmctldPlugstack", "SchedulerAuth",
		"TLSType", "CertmgrType", "MetricsType", "LicenseParameters",
		"PreemptParameters", "slurmctldport", "SLURMDSPOOLDIR",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cr_assert(prio_config_key_known(keys[i], strlen(keys[i])), "%s", keys[i]);
	cr_assert_not(prio_config_key_known("PriorityWeihgtQOS", 17));
	cr_assert_not(prio_config_key_known("", 0));
}

Test(conf, closest_word_is_a_likely_typo_or_nothing)
{
	static const char *const words[] = { "Nice", "QOS", "Partition" };

	cr_assert_str_eq(prio_closest_word("Partiton", 8, words, 3), "Partition");
	cr_assert_str_eq(prio_closest_word("qso", 3, words, 3), "QOS");
	cr_assert_str_eq(prio_closest_word("nice", 4, words, 3), "Nice");
	cr_assert_null(prio_closest_word("Account", 7, words, 3));
	cr_assert_null(prio_closest_word("", 0, words, 3));
}

Test(conf, nul_byte_and_huge_lines)
{
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;
	static const char nul[] = "ClusterName=x\nPriorityWeightAge=1\0\n";

	prio_snapshot_init(&snap);
	prio_source_from_memory(&src, "nul.conf", nul, sizeof(nul) - 1);
	cr_assert_eq(prio_load_slurmconf_source(&snap, &src, &err), PRIO_ERR_PARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.file, "nul.conf");
	cr_assert_str_eq(err.message, "NUL byte in input");
	prio_snapshot_free(&snap);

	/* A 1 MB line. */
	size_t big = 1024 * 1024;
	char *text = malloc(big + 64);
	strcpy(text, "ClusterName=x\nSchedulerParameters=");
	memset(text + strlen(text), 'y', big);
	text[35 + big - 1] = '\0';
	prio_snapshot_init(&snap);
	cr_assert_eq(load_text(&snap, text, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 2);
	prio_snapshot_free(&snap);

	/* 1 MB made of continued 100 KB lines: refused at its first line. */
	size_t used = 0;
	used += (size_t)sprintf(text, "ClusterName=x\nSchedulerParameters=");
	for (int i = 0; i < 10; i++) {
		memset(text + used, 'z', 100 * 1024);
		used += 100 * 1024;
		text[used++] = '\\';
		text[used++] = '\n';
	}
	strcpy(text + used, "end\nPriorityWeightAge=4\n");
	prio_snapshot_init(&snap);
	cr_assert_eq(load_text(&snap, text, &err), PRIO_ERR_LIMIT);
	cr_assert_eq(err.line, 2);
	prio_snapshot_free(&snap);
	/* With keep_going the long line is a warning and loading goes on. */
	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(load_text(&snap, text, &err), 0);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.conf.weight_age, 4);
	prio_snapshot_free(&snap);
	free(text);
}

/* --- records ---------------------------------------------------------------------- */

Test(conf, partition_and_node_defaults_affect_later_lines)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=n0\n"
		       "NodeName=DEFAULT CPUs=4 RealMemory=1000\n"
		       "NodeName=n[1-2]\n"
		       "NodeName=n3 CPUs=2\n"
		       "PartitionName=early Nodes=n0\n"
		       "PartitionName=DEFAULT PriorityTier=5 MaxTime=60\n"
		       "PartitionName=a Nodes=n1\n"
		       "PartitionName=default PriorityTier=7\n"
		       "PartitionName=b Nodes=n1 MaxTime=30\n"
		       "PartitionName=c Nodes=n[1-3] PriorityTier=9\n");
	cr_assert_eq(snap.node_count, 4);
	cr_assert_eq(node(&snap, "n0")->cpus, 1);
	cr_assert_eq(node(&snap, "n0")->real_memory, 1);
	cr_assert_eq(node(&snap, "n2")->cpus, 4);
	cr_assert_eq(node(&snap, "n2")->real_memory, 1000);
	cr_assert_eq(node(&snap, "n3")->cpus, 2);
	cr_assert_eq(node(&snap, "n3")->real_memory, 1000);
	cr_assert_eq(snap.partition_count, 4);
	cr_assert_eq(part(&snap, "early")->tier, 1);
	cr_assert_eq(part(&snap, "early")->max_time, PRIO_INFINITE);
	cr_assert_eq(part(&snap, "a")->tier, 5);
	cr_assert_eq(part(&snap, "a")->max_time, 60);
	/* the second DEFAULT merges over the first */
	cr_assert_eq(part(&snap, "b")->tier, 7);
	cr_assert_eq(part(&snap, "b")->max_time, 30);
	cr_assert_eq(part(&snap, "c")->tier, 9);
	cr_assert_eq(part(&snap, "c")->max_time, 60);
	cr_assert_eq(part(&snap, "c")->total_cpus, 4 + 4 + 2);
	prio_snapshot_free(&snap);
}

Test(conf, legacy_priority_and_shared)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=n1\n"
		       "PartitionName=p Nodes=n1 Priority=7 PriorityTier=2 PriorityJobFactor=3\n"
		       "PartitionName=q Nodes=n1 Shared=FORCE\n"
		       "PartitionName=r Nodes=n1 Shared=YES OverSubscribe=NO\n"
		       "PartitionName=s Nodes=n1 OverSubscribe=YES:8\n"
		       "PartitionName=t Nodes=n1 OverSubscribe=EXCLUSIVE\n");
	cr_assert_eq(part(&snap, "p")->job_factor, 7);
	cr_assert_eq(part(&snap, "p")->tier, 7);
	cr_assert_eq(part(&snap, "q")->max_share, 4 | PRIO_SHARED_FORCE);
	cr_assert_eq(part(&snap, "r")->max_share, 1);
	cr_assert_eq(part(&snap, "s")->max_share, 8);
	cr_assert_eq(part(&snap, "t")->max_share, 0);
	prio_snapshot_free(&snap);
}

Test(conf, duplicates_and_reserved_names)
{
	struct prio_error err;

	conf_fails("NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=q Nodes=n1\n"
		   "PartitionName=p Nodes=n1\n", PRIO_ERR_PARSE, 4, "PartitionName", &err);
	cr_assert_str_eq(err.message, "duplicate entry for partition p");
	conf_fails("NodeName=n[1-3] CPUs=2\nNodeName=n2\n", PRIO_ERR_PARSE, 2, "NodeName", &err);
	cr_assert_str_eq(err.message, "Duplicated NodeName n2 in the config file");
	conf_fails("NodeName=n[1-2],n1\n", PRIO_ERR_PARSE, 1, "NodeName", &err);
	conf_fails("NodeName=ALL CPUs=2\n", PRIO_ERR_PARSE, 1, "NodeName", &err);
	conf_fails("NodeName=DEFAULT NodeAddr=10.0.0.1\n", PRIO_ERR_PARSE, 1, "NodeAddr", &err);
	conf_fails("NodeName=n[1-3] NodeHostname=h[1-2]\n", PRIO_ERR_PARSE, 1, "NodeHostname", &err);
	conf_fails("NodeName=n[1-2]x\n", PRIO_ERR_PARSE, 1, "NodeName", &err);

	/* keep_going: the duplicate is a warning, the rest loads. */
	struct prio_snapshot snap;
	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(load_text(&snap, "NodeName=n[1-3]\nNodeName=n2\nNodeName=n4\n", &err), 0);
	cr_assert_eq(snap.node_count, 4);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_eq(snap.warnings[0].error.line, 2);
	prio_snapshot_free(&snap);
}

Test(conf, node_topology_and_effective_cpus)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=a Sockets=2 CoresPerSocket=4 ThreadsPerCore=2\n"
		       "NodeName=b CPUs=8 Sockets=2 CoresPerSocket=4 CoreSpecCount=2\n"
		       "NodeName=c CPUs=8 CpuSpecList=0-1,4\n"
		       "NodeName=d Boards=2 SocketsPerBoard=2 CoresPerSocket=2\n"
		       "NodeName=e CPUs=12\n"
		       "PartitionName=all Nodes=ALL\n");
	cr_assert_eq(node(&snap, "a")->cpus, 16);
	cr_assert_eq(node(&snap, "b")->cpus, 8);
	cr_assert_eq(node(&snap, "b")->cpus_efctv, 6);
	cr_assert_eq(node(&snap, "c")->cpus_efctv, 5);
	cr_assert_eq(node(&snap, "d")->cpus, 8);
	cr_assert_eq(node(&snap, "d")->sockets, 4);
	cr_assert_eq(node(&snap, "e")->cpus, 12);
	cr_assert_eq(node(&snap, "e")->sockets, 12);
	struct prio_partition *all = part(&snap, "all");
	cr_assert_eq(all->node_count, 5);
	cr_assert_eq(all->total_cpus, 16 + 6 + 5 + 8 + 12);
	cr_assert_eq(total(all, PRIO_TRES_NODE), 5);
	prio_snapshot_free(&snap);
}

Test(conf, nodesets_in_partition_nodes)
{
	struct prio_snapshot snap;
	struct prio_error err;

	conf_ok(&snap, "NodeName=c[1-4] CPUs=4\n"
		       "NodeName=g[1-2] CPUs=8 Features=gpu,fast\n"
		       "NodeSet=gpus Feature=gpu\n"
		       "NodeSet=first Nodes=c[1-2]\n"
		       "PartitionName=p Nodes=gpus,first,c1\n");
	struct prio_partition *p = part(&snap, "p");
	cr_assert_eq(p->node_count, 4, "c1 counted once");
	cr_assert_eq(p->total_cpus, 8 + 8 + 4 + 4);
	prio_snapshot_free(&snap);
	conf_fails("NodeSet=empty\n", PRIO_ERR_PARSE, 1, "NodeSet", &err);
}

Test(conf, repeated_billing_weight_keeps_the_last)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=n1 CPUs=10\n"
		       "PartitionName=p Nodes=n1 TRESBillingWeights=CPU=1,CPU=3\n");
	cr_assert_eq(total(part(&snap, "p"), PRIO_TRES_BILLING), 30);
	prio_snapshot_free(&snap);
}

Test(conf, last_default_partition_wins)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "NodeName=n1\n"
		       "PartitionName=a Nodes=n1 Default=YES\n"
		       "PartitionName=b Nodes=n1 Default=YES\n"
		       "PartitionName=c Nodes=n1\n");
	cr_assert(!part(&snap, "a")->is_default);
	cr_assert(part(&snap, "b")->is_default);
	cr_assert(!part(&snap, "c")->is_default);
	prio_snapshot_free(&snap);
}

/* --- Include --------------------------------------------------------------------- */

Test(conf, include_relative_glob_and_cluster_name)
{
	struct prio_snapshot snap;
	char path[4096];

	snprintf(path, sizeof(path), "%s", test_path("tests/unit/data/conf/main.conf"));
	load_ok(&snap, L_SLURMCONF, path);
	cr_assert_str_eq(snap.conf.cluster_name, "alpha");
	cr_assert_eq(snap.node_count, 4);
	cr_assert_eq(snap.partition_count, 2);
	cr_assert_eq(snap.partitions[0].node_count, 2);
	cr_assert_eq(part(&snap, "pb")->tier, 3);
	cr_assert_eq(part(&snap, "pb")->total_cpus, 8);
	cr_assert(part(&snap, "pa")->is_default);
	/* records name the file that defined them */
	cr_assert_str_eq(part(&snap, "pb")->file, test_path("tests/unit/data/conf/parts/b.conf"));
	cr_assert_eq(part(&snap, "pb")->line, 1);
	cr_assert_eq(snap.conf.weight_age, 77);  /* cluster-%c.conf */
	cr_assert_eq(snap.conf.weight_qos, 42);  /* sub/inner.conf -> sub/leaf.conf */
	cr_assert_str_eq(prio_config_find(&snap.conf, "PriorityWeightQOS")->file,
			 test_path("tests/unit/data/conf/sub/leaf.conf"));
	prio_snapshot_free(&snap);
}

Test(conf, include_from_memory_is_relative_to_the_current_folder)
{
	struct prio_snapshot snap;

	cr_assert_eq(chdir(test_path("tests/unit/data/conf")), 0);
	conf_ok(&snap, "ClusterName=mem\nInclude nodes.conf\nInclude sub/leaf.conf\n");
	cr_assert_eq(snap.node_count, 4);
	cr_assert_eq(snap.conf.weight_qos, 42);
	prio_snapshot_free(&snap);
}

Test(conf, include_errors)
{
	struct prio_snapshot snap;
	struct prio_error err;

	/* Missing: named by the including file and line, at once. */
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_load_slurmconf(&snap, test_path("tests/unit/data/conf/missing.conf"), &err),
		     PRIO_ERR_MISSING);
	cr_assert_str_eq(err.file, test_path("tests/unit/data/conf/missing.conf"));
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "Include");
	cr_assert_not_null(strstr(err.message, "no-such-file.conf"));
	prio_snapshot_free(&snap);

	/* A bad value inside an included file names that file. */
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_load_slurmconf(&snap, test_path("tests/unit/data/conf/bad-include.conf"),
					 &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, test_path("tests/unit/data/conf/sub/bad.conf"));
	cr_assert_eq(err.line, 3);
	cr_assert_str_eq(err.field, "PriorityWeightAge");
	prio_snapshot_free(&snap);

	/* A cycle. */
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_load_slurmconf(&snap, test_path("tests/unit/data/conf/cycle-a.conf"), &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, test_path("tests/unit/data/conf/cycle-b.conf"));
	cr_assert_eq(err.line, 1);
	cr_assert_not_null(strstr(err.message, "cycle"), "%s", err.message);
	prio_snapshot_free(&snap);

	/* %c before ClusterName, a directory, two file names. */
	conf_fails("Include %c.conf\n", PRIO_ERR_PARSE, 1, "Include", &err);
	conf_fails("ClusterName=x\nInclude /\n", PRIO_ERR_IO, 2, "Include", &err);
	conf_fails("Include a.conf b.conf\n", PRIO_ERR_PARSE, 1, "", &err);

	/* keep_going: a missing include is a warning. */
	prio_snapshot_init(&snap);
	snap.keep_going = true;
	cr_assert_eq(prio_load_slurmconf(&snap, test_path("tests/unit/data/conf/missing.conf"), &err),
		     0);
	cr_assert_eq(snap.warning_count, 1);
	cr_assert_str_eq(snap.conf.cluster_name, "m");
	prio_snapshot_free(&snap);
}

/* A chain of files each including the next one. */
static void write_chain(const char *dir, int files)
{
	for (int i = 0; i < files; i++) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/d%d.conf", dir, i);
		f = fopen(path, "w");
		cr_assert_not_null(f);
		if (i + 1 < files)
			fprintf(f, "# level %d\nInclude d%d.conf\n", i, i + 1);
		else
			fprintf(f, "PriorityWeightAge=%d\n", i);
		fclose(f);
	}
}

Test(conf, include_depth_limit)
{
	char dir[] = "/tmp/prio-conf-XXXXXX", path[512];
	struct prio_snapshot snap;
	struct prio_error err;

	cr_assert_not_null(mkdtemp(dir));
	/* The main file and 16 nested levels load. */
	write_chain(dir, 17);
	snprintf(path, sizeof(path), "%s/d0.conf", dir);
	load_ok(&snap, L_SLURMCONF, path);
	cr_assert_eq(snap.conf.weight_age, 16);
	prio_snapshot_free(&snap);
	/* One more level is refused. */
	write_chain(dir, 18);
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_load_slurmconf(&snap, path, &err), PRIO_ERR_LIMIT);
	snprintf(path, sizeof(path), "%s/d16.conf", dir);
	cr_assert_str_eq(err.file, path);
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.field, "Include");
	prio_snapshot_free(&snap);
	for (int i = 0; i < 18; i++) {
		snprintf(path, sizeof(path), "%s/d%d.conf", dir, i);
		remove(path);
	}
	rmdir(dir);
}

/* --- linking ------------------------------------------------------------------------ */

Test(conf, tres_weights_checked_against_configured_tres)
{
	struct prio_error err;

	link_fails("NodeName=n1\n"
		   "PartitionName=p Nodes=n1 TRESBillingWeights=CPU=1,GRES/gpu=2\n",
		   PRIO_ERR_PARSE, 2, "TRESBillingWeights", &err);
	cr_assert_str_eq(err.message, "TRES weight 'GRES:gpu' is not a configured TRES type.");
	link_fails("ClusterName=x\nPriorityWeightTRES=CPU=1,Mem=\n", PRIO_ERR_PARSE, 2,
		   "PriorityWeightTRES", &err);
	cr_assert_str_eq(err.message, "\"Mem=\" is an invalid TRES weight entry");
	link_fails("NodeName=n1 TRESWeights=CPU=1x\n", PRIO_ERR_PARSE, 1, "TRESWeights", &err);
	link_fails("NodeName=n1\nPartitionName=p Nodes=n[1-2]\n", PRIO_ERR_PARSE, 2, "Nodes", &err);
	cr_assert_str_eq(err.message, "partition p names unknown node n2");

	/* Configured through AccountingStorageTRES, gres counts from Gres=. */
	struct prio_snapshot snap;
	conf_ok(&snap, "AccountingStorageTRES=cpu,mem,gres/gpu,gres/gpu:tesla,license/matlab\n"
		       "Licenses=matlab:4,other\n"
		       "PriorityWeightTRES=CPU=1,GRES/gpu=100\n"
		       "NodeName=g[1-2] CPUs=4 RealMemory=1000 Gres=gpu:tesla:2(S:0),gpu:k80:1,mps:100\n"
		       "NodeName=c1 CPUs=8\n"
		       "PartitionName=gpu Nodes=g[1-2] TRESBillingWeights=CPU=1,Mem=1G,GRES/gpu=4\n"
		       "PartitionName=cpu Nodes=c1\n");
	int gpu = tres_id(&snap, "gres/gpu"), tesla = tres_id(&snap, "gres/gpu:tesla"),
	    matlab = tres_id(&snap, "license/matlab");
	struct prio_partition *g = part(&snap, "gpu"), *c = part(&snap, "cpu");
	cr_assert_float_eq(prio_tres_weights_get(&snap.conf.weight_tres, (uint32_t)gpu), 100.0, 1e-9);
	cr_assert_eq(total(g, gpu), 6);
	cr_assert_eq(total(g, tesla), 4);
	cr_assert_eq(total(c, gpu), 0);
	cr_assert_eq(total(g, matlab), 4);
	cr_assert_eq(total(c, matlab), 4);
	/* 8 CPUs + 2000 MB at 1/GB + 6 GPUs at 4 = 8 + 1.95 + 24 -> 33 */
	cr_assert_eq(total(g, PRIO_TRES_BILLING), 33);
	cr_assert_eq(total(c, PRIO_TRES_BILLING), 8);
	prio_snapshot_free(&snap);
}

Test(conf, cross_key_checks)
{
	struct prio_error err;
	struct prio_snapshot snap;

	link_fails("PriorityType=priority/multifactor\nPriorityDecayHalfLife=0\n", PRIO_ERR_PARSE, 2,
		   "PriorityDecayHalfLife", &err);
	cr_assert_not_null(strstr(err.message, "PriorityUsageResetPeriod"));
	conf_ok(&snap, "PriorityType=priority/multifactor\nPriorityDecayHalfLife=0\n"
		       "PriorityUsageResetPeriod=WEEKLY\n");
	cr_assert_eq(snap.conf.decay_half_life, 0);
	cr_assert_eq(snap.conf.reset_period, PRIO_RESET_WEEKLY);
	prio_snapshot_free(&snap);

	link_fails("PreemptType=preempt/partition_prio\nPreemptMode=OFF\n", PRIO_ERR_PARSE, 2,
		   "PreemptMode", &err);
	cr_assert_str_eq(err.message, "PreemptType and PreemptMode values incompatible");
	link_fails("PreemptType=preempt/qos\nPreemptMode=GANG\n", PRIO_ERR_PARSE, 2, "PreemptMode",
		   &err);
	link_fails("PreemptMode=REQUEUE\n", PRIO_ERR_PARSE, 1, "PreemptMode", &err);
	conf_ok(&snap, "PreemptType=preempt/qos\nPreemptMode=REQUEUE\n");
	cr_assert_eq(snap.conf.preempt_type, PRIO_PREEMPT_TYPE_QOS);
	prio_snapshot_free(&snap);
	conf_ok(&snap, "PreemptMode=GANG\n");
	prio_snapshot_free(&snap);
}

/* --- prio_config_set: --set ------------------------------------------------------- */

Test(conf, config_set_overrides_and_restores_defaults)
{
	struct prio_snapshot snap;
	struct prio_error err;

	load_ok(&snap, L_SLURMCONF, test_path("tests/oracle/fairtree-basic/slurm.conf"));
	cr_assert_eq(prio_config_set(&snap, "PriorityWeightAge", 17, "42", 2, "--set", 0, &err), 0);
	cr_assert_eq(snap.conf.weight_age, 42);
	cr_assert_str_eq(prio_config_find(&snap.conf, "PriorityWeightAge")->file, "--set");
	cr_assert_eq(prio_config_set(&snap, "priorityflags", 13, "MAX_TRES", 8, "--set", 0, &err), 0);
	cr_assert_eq(snap.conf.priority_flags, PRIO_FLAG_FAIR_TREE | PRIO_FLAG_MAX_TRES);
	/* an empty value restores the default */
	cr_assert_eq(prio_config_set(&snap, "PriorityDecayHalfLife", 21, "", 0, "--set", 0, &err), 0);
	cr_assert_eq(snap.conf.decay_half_life, 604800);
	cr_assert_eq(prio_config_set(&snap, "PriorityFlags", 13, "", 0, "--set", 0, &err), 0);
	cr_assert_eq(snap.conf.priority_flags, PRIO_FLAG_FAIR_TREE);
	/* errors name the key */
	cr_assert_eq(prio_config_set(&snap, "PriorityWeightQOS", 17, "a lot", 5, "--set", 0, &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "PriorityWeightQOS");
	cr_assert_eq(snap.conf.weight_qos, 5000, "unchanged by a bad value");
	cr_assert_eq(prio_config_set(&snap, "PartitionName", 13, "x", 1, "--set", 0, &err),
		     PRIO_ERR_USAGE);
	/* a key Slurm knows but the model does not use is recorded */
	cr_assert_eq(prio_config_set(&snap, "MaxJobCount", 11, "1", 1, "--set", 0, &err), 0);
	cr_assert_str_eq(prio_config_find(&snap.conf, "MaxJobCount")->value, "1");
	/* a key no release knows is refused, naming the closest one */
	cr_assert_eq(prio_config_set(&snap, "PriorityWeihgtQOS", 17, "1", 1, "--set", 0, &err),
		     PRIO_ERR_USAGE);
	cr_assert_str_eq(fmt(&err), "--set: PriorityWeihgtQOS: unknown key "
				    "(did you mean PriorityWeightQOS?)");
	cr_assert_null(prio_config_find(&snap.conf, "PriorityWeihgtQOS"));
	cr_assert_eq(prio_config_set(&snap, "SomethingNew", 12, "1", 1, "--set", 0, &err),
		     PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "unknown key");
	prio_snapshot_free(&snap);

	/* Before linking, a --set of the TRES weights is checked at link. */
	prio_snapshot_init(&snap);
	cr_assert_eq(load_path(&snap, L_SLURMCONF,
			       test_path("tests/oracle/fairtree-basic/slurm.conf"), &err), 0);
	cr_assert_eq(prio_config_set(&snap, "PriorityWeightTRES", 18, "CPU=1,GRES/gpu=2", 16,
				     "--set", 0, &err), 0);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "--set");
	cr_assert_str_eq(err.field, "PriorityWeightTRES");
	prio_snapshot_free(&snap);
}

/* --- what changed between releases --------------------------------------- */

Test(release_2511, no_normal_all_printed_only_for_all)
{
	const struct prio_slurm_release *r2411 = prio_slurm_release_of(2411);
	const struct prio_slurm_release *r2511 = prio_slurm_release_of(2511);
	uint32_t qos = PRIO_FLAG_FAIR_TREE | PRIO_FLAG_NO_NORMAL_QOS;
	uint32_t two = qos | PRIO_FLAG_NO_NORMAL_PART;
	uint32_t all = prio_priority_flags_parse("NO_NORMAL_ALL,MAX_TRES");
	char buf[256];

	/* 25.11.1: only the flags that are set */
	cr_expect_str_eq(prio_priority_flags_slurm(qos, r2511, buf, sizeof(buf)),
			 "NO_NORMAL_QOS");
	cr_expect_str_eq(prio_priority_flags_slurm(two, r2511, buf, sizeof(buf)),
			 "NO_NORMAL_PART,NO_NORMAL_QOS");
	cr_expect_str_eq(prio_priority_flags_slurm(all, r2511, buf, sizeof(buf)),
			 "MAX_TRES,NO_NORMAL_ALL");
	/* before: any of them prints NO_NORMAL_ALL alone */
	cr_expect_str_eq(prio_priority_flags_slurm(qos, r2411, buf, sizeof(buf)),
			 "NO_NORMAL_ALL");
	cr_expect_str_eq(prio_priority_flags_slurm(two, r2411, buf, sizeof(buf)),
			 "NO_NORMAL_ALL");
	cr_expect_str_eq(prio_priority_flags_slurm(all, r2411, buf, sizeof(buf)),
			 "MAX_TRES,NO_NORMAL_ALL");
	/* Fair Tree shows only by its absence: the 24.11 capture's empty
	 * "PriorityFlags = " */
	cr_expect_str_eq(prio_priority_flags_slurm(PRIO_FLAG_FAIR_TREE, r2411,
						   buf, sizeof(buf)),
			 "");
	cr_expect_str_eq(
	    prio_priority_flags_slurm(prio_priority_flags_parse("NO_FAIR_TREE"),
				      r2511, buf, sizeof(buf)),
	    "NO_FAIR_TREE");
}

/* Finish a slurm.conf as `release`; the error text when refused. */
static const char *finish_as(const char *conf, uint16_t release, char *out,
			     size_t size)
{
	struct prio_snapshot snap;
	struct prio_source src;
	struct prio_error err;
	int rc;

	cr_assert_eq(prio_snapshot_init(&snap), 0);
	test_source(&src, "slurm.conf", conf);
	cr_assert_eq(prio_load_slurmconf_source(&snap, &src, &err), 0);
	prio_snapshot_note_version(&snap, release, PRIO_VERSION_OPTION);
	rc = prio_snapshot_finish(&snap, &err);
	if (rc < 0)
		prio_error_format(&err, out, size);
	else
		snprintf(out, size, "ok reorder=%u strict=%d young=%d "
			 "signal=%d licenses=%d min=%u grace=%u",
			 snap.conf.preempt.reorder_count,
			 snap.conf.preempt.strict_order,
			 snap.conf.preempt.youngest_first,
			 snap.conf.preempt.send_user_signal,
			 snap.conf.preempt.reclaim_licenses,
			 snap.conf.preempt.min_exempt_priority,
			 snap.conf.preempt.suspend_grace_time);
	prio_snapshot_free(&snap);
	return out;
}

Test(release_2302, preempt_parameters)
{
	char text[1024];

	cr_expect_str_eq(
	    finish_as("PreemptParameters=send_user_signal,reclaim_licenses,"
		      "min_exempt_priority=7,reorder_count=0\n"
		      "SchedulerParameters=preempt_reorder_count=4,"
		      "preempt_youngest_first\n",
		      2302, text, sizeof(text)),
	    "ok reorder=0 strict=0 young=1 signal=1 licenses=1 min=7 grace=2");
	/* no PreemptParameters: the old spelling alone, as 22.05 */
	cr_expect_str_eq(
	    finish_as("SchedulerParameters=bf_continue,preempt_strict_order,"
		      "preempt_reorder_count=-3,preempt_send_user_signal\n",
		      2205, text, sizeof(text)),
	    "ok reorder=1 strict=1 young=0 signal=1 licenses=0 "
	    "min=4294967294 grace=2");
	cr_expect_str_eq(
	    finish_as("PreemptParameters=strict_order\n", 2205, text,
		      sizeof(text)),
	    "slurm.conf:1: PreemptParameters: PreemptParameters is new in "
	    "Slurm 23.02; the snapshot is Slurm 22.05 (--slurm-version to say "
	    "otherwise)");
	cr_expect_str_eq(
	    finish_as("PreemptParameters=strict_ordr\n", 2302, text,
		      sizeof(text)),
	    "slurm.conf:1: PreemptParameters: unknown word \"strict_ordr\" "
	    "(known: min_exempt_priority=N, reclaim_licenses, "
	    "reorder_count=N, send_user_signal, strict_order, "
	    "youngest_first)");
	cr_expect_str_eq(
	    finish_as("PreemptParameters=min_exempt_priority=x\n", 2302, text,
		      sizeof(text)),
	    "slurm.conf:1: PreemptParameters: \"min_exempt_priority=x\": "
	    "expected word=N with N a number");
}

Test(release_2311, suspend_grace_time)
{
	char text[1024];

	cr_expect_str_eq(finish_as("PreemptParameters=suspend_grace_time=5\n",
				   2311, text, sizeof(text)),
			 "ok reorder=1 strict=0 young=0 signal=0 licenses=0 "
			 "min=4294967294 grace=5");
	cr_expect_str_eq(finish_as("PreemptParameters=suspend_grace_time=5\n",
				   2302, text, sizeof(text)),
			 "slurm.conf:1: PreemptParameters: suspend_grace_time "
			 "is new in Slurm 23.11; the snapshot is Slurm 23.02 "
			 "(--slurm-version to say otherwise)");
}

Test(release_2505, preempt_mode_priority_words)
{
	uint16_t mode;
	const char *why;
	char buf[64];

	cr_assert_eq(prio_preempt_mode_parse("priority,requeue", &mode, &why),
		     0);
	cr_expect_eq(mode, PRIO_PREEMPT_REQUEUE | PRIO_PREEMPT_PRIORITY);
	cr_expect_str_eq(prio_preempt_mode_format(mode, buf, sizeof(buf)),
			 "REQUEUE,PRIORITY");
	cr_expect_eq(prio_preempt_mode_parse("gang,priority", &mode, &why), -1);
	cr_expect_str_eq(why, "GANG and PRIORITY cannot be combined");
}

/* Every oracle capture: PriorityFlags of its slurm.conf printed the way
 * its release prints them equals its `scontrol show config` line (22.05:
 * "", NO_FAIR_TREE, DEPTH_OBLIVIOUS,NO_FAIR_TREE, MAX_TRES, NO_NORMAL_ALL;
 * 24.11 the same rules). */
Test(release_2205, priority_flags_as_scontrol_prints_them)
{
	glob_t g;
	unsigned compared = 0;

	cr_assert_eq(glob(test_path("tests/oracle/*/scontrol_show_config.txt"),
			  0, NULL, &g),
		     0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char dir[4096], path[4200], line[512], want[256] = "", buf[256];
		uint16_t release = 0;
		struct prio_snapshot a;
		struct stat st;
		FILE *f;

		snprintf(dir, sizeof(dir), "%s", g.gl_pathv[i]);
		*strrchr(dir, '/') = '\0';
		snprintf(path, sizeof(path), "%s/slurm.conf", dir);
		if (stat(path, &st) != 0)
			continue;
		f = fopen(g.gl_pathv[i], "r");
		cr_assert_not_null(f);
		while (fgets(line, sizeof(line), f)) {
			char *eq = strchr(line, '=');
			char *v = eq ? eq + 1 : NULL;
			size_t n;

			if (!v)
				continue;
			while (*v == ' ')
				v++;
			n = strcspn(v, " \n");
			if (!strncmp(line, "PriorityFlags ", 14))
				snprintf(want, sizeof(want), "%.*s", (int)n, v);
			else if (!strncmp(line, "SLURM_VERSION ", 14))
				cr_assert_eq(prio_slurm_version_parse(v, n,
								      &release),
					     0);
		}
		fclose(f);
		cr_assert(release, "%s: no SLURM_VERSION", g.gl_pathv[i]);
		load_ok(&a, L_SLURMCONF, path);
		cr_expect_str_eq(
		    prio_priority_flags_slurm(a.conf.priority_flags,
					      prio_slurm_release_of(release),
					      buf, sizeof(buf)),
		    want, "%s", dir);
		compared++;
		prio_snapshot_free(&a);
	}
	globfree(&g);
	cr_assert_geq(compared, 10);
}

/* --- Slurm 24.11 and later releases --------------------------------------- */

#define DATA_2411 "tests/cli/readers-data/slurm-24.11/"

/* A live 24.11.5 cluster: lower-case booleans, keys 22.05 did not print
 * (PreemptParameters, TLS*, HashPlugin, ...), all read without a warning. */
Test(conf, slurm_2411_show_config)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_CONFIG, test_path(DATA_2411 "config.txt"));
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_CONFIG);
	cr_assert_str_eq(snap.conf.cluster_name, "live");
	cr_assert_not(snap.conf.favor_small, "PriorityFavorSmall = no");
	cr_assert_str_eq(prio_config_find(&snap.conf, "PriorityFavorSmall")->value, "no");
	cr_assert_eq(snap.conf.weight_fairshare, 20000);
	cr_assert_eq(snap.conf.weight_jobsize, 2000);
	cr_assert_eq(snap.conf.weight_partition, 3000);
	cr_assert_eq(snap.conf.weight_qos, 5000);
	cr_assert_eq(snap.conf.weight_assoc, 500);
	cr_assert_eq(snap.conf.decay_half_life, 300);
	cr_assert_eq(snap.conf.calc_period, 60);
	cr_assert_eq(snap.conf.max_age, 600);
	cr_assert_eq(snap.conf.preempt_type, PRIO_PREEMPT_TYPE_QOS);
	cr_assert_eq(snap.conf.preempt_mode, PRIO_PREEMPT_REQUEUE);
	cr_assert_str_eq(prio_config_find(&snap.conf, "PreemptParameters")->value,
			 "(null)");
	prio_snapshot_free(&snap);
}

Test(conf, scontrol_config_keys_of_later_releases)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG,
				 "Configuration data as of 2026-11-26T10:04:46\n"
				 "CertgenType             = (null)\n"
				 "CertmgrParameters       = (null)\n"
				 "DataParserParameters    = (null)\n"
				 "HashPlugin              = hash/k12\n"
				 "JobCompParams           = (null)\n"
				 "MaxBatchRequeue         = 5\n"
				 "PreemptExemptTime       = NONE\n"
				 "PreemptParameters       = reorder_count=3,strict_order\n"
				 "PriorityFavorSmall      = yes\n"
				 "SuspendExcStates        = (null)\n"
				 "TLSParameters           = (null)\n"
				 "TLSType                 = tls/none\n"
				 "SLURM_VERSION           = 25.11.2\n"
				 "\n"
				 "MPI Plugins Configuration:\n"
				 "PMIxCliTmpDirBase       = (null)\n"
				 "\n"
				 "Node Features Configuration:\n"
				 "----- node_features/helpers -----\n"
				 "AllowUserBoot           = (null)\n"
				 "\n"
				 "Slurmctld(primary) at vm is UP\n", &err), 0, "%s", fmt(&err));
	cr_assert(snap.conf.favor_small, "PriorityFavorSmall = yes");
	/* -1 or INFINITE in slurm.conf prints NONE */
	cr_assert_eq(snap.conf.preempt_exempt_time, PRIO_INFINITE);
	cr_assert_str_eq(prio_config_find(&snap.conf, "PreemptExemptTime")->value, "NONE");
	/* kept as printed, for the preemption model */
	cr_assert_str_eq(prio_config_find(&snap.conf, "PreemptParameters")->value,
			 "reorder_count=3,strict_order");
	cr_assert_str_eq(prio_config_find(&snap.conf, "TLSType")->value, "tls/none");
	cr_assert_eq(snap.slurm_release, 2511);
	cr_assert_eq(snap.warning_count, 0);
	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s", fmt(&err));
	prio_snapshot_free(&snap);

	/* a value Slurm never prints is still refused */
	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG, "PriorityFavorSmall      = maybe\n", &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "PriorityFavorSmall");
	prio_snapshot_free(&snap);
}

/* 24.11 prints a line of blanks between "CurrentWatts=" and "Reason=": the
 * record goes on.  Drained nodes load, and are not usable. */
Test(conf, slurm_2411_drained_nodes_with_reason)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_NODES, test_path(DATA_2411 "nodes.txt"));
	cr_assert_eq(snap.node_count, 4);
	cr_assert_eq(snap.loaded[0].records, 4);
	for (uint32_t i = 0; i < 4; i++) {
		const struct prio_node *n = &snap.nodes[i];

		cr_assert_str_eq(n->state, "IDLE+DRAIN");
		cr_assert_not(prio_node_state_usable(n->state));
		cr_assert_eq(n->cpus, 8);
		cr_assert_eq(n->cpus_efctv, 8);
		cr_assert_eq(n->real_memory, 16000);
		cr_assert_eq(prio_tres_list_get(&n->cfg_tres, PRIO_TRES_BILLING, 0), 23);
		cr_assert_eq(n->alloc_tres.count, 0, "AllocTRES=");
		cr_assert_str_eq(n->partitions_text, "batch,short");
		cr_assert_eq(n->line, 1 + 18 * i);
	}
	/* Version=24.11.5 of the slurmds: a format hint */
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_FORMAT);
	prio_snapshot_free(&snap);

	/* the same with -o, where the blank line is two blanks in a row */
	char *text = one_line_form(test_path(DATA_2411 "nodes.txt"));
	struct prio_error err;
	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES, text, &err), 0, "%s", fmt(&err));
	cr_assert_eq(snap.node_count, 4);
	cr_assert_str_eq(snap.nodes[3].state, "IDLE+DRAIN");
	cr_assert_eq(snap.nodes[3].line, 4);
	prio_snapshot_free(&snap);
	free(text);
}

/* Reason= over several lines, Comment=, Extra=, and a record that ends
 * with the line of blanks: each record whole, nothing outside one. */
Test(conf, scontrol_node_lines_after_the_blank_line)
{
	struct prio_snapshot snap;
	struct prio_error err;

	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES,
				 "NodeName=a1 Arch=x86_64 CoresPerSocket=4 \n"
				 "   CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=0.00\n"
				 "   RealMemory=8000 AllocMem=0 Sockets=1 Boards=1\n"
				 "   State=DOWN+DRAIN+NOT_RESPONDING ThreadsPerCore=1 Weight=1\n"
				 "   CfgTRES=cpu=4,mem=8000M,billing=4\n"
				 "   CurrentWatts=n/a AveWatts=n/a\n"
				 "   \n"
				 "   Reason=set Weight=5 for tests [root@2026-11-26T09:55:14]\n"
				 "          RealMemory=1 State=IDLE\n"
				 "   Comment=Sockets=2 soon\n"
				 "   Extra=rack=7 Boards=3\n"
				 "   TLSCertTokenSet=No TLSCertLastRenewal=None\n"
				 "   Topology=default:sw1\n"
				 "   Parameters=(null)\n"
				 "\n"
				 "NodeName=a2 CoresPerSocket=4 \n"
				 "   CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=0.00\n"
				 "   RealMemory=8000 AllocMem=0 Sockets=1 Boards=1\n"
				 "   State=IDLE ThreadsPerCore=1 Weight=1\n"
				 "   LastBusyTime=None ResumeAfterTime=None\n"
				 "   CurrentWatts=0 AveWatts=0\n"
				 "   \n"
				 "\n",
				 &err),
		     0, "%s", fmt(&err));
	cr_assert_eq(snap.node_count, 2);
	/* the free text's "Key=" words are text */
	cr_assert_str_eq(snap.nodes[0].state, "DOWN+DRAIN+NOT_RESPONDING");
	cr_assert_eq(snap.nodes[0].real_memory, 8000);
	cr_assert_eq(snap.nodes[0].weight, 1);
	cr_assert_eq(snap.nodes[0].sockets, 1);
	cr_assert_eq(snap.nodes[0].boards, 1);
	cr_assert_eq(snap.nodes[1].real_memory, 8000);
	cr_assert_eq(snap.nodes[1].line, 16);
	cr_assert_eq(snap.warning_count, 0);
	prio_snapshot_free(&snap);

	/* -o: the reason's Weight=5 is a second Weight= */
	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES,
				 "NodeName=a1 CPUTot=4 State=IDLE+DRAIN Weight=1 "
				 "CurrentWatts=0 AveWatts=0  Reason=set Weight=5 "
				 "[root@2026-11-26T09:55:14]\n",
				 &err),
		     PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "Weight");
	cr_assert_str_eq(err.message, "a second Weight= in the record of node a1 "
				      "(a value holding \"Weight=\"?)");
	prio_snapshot_free(&snap);
}

/* 24.11's partitions: new keys (ExclusiveTopo, MaxCPUsPerSocket) read past. */
Test(conf, slurm_2411_partitions)
{
	struct prio_snapshot snap;

	load_ok(&snap, L_PARTITIONS, test_path(DATA_2411 "partitions.txt"));
	cr_assert_eq(snap.partition_count, 2);
	struct prio_partition *batch = part(&snap, "batch"), *s = part(&snap, "short");
	cr_assert(batch->is_default);
	cr_assert_not(s->is_default);
	cr_assert_eq(batch->max_time, PRIO_INFINITE);
	cr_assert_eq(s->max_time, 120);
	cr_assert_eq(batch->total_cpus, 32);
	cr_assert_eq(batch->total_nodes, 4);
	cr_assert_eq(batch->preempt_mode, PRIO_PREEMPT_REQUEUE);
	cr_assert_str_eq(batch->billing_weights.text, "CPU=1.0,Mem=0.25G");
	prio_snapshot_free(&snap);
}

/* A node's Version= (its slurmd's release, never newer than the
 * controller's) raises a format hint but replaces nothing stronger. */
Test(conf, node_version_is_a_lower_bound_hint)
{
	struct prio_snapshot snap;
	struct prio_error err;
	struct prio_source src;

	/* jobs.txt says 23.02 or later (ReqTRES=), nodes.txt 24.11 */
	prio_snapshot_init(&snap);
	cr_assert_eq(prio_source_open(&src, test_path(DATA_2411 "jobs.txt"), &err), 0);
	cr_assert_eq(prio_load_jobs_scontrol(&snap, &src, &err), 0, "%s", fmt(&err));
	prio_source_close(&src);
	cr_assert_eq(snap.slurm_release, 2302);
	cr_assert_eq(load_path(&snap, L_NODES, test_path(DATA_2411 "nodes.txt"), &err), 0,
		     "%s", fmt(&err));
	cr_assert_eq(snap.slurm_release, 2411);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_FORMAT);
	prio_snapshot_free(&snap);

	/* SLURM_VERSION of the configuration stands */
	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_CONFIG, "SLURM_VERSION           = 25.05.1\n", &err),
		     0, "%s", fmt(&err));
	cr_assert_eq(load_path(&snap, L_NODES, test_path(DATA_2411 "nodes.txt"), &err), 0,
		     "%s", fmt(&err));
	cr_assert_eq(snap.slurm_release, 2505);
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_CONFIG);
	prio_snapshot_free(&snap);

	/* a node that never registered: Version=(null) says nothing */
	prio_snapshot_init(&snap);
	cr_assert_eq(load_memory(&snap, L_NODES,
				 "NodeName=x1 CPUTot=4 State=DOWN+NOT_RESPONDING "
				 "Version=(null)\n",
				 &err),
		     0, "%s", fmt(&err));
	cr_assert_eq(snap.slurm_release_source, PRIO_VERSION_DEFAULT);
	prio_snapshot_free(&snap);
}

/* The backfill words of SchedulerParameters, among others Slurm reads
 * elsewhere, and their defaults. */
Test(conf, backfill_words)
{
	struct prio_snapshot snap;

	conf_ok(&snap, "SchedulerParameters=bf_window=60,default_queue_depth=9,"
		       "bf_window_linear=15,bf_continue\n"
		       "NodeName=n1 CPUs=2\n"
		       "PartitionName=p Nodes=n1\n");
	cr_assert_eq(snap.conf.sched.bf_window, 60);
	cr_assert_eq(snap.conf.sched.bf_window_linear, 15);
	cr_assert(snap.conf.sched.bf_continue);
	cr_assert_eq(snap.conf.sched.bf_resolution, 60);
	cr_assert_eq(snap.conf.sched.bf_max_job_test, 500);
	prio_snapshot_free(&snap);
	conf_ok(&snap, "NodeName=n1 CPUs=2\nPartitionName=p Nodes=n1\n");
	cr_assert_eq(snap.conf.sched.bf_window_linear, 0);
	cr_assert_eq(snap.conf.sched.bf_window, 1440);
	prio_snapshot_free(&snap);
}

/* The scheduling words the forecast does not model, as written: whole
 * words only, any case, blanks around them dropped, cut with "..." to the
 * buffer. */
Test(conf, sched_params_unmodelled)
{
	struct prio_config c = {0};
	char buf[64], small[16];

	c.scheduler_parameters = " bf_max_job_part=5 ,bf_max_job_test=9,"
				 "Default_Queue_Depth=9,bf_max_job_partx=1,"
				 "bf_one_resv_per_job";
	cr_assert_eq(prio_sched_params_unmodelled(&c, buf, sizeof(buf)), 3);
	cr_assert_str_eq(buf, "bf_max_job_part=5, Default_Queue_Depth=9, "
			      "bf_one_resv_per_job");
	cr_assert_eq(prio_sched_params_unmodelled(&c, small, sizeof(small)), 3);
	cr_assert_str_eq(small, "bf_max_job_p...");
	c.scheduler_parameters = "bf_interval=5,sched_interval=5,bf_continue";
	cr_assert_eq(prio_sched_params_unmodelled(&c, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
	/* a held job stops its partition; TimeMin as the end */
	c.scheduler_parameters = "assoc_limit_stop,time_min_as_soft_limit";
	cr_assert_eq(prio_sched_params_unmodelled(&c, buf, sizeof(buf)), 2);
	cr_assert_str_eq(buf, "assoc_limit_stop, time_min_as_soft_limit");
	c.scheduler_parameters = "bf_window=60";
	cr_assert_eq(prio_sched_params_unmodelled(&c, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "");
	c.scheduler_parameters = NULL;
	cr_assert_eq(prio_sched_params_unmodelled(&c, buf, sizeof(buf)), 0);
}
