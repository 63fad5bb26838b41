prio-calc --snapshot samples/site -l -o %i
