prio-calc --snapshot samples/site --set PriorityWeihgtQOS=50000 --compare
