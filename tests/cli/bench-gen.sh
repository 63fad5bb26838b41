#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark generator's small size loads cleanly and holds what it says
# (so the M and L snapshots of make bench stay loadable as loaders evolve).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/bench/gen" S "$tmp/s" || { echo "gen failed"; exit 1; }
# Same size, same bytes.
"$top_builddir/tests/bench/gen" S "$tmp/s2" || exit 1
for f in slurm.conf assoc.cfg sshare.txt qos.txt jobs.txt sacct.txt NOW; do
	cmp -s "$tmp/s/$f" "$tmp/s2/$f" || { echo "gen is not deterministic: $f"; exit 1; }
done
prio-calc --snapshot "$tmp/s" --check -P >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; exit 1; }
users=$(awk -F'|' 'NR > 1 && $2 != ""' "$tmp/s/sshare.txt" | wc -l)
for want in 'count|jobs|2200|' 'jobs|PENDING|2000|' 'jobs|RUNNING|200|' \
	'count|partitions|5|' 'count|nodes|50|' 'count|qos|4|' \
	"count|user associations|$users|" 'count|users|200|distinct names' \
	'count|sacct records|20000|jobs' 'config|cluster||gens'; do
	grep -qF "$want" "$tmp/out" || { echo "missing row: $want"; cat "$tmp/out"; exit 1; }
done
exit 0
