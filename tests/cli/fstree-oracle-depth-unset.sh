#!/bin/sh
# SPDX-License-Identifier: MIT
# DEPTH_OBLIVIOUS with a sibling Slurm has not computed since slurmctld
# started (tests/oracle/depth-oblivious-unset-sibling, real 22.05): Slurm
# sums the siblings' cached usage_norm, and a user association never
# computed holds the "no value" marker, so acca|pllive2 (pending jobs,
# computed in every calculation before its sibling acca|pllive1, which has
# none) gets EffectvUsage 0 and FairShare 1.  The EffectvUsage sshare
# printed is the evidence fstree-show reads that state from; with other
# evidence it keeps the steady state (every sibling computed before).
set -u
o=tests/oracle/depth-oblivious-unset-sibling
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0

# every cell of Slurm's own sshare -a -l -P within the truncation interval
fstree-show --snapshot "$o/snap" --audit "$o/sshare_a_l_P.txt" >"$tmp/audit" 2>&1 ||
	{ echo "audit:"; cat "$tmp/audit"; status=1; }
grep -q ': 0 of 84 cells in 14 rows disagree' "$tmp/audit" ||
	{ echo "audit summary:"; tail -1 "$tmp/audit"; status=1; }

# the same without the lag (nothing ran in the last cycles): the unset
# sibling does not depend on it
fstree-show --snapshot "$o/snap" --now "$(cat "$o/last_calc")" --no-lag --audit "$o/sshare_a_l_P.txt" \
	>"$tmp/audit2" 2>&1 || { echo "audit --no-lag:"; cat "$tmp/audit2"; status=1; }

# the rows as sshare printed them: pllive2 swamped, pllive1 (computed at
# the capture's sshare, after pllive2) not
fstree-show --snapshot "$o/snap" -a -l -P -o Account,User,EffectvUsage,FairShare >"$tmp/rows" 2>&1
grep -qx '  acca|pllive2|0.000000|1.000000' "$tmp/rows" ||
	{ echo "acca|pllive2 is not swamped:"; grep pllive2 "$tmp/rows"; status=1; }
grep -q '^  acca|pllive1|0\.172' "$tmp/rows" ||
	{ echo "acca|pllive1:"; grep pllive1 "$tmp/rows"; status=1; }

# the same snapshot whose sshare shows pllive2 computed normally (as after
# any earlier sshare call): the steady state, and pllive2 is not swamped
mkdir "$tmp/snap"
cp "$o"/snap/* "$tmp/snap/"
sed 's/^\(  acca|pllive2|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|\)0\.000000|1\.000000|/\10.168543|0.672196|/' \
	"$o/snap/sshare.txt" >"$tmp/snap/sshare.txt"
cmp -s "$o/snap/sshare.txt" "$tmp/snap/sshare.txt" && { echo "the sed changed nothing"; status=1; }
fstree-show --snapshot "$tmp/snap" -a -l -P -o Account,User,EffectvUsage,FairShare >"$tmp/rows2" 2>&1
grep -q '^  acca|pllive2|0\.16[0-9]*|0\.67' "$tmp/rows2" ||
	{ echo "steady state: acca|pllive2:"; grep pllive2 "$tmp/rows2"; status=1; }
exit $status
