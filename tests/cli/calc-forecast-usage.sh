#!/bin/sh
# SPDX-License-Identifier: MIT
# The forecast moves usage with simulated time (issue 15): at NOW job 28
# (dave) is ahead of job 34 (ivan) in samples/site's partition big, but the
# usage dave's running jobs 16 and 17 charge, and ivan's decaying, put job
# 34 ahead by 05:43 (what --at computes for that instant, independently of
# the forecast's queue), so the main scheduler starts job 34 on ftn3 when
# job 22 ends there, before job 28; with usage frozen (the snapshot's) job
# 28 stays ahead and job 34 could only have been backfilled.
set -u
s=samples/site
fail=0
pri() { prio-calc --snapshot "$s" "$@" -p big -o '%i %Y' -h 2>/dev/null | awk -v j="$J" '$1 == j { print $2 }'; }
J=28 p28=$(pri) J=34 p34=$(pri)
[ "$p28" -gt "$p34" ] || { echo "at NOW: 28 $p28, 34 $p34: 28 should be ahead"; fail=1; }
J=28 a28=$(pri --at 2026-11-22T05:43:00) J=34 a34=$(pri --at 2026-11-22T05:43:00)
[ "$a34" -gt "$a28" ] || { echo "--at 05:43: 28 $a28, 34 $a34: 34 should be ahead"; fail=1; }
row=$(prio-calc --snapshot "$s" --forecast -j 34 -P -h 2>/dev/null)
[ "$(echo "$row" | cut -d'|' -f4,6,7,10)" = "2026-11-22T05:43:21|ftn3|main|22" ] ||
	{ echo "job 34: $row"; fail=1; }
s28=$(prio-calc --snapshot "$s" --forecast -j 28 -P -h 2>/dev/null | cut -d'|' -f4)
[ "$s28" \> "2026-11-22T05:43:21" ] || { echo "job 28 starts at $s28, not after job 34"; fail=1; }
exit $fail
