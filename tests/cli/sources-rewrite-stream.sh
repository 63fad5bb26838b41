#!/bin/sh
# SPDX-License-Identifier: MIT
# sources-rewrite.sh for a jobs file large enough to be streamed (4 MiB and
# more: read a run at a time, not whole): the races of rewrite-race.lib.
# Every run must exit 0 with the whole queue or 2 with one error line: a
# stream that read part of one version and part of another, or a cut file,
# must never give a table; and some runs are whole.  Bounded: about 3
# seconds.
set -u
. tests/cli/rewrite-race.lib
tmp=$(mktemp -d) && trap 'kill $writer 2>/dev/null; rm -rf "$tmp"' EXIT
writer=
"$top_builddir/tests/bench/gen" S "$tmp/snap" >/dev/null || { echo "gen failed"; exit 2; }
jobs="$tmp/snap/jobs.txt"
# a Comment= of a kilobyte on every line: the generator's S is 2.5 MB
pad=$(printf '%01000d' 0)
sed "s/\$/ Comment=$pad/" "$jobs" >"$tmp/jobs.full"
cp "$tmp/jobs.full" "$jobs"
size=$(wc -c <"$jobs")
[ "$size" -ge 4194304 ] || { echo "jobs.txt is $size bytes, not streamed"; exit 1; }
# (the generator's snapshot has a warning of its own: a whole run has it)
want=$(prio-calc --snapshot "$tmp/snap" -h 2>"$tmp/want.err" | wc -l)
[ "$want" -gt 1000 ] || { echo "$want rows to begin with"; exit 1; }
rewrite_race "$tmp/snap" "$tmp/jobs.full" 3 "$want" "$tmp/want.err"
fail=$?
[ $race_whole -gt 0 ] || { echo "no whole run in $race_runs"; fail=1; }
echo "$race_runs runs: $race_whole whole, $race_refused refused"
exit $fail
