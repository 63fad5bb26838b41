prio-calc --snapshot samples/site --set PriorityWeightAge=x --check
