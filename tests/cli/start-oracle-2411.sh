#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc --start against real Slurm 24.11.5's `squeue --start`
# (tests/oracle/slurm-24.11-*/squeue_start.txt): from each scenario's
# snapshot, with the jobs as `scontrol show job -d`, `scontrol show job -d
# -o` and `squeue --json` (v0.0.42), the table must be squeue's byte for
# byte.  What the captures show of squeue's rules (src/squeue, 24.11):
#  - only pending jobs, the default format "%.18i %.9P %.8j %.8u %.2t
#    %.19S %.6D %20Y %R": the partitions of a job of two cut to 9
#    ("batch,sho"), the unsplit array as "21_[0-2]";
#  - StartTime=Unknown (0: backfill never looked, the nodes are drained)
#    prints N/A; no SchedNodeList prints (null);
#  - the reason is the controller's description, "(ReqNodeNotAvail, May be
#    reserved for other job)" (scontrol's Reason= has '_' for its blanks;
#    squeue --json gives it in state_description), else the reason name
#    ("(JobHeldUser)");
#  - NODES is NumNodes as scontrol prints it (job 8 of fairtree:
#    NumNodes=1-1 shows 1);
#  - every job without an estimate sorts last in the controller's order:
#    here all of them, in job id order.
set -u
tmp=$(mktemp -d) || exit 2
# shellcheck disable=SC2064
trap "rm -rf '$tmp'" EXIT
export TZ=UTC
status=0
fail() { echo "FAIL $*"; status=1; }

for s in fairtree classic max-tres multi-qos; do
	o=tests/oracle/slurm-24.11-$s
	d=$tmp/$s
	mkdir -p "$d"
	cp "$o/scontrol_show_config.txt" "$d/config.txt"
	cp "$o/scontrol_show_partition.txt" "$d/partitions.txt"
	cp "$o/scontrol_show_node.txt" "$d/nodes.txt"
	cp "$o/sacctmgr_show_qos.txt" "$d/qos.txt"
	cp "$o/sacctmgr_dump.cfg" "$d/assoc.cfg"
	cp "$o/NOW" "$d/NOW"
	for j in "scontrol_show_job_d.txt:jobs.txt" \
		"scontrol_show_job_d_o.txt:jobs.txt" \
		"squeue_json.txt:jobs.json"; do
		rm -f "$d/jobs.txt" "$d/jobs.json"
		cp "$o/${j%%:*}" "$d/${j#*:}"
		if ! prio-calc --snapshot "$d" --start >"$tmp/out" 2>"$tmp/err"; then
			fail "$s ${j%%:*}: exit $?: $(head -3 "$tmp/err")"
			continue
		fi
		[ -s "$tmp/err" ] && fail "$s ${j%%:*}: stderr: $(head -3 "$tmp/err")"
		cmp -s "$tmp/out" "$o/squeue_start.txt" ||
			{ fail "$s ${j%%:*}: not squeue --start"; diff "$o/squeue_start.txt" "$tmp/out" | head; }
	done
done

# the filters and -o as squeue reads them, on fairtree: -u pllive5 keeps
# jobs 8, 14 and 18; -p short keeps 11 and the jobs that may also run in
# short; -j 21 the array; -h drops the header
o=tests/oracle/slurm-24.11-fairtree
d=$tmp/fairtree
rm -f "$d/jobs.json"
cp "$o/scontrol_show_job_d.txt" "$d/jobs.txt"
prio-calc --snapshot "$d" --start -u pllive5 >"$tmp/out" 2>&1 || fail "-u: exit $?"
{ head -1 "$o/squeue_start.txt"; grep ' pllive5 ' "$o/squeue_start.txt"; } >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { fail "-u pllive5"; diff "$tmp/want" "$tmp/out"; }
prio-calc --snapshot "$d" --start -h -p short >"$tmp/out" 2>&1 || fail "-p: exit $?"
grep -E ' (short|batch,sho) ' "$o/squeue_start.txt" >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { fail "-p short"; diff "$tmp/want" "$tmp/out"; }
prio-calc --snapshot "$d" --start -h -j 21 >"$tmp/out" 2>&1 || fail "-j: exit $?"
grep '21_\[0-2\]' "$o/squeue_start.txt" >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { fail "-j 21"; diff "$tmp/want" "$tmp/out"; }
exit $status
