prio-top --snapshot samples/site --once --size 10x3
