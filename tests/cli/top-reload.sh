#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top -b reads its files again when they change (size, time, inode,
# compared before each frame: what works where inotify cannot see, e.g.
# NFS): a file caught half written keeps the last good data on screen with
# the reason on the status line; the next good write is shown.
set -u
. tests/cli/top-frames.lib
prio-top --snapshot "$tmp/snap" -b -n 3 -d 0.6 --speed 0 --size 120x24 >"$tmp/out" 2>"$tmp/err" &
pid=$!
frames 1
head -c 3000 samples/site/jobs.txt >"$tmp/snap/jobs.txt"
frames 2
sed 's/^ClusterName=ft/ClusterName=polled/' samples/site/slurm.conf >"$tmp/snap/slurm.conf"
cp samples/site/jobs.txt "$tmp/snap/jobs.txt"
wait $pid || { echo "prio-top failed:"; cat "$tmp/err"; status=1; }
pid=

split_frames
grep -q '^cluster ft ' "$tmp/frame1" && grep -q '^    1    28 dave ' "$tmp/frame1" ||
	{ echo "frame 1:"; cat "$tmp/frame1"; status=1; }
grep -q '^reload failed, still showing the data of 2026-11-22T03:55:30: .*jobs.txt:' "$tmp/frame2" &&
	grep -q '^cluster ft ' "$tmp/frame2" && grep -q '^    1    28 dave ' "$tmp/frame2" ||
	{ echo "frame 2 (half-written jobs.txt):"; cat "$tmp/frame2"; status=1; }
grep -q '^cluster polled ' "$tmp/frame3" && grep -q '^    1    28 dave ' "$tmp/frame3" &&
	! grep -q 'failed' "$tmp/frame3" || { echo "frame 3 (repaired):"; cat "$tmp/frame3"; status=1; }
exit $status
