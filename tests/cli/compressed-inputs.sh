#!/bin/sh
# SPDX-License-Identifier: MIT
# Compressed inputs (issue 17): a snapshot whose jobs.txt and sacct.txt are
# gzip or zstd data (under the same names, and as sacct.txt.gz or
# sacct.txt.zst beside no sacct.txt) gives the same bytes as the plain one;
# so does compressed accounting on a pipe.  A cut one is one error naming it.
set -u
command -v gzip >/dev/null && command -v zstd >/dev/null ||
	{ echo "gzip or zstd not installed"; exit 77; }
s=samples/site
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
bill() { # snapshot folder, then more arguments
	d=$1
	shift
	tres-bill --snapshot "$d" -T billing --decayed -t seconds -P "$@" \
		user TopUsage TopCount=3 group start=2026-11-22T03:00 end=2026-11-22T04:00
}
report() { tres-bill --snapshot "$1" --by day --csv -t minutes cluster AccountUtilizationByUser start=2026-11-21 end=2026-11-23; }
bill "$s" >"$t/bill.plain" || exit 1
report "$s" >"$t/report.plain" || exit 1
prio-calc --snapshot "$s" -l >"$t/calc.plain" || exit 1
[ -s "$t/bill.plain" ] && [ -s "$t/report.plain" ] && [ -s "$t/calc.plain" ] || { echo "empty plain output"; exit 1; }
same() { # what, plain file, new file
	cmp -s "$2" "$3" || { echo "$1: not the plain output"; diff "$2" "$3" | head -10; exit 1; }
}
for z in gzip zstd; do
	# the same names, compressed content (told by the magic bytes)
	rm -rf "$t/$z" && cp -r "$s" "$t/$z" || exit 1
	$z -c "$s/sacct.txt" >"$t/$z/sacct.txt" && $z -c "$s/jobs.txt" >"$t/$z/jobs.txt" || exit 1
	bill "$t/$z" >"$t/out" || exit 1
	same "$z sacct.txt, tres-bill" "$t/bill.plain" "$t/out"
	report "$t/$z" >"$t/out" || exit 1
	same "$z sacct.txt, report" "$t/report.plain" "$t/out"
	prio-calc --snapshot "$t/$z" -l >"$t/out" || exit 1
	same "$z jobs.txt, prio-calc" "$t/calc.plain" "$t/out"
	# sacct.txt.gz / sacct.txt.zst when there is no sacct.txt
	ext=gz; [ $z = zstd ] && ext=zst
	rm "$t/$z/sacct.txt" && $z -c "$s/sacct.txt" >"$t/$z/sacct.txt.$ext" || exit 1
	bill "$t/$z" >"$t/out" || exit 1
	same "$z sacct.txt.$ext, tres-bill" "$t/bill.plain" "$t/out"
	# compressed on a pipe
	$z -c "$s/sacct.txt" | bill "$s" --sacct - >"$t/out" || exit 1
	same "$z on stdin" "$t/bill.plain" "$t/out"
	# members / frames one after the other read whole
	head -n 20 "$s/sacct.txt" | $z -c >"$t/$z/sacct.txt.$ext" &&
		tail -n +21 "$s/sacct.txt" | $z -c >>"$t/$z/sacct.txt.$ext" || exit 1
	bill "$t/$z" >"$t/out" || exit 1
	same "$z, two members" "$t/bill.plain" "$t/out"
	# cut: refused, nothing on stdout
	$z -c "$s/sacct.txt" | head -c 300 >"$t/$z/sacct.txt.$ext"
	bill "$t/$z" >"$t/out" 2>"$t/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$t/out" ] &&
		[ "$(cat "$t/err")" = "tres-bill: $t/$z/sacct.txt.$ext: $z data truncated" ] ||
		{ echo "cut $z: exit $rc"; cat "$t/err"; exit 1; }
done
