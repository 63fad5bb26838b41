prio-calc --snapshot samples/site -l -P -p short
