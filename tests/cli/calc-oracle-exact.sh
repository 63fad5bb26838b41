#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05, Fair Tree scenarios: at the clock of
# Slurm's last priority calculation before the capture (found in
# slurmctld.log), `prio-calc -l`, `prio-calc`, `-l -n`, `-w`, `-w -n` and the
# scenario's two `-o` captures equal Slurm's output byte for byte.  The
# PriorityFlags scenarios are in calc-oracle-flags.sh.
set -u
. tests/cli/calc-oracle.lib
calc_setup
for s in fairtree-basic fairtree-restart seed-hierarchy; do
	calc_exact "$s" "$tmp" || status=1
done

exit $status
