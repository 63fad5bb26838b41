tres-bill --snapshot samples/site --json -t percent --up-since 2026-11-22T03:37:12 job SizesByAccount grouping=2,4,8 accounts=physics,bio start=2026-11-22T03:00 end=2026-11-22T04:00
