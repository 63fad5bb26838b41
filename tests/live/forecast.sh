# SPDX-License-Identifier: MIT
# The live test's forecast step (issue 15), sourced by run.sh after the
# preemption step: it uses run.sh's cluster and helpers (sub, pick, rnd,
# ok, bad, live_wait, $base).
#
# Every job here sleeps two seconds less than its time limit, so a job's
# limit is the truth about its end and a forecast that assumes limits (ours
# and Slurm's) is judged on the scheduling alone.  The cluster is filled
# with running jobs, a queue of varied shapes waits behind them, and at one
# instant we take Slurm's estimates (squeue --start) and a snapshot; then the
# queue drains (a few minutes: limits of one to three minutes) and sacct
# says when each job really started.
#
# The instant follows one of Slurm's priority calculations (a few seconds
# after it, as a capture taken at any moment most often is): at submission
# a job's priority is computed then and there, and until the first
# calculation after it the stored priorities do not say when Slurm's
# calculations fall, which decides the order of ties a minute later.  A
# capture moments after a submission is a case apart (runs 18 and 19 of
# tests/oracle/forecast-*); this step judges the scheduling.  The fill runs
# two or three minutes so that it still holds the nodes then.
#
# Verdict, per run:
#  - our mean error must not exceed Slurm's on the jobs Slurm estimated
#    (plus 5 s: both assume limits, the jobs end 2 s early, and the
#    controller starts a job a second or two after a node frees);
#  - no two jobs may start in the opposite order from reality where
#    reality separates them by more than 10 s and we do not tie them.
# Both error tables are printed on every run.
#
# Half the draws set a limit before the queue comes (QOS MaxJobsPU or an
# account's GrpTRES): the forecast must hold jobs to it as slurmctld does.

forecast_step() {
	local fc=$base/forecast u n lim nodes mem args id k
	mkdir -p "$fc"
	scancel $(squeue -h -o %i) 2>/dev/null
	live_wait 60 "an empty cluster" sh -c '[ -z "$(squeue -h -o %i)" ]'
	scontrol update nodename="lvn[1-4]" state=resume >/dev/null 2>&1

	# the fill: each node busy with one 8-CPU job or two 4-CPU jobs
	for k in 1 2 3 4; do
		lim=$(pick 2 3)
		u=$(pick "pllive1 acca" "pllive3 accb1" "pllive6 accc")
		if [ "$(rnd 2)" = 0 ]; then
			sub "${u% *}" -A "${u#* }" -w "lvn$k" -N 1 -n 8 -t "$lim" -J fill \
				--wrap "sleep $((lim * 60 - 2))" >/dev/null
		else
			sub "${u% *}" -A "${u#* }" -w "lvn$k" -N 1 -n 4 -t "$lim" -J fill \
				--wrap "sleep $((lim * 60 - 2))" >/dev/null
			lim=$(pick 2 3)
			sub "${u% *}" -A "${u#* }" -w "lvn$k" -N 1 -n 4 -t "$lim" -J fill \
				--wrap "sleep $((lim * 60 - 2))" >/dev/null
		fi
	done
	live_wait 60 "the fill to run" sh -c '[ -z "$(squeue -h -t PD -o %i)" ]'

	# On some draws a limit holds part of the queue (the fill, running,
	# is never held by it): QOS normal's MaxJobsPU=2, or account accb's
	# GrpTRES=cpu=16 over accb1 and accb2 (the largest queued job: every job
	# runs in the end).  Cleared after the drain.
	fc_limit=$(pick none none qos account)
	# PRIO_LIVE_FORECAST_LIMIT=none|qos|account: that one (the draw is made
	# all the same, so the rest of the seed's draws stay as they were)
	fc_limit=${PRIO_LIVE_FORECAST_LIMIT:-$fc_limit}
	case $fc_limit in
	qos) sacctmgr -i modify qos normal set MaxJobsPerUser=2 >/dev/null ||
		live_die "sacctmgr: MaxJobsPerUser=2 refused" ;;
	account) sacctmgr -i modify account accb set GrpTRES=cpu=16 >/dev/null ||
		live_die "sacctmgr: GrpTRES=cpu=16 refused" ;;
	esac
	echo "live: forecast limit: $fc_limit"

	# the queue: shapes and priorities that make backfill matter
	for k in $(seq 9); do
		u=$(pick "pllive1 acca" "pllive2 acca" "pllive3 accb1" "pllive4 accb2" "pllive6 accc")
		n=$(pick 1 2 4 4 8 12 16)
		lim=$(pick 1 1 2)
		args=(-A "${u#* }" -p "$(pick batch batch short)" -n "$n" -t "$lim"
			--qos "$(pick normal normal high low)" -J "q$k")
		nodes=1
		[ "$n" -gt 8 ] && nodes=2
		args+=(-N "$nodes")
		mem=$(pick "" "" "" "--mem=12G")
		[ -n "$mem" ] && [ "$n" -le 8 ] && args+=("$mem")
		sub "${u% *}" "${args[@]}" --wrap "sleep $((lim * 60 - 2))" >/dev/null ||
			live_log "forecast: sbatch ${args[*]} refused"
	done
	# let the backfill scheduler (bf_interval=5) look at the queue once,
	# then wait for Slurm's next priority calculation (PriorityCalcPeriod
	# is a minute) and a backfill pass after it
	sleep 12
	fc_c0=$(forecast_last_calc)
	live_wait 90 "a priority calculation" forecast_new_calc
	sleep 6
	date +%s >"$fc/NOW"
	squeue -h -t PD -o '%i|%S' >"$fc/slurm_estimates.txt"
	prio-snap "$fc/snap" 2>"$fc/snap.err" || bad "forecast: prio-snap: $(cat "$fc/snap.err")"
	squeue -a --start >"$fc/squeue_start.txt" 2>&1
	forecast_check_record
	grep -q 'Last cycle when: .*([0-9]*)$' "$fc/snap/sdiag.txt" 2>/dev/null ||
		bad "forecast: prio-snap captured no sdiag.txt with a backfill cycle"
	prio-calc --snapshot "$fc/snap" --forecast -P >"$fc/ours.txt" 2>"$fc/ours.err" ||
		bad "forecast: prio-calc --forecast exit $?: $(head -2 "$fc/ours.err")"

	# the drain (every limit is at most 3 minutes; a few waves, more when
	# a limit lets a user run one job at a time)
	live_wait 1200 "the queue to drain" sh -c '[ -z "$(squeue -h -o %i)" ]'
	case $fc_limit in
	qos) sacctmgr -i modify qos normal set MaxJobsPerUser=-1 >/dev/null ;;
	account) sacctmgr -i modify account accb set GrpTRES=cpu=-1 >/dev/null ;;
	esac
	sleep 2
	sacct -a -X -n -P -S "$(date -d "@$(($(cat "$fc/NOW") - 600))" +%Y-%m-%dT%H:%M:%S)" \
		-o JobID,JobName,Start,End,State >"$fc/sacct.txt" 2>&1
	# what slurmctld did meanwhile (DebugFlags=Priority): each
	# calculation's usage and job priorities, each start and end; a
	# kept run's answer to "why did Slurm start this one first?"
	grep -E 'ran for|PRIO: Adding|Fairshare priority of job|Job [0-9]+ priority:|sched: Allocate|_job_complete: JobId=[0-9]+ done|Decay factor|backfill: beginning|Started JobId' \
		"$base/log/slurmctld.log" >"$fc/slurmctld-prio.log" 2>/dev/null

	forecast_judge "$fc"
}

# forecast_last_calc: the instant of the last priority calculation in
# slurmctld's log (DebugFlags=Priority logs each association's new usage
# at the start of a cycle).
forecast_last_calc() {
	grep -F _apply_new_usage "$base/log/slurmctld.log" | tail -1 | cut -c2-20
}

# forecast_check_record: prio-snap, run as root on the controller's host,
# copied slurmctld's record of its last calculation (StateSaveLocation/
# priority_last_decay_ran), and prio-calc takes from it the instant the
# log shows: the last decay cycle that started before NOW.  A cycle may
# start while prio-snap reads the cluster, after NOW and after the queue:
# then the record is that cycle's, newer than the stored priorities, and
# prio-calc must set it aside and say so.
forecast_check_record() {
	local now logc logn rec aside t s row
	now=$(cat "$fc/NOW")
	[ -f "$fc/snap/priority_last_decay_ran" ] ||
		{ bad "forecast: prio-snap copied no priority_last_decay_ran"; return; }
	logc= logn=
	for s in $(grep -F 'Decay factor' "$base/log/slurmctld.log" | cut -c2-20 |
		while read -r t; do date -d "$t" +%s; done); do
		if [ "$s" -le "$now" ]; then
			logc=$s
		elif [ -z "$logn" ]; then
			logn=$s
		fi
	done
	row=$(prio-calc --snapshot "$fc/snap" --check -P 2>/dev/null | grep '^clock|last calculation|')
	rec=$(printf '%s\n' "$row" |
		sed -n "s/^clock|last calculation||.* (\([0-9]*\)), slurmctld's record of it .*/\1/p")
	aside=$(printf '%s\n' "$row" |
		sed -n "s/.*; slurmctld's record (priority_last_decay_ran) says \([0-9T:-]*\), .*/\1/p")
	[ -z "$aside" ] || aside=$(date -d "$aside" +%s)
	if [ -n "$rec" ] && [ "$rec" = "$logc" ]; then
		ok "forecast: slurmctld's record of its last calculation taken ($rec, as its log)"
	elif [ -z "$rec" ] && [ -n "$logn" ] && [ "$aside" = "$logn" ]; then
		ok "forecast: slurmctld's record is of a calculation after NOW ($aside, as its log: it ran while prio-snap read the cluster), set aside"
	else
		bad "forecast: slurmctld's record of its last calculation: prio-calc took '$rec' (set aside '$aside'), the log says '$logc' (next '$logn')"
	fi
}

forecast_new_calc() { [ "$(forecast_last_calc)" != "$fc_c0" ]; }

# forecast_judge DIR: the tables and the verdict from DIR's files.
forecast_judge() {
	local fc=$1 r
	awk -F'|' -v now="$(cat "$fc/NOW")" '
	function epoch(t,   c) {
		if (t == "" || t == "N/A" || t == "Unknown" || t == "None") return -1
		gsub(/[-:T]/, " ", t)
		return mktime(t)
	}
	FILENAME ~ /slurm_estimates/ { est[$1] = epoch($2); next }
	FILENAME ~ /ours/ {
		if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
		ours[$col["JOBID"]] = epoch($col["START"]); next
	}
	FILENAME ~ /sacct/ {
		# the jobs pending at NOW (a job that started before it is
		# not forecast: said, not judged)
		if ($2 !~ /^q[0-9]+$/) next
		if (!($1 in est)) { printf "live: forecast: %s (%s) was not pending at NOW: not judged\n", $1, $2; next }
		real[$1] = epoch($3); name[$1] = $2
	}
	END {
		printf "live: forecast %-6s %-5s %8s %8s %8s\n", "job", "name", "real", "ours", "slurm"
		for (j in real) {
			o = (j in ours) ? ours[j] : -1
			s = (j in est) ? est[j] : -1
			printf "live: forecast %-6s %-5s %8d %8s %8s\n", j, name[j], real[j] - now,
				o < 0 ? "-" : o - real[j], s < 0 ? "-" : s - real[j]
			if (s >= 0) {
				f = s - real[j]; if (f < 0) f = -f
				n_s++; sum_s += f; if (f > max_s) max_s = f
			}
			if (o < 0) { missing++; continue }
			e = o - real[j]; if (e < 0) e = -e
			n_o++; sum_o += e; if (e > max_o) max_o = e
			if (s >= 0) { n_os++; sum_os += e }
		}
		for (a in real) for (b in real) {
			if (!(a in ours) || !(b in ours)) continue
			if (real[a] + 10 < real[b] && ours[a] > ours[b]) {
				inv++; printf "live: forecast order: %s starts before %s, we say after\n", a, b
			}
		}
		printf "live: forecast error (s) ours: mean %.1f max %d over %d jobs\n", n_o ? sum_o / n_o : 0, max_o, n_o
		printf "live: forecast error (s) slurm: mean %.1f max %d over %d estimated jobs (ours on them: mean %.1f)\n",
			n_s ? sum_s / n_s : 0, max_s, n_s, n_os ? sum_os / n_os : 0
		if (missing) { printf "live: forecast: %d jobs not in our forecast\n", missing; exit 2 }
		if (n_o == 0) { print "live: forecast: no job to judge"; exit 2 }
		if (n_os && sum_os / n_os > sum_s / n_s + 5) exit 1
		if (inv) exit 1
	}' "$fc/slurm_estimates.txt" "$fc/ours.txt" "$fc/sacct.txt"
	r=$?
	if [ $r = 2 ]; then
		bad "forecast: not every job that ran is in our forecast (files in $fc)"
		forecast_save "$fc"
		return
	fi
	ok "forecast: every queued job is in our forecast, with a start"
	if [ $r = 0 ]; then
		ok "forecast: no worse than Slurm's estimate, starts in reality's order"
	elif [ -n "${PRIO_LIVE_FORECAST_STRICT:-}" ]; then
		bad "forecast: worse than Slurm's estimate, or out of order (tables above; files in $fc)"
		forecast_save "$fc"
	else
		# issue 15 is open: the verdict is reported on every run and
		# counted apart until the forecast meets it
		known=$((${known:-0} + 1))
		echo "live: known failure: forecast worse than Slurm's estimate, or out of order (tables above)"
		forecast_save "$fc"
	fi
}

# forecast_save DIR: a run the verdict fails is kept for replay even
# without PRIO_LIVE_KEEP (the cluster's timing differs from run to run, so
# the seed alone does not bring the same reality back): DIR and
# slurmctld's log, about 1 MB, in PRIO_LIVE_SAVE (default /var/tmp, inside
# the chroot's root for a newer Slurm).
forecast_save() {
	local to=${PRIO_LIVE_SAVE:-/var/tmp}/prio-live-forecast-${seed:-x}-$(date +%Y%m%dT%H%M%S)
	if mkdir -p "$to" && cp -r "$1/." "$to/" && cp "$base/log/slurmctld.log" "$to/" 2>/dev/null; then
		echo "live: forecast files kept in $to"
	else
		echo "live: forecast files could not be kept in $to"
	fi
}

# For the replay tests of tests/cli, which run without run.sh around them:
# forecast_replay_judge DIR writes the judge's lines to DIR/judge (with ok
# and bad printing as run.sh's do) and succeeds when the whole verdict
# passes; forecast_replay_mean DIR prints our mean error from them.
forecast_replay_judge() {
	(
		ok() { echo "live: ok $*"; }
		bad() { echo "live: FAIL $*"; }
		forecast_save() { :; }	# the replay's files are kept already
		known=0
		forecast_judge "$1"
	) >"$1/judge" 2>&1
	grep -q '^live: ok forecast: no worse than Slurm' "$1/judge"
}
forecast_replay_mean() {
	sed -n 's/^live: forecast error (s) ours: mean \([0-9.]*\) .*/\1/p' "$1/judge"
}
