#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc under DEPTH_OBLIVIOUS with a sibling Slurm had not computed since
# slurmctld started (tests/oracle/depth-oblivious-unset-sibling, real 22.05,
# the prio-snap folder as captured, no --now): pllive2's jobs 12, 14 and 17
# get the whole FAIRSHARE weight, 20000, as in sprio -l; every other column
# equal, FAIRSHARE within RawUsage's truncation (sshare -P only, 22.05).
set -u
. tests/cli/calc-oracle.lib
calc_setup
o=tests/oracle/depth-oblivious-unset-sibling
prio-calc --snapshot "$o/snap" -l >"$tmp/out" 2>"$tmp/err" ||
	{ echo "prio-calc -l: exit $?"; cat "$tmp/err"; exit 1; }
for j in 12 14 17; do
	awk -v j=$j '$1 == j && $8 != 20000 { bad = 1 } END { exit bad }' "$tmp/out" ||
		{ echo "job $j: FAIRSHARE is not 20000:"; grep "^ *$j " "$tmp/out"; status=1; }
done
tol=$(fs_truncation_tolerance "$o/sshare_a_l_P.txt")
calc_compare "$tmp/out" "$o/sprio_l.txt" ws "$(calc_weights prio-calc --snapshot "$o/snap" 2>/dev/null)" \
	"FAIRSHARE=$tol" || { echo "prio-calc -l vs sprio -l (FAIRSHARE within $tol)"; status=1; }
# the clock found is the log's last calculation
prio-calc --snapshot "$o/snap" --check -P 2>/dev/null |
	grep -q "^clock|last calculation||$(cat "$o/last_calc") " ||
	{ echo "last calculation is not $(cat "$o/last_calc")"; status=1; }
exit $status
