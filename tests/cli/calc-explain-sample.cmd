prio-calc --snapshot samples/site --explain 36
