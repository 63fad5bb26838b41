tres-bill --snapshot samples/site -t fortnights cluster utilization
