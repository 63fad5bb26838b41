#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each fuzz target for SECONDS (default 30) from its seed corpus.
# usage: tests/fuzz/run-fuzz.sh [SECONDS] [TARGET...]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-30}
[ $# -gt 0 ] && shift
targets=${*:-$(awk '!/^#/ {print $1}' "$top/tests/fuzz/seeds.txt")}
status=0
for t in $targets; do
	bin="$top/tests/fuzz/fuzz-$t"
	[ -x "$bin" ] || { echo "build it first: make fuzz ($bin)"; exit 2; }
	corpus=$(mktemp -d)
	for g in $(awk -v t="$t" '$1 == t { $1 = ""; print }' "$top/tests/fuzz/seeds.txt"); do
		for f in $top/$g; do [ -f "$f" ] && cp "$f" "$corpus/$(echo "$f" | tr / _)"; done
	done
	echo "== $t"
	"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "$corpus" || status=1
	rm -rf "$corpus"
done
exit $status
