#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc without sshare: the association tree from the sacctmgr dump
# alone (no RawUsage) and the job records (--sacct sacct_a_P_X.txt), as
# fstree-show does it, rebuilds every association's usage from the records
# (prio_usage_needs_replay, prio_usage_replay) instead of assuming none.
# On the Fair Tree scenarios of real Slurm 22.05 whose controller ran
# without a restart between the jobs and the capture, the replay gives
# Slurm's usage closely enough for Fair Tree's ranks (fstree-replay.sh), so
# `prio-calc -l` at Slurm's last calculation equals `sprio -l` byte for
# byte.  (Classic and DEPTH_OBLIVIOUS were captured after a restart, whose
# cycles the records cannot place: there the replay is 3 and 4 points of
# 10000 off sprio's FAIRSHARE, sshare's integer RawUsage within 1.)
# Without the records, the same tree gives a warning that fairshare assumes
# no usage at all.
set -u
. tests/cli/calc-oracle.lib
calc_setup
for s in fairtree-basic fairtree-restart seed-hierarchy flags-favor-small \
	flags-no-normal-all; do
	d=$tmp/$s
	calc_snapshot "$s" "$d" && rm "$d/sshare.txt" || { echo "$s: cannot build the snapshot"; exit 2; }
	now=$(calc_last_calc "$s")
	o=tests/oracle/$s
	prio-calc --snapshot "$d" --sacct "$o/sacct_a_P_X.txt" --now "$now" -l \
		>"$tmp/out" 2>"$tmp/err" || { echo "$s: exit $?: $(cat "$tmp/err")"; status=1; continue; }
	[ -s "$tmp/err" ] && { echo "$s: stderr: $(cat "$tmp/err")"; status=1; }
	cmp -s "$tmp/out" "$o/sprio_l.txt" ||
		{ echo "$s: prio-calc -l from sacct is not sprio -l"; diff "$o/sprio_l.txt" "$tmp/out" | head -6; status=1; }
done
# prio-top starts from the same usage: its queue from the dump and the
# records is the one it draws from sshare's RawUsage.
now=$(calc_last_calc fairtree-basic)
if command -v prio-top >/dev/null 2>&1; then
	calc_snapshot fairtree-basic "$tmp/with-sshare" &&
	prio-top --snapshot "$tmp/with-sshare" --now "$now" --once --size 200x40 |
		sed 1d >"$tmp/top-sshare" &&
	prio-top --snapshot "$tmp/fairtree-basic" --sacct tests/oracle/fairtree-basic/sacct_a_P_X.txt \
		--now "$now" --once --size 200x40 | sed 1d >"$tmp/top-sacct" ||
		{ echo "prio-top failed"; status=1; }
	cmp -s "$tmp/top-sshare" "$tmp/top-sacct" ||
		{ echo "prio-top from sacct differs"; diff "$tmp/top-sshare" "$tmp/top-sacct" | head -6; status=1; }
fi
prio-calc --snapshot "$tmp/fairtree-basic" --now "$now" -l >/dev/null 2>"$tmp/err"
grep -q 'no RawUsage in the association input' "$tmp/err" ||
	{ echo "no warning without usage or records: $(cat "$tmp/err")"; status=1; }
exit $status
