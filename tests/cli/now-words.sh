#!/bin/sh
# SPDX-License-Identifier: MIT
# --now takes what a user types at a terminal: "now" is the wall clock,
# "now-2hours" counts back from it, and an ISO time with Z or an offset is
# absolute (issue 16).  --check says which clock each one set.
set -u
s=tests/oracle/fairtree-basic
clock() { prio-calc --snapshot "$s" --now "$1" --check -P | awk -F'|' '$1 == "clock" && $2 == "now" { print $4 }' | sed 's/.*(\([0-9]*\)).*/\1/'; }
# rel WORD SECONDS: --now WORD is the wall clock less SECONDS, read
# between two readings of the wall clock around the call
rel() {
	t0=$(date +%s)
	n=$(clock "$1")
	t1=$(date +%s)
	[ -n "$n" ] && [ "$n" -ge $((t0 - $2)) ] && [ "$n" -le $((t1 - $2)) ] ||
		{ echo "--now $1: $n, wall clock $t0..$t1 less $2"; exit 1; }
}
rel now 0
rel now-2hours 7200
rel NOW-90minutes 5400
rel now-90m 5400
# absolute forms: the same instant however it is written
[ "$(clock 2026-11-22T03:55:30Z)" = 1795319730 ] || { echo "Z: $(clock 2026-11-22T03:55:30Z)"; exit 1; }
[ "$(clock 2026-11-22T04:55:30+01:00)" = 1795319730 ] || { echo "+01:00: $(clock 2026-11-22T04:55:30+01:00)"; exit 1; }
[ "$(clock 1795319730)" = 1795319730 ] || exit 1
# and tres-bill reads the same words
tres-bill --snapshot "$s" --now now-1hour --tres cpu=4 -P >/dev/null || { echo "tres-bill --now now-1hour refused"; exit 1; }
