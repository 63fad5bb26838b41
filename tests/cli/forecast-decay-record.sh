#!/bin/sh
# SPDX-License-Identifier: MIT
# slurmctld's record of its last priority calculation (the snapshot's
# priority_last_decay_ran, which prio-snap copies from StateSaveLocation)
# puts the forecast's calculations in the controller's phase where the
# stored priorities cannot: live run 24 (22.05, PriorityWeightAge=0, no
# factor moves with the clock).  Its capture predates the copy, so the
# record is written here from the run's own slurmctld log: the decay
# cycle's last start before NOW (06:38:23.904, whole seconds as slurmctld
# stores it).  Slurm then swapped jobs 12 and 15 at 06:40:23, once job 8
# had run 48 s; with calculations at NOW + 30 s + k min (the phase
# unknown) ours came at 06:40:00, before the swap, and started 12 first.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/oracle/forecast-22.05-run24
now=$(cat "$d/NOW")
last=$(sed -n 's/^\[\([0-9T:-]*\)\.[0-9]*\] .*_decay_thread: PRIO: Decay factor.*/\1/p' "$d/slurmctld-prio.log" |
	while read -r t; do s=$(date -u -d "$t" +%s); [ "$s" -le "$now" ] && echo "$s"; done | tail -1)
[ "$last" = 1796539103 ] || { echo "log's last calculation before NOW: '$last', expected 1796539103 (06:38:23)"; exit 1; }
# two times packed as Slurm packs them: 8 bytes each, most significant first
be64() {
	b=""
	for k in 56 48 40 32 24 16 8 0; do
		b="$b$(printf '\\%03o' $((($1 >> k) & 255)))"
	done
	printf '%s' "$b"
}
cp -r "$d" "$tmp/run"
printf "$(be64 "$last")$(be64 "$last")" >"$tmp/run/snap/priority_last_decay_ran"
[ "$(wc -c <"$tmp/run/snap/priority_last_decay_ran")" = 16 ] || { echo "record not 16 bytes"; exit 1; }
prio-calc --snapshot "$tmp/run/snap" --check -P >"$tmp/check" 2>&1
grep -qxF "clock|last calculation||2026-12-06T06:38:23 (1796539103), slurmctld's record of it (priority_last_decay_ran), where 9 of 9 pending jobs' stored priorities agree" "$tmp/check" ||
	{ echo "--check does not take the record:"; grep -i calc "$tmp/check"; exit 1; }
prio-calc --snapshot "$tmp/run/snap" --forecast -P >"$tmp/run/ours.txt" || exit 1
# 15 before 12, as slurmctld started them (06:40:35, 06:42:34)
grep -q '^15|batch|pllive3|2026-12-06T06:40:35|' "$tmp/run/ours.txt" &&
	grep -q '^12|batch|pllive4|2026-12-06T06:42:35|' "$tmp/run/ours.txt" ||
	{ echo "15 and 12 not in Slurm's order:"; cat "$tmp/run/ours.txt"; exit 1; }
# and the live step's whole verdict (error no worse than Slurm's estimate,
# every start in reality's order)
# shellcheck source=../live/forecast.sh
. "$top_srcdir/tests/live/forecast.sh"
forecast_replay_judge "$tmp/run" ||
	{ echo "the live verdict fails:"; cat "$tmp/run/judge"; exit 1; }
grep '^live: forecast error' "$tmp/run/judge"
# The record as prio-snap copied it on a real 24.11 cluster (live run 25,
# PriorityWeightAge=0 too): taken, and the instant of its log's first
# decay cycle, 7 s before NOW.
d25=$top_srcdir/tests/oracle/forecast-24.11-run25
[ "$(od -An -tx1 "$d25/snap/priority_last_decay_ran" | tr -d ' \n')" = 000000006b15a055000000006b15a019 ] ||
	{ echo "run 25's record is not the captured one"; exit 1; }
grep -q '^\[2026-12-06T17:50:13\.[0-9]*\] .*_decay_thread: PRIO: Decay factor' "$d25/slurmctld-prio.log" ||
	{ echo "run 25's log has no cycle at 17:50:13"; exit 1; }
prio-calc --snapshot "$d25/snap" --check -P 2>&1 |
	grep -qxF "clock|last calculation||2026-12-06T17:50:13 (1796579413), slurmctld's record of it (priority_last_decay_ran), where 9 of 9 pending jobs' stored priorities agree" ||
	{ echo "run 25: --check does not take the captured record:"; prio-calc --snapshot "$d25/snap" --check -P 2>&1 | grep -i calc; exit 1; }
exit 0
