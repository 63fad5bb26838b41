# What if the sample site enabled partition_prio preemption: a 2-node big
# job (PriorityTier 2) requeues batch jobs (tier 1).  Only the queue, in a
# format of our own.
preempt-plan --snapshot samples/site --set PreemptType=preempt/partition_prio --set PreemptMode=REQUEUE -p big -N 2 -n 16 -J bigjob --user alice --strategy slurm --queue -o '%.5i %.6P %.10j %.8u %.2t %.6D %R'
