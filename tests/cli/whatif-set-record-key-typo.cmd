prio-calc --snapshot samples/site --set partition:big.PriorityJobFacter=2 --compare
