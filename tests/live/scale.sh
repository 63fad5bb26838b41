#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A large pending queue on a real Slurm (the host's, on loopback), to compare
# prio-calc with sprio where one priority calculation takes seconds: the
# oracle's scale-queue scenario (../shared/oracle/setup/desc/scale-queue.md)
# rebuilt with this project's cluster harness.  Not part of `make check` nor
# CI (a flood of 20,000 submissions takes about 7 minutes of both cores);
# run it by hand:
#
#   top_srcdir=. top_builddir=_b bash tests/live/scale.sh [JOBS] [OUTDIR]
#
# It leaves OUTDIR with sprio -l, the snapshot (prio-snap), the controller's
# priority log lines, and prio-calc's --check and -l at the found clock.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
export PATH="$top_builddir:$top_builddir/scripts:$PATH" TZ=UTC LC_ALL=C
# shellcheck source=cluster.sh
. "$top_srcdir/tests/live/cluster.sh"
[ "$(id -u)" = 0 ] || live_die "needs root (daemons, useradd, sbatch --uid)"
jobs=${1:-20000}
out=${2:-/tmp/prio-scale.$$}
mkdir -p "$out"

base=$(mktemp -d /tmp/prio-scale-live.XXXXXX)
chmod 755 "$base"
trap 'live_stop; [ -n "${PRIO_LIVE_KEEP:-}" ] || rm -rf "$base"' EXIT
trap 'exit 1' INT TERM
users="s01 s02 s03 s04 s05 s06 s07 s08 s09 s10 s11 s12"
live_install
# shellcheck disable=SC2086
live_users $users

# The scale scenario's settings: 30-minute PriorityMaxAge (1 AGE point is
# 1.8 s), a one-minute calculation, and scheduler intervals long enough
# that a flood is not scheduled job by job.
cat >"$base/scenario.conf" <<'EOF'
MaxJobCount=100000
SchedulerParameters=defer,bf_interval=30,sched_interval=30,bf_max_job_test=500,default_queue_depth=100
AccountingStorageTRES=cpu,mem,node,billing
PriorityType=priority/multifactor
PriorityDecayHalfLife=0-00:10:00
PriorityCalcPeriod=1
PriorityMaxAge=0-00:30:00
PriorityUsageResetPeriod=NONE
PriorityFavorSmall=NO
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=2000
PriorityWeightPartition=3000
PriorityWeightQOS=5000
PriorityWeightAssoc=500
PriorityWeightTRES=CPU=700,Mem=300
PartitionName=batch Nodes=@NODES@ Default=YES MaxTime=INFINITE State=UP PriorityJobFactor=10 PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G
PartitionName=short Nodes=@NODES@ MaxTime=02:00:00 State=UP PriorityJobFactor=50 PriorityTier=1 TRESBillingWeights=CPU=2.0,Mem=0.5G
PartitionName=big Nodes=@NODES@ MaxTime=INFINITE State=UP PriorityJobFactor=1 PriorityTier=2 TRESBillingWeights=CPU=0.5,Mem=1G,Node=4
EOF
port=${PRIO_SCALE_PORT:-37000}
live_start "$base" 4 8 16000 "$port"
sacctmgr -i add qos high priority=100 >/dev/null
sacctmgr -i add qos low priority=1 >/dev/null
sacctmgr -i add qos urgent priority=1000 >/dev/null
sacctmgr -i modify qos normal set priority=10 >/dev/null
sacctmgr -i add account phys parent=root fairshare=40 priority=5 >/dev/null
sacctmgr -i add account chem parent=root fairshare=30 >/dev/null
sacctmgr -i add account bio parent=root fairshare=10 priority=50 >/dev/null
i=0
for u in $users; do
	a=$(echo phys chem bio | cut -d' ' -f$((i % 3 + 1)))
	sacctmgr -i add user "$u" account="$a" fairshare=$((i % 3 + 1)) \
		qos=normal,high,low,urgent defaultqos=normal >/dev/null || live_die "add user $u"
	i=$((i + 1))
done
sleep 3 # the controller learns the associations

sub() { sbatch --parsable --chdir=/tmp -o /dev/null "$@"; }
# usage first (short jobs of every user), then blockers on every CPU
for u in $users; do
	sub --uid="$u" --gid="$u" -n 2 -t 5 -J "u_$u" --wrap 'sleep 40' >/dev/null
done
live_wait 200 "usage jobs" sh -c '[ -z "$(squeue -h -o %j | grep ^u_)" ]'
for k in 1 2 3 4 5 6 7 8; do
	u=$(echo $users | cut -d' ' -f$k)
	sub --uid="$u" --gid="$u" -n 4 --mem=4G -t 300 -J "blk_$u" --wrap 'sleep 18000' >/dev/null
done
live_wait 120 "blockers running" sh -c '[ -z "$(squeue -h -t PD -o %j | grep ^blk_)" ]'

# The flood: a fixed-seed mix of partitions, QOS, sizes, nice values,
# three loops in parallel as in the oracle's 82_scale_pending.sh.
awk -v N="$jobs" -v U="$users" 'BEGIN { srand(20261126); n = split(U, us, " ")
	for (j = 1; j <= N; j++) {
		u = us[int(n * rand()^1.6) + 1]
		r = rand(); p = (r < 0.58) ? "batch" : (r < 0.88) ? "short" : (r < 0.98) ? "big" : "batch,short"
		r = rand(); q = (r < 0.70) ? "normal" : (r < 0.82) ? "high" : (r < 0.94) ? "low" : "urgent"
		r = rand(); c = (r < 0.45) ? 1 : (r < 0.65) ? 2 : (r < 0.80) ? 4 : (r < 0.92) ? 8 : 16
		nodes = (c == 16) ? "-N 2" : ""
		r = rand(); nice = (r < 0.75) ? 0 : (r < 0.9) ? 10 : 500
		t = (p ~ /short/) ? 5 * int(1 + 24 * rand()) : 10 * int(1 + 100 * rand())
		ex = (rand() < 0.01) ? "-H" : ""
		printf "sbatch --parsable --uid=%s --gid=%s --chdir=/tmp -o /dev/null -p %s -q %s -n %d %s --nice=%d -t %d %s -J f%05d_%s --wrap \"sleep 600\"\n", u, u, p, q, c, nodes, nice, t, ex, j, u
	} }' >"$out/flood.cmds"
t0=$(date +%s)
pids=""
for k in 0 1 2; do
	awk -v k=$k 'NR % 3 == k' "$out/flood.cmds" | while read -r line; do
		eval "$line" >/dev/null 2>>"$out/flood.err" || true
	done &
	pids="$pids $!"
done
# only the loops: a bare `wait` would wait for the cluster's MariaDB too
# shellcheck disable=SC2086
wait $pids
t1=$(date +%s)
errs=$(cat "$out/flood.err" 2>/dev/null | grep -c .)
echo "flood: $jobs submissions in $((t1 - t0)) s, $errs error lines" | tee "$out/flood.log"

# Two whole calculations after the flood, then the capture a few seconds
# into the next minute (as the live test does).
log=$base/log/slurmctld.log
calcs() { grep -c 'Fair Tree fairshare algorithm, starting at root' "$log"; }
c0=$(calcs)
live_wait 300 "two calculations" sh -c "[ \$(grep -c 'Fair Tree fairshare algorithm, starting at root' $log) -ge $((c0 + 2)) ]"
sleep 5
date +%s >"$out/NOW"
sprio -l >"$out/sprio_l.txt" 2>&1
prio-snap "$out/snap" 2>"$out/snap.err" || live_log "prio-snap: $(cat "$out/snap.err")"
sprio -l >"$out/sprio_l_after.txt" 2>&1
cmp -s "$out/sprio_l.txt" "$out/sprio_l_after.txt" || live_log "sprio changed during the capture"
grep -e 'Fair Tree fairshare algorithm' -e ' Job [0-9]* priority: ' -e 'priority for job' \
	-e '_apply_new_usage' -e 'Decay factor' "$log" >"$out/slurmctld_priority.log"
prio-calc --snapshot "$out/snap" --check -P >"$out/check.txt" 2>"$out/check.err"
prio-calc --snapshot "$out/snap" -l >"$out/prio_calc_l.txt" 2>"$out/prio_calc_l.err"
live_log "captured into $out"

# The verdict: prio-calc with no --now is sprio -l, row for row, and the
# clock it finds is the second of the last pass's first line (see
# last_calc in run.sh for why not its last line).
cap=$(date -d "@$(cat "$out/NOW")" +%Y-%m-%dT%H:%M:%S)
clock=$(awk -v cap="$cap" '/Decay factor over/ && substr($1, 2, 19) <= cap { d = substr($1, 2, 19) }
	END { print d }' "$out/slurmctld_priority.log")
found=$(grep '^clock|last calculation|' "$out/check.txt" | cut -d'|' -f4)
rc=0
case $found in
"$clock ("*) echo "scale: ok clock $found" ;;
*) echo "scale: FAIL clock: Slurm's pass began $clock, prio-calc found '$found'"; rc=1 ;;
esac
if cmp -s <(sort "$out/sprio_l.txt") <(sort "$out/prio_calc_l.txt") && [ ! -s "$out/prio_calc_l.err" ]; then
	echo "scale: ok prio-calc -l equals sprio -l on $(($(wc -l <"$out/sprio_l.txt") - 1)) rows"
else
	echo "scale: FAIL prio-calc -l differs from sprio -l on" \
		"$(diff <(sort "$out/sprio_l.txt") <(sort "$out/prio_calc_l.txt") | grep -c '^>') rows"
	rc=1
fi
exit $rc
