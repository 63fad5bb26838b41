#!/bin/sh
# SPDX-License-Identifier: MIT
# squeue --json of a real Slurm 24.11.5 (data_parser v0.0.42) gives the
# priorities and factors of that cluster's own sprio -l, cell for cell, at
# Slurm's last priority calculation.  sprio's ACCOUNT and QOSNAME columns
# (the 23.02+ layout) are left out: the columns compared are the -o letters
# every version has.
set -eu
d=tests/cli/json-data/slurm-24.11-fairtree
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prio-calc --snapshot "$d" --jobs "$d/jobs.json" --now "$(cat "$d/last_calc")" \
	-o '%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T' |
	awk '{ $1 = $1; print }' >"$tmp/ours"
awk '{ $4 = ""; $12 = ""; $1 = $1; print }' "$d/sprio_l.txt" |
	awk '{ $1 = $1; print }' >"$tmp/slurm"
test "$(wc -l <"$tmp/slurm")" -eq 20
diff "$tmp/slurm" "$tmp/ours"
