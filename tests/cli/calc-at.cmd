prio-calc --snapshot samples/site --at 2026-11-22T05:00:00 -p batch -o "%.4i %.5A %.6F %.6Y"
