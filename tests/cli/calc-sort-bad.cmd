prio-calc --snapshot samples/site -S B
