#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc --forecast on small hand-built snapshots whose schedule follows
# from Slurm's documented rules (slurm.conf(5) SchedulerType, bf_window,
# PriorityTier; sched_config.html: strict priority order of the main
# scheduler, backfill that never delays a higher job's expected start).
# Each case states the schedule derived by hand; the test checks the
# forecast's start, end, nodes and how it started against it.
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
NOW=1767225600 # 2026-01-01T00:00:00 UTC
fail=0

ts() { TZ=UTC date -d "@$((NOW + $1))" +%Y-%m-%dT%H:%M:%S; }

# conf NODES CPUS [extra slurm.conf lines...]: nodes n[1-NODES], CPUS each,
# 8000 MB; age the only priority factor (1000 over a day), so an older job
# is a higher one unless Nice says otherwise.
conf() {
	n=$1 c=$2
	shift 2
	cat <<EOC
ClusterName=t
SlurmctldHost=h
AccountingStorageType=accounting_storage/slurmdbd
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityMaxAge=1-0
PriorityWeightFairshare=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
NodeName=n[1-$n] CPUs=$c RealMemory=8000 State=UNKNOWN
EOC
	for l in "$@"; do echo "$l"; done
}

# job ID STATE PARTITION NODES CPUS LIMIT_MIN SUBMIT_OFFSET [START_OFFSET
# NODELIST]: a record as `scontrol show job` prints it; PRIO, NICE, DEP,
# REASON, ELIG (EligibleTime), ACCRUE, JUSER (the user, u1) override
# fields, GRES adds TRES (gres/gpu=1).
job() {
	id=$1 st=$2 part=$3 nn=$4 cpus=$5 lim=$6 sub=$7
	if [ "$st" = RUNNING ]; then
		start=$(ts "$8") end=$(ts $(($8 + lim * 60))) nl=$9 reason=None
	else
		start=Unknown end=Unknown nl= reason=${REASON:-Priority}
	fi
	cat <<EOJ
JobId=$id JobName=j$id
   UserId=${JUSER:-u1}(1001) GroupId=g(1001) MCS_label=N/A
   Priority=${PRIO:-1000} Nice=${NICE:-0} Account=a QOS=normal
   JobState=$st Reason=$reason Dependency=${DEP:-(null)}
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
   RunTime=00:00:00 TimeLimit=$(printf '%02d:%02d:00' $((lim / 60)) $((lim % 60))) TimeMin=N/A
   SubmitTime=$(ts "$sub") EligibleTime=${ELIG:-$(ts "$sub")}
   AccrueTime=${ACCRUE:-$(ts "$sub")}
   StartTime=$start EndTime=$end Deadline=N/A
   Partition=$part AllocNode:Sid=h:1
   ReqNodeList=(null) ExcNodeList=(null)
   NodeList=$nl
   NumNodes=$nn NumCPUs=$cpus NumTasks=$cpus CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   NtasksPerN:B:S:C=${NTPN:-0}:0:*:* CoreSpec=*
   TRES=cpu=$cpus,mem=$((cpus * 100))M,node=$nn,billing=$cpus${GRES:+,$GRES}
   MinCPUsNode=1 MinMemoryCPU=100M MinTmpDiskNode=0
   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)

EOJ
}

# forecast CASE [ARGS...]: run it into $tmp/CASE.out (-P, no header)
forecast() {
	c=$1
	shift
	echo "$NOW" >"$tmp/$c/NOW"
	prio-calc --snapshot "$tmp/$c" --now "$NOW" --forecast -P -h "$@" \
		>"$tmp/$c.out" 2>"$tmp/$c.err" ||
		{ echo "$c: prio-calc failed"; cat "$tmp/$c.err"; fail=1; }
}

# expect CASE JOBID FIELD VALUE: field of the job's row (start end nodes by
# freed_by note) is VALUE
expect() {
	got=$(awk -F'|' -v j="$2" -v f="$3" '
		BEGIN { split("job_id partition user start end nodes by slurm_start reason freed_by note", k, " ")
			for (i in k) col[k[i]] = i }
		$1 == j { print $(col[f]) }' "$tmp/$1.out")
	if [ "$got" != "$4" ]; then
		echo "$1: job $2 $3: forecast $got, expected $4"
		fail=1
	fi
}

# (a) strict priority on one node: job 1 holds the node until 00:30; the
# pending jobs need the whole node for an hour and start one after the
# other, oldest (highest) first.
mkdir "$tmp/a"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/a/slurm.conf"
{
	job 1 RUNNING p 1 4 60 -3600 -1800 n1
	job 2 PENDING p 1 4 60 -900
	job 3 PENDING p 1 4 60 -600
	job 4 PENDING p 1 4 60 -300
} >"$tmp/a/jobs.txt"
forecast a
expect a 2 start "$(ts 1800)"
expect a 2 end "$(ts 5400)"
expect a 2 by main
expect a 3 start "$(ts 5400)"
expect a 4 start "$(ts 9000)"
expect a 4 end "$(ts 12600)"
# (g) the running job's end frees job 2's node; job 2's end frees job 3's
expect a 2 freed_by 1
expect a 3 freed_by 2
expect a 2 nodes n1
# with --forecast-until 01:00 only job 2 starts; the others are "after"
forecast a --forecast-until "$(ts 3600)"
expect a 2 start "$(ts 1800)"
expect a 3 start after
expect a 4 start after

# (b) backfill: 2 of 4 CPUs busy until 01:00.  Job 2 (highest) needs all 4:
# reserved at 01:00.  Job 3 (2 CPUs, 30 min) ends at 00:30, before that
# reservation: it starts now.  Job 4 (2 CPUs, 2 h) would hold 2 CPUs past
# 01:00 and delay job 2: it waits until job 2 ends at 02:00.
mkdir "$tmp/b"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/b/slurm.conf"
{
	job 1 RUNNING p 1 2 120 -3600 -3600 n1
	job 2 PENDING p 1 4 60 -900
	job 3 PENDING p 1 2 30 -600
	job 4 PENDING p 1 2 120 -300
} >"$tmp/b/jobs.txt"
forecast b
expect b 3 start "$(ts 0)"
expect b 3 by backfill
expect b 2 start "$(ts 3600)"
expect b 2 by main
expect b 4 start "$(ts 7200)"

# (c) PriorityTier: partitions lo (tier 1) and hi (tier 2) share the node;
# job 2 in lo is older (higher priority) but hi's job 3 comes first.
mkdir "$tmp/c"
conf 1 4 "PartitionName=lo Nodes=n1 Default=YES PriorityTier=1 State=UP" \
	"PartitionName=hi Nodes=n1 PriorityTier=2 State=UP" >"$tmp/c/slurm.conf"
{
	job 1 RUNNING lo 1 4 60 -3600 -1800 n1
	job 2 PENDING lo 1 4 60 -900
	job 3 PENDING hi 1 4 60 -300
} >"$tmp/c/jobs.txt"
forecast c
expect c 3 start "$(ts 1800)"
expect c 3 partition hi
expect c 2 start "$(ts 5400)"

# (d) a held job never starts; a job whose BeginTime is 02:00 starts then on
# an idle node, not before.
mkdir "$tmp/d"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/d/slurm.conf"
{
	PRIO=0 REASON=JobHeldUser job 2 PENDING p 1 1 60 -900
	REASON=BeginTime ELIG=$(ts 7200) ACCRUE=Unknown job 3 PENDING p 1 1 60 -600
	job 4 PENDING p 1 1 60 -300
} >"$tmp/d/jobs.txt"
forecast d
expect d 2 start held
expect d 3 start "$(ts 7200)"
expect d 4 start "$(ts 0)"

# (e) a dependency: job 3 (afterok on job 2) would fit beside job 2 at once
# but starts when job 2 ends, at 01:00.
mkdir "$tmp/e"
conf 1 8 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/e/slurm.conf"
{
	job 2 PENDING p 1 4 60 -900
	DEP='afterok:2(unfulfilled)' REASON=Dependency ACCRUE=Unknown \
		job 3 PENDING p 1 1 10 -600
} >"$tmp/e/jobs.txt"
forecast e
expect e 2 start "$(ts 0)"
expect e 3 start "$(ts 3600)"
expect e 3 end "$(ts 4200)"

# (f) a multi-node job: n1, n2, n3 free at 00:10, 00:20, 00:40.  Job 4
# needs two whole nodes: n[1-2] at 00:20, freed by jobs 1 and 2.  Job 5
# (one node, 30 min) cannot use n1 from 00:10 (it would run into job 4's
# reservation at 00:20): it starts on n3 at 00:40.
mkdir "$tmp/f"
conf 3 4 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" >"$tmp/f/slurm.conf"
{
	job 1 RUNNING p 1 4 60 -3600 -3000 n1
	job 2 RUNNING p 1 4 60 -3600 -2400 n2
	job 3 RUNNING p 1 4 60 -3600 -1200 n3
	job 4 PENDING p 2 8 60 -900
	job 5 PENDING p 1 4 30 -600
} >"$tmp/f/jobs.txt"
forecast f
expect f 4 start "$(ts 1200)"
expect f 4 nodes 'n[1-2]'
expect f 4 freed_by 1,2
expect f 5 start "$(ts 2400)"
expect f 5 nodes n3

# (j) GRES: n1 has 8 CPUs and 2 GPUs, job 1 holds both GPUs (and one CPU)
# until 00:30.  Job 2 (highest) needs a GPU: it waits until 00:30 although
# CPUs are free; the main scheduler stops there.  Backfill plans job 2 at
# 00:30 and takes a lower job beside it only if its run ends before then:
# slurmctld's backfill takes a stretch of its map that begins at the
# run's last second as overlapping it (backfill.c: begin_time <= end_time,
# 22.05 to 26.05).  Job 4 (29 min) starts now, by backfill; job 3 (30 min)
# would end at 00:30:00 and waits, then starts beside job 2 by the main
# scheduler.
mkdir "$tmp/j"
conf 1 8 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/j/slurm.conf"
sed -i 's/^NodeName=n\[1-1\] CPUs=8/& Gres=gpu:2/' "$tmp/j/slurm.conf"
printf 'GresTypes=gpu\nAccountingStorageTRES=gres/gpu\n' >>"$tmp/j/slurm.conf"
{
	GRES=gres/gpu=2 job 1 RUNNING p 1 1 60 -3600 -1800 n1
	GRES=gres/gpu=1 job 2 PENDING p 1 1 60 -900
	job 3 PENDING p 1 1 30 -300
	job 4 PENDING p 1 1 29 -200
} >"$tmp/j/jobs.txt"
forecast j
expect j 2 start "$(ts 1800)"
# job 1's GPUs are freed at 00:30 (job 4's CPU a minute before)
expect j 2 freed_by 1
expect j 4 start "$(ts 0)"
expect j 4 by backfill
expect j 3 start "$(ts 1800)"
expect j 3 by main

# (k) node choice (cons_tres, no topology): a one-node job takes the node
# with the fewest free CPUs that hold it (best fit); a job of several nodes
# without --ntasks-per-node spreads its tasks as the nodes' free CPUs allow.
# n1 has 8 CPUs free, n2, n3 and n4 have 4 (jobs 1-3 hold 4 each until
# 01:00).  Job 4 (12 tasks on 2 nodes, the highest) takes n1's 8 and n2's 4:
# an even 6 + 6 fits nowhere.  Job 5 (4 CPUs) takes n3, best fit among the
# 4-CPU nodes left; job 6 (4 CPUs) n4.  First fit would have put job 5 on
# n1 and left job 4 waiting an hour.  With --ntasks-per-node=6 job 4 needs
# 6 on each node: only n1 has them, so it waits for 01:00, when the fill's
# nodes free, and jobs 5 and 6 (1 h, ending at 01:00) start now beside it.
mkdir "$tmp/k"
conf 4 8 "PartitionName=p Nodes=n[1-4] Default=YES State=UP" >"$tmp/k/slurm.conf"
{
	job 1 RUNNING p 1 4 60 -3600 0 n2
	job 2 RUNNING p 1 4 60 -3600 0 n3
	job 3 RUNNING p 1 4 60 -3600 0 n4
	job 4 PENDING p 2 12 60 -900
	job 5 PENDING p 1 4 60 -600
	job 6 PENDING p 1 4 60 -300
} >"$tmp/k/jobs.txt"
forecast k
expect k 4 start "$(ts 0)"
expect k 4 nodes 'n[1-2]'
expect k 5 start "$(ts 0)"
expect k 5 nodes n3
expect k 6 start "$(ts 0)"
expect k 6 nodes n4
{
	job 1 RUNNING p 1 4 60 -3600 0 n2
	job 2 RUNNING p 1 4 60 -3600 0 n3
	job 3 RUNNING p 1 4 60 -3600 0 n4
	NTPN=6 job 4 PENDING p 2 12 60 -900
	job 5 PENDING p 1 4 60 -600
	job 6 PENDING p 1 4 60 -300
} >"$tmp/k/jobs.txt"
forecast k
expect k 4 start "$(ts 3600)"
expect k 5 start "$(ts 0)"
expect k 6 start "$(ts 0)"

# (h) an empty queue: no rows, success.
mkdir "$tmp/h"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/h/slurm.conf"
job 1 RUNNING p 1 4 60 -3600 -1800 n1 >"$tmp/h/jobs.txt"
forecast h
[ -s "$tmp/h.out" ] && { echo "h: rows for an empty queue"; cat "$tmp/h.out"; fail=1; }

# (i) age changes the order while the jobs wait.  The node is busy until
# 12:00.  Job 2: submitted 23 h ago, Nice=-100: 958 + 100 = 1058 now, 1100
# once its age is capped (a day).  Job 3: submitted 10 h ago, Nice=-300:
# 416 + 300 = 716 now, 916 + 300 = 1216 at 12:00 (22 h old).  Job 2 leads
# now; at 12:00 job 3 does, and starts first.
mkdir "$tmp/i"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/i/slurm.conf"
{
	job 1 RUNNING p 1 4 780 -3600 -3600 n1
	NICE=-100 job 2 PENDING p 1 4 60 -82800
	NICE=-300 job 3 PENDING p 1 4 60 -36000
} >"$tmp/i/jobs.txt"
prio-calc --snapshot "$tmp/i" --now "$NOW" -h -o '%i %Y' >"$tmp/i.prio" 2>&1
[ "$(awk '{ printf "%s=%s ", $1, $2 }' "$tmp/i.prio")" = "2=1058 3=716 " ] ||
	{ echo "i: priorities at NOW: $(cat "$tmp/i.prio")"; fail=1; }
forecast i
expect i 3 start "$(ts 43200)"
expect i 2 start "$(ts 46800)"

# (m) the select plugin's knapsack guard: n1 is busy, n2 has 4 of its 8
# CPUs free, n3 and n4 are idle.  Job 3 needs 16 CPUs on 2 nodes, spread
# as the nodes allow.  Taking nodes in order from n2 it would get 4 there
# and then need 12 on one node: it fails, unless the plugin tries again
# without the nodes of fewest free CPUs, as cons_tres does.  It starts now
# on n[3-4]; without the retry it would wait for job 2 to end at 01:00.
mkdir "$tmp/m"
conf 4 8 "PartitionName=p Nodes=n[1-4] Default=YES State=UP" >"$tmp/m/slurm.conf"
{
	job 1 RUNNING p 1 8 60 -3600 -600 n1
	job 2 RUNNING p 1 4 60 -3600 -600 n2
	job 3 PENDING p 2 16 30 -300
} >"$tmp/m/jobs.txt"
forecast m
expect m 3 start "$(ts 0)"
expect m 3 nodes "n[3-4]"
expect m 3 by main

# (n) backfill sees a running job end at its own instant (the select
# plugin's will-run test), not at the next bf_resolution step: job 1 holds
# n1 until 00:01:01.  Job 2 (both nodes) can start then; its reservation
# is kept from 00:01:00 (truncated to the minute).  Job 4 (n2, 2 minutes)
# would run into it, so it waits for job 2's end at 00:11:01.  Had the
# end been seen at 00:02:00, the next minute step from NOW, job 4 would
# have ended by the reservation and started now.
mkdir "$tmp/n"
conf 2 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" >"$tmp/n/slurm.conf"
{
	job 1 RUNNING p 1 4 2 -3600 -59 n1
	job 2 PENDING p 2 8 10 -900
	job 4 PENDING p 1 4 2 -300
} >"$tmp/n/jobs.txt"
forecast n
expect n 2 start "$(ts 61)"
expect n 2 by main
expect n 4 start "$(ts 661)"

# (o) ends in consecutive seconds are one instant (the records keep whole
# seconds: one pass's jobs may show starts a second apart): jobs 1 and 2
# hold n1 until +1 s and +2 s, jobs 3 and 6 half of n2 and n3 until +2 s
# (the other halves are busy for an hour).  At +2 s job 4 (4 CPUs) takes
# the best fit, n2, and job 5 (12 CPUs on 2 nodes) n1 and n3.  Were +1 s a
# pass of its own, job 4 would take the half of n1 then free, and job 5
# would wait an hour.
mkdir "$tmp/o"
conf 3 8 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" >"$tmp/o/slurm.conf"
{
	job 1 RUNNING p 1 4 1 -3600 -59 n1
	job 2 RUNNING p 1 4 1 -3600 -58 n1
	job 3 RUNNING p 1 4 1 -3600 -58 n2
	job 6 RUNNING p 1 4 1 -3600 -58 n3
	job 7 RUNNING p 1 4 60 -3600 -600 n2
	job 8 RUNNING p 1 4 60 -3600 -600 n3
	job 4 PENDING p 1 4 30 -900
	job 5 PENDING p 2 12 30 -600
} >"$tmp/o/jobs.txt"
forecast o
expect o 4 start "$(ts 2)"
expect o 4 nodes n2
expect o 5 start "$(ts 2)"
expect o 5 nodes "n[1,3]"

# (l) --forecast-ends history: u1's finished jobs in sacct ran 1/4, 1/2 and
# 3/4 of their limits (median 1/2).  Job 1 (2 of 4 CPUs, 60 min, started
# 10 min ago) really ends at 00:20, though Slurm plans with 01:50.  Backfill
# plans with limits: job 2 (4 CPUs) is reserved at 00:50, so job 3 (2 CPUs,
# 40 min) starts now, ahead of it, and really ends at 00:20 too (half its
# limit).  At 00:20 both have ended and job 2 starts, ending at 00:50.
# At limits: job 3 still starts now; job 2 at 00:50.  A job in the history
# over its limit (TIMEOUT) counts as its limit; a PREEMPTED one not at all.
mkdir "$tmp/l"
conf 1 4 "PartitionName=p Nodes=n1 Default=YES State=UP" >"$tmp/l/slurm.conf"
{
	job 1 RUNNING p 1 2 60 -3600 -600 n1
	job 2 PENDING p 1 4 60 -900
	job 3 PENDING p 1 2 40 -600
} >"$tmp/l/jobs.txt"
{
	echo "JobID|User|State|Start|End|ElapsedRaw|TimelimitRaw"
	echo "91|u1|COMPLETED|$(ts -90000)|$(ts -89100)|900|60"
	echo "92|u1|COMPLETED|$(ts -90000)|$(ts -88200)|1800|60"
	echo "93|u1|TIMEOUT|$(ts -90000)|$(ts -86340)|3660|60"
	echo "94|u1|PREEMPTED|$(ts -90000)|$(ts -89940)|60|60"
	echo "95|u1|COMPLETED|$(ts -90000)|$(ts -87300)|2700|60"
	echo "96|u1|COMPLETED|$(ts -90000)|$(ts -89280)|720|60"
} >"$tmp/l/sacct.txt"
# u1: 0.2 0.25 0.5 0.75 1 -> 0.5
forecast l --forecast-ends history
expect l 3 start "$(ts 0)"
expect l 3 by backfill
expect l 3 end "$(ts 1200)"
expect l 2 start "$(ts 1200)"
expect l 2 by main
expect l 2 end "$(ts 3000)"
expect l 2 freed_by 1,3
forecast l --forecast-ends limit
expect l 3 start "$(ts 0)"
expect l 3 end "$(ts 2400)"
expect l 2 start "$(ts 3000)"
expect l 2 end "$(ts 6600)"
# without a job history the option is refused in one line, exit 2
rm "$tmp/l/sacct.txt"
prio-calc --snapshot "$tmp/l" --now "$NOW" --forecast --forecast-ends history \
	>"$tmp/l.out" 2>"$tmp/l.err"
st=$?
[ "$st" = 2 ] && [ "$(wc -l <"$tmp/l.err")" = 1 ] &&
	grep -q 'forecast-ends history: no job history' "$tmp/l.err" ||
	{ echo "l: no sacct: exit $st: $(cat "$tmp/l.err")"; fail=1; }

# (p) a job backfill starts frees its CPUs, for the jobs tested after it in
# the same pass, at its end (as the select plugin's will-run test sees the
# running jobs).  n1 is busy until 03:00; n2 idle.  Job 2 (top) needs both
# nodes whole: reserved at 03:00.  Job 3 (2 CPUs, 30 min) starts now on n2.
# Job 4 (4 CPUs, one node) fits on n2 once job 3 ends at 00:30, before job
# 2's reservation: reserved there, [00:30, 01:30).  So job 5 (2 CPUs, an
# hour) may not take n2's other 2 CPUs now: it would delay job 4.  Job 4
# starts at 00:30, job 5 when it ends (01:30, still before 03:00).  Had job
# 3's CPUs stayed taken for the rest of the pass, job 4 would have been
# planned at 04:00 on n1 and job 5 started at once.
mkdir "$tmp/p"
conf 2 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" >"$tmp/p/slurm.conf"
{
	job 1 RUNNING p 1 4 240 -3600 -3600 n1
	job 2 PENDING p 2 8 60 -1000
	job 3 PENDING p 1 2 30 -900
	job 4 PENDING p 1 4 60 -800
	job 5 PENDING p 1 2 60 -700
} >"$tmp/p/jobs.txt"
forecast p
expect p 3 start "$(ts 0)"
expect p 3 by backfill
expect p 4 start "$(ts 1800)"
expect p 4 nodes n2
expect p 5 start "$(ts 5400)"
expect p 5 by backfill
expect p 2 start "$(ts 10800)"
expect p 2 by main

# (q) a shape that found no start in the window says nothing of another
# that needs fewer CPUs: bf_window is an hour, n1 and n2 have one CPU free
# each for three hours.  Job 3 (8 tasks over 2 nodes) fits nowhere in the
# window; job 4 (2 tasks over 2 nodes, the same CPUs per task and memory
# per CPU) fits now, one task a node: backfill starts it.
mkdir "$tmp/q"
conf 2 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" \
	"SchedulerParameters=bf_window=60" >"$tmp/q/slurm.conf"
{
	job 1 RUNNING p 1 3 240 -3600 -3600 n1
	job 2 RUNNING p 1 3 240 -3600 -3600 n2
	job 3 PENDING p 2 8 60 -900
	job 4 PENDING p 2 2 60 -600
} >"$tmp/q/jobs.txt"
forecast q
expect q 4 start "$(ts 0)"
expect q 4 by backfill
expect q 4 nodes n[1-2]
expect q 3 start "$(ts 10800)"

# Limits (AccountingStorageEnforce=limits): u1 and u2 in account a.
# limits_tree LIMITS: the association dump, account a's limits
# (":GrpTRES=cpu=6").
limits_tree() {
	cat <<EOA
Cluster - 't':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'a':Description='a':Organization='a':Fairshare=1${1:-}
Parent - 'a'
User - 'u1':DefaultAccount='a':Fairshare=1
User - 'u2':DefaultAccount='a':Fairshare=1
EOA
}
# (r) QOS normal's MaxJobsPU=1: job 1 (u1) runs on n1 until 00:50, n2 is
# idle.  Job 2 (u1, pending for the limit, as Slurm says) is held by it,
# which does not stop the main scheduler: job 3 (u2, a whole node) starts
# now on n2.  Job 2 starts when job 1 ends.
mkdir "$tmp/r"
conf 2 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" \
	"AccountingStorageEnforce=associations,limits" >"$tmp/r/slurm.conf"
limits_tree >"$tmp/r/assoc.cfg"
{
	echo "Name|Priority|GrpTRES|GrpJobs|MaxTRESPU|MaxJobsPU|MaxTRESPA|MaxJobsPA"
	echo "normal|0||||1||"
} >"$tmp/r/qos.txt"
{
	job 1 RUNNING p 1 2 60 -900 -600 n1
	REASON=QOSMaxJobsPerUserLimit job 2 PENDING p 1 2 60 -800
	JUSER=u2 job 3 PENDING p 1 4 60 -700
} >"$tmp/r/jobs.txt"
forecast r
expect r 3 start "$(ts 0)"
expect r 3 by main
expect r 3 nodes n2
expect r 2 start "$(ts 3000)"
expect r 2 by main
# pending for the limit the model applies: said, not "not modelled"
expect r 2 note "waited for a limit: QOS normal MaxJobsPU=1"
# the same without enforcement: job 2 starts at once beside job 1
sed -i 's/^AccountingStorageEnforce=.*/AccountingStorageEnforce=associations/' "$tmp/r/slurm.conf"
forecast r
expect r 2 start "$(ts 0)"

# (s) account a's GrpTRES=cpu=6 over its users.  Job 1 (u1, 4 CPUs) starts
# now; job 2 (u2, 4 CPUs) would bring a to 8: held, though n2 is idle; job 3
# (u2, 2 CPUs: 6) starts now by the main scheduler.  At 01:00 job 1 ends
# and job 2 (2 + 4) starts.  A job that can never pass (7 CPUs) is held to
# the end, and says by what.
mkdir "$tmp/s"
conf 2 8 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" \
	"AccountingStorageEnforce=limits,safe" >"$tmp/s/slurm.conf"
limits_tree :GrpTRES=cpu=6 >"$tmp/s/assoc.cfg"
{
	job 1 PENDING p 1 4 60 -900
	JUSER=u2 job 2 PENDING p 1 4 60 -800
	JUSER=u2 job 3 PENDING p 1 2 60 -700
	job 4 PENDING p 1 7 60 -600
} >"$tmp/s/jobs.txt"
forecast s
expect s 1 start "$(ts 0)"
expect s 3 start "$(ts 0)"
expect s 3 by main
expect s 2 start "$(ts 3600)"
grep -q '^4|p|u1|never|.*|held by a limit: account a GrpTRES cpu=6$' "$tmp/s.out" ||
	{ echo "s: job 4: $(grep '^4|' "$tmp/s.out")"; fail=1; }

# (t) account a's MaxJobs=1 holds each user association below it (slurmdbd
# hands it down): u1's job 2 waits for u1's job 1, u2's job 3 does not.
# A QOS MaxJobsPU replaces the associations' MaxJobs: with normal's
# MaxJobsPU=2, job 2 starts at once.
mkdir "$tmp/t"
conf 1 8 "PartitionName=p Nodes=n1 Default=YES State=UP" \
	"AccountingStorageEnforce=associations,limits" >"$tmp/t/slurm.conf"
limits_tree :MaxJobs=1 >"$tmp/t/assoc.cfg"
{
	job 1 PENDING p 1 2 60 -900
	job 2 PENDING p 1 2 60 -800
	JUSER=u2 job 3 PENDING p 1 2 60 -700
} >"$tmp/t/jobs.txt"
forecast t
expect t 1 start "$(ts 0)"
expect t 3 start "$(ts 0)"
expect t 2 start "$(ts 3600)"
# the same written users first, account a defined after them (a dump
# a person wrote): u1's association still has a's MaxJobs
cat >"$tmp/t/assoc.cfg" <<EOA
Cluster - 't':Fairshare=1:QOS='normal'
Parent - 'a'
User - 'u1':DefaultAccount='a':Fairshare=1
User - 'u2':DefaultAccount='a':Fairshare=1
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'a':Description='a':Organization='a':Fairshare=1:MaxJobs=1
EOA
forecast t
expect t 2 start "$(ts 3600)"
expect t 3 start "$(ts 0)"
{
	echo "Name|Priority|MaxJobsPU"
	echo "normal|0|2"
} >"$tmp/t/qos.txt"
forecast t
expect t 2 start "$(ts 0)"
# no MaxJobs, QOS normal's MaxTRESPU=cpu=3: u1's jobs of 2 CPUs one at a
# time again
limits_tree >"$tmp/t/assoc.cfg"
{
	echo "Name|Priority|MaxTRESPU"
	echo "normal|0|cpu=3"
} >"$tmp/t/qos.txt"
forecast t
expect t 2 start "$(ts 3600)"
expect t 3 start "$(ts 0)"

# (u) a partition's QOS: pq's GrpJobs=1 counts every job of partition p,
# whatever its QOS, and comes before the job's QOS (normal's GrpJobs=3 is
# of the same kind: not applied).  Unless normal has OverPartQOS: then
# normal's GrpJobs=3 comes first and pq's is not applied.
mkdir "$tmp/u"
conf 1 8 "PartitionName=p Nodes=n1 Default=YES State=UP QOS=pq" \
	"AccountingStorageEnforce=associations,limits" >"$tmp/u/slurm.conf"
limits_tree >"$tmp/u/assoc.cfg"
{
	echo "Name|Priority|GrpJobs|Flags"
	echo "normal|0|3|"
	echo "pq|0|1|"
} >"$tmp/u/qos.txt"
{
	job 1 PENDING p 1 2 60 -900
	job 2 PENDING p 1 2 60 -800
	JUSER=u2 job 3 PENDING p 1 2 60 -700
} >"$tmp/u/jobs.txt"
forecast u
expect u 1 start "$(ts 0)"
expect u 2 start "$(ts 3600)"
expect u 3 start "$(ts 7200)"
sed -i 's/^normal|0|3|$/normal|0|3|OverPartQOS/' "$tmp/u/qos.txt"
forecast u
expect u 2 start "$(ts 0)"
expect u 3 start "$(ts 0)"

# (v) the backfill timer comes back when its last pass started jobs, even
# with nothing ending: QOS normal's MaxJobsPU=2, u2 runs job 2 on n3.  Job
# 3 (u2, both of n1 and n2) is reserved at 00:10, when job 1 ends, and
# blocks partition p.  Backfill starts job 4 (u2, short) on n2, which
# brings u2 to the limit; in that pass job 5 (u1, 3 CPUs, an hour) would
# run into job 3's reservation.  On the next pass, 30 s on (bf_interval),
# job 3 is held by the limit and holds nothing: job 5 starts.  Job 3
# starts when job 5 ends.
mkdir "$tmp/v"
conf 3 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" \
	"PartitionName=q Nodes=n3 State=UP" \
	"AccountingStorageEnforce=associations,limits" >"$tmp/v/slurm.conf"
limits_tree >"$tmp/v/assoc.cfg"
{
	echo "Name|Priority|MaxJobsPU"
	echo "normal|0|2"
} >"$tmp/v/qos.txt"
{
	job 1 RUNNING p 1 4 20 -1000 -600 n1
	JUSER=u2 job 2 RUNNING q 1 1 120 -1000 -600 n3
	NTPN=4 JUSER=u2 job 3 PENDING p 2 8 10 -900
	JUSER=u2 job 4 PENDING p 1 1 5 -800
	job 5 PENDING p 1 3 60 -700
} >"$tmp/v/jobs.txt"
forecast v
expect v 4 start "$(ts 0)"
expect v 4 by backfill
expect v 5 start "$(ts 30)"
expect v 3 start "$(ts 3630)"

# (w) the jobs that cannot start now still hold their reservations for the
# jobs below them.  n2 frees at 00:30, n3 at 01:00.  Job 3 (3 nodes, the
# highest) cannot start now: reserved on n[1-3] at 01:00.  Job 4 (one node,
# 90 min) could start on idle n1 if nothing were reserved, but would run
# into job 3's reservation: it waits for job 3's end, 02:00.  Job 5 (45
# min) ends before 01:00: it starts now on n1, by backfill.
mkdir "$tmp/w"
conf 3 4 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" >"$tmp/w/slurm.conf"
{
	job 1 RUNNING p 1 4 60 -3600 -1800 n2
	job 2 RUNNING p 1 4 120 -7200 -3600 n3
	job 3 PENDING p 3 12 60 -900
	job 4 PENDING p 1 4 90 -600
	job 5 PENDING p 1 4 45 -300
} >"$tmp/w/jobs.txt"
forecast w
expect w 5 start "$(ts 0)"
expect w 5 by backfill
expect w 5 nodes n1
expect w 3 start "$(ts 3600)"
expect w 3 nodes "n[1-3]"
expect w 4 start "$(ts 7200)"

# (y) case b with sdiag's last backfill cycle (sdiag.txt): it started 2 s
# before NOW and ran 1.5 s, so with the default bf_interval of 30 s the
# next pass is 29 s after NOW (2 s before NOW, plus the 1 s sdiag's
# microseconds make in whole seconds, plus 30); job 3 starts then, by
# backfill, not at NOW.  A last cycle 2 minutes old says the timer was
# idle: the pass comes at NOW, as without sdiag.
sdiag() { # START_OFFSET MICROSECONDS
	printf '%s\n' "*******************************************************" \
		"sdiag output at $(ts 0) ($NOW)" "Data since      $(ts -600) ($((NOW - 600)))" \
		"Backfilling stats" "	Total backfilled jobs (since last slurm start): 0" \
		"	Total cycles: 12" "	Last cycle when: $(ts "$1") ($((NOW + $1)))" \
		"	Last cycle: $2" "	Max cycle:  $2"
}
mkdir "$tmp/y"
cp "$tmp/b/slurm.conf" "$tmp/b/jobs.txt" "$tmp/y/"
sdiag -2 1500000 >"$tmp/y/sdiag.txt"
forecast y
expect y 3 start "$(ts 29)"
expect y 3 by backfill
expect y 2 start "$(ts 3600)"
sdiag -120 1500000 >"$tmp/y/sdiag.txt"
forecast y
expect y 3 start "$(ts 0)"

# (x) a reservation made after a start the pass knows its job cannot beat.
# Two 4-CPU nodes: job 1 holds n1 until 01:00, job 2 two of n2's CPUs until
# 02:00.  Job 3 (the whole of one node, 3 h) is reserved n1 at 01:00; job 4,
# the same shape and limit, cannot start before that (the pass moves its
# sweep straight there) and is reserved n2 at 02:00, as n1 is held until
# 04:00.  Job 5 (2 CPUs, 150 min) would fit in n2's two free CPUs now but
# run into job 4's reservation: it waits for n1 at 04:00.  Job 6 (2 CPUs,
# 90 min) ends before 02:00: it starts now on n2, by backfill.
mkdir "$tmp/x"
conf 2 4 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" >"$tmp/x/slurm.conf"
{
	job 1 RUNNING p 1 4 120 -3600 -3600 n1
	job 2 RUNNING p 1 2 180 -3600 -3600 n2
	job 3 PENDING p 1 4 180 -1000
	job 4 PENDING p 1 4 180 -900
	job 5 PENDING p 1 2 150 -800
	job 6 PENDING p 1 2 90 -700
} >"$tmp/x/jobs.txt"
forecast x
expect x 6 start "$(ts 0)"
expect x 6 by backfill
expect x 6 nodes n2
expect x 3 start "$(ts 3600)"
expect x 3 nodes n1
expect x 4 start "$(ts 7200)"
expect x 4 nodes n2
expect x 5 start "$(ts 14400)"
expect x 5 nodes n1

# (z) a job with no start in one pass's window finds one in the next's.
# bf_window is an hour; three 4-CPU nodes.  n1 is held until 01:00:15, n2
# until 00:30, two of n3's CPUs until 00:00:10.  In the first pass job 3
# (the three nodes, 1 h) has no start in the window (to 01:00:00) and holds
# no reservation; job 4 (one node, 1 h) is reserved n3 at 00:00:10, so job
# 6 (2 CPUs, 2 h), which would fit on n3 now, does not start.  At 00:00:30
# the next pass's window reaches 01:00:30: job 3 is reserved n[1-3] at
# 01:00:15, and job 4, which would now fit on n3, would run into it.  Both
# wait for job 3's end.  A pass that took the first pass's "no start" for
# job 3 again would start job 4 at 00:00:30.
mkdir "$tmp/z"
conf 3 4 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" \
	"SchedulerParameters=bf_window=60" >"$tmp/z/slurm.conf"
z_jobs() { # NODES3 LIMIT4: job 3's nodes, job 4's limit
	job 1 RUNNING p 1 4 120 -4000 -3585 n1
	job 2 RUNNING p 1 4 60 -4000 -1800 n2
	job 5 RUNNING p 1 2 60 -4000 -3590 n3
	job 3 PENDING p "$1" $(($1 * 4)) 60 -900
	job 4 PENDING p 1 4 "$2" -800
	job 6 PENDING p 1 2 120 -700
}
z_jobs 3 60 >"$tmp/z/jobs.txt"
forecast z
expect z 3 start "$(ts 3615)"
expect z 3 nodes "n[1-3]"
expect z 4 start "$(ts 7215)"
expect z 6 start "$(ts 7215)"
# A reservation that comes due before the next pass.  Job 3 now needs two
# nodes (reserved n[2-3] at 00:30, and blocking the main scheduler) and job
# 4 runs 20 min: the first pass reserves it n3 at 00:00:10, before job 3's
# start, and job 6 still cannot start.  At 00:00:30 job 4's start has come:
# it starts on n3, by backfill (a pass that kept its reservation would leave
# it waiting for job 3).  Job 3 starts at 00:30, job 6 on n1 at 01:00:15.
z_jobs 2 20 >"$tmp/z/jobs.txt"
forecast z
expect z 4 start "$(ts 30)"
expect z 4 by backfill
expect z 4 nodes n3
expect z 3 start "$(ts 1800)"
expect z 3 nodes "n[2-3]"
expect z 6 start "$(ts 3615)"
expect z 6 nodes n1

# (aa) a backfill reservation holds its nodes whole: slurmctld's backfill
# map takes a planned job's nodes out of what later jobs may use over its
# time (node bitmaps), whatever part of them it needs.  Two 8-CPU nodes: n1
# held until 00:30, n2 half held until 01:00.  Job 3 (two tasks on each of
# two nodes) is reserved n[1-2] at 00:30.  Job 4 (2 CPUs, 1 h) would fit
# beside job 2 and job 3's two CPUs on n2, but n2 is reserved from 00:30:
# it waits, and starts at 00:30, after job 3.
mkdir "$tmp/aa"
conf 2 8 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" >"$tmp/aa/slurm.conf"
{
	job 1 RUNNING p 1 8 60 -4000 -1800 n1
	job 2 RUNNING p 1 4 120 -4000 -3600 n2
	NTPN=2 job 3 PENDING p 2 4 60 -900
	job 4 PENDING p 1 2 60 -800
} >"$tmp/aa/jobs.txt"
forecast aa
expect aa 3 start "$(ts 1800)"
expect aa 3 nodes "n[1-2]"
expect aa 4 start "$(ts 1800)"
expect aa 4 by main

# (bb) Slurm's will-run test frees the running jobs in groups, not one at
# a time (cons_tres _future_run_test): the first group ends 30 s past the
# first end's next multiple of 30 s, and a fit gives the group's last end.
# Four 1-CPU nodes, n4 idle; n1 frees at 00:01:40, n3 at 00:02:05, n2 at
# 00:02:10.  Job 4 needs two nodes: one end at a time it would start at
# 00:01:40 on n1 and n4, and job 5 (2 min) could not take n4 now.  In
# groups the ends by 00:02:30 go together: job 4 is planned for 00:02:10
# on n[1-2] (the first free nodes then), n4 is left to job 5, which
# backfills now; job 4 starts when job 5 ends, on n1 and n4.
mkdir "$tmp/bb"
conf 4 1 "PartitionName=p Nodes=n[1-4] Default=YES State=UP" >"$tmp/bb/slurm.conf"
{
	job 1 RUNNING p 1 1 60 -4000 -3500 n1
	job 2 RUNNING p 1 1 60 -4000 -3470 n2
	job 3 RUNNING p 1 1 60 -4000 -3475 n3
	NTPN=1 job 4 PENDING p 2 2 60 -900
	job 5 PENDING p 1 1 2 -800
} >"$tmp/bb/jobs.txt"
forecast bb
expect bb 5 start "$(ts 0)"
expect bb 5 nodes n4
expect bb 5 by backfill
expect bb 4 start "$(ts 120)"
expect bb 4 nodes "n[1,4]"

# (cc) From 25.05 the will-run test gives as the start the end of the last
# job it freed on a node it chose, not the group's last end.  n1 idle; n2
# frees at 00:02:40, n3 at 00:02:55, n4 at 00:03:05, one group.  Job 4
# needs three nodes and is given n[1-3].  24.11 plans it at 00:03:05, the
# group's last end (00:03:00 in the map), so job 5 (2 min, ending at
# 00:02:00) fits on n1 before it and backfills now; job 4 starts at
# 00:02:55 when n3 frees.  25.05 plans it at 00:02:55 (00:02:00 in the
# map: n4's job was not needed); job 5's run would end at 00:02:00, the
# map counts that as an overlap (see (j)), so it waits; job 4 starts at
# 00:02:55 and job 5 gets n4 at 00:03:05.
mkdir "$tmp/cc"
conf 4 1 "PartitionName=p Nodes=n[1-4] Default=YES State=UP" >"$tmp/cc/slurm.conf"
{
	job 1 RUNNING p 1 1 60 -4000 -3440 n2
	job 2 RUNNING p 1 1 60 -4000 -3425 n3
	job 3 RUNNING p 1 1 60 -4000 -3415 n4
	NTPN=1 job 4 PENDING p 3 3 60 -900
	job 5 PENDING p 1 1 2 -800
} >"$tmp/cc/jobs.txt"
forecast cc --slurm-version 24.11
expect cc 5 start "$(ts 0)"
expect cc 5 nodes n1
expect cc 5 by backfill
expect cc 4 start "$(ts 175)"
expect cc 4 nodes "n[1-3]"
forecast cc --slurm-version 25.05
expect cc 4 start "$(ts 175)"
expect cc 4 nodes "n[1-3]"
expect cc 5 start "$(ts 185)"
expect cc 5 nodes n4

# (dd) From 24.11 the backfill scheduler bounds a job's will-run test: with
# no node of its own given back by the map's first change after its run,
# by the map's third change, on any node.  Partition q: n4 frees at
# 00:02:00 and jobs 2 and 3 (1 min each) are planned there, 00:02-00:03
# and 00:03-00:04: the map changes at 00:02, 00:03 and 00:04.  Partition p:
# n1 idle, n2 frees at 00:03:55, n3 at 00:04:10, one group.  Job 6 (two
# nodes, 1 min) ends its run at 00:01:00.  24.11 stops its test at 00:04:00
# and plans it at 00:03:55 on n[1-2] (00:03:00 in the map): job 7 (3 min)
# would end at 00:03:00, an overlap (see (j)), and waits for n3 at 00:04:10;
# job 6 starts at 00:03:55.  24.05 plans it at the group's last end,
# 00:04:10 (00:04:00): job 7 backfills on n1 now, and job 6 starts at
# 00:03:55, job 7 having ended at 00:03:00.
mkdir "$tmp/dd"
conf 4 1 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" \
	"PartitionName=q Nodes=n4 State=UP" >"$tmp/dd/slurm.conf"
{
	job 1 RUNNING q 1 1 60 -4000 -3480 n4
	job 2 PENDING q 1 1 1 -3000
	job 3 PENDING q 1 1 1 -2900
	job 4 RUNNING p 1 1 60 -4000 -3365 n2
	job 5 RUNNING p 1 1 60 -4000 -3350 n3
	NTPN=1 job 6 PENDING p 2 2 1 -900
	job 7 PENDING p 1 1 3 -800
} >"$tmp/dd/jobs.txt"
forecast dd --slurm-version 24.11
expect dd 2 start "$(ts 120)"
expect dd 3 start "$(ts 180)"
expect dd 7 start "$(ts 250)"
expect dd 6 start "$(ts 235)"
expect dd 6 nodes "n[1-2]"
forecast dd --slurm-version 24.05
expect dd 7 start "$(ts 0)"
expect dd 7 nodes n1
expect dd 7 by backfill
expect dd 6 start "$(ts 235)"
expect dd 6 nodes "n[1-2]"

# (ee) 22.05 to 24.05: a job's will-run test knows nothing of the start
# backfill asks about; tried again from later_start it groups the running
# jobs from the first end on, the window doubling, as the first try did
# (24.11 frees the ends before the start first: (dd)).  Nodes of 2 CPUs.
# Job 5 (highest, 2 CPUs) is planned on n1 at 00:00:40, 00:00-00:02 in the
# map.  Job 6 (two nodes, 2 CPUs each, 5 min) cannot use n1 until 00:02:00
# and is tried again from there.  24.11: n1 is free by then, the first
# group after it (anchored at 00:03:30) holds job 2's end at 00:03:20 but
# not job 3's at 00:04:30: planned at 00:03:20 on n[1-2], 00:03:00 in the
# map.  24.05: the groups run from job 1's end (00:00:40, anchored at
# 00:01:00); the window doubles to 4 min and the group that fits holds
# jobs 2 and 3: planned at 00:04:30, 00:04:00 in the map.  Job 7 (1 CPU,
# 3 min) finds a CPU on n2 at 00:00:30 (job 4 ends) and its run would end
# at 00:03:30: 24.05 starts it then, beside job 2; 24.11 does not (job 6
# holds n2 from 00:03:00), and it waits for n3.  Job 6 then starts when
# n1 and n2 are free: 00:03:20 (24.11), 00:03:30 after job 7 (24.05).
mkdir "$tmp/ee"
conf 3 2 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" >"$tmp/ee/slurm.conf"
{
	job 1 RUNNING p 1 2 60 -4000 -3560 n1
	job 2 RUNNING p 1 1 60 -4000 -3400 n2
	job 3 RUNNING p 1 2 60 -4000 -3330 n3
	job 4 RUNNING p 1 1 60 -4000 -3570 n2
	job 5 PENDING p 1 2 2 -900
	NTPN=2 job 6 PENDING p 2 4 5 -800
	job 7 PENDING p 1 1 3 -700
} >"$tmp/ee/jobs.txt"
forecast ee --slurm-version 24.11
expect ee 5 start "$(ts 40)"
expect ee 6 start "$(ts 200)"
expect ee 6 nodes "n[1-2]"
expect ee 7 start "$(ts 270)"
expect ee 7 nodes n3
forecast ee --slurm-version 24.05
expect ee 5 start "$(ts 40)"
expect ee 7 start "$(ts 30)"
expect ee 7 nodes n2
expect ee 7 by backfill
expect ee 6 start "$(ts 210)"
expect ee 6 nodes "n[1-2]"

# (ff) Having planned a job, slurmctld checks its nodes against the map over
# the run truncated to bf_resolution both ends (_test_resv_overlap), and
# tries again only where a reservation begins before the truncated end.
# Nodes of 2 CPUs, each with a 1-CPU job ending at 00:03:10 (n1), 00:04:00
# (n2) and 00:04:10 (n3).  Job 4 (highest, 2 CPUs on each of the three) is
# planned at 00:04:10, 00:04:00 to 00:09:00 in the map.  Job 5 (2 CPUs,
# 1 min) fits on n1 once n1 and n2 are free; 25.05 plans it at n1's end,
# 00:03:10 (the last end on a node it chose), a run to 00:04:10 that the
# map sees as 00:03:00 to 00:04:00: no overlap, so it is held there.  Job 6
# (1 CPU, 3 min, ending at 00:03:00) would overlap job 5 on n1 and backfills
# now on n2.  Counting the run's last ten seconds as an overlap would
# retry job 5 from 00:03:10, where job 4 holds every node, and leave n1 to
# job 6.  24.11 plans job 5 at the group's last end, 00:04:00, which does
# overlap: job 6 takes n1.
mkdir "$tmp/ff"
conf 3 2 "PartitionName=p Nodes=n[1-3] Default=YES State=UP" >"$tmp/ff/slurm.conf"
{
	job 1 RUNNING p 1 1 60 -4000 -3410 n1
	job 2 RUNNING p 1 1 60 -4000 -3360 n2
	job 3 RUNNING p 1 1 60 -4000 -3350 n3
	NTPN=2 job 4 PENDING p 3 6 5 -900
	job 5 PENDING p 1 2 1 -800
	job 6 PENDING p 1 1 3 -700
} >"$tmp/ff/jobs.txt"
forecast ff --slurm-version 25.05
expect ff 6 start "$(ts 0)"
expect ff 6 nodes n2
expect ff 6 by backfill
forecast ff --slurm-version 24.11
expect ff 6 start "$(ts 0)"
expect ff 6 nodes n1
expect ff 6 by backfill

# (gg) A backfill reservation is at least bf_resolution long: slurmctld
# truncates both ends and, where that leaves nothing, holds one step from
# the start (_add_reservation).  bf_resolution=300, nodes of 2 CPUs.  Job
# 1 (1 CPU) ends on n1 at 00:01:40; job 3 (highest, 2 CPUs, 1 min) is
# planned there then, 00:00-00:05 in the map (00:00-00:00 truncated).
# Job 4 (1 CPU, 5 min) would use n1's free CPU until 00:05:00 and waits:
# job 3 starts at 00:01:40, job 4 when it ends, 00:02:40.  Without the
# step job 4 would start now and hold job 3 back to 00:05:00.
mkdir "$tmp/gg"
conf 2 2 "PartitionName=p Nodes=n[1-2] Default=YES State=UP" \
	"SchedulerParameters=bf_resolution=300" >"$tmp/gg/slurm.conf"
{
	job 1 RUNNING p 1 1 60 -4000 -3500 n1
	job 2 RUNNING p 1 2 60 -4000 -2600 n2
	job 3 PENDING p 1 2 1 -900
	job 4 PENDING p 1 1 5 -800
} >"$tmp/gg/jobs.txt"
forecast gg
expect gg 3 start "$(ts 100)"
expect gg 4 start "$(ts 160)"
expect gg 4 nodes n1

# A real capture (Slurm 24.11, every node drained): squeue --start gives no
# start time (N/A) to any pending job; the forecast starts none either, and
# says why.
o=tests/oracle/slurm-24.11-fairtree
mkdir "$tmp/live"
cp "$o/NOW" "$tmp/live/NOW"
cp "$o/scontrol_show_config.txt" "$tmp/live/config.txt"
cp "$o/scontrol_show_node.txt" "$tmp/live/nodes.txt"
cp "$o/scontrol_show_partition.txt" "$tmp/live/partitions.txt"
cp "$o/scontrol_show_job_d.txt" "$tmp/live/jobs.txt"
cp "$o/sacctmgr_show_qos.txt" "$tmp/live/qos.txt"
cp "$o/sacctmgr_dump.cfg" "$tmp/live/assoc.cfg"
cp "$o/sshare_a_l_P.txt" "$tmp/live/sshare.txt"
prio-calc --snapshot "$tmp/live" --forecast -P -h >"$tmp/live.out" 2>"$tmp/live.err" ||
	{ echo "live: prio-calc failed"; cat "$tmp/live.err"; fail=1; }
want=$(awk 'NR > 1 && $5 == "PD" { n++ } END { print n }' "$o/squeue_start.txt")
na=$(awk 'NR > 1 && $5 == "PD" && $6 == "N/A" { n++ } END { print n }' "$o/squeue_start.txt")
got=$(awk -F'|' '$4 == "never" && $11 ~ /not enough usable nodes/ || $4 == "held" { n++ } END { print n }' "$tmp/live.out")
[ "$want" = "$na" ] && [ "$got" = "$want" ] ||
	{ echo "live: $want pending, $na N/A in squeue --start, $got never or held in the forecast"; fail=1; }

exit $fail
