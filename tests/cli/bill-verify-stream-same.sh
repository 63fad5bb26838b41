#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill --verify checks the folder's sacct.txt as it streams (issue
# 17), keeping only the rows that differ; accounting on standard input is
# read whole, as before.  Both ways print the same bytes and exit alike in
# every output mode: with nothing to report, and with weights changed so
# that most stored billing= values differ (rows kept, then printed before
# the job list's, the JSON summary first).
set -u
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
both() { # folder, expected exit status, options
	s=$1 want=$2
	shift 2
	n=$((n + 1))
	tres-bill --snapshot "$s" --verify "$@" >"$t/a" 2>"$t/ae"
	ra=$?
	tres-bill --snapshot "$s" --sacct - --verify "$@" <"$s/sacct.txt" >"$t/b" 2>"$t/be"
	rb=$?
	[ $ra = "$want" ] || { echo "case $n ($s $*): exit $ra, not $want"; cat "$t/ae"; exit 1; }
	[ $ra = $rb ] && cmp -s "$t/a" "$t/b" && cmp -s "$t/ae" "$t/be" ||
		{ echo "case $n ($s $*): streamed and whole differ"; diff "$t/a" "$t/b" | head; diff "$t/ae" "$t/be" | head; exit 1; }
}
for mode in "" -P --csv --json; do
	both samples/site 0 $mode
done
# other weights: the stored values no longer agree
cp -r samples/site "$t/w" || exit 1
sed -i 's/TRESBillingWeights=CPU=1.0,Mem=0.25G/TRESBillingWeights=CPU=3.0,Mem=0.25G/' "$t/w/slurm.conf"
for mode in "" -P --csv --json; do
	both "$t/w" 1 $mode
done
# the rows are there: sacct's first, then the job list's
tres-bill --snapshot "$t/w" --verify >"$t/a" 2>/dev/null
sacct_rows=$(grep -c '^sacct ' "$t/a")
[ "$sacct_rows" -gt 0 ] || { echo "no sacct row differs under other weights"; head "$t/a"; exit 1; }
last_sacct=$(grep -n '^sacct ' "$t/a" | tail -1 | cut -d: -f1)
first_job=$(grep -n '^scontrol ' "$t/a" | head -1 | cut -d: -f1)
[ -z "$first_job" ] || [ "$last_sacct" -lt "$first_job" ] ||
	{ echo "a job list row before a sacct row"; head "$t/a"; exit 1; }
echo "$n cases: streamed and whole alike ($sacct_rows sacct rows differ under other weights)"
