LC_ALL=C.UTF-8 prio-top --snapshot samples/site --once --size 200x50 --view tree --select hep
