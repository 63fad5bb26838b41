#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-snap against stub Slurm commands that replay an oracle capture: the
# folder it writes loads cleanly and holds what the cluster held.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
export PATH PRIO_STUB_DIR
prio-snap "$tmp/snap" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
for f in config.txt jobs.txt sshare.txt qos.txt partitions.txt nodes.txt assoc.cfg sacct.txt NOW MANIFEST; do
	[ -s "$tmp/snap/$f" ] || { echo "missing $f"; exit 1; }
done
grep -q '^NOW' "$tmp/snap/NOW" && { echo "NOW is not a number"; exit 1; }
grep -q "^version	slurm 22.05.8" "$tmp/snap/MANIFEST" || { echo "no version in MANIFEST"; exit 1; }
prio-calc --snapshot "$tmp/snap" --check -P >"$tmp/out" || { cat "$tmp/out"; exit 1; }
for want in 'count|jobs|44|' 'count|partitions|3|' 'count|nodes|5|' 'count|qos|7|' \
	'count|user associations|15|' 'config|cluster||ft' 'jobs|PENDING|20|'; do
	grep -qF "$want" "$tmp/out" || { echo "missing row: $want"; cat "$tmp/out"; exit 1; }
done
# A failing required command: exit 2, one line naming it and its error.
PRIO_STUB_FAIL_SSHARE=1 prio-snap "$tmp/bad" 2>"$tmp/err2"
rc=$?
[ $rc = 2 ] || { echo "expected exit 2, got $rc"; exit 1; }
grep -q '^prio-snap: sshare .*exit 1: sshare: error: Problem talking to the database' "$tmp/err2" ||
	{ echo "unexpected message:"; cat "$tmp/err2"; exit 1; }
# The zone the text timestamps are in, with its offset at capture.
grep -q "^zone	.*	[+-][0-9][0-9][0-9][0-9]$" "$tmp/snap/MANIFEST" || { echo "no zone in MANIFEST"; exit 1; }
# A controller that does not answer: --timeout stops the capture, one line.
PRIO_STUB_HANG_SCONTROL=1 prio-snap --timeout 1 "$tmp/hung" 2>"$tmp/err4"
rc=$?
[ $rc = 2 ] && grep -q '^prio-snap: scontrol show config: exit 124: no answer after 1 seconds (--timeout)$' "$tmp/err4" ||
	{ echo "hung scontrol: exit $rc:"; cat "$tmp/err4"; exit 1; }
prio-snap --timeout soon "$tmp/x" 2>"$tmp/err5"
[ $? = 2 ] && grep -q 'expected whole seconds' "$tmp/err5" || { cat "$tmp/err5"; exit 1; }
# A missing Slurm: exit 2.  The PATH holds only the utilities the script
# needs, so a Slurm installed on the test machine does not interfere.
mkdir "$tmp/bin"
for u in sh mkdir date sed head rm cat; do ln -s "$(command -v $u)" "$tmp/bin/$u"; done
PATH="$tmp/bin" "$top_builddir/scripts/prio-snap" "$tmp/none" 2>"$tmp/err3"
[ $? = 2 ] && grep -q 'scontrol: command not found' "$tmp/err3" || { cat "$tmp/err3"; exit 1; }
exit 0
