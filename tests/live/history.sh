# SPDX-License-Identifier: MIT
# The live test's history step (issue 16), sourced by run.sh: it uses
# run.sh's cluster and helpers (ok, bad, live_log, $base) while the queue
# holds pending jobs on drained nodes (after the capture of the priority
# phase, before the preemption step scancels them).
#
# prio-snap --every 20s --count 3 takes a real series; fstree-show
# --history and prio-calc --history must then print three rows, each in
# the order and at the NOW of its capture, each the same values as the
# command prints for that capture alone, FairShare in [0, 1] and rank r of
# N with FairShare = r/N under Fair Tree, PRIORITY a positive integer.
# prio-diff of the first and the last capture: no job submitted, started
# or ended (the nodes are drained, the queue stands), and each pending
# job's old and new priority as prio-calc prints it for each capture.
# About a minute.  PRIO_LIVE_HISTORY_USER: the user followed (default
# pllive3, who has one association); a dry run against the stub Slurm
# commands of tests/cli/stubs sets it to one of their users.

# history_check_rows FILE WHAT: three data rows after the header of a -P
# table whose 2nd field is NOW, ascending, at least 15 s apart: the loop
# starts a capture every 20 s by the whole-second clock, and a capture
# reads NOW after the configuration and the user's rights, which can take
# a second or more longer in one capture than in the next on a busy
# machine (19 s apart, seen with two live runs at once).
history_check_rows() {
	local f=$1 what=$2 prev=0 now n
	n=$(($(wc -l <"$f") - 1))
	[ "$n" = 3 ] || { bad "history: $what: $n rows, expected 3"; sed 's/^/live:   /' "$f"; return 1; }
	for now in $(sed 1d "$f" | cut -d'|' -f2); do
		if [ "$prev" != 0 ] && [ "$now" -lt $((prev + 15)) ]; then
			bad "history: $what: NOW $now less than 15 s after $prev"
			return 1
		fi
		prev=$now
	done
}

history_step() {
	local hs=$base/history u job rows d k now line want fs rank of
	mkdir -p "$hs"
	# the series: three captures, 20 s apart (about 45 s)
	if ! PRIO_SNAP_QUIET=1 prio-snap --every 20s --count 3 "$hs/series" 2>"$hs/snap.err"; then
		bad "history: prio-snap --every 20s --count 3: $(head -2 "$hs/snap.err")"
		return
	fi
	set -- $(cd "$hs/series" && ls -d [0-9]*Z 2>/dev/null)
	[ $# = 3 ] || { bad "history: prio-snap --every made $# captures: $*"; return; }
	ok "history: prio-snap --every 20s --count 3 made 3 captures"

	# a user of one association (pllive3: accb1 only)
	u=${PRIO_LIVE_HISTORY_USER:-pllive3}
	if ! fstree-show --history "$hs/series" --user "$u" -P >"$hs/fs.txt" 2>"$hs/fs.err"; then
		bad "history: fstree-show --history --user $u: exit $?: $(head -2 "$hs/fs.err")"
	elif history_check_rows "$hs/fs.txt" "fstree-show --history --user $u"; then
		rows=ok k=1
		for d in "$@"; do
			k=$((k + 1))
			line=$(sed -n "${k}p" "$hs/fs.txt")
			now=$(cat "$hs/series/$d/NOW")
			# Time|NOW|User|Account|RawUsage|EffectvUsage|FairShare|LevelFS|Rank|Of|Note
			want=$(fstree-show --snapshot "$hs/series/$d" -u "$u" -l -P 2>/dev/null |
				awk -F'|' -v u="$u" '$2 == u { sub(/^ */, "", $1); print u "|" $1 "|" $5 "|" $7 "|" $8 "|" $9 }')
			[ "$(echo "$line" | cut -d'|' -f2)" = "$now" ] || { rows="row $k: NOW is not $d's ($now)"; break; }
			[ "$(echo "$line" | cut -d'|' -f3-8)" = "$want" ] || { rows="row $k: $line, alone: $want"; break; }
			fs=$(echo "$line" | cut -d'|' -f7)
			awk -v f="$fs" 'BEGIN { exit !(f >= 0 && f <= 1) }' || { rows="row $k: FairShare $fs"; break; }
			rank=$(echo "$line" | cut -d'|' -f9) of=$(echo "$line" | cut -d'|' -f10)
			if [ -n "$rank" ] &&
				[ "$(awk -v r="$rank" -v n="$of" 'BEGIN { printf "%.6f", r / n }')" != "$fs" ]; then
				rows="row $k: FairShare $fs is not rank $rank/$of"
				break
			fi
		done
		if [ "$rows" = ok ]; then
			ok "history: fstree-show --history --user $u: 3 rows, each as fstree-show prints its snapshot"
		else
			bad "history: fstree-show --history --user $u: $rows"
			sed 's/^/live:   /' "$hs/fs.txt"
		fi
	fi

	# a pending job with a priority, pending in every capture (the
	# nodes are drained): not an array, not held, one partition and one
	# QOS (one row per capture)
	# (squeue's %q shows one QOS of a job that asked for several since
	# 24.11, so the row count comes from the first capture itself)
	prio-calc --snapshot "$hs/series/$1" --now "$(cat "$hs/series/$1/NOW")" -o '%.15i' -P 2>/dev/null |
		sed 1d | sort | uniq -c | awk '$1 == 1 { print $2 }' >"$hs/one-row.txt"
	job=$(squeue -h -t PD -o '%i %Q %r %P %q' |
		awk -v ones="$hs/one-row.txt" 'BEGIN { while ((getline l < ones) > 0) one[l] = 1 }
			$1 in one && $1 !~ /_/ && $2 > 0 && $3 !~ /Held/ && $4 !~ /,/ && $5 !~ /,/ { print $1; exit }')
	[ -n "$job" ] || { bad "history: no pending job to follow"; return; }
	if ! prio-calc --history "$hs/series" -j "$job" -P >"$hs/pc.txt" 2>"$hs/pc.err"; then
		bad "history: prio-calc --history -j $job: exit $?: $(head -2 "$hs/pc.err")"
	elif history_check_rows "$hs/pc.txt" "prio-calc --history -j $job"; then
		rows=ok
		for d in "$@"; do
			# TIME|NOW|JOBID|PARTITION|USER|ACCOUNT|PRIORITY|...|NOTE: its
			# first row per capture; pending (no NOTE), PRIORITY > 0,
			# and what prio-calc -l prints for that capture at its NOW
			line=$(awk -F'|' -v now="$(cat "$hs/series/$d/NOW")" '$2 == now { print; exit }' "$hs/pc.txt")
			[ -n "$line" ] || { rows="no row at $d's NOW"; break; }
			[ -z "$(echo "$line" | cut -d'|' -f18)" ] || { rows="not pending in $d: $line"; break; }
			echo "$line" | cut -d'|' -f7 | grep -qx '[1-9][0-9]*' || { rows="PRIORITY in $d: $line"; break; }
			want=$(prio-calc --snapshot "$hs/series/$d" --now "$(cat "$hs/series/$d/NOW")" -j "$job" -o '%.15i %9r %.8u %.10Y' -P 2>/dev/null | sed -n 2p)
			[ "$(echo "$line" | cut -d'|' -f3,4,5,7)" = "$want" ] || { rows="$d: $line, alone: $want"; break; }
		done
		if [ "$rows" = ok ]; then
			ok "history: prio-calc --history -j $job: a row per capture, PRIORITY as prio-calc prints each"
		else
			bad "history: prio-calc --history -j $job: $rows"
			sed 's/^/live:   /' "$hs/pc.txt"
		fi
	fi

	history_diff_check "$hs" "$1" "$3"
}

# history_diff_check DIR FIRST LAST: prio-diff FIRST LAST on the series.
history_diff_check() {
	local hs=$1 a=$1/series/$2 b=$1/series/$3 rc why
	prio-diff "$a" "$b" --section jobs,ranks --all -P >"$hs/diff.txt" 2>"$hs/diff.err"
	rc=$?
	[ $rc -le 1 ] || { bad "history: prio-diff: exit $rc: $(head -2 "$hs/diff.err")"; return; }
	# by job and partition (22.05's sprio has no QOS name: a job pending
	# under several QOS in one partition is left out)
	prio-calc --snapshot "$a" -o '%.15i %9r %.10Y' -P >"$hs/diff-a.txt" 2>/dev/null
	prio-calc --snapshot "$b" -o '%.15i %9r %.10Y' -P >"$hs/diff-b.txt" 2>/dev/null
	# SECTION|CHANGE|JOBID|USER|ACCOUNT|PARTITION|QOS|KEY|OLD_SETTING|
	# NEW_SETTING|OLD|NEW|DELTA|OLD_RANK|NEW_RANK|FACTOR|FACTOR_DELTA
	why=$(awk -F'|' '
		FILENAME ~ /diff-a/ && FNR > 1 { k = $1 "|" $2; if (k in old) two[k] = 1; old[k] = $3; next }
		FILENAME ~ /diff-b/ && FNR > 1 { k = $1 "|" $2; if (k in new) two[k] = 1; new[k] = $3; next }
		FILENAME ~ /diff.txt/ && FNR > 1 {
			if ($1 == "jobs") { print "job " $3 " " $2 " while the queue stood"; exit }
			if ($1 != "ranks") next
			k = $3 "|" $6
			if (k in two) next
			n++
			if (!(k in old) || !(k in new)) { print "job " k ": not pending in both by prio-calc"; exit }
			if ($11 != old[k] || $12 != new[k]) {
				print "job " k ": " $11 " -> " $12 ", prio-calc: " old[k] " -> " new[k]; exit
			}
		}
		END { if (!n) print "no rank rows" }' "$hs/diff-a.txt" "$hs/diff-b.txt" "$hs/diff.txt")
	if [ -z "$why" ]; then
		ok "history: prio-diff of the first and last capture: no job came or went, every priority as prio-calc prints it"
	else
		bad "history: prio-diff: $why"
		sed 's/^/live:   /' "$hs/diff.txt" | head -20
	fi
}
