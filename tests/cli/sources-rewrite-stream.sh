#!/bin/sh
# SPDX-License-Identifier: MIT
# sources-rewrite.sh for a jobs file large enough to be streamed (4 MiB and
# more: read a run at a time, not whole): a writer rewrites it in place
# (truncate, a pause mid-line, the rest), by rename, and emptied then
# copied, over and over, while prio-calc reads the folder.  Every run must
# exit 0 with the whole queue or 2 with one error line: a stream that read
# part of one version and part of another, or a cut file, must never give
# a table.  Bounded: about 3 seconds.
set -u
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
half=$((size / 2))
cut=$((half + $(tail -c +$((half + 1)) "$jobs" | head -1 | wc -c) + 10))
end=$(($(date +%s) + 3))
(
	while [ "$(date +%s)" -lt "$end" ]; do
		{ head -c $cut "$tmp/jobs.full"; sleep 0.01
		  tail -c +$((cut + 1)) "$tmp/jobs.full"; } >"$jobs"
		cp "$tmp/jobs.full" "$tmp/snap/.jobs.new" &&
			mv "$tmp/snap/.jobs.new" "$jobs"
		: >"$jobs"
		cp "$tmp/jobs.full" "$jobs"
	done
) &
writer=$!
runs=0 whole=0 refused=0 fail=0
while [ "$(date +%s)" -lt "$end" ]; do
	prio-calc --snapshot "$tmp/snap" -h >"$tmp/out" 2>"$tmp/err"
	rc=$?
	runs=$((runs + 1))
	rows=$(wc -l <"$tmp/out")
	lines=$(wc -l <"$tmp/err")
	if [ $rc = 0 ] && [ "$rows" = "$want" ] && cmp -s "$tmp/err" "$tmp/want.err"; then
		whole=$((whole + 1))
	elif [ $rc = 2 ] && [ "$rows" = 0 ] && [ "$lines" = 1 ]; then
		refused=$((refused + 1))
	else
		echo "FAIL: run $runs: exit $rc, $rows rows (want $want), stderr:"
		head -3 "$tmp/err"
		fail=1
	fi
done
wait $writer
writer=
[ $whole -gt 0 ] || { echo "no whole run in $runs"; fail=1; }
echo "$runs runs: $whole whole, $refused refused"
exit $fail
