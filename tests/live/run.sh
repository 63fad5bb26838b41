#!/bin/bash
# SPDX-License-Identifier: MIT
# The live test: a real Slurm cluster on loopback (tests/live/cluster.sh;
# the host's 22.05, or 24.11 in a Debian 13 chroot with PRIO_LIVE_SLURM=24.11)
# judges our numbers.  Each run draws a tree, weights, flags and jobs from a
# seed it prints (replay one with PRIO_LIVE_SEED=n), makes real usage with
# real jobs run as several Unix users, queues pending jobs, then in the same
# second captures Slurm's own sprio/sshare/sacct and runs our tools with
# --live, and compares.  Prints "live: N passed, N failed" last.
#
# Environment: PRIO_LIVE_SEED (default: from the clock), PRIO_LIVE_FLAGS
# (PriorityFlags instead of the drawn ones; the rest of the draw is the
# seed's), PRIO_LIVE_KEEP=1
# keeps the folder with every capture and log, PRIO_LIVE_SAVE (default
# /var/tmp) where the forecast's files go when its verdict fails,
# top_builddir/top_srcdir as for the other tests.  Needs root.  Bounded: every wait has a timeout, the
# whole run takes about 6 minutes; traffic stays on 127.0.0.1.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
# shellcheck source=cluster.sh
. "$top_srcdir/tests/live/cluster.sh"
export PATH="$top_builddir:$top_builddir/scripts:$PATH" TZ=UTC LC_ALL=C
export PRIO_TOOLS_CONF=/dev/null

[ "$(id -u)" = 0 ] || { echo "live: needs root (daemons, useradd)"; echo "live: 0 passed, 1 failed"; exit 1; }

# PRIO_LIVE_SLURM=24.11: the same test inside a Debian root that ships that
# Slurm (tests/live/chroot.sh), the source and build trees bound at their
# own paths.  Unset: the host's Slurm.
if [ -n "${PRIO_LIVE_SLURM:-}" ] && [ -z "${PRIO_LIVE_IN_CHROOT:-}" ]; then
	# shellcheck source=chroot.sh
	. "$top_srcdir/tests/live/chroot.sh"
	root=$(live_chroot_prepare "$PRIO_LIVE_SLURM") || exit 1
	trap live_chroot_leave EXIT
	trap 'exit 1' INT TERM
	live_chroot_enter "$root" "$(cd "$top_srcdir" && pwd -P)" "$(cd "$top_builddir" && pwd -P)"
	chroot "$root" env PRIO_LIVE_IN_CHROOT=1 LIVE_DBD_LIBS=/opt/prio-live/mariadb \
		top_srcdir="$(cd "$top_srcdir" && pwd -P)" top_builddir="$(cd "$top_builddir" && pwd -P)" \
		bash "$(cd "$top_srcdir" && pwd -P)/tests/live/run.sh"
	exit $?
fi
seed=${PRIO_LIVE_SEED:-$(($(date +%s) % 100000))}
# Draws come from our own generator whose state lives in a file: bash's
# RANDOM is reseeded in every $(...) subshell, which would make a seed
# replay nothing.
rng_file=$(mktemp)
echo "$seed" >"$rng_file"
rnd() { # a number in [0, $1)
	local x
	x=$(cat "$rng_file")
	x=$(( (x * 1103515245 + 12345) % 2147483648 ))
	echo "$x" >"$rng_file"
	echo $(( (x / 65536) % $1 ))
}
pick() { local a=("$@"); echo "${a[$(rnd ${#a[@]})]}"; }

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "live: ok $*"; }
bad() { failed=$((failed + 1)); echo "live: FAIL $*"; }

base=$(mktemp -d /tmp/prio-live.XXXXXX)
chmod 755 "$base"
cleanup() {
	live_stop
	rm -f "$rng_file"
	if [ -n "${PRIO_LIVE_KEEP:-}" ]; then echo "live: kept $base"; else rm -rf "$base"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

live_install
live_users pllive1 pllive2 pllive3 pllive4 pllive5 pllive6
echo "live: seed $seed on slurm $(dpkg-query -W -f '${Version}' slurm-client 2>/dev/null) (replay with PRIO_LIVE_SEED=$seed${PRIO_LIVE_SLURM:+ PRIO_LIVE_SLURM=$PRIO_LIVE_SLURM})"

# ---- the draw -------------------------------------------------------------
# DEPTH_OBLIVIOUS: a user whose sibling Slurm has not computed since it
# started gets EffectvUsage 0 and FairShare 1.0 (seed 11;
# tests/oracle/depth-oblivious-unset-sibling), modelled since.
flags=$(pick "" "" "NO_FAIR_TREE" "DEPTH_OBLIVIOUS" "MAX_TRES" "SMALL_RELATIVE_TO_TIME")
flags=${PRIO_LIVE_FLAGS:-$flags}
favor=$(pick NO NO YES)
w_age=$(pick 0 500 1000 3000)
w_fs=$(pick 5000 10000 20000)
w_js=$(pick 0 1000 2000)
w_part=$(pick 0 1000 3000)
w_qos=$(pick 0 2000 5000)
w_assoc=$(pick 0 500)
tres_w=$(pick "" "CPU=700,Mem=300" "CPU=1000")
jf_batch=$(pick 1 10 20)
jf_short=$(pick 1 30 50)
echo "live: draw flags='$flags' favor=$favor weights age=$w_age fs=$w_fs js=$w_js part=$w_part qos=$w_qos assoc=$w_assoc tres='$tres_w'"
{
	echo "AccountingStorageTRES=cpu,mem,node,billing"
	echo "PriorityType=priority/multifactor"
	echo "PriorityDecayHalfLife=0-00:05:00"
	echo "PriorityCalcPeriod=1"
	echo "PriorityMaxAge=0-00:10:00"
	echo "PriorityFavorSmall=$favor"
	echo "PriorityWeightAge=$w_age"
	echo "PriorityWeightFairshare=$w_fs"
	echo "PriorityWeightJobSize=$w_js"
	echo "PriorityWeightPartition=$w_part"
	echo "PriorityWeightQOS=$w_qos"
	echo "PriorityWeightAssoc=$w_assoc"
	[ -n "$tres_w" ] && echo "PriorityWeightTRES=$tres_w"
	[ -n "$flags" ] && echo "PriorityFlags=$flags"
	# preempt/qos: only QOS urgent preempts (the last step), so the
	# priority phase is unaffected
	echo "PreemptType=preempt/qos"
	echo "PreemptMode=REQUEUE"
	echo "PartitionName=batch Nodes=@NODES@ Default=YES MaxTime=INFINITE State=UP PriorityJobFactor=$jf_batch PriorityTier=1 TRESBillingWeights=CPU=1.0,Mem=0.25G"
	echo "PartitionName=short Nodes=@NODES@ MaxTime=02:00:00 State=UP PriorityJobFactor=$jf_short PriorityTier=1 TRESBillingWeights=CPU=2.0,Mem=0.5G"
} >"$base/scenario.conf"

# below Linux's ephemeral range (32768 and up by default): a port there
# may be a client connection's at the moment MariaDB or a daemon binds it
# (seed 42445's MariaDB found 47806 taken).  A run uses 15 ports from
# here; the chroot's run takes the 20 above the host's, so that CI's two
# runs at once never share one (their seeds come from the same second).
port_off=0
[ -n "${PRIO_LIVE_SLURM:-}" ] && port_off=20
port=$((20000 + (seed % 300) * 40 + port_off))
live_start "$base" 4 8 16000 "$port"

# ---- accounts, users, QOS ---------------------------------------------------
sh_a=$(pick 10 30 50) sh_b=$(pick 10 20 40) sh_c=$(pick 5 10)
sacctmgr -i add qos high priority=100 >/dev/null
sacctmgr -i add qos low priority=1 >/dev/null
sacctmgr -i add qos mid priority=50 >/dev/null
sacctmgr -i add qos urgent priority=1000 preempt=low,normal,mid,high preemptmode=requeue >/dev/null
sacctmgr -i modify qos normal set priority=10 >/dev/null
sacctmgr -i add account acca parent=root fairshare="$sh_a" priority=20 >/dev/null
sacctmgr -i add account accb parent=root fairshare="$sh_b" >/dev/null
sacctmgr -i add account accb1 parent=accb fairshare="$(pick 1 2 3)" >/dev/null
sacctmgr -i add account accb2 parent=accb fairshare="$(pick 1 2 3)" >/dev/null
sacctmgr -i add account accc parent=root fairshare="$sh_c" >/dev/null
add_user() { # user account fairshare
	sacctmgr -i add user "$1" account="$2" fairshare="$3" qos=normal,high,low,mid,urgent \
		defaultqos=normal >/dev/null || live_die "sacctmgr add user $1 $2"
}
add_user pllive1 acca "$(pick 1 2)"
add_user pllive2 acca "$(pick 1 3)"
add_user pllive3 accb1 1
add_user pllive4 accb2 "$(pick 1 2)"
add_user pllive5 accb2 parent
add_user pllive6 accc 1
add_user pllive1 accc 1
echo "live: tree acca=$sh_a accb=$sh_b accc=$sh_c"

sub() { local u=$1; shift; runuser -u "$u" -- sbatch --parsable --chdir=/tmp -o /dev/null "$@"; }
# shellcheck source=forecast.sh
. "$top_srcdir/tests/live/forecast.sh"
# shellcheck source=history.sh
. "$top_srcdir/tests/live/history.sh"
# PRIO_LIVE_ONLY=forecast: the forecast step alone (about 8 minutes), to
# judge the forecast on several seeds without the priority phases
if [ "${PRIO_LIVE_ONLY:-}" = forecast ]; then
	forecast_step
	echo "live: $passed passed, $failed failed, ${known:-0} known failures (seed $seed)"
	[ "$failed" = 0 ]
	exit
fi

# ---- usage: real jobs for two minutes ---------------------------------------
start_usage=$(date +%s)
for spec in "pllive1 acca batch 4" "pllive2 acca short 2" "pllive3 accb1 batch 6" \
	"pllive4 accb2 short 3" "pllive5 accb2 batch 1" "pllive6 accc batch 2" \
	"pllive1 accc short 1"; do
	set -- $spec
	n=$(( $4 + $(rnd 3) ))
	sub "$1" -A "$2" -p "$3" -n "$n" -t 10 --wrap "sleep $((60 + $(rnd 60)))" >/dev/null ||
		live_die "sbatch as $1 failed"
done
live_wait 60 "usage jobs to run" sh -c '[ "$(squeue -h -t R | wc -l)" -ge 5 ]'
live_wait 240 "usage jobs to end" sh -c '[ -z "$(squeue -h -o %i)" ]'

# ---- the queue: nodes drained, so pending jobs stay pending -----------------
# With no job running, usage only decays (every association by the same
# factor), so Slurm's one-cycle lag of account effective usage under
# classic and DEPTH_OBLIVIOUS changes nothing: the comparisons can be exact.
scontrol update nodename="lvn[1-4]" state=drain reason=prio-live ||
	live_die "cannot drain the nodes"
# accounts each user may use
acct_of() { case $1 in pllive1) pick acca accc ;; pllive2) echo acca ;; pllive3) echo accb1 ;;
	pllive4|pllive5) echo accb2 ;; pllive6) echo accc ;; esac; }
for i in $(seq 12); do
	u=$(pick pllive1 pllive2 pllive3 pllive4 pllive5 pllive6)
	args=(-A "$(acct_of "$u")" -p "$(pick batch short batch,short)" -n "$(pick 1 2 4 8 12)"
		-t "$(pick 10 30 60)" --qos "$(pick normal normal high low)")
	[ "$(rnd 5)" = 0 ] && args+=(--nice=$((100 * (1 + $(rnd 5)))))
	[ "$(rnd 6)" = 0 ] && args+=(-N 2)
	sub "$u" "${args[@]}" --wrap 'sleep 600' >/dev/null || live_log "sbatch ${args[*]} refused"
done
# one held job and one array, as real queues have
sub pllive2 -A acca -H -n 1 -t 10 --wrap 'sleep 60' >/dev/null
sub pllive6 -A accc --array=0-2 -n 1 -t 10 --wrap 'sleep 60' >/dev/null
# Since 24.11 a job may ask for several QOS (sorted by priority, and sprio
# shows a row per partition and QOS): two such jobs where the release has it
case $(dpkg-query -W -f '${Version}' slurm-client 2>/dev/null) in
2[0-3].* | 24.0*) ;;
*)
	sub pllive3 -A accb1 -p "$(pick batch batch,short)" -n 2 -t 10 --qos low,high --wrap 'sleep 600' >/dev/null ||
		live_log "sbatch --qos low,high refused"
	sub pllive6 -A accc -p short -n 1 -t 30 --qos "$(pick normal,mid mid,normal,low)" --wrap 'sleep 600' >/dev/null ||
		live_log "sbatch with several QOS refused"
	;;
esac
# two calculations after the last job ended and the last submission
sleep 125

# ---- capture Slurm and ourselves, between two calculations ------------------
# Slurm recomputes usage and priorities every PriorityCalcPeriod (1 min
# here): wait for a cycle to pass, then take Slurm's outputs and our
# snapshot a few seconds into the next minute, so both see the same state.
log=$base/log/slurmctld.log
last_cycle() { grep -e '_apply_new_usage' -e ' Job [0-9]* priority: ' "$log" | tail -1 | cut -c2-20; }
new_cycle() { [ "$(last_cycle)" != "$c0" ]; }
c0=$(last_cycle)
live_wait 90 "a priority calculation" new_cycle
sleep 3
cap=$base/capture
mkdir -p "$cap"
date +%s >"$cap/NOW"
sprio -l >"$cap/sprio_l.txt" 2>&1
sshare -a -l -P >"$cap/sshare_a_l_P.txt" 2>&1
squeue -h -t PD -o '%i' | wc -l >"$cap/pending_count"
prio-snap "$cap/snap" 2>"$cap/snap.err" || bad "prio-snap: $(cat "$cap/snap.err")"
# for the record (a kept folder shows what each job asked for)
sacct -a -P -X -S 2020-01-01 -E now -o JobID,User,Account,Partition,QOS,State,NNodes,NCPUS,ReqTRES,SubmitLine \
	>"$cap/sacct_submit.txt" 2>&1
squeue -a --json >"$cap/squeue.json" 2>&1
prio-calc --live --check -P >"$cap/ours_check.txt" 2>"$cap/ours_check.err"
rc=$?
# a calculation started during the capture?  (its first line would be
# later than the first line of the one we waited for)
c1=$(grep -e '_apply_new_usage' -e ' Job [0-9]* priority: ' "$log" |
	awk -v c="$c0" 'substr($1, 2, 19) > c { print substr($1, 2, 19) }' | sort -u | wc -l)
[ "$c1" -le 2 ] || live_log "several calculations since $c0; comparisons may see two states"
# the clock of Slurm's last calculation, for the factors it stored
# The decay thread takes its clock once per pass, logs "Decay factor over
# N seconds", then one "Job N priority:" line per job.  On a large queue a
# pass spans seconds (tests/live/scale.sh: 20,000 jobs, 1.2 s), and the
# last job line's second is later than the clock every job got: reading it
# as the clock put AGE 1-2 points off sprio on 11% of a 19,630-job queue.
# The pass's first line is its clock; the last job line only when no decay
# line precedes it (a first pass logs none).
last_calc=$(awk '/Decay factor over/ { d = substr($1, 2, 19) }
	/ Job [0-9]+ priority: / { j = substr($1, 2, 19) }
	END { print (d != "" && j >= d) ? d : j }' "$log")
last_usage=$(grep '_apply_new_usage' "$log" | tail -1 | cut -c2-20)
echo "live: last calculation $last_calc, last usage cycle ${last_usage:-none}"

# PRIO_LIVE_CAPTURE=DIR: keep every artefact of this moment as an oracle
# scenario (tests/oracle/slurm-*): Slurm's own tables in each layout, the
# sources in every format the release prints, and what we need to replay
# them (slurm.conf, the clock of the last calculation, its log lines).
if [ -n "${PRIO_LIVE_CAPTURE:-}" ]; then
	o=$PRIO_LIVE_CAPTURE
	mkdir -p "$o"
	cp "$cap/NOW" "$o/NOW"
	cp "$SLURM_CONF" "$o/slurm.conf"
	cp "$cap/sprio_l.txt" "$o/sprio_l.txt"
	cp "$cap/sshare_a_l_P.txt" "$o/sshare_a_l_P.txt"
	sprio >"$o/sprio.txt" 2>&1
	sprio -w >"$o/sprio_w.txt" 2>&1
	sprio -l -n >"$o/sprio_l_n.txt" 2>&1
	sprio -o '%.15i %9r %.8u %.10o %.10n %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T' \
		>"$o/sprio_o_account_qosname.txt" 2>&1
	sshare -a -l >"$o/sshare_a_l.txt" 2>&1
	sshare -a --json >"$o/sshare_a_json.txt" 2>&1
	squeue -a --json >"$o/squeue_json.txt" 2>&1
	squeue -a --start >"$o/squeue_start.txt" 2>&1
	scontrol show job -d >"$o/scontrol_show_job_d.txt" 2>&1
	scontrol show job -d -o >"$o/scontrol_show_job_d_o.txt" 2>&1
	scontrol show node >"$o/scontrol_show_node.txt" 2>&1
	scontrol show partition >"$o/scontrol_show_partition.txt" 2>&1
	scontrol show config >"$o/scontrol_show_config.txt" 2>&1
	sacctmgr -P show qos >"$o/sacctmgr_show_qos.txt" 2>&1
	sacctmgr -i dump live "file=$o/sacctmgr_dump.cfg" >/dev/null 2>&1
	cp "$cap/snap/sacct.txt" "$o/sacct_a_P_X.txt" 2>/dev/null
	cp "$cap/snap/MANIFEST" "$o/MANIFEST" 2>/dev/null
	grep -e '_apply_new_usage' -e 'Decay factor over' -e ' Job [0-9]* priority: ' "$log" >"$o/slurmctld_priority.log"
	sinfo --version >"$o/version.txt" 2>&1
	echo "$last_calc" >"$o/last_calc"
	echo "seed $seed flags='$flags' favor=$favor weights age=$w_age fs=$w_fs js=$w_js part=$w_part qos=$w_qos assoc=$w_assoc tres='$tres_w'" >"$o/draw"
	live_log "captured the oracle scenario into $o"
fi

# ---- comparisons --------------------------------------------------------------
if [ $rc = 0 ]; then
	ok "prio-calc --live --check loads the live cluster"
else
	bad "prio-calc --live --check exit $rc: $(head -3 "$cap/ours_check.err")"
fi
want=$(cat "$cap/pending_count")
if grep -qx "jobs|PENDING|$want|" "$cap/ours_check.txt"; then
	ok "pending jobs: $want, as squeue says"
else
	bad "pending jobs: squeue says $want, we say $(grep 'jobs|PENDING' "$cap/ours_check.txt")"
fi

# sprio -l: equal at the clock of Slurm's last calculation, found by
# prio-calc itself (every column:
# with nothing running, even classic fairshare has no lag to allow for).
# One stated tolerance: classic and DEPTH_OBLIVIOUS factors come from usage
# ratios, and sshare prints RawUsage truncated to an integer while Slurm
# uses the unrounded value.  A user's usage u is known to within 1 of u,
# the root's R to within 1 of R, so its effective usage UE to a relative
# 1/u + 1/R, and F = 2^(-UE/SN) to F·ln2·(UE/SN)·(1/u + 1/R) (damping 1,
# the largest).  FAIRSHARE may differ by the largest of these over the
# users (it was 0.0017 for seed 3, where users had ~130 of 1857); that can
# move the truncated PRIORITY across an integer.  Fair Tree ranks are exact.
. "$top_srcdir/tests/cli/calc-oracle.lib"
tols=""
# From 23.11 prio-snap captures sshare --json too, whose usage ratios are
# exact: then there is no truncation to allow for, and classic fairshare
# must match to the digit as well.
if [ ! -s "$cap/snap/sshare.json" ]; then
	case $flags in NO_FAIR_TREE | DEPTH_OBLIVIOUS) tols="FAIRSHARE=$(fs_truncation_tolerance "$cap/sshare_a_l_P.txt")" ;; esac
fi
# No --now: prio-calc finds Slurm's last calculation from the stored job
# priorities, and --check says which second it found.  Not where the
# fairshare is known only to RawUsage's truncation (classic and
# DEPTH_OBLIVIOUS without sshare --json): the stored priorities are then out
# of reach, so the clock is given.
pc="prio-calc --snapshot $cap/snap"
[ -z "$tols" ] || pc="$pc --now $last_calc"
found=$(prio-calc --snapshot "$cap/snap" --check -P 2>/dev/null |
	awk -F'|' '$1 == "clock" && $2 == "last calculation" { print $4 }')
case $found in
"$(date -d "$last_calc" +%Y-%m-%dT%H:%M:%S) ("*)
	ok "prio-calc finds Slurm's last calculation, $last_calc, in the stored priorities" ;;
"not pinned: "*)
	ok "no stored priority depends on the clock (prio-calc: $found)" ;;
*)	if [ -n "$tols" ]; then
		live_log "last calculation not found from truncated usage, as expected: $found"
	else
		bad "prio-calc's last calculation is not Slurm's $last_calc: $found"
	fi ;;
esac
$pc -l >"$cap/ours_sprio_l.txt" 2>"$cap/ours_sprio.err"
if [ $? != 0 ]; then
	bad "prio-calc -l: $(head -2 "$cap/ours_sprio.err")"
elif [ -z "$tols" ] && cmp -s "$cap/ours_sprio_l.txt" "$cap/sprio_l.txt"; then
	ok "prio-calc -l equals sprio -l ($(($(wc -l <"$cap/sprio_l.txt") - 1)) rows)"
elif [ -n "$tols" ] && calc_compare "$cap/ours_sprio_l.txt" "$cap/sprio_l.txt" ws \
	"$(calc_weights $pc)" "$tols" >"$cap/sprio_cmp.txt"; then
	ok "prio-calc -l equals sprio -l within $tols"
else
	bad "prio-calc -l differs from sprio -l:"
	diff "$cap/sprio_l.txt" "$cap/ours_sprio_l.txt" | head -20 | sed 's/^/live:   /'
	cat "$cap/sprio_cmp.txt" 2>/dev/null | head -10 | sed 's/^/live:   /'
fi

# sshare -a -l -P: every cell within the interval RawUsage's truncation
# allows.
fstree-show --snapshot "$cap/snap" --now "$last_calc" --no-lag -P --audit "$cap/sshare_a_l_P.txt" \
	>"$cap/audit.txt" 2>&1
case $? in
0) ok "fstree-show --audit: every cell of sshare -a -l -P agrees" ;;
*) bad "fstree-show --audit of sshare -a -l -P:"; head -12 "$cap/audit.txt" | sed 's/^/live:   /' ;;
esac

# billing: every billing= Slurm stored (sacct AllocTRES, scontrol TRES)
tres-bill --snapshot "$cap/snap" --verify >"$cap/verify.txt" 2>&1
case $? in
0) ok "tres-bill --verify: every billing= agrees" ;;
*) bad "tres-bill --verify:"; head -12 "$cap/verify.txt" | sed 's/^/live:   /' ;;
esac

# ---- history (issue 16): prio-snap --every, --history, prio-diff -----------------
# while the pending jobs still wait on the drained nodes (about a minute)
history_step

# ---- preemption: which jobs does QOS urgent requeue? ---------------------------
# Four one-node jobs of four QOS fill the cluster; a two-node urgent job
# arrives.  preempt-plan answers from a snapshot taken just before it is
# submitted; then Slurm acts, and the jobs it requeued are compared.
scancel --state=PENDING $(squeue -h -t PD -o %i) 2>/dev/null
live_wait 30 "an empty queue" sh -c '[ -z "$(squeue -h -o %i)" ]'
scontrol update nodename="lvn[1-4]" state=resume || live_die "cannot resume the nodes"
victims=""
for q in low normal mid high; do
	ua=$(pick "pllive1 acca" "pllive2 acca" "pllive6 accc" "pllive1 accc")
	id=$(sub "${ua% *}" -A "${ua#* }" --qos "$q" -N 1 -n 8 -t 30 --wrap 'sleep 600') ||
		live_die "sbatch of a running job as ${ua% *} failed"
	victims="$victims $id"
	[ "$(pick 1 2)" = 1 ] && sleep 1
done
live_wait 60 "four running jobs" sh -c '[ "$(squeue -h -t R | wc -l)" = 4 ]'
prio-snap "$base/pre" 2>"$base/pre.err" || bad "prio-snap before preemption: $(cat "$base/pre.err")"
preempt-plan --snapshot "$base/pre" --now "$(date +%s)" -p batch -N 2 -n 16 --qos urgent \
	-A acca --user pllive1 -t 10 --strategy slurm -P >"$base/plan.txt" 2>"$base/plan.err"
plan_rc=$?
ours=$(awk -F'|' 'NR > 1 && ($2 == "requeue" || $2 == "cancel") { print $1 }' "$base/plan.txt" | sort -n | tr '\n' ' ')
urgent=$(sub pllive1 -A acca --qos urgent -p batch -N 2 -n 16 -t 10 --wrap 'sleep 60')
live_wait 90 "the urgent job to run" sh -c "[ \"\$(squeue -h -j $urgent -o %T)\" = RUNNING ]"
slurms=""
for id in $victims; do
	st=$(squeue -h -j "$id" -o %T 2>/dev/null)
	[ "$st" = RUNNING ] || slurms="$slurms $id"
done
slurms=$(echo $slurms | tr ' ' '\n' | sort -n | tr '\n' ' ')
if [ $plan_rc != 0 ]; then
	bad "preempt-plan exit $plan_rc: $(head -2 "$base/plan.err")"
elif [ -n "$slurms" ] && [ "$ours" = "$slurms" ]; then
	ok "preempt-plan: the urgent job requeues ${ours}as Slurm did"
else
	bad "preempt-plan requeues '$ours', Slurm requeued '$slurms'"
	sed 's/^/live:   /' "$base/plan.txt"
fi

# ---- the forecast: when do the pending jobs start? (issue 15) -----------------
forecast_step

echo "live: $passed passed, $failed failed, ${known:-0} known failures (seed $seed)"
[ "$failed" = 0 ]
