prio-top --snapshot samples/no-such-folder --once
