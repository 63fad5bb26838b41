prio-top --snapshot samples/site --once -n 2
