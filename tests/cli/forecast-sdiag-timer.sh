#!/bin/sh
# SPDX-License-Identifier: MIT
# sdiag's last backfill cycle (the snapshot's sdiag.txt, which prio-snap
# captures with the queue) puts the forecast's backfill passes on
# slurmctld's timer: live run 26 (24.11, bf_interval=5).  Its log shows the
# cycles 5 s apart from the one sdiag names (21:49:31, 593 us) through the
# drain.  Fill job 3 ends at 21:50:29 by its limit; slurmctld started jobs
# 7, 5 and 13 at its tick, 21:50:31, and so job 7 still held lvn3 when the
# other fill jobs ended at 21:51:29.  With the timer ours does the same and
# the whole live verdict passes; without sdiag.txt (a pass at the first
# event after bf_interval) the jobs start at 21:50:29 and job 6 a minute
# early, and our mean error grows from about 1 s to about 14 s.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/oracle/forecast-24.11-run26
grep -qxF '	Last cycle when: Sun Dec 06 21:49:31 2026 (1796593771)' "$d/snap/sdiag.txt" ||
	{ echo "run 26's sdiag.txt is not the captured one"; exit 1; }
# the log's cycles: one at the second sdiag names, then every 5 s
ticks=$(grep '_attempt_backfill: beginning' "$d/slurmctld-prio.log" | cut -c2-20 |
	while read -r t; do date -u -d "$t" +%s; done)
echo "$ticks" | grep -qx 1796593771 || { echo "the log has no cycle at 21:49:31"; exit 1; }
echo "$ticks" | awk 'NR > 1 && $1 - p != 5 && $1 - p != 6 { bad++ } { p = $1 }
	END { exit bad > 3 }' || { echo "the log's cycles are not 5 s apart"; exit 1; }

# --check names the timer the forecast takes: 21:49:31 + 0 s + 5 s
prio-calc --snapshot "$d/snap" --check -P 2>&1 |
	grep -qxF "clock|backfill timer||passes at 2026-12-06T21:49:36 (1796593776) and every 5 s: sdiag's last cycle 2026-12-06T21:49:31 (1796593771), 593 us" ||
	{ echo "--check does not name the timer:"; prio-calc --snapshot "$d/snap" --check -P 2>&1 | grep '^clock'; exit 1; }

# shellcheck source=../live/forecast.sh
. "$top_srcdir/tests/live/forecast.sh"
judge() { # DIR -> mean error of ours, verdict in DIR/judge
	prio-calc --snapshot "$1/snap" --forecast -P >"$1/ours.txt" || exit 1
	forecast_replay_judge "$1"
	forecast_replay_mean "$1"
}
cp -r "$d" "$tmp/with"
mean=$(judge "$tmp/with")
grep -q '^live: ok forecast: no worse than Slurm' "$tmp/with/judge" ||
	{ echo "the live verdict fails with sdiag's timer:"; cat "$tmp/with/judge"; exit 1; }
grep -q '^7|batch|pllive2|2026-12-06T21:50:31|' "$tmp/with/ours.txt" &&
	grep -q '^6|batch|pllive6|2026-12-06T21:52:29|' "$tmp/with/ours.txt" ||
	{ echo "jobs 7 and 6 not at Slurm's tick:"; cat "$tmp/with/ours.txt"; exit 1; }
awk -v m="$mean" 'BEGIN { exit !(m <= 2) }' || { echo "mean error $mean s with the timer, expected at most 2"; exit 1; }
cp -r "$d" "$tmp/without"
rm "$tmp/without/snap/sdiag.txt"
mean0=$(judge "$tmp/without")
awk -v m="$mean0" 'BEGIN { exit !(m >= 10) }' ||
	{ echo "mean error $mean0 s without sdiag.txt: the timer no longer matters here?"; exit 1; }
echo "forecast-sdiag-timer: mean error ${mean} s with sdiag's timer, ${mean0} s without"
exit 0
