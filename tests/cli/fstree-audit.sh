#!/bin/sh
# SPDX-License-Identifier: MIT
# --audit: a faithful capture passes (exit 0); the same capture with one
# exact cell and one usage-derived cell altered fails (exit 1) and names
# both cells with our value, Slurm's and the interval allowed; plain text
# captures are read too.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d=tests/oracle/fairtree-basic
fstree-show --conf $d/slurm.conf --audit $d/sshare_a_l_P.txt >"$tmp/out" ||
	{ echo "faithful capture rejected:"; cat "$tmp/out"; exit 1; }
tail -1 "$tmp/out" | grep -q ': 0 of 175 cells in 25 rows disagree' || { cat "$tmp/out"; exit 1; }
sed -e 's/^   hep|carol|1|0.125000|3011|0.084052|0.280848|0.266667|/   hep|carol|1|0.125000|3011|0.084052|0.280848|0.300000|/' \
	-e 's/^ chem||30|0.370370|13221|0.368967|/ chem||30|0.370370|13221|0.370000|/' \
	$d/sshare_a_l_P.txt >"$tmp/altered"
cmp -s $d/sshare_a_l_P.txt "$tmp/altered" && { echo "sed changed nothing"; exit 1; }
fstree-show --conf $d/slurm.conf --audit "$tmp/altered" -P >"$tmp/out"
rc=$?
[ $rc = 1 ] || { echo "altered capture: exit $rc"; cat "$tmp/out"; exit 1; }
cat >"$tmp/want" <<'WANT'
Account|User|Partition|Field|Ours|Slurm|Low|High
chem|||NormUsage|0.368951|0.370000|0.368941|0.368979
hep|carol||FairShare|0.266667|0.300000||
WANT
cmp -s "$tmp/want" "$tmp/out" || { diff "$tmp/want" "$tmp/out"; exit 1; }
# --json: one object, the summary's counts and the same cells as numbers
fstree-show --conf $d/slurm.conf --audit "$tmp/altered" --json >"$tmp/out"
[ $? = 1 ] || { echo "altered capture, --json: exit status"; exit 1; }
grep -q '"disagree":2,"cells":175,"rows":25,"algorithm":"fairtree"' "$tmp/out" &&
	grep -q '"field":"NormUsage","ours":0.368951,"slurm":0.37,"low":0.368941,"high":0.368979}' "$tmp/out" &&
	grep -q '"field":"FairShare","ours":0.266667,"slurm":0.3,"low":null,"high":null}' "$tmp/out" ||
	{ echo "--audit --json:"; cat "$tmp/out"; exit 1; }
# a plain-text capture with a changed RawShares
sed 's/^   hep                    carol          1 /   hep                    carol          2 /' \
	$d/sshare_a_l.txt >"$tmp/altered.txt"
fstree-show --conf $d/slurm.conf --assoc $d/sshare_a_l_P.txt --audit "$tmp/altered.txt" -P -h >"$tmp/out"
[ $? = 1 ] && grep -qx 'hep|carol||RawShares|1|2||' "$tmp/out" || { echo "RawShares:"; cat "$tmp/out"; exit 1; }
# a file that is not sshare output
fstree-show --snapshot samples/site --audit samples/site/assoc.cfg 2>"$tmp/err"
[ $? = 2 ] && grep -q 'not sshare output' "$tmp/err" || { cat "$tmp/err"; exit 1; }
exit 0
