#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each fuzz target for SECONDS (default 30) from its seed corpus.
# usage: tests/fuzz/run-fuzz.sh [SECONDS] [TARGET...]
# FUZZ_BIN_DIR: where the fuzz-* binaries are (default: tests/fuzz of the
# source tree, an in-tree `make fuzz`).
# -max_len is the larger of 64 KB and the largest seed: libFuzzer cuts longer
# seeds, and a cut JSON document is refused at its first byte past the cut,
# so the real `squeue --json` captures (up to 160 KB) would only exercise
# the "truncated document" path.  Cutting the seeds would do the same.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bindir=${FUZZ_BIN_DIR:-$top/tests/fuzz}
secs=${1:-30}
[ $# -gt 0 ] && shift
targets=${*:-$(awk '!/^#/ {print $1}' "$top/tests/fuzz/seeds.txt")}
status=0
for t in $targets; do
	bin="$bindir/fuzz-$t"
	[ -x "$bin" ] || { echo "build it first: make fuzz ($bin)"; exit 2; }
	corpus=$(mktemp -d)
	for g in $(awk -v t="$t" '$1 == t { $1 = ""; print }' "$top/tests/fuzz/seeds.txt"); do
		for f in $top/$g; do [ -f "$f" ] && cp "$f" "$corpus/$(echo "$f" | tr / _)"; done
	done
	maxlen=$(find "$corpus" -type f -printf '%s\n' |
		awk 'BEGIN { m = 65536 } $1 > m { m = $1 } END { print m }')
	echo "== $t (max_len $maxlen)"
	# One process, one worker: the machine is shared.  Crash files go to
	# FUZZ_ARTIFACTS (default: the current folder, libFuzzer's own).
	"$bin" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
		-rss_limit_mb=2048 -jobs=1 -workers=1 \
		-artifact_prefix="${FUZZ_ARTIFACTS:-./}" "$corpus" || status=1
	rm -rf "$corpus"
done
exit $status
