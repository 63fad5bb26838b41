#!/bin/sh
# SPDX-License-Identifier: MIT
# A 20,000-job queue on real Slurm 22.05 (tests/oracle/scale-queue-2205):
# prio-calc -l with no --now prints sprio -l row for row, and the clock it
# finds in the stored priorities is the second Slurm's last calculation
# began (its "Decay factor" line), not the second its per-job lines ended,
# two seconds later: reading that one put AGE 2 points off on 11% of rows.
set -u
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
xz -dc tests/oracle/scale-queue-2205/capture.tar.xz | tar xf - -C "$t" || exit 2
cap=$(date -u -d "@$(cat "$t/NOW")" +%Y-%m-%dT%H:%M:%S)
clock=$(awk -v cap="$cap" 'substr($1, 2, 19) <= cap { d = substr($1, 2, 19) } END { print d }' "$t/decay.log")
[ "$clock" = 2026-11-26T16:43:26 ] || { echo "decay.log: last calculation $clock"; exit 1; }
prio-calc --snapshot "$t/snap" -l >"$t/ours.txt" 2>"$t/err" || { cat "$t/err"; exit 1; }
[ ! -s "$t/err" ] || { echo "unexpected stderr:"; head -3 "$t/err"; exit 1; }
sort "$t/ours.txt" >"$t/a"
sort "$t/sprio_l.txt" >"$t/b"
if ! cmp -s "$t/a" "$t/b"; then
	echo "prio-calc -l differs from sprio -l on $(diff "$t/a" "$t/b" | grep -c '^>') of $(wc -l <"$t/b") rows"
	diff "$t/a" "$t/b" | head -6
	exit 1
fi
[ "$(wc -l <"$t/b")" = 20221 ] || { echo "sprio_l.txt: $(wc -l <"$t/b") lines"; exit 1; }
found=$(prio-calc --snapshot "$t/snap" --check -P | grep '^clock|last calculation|')
case $found in
"clock|last calculation||$clock ("*"19798 of 19798 pending jobs"*) ;;
*) echo "clock found: $found, Slurm's: $clock"; exit 1 ;;
esac
# the last per-job line's second, as a clock, is 1 to 2 points of AGE off
prio-calc --snapshot "$t/snap" -l --now 2026-11-26T16:43:28 | sort >"$t/c"
n=$(diff "$t/c" "$t/b" | grep -c '^>')
[ "$n" -gt 20000 ] || { echo "the late clock matches too well ($n rows differ): the test proves nothing"; exit 1; }
