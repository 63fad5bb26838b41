prio-top --snapshot samples/site --once --sort colour
