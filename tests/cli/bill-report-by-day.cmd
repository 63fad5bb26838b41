tres-bill --snapshot samples/site --by day --csv -t minutes cluster UserUtilizationByAccount users=alice,bob start=2026-11-21 end=2026-11-23
