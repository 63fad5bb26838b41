tres-bill --snapshot samples/site --tres cpu=1,mem=1G,cpu=2
