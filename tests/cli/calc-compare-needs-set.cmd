prio-calc --snapshot samples/site --compare
