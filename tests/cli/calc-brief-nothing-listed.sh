#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc --brief where the filters leave none of the user's pending
# jobs (-j naming a running one): nothing on stdout ('[]' in JSON), the
# note, exit 0, and no forecast run: one that watched nothing ran until
# the whole queue had started (the generator's S size, 2000 pending jobs:
# about 10 s here, unbounded on a site's queue), now it takes as long as
# the load (bounded at 5 s to leave sanitizers room).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }
"$top_builddir/tests/bench/gen" S "$tmp/s" || { echo "gen failed"; exit 2; }
# a running job and its user, who has pending jobs too
set -- $(awk '/JobState=RUNNING/ {
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^JobId=/) id = substr($i, 7)
		if ($i ~ /^UserId=/) { u = substr($i, 8); sub(/\(.*/, "", u) }
	}
	print id, u; exit }' "$tmp/s/jobs.txt")
job=$1 user=$2
grep -q "UserId=$user(.*JobState=PENDING" "$tmp/s/jobs.txt" || { echo "no pending job of $user"; exit 2; }
for fmt in "" --json; do
	timeout 5 prio-calc --snapshot "$tmp/s" --brief -u "$user" -j "$job" $fmt >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 124 ] && { fail "--brief -u $user -j $job $fmt: still running after 5 s"; continue; }
	[ $rc = 0 ] || fail "--brief -u $user -j $job $fmt: exit $rc: $(cat "$tmp/err")"
	grep -q "^prio-calc: note: no pending job of $user in the snapshot$" "$tmp/err" ||
		fail "$fmt: no note: $(cat "$tmp/err")"
	if [ -n "$fmt" ]; then
		[ "$(cat "$tmp/out")" = "[]" ] || fail "--json: $(cat "$tmp/out")"
	else
		[ -s "$tmp/out" ] && fail "rows: $(cat "$tmp/out")"
	fi
done
# the same user's pending jobs still get their forecast start
pend=$(awk -v u="$user" '$0 ~ "UserId=" u "\\(" && /JobState=PENDING/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^JobId=/) { print substr($i, 7); exit } }' "$tmp/s/jobs.txt")
prio-calc --snapshot "$tmp/s" --brief -u "$user" -j "$pend" -P -h --forecast-until 2026-11-22T05:00:00 >"$tmp/out" 2>/dev/null ||
	fail "--brief -j $pend: exit $?"
[ "$(cut -d'|' -f1 "$tmp/out")" = "$pend" ] || fail "--brief -j $pend: $(cat "$tmp/out")"
exit $status
