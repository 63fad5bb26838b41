#!/bin/sh
# SPDX-License-Identifier: MIT
# One answer to "when" (issue 14): the calculation --explain names as the
# one that puts a job ahead is the one prio-calc --at shows it ahead at
# (and not at the calculation before), and fstree-show --when names the
# same calculation for the fairshare that does it.  All three step from
# Slurm's last calculation (found from the stored priorities) by
# PriorityCalcPeriod, with usage decaying and running jobs charging.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
s=samples/site
checked=0
for job in 34 36 25 37; do
	prio-calc --snapshot "$s" --explain "$job" -P >"$tmp/x" 2>/dev/null ||
		{ echo "--explain $job failed"; status=1; continue; }
	clock=$(awk -F'|' '$2 == "job" && $4 == "clock" { print $5 }' "$tmp/x")
	period=$(prio-calc --snapshot "$s" --check -P 2>/dev/null |
		awk -F'|' '$1 == "config" && $2 == "calc period" { print $4 + 0 }')
	[ -n "$period" ] && [ "$period" -gt 0 ] || period=60
	awk -F'|' '$2 == "change" && $4 == "time" && $5 != "" { print $3, $5 }' "$tmp/x" |
	while read -r part secs; do
		ahead=$(grep "^$job|change|$part||" "$tmp/x" | sed 's/.*ahead of job \([0-9]*\):.*/\1/')
		t=$((clock + secs))
		prio-calc --snapshot "$s" --at "$t" -p "$part" -o '%i|%Y' -h >"$tmp/at" 2>/dev/null
		me=$(awk -F'|' -v j="$job" '$1 + 0 == j { print $2 + 0 }' "$tmp/at")
		ah=$(awk -F'|' -v j="$ahead" '$1 + 0 == j { print $2 + 0 }' "$tmp/at")
		if [ -z "$me" ] || [ -z "$ah" ] || [ "$me" -le "$ah" ]; then
			echo "job $job ($part): --explain says ahead of $ahead at $t, --at shows $me vs $ah"
			echo 1 >"$tmp/bad"
		fi
		if [ "$secs" -gt "$period" ]; then
			prio-calc --snapshot "$s" --at "$((t - period))" -p "$part" -o '%i|%Y' -h >"$tmp/at" 2>/dev/null
			me=$(awk -F'|' -v j="$job" '$1 + 0 == j { print $2 + 0 }' "$tmp/at")
			ah=$(awk -F'|' -v j="$ahead" '$1 + 0 == j { print $2 + 0 }' "$tmp/at")
			[ "$me" -lt "$ah" ] || { echo "job $job ($part): already ahead one calculation earlier"; echo 1 >"$tmp/bad"; }
		fi
		echo "$job $part $t" >>"$tmp/found"
	done
done
[ -f "$tmp/bad" ] && status=1
[ -s "$tmp/found" ] || { echo "no --explain named a time"; exit 1; }
# job 34 (ivan) passes job 28 once ivan's FairShare reaches what --explain
# says it needs: fstree-show --when names the same calculation
need=$(prio-calc --snapshot "$s" --explain 34 -P 2>/dev/null |
	awk -F'|' '$2 == "change" && $4 == "fairshare" { sub(/.*\(fairshare /, "", $8); sub(/\).*/, "", $8); print $8 }')
t34=$(awk '$1 == 34 { print $3 }' "$tmp/found" | head -1)
when=$(fstree-show --snapshot "$s" --when ivan --fairshare "$need" | sed -n 's/.* at \([0-9T:-]*\) (in .*/\1/p')
[ -n "$t34" ] && [ "$(date -u -d "$when" +%s 2>/dev/null)" = "$t34" ] ||
	{ echo "fstree-show --when ivan --fairshare $need says $when, --explain 34 says $t34"; status=1; }
exit $status
