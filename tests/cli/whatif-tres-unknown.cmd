tres-bill --snapshot samples/site --tres bogus=1
