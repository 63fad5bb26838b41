#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill's sreport roll-ups against real sreport 22.05 output
# (tests/oracle/sreport-final): for each of the three clusters, every report
# captured there is recomputed from that cluster's `sacct -a -P -X` records,
# its slurm.conf and (ft, seed) its association dump, and compared line by
# line with Slurm's.
#
# What the inputs cannot give, and how the test deals with it:
#  - Reported (and so Idle, and percentages) needs the moment slurmdbd
#    registered the cluster, an event in slurmdbd's tables, not in any
#    input here; it is passed with --up-since (ft 03:37:12, seed 03:37:51,
#    pre 03:41:10: 22.05 registered the clusters mid-hour; SlurmdStartTime
#    in scontrol show node is 2 s later).  With it, every TRES's Reported
#    follows from the nodes (cpu, mem, and billing as the largest of the
#    node's partition billings).
#  - pre: sacct -X shows only the last run of a requeued job; slurmdbd also
#    counts the earlier runs (jobs 2000-2003 and 3000-3002 in the
#    preemption scenarios), 968 CPU-s, 968000 MB-s and 968 billing-s for pa
#    and 4 CPU-s of Planned time, so every line carrying pa's usage
#    differs; and pre was reconfigured within the hour (billing scenario),
#    so its cluster billing count changed: its Reported billing cannot be
#    derived from one slurm.conf.  Those lines are listed in
#    bill-sreport-oracle.known (file, Slurm's line) and must differ; every
#    other line must be equal.
set -u
: "${top_srcdir:=.}"
O=$top_srcdir/tests/oracle
S=$O/sreport-final
known=$top_srcdir/tests/cli/bill-sreport-oracle.known
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
compared=0

for cl in ft seed pre; do
	case $cl in
	ft) src="--conf $O/fairtree-basic/slurm.conf --assoc $O/fairtree-basic/sacctmgr_dump.cfg"
	    up=2026-11-22T03:37:12 ;;
	seed) src="--conf $O/seed-hierarchy/slurm.conf --assoc $O/seed-hierarchy/sacctmgr_dump.cfg"
	    up=2026-11-22T03:37:51 ;;
	pre) src="--conf $O/billing-max-tres/slurm.conf.max_tres"
	    up=2026-11-22T03:41:10 ;;
	esac
	while read -r name args; do
		file=sreport_${name}_$cl.txt
		# the capture's own clock, from captures.tsv
		now=$(awk -v f="$file" '$1 == f { print $2 }' "$S/captures.tsv")
		# shellcheck disable=SC2086
		tres-bill $src --sacct "$S/sacct_a_P_X_all_$cl.txt" --now "$now" \
			--up-since "$up" -P $args start=2026-11-22T03:00:00 \
			end=2026-11-22T04:07:45 >"$tmp/out" 2>"$tmp/err" || {
			echo "$file: tres-bill failed: $(cat "$tmp/err")"; status=1; continue; }
		# line by line: equal, or listed as underivable and different
		n=0
		while IFS= read -r want; do
			n=$((n + 1))
			got=$(sed -n "${n}p" "$tmp/out")
			listed=0
			grep -qxF "$file $want" "$known" && listed=1
			if [ "$got" = "$want" ] && [ $listed = 1 ]; then
				echo "$file:$n: listed as underivable but equal: $want"; status=1
			elif [ "$got" != "$want" ] && [ $listed = 0 ]; then
				echo "$file:$n: want '$want'"; echo "$file:$n:  got '$got'"; status=1
			fi
			compared=$((compared + 1))
		done <"$S/$file"
		[ "$(wc -l <"$tmp/out")" = "$(wc -l <"$S/$file")" ] ||
			{ echo "$file: $(wc -l <"$tmp/out") lines, Slurm printed $(wc -l <"$S/$file")"; status=1; }
	done <<'LIST'
cluster_utilization -t seconds cluster utilization
cluster_utilization_minutes cluster utilization
cluster_utilization_billing -T billing,cpu,mem -t seconds cluster utilization
cluster_AccountUtilizationByUser -t seconds cluster AccountUtilizationByUser
cluster_AccountUtilizationByUser_billing -T billing,cpu,mem -t seconds cluster AccountUtilizationByUser
cluster_UserUtilizationByAccount -t seconds cluster UserUtilizationByAccount
user_TopUsage -t seconds user TopUsage
user_TopUsage_all -t seconds user TopUsage TopCount=100
job_SizesByAccount -t seconds job SizesByAccount
LIST
done
# the list must not rot: every entry names a line Slurm printed
while read -r file line; do
	grep -qxF "$line" "$S/$file" || { echo "known: no line '$line' in $file"; status=1; }
done <"$known"
[ $compared -gt 300 ] || { echo "only $compared lines compared"; status=1; }
exit $status
