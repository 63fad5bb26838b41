# Only same-tier jobs hold the nodes: nothing may be preempted, exit 1.
preempt-plan --snapshot samples/preempt-future -p active -N 4 -P
