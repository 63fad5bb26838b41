#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05 with --now at the capture time itself
# (what a user gets from a snapshot without reading slurmctld.log).  Slurm's
# factors were stored at its last calculation, Δt seconds earlier; we compute
# them at the capture.  So only AGE may differ, only upwards, by at most
# Δt / PriorityMaxAge (weight × Δt / PriorityMaxAge weighted, plus 1 for the
# rounding of each side), and PRIORITY by exactly that much (within the
# rounding of the columns).  Classic and DEPTH_OBLIVIOUS keep the FAIRSHARE
# tolerance of calc-oracle-lag.sh (Slurm's one-cycle lag).
set -u
. tests/cli/calc-oracle.lib
calc_setup

for s in $CALC_SCENARIOS; do
	calc_snapshot "$s" "$tmp/$s" || { echo "$s: cannot build the snapshot"; exit 2; }
	last=$(calc_last_calc "$s") || { echo "$s: no priority calculation in slurmctld.log"; exit 2; }
	cap=$(calc_capture_time "$s")
	max_age=$(calc_max_age "$s")
	age_tol=$(awk -v d=$((cap - last)) -v m="$max_age" 'BEGIN { printf "%.10f", d / m }')
	tols="AGE=$age_tol"
	lag=$(calc_tolerances "$s")
	[ -z "$lag" ] || tols="$tols,$lag"
	pc="prio-calc --snapshot $tmp/$s --now $cap"
	weights=$(calc_weights $pc)
	o=tests/oracle/$s
	for t in "sprio_l.txt:-l:ws" "sprio.txt::ws" "sprio_l_n.txt:-l -n:ws"; do
		f=${t%%:*}; rest=${t#*:}; args=${rest%:*}; sep=${rest##*:}
		# shellcheck disable=SC2086
		$pc $args >"$tmp/out" 2>"$tmp/err" || { echo "$s $args: exit $?"; cat "$tmp/err"; status=1; continue; }
		calc_compare "$tmp/out" "$o/$f" "$sep" "$weights" "$tols" || { echo "$s: prio-calc $args vs $f (Δt $((cap - last)) s)"; status=1; }
	done
	fmt=$(calc_format "$s" sprio_o_all.txt)
	$pc -o "$fmt" >"$tmp/out" 2>"$tmp/err" || { echo "$s -o: exit $?"; status=1; continue; }
	calc_compare "$tmp/out" "$o/sprio_o_all.txt" "|" "$weights" "$tols" || { echo "$s: prio-calc -o vs sprio_o_all.txt"; status=1; }
	# the AGE tolerance is used: at least one row moved
	if [ "$(awk -v w="${weights#AGE=}" 'BEGIN { split(w, a, ","); print a[1] }')" != 0 ] &&
	   cmp -s "$tmp/out" "$o/sprio_o_all.txt"; then
		echo "$s: nothing aged in $((cap - last)) s"; status=1
	fi
done
exit $status
