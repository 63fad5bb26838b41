#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05, the PriorityFlags scenarios
# (PriorityFavorSmall, NO_NORMAL_ALL, MAX_TRES): with no --now (prio-calc
# finds Slurm's last priority calculation from the stored job priorities;
# calc-oracle-clock.sh checks it is the one slurmctld.log shows),
# `prio-calc -l`, `prio-calc`, `-l -n`, `-w`, `-w -n` and the scenario's two
# `-o` captures equal Slurm's output byte for byte.  Also:
# running jobs are not listed without CALCULATE_RUNNING (billing-max-tres).
set -u
. tests/cli/calc-oracle.lib
calc_setup
for s in flags-favor-small flags-no-normal-all flags-max-tres; do
	calc_exact "$s" "$tmp" || status=1
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
