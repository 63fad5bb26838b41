tres-bill --snapshot samples/site --tres cpu=1 -P --json
