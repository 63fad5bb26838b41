prio-calc --snapshot samples/site --rank -P
