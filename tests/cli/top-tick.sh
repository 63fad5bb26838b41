#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top's clock tick recomputes only the rows whose age or fairshare
# moved (libprio/top.c): at every clock it must give the queue a full
# computation gives there, to the bit (top-bench --check moves the clock
# by 1 s to 20 days and compares), on the samples and on the benchmark
# generator's small size (2,000 pending jobs, 200 running ones charging
# usage as the clock moves).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/bench/gen" S "$tmp/s" >/dev/null || { echo "gen failed"; exit 1; }
"$top_builddir/tests/bench/top-bench" --check samples/site samples/site-later \
	samples/slurm-24.11 samples/preempt-future samples/preempt-qos \
	samples/preempt-three "$tmp/s" || exit 1
exit 0
