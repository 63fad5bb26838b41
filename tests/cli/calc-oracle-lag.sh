#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05 under PriorityFlags=NO_FAIR_TREE
# (classic) and DEPTH_OBLIVIOUS, at the clock of Slurm's last calculation
# given with --now from slurmctld.log (the stored priorities hold Slurm's
# lagging fairshare, which prio-calc does not reproduce yet, so it cannot
# find that clock by itself: calc-oracle-clock.sh):
# every column of every sprio capture equal, with one stated tolerance.
# Slurm derives accounts' effective usage at the start of a calculation
# cycle, before that cycle's decay and new usage, while RawUsage (our only
# usage input) is current: its FAIRSHARE factors are one cycle behind
# (tests/oracle/README.md).  So FAIRSHARE may differ by 0.02 of its weight
# (at most 0.011 here: half-life 10 min, cycles of 1 min) and PRIORITY by
# exactly as much as FAIRSHARE (within the rounding of the printed columns);
# nothing else may differ.
set -u
. tests/cli/calc-oracle.lib
calc_setup
for s in classic depth-oblivious; do
	calc_exact "$s" "$tmp" log || status=1
done
exit $status
