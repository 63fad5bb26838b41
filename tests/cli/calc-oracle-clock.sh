#!/bin/sh
# SPDX-License-Identifier: MIT
# The default clock of prio-calc and prio-top: Slurm's last priority
# calculation, found from the pending jobs' stored priorities, against the
# one each real capture logged:
#  - 22.05 (tests/oracle/*): --check's "last calculation" is the second of
#    the last "Job N priority:" lines of slurmctld.log before the capture
#    (calc_last_calc), on every Fair Tree and PriorityFlags scenario;
#  - 24.11 (tests/oracle/slurm-24.11-*): it is the capture's last_calc, from
#    sshare -P and from sshare --json (classic: from --json, whose usage is
#    exact);
#  - without an age weight (seed-hierarchy, slurm-24.11-fairtree) no stored
#    priority depends on the clock: "not pinned", and sprio's numbers all
#    the same;
#  - classic and DEPTH_OBLIVIOUS of 22.05 (and 24.11 classic from sshare -P)
#    store a fairshare we do not reproduce yet (Slurm's one-cycle lag,
#    RawUsage's truncation): when the instant is not found, prio-calc says
#    so in one line on stderr and computes at NOW, as --now NOW does; when
#    it is found, it must be the logged one;
#  - a job whose stored priority was changed is listed by --check with
#    sprio's value as ours; all changed: not found, the warning, NOW;
#  - --now: no search, no warning; --set: the search on the data as loaded;
#  - --explain without --now: at the calculation, then the next one
#    (PriorityCalcPeriod later), whose priority --at gives too;
#  - prio-top --once without --now: the frame of --now at the calculation.
set -u
. tests/cli/calc-oracle.lib
calc_setup

fail() { echo "FAIL $*"; status=1; }

# found DIR [ARGS]: the epoch of --check's "last calculation" row, or its
# detail when there is none
found() {
	d=$1
	shift
	prio-calc --snapshot "$d" "$@" --check -P 2>/dev/null |
		awk -F'|' '$1 == "clock" && $2 == "last calculation" {
			if (match($4, /^[0-9T:-]+ \([0-9]+\)/)) {
				s = substr($4, 1, RLENGTH); sub(/.*\(/, "", s); sub(/\)/, "", s); print s
			} else
				print $4
		}'
}

# fallback DIR NAME: not found: a one-line warning, and NOW's numbers
fallback() {
	prio-calc --snapshot "$1" -l >"$tmp/out" 2>"$tmp/err" || { fail "$2: prio-calc -l: exit $?"; return; }
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^prio-calc: warning: Slurm's last priority calculation not found: .*: computing at NOW .* (--now sets the clock)$" "$tmp/err" ||
		fail "$2: the warning: $(cat "$tmp/err")"
	prio-calc --snapshot "$1" -l --now "$(cat "$1/NOW")" >"$tmp/ref" 2>"$tmp/err" &&
		[ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/ref" || fail "$2: the fallback is not NOW's table"
}

for s in $CALC_SCENARIOS; do
	d=$tmp/$s
	calc_snapshot "$s" "$d" || { fail "$s: cannot build the snapshot"; continue; }
	log=$(calc_last_calc "$s")
	got=$(found "$d")
	case $s:$got in
	seed-hierarchy:"not pinned: "*) ;;
	classic:"not found: "* | depth-oblivious:"not found: "*) fallback "$d" "$s" ;;
	*) [ "$got" = "$log" ] || fail "$s: last calculation $got, slurmctld.log $log" ;;
	esac
done

for s in fairtree classic max-tres multi-qos; do
	o=tests/oracle/slurm-24.11-$s d=$tmp/24-$s
	mkdir -p "$d" "$d-json"
	cp "$o/scontrol_show_config.txt" "$d/config.txt"
	cp "$o/scontrol_show_partition.txt" "$d/partitions.txt"
	cp "$o/scontrol_show_node.txt" "$d/nodes.txt"
	cp "$o/sacctmgr_show_qos.txt" "$d/qos.txt"
	cp "$o/sacctmgr_dump.cfg" "$d/assoc.cfg"
	cp "$o/scontrol_show_job_d.txt" "$d/jobs.txt"
	cp "$o/NOW" "$d/NOW"
	cp "$d"/* "$d-json/"
	cut -d'|' -f1,2,3,5 "$o/sshare_a_l_P.txt" >"$d/sshare.txt"
	cp "$o/sshare_a_json.txt" "$d-json/sshare.json"
	log=$(TZ=UTC date -d "$(cat "$o/last_calc")" +%s)
	for v in "$d" "$d-json"; do
		got=$(found "$v")
		case $s:$v:$got in
		fairtree:*:"not pinned: "*) ;;
		classic:"$d":"not found: "*) fallback "$d" "24.11 $s (sshare -P)" ;;
		*) [ "$got" = "$log" ] || fail "24.11 $s ($v): last calculation $got, last_calc $log" ;;
		esac
		# sprio -l with no --now, where the clock is pinned or moot
		case $got in "not found: "*) continue ;; esac
		prio-calc --snapshot "$v" -l >"$tmp/out" 2>"$tmp/err" || fail "24.11 $s: prio-calc -l: exit $?"
		[ -s "$tmp/err" ] && fail "24.11 $s: stderr: $(cat "$tmp/err")"
		cmp -s "$tmp/out" "$o/sprio_l.txt" ||
			{ fail "24.11 $s ($v): prio-calc -l is not sprio -l"; diff "$o/sprio_l.txt" "$tmp/out" | head -6; }
	done
done

# One job's stored priority changed (as an administrator would): listed,
# with sprio's value as ours; the instant stands, and a warning says one
# job disagrees.  Job 35: sprio -l showed 3358 at the calculation.
d=$tmp/hand
calc_snapshot fairtree-basic "$d"
log=$(calc_last_calc fairtree-basic)
awk '/^JobId=35 / { j = 1 } /^JobId=/ && !/^JobId=35 / { j = 0 }
	j && /Priority=3358 / { sub(/Priority=3358 /, "Priority=90000 ") } { print }' \
	tests/oracle/fairtree-basic/scontrol_show_job_d.txt >"$d/jobs.txt"
[ "$(found "$d")" = "$log" ] || fail "one job changed: last calculation $(found "$d"), log $log"
want='differs|job 35|90000|stored Priority=90000, ours 3358 at the last calculation'
got=$(prio-calc --snapshot "$d" --check -P | grep '^differs|')
[ "$got" = "$want" ] || fail "one job changed: --check lists: $got"
prio-calc --snapshot "$d" -l >"$tmp/out" 2>"$tmp/err"
grep -q "^prio-calc: warning: Slurm's last priority calculation .* where 18 of 19 pending jobs' stored priorities agree; 1 disagree (prio-calc --check lists them)$" "$tmp/err" ||
	fail "one job changed: warning: $(cat "$tmp/err")"

# Every stored priority off by 7: no instant, the warning, NOW
d=$tmp/off
calc_snapshot fairtree-basic "$d"
awk '{ if (match($0, /Priority=[1-9][0-9]* /)) {
		v = substr($0, RSTART + 9, RLENGTH - 10) + 7
		$0 = substr($0, 1, RSTART - 1) "Priority=" v " " substr($0, RSTART + RLENGTH)
	} print }' tests/oracle/fairtree-basic/scontrol_show_job_d.txt >"$d/jobs.txt"
case $(found "$d") in "not found: "*) ;; *) fail "priorities off by 7: $(found "$d")" ;; esac
fallback "$d" "priorities off by 7"

# --now: used as given, no search, no warning
d=$tmp/fairtree-basic
prio-calc --snapshot "$d" --now "$(cat "$d/NOW")" -l >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && fail "--now: stderr: $(cat "$tmp/err")"

# --set: the stored priorities are compared with the data as loaded; the
# what-if is computed at the instant found (job 25 aged 255 s of 1200 at
# the calculation: 0.2125 x 2000)
got=$(prio-calc --snapshot "$d" --set PriorityWeightAge=2000 -j 25 -h -o '%A' 2>"$tmp/err" | tr -d ' ')
[ "$got" = 425 ] && [ ! -s "$tmp/err" ] || fail "--set PriorityWeightAge=2000: AGE $got $(cat "$tmp/err")"
got=$(prio-top --snapshot "$d" --set PriorityWeightAge=2000 --once --size 80x8 2>&1 | head -1)
case $got in *"clock 03:55:13 (-17s)"*) ;; *) fail "prio-top --set: $got" ;; esac

# --explain: at the calculation, then the next one, which --at confirms
next=$((log + 60))
prio-calc --snapshot "$d" --explain 35 >"$tmp/out" 2>"$tmp/err" || fail "--explain 35: exit $?"
grep -q "^Priority at $(TZ=UTC date -d "@$log" +%Y-%m-%dT%H:%M:%S), " "$tmp/out" ||
	fail "--explain 35 is not at the calculation: $(grep '^Priority at' "$tmp/out")"
grep -q "Partition batch (PriorityTier 1):" "$tmp/out" && grep -q "^  2. Priority 3358, " "$tmp/out" ||
	fail "--explain 35: not sprio's 3358 in batch"
at=$(prio-calc --snapshot "$d" --at "$next" -j 35 -h -o '%Y' | tr -d ' ')
grep -q "^Slurm keeps the numbers above (sprio shows them) until its next calculation, at $(TZ=UTC date -d "@$next" +%Y-%m-%dT%H:%M:%S) " "$tmp/out" &&
	grep -q "^  batch: priority $at, " "$tmp/out" ||
	{ fail "--explain 35: the next calculation (--at gives $at)"; tail -3 "$tmp/out"; }

# prio-top: the frame at the calculation; the header says the snapshot
# and a clock before it
prio-top --snapshot "$d" --once --size 200x50 >"$tmp/out" 2>"$tmp/err" || fail "prio-top: exit $?"
[ -s "$tmp/err" ] && fail "prio-top: stderr: $(cat "$tmp/err")"
prio-top --snapshot "$d" --now "$log" --once --size 200x50 >"$tmp/ref" 2>&1
head -1 "$tmp/out" | grep -q "snapshot 2026-11-22T03:55:30  clock 03:55:13 (-17s)" ||
	fail "prio-top's header: $(head -1 "$tmp/out")"
[ "$(sed 1d "$tmp/out")" = "$(sed 1d "$tmp/ref")" ] ||
	{ fail "prio-top without --now is not the frame at the calculation"; diff "$tmp/ref" "$tmp/out" | head; }
exit $status
