prio-calc --snapshot samples/site -j 41
