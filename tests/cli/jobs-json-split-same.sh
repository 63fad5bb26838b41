#!/bin/sh
# SPDX-License-Identifier: MIT
# squeue --json is read one job's object at a time when the document is
# plain (issue 17), and whole otherwise: a bare NaN anywhere (json-c's
# non-finite numbers) sends it to the whole reading.  A member "zz": NaN
# added at the end forces that path without moving a line, so each case
# below must print the same bytes and exit alike both ways: the tables of
# every data_parser version we hold, a job refused (its error, and its
# warning and the other jobs under --keep-going), and a document with a
# job refused early and a syntax error late (the whole parse finds the
# syntax error first, so both report it).
set -u
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
nan() { perl -0pe 's/\}\s*\z/,"zz": NaN}\n/' "$1"; }
both() { # jobs file, then prio-calc arguments
	f=$1
	shift
	n=$((n + 1))
	prio-calc --jobs "$f" "$@" >"$t/a" 2>"$t/ae"
	ra=$?
	nan "$f" >"$t/forced.json" || exit 1
	prio-calc --jobs "$t/forced.json" "$@" >"$t/b" 2>"$t/be"
	rb=$?
	sed "s|$t/forced.json|$f|g" "$t/be" >"$t/be2" && mv "$t/be2" "$t/be"
	[ $ra = $rb ] && cmp -s "$t/a" "$t/b" && cmp -s "$t/ae" "$t/be" ||
		{ echo "case $n ($f $*): one job at a time and whole differ"; diff "$t/a" "$t/b" | head; diff "$t/ae" "$t/be" | head; exit 1; }
	last=$ra
}
last=0
both samples/site/jobs.json --snapshot samples/site -l
[ $last = 0 ] || { echo "samples/site: exit $last"; exit 1; }
both samples/slurm-24.11/jobs.json --snapshot samples/slurm-24.11 -l
[ $last = 0 ] || { echo "samples/slurm-24.11: exit $last"; exit 1; }
for f in tests/unit/data/json/squeue-v0.0.*.json; do
	both "$f" --start
done
for d in tests/oracle/forecast-24.11-run16 tests/oracle/forecast-22.05-run17; do
	both $d/snap/jobs.json --snapshot $d/snap -l
	[ $last = 0 ] || { echo "$d: exit $last"; exit 1; }
done
# a job refused: a member every job of 24.11 has, missing in the third
awk '/"submit_time"/ && ++k == 3 { sub(/"submit_time"/, "\"submit_tim\"") } { print }' \
	samples/slurm-24.11/jobs.json >"$t/refused.json"
both "$t/refused.json" --snapshot samples/slurm-24.11 -l
[ $last = 2 ] || { echo "refused: exit $last, not 2"; exit 1; }
grep -q 'submit_time' "$t/ae" || { echo "refused: no word of submit_time"; cat "$t/ae"; exit 1; }
both "$t/refused.json" --snapshot samples/slurm-24.11 -l --keep-going
[ $last = 0 ] || { echo "refused, --keep-going: exit $last, not 0"; exit 1; }
grep -q 'submit_time' "$t/ae" || { echo "--keep-going: no warning"; cat "$t/ae"; exit 1; }
# and a syntax error in the last job as well: that is what both report
perl -0pe 's/("job_id":\s*)(\d+)((?!.*"job_id").*)\z/$1 $2,,$3/s' "$t/refused.json" >"$t/late.json"
both "$t/late.json" --snapshot samples/slurm-24.11 -l --keep-going
[ $last = 2 ] || { echo "late syntax error: exit $last, not 2"; exit 1; }
grep -q 'invalid JSON' "$t/ae" || { echo "late syntax error: not the one reported"; cat "$t/ae"; exit 1; }
echo "$n cases: one job at a time and whole alike"
