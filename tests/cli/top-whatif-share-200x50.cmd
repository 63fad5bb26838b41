prio-top --snapshot samples/site --once --size 200x50 --change assoc:hep.Fairshare=400 -s -moved
