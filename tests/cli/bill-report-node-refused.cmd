tres-bill --snapshot samples/site -T cpu,node cluster utilization start=2026-11-22T03:00
