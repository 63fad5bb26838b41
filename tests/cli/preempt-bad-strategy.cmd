preempt-plan --snapshot samples/preempt-future --job 20 --strategy best
