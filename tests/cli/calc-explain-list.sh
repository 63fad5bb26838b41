#!/bin/sh
# SPDX-License-Identifier: MIT
# --explain takes a comma list (issue 16): each job explained in turn, in
# the order given, the same text as alone; in -P/JSON one table whose rows
# name their job; a job not in the snapshot anywhere in the list fails the
# command before anything is printed.
set -u
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
s=tests/cli/readers-data/slurm-24.11
prio-calc --snapshot "$s" --explain 9,8 >"$t/both" 2>"$t/err" || { cat "$t/err"; exit 1; }
prio-calc --snapshot "$s" --explain 9 >"$t/a" 2>/dev/null || exit 1
prio-calc --snapshot "$s" --explain 8 >"$t/b" 2>/dev/null || exit 1
{ cat "$t/a"; echo; cat "$t/b"; } | cmp -s - "$t/both" || { echo "--explain 9,8 is not --explain 9, a blank line, --explain 8"; exit 1; }
[ "$(grep -c '^Job [0-9]* (user' "$t/both")" = 2 ] || { echo "two explanations expected"; exit 1; }
prio-calc --snapshot "$s" --explain 9,8 -P >"$t/p" || exit 1
[ "$(head -1 "$t/p" | cut -d'|' -f1)" = JOBID ] || { echo "-P header: $(head -1 "$t/p")"; exit 1; }
[ "$(awk -F'|' 'NR > 1 { print $1 }' "$t/p" | uniq | tr '\n' ' ')" = "9 8 " ] || { echo "-P rows not 9 then 8"; exit 1; }
prio-calc --snapshot "$s" --explain 8,424242 >"$t/out" 2>"$t/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$t/out" ] && [ "$(cat "$t/err")" = "prio-calc: --explain: no job 424242 in the snapshot" ] ||
	{ echo "8,424242: exit $rc, stdout $(wc -c <"$t/out") bytes, stderr $(cat "$t/err")"; exit 1; }
