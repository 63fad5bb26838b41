#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top -b: a file of the snapshot folder that the last good load read
# and that is gone now (jobs.txt, sshare.txt deleted) is not read as a
# folder that never had it ("0 jobs", every job re-ranked without usage):
# the last good data stay on screen with the reason on the status line,
# and the file put back is read again.
set -u
. tests/cli/top-frames.lib
# jobs.txt only: without it the folder would read as having no jobs
rm "$tmp/snap/jobs.json"
prio-top --snapshot "$tmp/snap" -b -n 5 -d 0.6 --speed 0 --size 200x24 >"$tmp/out" 2>"$tmp/err" &
pid=$!
frames 1
rm "$tmp/snap/jobs.txt"
frames 2
rm "$tmp/snap/sshare.txt"
cp samples/site/jobs.txt "$tmp/snap/jobs.txt"
frames 3
cp samples/site/sshare.txt "$tmp/snap/sshare.txt"
frames 4
sed 's/^ClusterName=ft/ClusterName=back/' samples/site/slurm.conf >"$tmp/snap/slurm.conf"
wait $pid || { echo "prio-top failed:"; cat "$tmp/err"; status=1; }
pid=

split_frames
# the whole queue: dave's job first at 28 (as in top-reload.sh)
queue() { grep -q '^cluster ft ' "$1" && grep -q '^jobs 20 pending, 11 running ' "$1" &&
	grep -q '^    1    28 dave ' "$1"; }
queue "$tmp/frame1" && ! grep -q 'vanished' "$tmp/frame1" ||
	{ echo "frame 1:"; cat "$tmp/frame1"; status=1; }
queue "$tmp/frame2" &&
	grep -q "^reload failed, still showing the data of 2026-11-22T03:55:30: $tmp/snap/jobs.txt: vanished" "$tmp/frame2" ||
	{ echo "frame 2 (jobs.txt deleted):"; cat "$tmp/frame2"; status=1; }
queue "$tmp/frame3" &&
	grep -q "^reload failed, still showing the data of 2026-11-22T03:55:30: $tmp/snap/sshare.txt: vanished" "$tmp/frame3" ||
	{ echo "frame 3 (jobs.txt back, sshare.txt deleted):"; cat "$tmp/frame3"; status=1; }
queue "$tmp/frame4" && ! grep -q 'vanished' "$tmp/frame4" ||
	{ echo "frame 4 (sshare.txt back):"; cat "$tmp/frame4"; status=1; }
grep -q '^cluster back ' "$tmp/frame5" && grep -q '^    1    28 dave ' "$tmp/frame5" &&
	! grep -q 'vanished' "$tmp/frame5" || { echo "frame 5 (a later change):"; cat "$tmp/frame5"; status=1; }
[ -s "$tmp/err" ] && { echo "stderr:"; cat "$tmp/err"; status=1; }
exit $status
