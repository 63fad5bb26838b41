#!/bin/sh
# SPDX-License-Identifier: MIT
# fstree-show --history and prio-calc --history (issue 16) over a series
# that prio-snap --every made from the stub Slurm commands, then changed
# as a cluster changes between captures: in the second capture frank has
# used 8000 more (his accounts with him, as Slurm sums usage up the tree),
# in the third, a day later, his usage is gone; judy and her jobs, and
# frank's job 30, arrive only after the first.  Each row must be what the
# tools print for that one snapshot alone; the FAIRSHARE term of job 30 is
# PriorityWeightFairshare times frank's FairShare; the charts put each
# snapshot's value in its own band.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
PRIO_SNAP_QUIET=1
export PATH PRIO_STUB_DIR PRIO_SNAP_QUIET
fail() { echo "$*"; exit 1; }
h=$tmp/h
prio-snap --no-sacct --no-squeue-json --every 1s --count 3 "$h" 2>"$tmp/err" ||
	fail "prio-snap: $(cat "$tmp/err")"
set -- $(cd "$h" && ls -d [0-9]*Z)
[ $# = 3 ] || fail "expected 3 captures, got $*"
# fixed clocks, an hour and a day apart, each folder named after its own
# (as prio-snap names them): the same series every run, the one
# samples/series holds for the man pages' examples
t0=1795680000
k=0
for d in "$@"; do
	now=$((t0 + $(echo "0 3600 86400" | cut -d' ' -f$((k + 1)))))
	echo "$now" >"$h/$d/NOW"
	mv "$h/$d" "$h/$(date -u -d "@$now" +%Y%m%dT%H%M%SZ)"
	k=$((k + 1))
done
rm "$h/latest"
set -- $(cd "$h" && ls -d [0-9]*Z)
a=$h/$1 b=$h/$2 c=$h/$3
# add D to RawUsage (field 8 of sshare -P) of frank and his accounts
adj() {
	awk -F'|' -v d="$2" 'BEGIN { OFS = "|" }
		$2 == "frank" || ($2 == "" && ($1 == "root" || $1 == " chem" || $1 == "  orgchem")) { $8 += d }
		{ print }' "$1" >"$tmp/x" && mv "$tmp/x" "$1"
}
adj "$b/sshare.txt" 8000
adj "$c/sshare.txt" -2653
grep -v '|judy|' "$a/sshare.txt" >"$tmp/x" && mv "$tmp/x" "$a/sshare.txt"
grep -v "User - 'judy'" "$a/assoc.cfg" >"$tmp/x" && mv "$tmp/x" "$a/assoc.cfg"
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^JobId=30 / && !/UserId=judy\(/' "$a/jobs.txt" >"$tmp/x" &&
	mv "$tmp/x" "$a/jobs.txt"
# samples/series is this series (MANIFEST apart: it names prio-snap's
# version and who ran it)
diff -r -x MANIFEST "$h" "$top_srcdir/samples/series" >"$tmp/diff" ||
	fail "samples/series is not what this test makes: $(head -20 "$tmp/diff")"

# --- fstree-show --history ------------------------------------------------
fstree-show --history "$h" --user frank -P >"$tmp/fs" 2>"$tmp/err" || fail "fstree-show: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "fstree-show warned: $(cat "$tmp/err")"
[ "$(head -1 "$tmp/fs")" = "Time|NOW|User|Account|RawUsage|EffectvUsage|FairShare|LevelFS|Rank|Of|Note" ] ||
	fail "header: $(head -1 "$tmp/fs")"
[ "$(wc -l <"$tmp/fs")" = 4 ] || fail "expected 3 rows: $(cat "$tmp/fs")"
n=1
for d in "$a" "$b" "$c"; do
	n=$((n + 1))
	row=$(sed -n "${n}p" "$tmp/fs")
	now=$(cat "$d/NOW")
	# time and NOW are the snapshot's; the values are fstree-show's for
	# that snapshot alone (-l: RawUsage, EffectvUsage, FairShare, LevelFS)
	want=$(fstree-show --snapshot "$d" -u frank -l -P | awk -F'|' -v t="$(date -u -d "@$now" +%Y-%m-%dT%H:%M:%SZ)" -v now="$now" \
		'$2 == "frank" { sub(/^ */, "", $1); print t "|" now "|frank|" $1 "|" $5 "|" $7 "|" $8 "|" $9 }')
	[ "${row%|*|*|*}" = "$want" ] || fail "row $n: $row, expected $want|..."
	# the rank r of N is --tree's, and FairShare is r/N under Fair Tree
	rank=$(echo "$row" | cut -d'|' -f9) of=$(echo "$row" | cut -d'|' -f10)
	fstree-show --snapshot "$d" --tree --ascii | grep -q "frank (user).* rank $rank/$of\$" ||
		fail "row $n: rank $rank/$of is not --tree's: $(fstree-show --snapshot "$d" --tree --ascii | grep frank)"
	[ "$(awk -v r="$rank" -v n="$of" 'BEGIN { printf "%.6f", r / n }')" = "$(echo "$row" | cut -d'|' -f7)" ] ||
		fail "row $n: FairShare is not rank/N"
done
# the values move the way the usage did: low after 8000 more, up at none
[ "$(cut -d'|' -f7 "$tmp/fs" | tail -3 | tr '\n' ' ')" = "0.714286 0.066667 0.800000 " ] ||
	fail "FairShare series: $(cut -d'|' -f7 "$tmp/fs" | tr '\n' ' ')"
[ "$(sed -n 4p "$tmp/fs" | cut -d'|' -f8)" = inf ] || fail "no usage: Level FS not inf"
# a user missing from a snapshot: a row saying so, not a dropped row
fstree-show --history "$h" --user judy -P >"$tmp/j" || fail "judy"
[ "$(sed -n 2p "$tmp/j" | cut -d'|' -f3-)" = "judy||||||||not in this snapshot" ] || fail "judy's first row: $(sed -n 2p "$tmp/j")"
[ "$(wc -l <"$tmp/j")" = 4 ] || fail "judy: expected 3 rows"
# JSON: snake_case keys, numbers, null blanks, time with Z and now
fstree-show --history "$h" --user judy --json >"$tmp/json" || fail "json"
# (one object a line: the writer's layout)
[ "$(grep -c '^{' "$tmp/json")" = 3 ] || fail "json: not 3 rows: $(cat "$tmp/json")"
sed -n 2p "$tmp/json" | grep -qF '"user":"judy","account":null,"raw_usage":null,"effectv_usage":null,"fairshare":null,"level_fs":null,"rank":null,"rank_of":null,"note":"not in this snapshot"}' ||
	fail "json: judy missing: $(sed -n 2p "$tmp/json")"
sed -n 4p "$tmp/json" | grep -qxF "{\"time\":\"$(date -u -d "@$(cat "$c/NOW")" +%Y-%m-%dT%H:%M:%SZ)\",\"now\":$(cat "$c/NOW"),\"user\":\"judy\",\"account\":\"genomics\",\"raw_usage\":0,\"effectv_usage\":0.0,\"fairshare\":0.2,\"level_fs\":\"inf\",\"rank\":3,\"rank_of\":15,\"note\":null}" ||
	fail "json: judy's last row: $(sed -n 4p "$tmp/json")"
# a pipe gets the table only; a terminal the table, then the charts
# (script(1) gives it one), --table only the table
fstree-show --history "$h" --user frank | grep -q '^FairShare of' && fail "a chart in a pipe"
if command -v script >/dev/null 2>&1; then
	COLUMNS=64 script -qc "fstree-show --history '$h' --user frank" /dev/null | tr -d '\r' >"$tmp/tty"
	[ "$(sed -n 4p "$tmp/tty" | cut -d' ' -f1)" = "$(date -u -d "@$(cat "$b/NOW")" +%Y-%m-%dT%H:%M:%SZ)" ] &&
		grep -qx 'FairShare of frank, 3 snapshots' "$tmp/tty" && grep -qx 'Level FS of frank' "$tmp/tty" ||
		fail "a terminal: $(cat "$tmp/tty")"
	COLUMNS=64 script -qc "prio-calc --history '$h' -j 30 --table" /dev/null | grep -q '^PRIORITY of' &&
		fail "--table drew a chart"
	COLUMNS=64 script -qc "prio-calc --history '$h' -j 30" /dev/null | grep -q '^PRIORITY of job 30' ||
		fail "no chart of PRIORITY on a terminal"
fi
fstree-show --history "$h" --user frank --csv | head -1 | grep -qx 'time,now,user,account,raw_usage,effectv_usage,fairshare,level_fs,rank,rank_of,note' ||
	fail "csv header"
# the chart: 50 columns, scale label "1" and " |": 3 columns, 47 left, a
# band of 15 per snapshot; FairShare 0.066667 in the middle band is one
# line high, 0.8 in the last reaches line 2 of 8 (13 of 16 halves)
COLUMNS=50 fstree-show --history "$h" --user frank --chart >"$tmp/chart" || fail "chart"
band() { # LINE BAND -> the band's 15 cells of the chart's line (1 = top)
	sed -n "$(($1 + 1))p" "$tmp/chart" | cut -c$((4 + 15 * $2))-$((18 + 15 * $2))
}
[ "$(sed -n 1p "$tmp/chart")" = "FairShare of frank, 3 snapshots" ] || fail "chart title"
[ "$(sed -n 2p "$tmp/chart")" = "1 |" ] || fail "top line not empty"
[ "$(band 2 2)" = "..............." ] || fail "0.8 does not reach line 2: $(band 2 2)"
[ "$(band 2 0)" = "               " ] || fail "0.714286 reaches line 2"
[ "$(band 3 0)" = "###############" ] || fail "0.714286 not on line 3"
[ "$(band 7 1)" = "               " ] && [ "$(band 8 1)" = "###############" ] || fail "0.066667 not one line high"
sed -n 9p "$tmp/chart" | grep -q "^0 |" || fail "bottom label"
sed -n 10p "$tmp/chart" | grep -q "^   $(date -u -d "@$(cat "$a/NOW")" +%Y-%m-%dT%H:%M:%SZ) *$(date -u -d "@$(cat "$c/NOW")" +%Y-%m-%dT%H:%M:%SZ)\$" ||
	fail "time axis: $(sed -n 10p "$tmp/chart")"
# Level FS: the third is infinite (no usage): marked at the top
grep -A1 '^Level FS of frank' "$tmp/chart" | tail -1 | grep -q '\^\^\^\^\^\^\^\^\^\^\^\^\^$' || fail "inf not marked"
grep -qx '(^: infinite)' "$tmp/chart" || fail "no legend for ^"
# blocks in a UTF-8 locale, ASCII with --ascii
if locale -a 2>/dev/null | grep -qix 'C.utf-\{0,1\}8'; then
	COLUMNS=50 LC_ALL=C.UTF-8 fstree-show --history "$h" --user frank --chart | sed -n 9p | grep -q "^0 │█" ||
		fail "no blocks in UTF-8"
	COLUMNS=50 LC_ALL=C.UTF-8 fstree-show --history "$h" --user frank --chart --ascii | sed -n 9p | grep -q "^0 |#" ||
		fail "--ascii drew blocks"
fi

# --- prio-calc --history --------------------------------------------------
prio-calc --history "$h" -j 30 -P >"$tmp/pc" 2>"$tmp/err" || fail "prio-calc: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "prio-calc warned: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/pc")" = 4 ] || fail "expected 3 rows: $(cat "$tmp/pc")"
[ "$(sed -n 2p "$tmp/pc" | cut -d'|' -f3-)" = "30|||||||||||||||not in this snapshot" ] ||
	fail "job 30 before it was submitted: $(sed -n 2p "$tmp/pc")"
wfs=$(sed -n 's/^PriorityWeightFairShare *= *//p' "$a/config.txt")
n=2
for d in "$b" "$c"; do
	n=$((n + 1))
	row=$(sed -n "${n}p" "$tmp/pc")
	# sprio -l's values for that snapshot at its NOW (22.05's columns:
	# no ACCOUNT, no QOS name)
	want=$(prio-calc --snapshot "$d" --now "$(cat "$d/NOW")" -l -j 30 -P | sed -n 2p)
	got=$(echo "$row" | cut -d'|' -f3-5,7-13,15-17)
	[ "$got" = "$want" ] || fail "row $n: $row, sprio -l: $want"
	# FAIRSHARE = PriorityWeightFairshare x frank's FairShare there
	fs=$(sed -n "${n}p" "$tmp/fs" | cut -d'|' -f7)
	[ "$(echo "$row" | cut -d'|' -f11)" = "$(awk -v w="$wfs" -v f="$fs" 'BEGIN { printf "%.0f", w * f }')" ] ||
		fail "row $n: FAIRSHARE $(echo "$row" | cut -d'|' -f11) is not $wfs x $fs"
done
[ "$(cut -d'|' -f7 "$tmp/pc" | tail -2 | tr '\n' ' ')" = "7512 14846 " ] || fail "PRIORITY series"
prio-calc --history "$h" -j 30 --json >"$tmp/json" || fail "json"
[ "$(grep -c '^{' "$tmp/json")" = 3 ] || fail "json: not 3 rows: $(cat "$tmp/json")"
sed -n 2p "$tmp/json" | grep -qF '"job_id":30,"partition":null,"user":null,"account":null,"priority":null,' ||
	fail "json: job 30 missing: $(sed -n 2p "$tmp/json")"
sed -n 4p "$tmp/json" | grep -qF "\"now\":$(cat "$c/NOW"),\"job_id\":30,\"partition\":\"batch\",\"user\":\"frank\",\"account\":\"orgchem\",\"priority\":14846,\"site\":0,\"age\":1000.0,\"assoc\":0.0,\"fairshare\":8000.0,\"jobsize\":225.0,\"partition_prio\":600.0,\"qos\":\"urgent\",\"qos_prio\":5000.0," ||
	fail "json: job 30's last row: $(sed -n 4p "$tmp/json")"
# a job not pending: its row says why
prio-calc --history "$h" -j 1 -P | sed -n 2p | grep -q '|not pending (PriorityFlags has no CALCULATE_RUNNING)$' ||
	fail "job 1: $(prio-calc --history "$h" -j 1 -P)"
# the chart: the missing snapshot marked, the highest at the top of the
# last band, the lowest one step high in the middle one
COLUMNS=50 prio-calc --history "$h" -j 30 --chart >"$tmp/chart" || fail "chart"
[ "$(sed -n 2p "$tmp/chart" | cut -c1-6)" = "14846 " ] && [ "$(sed -n 9p "$tmp/chart" | cut -c1-6)" = " 7512 " ] ||
	fail "scale: $(cat "$tmp/chart")"
# labels 5 wide and " |": bands of 14 from column 8
[ "$(sed -n 2p "$tmp/chart" | cut -c8-49)" = "$(printf '%28s' '')##############" ] || fail "top line: $(sed -n 2p "$tmp/chart")"
[ "$(sed -n 9p "$tmp/chart" | cut -c8-49)" = "??????????????..............##############" ] || fail "bottom line: $(sed -n 9p "$tmp/chart")"
grep -qx '(?: not in that snapshot)' "$tmp/chart" || fail "no legend for ?"
exit 0
