/* SPDX-License-Identifier: MIT */
/* What-if assignments (--set) on the sample snapshot. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "testutil.h"

static struct prio_snapshot snap;
static struct prio_error err;

static void setup(void)
{
	char msg[1024];

	setenv("TZ", "UTC", 1);
	tzset();
	cr_assert_eq(prio_snapshot_init(&snap), 0);
	cr_assert_eq(prio_snapshot_load_sources(&snap, test_path("samples/site"), NULL, &err), 0,
		     "%s", prio_error_format(&err, msg, sizeof(msg)));
}

static void teardown(void)
{
	prio_snapshot_free(&snap);
}

static int set(const char *a)
{
	prio_error_clear(&err);
	return prio_snapshot_set(&snap, a, "--set", &err);
}

static void finish(void)
{
	char msg[1024];

	cr_assert_eq(prio_snapshot_finish(&snap, &err), 0, "%s",
		     prio_error_format(&err, msg, sizeof(msg)));
}

static struct prio_partition *part(const char *name)
{
	return prio_snapshot_partition(&snap, prio_intern_find(&snap.strings, name, strlen(name)));
}

static const struct prio_assoc *user_assoc(const char *acct, const char *user)
{
	for (uint32_t i = 0; i < snap.assoc_count; i++) {
		const struct prio_assoc *a = &snap.assocs[i];
		if (a->is_user && !strcmp(prio_snapshot_str(&snap, a->account), acct) &&
		    !strcmp(prio_snapshot_str(&snap, a->user), user))
			return a;
	}
	return NULL;
}

TestSuite(whatif, .init = setup, .fini = teardown);

Test(whatif, slurm_conf_parameters_validated_like_the_file)
{
	cr_assert_eq(snap.conf.weight_age, 1000);
	cr_assert_eq(set("PriorityWeightAge=2000"), 0);
	cr_assert_eq(snap.conf.weight_age, 2000);
	cr_assert_eq(set("PriorityDecayHalfLife=14-0"), 0);
	cr_assert_eq(snap.conf.decay_half_life, 14 * 86400);
	cr_assert_eq(set("PriorityFlags=NO_FAIR_TREE,MAX_TRES"), 0);
	cr_assert_eq(snap.conf.priority_flags & PRIO_FLAG_FAIR_TREE, 0);
	cr_assert_neq(snap.conf.priority_flags & PRIO_FLAG_MAX_TRES, 0);
	cr_assert_lt(set("PriorityWeightAge=x"), 0);
	cr_assert_eq(err.status, PRIO_ERR_PARSE);
	cr_assert_str_eq(err.file, "--set");
	cr_assert_str_eq(err.field, "PriorityWeightAge");
	cr_assert_eq(set("no equals sign"), PRIO_ERR_USAGE);
	cr_assert_eq(set("=5"), PRIO_ERR_USAGE);
}

Test(whatif, partitions_change_before_linking)
{
	cr_assert_eq(set("partition:big.PriorityJobFactor=20"), 0);
	cr_assert_eq(set("partition:short.Priority=7"), 0);
	cr_assert_eq(set("partition:batch.TRESBillingWeights=CPU=2.0"), 0);
	cr_assert_eq(set("PARTITION:batch.maxtime=1-0"), 0);
	finish();
	cr_assert_eq(part("big")->job_factor, 20);
	cr_assert_eq(part("short")->job_factor, 7);
	cr_assert_eq(part("short")->tier, 7);
	cr_assert_eq(part("batch")->max_time, 1440);
	/* 5 nodes of 8 CPUs at 2 per CPU: the billing total follows */
	cr_assert_eq(part("batch")->tres_total[PRIO_TRES_BILLING], 80);
}

Test(whatif, unknown_names_and_keys_are_usage_errors)
{
	cr_assert_eq(set("partition:nosuch.PriorityTier=2"), PRIO_ERR_USAGE);
	cr_assert_eq(set("partition:big.Nodes=x"), PRIO_ERR_USAGE);
	cr_assert_eq(set("partition:big.PriorityTier=70000"), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "PriorityTier");
	cr_assert_eq(set("qos:nosuch.Priority=1"), PRIO_ERR_USAGE);
	cr_assert_eq(set("assoc:astro/nobody.Fairshare=1"), PRIO_ERR_USAGE);
	cr_assert_eq(set("job:999999.Nice=0"), PRIO_ERR_USAGE);
	cr_assert_eq(set("job:abc.Nice=0"), PRIO_ERR_USAGE);
	cr_assert_eq(set("planet:mars.Gravity=3"), PRIO_ERR_USAGE);
	cr_assert_eq(set("qos:high=3"), PRIO_ERR_USAGE);
}

/* Issue 13: a misspelt key or an empty value must not leave the what-if
 * answering "nothing moved". */
Test(whatif, misspelt_keys_and_empty_values_refused)
{
	char msg[1024];

	cr_assert_eq(set("PriorityWeihgtQOS=50000"), PRIO_ERR_USAGE);
	cr_assert_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "--set: PriorityWeihgtQOS: unknown key (did you mean PriorityWeightQOS?)");
	cr_assert_eq(snap.conf.weight_qos, 5000, "unchanged");
	/* a key Slurm has that the model does not use still counts */
	cr_assert_eq(set("MaxJobCount=5000"), 0);
	cr_assert_eq(set("PriorityWeightAge="), PRIO_ERR_PARSE);
	cr_assert_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "--set: PriorityWeightAge: empty value");
	cr_assert_eq(snap.conf.weight_age, 1000, "unchanged, not the default 0");
	cr_assert_eq(set("PriorityFlags="), PRIO_ERR_PARSE);
	cr_assert_eq(set("job:2.QOS="), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "QOS");
	/* record keys: a near miss is named, anything else lists the keys */
	cr_assert_eq(set("partition:big.PriorityJobFacter=2"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "unknown key (did you mean PriorityJobFactor?)");
	cr_assert_eq(set("qos:high.UsageFacter=2"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "unknown key (did you mean UsageFactor?)");
	cr_assert_eq(set("assoc:astro.FairShar=2"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "unknown key (did you mean Fairshare?)");
	cr_assert_eq(set("job:2.Niec=2"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "unknown key (did you mean Nice?)");
	/* a record key given as a parameter: how to name the record */
	cr_assert_eq(set("PriorityTier=5"), PRIO_ERR_USAGE);
	cr_assert_str_eq(prio_error_format(&err, msg, sizeof(msg)),
			 "--set: PriorityTier: not a slurm.conf parameter "
			 "(did you mean partition:NAME.PriorityTier?)");
	cr_assert_eq(set("Nice=5"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "not a slurm.conf parameter (did you mean job:ID.Nice?)");
	cr_assert_eq(set("partition:big.Nodes=x"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message,
			 "not a partition key a what-if can change (PriorityJobFactor, "
			 "PriorityTier, Priority, MaxTime, GraceTime, PreemptMode, "
			 "TRESBillingWeights)");
}

Test(whatif, qos_assoc_and_jobs)
{
	const struct prio_qos *urgent;

	cr_assert_eq(set("qos:urgent.Priority=5"), 0);
	cr_assert_eq(set("qos:high.UsageFactor=0.5"), 0);
	cr_assert_eq(set("qos:high.UsageFactor=-1"), PRIO_ERR_PARSE);
	cr_assert_eq(set("assoc:chem.Fairshare=50"), 0);
	cr_assert_eq(set("assoc:astro/bob.Fairshare=parent"), 0);
	cr_assert_eq(set("assoc:hep/alice.RawUsage=1234.5"), 0);
	cr_assert_eq(set("assoc:hep/alice.Fairshare=-3"), PRIO_ERR_PARSE);
	cr_assert_eq(set("job:29.Nice=0"), 0);
	cr_assert_eq(set("job:29.Nice=2147483646"), PRIO_ERR_PARSE);
	cr_assert_eq(set("job:25.Partition=short,big"), 0);
	finish();
	urgent = prio_snapshot_qos(&snap, prio_intern_find(&snap.strings, "urgent", 6));
	cr_assert_eq(urgent->priority, 5);
	cr_assert_eq(user_assoc("astro", "bob")->shares_raw, PRIO_FS_USE_PARENT);
	cr_assert_float_eq((double)user_assoc("hep", "alice")->usage_raw, 1234.5, 1e-9);
	for (uint32_t i = 0; i < snap.assoc_count; i++)
		if (!snap.assocs[i].is_user &&
		    !strcmp(prio_snapshot_str(&snap, snap.assocs[i].account), "chem"))
			cr_assert_eq(snap.assocs[i].shares_raw, 50);
	for (uint32_t i = 0; i < snap.job_count; i++) {
		if (snap.jobs[i].job_id == 29)
			cr_assert_eq(snap.jobs[i].nice, 0);
		if (snap.jobs[i].job_id == 25) {
			cr_assert_eq(snap.jobs[i].partition_count, 2);
			cr_assert_str_eq(prio_snapshot_str(&snap, snap.jobs[i].partitions[1]), "big");
		}
	}
}

static const struct prio_job *find_job_id(uint32_t id)
{
	const struct prio_job *j = prio_snapshot_find_job(&snap, id);

	cr_assert_not_null(j, "job %u", id);
	return j;
}

/* job:ID.QOS= takes a list from Slurm 24.11 (sbatch --qos=low,urgent);
 * linking sorts it as Slurm does (urgent 1000 before low 1).  The sample
 * is 22.05's (TRES=), where a job has one QOS. */
Test(whatif, job_qos_list_from_2411)
{
	const struct prio_job *j;

	cr_assert_eq(prio_snapshot_slurm(&snap)->release, 2205);
	cr_assert_eq(set("job:29.QOS=low,urgent"), PRIO_ERR_PARSE);
	cr_assert_str_eq(err.field, "QOS");
	cr_assert_str_eq(err.message,
			 "several QOS \"low,urgent\" (Slurm 22.05 has one QOS "
			 "per job; several came with 24.11)");

	prio_snapshot_note_version(&snap, 2411, PRIO_VERSION_OPTION);
	cr_assert_eq(set("job:29.QOS=low,gold"), PRIO_ERR_USAGE);
	cr_assert_str_eq(err.message, "no QOS \"gold\"");
	cr_assert_eq(set("job:29.QOS=low,,urgent"), PRIO_ERR_PARSE);
	cr_assert_eq(set("job:29.QOS=low,urgent"), 0);
	/* a single QOS afterwards replaces the list */
	cr_assert_eq(set("job:30.QOS=low,urgent"), 0);
	cr_assert_eq(set("job:30.QOS=high"), 0);
	finish();
	j = find_job_id(29);
	cr_assert_eq(prio_job_qos_count(j), 2);
	cr_assert_str_eq(prio_snapshot_str(&snap, prio_job_qos_at(j, 0)),
			 "urgent");
	cr_assert_str_eq(prio_snapshot_str(&snap, prio_job_qos_at(j, 1)),
			 "low");
	cr_assert_eq(j->qos, prio_job_qos_at(j, 0));
	j = find_job_id(30);
	cr_assert_null(prio_job_qos_list(j));
	cr_assert_str_eq(prio_snapshot_str(&snap, j->qos), "high");
}
