#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill --verify on Slurm 24.11's snapshot: every billing= Slurm stored
# (sacct AllocTRES/ReqTRES, scontrol ReqTRES=/AllocTRES=) equals the one
# computed from the partition's TRESBillingWeights, 43 values; and a value
# changed in jobs.txt, in a pending job's ReqTRES= (job 12: 14) or a
# finished one's AllocTRES= (job 1: 6), is caught under its own name.
set -u
: "${top_srcdir:=.}"
D=$top_srcdir/tests/cli/readers-data/slurm-24.11
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
out=$(tres-bill --snapshot "$D" --verify 2>&1)
rc=$?
want='tres-bill: 43 billing values checked, 0 differ; 0 without a known partition, 12 of jobs with several partitions not checked'
[ "$rc" = 0 ] && [ "$out" = "$want" ] || { echo "exit $rc: $out"; status=1; }

cp -r "$D" "$tmp/s"
sed -e 's/^\(   ReqTRES=cpu=12,mem=12000M,node=1,billing=\)14$/\115/' \
	-e '1,40s/^\(   AllocTRES=cpu=5,mem=5000M,node=1,billing=\)6$/\17/' \
	"$D/jobs.txt" >"$tmp/s/jobs.txt"
out=$(tres-bill --snapshot "$tmp/s" --verify -P 2>&1)
rc=$?
[ "$rc" = 1 ] || { echo "exit $rc with two wrong values: $out"; status=1; }
rows=$(printf '%s\n' "$out" | grep '^scontrol|' | cut -d'|' -f2-7)
want='1|1|batch|AllocTRES|7|6
337|12|batch|ReqTRES|15|14'
[ "$rows" = "$want" ] || { echo "expected rows:"; echo "$want"; echo "got:"; echo "$out"; status=1; }
exit $status
