prio-top --snapshot samples/site --size 80x24
