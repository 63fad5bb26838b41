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
# Who captured, with the rights PrivateData looks at: the stub id says
# alice, the stub sacctmgr her AdminLevel.
grep -q "^user	alice	None$" "$tmp/snap/MANIFEST" || { echo "no capturing user in MANIFEST"; cat "$tmp/snap/MANIFEST"; exit 1; }
PRIO_STUB_ADMINLEVEL=Operator PRIO_SNAP_QUIET=1 prio-snap --no-sacct --no-squeue-json "$tmp/op" 2>/dev/null &&
	grep -q "^user	alice	Operator$" "$tmp/op/MANIFEST" || { echo "Operator not recorded"; exit 1; }
PRIO_STUB_UID=0 PRIO_STUB_USER=root PRIO_SNAP_QUIET=1 prio-snap --no-sacct --no-squeue-json "$tmp/root" 2>/dev/null &&
	grep -q "^user	root	root$" "$tmp/root/MANIFEST" || { echo "root not recorded"; exit 1; }
# SlurmUser: fairtree-basic's controller runs as root(0); a uid other than 0
# named root is that user, not root itself
PRIO_STUB_UID=64 PRIO_STUB_USER=root PRIO_SNAP_QUIET=1 prio-snap --no-sacct --no-squeue-json "$tmp/su" 2>/dev/null &&
	grep -q "^user	root	SlurmUser$" "$tmp/su/MANIFEST" || { echo "SlurmUser not recorded"; exit 1; }
PRIO_STUB_ADMINLEVEL=Bogus PRIO_SNAP_QUIET=1 prio-snap --no-sacct --no-squeue-json "$tmp/unk" 2>/dev/null &&
	grep -q "^user	alice	unknown$" "$tmp/unk/MANIFEST" || { echo "unknown level not recorded as unknown"; exit 1; }
# The same captures under PrivateData=usage,jobs: alice's is partial (her
# sshare is left unread, FAIRSHARE and PRIORITY blank, no ranks); the
# operator's is whole and ranks as before.
for d in snap op; do
	sed -i 's/^PrivateData *=.*/PrivateData             = jobs,usage/' "$tmp/$d/config.txt"
done
prio-calc --snapshot "$tmp/snap" -l >"$tmp/pout" 2>"$tmp/perr" || { cat "$tmp/perr"; exit 1; }
grep -qxF "prio-calc: warning: FAIRSHARE and PRIORITY left blank: $tmp/snap/sshare.txt not read: PrivateData=usage hides other users' usage from alice (AdminLevel None); --assume-complete if the snapshot is whole" "$tmp/perr" ||
	{ echo "no blank warning:"; cat "$tmp/perr"; exit 1; }
prio-calc --snapshot "$tmp/snap" --rank >/dev/null 2>"$tmp/perr"
[ $? = 2 ] && grep -qxF "prio-calc: --rank: cannot be computed from a partial snapshot: PrivateData=jobs hides other users' jobs from alice (AdminLevel None); --assume-complete if it is whole" "$tmp/perr" ||
	{ echo "--rank not refused:"; cat "$tmp/perr"; exit 1; }
# (the stubs capture at the wall clock, days after the jobs' stored
# priorities: the clock is given, so no search warns)
prio-calc --snapshot "$tmp/op" --now "$(cat "$tmp/op/NOW")" --rank >/dev/null 2>"$tmp/perr" && [ ! -s "$tmp/perr" ] ||
	{ echo "the operator's capture refused:"; cat "$tmp/perr"; exit 1; }
# slurmctld's record of its last calculation, copied from StateSaveLocation
# when readable (the stub's capture has none there: nothing, no MANIFEST
# line); not with -M, where the local file is another cluster's.
[ ! -e "$tmp/snap/priority_last_decay_ran" ] && ! grep -q priority_last_decay_ran "$tmp/snap/MANIFEST" ||
	{ echo "a record copied from nowhere"; exit 1; }
mkdir "$tmp/state"
printf '\000\000\000\000\153\025\224\261\000\000\000\000\153\025\224\261' >"$tmp/state/priority_last_decay_ran"
PRIO_STUB_STATE=$tmp/state PRIO_SNAP_QUIET=1 prio-snap --no-sacct --no-squeue-json "$tmp/rec" 2>"$tmp/err" &&
	cmp -s "$tmp/state/priority_last_decay_ran" "$tmp/rec/priority_last_decay_ran" &&
	grep -qxF "priority_last_decay_ran	0	cp $tmp/state/priority_last_decay_ran" "$tmp/rec/MANIFEST" ||
	{ echo "record not copied:"; cat "$tmp/err" "$tmp/rec/MANIFEST"; exit 1; }
# (1796576433, 2026-12-06T17:00:33: far from the stub's wall-clock NOW, so
# the check names it and leaves it out)
prio-calc --snapshot "$tmp/rec" --check 2>&1 | grep -qF "slurmctld's record (priority_last_decay_ran) says 2026-12-06T17:00:33, before the window searched (a stale file?)" ||
	{ echo "record not reported:"; prio-calc --snapshot "$tmp/rec" --check 2>&1 | grep -i calc; exit 1; }
PRIO_STUB_STATE=$tmp/state PRIO_SNAP_QUIET=1 prio-snap -M ft --no-sacct --no-squeue-json "$tmp/recm" 2>/dev/null &&
	[ ! -e "$tmp/recm/priority_last_decay_ran" ] || { echo "record copied with -M"; exit 1; }
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
