prio-calc --snapshot samples/site -w -l --json
