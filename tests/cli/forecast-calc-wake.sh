#!/bin/sh
# SPDX-License-Identifier: MIT
# A priority calculation wakes the backfill timer: slurmctld's decay
# thread marks the pending jobs changed when it stores their priorities,
# and the backfill thread runs at its next tick even when nothing else
# moved.  Live run 34 (24.11, bf_interval=5, PriorityCalcPeriod 1 min):
# the calculation at 12:59:43 put job 42 (short, 4 CPUs, 1 minute) above
# jobs 37 and 40, whose reservations had held lvn4 over its run; the cycle
# at 12:59:44 started it there, beside job 39.  A forecast that waits for
# the next end instead starts it at 13:00:36 by the main scheduler.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/oracle/forecast-24.11-run34
grep -q '^\[2026-12-07T12:59:43\.[0-9]*\] priority/multifactor: _get_priority_internal: Job 42 priority: ' "$d/slurmctld-prio.log" &&
	grep -q '^\[2026-12-07T12:59:44\.[0-9]*\] sched/backfill: _start_job: Started JobId=42 in short on lvn4$' "$d/slurmctld-prio.log" ||
	{ echo "run 34's log does not show the calculation and the start"; exit 1; }
# nothing ended between the cycle before and the start
awk '/12:59:3[5-9]|12:59:4[0-4]/ && /_job_complete/ { n++ } END { exit n > 0 }' "$d/slurmctld-prio.log" ||
	{ echo "a job ended before job 42's start in run 34's log"; exit 1; }

prio-calc --snapshot "$d/snap" --forecast -P >"$tmp/ours.txt" 2>/dev/null || exit 1
grep -q '^42|short|pllive4|2026-12-07T12:59:44|2026-12-07T13:00:44|lvn4|backfill|' "$tmp/ours.txt" ||
	{ echo "job 42 not backfilled at the tick after the calculation:"; cat "$tmp/ours.txt"; exit 1; }

# shellcheck source=../live/forecast.sh
. "$top_srcdir/tests/live/forecast.sh"
cp "$d/NOW" "$d/slurm_estimates.txt" "$d/sacct.txt" "$tmp/"
forecast_replay_judge "$tmp" ||
	{ echo "run 34's live verdict fails:"; cat "$tmp/judge"; exit 1; }
mean=$(forecast_replay_mean "$tmp")
awk -v m="$mean" 'BEGIN { exit !(m <= 13) }' || { echo "run 34: mean error $mean s, expected at most 13"; cat "$tmp/judge"; exit 1; }
echo "forecast-calc-wake: run 34's mean error ${mean} s"
exit 0
