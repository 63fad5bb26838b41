prio-calc --snapshot samples/site --json --csv
