#!/bin/sh
# SPDX-License-Identifier: MIT
# --explain of a job that is not pending (issue 16): Slurm's Reason=None on
# a running job means nothing holds it, not "the scheduler has not looked
# at it yet"; a pending job still gets its reason and what it means.
set -u
s=samples/site
grep -q '^JobId=13 ' "$s/jobs.txt" && awk '/^JobId=13 /,/^$/' "$s/jobs.txt" | grep -q 'JobState=RUNNING .*Reason=None' ||
	{ echo "samples/site: job 13 is no longer RUNNING with Reason=None"; exit 1; }
l=$(prio-calc --snapshot "$s" --explain 13 | head -1)
[ "$l" = "Job 13 (user mallory, account chem, QOS normal) is RUNNING." ] || { echo "job 13: $l"; exit 1; }
l=$(prio-calc --snapshot "$s" --explain 36 | head -1)
case $l in
*"is PENDING, reason Priority: jobs of higher priority are ahead of it in the queue.") ;;
*) echo "job 36: $l"; exit 1 ;;
esac
