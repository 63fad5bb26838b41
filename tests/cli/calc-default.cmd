prio-calc --snapshot samples/site
