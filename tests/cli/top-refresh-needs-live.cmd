prio-top --snapshot samples/site --once --refresh 5
