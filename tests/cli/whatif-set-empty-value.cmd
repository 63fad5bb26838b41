prio-calc --snapshot samples/site --set PriorityWeightAge= --compare
