preempt-plan --snapshot samples/preempt-future -p nosuch -N 1
