prio-top --snapshot samples/site --once --size 80x24 --change PriorityWeightFairshar=0
