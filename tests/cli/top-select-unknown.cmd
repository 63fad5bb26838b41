prio-top --snapshot samples/site --once --select 999
