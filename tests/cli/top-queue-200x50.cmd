prio-top --snapshot samples/site --once --size 200x50
