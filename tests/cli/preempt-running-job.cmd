# --job must name a pending job.
preempt-plan --snapshot samples/preempt-future --job 17
