prio-top --snapshot samples/site --once --size 80x24 -s user -p short --filter o
