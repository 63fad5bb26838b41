# preempt/qos: prem preempts scav (requeue, GraceTime 20 s) and scavc
# (cancel); one JSON object per job holding resources, both plans.
preempt-plan --snapshot samples/preempt-qos --job 3010 --json
