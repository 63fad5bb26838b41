tres-bill --snapshot samples/site cluster utilization start=yesterdayish
