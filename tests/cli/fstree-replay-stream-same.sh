#!/bin/sh
# SPDX-License-Identifier: MIT
# fstree-show rebuilds usage from the folder's sacct.txt as it streams
# (issue 17): each record charged and dropped, every other source loaded
# first.  Accounting on standard input is read whole, as before.  Both
# ways print the same bytes, the same errors and warnings and exit alike:
# --replay in every view and mode, --no-run, --at without sshare usage
# (a replay too), and a row listed twice (the stream leaves the doubt to
# the whole load, which warns under --keep-going and refuses without it).
set -u
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
both() { # folder, then fstree-show arguments
	s=$1
	shift
	n=$((n + 1))
	fstree-show --snapshot "$s" "$@" >"$t/a" 2>"$t/ae"
	ra=$?
	fstree-show --snapshot "$s" --sacct - "$@" <"$s/sacct.txt" >"$t/b" 2>"$t/be"
	rb=$?
	sed "s|$s/sacct.txt|(stdin)|" "$t/ae" >"$t/ae2" && mv "$t/ae2" "$t/ae"
	[ $ra = $rb ] && cmp -s "$t/a" "$t/b" && cmp -s "$t/ae" "$t/be" ||
		{ echo "case $n ($s $*): streamed and whole differ"; diff "$t/a" "$t/b" | head; diff "$t/ae" "$t/be" | head; exit 1; }
	last=$ra
}
last=0
for s in samples/site samples/slurm-24.11; do
	both $s --replay -a -l
	[ $last = 0 ] && [ -s "$t/a" ] || { echo "$s: exit $last or no output"; cat "$t/ae"; exit 1; }
	both $s --replay -a -l -P
	both $s --replay -a --json
	both $s --replay --tree -a
	both $s --replay --no-run -a -l --csv
	both $s --replay --at 2026-11-23T00:00:00 -a -l
	both $s --replay --algorithm classic -a -l
	both $s --replay --why alice --vs bob
done
# --at without usage loaded: a replay, streamed as well
mkdir "$t/nousage" && cp samples/site/* "$t/nousage/" && rm -f "$t/nousage/sshare.txt" "$t/nousage/sshare.json" || exit 1
both "$t/nousage" --at 2026-11-22T06:00:00 -a -l
[ $last = 0 ] || { echo "no usage, --at: exit $last"; cat "$t/ae"; exit 1; }
# a row listed twice
cp -r samples/site "$t/dup" && sed -n 2p samples/site/sacct.txt >>"$t/dup/sacct.txt" || exit 1
both "$t/dup" --replay -a -l --keep-going
grep -q 'listed twice' "$t/ae" || { echo "no warning for the row listed twice"; cat "$t/ae"; exit 1; }
both "$t/dup" --replay -a -l
[ $last = 2 ] || { echo "a row listed twice, no --keep-going: exit $last, not 2"; exit 1; }
echo "$n cases: streamed and whole alike"
