prio-calc --snapshot samples/site --explain 9999
