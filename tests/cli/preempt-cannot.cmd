# Six nodes in a five-node partition: it cannot start, exit 1.
preempt-plan --snapshot samples/preempt-future -p hipri -N 6 --strategy slurm
