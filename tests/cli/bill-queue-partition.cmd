tres-bill --snapshot samples/site -p big -P
