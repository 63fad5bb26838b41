#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-diff on a real capture (samples/site, Slurm 22.05, Fair Tree, 15
# users) and the same cluster ten minutes later, made by the edits an
# admin and the users would make: PriorityWeightQOS 5000 -> 2000, heidi's
# RawUsage 3401 -> 20000 (her accounts' with it), job 26 started, job 35
# ended, job 45 submitted.  The values checked come from the capture's own
# sprio -l and sshare (real Slurm) and from Fair Tree's rule FairShare =
# rank / N, not from prio-diff.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
a=samples/site b=$tmp/b
status=0
fail() { echo "FAIL: $*"; status=1; }

cp -r "$a" "$b"
# what B's jobs and sprio were is not known: only the files edited below
rm "$b/jobs.json" "$b/sprio_l.expected"
echo $(($(cat "$a/NOW") + 600)) >"$b/NOW"
sed -i 's/^PriorityWeightQOS=5000$/PriorityWeightQOS=2000/' "$b/slurm.conf"
# (B's sshare keeps the columns up to RawUsage: what Slurm derives from the
# usage would have changed with it, and is computed instead)
awk -F'|' 'BEGIN { OFS = "|" } { a = $1; gsub(/ /, "", a) }
	$2 == "heidi" || ($2 == "" && (a == "biochem" || a == "chem" || a == "root")) { $8 += 16599 }
	{ print }' "$a/sshare.txt" | cut -d'|' -f1-8 >"$b/sshare.txt"
awk 'BEGIN { RS = ""; ORS = "\n\n" }
	/^JobId=35 / { next }
	/^JobId=26 / { sub(/JobState=PENDING Reason=[^ ]*/, "JobState=RUNNING Reason=None")
		sub(/NodeList= SchedNodeList=[^\n]*/, "NodeList=ftn1")
		sub(/StartTime=[^ ]*/, "StartTime=2026-11-22T04:00:00") }
	/^JobId=25 / { print; sub(/^JobId=25 /, "JobId=45 ")
		gsub(/(Submit|Eligible|Accrue)Time=[^ \n]*/, "&X")
		gsub(/=2026-11-22T03:[0-9:]*X/, "=2026-11-22T04:01:00") }
	{ print }' "$a/jobs.txt" >"$b/jobs.txt"

# samples/site-later (the man page's examples) is that snapshot
diff -r samples/site-later "$b" >"$tmp/d" || fail "samples/site-later is not B: $(head -5 "$tmp/d")"

# identical snapshots: no difference, exit 0
out=$(prio-diff "$a" "$a"); rc=$?
[ $rc = 0 ] || fail "same snapshot twice: exit $rc"
printf '%s\n' "$out" | grep -qx 'no differences' || fail "same snapshot: $out"

prio-diff -P -h "$a" "$b" >"$tmp/p"; rc=$?
[ $rc = 1 ] || fail "differences: exit $rc, expected 1"
# section|change|job_id|user|account|partition|qos|key|old_setting|new_setting|old|new|delta|old_rank|new_rank|factor|factor_delta
grep -qx 'config|||||||PriorityWeightQOS|5000|2000|||||||' "$tmp/p" || fail "weight change missing"
[ "$(grep -c '^config|' "$tmp/p")" = 1 ] || fail "config: more than the one change"
[ "$(grep '^jobs|' "$tmp/p" | cut -d'|' -f2,3 | tr '\n' ' ')" = "started|26 ended|35 submitted|45 " ] ||
	fail "jobs: $(grep '^jobs|' "$tmp/p" | tr '\n' ' ')"
# heidi's RawUsage as sshare printed it, and the delta given
old=$(awk -F'|' '$2 == "heidi" { print $8 }' "$a/sshare.txt")
grep -qx "assoc|||heidi|biochem|||RawUsage|||$old|$((old + 16599))|16599||||" "$tmp/p" &&
	grep -qx "assoc||||biochem|||RawUsage|||$old|$((old + 16599))|16599||||" "$tmp/p" ||
	fail "heidi's RawUsage: $(grep '|heidi|' "$tmp/p" | grep RawUsage)"
# Fair Tree: heidi had the second-best FairShare (sshare: 0.933333 = 14/15);
# with the most usage she ranks last: 1/15
fs=$(awk -F'|' '$2 == "heidi" { print $11 }' "$a/sshare.txt")
grep -qx "assoc|||heidi|biochem|||FairShare|||$fs|0.066667|-0.866666||||" "$tmp/p" ||
	fail "heidi's FairShare ($fs -> 1/15): $(grep '|heidi|biochem|||FairShare' "$tmp/p")"

# rank moves: the old priority and rank are sprio's (the capture's own
# sprio -l: rank = place by PRIORITY in the partition), the new ones
# prio-calc's on B; the factor is the term that moved most
awk 'NR > 1 { print $2, $4, $1 }' "$a/sprio_l.expected" | sort -k1,1 -k2,2nr |
	awk '{ r[$1]++; print $3, $1, $2, r[$1] }' >"$tmp/old"
prio-calc --snapshot "$b" -l 2>/dev/null | awk 'NR > 1 { print $2, $4, $1 }' | sort -k1,1 -k2,2nr |
	awk '{ r[$1]++; print $3, $1, $2, r[$1] }' >"$tmp/new"
grep '^ranks|' "$tmp/p" >"$tmp/ranks"
[ -s "$tmp/ranks" ] || fail "no rank moves"
while IFS='|' read -r _ _ id _ _ part _ _ _ _ op np _ or nr _ _; do
	want_o=$(awk -v j="$id" -v p="$part" '$1 == j && $2 == p { print $3, $4 }' "$tmp/old")
	want_n=$(awk -v j="$id" -v p="$part" '$1 == j && $2 == p { print $3, $4 }' "$tmp/new")
	[ "$op $or" = "$want_o" ] || fail "job $id ($part): old priority and rank $op $or, sprio: $want_o"
	[ "$np $nr" = "$want_n" ] || fail "job $id ($part): new priority and rank $np $nr, prio-calc: $want_n"
done <"$tmp/ranks"
# heidi's job 32: first in short (sprio 12996), last of the six left
# (26 started); her FAIRSHARE term 9333 -> 667 (10000 x 1/15)
grep -q '^ranks||32|heidi|biochem|short|normal||||12996|[0-9]*|[-0-9]*|1|6|FAIRSHARE|-8666$' "$tmp/ranks" ||
	fail "job 32: $(grep '^ranks||32|' "$tmp/ranks")"
# frank's job 30 (QOS urgent, the highest: factor 1) loses 3000 of QOS
# but more of FAIRSHARE: 7333 (sprio) -> 1333 (2/15, second last)
grep -q '^ranks||30|frank|orgchem|batch|urgent||||13392|[0-9]*|[-0-9]*|1|[0-9]*|FAIRSHARE|-6000$' "$tmp/ranks" ||
	fail "job 30: $(grep '^ranks||30|' "$tmp/ranks")"

# filters and sections
prio-diff -P -h -u heidi --section assoc,ranks "$a" "$b" >"$tmp/u"
[ -z "$(cut -d'|' -f4 "$tmp/u" | grep -vx heidi)" ] || fail "-u heidi: $(cat "$tmp/u")"
[ "$(cut -d'|' -f1 "$tmp/u" | sort -u | tr '\n' ' ')" = "assoc ranks " ] || fail "--section assoc,ranks"
prio-diff -P -h -p big --section ranks "$a" "$b" | cut -d'|' -f6 | sort -u >"$tmp/pb"
[ "$(cat "$tmp/pb")" = big ] || fail "-p big: $(cat "$tmp/pb")"

# JSON: integers stay integers, numbers are numbers, blanks null
prio-diff --json -u heidi "$a" "$b" >"$tmp/j"
jq -e '.[] | select(.section == "ranks" and .job_id == 32) |
	.old == 12996 and .old_rank == 1 and .new_rank == 6 and .factor_delta == -8666 and .change == null' \
	"$tmp/j" >/dev/null || fail "json: $(cat "$tmp/j")"
jq -e '[.[] | select(.key == "FairShare")][0] | .old == 0.933333 and .new == 0.066667 and .delta == -0.866666' \
	"$tmp/j" >/dev/null || fail "json FairShare: $(cat "$tmp/j")"
jq -e 'all(.[]; (.job_id == null or (.job_id | type) == "number"))' "$tmp/j" >/dev/null || fail "json job_id"

# --live against the stub commands replaying the same capture: nothing
# changed but the clock, so every job kept its rank and AGE moved most
PATH="$top_srcdir/tests/cli/stubs:$PATH" PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic" \
	TMPDIR=$tmp prio-diff -P -h "$a" --live >"$tmp/l" 2>"$tmp/le"
[ "$(cut -d'|' -f1 "$tmp/l" | sort -u)" = ranks ] || fail "--live: $(cat "$tmp/l" "$tmp/le")"
awk -F'|' '$14 != $15 || $16 != "AGE"' "$tmp/l" | grep . && fail "--live: a rank moved or not by AGE"

# two clusters: refused unless --force
mkdir "$tmp/c" && cp -r "$a"/. "$tmp/c" && sed -i 's/^ClusterName=ft$/ClusterName=other/' "$tmp/c/slurm.conf"
prio-diff "$a" "$tmp/c" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/o" ] &&
	grep -qx 'prio-diff: ClusterName: the snapshots are of different clusters (ft and other; --force compares them anyway)' "$tmp/e" ||
	fail "two clusters: exit $rc: $(cat "$tmp/e")"
prio-diff -P -h --force "$a" "$tmp/c" >"$tmp/o"; rc=$?
[ $rc = 1 ] && grep -qx 'config|||||||ClusterName|ft|other|||||||' "$tmp/o" || fail "--force: exit $rc: $(cat "$tmp/o")"
exit $status
