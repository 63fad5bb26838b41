#!/bin/sh
# SPDX-License-Identifier: MIT
# --at moves usage from Slurm's last priority calculation, not from NOW:
# sshare's RawUsage is what that calculation stored, and at the next one
# slurmctld decays it for the time since and charges each running job
# from it ("ran for 60 seconds" in its log).  Judged by slurmctld's own
# log of two kept live runs (tests/oracle/forecast-*/slurmctld-prio.log,
# DebugFlags=Priority): at the first calculation after the capture, before
# any job starts or ends, each association's "raw usage is now" is what
# fstree-show --at that instant prints as RawUsage (sshare truncates it;
# ours starts from sshare -P's truncated RawUsage, so one unit below is
# allowed).  The same instant's priorities from prio-calc --at are the
# logged ones.  Counting from NOW instead left root 158 units short on
# 24.11 (3639 for 3797).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

# check NAME CALC: the calculation at CALC (UTC) of tests/oracle/NAME
check() {
	d=$top_srcdir/tests/oracle/$1 calc=$2
	t=$(TZ=UTC date -d "$calc" +%s)
	log=$d/slurmctld-prio.log
	# nothing starts or ends between the capture and the calculation
	# (timestamps as text: same format, so they sort as times)
	nowiso=$(TZ=UTC date -d "@$(cat "$d/NOW")" +%Y-%m-%dT%H:%M:%S)
	awk -v from="$nowiso" -v to="$calc" '/Allocate|done/ {
			s = substr($1, 2, 19); if (s >= from && s < to) bad = 1
		} END { exit bad }' "$log" ||
		fail "$1: a job starts or ends between NOW and $calc: not a clean check"
	# Slurm: the last value of each association at that second
	grep "^\[${calc}\..*raw usage is now" "$log" |
		sed 's/.*assoc [0-9]* (\([^/]*\)\/\([^/]*\)\/.*raw usage is now \([0-9.]*\)\..*/\1 \2 \3/' |
		awk '{ if ($2 == "(null)") $2 = ""; v[$1 "|" $2] = $3 }
		     END { for (k in v) print k "|" v[k] }' | sort >"$tmp/slurm"
	[ -s "$tmp/slurm" ] || fail "$1: no usage logged at $calc"
	fstree-show --snapshot "$d/snap" --at "$t" -a -l -P 2>"$tmp/err" |
		awk -F'|' 'NR > 1 { a = $1; sub(/^ */, "", a); print a "|" $2 "|" $5 }' |
		sort >"$tmp/ours" || fail "$1: fstree-show --at: $(cat "$tmp/err")"
	while IFS='|' read -r acct user want; do
		got=$(awk -F'|' -v a="$acct" -v u="$user" '$1 == a && $2 == u { print $3 }' "$tmp/ours")
		[ -n "$got" ] || { fail "$1: $acct/$user not in fstree-show"; continue; }
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g <= w && g >= int(w) - 1) }' ||
			fail "$1: $acct/$user RawUsage at $calc: ours $got, slurmctld $want"
	done <"$tmp/slurm"
	# priorities at the same instant: the logged ones (whole part)
	grep "^\[${calc}\..*Job [0-9]* priority:" "$log" |
		sed 's/.*Job \([0-9]*\) priority:.*= \([0-9]*\)\..*/\1 \2/' | sort -u >"$tmp/prio-slurm"
	prio-calc --snapshot "$d/snap" --at "$t" -h -o '%i %Y' 2>/dev/null |
		awk '{ print $1, $2 }' | sort -u >"$tmp/prio-ours"
	[ -s "$tmp/prio-slurm" ] && cmp -s "$tmp/prio-slurm" "$tmp/prio-ours" ||
		{ fail "$1: prio-calc --at $calc: not slurmctld's priorities"; diff "$tmp/prio-slurm" "$tmp/prio-ours" | head -5; }
}

check forecast-24.11-run22 2026-12-06T02:59:16
check forecast-22.05-run23 2026-12-06T03:16:18
exit $status
