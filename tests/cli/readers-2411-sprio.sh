#!/bin/sh
# SPDX-License-Identifier: MIT
# Slurm 24.11 (a live 24.11.5 cluster, Fair Tree, 4 drained nodes, 14
# pending jobs): from its prio-snap folder, with `scontrol show job -d` in
# the multi-line and the -o shape, every row of prio-calc equals Slurm's own
# `sprio -l` in every column both print (job, partition, priority, site,
# age, assoc, fairshare, jobsize, partition, qos, nice, TRES): the jobs'
# ReqTRES=, the drained nodes and 24.11's config and QOS columns read as
# Slurm reads them.
set -u
: "${top_srcdir:=.}"
D=$top_srcdir/tests/cli/readers-data/slurm-24.11
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
# sprio -l: JOBID PARTITION USER ACCOUNT PRIORITY SITE AGE ASSOC FAIRSHARE
# JOBSIZE PARTITION QOSNAME QOS NICE TRES
awk 'NR > 1 { print $1, $2, $5, $6, $7, $8, $9, $10, $11, $13, $14, $15 }' \
	"$D/sprio_l.txt" >"$tmp/slurm"
[ "$(wc -l <"$tmp/slurm")" -eq 19 ] || { echo "sprio_l.txt: expected 19 rows"; exit 1; }
for jobs in jobs.txt jobs_o.txt; do
	if ! prio-calc --snapshot "$D" --jobs "$D/$jobs" -h \
		-o '%i %r %Y %S %A %B %F %J %P %Q %N %T' >"$tmp/ours" 2>"$tmp/err"; then
		echo "prio-calc with $jobs failed:"
		cat "$tmp/err"
		status=1
		continue
	fi
	if ! cmp -s "$tmp/ours" "$tmp/slurm"; then
		echo "prio-calc with $jobs differs from Slurm's sprio -l:"
		diff "$tmp/slurm" "$tmp/ours" | head -20
		status=1
	fi
done
exit $status
