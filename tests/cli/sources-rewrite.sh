#!/bin/sh
# SPDX-License-Identifier: MIT
# Sources rewritten while they are read (issue 13): a writer rewrites
# jobs.txt in place (truncate, a pause mid-line, the rest: a slow cp) and by
# rename, over and over, while prio-calc reads the folder.  Every run must
# exit 0 with the whole queue or 2 with one error line: never a signal
# (SIGBUS was exit 135 when files were mapped), never a partial or empty
# table with exit 0; prio-top -b alive, showing the whole queue in every
# frame.  Bounded: about 4 seconds.
set -u
. tests/cli/rewrite-race.lib
tmp=$(mktemp -d) && trap 'kill $writer $top 2>/dev/null; rm -rf "$tmp"' EXIT
writer= top=
d=tests/cli/readers-data/slurm-24.11
cp -r "$d" "$tmp/snap"
jobs="$tmp/snap/jobs.txt"
cp "$jobs" "$tmp/jobs.full"
want=$(prio-calc --snapshot "$tmp/snap" -h | wc -l)
[ "$want" -gt 0 ] || { echo "no rows to begin with"; exit 1; }
pending=$(prio-top --snapshot "$tmp/snap" --once --size 100x10 | grep -o 'jobs [0-9]* pending')
[ -n "$pending" ] || { echo "prio-top --once shows no pending count"; exit 1; }
# prio-top follows the same folder the whole time: alive, each frame with
# the whole queue (a failed reload keeps the last good data).  Its first
# load comes before the writer starts: with no good data yet, a failed
# first load is an error, and right to be.
prio-top --snapshot "$tmp/snap" -b -d 0.05 -n 60 --size 100x10 >"$tmp/top" 2>"$tmp/toperr" &
top=$!
i=0
while [ ! -s "$tmp/top" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
: >"$tmp/want.err"
rewrite_race "$tmp/snap" "$tmp/jobs.full" 4 "$want" "$tmp/want.err"
fail=$?
wait $top
rc=$? top=
frames=$(grep -c 'pending' "$tmp/top")
whole_frames=$(grep -c "$pending" "$tmp/top")
if [ $rc != 0 ] || [ "$frames" = 0 ] || [ "$frames" != "$whole_frames" ]; then
	echo "FAIL: prio-top -b: exit $rc, $whole_frames of $frames frames with $pending"
	head -3 "$tmp/toperr"
	fail=1
fi
[ $race_runs -gt 0 ] || { echo "no run"; exit 1; }
echo "$race_runs runs: $race_whole whole, $race_refused refused"
exit $fail
