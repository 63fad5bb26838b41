preempt-plan --snapshot samples/preempt-qos --job 3010 --strategy slurm --slurm-version 24.11 --set PreemptParameters=reclaim_licenses,min_exempt_priority=1 | head -4
