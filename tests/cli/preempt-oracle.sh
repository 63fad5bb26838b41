#!/bin/sh
# SPDX-License-Identifier: MIT
# preempt-plan against real Slurm (tests/oracle/preemption-a-*, -b-*).  For
# each preemption of the two scenarios, from the captured slurm.conf and the
# `scontrol show job -d` of the snapshot taken before it, with the clock at
# the preemptor's StartTime:
#  - the queue afterwards equals what squeue printed after Slurm acted, line
#    by line.  Tolerances: the TIME column is left out (squeue ran about
#    12 s after the decision) and lines are compared sorted (squeue breaks
#    ties of its partition/state/priority order by qsort; we by job id);
#  - the victims are the jobs slurmctld logged as preempted, in its order;
#  - requeued jobs are eligible again when the oracle's EligibleTime says,
#    suspended ones resume when the preemptor ends (they run again in the
#    capture taken after it).
set -u
fmt='%.8i %.9P %.12j %.6u %.2t %.6D %R'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "$1"
	status=1
}

# name scenario before-tag after-tag now preemptor-id sbatch-options...
check() {
	name=$1 dir=tests/oracle/$2 before=$3 after=$4 now=$5 id=$6
	shift 6
	set -- --conf "$dir/slurm.conf" \
		--jobs "$dir/scontrol_show_job_d_$before.txt" --now "$now" \
		--strategy slurm "$@"
	preempt-plan "$@" --queue -o "$fmt" | sort >"$tmp/got" ||
		fail "$name: preempt-plan failed"
	# drop squeue's "%.10M " (characters 43-53 of its lines)
	cut -c1-42,54- "$dir/squeue_$after.txt" | sort >"$tmp/want"
	cmp -s "$tmp/got" "$tmp/want" || {
		fail "$name: queue differs from squeue_$after.txt"
		diff "$tmp/want" "$tmp/got" | sed 's/^/    /'
	}
	preempt-plan "$@" >"$tmp/text"
	awk '$7 ~ /^(suspend|requeue|cancel)$/ { print $1 }' "$tmp/text" \
		>"$tmp/victims"
	sed -n "s/.*preempted JobId=\([0-9]*\) .*for JobId=$id\$/\1/p" \
		"$dir/slurmctld_preempt_lines.log" >"$tmp/logged"
	cmp -s "$tmp/victims" "$tmp/logged" ||
		fail "$name: victims $(echo $(cat "$tmp/victims")), slurmctld logged $(echo $(cat "$tmp/logged"))"
}

# eligible-again time of a requeued job in our output and in the capture
eligible() {
	name=$1 file=$2 job=$3
	want=$(sed -n "/^JobId=$job /,/EligibleTime/s/.*EligibleTime=\([^ ]*\).*/\1/p" "$file")
	grep -q "requeued (pending, eligible again at $want: BeginTime)" "$tmp/text" ||
		fail "$name: job $job not eligible again at $want"
}

A=preemption-a-partition-suspend
check a-hipri $A 1_before 2_during 1795318887 1005 \
	-p hipri -N 3 -t 5 -J hip3 --user pb -A preb
grep -q "when it ends 1002, 1000, 1001 resume" "$tmp/text" ||
	fail "a-hipri: suspended jobs should resume when 1005 ends"
for j in 1000 1001 1002; do
	grep -q "^ *$j .* R .*pren" "tests/oracle/$A/squeue_3_after.txt" ||
		fail "a-hipri: oracle shows $j not running again"
done

B=preemption-b-three-partitions
check b-med $B 1_low_running 2_med_submitted 1795318998 2005 \
	-p med -N 2 -t 5 -J med2 --user pb -A preb
eligible b-med "tests/oracle/$B/scontrol_show_job_d_2_med_submitted.txt" 2000
check b-hi $B 2_med_submitted 3_hi_submitted 1795319011 2006 \
	-p hi -N 2 -t 5 -J hi2 --user pc -A preb
eligible b-hi "tests/oracle/$B/scontrol_show_job_d_3_hi_submitted.txt" 2002
grep -q "^ *2005 .* none " "$tmp/text" || fail "b-hi: the med job must run on"
exit $status
