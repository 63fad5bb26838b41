tres-bill --snapshot samples/site -T billing --decayed -t seconds -P user TopUsage TopCount=3 group start=2026-11-22T03:00 end=2026-11-22T04:00
