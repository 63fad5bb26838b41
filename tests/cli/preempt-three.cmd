# The document's three-partition example: hi job 96 suspends med job 95;
# low job 94, requeued earlier, waits for its begin time.
preempt-plan --snapshot samples/preempt-three --job 96 --strategy slurm
