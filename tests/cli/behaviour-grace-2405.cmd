preempt-plan --snapshot samples/preempt-qos --job 3010 --strategy slurm --slurm-version 24.05 | grep -A7 'What happens next'
