prio-top --snapshot samples/site --once --change PriorityWeightAge=lots
