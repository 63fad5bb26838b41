#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill's reports stream the folder's sacct.txt (issue 17): each record
# folded into the sums and dropped.  Accounting on standard input is read
# whole, as before: every report, series and decayed sums are the same
# bytes both ways, and so are the reports' doubts (a row listed twice,
# under --keep-going: the same warning and the same sums without it).
set -u
s=samples/site
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
both() { # report arguments
	n=$((n + 1))
	tres-bill --snapshot "$s" "$@" >"$t/a" 2>"$t/ae"
	ra=$?
	tres-bill --snapshot "$s" --sacct - "$@" <"$s/sacct.txt" >"$t/b" 2>"$t/be"
	rb=$?
	# the file's name is (stdin) there
	sed "s|$s/sacct.txt|(stdin)|" "$t/ae" >"$t/ae2" && mv "$t/ae2" "$t/ae"
	[ $ra = 0 ] && [ -s "$t/a" ] || { echo "case $n: exit $ra or no output"; cat "$t/ae"; exit 1; }
	[ $ra = $rb ] && cmp -s "$t/a" "$t/b" && cmp -s "$t/ae" "$t/be" ||
		{ echo "case $n ($*): streamed and whole differ"; diff "$t/a" "$t/b" | head; diff "$t/ae" "$t/be" | head; exit 1; }
}
both -t minutes cluster Utilization start=2026-11-21 end=2026-11-23
both --by day --csv -t minutes cluster UserUtilizationByAccount users=alice,bob start=2026-11-21 end=2026-11-23
both -T billing --decayed -t seconds -P user TopUsage TopCount=3 group start=2026-11-22T03:00 end=2026-11-22T04:00
both --json -T ALL -t hours cluster AccountUtilizationByUser tree start=2026-11-20 end=2026-11-23
both --by week -t percent cluster Utilization start=2026-11-01 end=2026-11-23
both --slurm-version 25.05 -P cluster AccountUtilizationByUser accounts=physics start=2026-11-21T00:30 end=2026-11-22T05:10
# a row listed twice: streamed, the doubt goes to the whole load
cp -r "$s" "$t/dup" && sed -n 2p "$s/sacct.txt" >>"$t/dup/sacct.txt" || exit 1
s=$t/dup
both --keep-going -P user TopUsage start=2026-11-20 end=2026-11-23
grep -q 'listed twice' "$t/ae" || { echo "no warning for the row listed twice"; cat "$t/ae"; exit 1; }
