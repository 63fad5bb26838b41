#!/bin/sh
# SPDX-License-Identifier: MIT
# fstree-show's sshare table per Slurm release, on a real 22.05 capture under
# classic fairshare (tests/oracle/classic): from 25.11 sshare prints FairShare
# on user rows only (the controller's factor), blank on account rows, where
# earlier releases computed it for every row.  Every other cell, and every
# user row, is the same for 22.05, 25.05, 25.11 and 26.05.  Read without
# anything saying the release (sshare text and slurm.conf alone), the table
# is the earlier releases' and a warning says so.
set -u
. tests/cli/calc-oracle.lib
calc_setup
o=tests/oracle/classic
calc_snapshot classic "$tmp/c" || { echo "cannot build the snapshot"; exit 2; }
fs() { fstree-show --snapshot "$tmp/c" -a -l -P "$@"; }

fs --slurm-version 22.05 >"$tmp/22" || exit 1
# the 22.05 table: Slurm's own header, every account row with a FairShare
[ "$(head -1 "$tmp/22")" = "$(head -1 "$o/sshare_a_l_P.txt")" ] ||
	{ echo "header differs from sshare_a_l_P.txt"; status=1; }
for v in 25.05 26.05 25.11; do
	fs --slurm-version $v >"$tmp/$v" || { echo "$v: exit $?"; status=1; }
done
cmp -s "$tmp/22" "$tmp/25.05" || { echo "25.05 differs from 22.05"; status=1; }
cmp -s "$tmp/25.11" "$tmp/26.05" || { echo "26.05 differs from 25.11"; status=1; }
# field 2 (User) empty = account row; FairShare is field 8
awk -F'|' 'NR == FNR { if (FNR > 1) { line[FNR] = $0; fs22[FNR] = $8; user[FNR] = $2 } next }
	FNR > 1 {
		want = user[FNR] == "" ? "" : fs22[FNR]
		if ($8 != want) { printf "25.11 line %d: FairShare \"%s\", want \"%s\"\n", FNR, $8, want; bad = 1 }
		a = $0; b = line[FNR]; sub(/\|[^|]*\|[^|]*\|[^|]*$/, "", a); sub(/\|[^|]*\|[^|]*\|[^|]*$/, "", b)
		if (a != b) { printf "25.11 line %d differs before FairShare\n", FNR; bad = 1 }
		if (user[FNR] == "" && fs22[FNR] == "") { print "22.05 account row without FairShare"; bad = 1 }
	}
	END { exit bad }' "$tmp/22" "$tmp/25.11" || status=1

# the release unknown: 22.05's table and a warning
fstree-show --conf "$tmp/c/slurm.conf" --assoc "$tmp/c/sshare.txt" -a -l -P >"$tmp/u" 2>"$tmp/uerr" ||
	{ echo "unknown release: exit $?"; cat "$tmp/uerr"; status=1; }
grep -q 'release is not known.*from 25.11 they leave it blank' "$tmp/uerr" ||
	{ echo "no warning without a release"; cat "$tmp/uerr"; status=1; }
[ "$(awk -F'|' 'NR == 2 { print $8 }' "$tmp/u")" = "$(awk -F'|' 'NR == 2 { print $8 }' "$o/sshare_a_l_P.txt")" ] ||
	{ echo "unknown release: root's FairShare is not 22.05's"; status=1; }
exit $status
