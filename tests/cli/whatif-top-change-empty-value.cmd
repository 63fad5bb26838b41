prio-top --snapshot samples/site --once --size 80x24 --change PriorityWeightFairshare=
