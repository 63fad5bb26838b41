#!/bin/sh
# SPDX-License-Identifier: MIT
# A snapshot whose MANIFEST records the cluster's zone answers the same,
# byte for byte and without a warning, whatever TZ the reader has: the
# local times of its text files are read in the recorded zone and every
# local time printed is in it.  The captures (taken in UTC) are rewritten
# as clusters in New York and Berlin would have printed them (each local
# time converted by date(1)), so the answers must also be the UTC
# capture's, with every printed time moved to the cluster's zone.
set -u
: "${top_srcdir:=.}"
cd "$top_srcdir" || exit 2
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0

# moved ZONE: standard input with every UTC local time as ZONE prints it
# (one pass: a time moved is never moved again)
moved() {
	awk -v zone="$1" '{
		line = $0; out = ""
		while (match(line, /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/)) {
			t = substr(line, RSTART, RLENGTH)
			if (!(t in m)) {
				cmd = "TZ=" zone " date -d " t "Z +%Y-%m-%dT%H:%M:%S"
				cmd | getline m[t]; close(cmd)
			}
			out = out substr(line, 1, RSTART - 1) m[t]
			line = substr(line, RSTART + RLENGTH)
		}
		print out line
	}'
}
# in_zone SRC DST ZONE: SRC's files with their local times (UTC) as ZONE
# prints them, and MANIFEST's zone line as prio-snap writes it
in_zone() {
	mkdir -p "$2" || return 1
	for f in "$1"/*; do
		moved "$3" <"$f" >"$2/${f##*/}" || return 1
	done
	printf 'zone\t%s\t%s\n' "$3" "$(TZ=$3 date -d "@$(cat "$1/NOW")" +%z)" >>"$2/MANIFEST"
}
# same NAME ZONE CMD...: CMD under TZ=UTC, Asia/Tokyo and ZONE prints the
# same stdout and the same stderr (no warning about the clock or the zone;
# --explain warns of a weight of 0 whatever the zone), exit 0; the output
# is left in $tmp/NAME
same() {
	name=$1 zone=$2; shift 2
	for tz in UTC Asia/Tokyo "$zone"; do
		if ! TZ=$tz "$@" >"$tmp/out" 2>"$tmp/err"; then
			echo "$name: TZ=$tz: exit status $?"; head -3 "$tmp/err"; status=1
		fi
		if grep -qi 'zone\|TZ\|clock\|NOW' "$tmp/err"; then
			echo "$name: TZ=$tz: stderr:"; head -3 "$tmp/err"; status=1
		fi
		if [ "$tz" = UTC ]; then
			cp "$tmp/out" "$tmp/$name"
			cp "$tmp/err" "$tmp/$name.err"
		elif ! cmp -s "$tmp/err" "$tmp/$name.err"; then
			echo "$name: TZ=$tz: stderr differs from TZ=UTC:"
			diff "$tmp/$name.err" "$tmp/err" | head -4; status=1
		elif ! cmp -s "$tmp/out" "$tmp/$name"; then
			echo "$name: TZ=$tz differs from TZ=UTC:"
			diff "$tmp/$name" "$tmp/out" | head -6; status=1
		fi
	done
}
# as_utc NAME ZONE CMD...: the UTC capture's answer (TZ=UTC), times moved
# to ZONE, is $tmp/NAME
as_utc() {
	name=$1 zone=$2; shift 2
	TZ=UTC "$@" 2>/dev/null | moved "$zone" >"$tmp/want"
	if ! cmp -s "$tmp/want" "$tmp/$name"; then
		echo "$name: not the UTC capture's answer in $zone:"
		diff "$tmp/want" "$tmp/$name" | head -6; status=1
	fi
}

R=tests/cli/readers-data/slurm-24.11
in_zone "$R" "$tmp/ny" America/New_York || exit 2
in_zone samples/site "$tmp/site" Europe/Berlin || exit 2
in_zone samples/preempt-qos "$tmp/pq" Europe/Berlin || exit 2
grep -q 'SubmitTime=2026-11-26T04:59:48' "$tmp/ny/jobs.txt" || { echo "conversion failed"; exit 2; }

same calc America/New_York prio-calc --snapshot "$tmp/ny" -l
as_utc calc America/New_York prio-calc --snapshot "$R" -l
same explain America/New_York prio-calc --snapshot "$tmp/ny" --explain 8
as_utc explain America/New_York prio-calc --snapshot "$R" --explain 8
same fstree America/New_York fstree-show --snapshot "$tmp/ny" -a
as_utc fstree America/New_York fstree-show --snapshot "$R" -a
same preempt Europe/Berlin preempt-plan --snapshot "$tmp/pq" --job 3010 --strategy both
as_utc preempt Europe/Berlin preempt-plan --snapshot samples/preempt-qos --job 3010 --strategy both
grep -q '2026-11-22T05:00:00  job 3002: SIGCONT and SIGTERM' "$tmp/preempt" ||
	{ echo "preempt: the preemption is not printed at 05:00 in Berlin"; status=1; }
same report Europe/Berlin tres-bill --snapshot "$tmp/site" --slurm-version 24.11 cluster utilization
grep -q 'Cluster Utilization 2026-11-21T00:00:00 - 2026-11-21T23:59:59' "$tmp/report" ||
	{ echo "report: not yesterday in Berlin"; status=1; }
same billing Europe/Berlin tres-bill --snapshot "$tmp/site" --slurm-version 24.11 user topusage start=2026-11-20
if command -v prio-top >/dev/null 2>&1; then
	same top America/New_York prio-top --snapshot "$tmp/ny" --once
	grep -q 'snapshot 2026-11-26T05:04:49' "$tmp/top" ||
		{ echo "top: the snapshot's clock is not New York's"; status=1; }
fi
# a local --now means the cluster's clock: the capture's NOW (10:04:49Z)
# typed as New York read it, or with its offset, is the same instant
same now America/New_York prio-calc --snapshot "$tmp/ny" -l --now 2026-11-26T05:04:49
cmp -s "$tmp/now" "$tmp/calc" || { echo "--now in New York's time is not NOW"; status=1; }
same nowz America/New_York prio-calc --snapshot "$tmp/ny" -l --now 2026-11-26T10:04:49Z
cmp -s "$tmp/nowz" "$tmp/calc" || { echo "--now with Z is not NOW"; status=1; }

# Slurm's own numbers: the 22.05 fairtree-basic capture (ages weigh), as a
# New York cluster prints it, read in Tokyo, gives Slurm's sprio -l exactly
# at its last calculation -- typed as Unix seconds, as New York's local
# time, or with an offset.  Without the zone line the same folder does not.
. tests/cli/calc-oracle.lib
calc_snapshot fairtree-basic "$tmp/ft" || exit 2
now=$(calc_last_calc fairtree-basic) || exit 2
mkdir -p "$tmp/ft-ny" && for f in "$tmp/ft"/*; do moved America/New_York <"$f" >"$tmp/ft-ny/${f##*/}"; done
printf 'zone\tAmerica/New_York\t%s\n' "$(TZ=America/New_York date -d "@$now" +%z)" >"$tmp/ft-ny/MANIFEST"
local_now=$(TZ=America/New_York date -d "@$now" +%Y-%m-%dT%H:%M:%S)
for n in "$now" "$local_now" "$(TZ=UTC date -d "@$now" +%Y-%m-%dT%H:%M:%S)Z"; do
	same "ft-$n" America/New_York prio-calc --snapshot "$tmp/ft-ny" --now "$n" -l
	cmp -s "$tmp/ft-$n" tests/oracle/fairtree-basic/sprio_l.txt ||
		{ echo "fairtree-basic in New York, --now $n: not Slurm's sprio -l"; diff tests/oracle/fairtree-basic/sprio_l.txt "$tmp/ft-$n" | head -6; status=1; }
done
rm "$tmp/ft-ny/MANIFEST"
TZ=Asia/Tokyo prio-calc --snapshot "$tmp/ft-ny" --now "$now" -l 2>/dev/null |
	cmp -s - tests/oracle/fairtree-basic/sprio_l.txt &&
	{ echo "fairtree-basic: the zone made no difference (the test proves nothing)"; status=1; }
exit $status
