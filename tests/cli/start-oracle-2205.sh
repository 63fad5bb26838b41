#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc --start on a Slurm 22.05 queue whose backfill had planned every
# job (tests/oracle/fairtree-basic, captured at NOW 2026-11-22T03:55:30).
# No squeue --start was captured there: the expected table is built by
# hand from the job records of scontrol_show_job_d.txt, each row by
# squeue's own rules (src/squeue of 22.05: opts.c, print.c, sort.c):
#  - the default --start format "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y
#    %R": '.' right-justifies, a width cuts ("p_ivan_big_high" is
#    "p_ivan_b"), no width is natural (the reason);
#  - START_TIME is StartTime= as scontrol printed it (the same local-time
#    format), N/A where StartTime=Unknown (jobs 41 and 42);
#  - SCHEDNODES is SchedNodeList= (job 34: ftn3, job 27: ftn[2,5]),
#    "(null)" without one (41, 42, and 43, which waits for its begin time);
#  - NODES is NumNodes (27's "2-2" prints 2, 31's "5-5" prints 5);
#  - NODELIST(REASON) is "(Reason)" with scontrol's '_' as blanks (30, 32);
#  - the order, sort "S" applied after sort_jobs_by_start_time's reversed
#    pass: by StartTime (43's 04:10:59, ahead of NOW, comes first), equal
#    times in the controller's order (26 before 28, both 05:46:18), the
#    jobs without a time last in the controller's order (41, then 42).
# The same from squeue --json (v0.0.38), which leaves the planned nodes
# out: SCHEDNODES blank, and a warning that says so.
set -u
. tests/cli/calc-oracle.lib
calc_setup
d=$tmp/snap
calc_snapshot fairtree-basic "$d" || exit 2

cat >"$tmp/want" <<'END'
             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)
                43     batch p_ivan_b     ivan PD 2026-11-22T04:10:59      1 (null)               (BeginTime)
                30     batch p_frank_    frank PD 2026-11-22T05:42:18      1 ftn2                 (Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions)
                34       big p_ivan_b     ivan PD 2026-11-22T05:43:21      1 ftn3                 (Priority)
                32     short p_heidi_    heidi PD 2026-11-22T05:45:21      1 ftn5                 (Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions)
                26     short p_bob_hi      bob PD 2026-11-22T05:46:18      1 ftn4                 (Priority)
                28       big p_dave_b     dave PD 2026-11-22T05:46:18      1 ftn1                 (Resources)
                44     short p_root_n     root PD 2026-11-22T05:47:00      1 ftn2                 (Priority)
                33     batch p_mallor  mallory PD 2026-11-22T05:56:00      1 ftn4                 (Priority)
                39     batch p_frank_    frank PD 2026-11-22T06:30:00      1 ftn5                 (Priority)
                37     short p_alice_    alice PD 2026-11-22T06:47:00      1 ftn2                 (Priority)
                38     batch   p_root     root PD 2026-11-22T06:56:00      1 ftn4                 (Priority)
                29     short p_erin_l     erin PD 2026-11-22T07:02:00      1 ftn2                 (Priority)
                25     batch p_alice_    alice PD 2026-11-22T07:30:00      1 ftn5                 (Priority)
          40_[0-2]     short p_carol_    carol PD 2026-11-22T08:02:00      1 ftn2                 (Priority)
                36     short p_oscar_    oscar PD 2026-11-22T08:26:00      1 ftn4                 (Priority)
                27     batch p_carol_    carol PD 2026-11-22T08:32:00      2 ftn[2,5]             (Priority)
                35     batch p_judy_n     judy PD 2026-11-22T08:46:00      1 ftn4                 (Priority)
                31     batch p_grace_    grace PD 2026-11-22T15:43:00      5 ftn[1-5]             (Priority)
                41     batch p_judy_h     judy PD                 N/A      1 (null)               (JobHeldUser)
                42     batch p_bob_de      bob PD                 N/A      1 (null)               (Dependency)
END
fail() { echo "FAIL $*"; status=1; }
prio-calc --snapshot "$d" --start >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "stderr: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/want" || { fail "scontrol -d: not the table"; diff "$tmp/want" "$tmp/out"; }

# every pending record of the capture is a row, with its StartTime
n=$(grep -c 'JobState=PENDING' tests/oracle/fairtree-basic/scontrol_show_job_d.txt)
[ "$(($(wc -l <"$tmp/out") - 1))" -eq "$n" ] || fail "$n pending jobs, not $(($(wc -l <"$tmp/out") - 1)) rows"

mkdir -p "$tmp/json"
cp "$d"/* "$tmp/json/"
rm "$tmp/json/jobs.txt"
cp tests/oracle/fairtree-basic/squeue_json.txt "$tmp/json/jobs.json"
prio-calc --snapshot "$tmp/json" --start >"$tmp/out" 2>"$tmp/err" || fail "json: exit $?"
grep -q "22.05's squeue --json leaves the scheduled nodes out" "$tmp/err" || fail "json: no warning: $(cat "$tmp/err")"
# the same rows with SCHEDNODES blank
sed -E 's/^(.{77}).{20}/\1                    /' "$tmp/want" | sed '1s/.*/'"$(head -1 "$tmp/want" | sed 's/[&/]/\\&/g')"'/' >"$tmp/want-json"
cmp -s "$tmp/out" "$tmp/want-json" || { fail "squeue --json v0.0.38"; diff "$tmp/want-json" "$tmp/out"; }

# -o with squeue's letters and widths, machine output: job 34's estimate
prio-calc --snapshot "$d" --start -j 34 -o '%.6i %6P %S %Y %D' >"$tmp/out" 2>&1
printf '%s\n' ' JOBID PARTIT START_TIME SCHEDNODES NODES' \
	'    34 big    2026-11-22T05:43:21 ftn3 1' >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { fail "-o"; diff "$tmp/want" "$tmp/out"; }
prio-calc --snapshot "$d" --start -j 34 --json >"$tmp/out" 2>&1
grep -q '"job_id":34,"job":"34".*"start_time":"2026-11-22T05:43:21","nodes":1,"sched_nodes":"ftn3","reason":"Priority"' "$tmp/out" ||
	fail "--json: $(cat "$tmp/out")"
exit $status
