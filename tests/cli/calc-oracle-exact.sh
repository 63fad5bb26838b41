#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05: for every oracle scenario with sprio
# captures, at the clock of Slurm's last priority calculation before the
# capture (found in slurmctld.log), `prio-calc -l`, `prio-calc`, `-l -n`,
# `-w`, `-w -n` and the scenario's two `-o` captures equal Slurm's output,
# every line and every column.
#
# One stated tolerance: under PriorityFlags=NO_FAIR_TREE (classic) and
# DEPTH_OBLIVIOUS, Slurm derives account effective usage at the start of a
# calculation cycle, before that cycle's decay and new usage, while RawUsage
# (our only usage input) is current: its FAIRSHARE factors are one cycle
# behind (tests/oracle/README.md).  There FAIRSHARE may differ by 0.02 of
# its weight (observed at most 0.011 here: half-life 10 min, cycles of
# 1 min) and PRIORITY by exactly as much; everything else stays exact.
set -u
. tests/cli/calc-oracle.lib
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
export TZ=UTC

for s in $CALC_SCENARIOS; do
	calc_snapshot "$s" "$tmp/$s" || { echo "$s: cannot build the snapshot"; exit 2; }
	now=$(calc_last_calc "$s") || { echo "$s: no priority calculation in slurmctld.log"; exit 2; }
	case $s in
	classic | depth-oblivious) tols="FAIRSHARE=0.02" ;;
	*) tols="" ;;
	esac
	pc="prio-calc --snapshot $tmp/$s --now $now"
	weights=$(calc_weights $pc)
	o=tests/oracle/$s
	for t in "sprio_l.txt:-l" "sprio.txt:" "sprio_l_n.txt:-l -n" \
		"sprio_w.txt:-w" "sprio_w_n.txt:-w -n"; do
		f=${t%%:*}
		# shellcheck disable=SC2086
		$pc ${t#*:} >"$tmp/out" 2>"$tmp/err" || { echo "$s ${t#*:}: exit $?"; cat "$tmp/err"; status=1; continue; }
		if [ -z "$tols" ]; then
			cmp -s "$tmp/out" "$o/$f" || { echo "$s: prio-calc ${t#*:} differs from $f"; diff "$o/$f" "$tmp/out"; status=1; }
		else
			calc_compare "$tmp/out" "$o/$f" ws "$weights" "$tols" || { echo "$s: prio-calc ${t#*:} vs $f"; status=1; }
		fi
	done
	for f in sprio_o_all.txt sprio_o_all_n.txt; do
		fmt=$(calc_format "$s" "$f")
		n=; [ $f = sprio_o_all_n.txt ] && n=-n
		$pc $n -o "$fmt" >"$tmp/out" 2>"$tmp/err" || { echo "$s -o: exit $?"; cat "$tmp/err"; status=1; continue; }
		if [ -z "$tols" ]; then
			cmp -s "$tmp/out" "$o/$f" || { echo "$s: prio-calc $n -o differs from $f"; diff "$o/$f" "$tmp/out"; status=1; }
		else
			calc_compare "$tmp/out" "$o/$f" "|" "$weights" "$tols" || { echo "$s: prio-calc $n -o vs $f"; status=1; }
		fi
	done
done

# Running jobs are not listed without CALCULATE_RUNNING: a header only.
o=tests/oracle/billing-max-tres
for tag in default maxtres; do
	conf=$o/slurm.conf.default
	[ $tag = maxtres ] && conf=$o/slurm.conf.max_tres
	when=$(awk -F'\t' -v t="${tag}_running" '$1 == t { print $2 }' "$o/snap_times.tsv")
	prio-calc --conf "$conf" --jobs "$o/scontrol_show_job_d_${tag}_running.txt" \
		--now "$when" -l >"$tmp/out" 2>&1 || { echo "billing-max-tres $tag: exit $?"; status=1; }
	cmp -s "$tmp/out" "$o/sprio_l_${tag}_running.txt" || { echo "billing-max-tres: $tag differs"; diff "$o/sprio_l_${tag}_running.txt" "$tmp/out"; status=1; }
done
exit $status
