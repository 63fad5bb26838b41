prio-calc --snapshot samples/site --json -l -j30,31
