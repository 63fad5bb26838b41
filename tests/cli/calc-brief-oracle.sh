#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc -u USER --brief (and --mine) on fairtree-basic (22.05), each
# column checked against what Slurm printed:
#  - SLURM_START is the job record's StartTime= (scontrol_show_job_d.txt);
#  - HELD_BACK_BY and GAP: the weighted term of the job's sprio -l row
#    (sprio_l.txt: AGE ASSOC FAIRSHARE JOBSIZE PARTITION QOS and each TRES)
#    that trails the partition's first job (RANK 1 of --rank) by the most;
#    GAP within 1 of the difference of sprio's rounded columns;
#  - RANK, OF and PRIORITY are --rank's PART_RANK, the partition's count
#    and PRIORITY (calc-rank checks those against Slurm's order);
#  - START, our forecast, is --forecast's START of the job.
set -u
. tests/cli/calc-oracle.lib
calc_setup
d=$tmp/snap
calc_snapshot fairtree-basic "$d" || exit 2
o=tests/oracle/fairtree-basic
fail() { echo "FAIL $*"; status=1; }

prio-calc --snapshot "$d" --rank -P -h >"$tmp/rank" 2>/dev/null || fail "--rank: exit $?"
for u in carol ivan frank alice; do
	prio-calc --snapshot "$d" -u "$u" --brief -P -h >"$tmp/brief" 2>"$tmp/err" ||
		{ fail "$u: exit $?: $(cat "$tmp/err")"; continue; }
	[ -s "$tmp/brief" ] || fail "$u: no rows"
	while IFS='|' read -r job part rank of prio start ours gap why; do
		# START, ours, is --forecast's START of the job (the same
		# forecast, run only until the user's jobs have started)
		fcs=$(prio-calc --snapshot "$d" --forecast -j "$job" -P -h 2>/dev/null | cut -d'|' -f4)
		[ "$ours" = "$fcs" ] || fail "$u job $job: START $ours, --forecast $fcs"
		want=$(awk -v j="$job" '
			/^JobId=/ { split($1, a, "="); id = a[2] }
			id == j && /StartTime=/ {
				sub(/.*StartTime=/, ""); sub(/ .*/, ""); print; exit
			}' "$o/scontrol_show_job_d.txt")
		[ "$want" = Unknown ] && want=""
		[ "$start" = "$want" ] || fail "$u job $job: start $start, StartTime=$want"
		[ -n "$rank" ] || continue # not queued (held, begin time)
		r=$(awk -F'|' -v j="$job" -v p="$part" '$5 == j && $2 == p' "$tmp/rank")
		[ "$(echo "$r" | cut -d'|' -f3,7)" = "$rank|$prio" ] ||
			fail "$u job $job: rank|priority $rank|$prio, --rank: $r"
		cnt=$(awk -F'|' -v p="$part" '$2 == p' "$tmp/rank" | wc -l)
		[ "$of" -eq "$cnt" ] || fail "$u job $job: OF $of, $cnt queued in $part"
		top=$(awk -F'|' -v p="$part" '$2 == p && $3 == 1 { print $5 }' "$tmp/rank")
		if [ "$top" = "$job" ]; then
			[ "$why" = - ] || fail "$u job $job: first, held back by $why"
			continue
		fi
		# the most trailing sprio -l term against the first job
		exp=$(awk -v a="$job" -v b="$top" -v p="$part" '
			function terms(row, t,   n, k, kv, x) {
				t["age"] = row[6]; t["assoc"] = row[7]
				t["fairshare"] = row[8]; t["jobsize"] = row[9]
				t["partition"] = row[10]; t["qos"] = row[11]
				n = split(row[13], kv, ",")
				for (k = 1; k <= n; k++) {
					split(kv[k], x, "="); t["tres " x[1]] = x[2]
				}
			}
			$1 == a && $2 == p { for (i = 1; i <= NF; i++) ra[i] = $i }
			$1 == b && $2 == p { for (i = 1; i <= NF; i++) rb[i] = $i }
			END {
				terms(ra, ta); terms(rb, tb)
				for (k in tb) if (!(k in ta)) ta[k] = 0
				best = ""; g = 0
				for (k in ta) {
					x = ta[k] - tb[k]
					if (x < g) { g = x; best = k }
				}
				print best "|" g
			}' "$o/sprio_l.txt")
		[ "${exp%|*}" = "$why" ] || fail "$u job $job ($part, behind $top): held back by $why, sprio says ${exp%|*}"
		awk -v x="$gap" -v y="${exp#*|}" 'BEGIN { d = x - y; exit !(d <= 1 && d >= -1) }' ||
			fail "$u job $job: gap $gap, sprio ${exp#*|}"
	done <"$tmp/brief"
done

# --mine is the invoking user's --brief; a user with no job gets an empty
# answer and a note
USER=carol prio-calc --snapshot "$d" --mine -P -h >"$tmp/mine" 2>/dev/null
prio-calc --snapshot "$d" -u carol --brief -P -h >"$tmp/brief" 2>/dev/null
cmp -s "$tmp/mine" "$tmp/brief" || fail "--mine as carol is not -u carol --brief"
USER=nobody prio-calc --snapshot "$d" --mine >"$tmp/out" 2>"$tmp/err" || fail "--mine nobody: exit $?"
[ -s "$tmp/out" ] && fail "--mine nobody printed: $(cat "$tmp/out")"
grep -q 'no pending job of nobody' "$tmp/err" || fail "--mine nobody: no note: $(cat "$tmp/err")"
exit $status
