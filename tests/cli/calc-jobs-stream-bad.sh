#!/bin/sh
# SPDX-License-Identifier: MIT
# Bad input in a jobs file large enough to be streamed (4 MiB and more):
# the stream gives up and the whole load words it, as for a small file.
# A bad Priority on line 1500 is one file:line error and exit 2, no table;
# with --keep-going a warning at that line and every other job's row; a
# cut last line is refused at its line.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/bench/gen" S "$tmp/snap" >/dev/null || { echo "gen failed"; exit 2; }
jobs="$tmp/snap/jobs.txt"
# a Comment= of a kilobyte on every line: the generator's S is 2.5 MB
pad=$(printf '%01000d' 0)
sed "s/\$/ Comment=$pad/" "$jobs" >"$tmp/jobs.good"
[ "$(wc -c <"$tmp/jobs.good")" -ge 4194304 ] || { echo "not large enough to be streamed"; exit 1; }
cp "$tmp/jobs.good" "$jobs"
want=$(prio-calc --snapshot "$tmp/snap" -h 2>/dev/null | wc -l)
grep -q '^JobId=[0-9]* .*JobState=PENDING' "$tmp/jobs.good" || { echo "no pending job"; exit 1; }
# line 1500 is a pending job's (the generator lists the pending first)
sed -n 1500p "$tmp/jobs.good" | grep -q 'JobState=PENDING' || { echo "line 1500 not pending"; exit 1; }
awk 'NR == 1500 { sub(/ Priority=[0-9]+/, " Priority=12x") } 1' "$tmp/jobs.good" >"$jobs"
fail=0
prio-calc --snapshot "$tmp/snap" -h >"$tmp/out" 2>"$tmp/err"
rc=$?
msg="prio-calc: $jobs:1500: Priority: expected an unsigned integer, got \"12x\""
if [ $rc != 2 ] || [ -s "$tmp/out" ] || [ "$(cat "$tmp/err")" != "$msg" ]; then
	echo "FAIL: bad Priority: exit $rc, $(wc -l <"$tmp/out") rows, stderr:"; cat "$tmp/err"; fail=1
fi
prio-calc --snapshot "$tmp/snap" -h --keep-going >"$tmp/out" 2>"$tmp/err"
rc=$?
rows=$(wc -l <"$tmp/out")
if [ $rc != 0 ] || [ "$rows" != $((want - 1)) ] ||
	! grep -qxF "prio-calc: warning: $jobs:1500: Priority: expected an unsigned integer, got \"12x\"" "$tmp/err"; then
	echo "FAIL: --keep-going: exit $rc, $rows rows (want $((want - 1))), stderr:"; cat "$tmp/err"; fail=1
fi
# cut in the middle of the last line
lines=$(wc -l <"$tmp/jobs.good")
head -c $(($(wc -c <"$tmp/jobs.good") - 500)) "$tmp/jobs.good" >"$jobs"
prio-calc --snapshot "$tmp/snap" -h >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 2 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
	! grep -q "^prio-calc: $jobs:$lines: the last record is cut" "$tmp/err"; then
	echo "FAIL: cut last line: exit $rc, $(wc -l <"$tmp/out") rows, stderr:"; cat "$tmp/err"; fail=1
fi
exit $fail
