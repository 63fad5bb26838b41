#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 22.05, Fair Tree scenarios: with no --now
# (prio-calc finds Slurm's last priority calculation from the stored job
# priorities; calc-oracle-clock.sh checks it is the one slurmctld.log
# shows), `prio-calc -l`, `prio-calc`, `-l -n`, `-w`, `-w -n` and the
# scenario's two `-o` captures equal Slurm's output byte for byte, with
# nothing on stderr.  The PriorityFlags scenarios are in
# calc-oracle-flags.sh.
set -u
. tests/cli/calc-oracle.lib
calc_setup
for s in fairtree-basic fairtree-restart seed-hierarchy; do
	calc_exact "$s" "$tmp" || status=1
done

exit $status
