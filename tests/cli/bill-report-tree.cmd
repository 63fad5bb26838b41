tres-bill --snapshot samples/site -h -P -t s cluster AccountUtilizationByUser tree accounts=physics start=2026-11-22T03:00 end=2026-11-22T04:00
