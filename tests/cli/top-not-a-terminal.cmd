prio-top --snapshot samples/site
