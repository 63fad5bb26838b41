preempt-plan --snapshot samples/preempt-future --job 999
