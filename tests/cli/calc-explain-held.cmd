prio-calc --snapshot samples/site --explain 41
