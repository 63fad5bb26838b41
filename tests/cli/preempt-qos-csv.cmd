# The minimal plan alone, as CSV: the three youngest (scavc) jobs cancelled.
preempt-plan --snapshot samples/preempt-qos --job 3010 --strategy minimal --csv
