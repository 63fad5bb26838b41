/* SPDX-License-Identifier: MIT */
/*
 * gen: write a synthetic snapshot folder (prio-tools(7) layout) of a large
 * site, deterministically, for the benchmarks of DESIGN §5.
 *
 *   gen S|M|L|C DIR
 *   gen sacct N FILE [S|M|L|C]
 *
 * The second form writes only N sacct records (FILE "-": standard output,
 * to pipe into zstd) of the users and accounts of a size (M by default):
 * with --sacct FILE over that size's folder, a roll-up of any length
 * (issue 17: 10M and 100M records in bounded memory).
 *
 *   S: 2,000 pending jobs, 200 users, 30 accounts, depth 4, 20k sacct records
 *   M: 100k pending jobs, 10k users, 1k accounts, depth 5, 1M sacct records
 *   L: 1M pending jobs, 100k users, 10k accounts, depth 6, 10M sacct records
 *   C: 200k pending jobs, 20k users, 2k accounts, depth 5, 200k sacct
 *      records: issue 13's --compare size (the queue matters, not history)
 *
 * Every file has the shape real Slurm 22.05 prints (the captures under
 * tests/oracle/ are the model): slurm.conf, assoc.cfg (sacctmgr dump),
 * sshare.txt (sshare -a -P, raw columns), qos.txt (sacctmgr -P show qos),
 * jobs.txt (scontrol show job -d -o: one line per job), sacct.txt
 * (sacct -a -P -X with prio-snap's field list) and NOW.  Besides the pending
 * jobs, a tenth as many running jobs hold nodes.  Timestamps are written in
 * UTC: run the tools with TZ=UTC on these folders.
 *
 * The same size always gives the same bytes (a fixed-seed generator), so
 * figures from different runs compare.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct size {
	const char *name;
	const char *cluster; /* Slurm lower-cases cluster names */
	uint32_t jobs, users, accounts, depth, sacct, nodes;
};

static const struct size sizes[] = {
	{ "S", "gens", 2000, 200, 30, 4, 20000, 50 },
	{ "M", "genm", 100000, 10000, 1000, 5, 1000000, 1000 },
	{ "L", "genl", 1000000, 100000, 10000, 6, 10000000, 10000 },
	{ "C", "genc", 200000, 20000, 2000, 5, 200000, 2000 },
};

#define NOW_EPOCH 1795319730L /* 2026-11-22T03:55:30Z, the samples' clock */
#define CPUS_PER_NODE 64
#define MEM_PER_NODE 256000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: small, fast, and the same everywhere. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "gen: out of memory\n");
		exit(2);
	}
	return p;
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static void close_out(FILE *f, const char *name)
{
	if (ferror(f) || fclose(f) != 0) {
		fprintf(stderr, "gen: %s: write error\n", name);
		exit(2);
	}
}

/* "YYYY-MM-DDTHH:MM:SS" in UTC. */
static const char *stamp(long t, char *buf)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	return buf;
}

static const char *duration(long s, char *buf)
{
	if (s >= 86400)
		snprintf(buf, 24, "%ld-%02ld:%02ld:%02ld", s / 86400, s % 86400 / 3600,
			 s % 3600 / 60, s % 60);
	else
		snprintf(buf, 24, "%02ld:%02ld:%02ld", s / 3600, s % 3600 / 60, s % 60);
	return buf;
}

/* ---- the association tree ---------------------------------------------- */

struct acct {
	uint32_t parent;         /* index into accts; UINT32_MAX for root */
	uint32_t level;          /* root 0 */
	uint32_t shares;
	uint32_t priority;       /* 0 = none */
	uint32_t *kids;          /* child accounts, ascending (= by name) */
	uint32_t nkids, capkids;
	uint32_t *users;         /* user associations here, ascending */
	uint32_t nusers, capusers;
	double usage;
};

struct uassoc {
	uint32_t user, acct;
	uint32_t shares;         /* 0x7fffffff = parent */
	double usage;
};

static struct acct *accts;
static uint32_t naccts;
static struct uassoc *uas;
static uint32_t nuas;

static void push(uint32_t **arr, uint32_t *n, uint32_t *cap, uint32_t v)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*arr = realloc(*arr, *cap * sizeof(**arr));
		if (!*arr) {
			fprintf(stderr, "gen: out of memory\n");
			exit(2);
		}
	}
	(*arr)[(*n)++] = v;
}

/* Accounts level by level so that the deepest level is depth-1 and the
 * count grows geometrically; users hang below the deepest accounts, so
 * user associations sit at `depth`. */
static void build_tree(const struct size *sz)
{
	uint32_t levels = sz->depth - 1, made = 1, first_prev = 0, n_prev = 1;
	double b = 2.0, sum;

	/* Branching factor b with b + b^2 + ... + b^levels ~ accounts. */
	for (int it = 0; it < 60; it++) {
		double lo = 1.0, hi = 1000.0;
		(void)it;
		while (hi - lo > 1e-6) {
			double mid = (lo + hi) / 2, p = 1;
			sum = 0;
			for (uint32_t l = 0; l < levels; l++) {
				p *= mid;
				sum += p;
			}
			if (sum < sz->accounts)
				lo = mid;
			else
				hi = mid;
		}
		b = lo;
		break;
	}
	accts = xcalloc(sz->accounts + 1, sizeof(*accts));
	accts[0].parent = UINT32_MAX;
	accts[0].shares = 1;
	naccts = 1;
	for (uint32_t l = 1; l <= levels; l++) {
		double want = 1;
		uint32_t count, first = naccts;

		for (uint32_t k = 0; k < l; k++)
			want *= b;
		count = l == levels ? sz->accounts - (naccts - 1) : (uint32_t)(want + 0.5);
		if (count < n_prev)
			count = n_prev;
		if (naccts - 1 + count > sz->accounts)
			count = sz->accounts - (naccts - 1);
		for (uint32_t k = 0; k < count; k++) {
			struct acct *a = &accts[naccts];
			uint32_t parent = first_prev + k % n_prev;

			a->parent = parent;
			a->level = l;
			a->shares = 1 + below(100);
			a->priority = below(10) == 0 ? 1 + below(100) : 0;
			push(&accts[parent].kids, &accts[parent].nkids,
			     &accts[parent].capkids, naccts);
			naccts++;
		}
		first_prev = first;
		n_prev = naccts - first;
		made += count;
	}
	(void)made;

	/* Users: each in one deepest-level account, a tenth in a second one. */
	uas = xcalloc((size_t)sz->users * 2 + 1, sizeof(*uas));
	for (uint32_t u = 0; u < sz->users; u++) {
		uint32_t homes = below(10) == 0 ? 2 : 1;
		uint32_t home = first_prev + below(n_prev);

		for (uint32_t h = 0; h < homes; h++) {
			struct uassoc *ua = &uas[nuas];
			uint32_t acct = h == 0 ? home : 1 + below(naccts - 1);

			/* no user twice in one account */
			if (h == 1 && acct == home)
				break;
			ua->user = u;
			ua->acct = acct;
			ua->shares = below(100) == 0 ? 0x7fffffffu : 1 + below(10);
			/* a third never ran anything: zero usage, Level FS inf */
			ua->usage = below(3) == 0 ? 0 : (double)(rnd() % 5000000) *
								   (double)(1 + below(4));
			push(&accts[acct].users, &accts[acct].nusers,
			     &accts[acct].capusers, nuas);
			nuas++;
		}
	}
	/* Account usage is the sum of what is below it (children were created
	 * after their parents, so one reverse pass adds everything up). */
	for (uint32_t i = 0; i < nuas; i++)
		accts[uas[i].acct].usage += uas[i].usage;
	for (uint32_t i = naccts - 1; i > 0; i--)
		accts[accts[i].parent].usage += accts[i].usage;
}

static void acct_name(uint32_t a, char *buf)
{
	if (a == 0)
		strcpy(buf, "root");
	else
		snprintf(buf, 16, "acct%05u", a);
}

static void user_name(uint32_t u, char *buf)
{
	snprintf(buf, 16, "u%06u", u);
}

static void write_dump_children(FILE *f, uint32_t a)
{
	char an[16], un[16];

	if (!accts[a].nusers && !accts[a].nkids)
		return;
	acct_name(a, an);
	fprintf(f, "Parent - '%s'\n", an);
	for (uint32_t i = 0; i < accts[a].nusers; i++) {
		const struct uassoc *ua = &uas[accts[a].users[i]];

		user_name(ua->user, un);
		fprintf(f, "User - '%s':DefaultAccount='%s':DefaultQOS='normal':Fairshare=%u:QOS='normal,high,low,long'\n",
			un, an, ua->shares);
	}
	for (uint32_t i = 0; i < accts[a].nkids; i++) {
		const struct acct *k = &accts[accts[a].kids[i]];
		char kn[16];

		acct_name(accts[a].kids[i], kn);
		fprintf(f, "Account - '%s':Description='%s':Organization='%s':Fairshare=%u",
			kn, kn, an, k->shares);
		if (k->priority)
			fprintf(f, ":Priority=%u", k->priority);
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < accts[a].nkids; i++)
		write_dump_children(f, accts[a].kids[i]);
}

static void write_sshare_rows(FILE *f, uint32_t a, uint32_t *id)
{
	char an[16], un[16];
	uint32_t lvl = accts[a].level;

	acct_name(a, an);
	for (uint32_t i = 0; i < accts[a].nusers; i++) {
		const struct uassoc *ua = &uas[accts[a].users[i]];

		user_name(ua->user, un);
		fprintf(f, "%*s%s|%s||%u|", (int)lvl + 1, "", an, un, ++*id);
		if (ua->shares == 0x7fffffffu)
			fputs("parent", f);
		else
			fprintf(f, "%u", ua->shares);
		fprintf(f, "|%llu\n", (unsigned long long)ua->usage);
	}
	for (uint32_t i = 0; i < accts[a].nkids; i++) {
		uint32_t k = accts[a].kids[i];
		char kn[16];

		acct_name(k, kn);
		fprintf(f, "%*s%s|||%u|%u|%llu\n", (int)lvl + 1, "", kn, ++*id,
			accts[k].shares, (unsigned long long)accts[k].usage);
		write_sshare_rows(f, k, id);
	}
}

/* ---- configuration ----------------------------------------------------- */

static const char *const partitions[] = { "batch", "short", "long", "gpu", "big" };
#define NPART 5
static const char *const qos_names[] = { "normal", "high", "low", "long" };
static const uint32_t qos_prio[] = { 10, 100, 1, 5 };
#define NQOS 4

static void write_conf(const char *dir, const struct size *sz)
{
	FILE *f = open_out(dir, "slurm.conf");
	uint32_t gpu_nodes = sz->nodes / 10;

	fprintf(f,
		"# Synthetic site \"%s\" written by tests/bench/gen (prio-tools).\n"
		"ClusterName=%s\n"
		"SlurmctldHost=head(10.0.0.1)\n"
		"AuthType=auth/munge\n"
		"AccountingStorageType=accounting_storage/slurmdbd\n"
		"AccountingStorageEnforce=associations,limits,qos\n"
		"AccountingStorageTRES=cpu,mem,node,billing,gres/gpu\n"
		"GresTypes=gpu\n"
		"SchedulerType=sched/backfill\n"
		"SchedulerParameters=bf_interval=30,bf_max_job_test=1000\n"
		"SelectType=select/cons_tres\n"
		"SelectTypeParameters=CR_Core_Memory\n"
		"DefMemPerCPU=2000\n"
		"PreemptType=preempt/partition_prio\n"
		"PreemptMode=REQUEUE\n"
		"PriorityType=priority/multifactor\n"
		"PriorityDecayHalfLife=7-0\n"
		"PriorityCalcPeriod=5\n"
		"PriorityMaxAge=14-0\n"
		"PriorityWeightAge=1000\n"
		"PriorityWeightFairshare=100000\n"
		"PriorityWeightJobSize=1000\n"
		"PriorityWeightPartition=10000\n"
		"PriorityWeightQOS=20000\n"
		"PriorityWeightAssoc=100\n"
		"PriorityWeightTRES=CPU=1000,Mem=500,GRES/gpu=3000\n",
		sz->cluster, sz->cluster);
	fprintf(f, "NodeName=cn[%05u-%05u] CPUs=%u Boards=1 SocketsPerBoard=2 CoresPerSocket=%u ThreadsPerCore=1 RealMemory=%u State=UNKNOWN\n",
		1u, sz->nodes - gpu_nodes, CPUS_PER_NODE, CPUS_PER_NODE / 2, MEM_PER_NODE);
	fprintf(f, "NodeName=gn[%05u-%05u] CPUs=%u Boards=1 SocketsPerBoard=2 CoresPerSocket=%u ThreadsPerCore=1 RealMemory=%u Gres=gpu:4 State=UNKNOWN\n",
		1u, gpu_nodes, CPUS_PER_NODE, CPUS_PER_NODE / 2, MEM_PER_NODE);
	fprintf(f, "PartitionName=DEFAULT State=UP MaxTime=2-00:00:00 PreemptMode=REQUEUE\n");
	fprintf(f, "PartitionName=batch Nodes=cn[%05u-%05u] Default=YES PriorityJobFactor=10 PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G\n",
		1u, sz->nodes - gpu_nodes);
	fprintf(f, "PartitionName=short Nodes=cn[%05u-%05u] MaxTime=04:00:00 PriorityJobFactor=50 PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G\n",
		1u, sz->nodes - gpu_nodes);
	fprintf(f, "PartitionName=long Nodes=cn[%05u-%05u] MaxTime=14-00:00:00 PriorityJobFactor=1 PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G\n",
		1u, (sz->nodes - gpu_nodes) / 2);
	fprintf(f, "PartitionName=gpu Nodes=gn[%05u-%05u] PriorityJobFactor=20 PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=10\n",
		1u, gpu_nodes);
	fprintf(f, "PartitionName=big Nodes=cn[%05u-%05u],gn[%05u-%05u] MaxTime=1-00:00:00 PriorityJobFactor=1 PriorityTier=2 PreemptMode=OFF TRESBillingWeights=CPU=0.5,Mem=0.25G,Node=8\n",
		1u, sz->nodes - gpu_nodes, 1u, gpu_nodes);
	close_out(f, "slurm.conf");

	f = open_out(dir, "qos.txt");
	fputs("Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|UsageThres|UsageFactor|GrpTRES|GrpTRESMins|GrpTRESRunMins|GrpJobs|GrpSubmit|GrpWall|MaxTRES|MaxTRESPerNode|MaxTRESMins|MaxWall|MaxTRESPU|MaxJobsPU|MaxSubmitPU|MaxTRESPA|MaxJobsPA|MaxSubmitPA|MinTRES\n", f);
	for (int q = 0; q < NQOS; q++)
		fprintf(f, "%s|%u|00:00:00|||cluster|||%s|||||||||||||||||\n",
			qos_names[q], qos_prio[q], q == 3 ? "0.500000" : "1.000000");
	close_out(f, "qos.txt");
}

static void write_assoc(const char *dir, const struct size *sz)
{
	FILE *f = open_out(dir, "assoc.cfg");
	uint32_t id = 0;

	fprintf(f, "# Synthetic association dump written by tests/bench/gen.\n"
		   "Cluster - '%s':Fairshare=1:QOS='normal'\n", sz->cluster);
	write_dump_children(f, 0);
	close_out(f, "assoc.cfg");

	f = open_out(dir, "sshare.txt");
	fputs("Account|User|Partition|ID|RawShares|RawUsage\n", f);
	fprintf(f, "root|||%u||%llu\n", ++id, (unsigned long long)accts[0].usage);
	write_sshare_rows(f, 0, &id);
	close_out(f, "sshare.txt");
}

/* ---- jobs -------------------------------------------------------------- */

struct shape {
	uint32_t part;           /* index into partitions */
	uint32_t nodes, cpus, mem_mb, gpus;
	uint32_t limit_min;
};

static void job_shape(struct shape *s)
{
	uint32_t r = below(100);

	s->part = r < 45 ? 0 : r < 65 ? 1 : r < 80 ? 2 : r < 92 ? 3 : 4;
	s->nodes = s->part == 4 ? 2 + below(15) : below(10) == 0 ? 1 + below(4) : 1;
	s->cpus = s->nodes * (below(4) == 0 ? CPUS_PER_NODE : 1u << below(6));
	s->mem_mb = s->cpus * 2000;
	s->gpus = s->part == 3 ? s->nodes * (1 + below(4)) : 0;
	s->limit_min = s->part == 1 ? 30 + below(200) : 60 * (1 + below(47));
}

static const char *mem_text(uint32_t mb, char *buf)
{
	if (mb % 1024 == 0)
		snprintf(buf, 24, "%uG", mb / 1024);
	else
		snprintf(buf, 24, "%uM", mb);
	return buf;
}

static void tres_text(const struct shape *s, double billing, char *buf)
{
	char mem[24];
	int n = snprintf(buf, 160, "cpu=%u,mem=%s,node=%u,billing=%u", s->cpus,
			 mem_text(s->mem_mb, mem), s->nodes, (unsigned)billing);

	if (s->gpus)
		snprintf(buf + n, 160 - (size_t)n, ",gres/gpu=%u", s->gpus);
}

static double billing_of(const struct shape *s)
{
	switch (s->part) {
	case 3: return s->cpus + s->mem_mb * 0.25 / 1024 + 10.0 * s->gpus;
	case 4: return 0.5 * s->cpus + s->mem_mb * 0.25 / 1024 + 8.0 * s->nodes;
	default: return s->cpus + s->mem_mb * 0.25 / 1024;
	}
}

/* One `scontrol show job -d -o` line, fields in 22.05's order. */
static void write_job(FILE *f, uint32_t id, bool running, uint32_t *next_node,
		      uint32_t cpu_nodes, uint32_t gpu_nodes)
{
	const struct uassoc *ua = &uas[below(nuas)];
	struct shape s;
	char un[16], an[16], sub[32], elig[32], st[32], en[32], lim[24], tres[160];
	char nodelist[64];
	long submit = NOW_EPOCH - (long)below(7 * 86400) - 60;
	uint32_t q = below(10) < 7 ? 0 : below(NQOS);
	uint32_t r = below(1000);
	bool held = !running && r < 5, dependent = !running && r >= 5 && r < 15;
	bool array = !running && r >= 15 && r < 25;
	uint32_t nice = !running && r >= 25 && r < 40 ? 100 * (1 + below(5)) : 0;
	const char *reason = running ? "None" : held ? "JobHeldUser" :
				 dependent ? "Dependency" : below(3) ? "Priority" : "Resources";
	uint32_t prio = held ? 0 : 1000 + below(100000);
	long start;

	job_shape(&s);
	user_name(ua->user, un);
	acct_name(ua->acct, an);
	stamp(submit, sub);
	stamp(dependent ? 0 : submit, elig);
	start = running ? submit + (long)below((uint32_t)(NOW_EPOCH - submit)) : NOW_EPOCH + 3600 + below(86400);
	stamp(start, st);
	stamp(start + 60L * s.limit_min, en);
	duration(60L * s.limit_min, lim);
	tres_text(&s, billing_of(&s), tres);

	fprintf(f, "JobId=%u ", id);
	if (array)
		fprintf(f, "ArrayJobId=%u ArrayTaskId=0-%u ", id, 1 + below(99));
	fprintf(f, "JobName=job%u UserId=%s(%u) GroupId=%s(%u) MCS_label=N/A "
		   "Priority=%u Nice=%u Account=%s QOS=%s "
		   "JobState=%s Reason=%s Dependency=%s "
		   "Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 "
		   "DerivedExitCode=0:0 "
		   "RunTime=%s TimeLimit=%s TimeMin=N/A "
		   "SubmitTime=%s EligibleTime=%s AccrueTime=%s ",
		id, un, 10000 + ua->user, un, 10000 + ua->user, prio, nice, an,
		qos_names[q], running ? "RUNNING" : "PENDING", reason,
		dependent ? "afterok:1(unfulfilled)" : "(null)",
		running ? "01:00:00" : "00:00:00", lim, sub,
		dependent ? "Unknown" : elig, dependent ? "Unknown" : sub);
	fprintf(f, "StartTime=%s EndTime=%s Deadline=N/A "
		   "SuspendTime=None SecsPreSuspend=0 LastSchedEval=%s Scheduler=Main "
		   "Partition=%s%s AllocNode:Sid=login1:%u "
		   "ReqNodeList=(null) ExcNodeList=(null) ",
		running || !held ? st : "Unknown", running || !held ? en : "Unknown",
		sub, partitions[s.part],
		!running && s.part == 0 && below(5) == 0 ? ",long" : "", 1000 + below(60000));
	if (running) {
		uint32_t first, per = s.cpus / s.nodes;
		const char *pfx = s.part == 3 ? "gn" : "cn";
		uint32_t pool = s.part == 3 ? gpu_nodes : cpu_nodes;

		first = pool > s.nodes ? 1 + *next_node % (pool - s.nodes) : 1;
		*next_node += s.nodes;
		if (s.nodes == 1)
			snprintf(nodelist, sizeof(nodelist), "%s%05u", pfx, first);
		else
			snprintf(nodelist, sizeof(nodelist), "%s[%05u-%05u]", pfx, first,
				 first + s.nodes - 1);
		fprintf(f, "NodeList=%s BatchHost=%s%05u "
			   "NumNodes=%u NumCPUs=%u NumTasks=%u CPUs/Task=1 ReqB:S:C:T=0:0:*:* "
			   "TRES=%s Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* "
			   "JOB_GRES=%s ",
			nodelist, pfx, first, s.nodes, s.cpus, s.cpus, tres,
			s.gpus ? "gpu:4" : "(null)");
		for (uint32_t k = 0; k < s.nodes; k++)
			fprintf(f, "Nodes=%s%05u CPU_IDs=0-%u Mem=%u GRES=%s ", pfx,
				first + k, per - 1, per * 2000, s.gpus ? "gpu:4(IDX:0-3)" : "");
	} else {
		fprintf(f, "NodeList= NumNodes=%u NumCPUs=%u NumTasks=%u CPUs/Task=1 "
			   "ReqB:S:C:T=0:0:*:* TRES=%s Socks/Node=* "
			   "NtasksPerN:B:S:C=0:0:*:* CoreSpec=* ",
			s.nodes, s.cpus, s.cpus, tres);
	}
	fprintf(f, "MinCPUsNode=1 MinMemoryCPU=2000M MinTmpDiskNode=0 "
		   "Features=(null) DelayBoot=00:00:00 "
		   "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) "
		   "Command=/home/%s/jobs/run%u.sh WorkDir=/home/%s/jobs "
		   "StdErr=/home/%s/jobs/slurm-%u.out StdIn=/dev/null "
		   "StdOut=/home/%s/jobs/slurm-%u.out Power=%s\n",
		un, id, un, un, id, un, id,
		s.gpus ? " TresPerNode=gres:gpu:4" : "");
}

static void write_jobs(const char *dir, const struct size *sz)
{
	FILE *f = open_out(dir, "jobs.txt");
	uint32_t running = sz->jobs / 10, next_node = 0;
	uint32_t gpu_nodes = sz->nodes / 10, cpu_nodes = sz->nodes - gpu_nodes;
	uint32_t id = 1000000;

	/* Running jobs have the lower ids: they were submitted earlier. */
	for (uint32_t i = 0; i < running; i++)
		write_job(f, id++, true, &next_node, cpu_nodes, gpu_nodes);
	for (uint32_t i = 0; i < sz->jobs; i++)
		write_job(f, id++, false, &next_node, cpu_nodes, gpu_nodes);
	close_out(f, "jobs.txt");
}

static void write_sacct_records(FILE *f, uint64_t count)
{
	static const char *const states[] = { "COMPLETED", "COMPLETED", "COMPLETED",
					      "FAILED", "TIMEOUT", "CANCELLED by 10042" };
	long span = 30L * 86400;

	fputs("JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Eligible|Start|End|Elapsed|ElapsedRaw|Suspended|State|AllocTRES|ReqTRES|NNodes|NCPUS|TimelimitRaw\n", f);
	for (uint64_t i = 0; i < count; i++) {
		const struct uassoc *ua = &uas[below(nuas)];
		struct shape s;
		char un[16], an[16], sub[32], st[32], en[32], el[24], tres[160];
		long submit = NOW_EPOCH - span + (long)((double)span * (double)i / (double)count);
		long start = submit + below(3600);
		long elapsed, limit;
		/* ids as Slurm's: unique below 2^32 (MaxJobId wraps sooner) */
		uint32_t id = (uint32_t)(1 + i);

		job_shape(&s);
		limit = 60L * s.limit_min;
		elapsed = 1 + (long)below((uint32_t)limit);
		user_name(ua->user, un);
		acct_name(ua->acct, an);
		tres_text(&s, billing_of(&s), tres);
		fprintf(f, "%u|%u|%s|%s|%s|%s|%s|%s|%s|%s|%s|%ld|00:00:00|%s|%s|%s|%u|%u|%u\n",
			id, id, un, an, partitions[s.part], qos_names[below(10) < 7 ? 0 : below(NQOS)],
			stamp(submit, sub), sub, stamp(start, st),
			stamp(start + elapsed, en), duration(elapsed, el), elapsed,
			states[below(6)], tres, tres, s.nodes, s.cpus, s.limit_min);
	}
}

static void write_sacct(const char *dir, const struct size *sz)
{
	FILE *f = open_out(dir, "sacct.txt");

	write_sacct_records(f, sz->sacct);
	close_out(f, "sacct.txt");
}

/* gen sacct N FILE [SIZE] */
static int sacct_only(int argc, char **argv)
{
	const struct size *sz = NULL;
	const char *want = argc == 5 ? argv[4] : "M";
	char *end;
	unsigned long long n;
	FILE *f;

	errno = 0;
	n = strtoull(argv[2], &end, 10);
	if (argc > 5 || errno || end == argv[2] || *end || !n || n > UINT32_MAX - 1) {
		fprintf(stderr, "usage: gen sacct N FILE [S|M|L|C] (N from 1 to 2^32-2)\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (strcmp(want, sizes[i].name) == 0)
			sz = &sizes[i];
	if (!sz) {
		fprintf(stderr, "gen: unknown size \"%s\" (S, M, L or C)\n", want);
		return 2;
	}
	build_tree(sz);
	f = strcmp(argv[3], "-") == 0 ? stdout : fopen(argv[3], "w");
	if (!f) {
		fprintf(stderr, "gen: %s: %s\n", argv[3], strerror(errno));
		return 2;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	write_sacct_records(f, n);
	close_out(f, argv[3]);
	return 0;
}

int main(int argc, char **argv)
{
	const struct size *sz = NULL;
	FILE *f;

	if (argc >= 4 && strcmp(argv[1], "sacct") == 0)
		return sacct_only(argc, argv);
	if (argc != 3) {
		fprintf(stderr, "usage: gen S|M|L|C DIR | gen sacct N FILE [S|M|L|C]\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (strcmp(argv[1], sizes[i].name) == 0)
			sz = &sizes[i];
	if (!sz) {
		fprintf(stderr, "gen: unknown size \"%s\" (S, M, L or C)\n", argv[1]);
		return 2;
	}
	if (mkdir(argv[2], 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	build_tree(sz);
	write_conf(argv[2], sz);
	write_assoc(argv[2], sz);
	write_jobs(argv[2], sz);
	write_sacct(argv[2], sz);
	f = open_out(argv[2], "NOW");
	fprintf(f, "%ld\n", NOW_EPOCH);
	close_out(f, "NOW");
	return 0;
}
