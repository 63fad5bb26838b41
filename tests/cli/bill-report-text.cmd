tres-bill --snapshot samples/site -t hourper -T billing,cpu --up-since 2026-11-22T03:37:12 cluster utilization start=2026-11-22T03:00 end=2026-11-22T04:00
