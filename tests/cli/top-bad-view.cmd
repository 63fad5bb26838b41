prio-top --snapshot samples/site --once --view graph
