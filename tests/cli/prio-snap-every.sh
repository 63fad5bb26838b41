#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-snap --every INTERVAL (issue 16, history): a bounded loop (--count)
# against the stub Slurm commands writes one whole capture per interval,
# named by its UTC time, each with its own NOW, in order (names apart even
# when a capture overran its interval); --keep and --max-size bound the
# series; a SIGTERM ends the loop after the capture under way and leaves no
# half folder; bad values are usage errors.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
PRIO_SNAP_QUIET=1
export PATH PRIO_STUB_DIR PRIO_SNAP_QUIET
fail() { echo "$*"; ls -la "$tmp"/* 2>&1 | head -20; exit 1; }
snaps() { (cd "$1" 2>/dev/null && ls -d [0-9]*Z 2>/dev/null); }

# three captures, one second apart
prio-snap --no-sacct --no-squeue-json --every 1s --count 3 "$tmp/s" 2>"$tmp/err" ||
	fail "--every 1s --count 3: $(cat "$tmp/err")"
[ "$(snaps "$tmp/s" | wc -l)" = 3 ] || fail "expected 3 captures: $(snaps "$tmp/s")"
prev=0
for d in $(snaps "$tmp/s"); do
	now=$(cat "$tmp/s/$d/NOW")
	# the folder's name is its capture's UTC time; NOW, taken just before
	# the queue is read, is that second or a few later (a loaded machine)
	named=$(date -u -d "$(echo "$d" | sed 's/^\(....\)\(..\)\(..\)T\(..\)\(..\)\(..\)Z$/\1-\2-\3 \4:\5:\6Z/')" +%s)
	[ "$now" -ge "$named" ] && [ "$now" -le $((named + 10)) ] || fail "$d: NOW $now"
	# in order; on a loaded machine a capture may overrun its interval
	# and the next follow at once, so only the order is certain
	[ "$now" -ge "$prev" ] || fail "$d: NOW $now before the last capture's $prev"
	prev=$now
	prio-calc --snapshot "$tmp/s/$d" --check -P >"$tmp/out" || fail "$d does not load: $(cat "$tmp/out")"
	grep -qF 'count|jobs|44|' "$tmp/out" || fail "$d: not the stub's 44 jobs"
done
[ "$(readlink "$tmp/s/latest")" = "$(snaps "$tmp/s" | tail -1)" ] || fail "latest is not the newest"
ls -a "$tmp/s" | grep -q partial && fail "a partial folder stayed"

# --keep 2: four captures leave the two newest
prio-snap --no-sacct --no-squeue-json --every=1s --count=4 --keep 2 "$tmp/k" 2>"$tmp/err" ||
	fail "--keep 2: $(cat "$tmp/err")"
[ "$(snaps "$tmp/k" | wc -l)" = 2 ] || fail "--keep 2 left $(snaps "$tmp/k")"

# --max-size: one capture of fairtree-basic takes some tens of KiB; a
# bound of 1 byte keeps only the newest (with a warning that it alone is
# over), a bound of 1G keeps them all
kib=$(du -sk "$tmp/k/$(snaps "$tmp/k" | tail -1)" | cut -f1)
[ "$kib" -gt 4 ] || fail "one capture is only ${kib}K"
prio-snap --no-sacct --no-squeue-json --every 1s --count 2 --max-size 1 "$tmp/m" 2>"$tmp/err" ||
	fail "--max-size 1: $(cat "$tmp/err")"
[ "$(snaps "$tmp/m" | wc -l)" = 1 ] || fail "--max-size 1 left $(snaps "$tmp/m")"
grep -q "^prio-snap: warning: .*the newest capture alone holds [0-9]*K, more than --max-size 1$" "$tmp/err" ||
	fail "no warning for an oversized capture: $(cat "$tmp/err")"
# two captures fit in 3 of them: the third removes the oldest
prio-snap --no-sacct --no-squeue-json --every 1s --count 3 --max-size "$((kib * 5 / 2))K" "$tmp/m2" 2>"$tmp/err" ||
	fail "--max-size: $(cat "$tmp/err")"
[ "$(snaps "$tmp/m2" | wc -l)" = 2 ] || fail "--max-size $((kib * 5 / 2))K left $(snaps "$tmp/m2")"

# SIGTERM during the loop: the capture under way finishes, the loop ends,
# no half folder; exit 0
prio-snap --no-sacct --no-squeue-json --every 1h "$tmp/t" 2>"$tmp/err" &
pid=$!
i=0
while [ "$(snaps "$tmp/t" | wc -l)" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] || fail "SIGTERM: exit $rc: $(cat "$tmp/err")"
[ "$(snaps "$tmp/t" | wc -l)" = 1 ] || fail "SIGTERM left $(snaps "$tmp/t")"
ls -a "$tmp/t" | grep -q partial && fail "SIGTERM left a partial folder"

# a capture killed half way (a hung controller hit by --timeout): the loop
# goes on, nothing of it stays, the exit status says it
PRIO_STUB_HANG_SCONTROL=1 prio-snap --timeout 1 --every 1s --count 2 "$tmp/h" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "failed captures: exit $rc"
[ "$(grep -c 'no answer after 1 seconds' "$tmp/err")" = 2 ] || fail "expected two failures: $(cat "$tmp/err")"
[ -z "$(snaps "$tmp/h")" ] && ! ls -a "$tmp/h" | grep -q partial || fail "a failed capture left something"

# bad values: one line, exit 2
for args in "--every 0" "--every 5x" "--every m" "--every 1m5" "--every ''" \
	"--count 3" "--every 1s --count 0" "--every 1s --count x" \
	"--max-size 0" "--max-size 5Q" "--max-size M"; do
	eval "prio-snap $args \"\$tmp/x\"" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q "^prio-snap: --[a-z-]*: expected\|^prio-snap: --count goes with --every" "$tmp/err" ||
		fail "prio-snap $args: exit $rc: $(cat "$tmp/err")"
done
[ -e "$tmp/x" ] && fail "a refused run created its folder"
exit 0
