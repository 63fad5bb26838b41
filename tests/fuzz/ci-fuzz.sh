#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fuzz step of .ci/run, runnable alone:
#   bash tests/fuzz/ci-fuzz.sh BUILD_DIR
# configures BUILD_DIR (out of tree) and runs `make fuzz` there, then runs
# every target of tests/fuzz/seeds.txt for FUZZ_SECONDS (default 10) through
# run-fuzz.sh.  A target that ran out its time without a crash is one pass;
# one that crashed (or could not start) is one failure, with the first lines
# of the report.  Last line: "fuzz: N passed, N failed".
# FUZZ_NO_BUILD=1 reuses the binaries already in BUILD_DIR.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: ci-fuzz.sh BUILD_DIR}
secs=${FUZZ_SECONDS:-10}
mkdir -p "$build" && build=$(cd "$build" && pwd)
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
	(cd "$build" && "$top/configure" -q >/dev/null) || {
		echo "fuzz: configure failed"; echo "fuzz: 0 passed, 1 failed"; exit 1; }
	make -C "$build" fuzz >"$build/fuzz-build.log" 2>&1 || {
		tail -20 "$build/fuzz-build.log"
		echo "fuzz: make fuzz failed"; echo "fuzz: 0 passed, 1 failed"; exit 1; }
fi
passed=0 failed=0
for t in $(awk '!/^#/ {print $1}' "$top/tests/fuzz/seeds.txt"); do
	# Each target in its own folder: -jobs=1 writes fuzz-0.log to the
	# current folder, and crash files land next to it.
	work=$build/fuzz-run/$t
	rm -rf "$work" && mkdir -p "$work"
	start=$(date +%s)
	(cd "$work" && FUZZ_BIN_DIR=$build/tests/fuzz FUZZ_ARTIFACTS=$work/ \
		timeout $((secs * 3 + 60)) sh "$top/tests/fuzz/run-fuzz.sh" "$secs" "$t") \
		>"$work/run.log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	log=$work/fuzz-0.log
	if [ $rc = 0 ] && grep -q '^Done [0-9]* runs' "$log" 2>/dev/null; then
		passed=$((passed + 1))
		echo "fuzz: $t: ok, $(grep -o '^Done [0-9]* runs' "$log" | awk '{print $2}') runs in ${took}s"
	else
		failed=$((failed + 1))
		echo "fuzz: FAIL $t (exit $rc after ${took}s)"
		{ grep -a -m1 -A12 -E '==[0-9]+==ERROR|deadly signal|runtime error|ALARM|out-of-memory' "$log" ||
			tail -12 "$log" "$work/run.log"; } 2>/dev/null | head -14 | sed 's/^/    /'
		ls "$work"/crash-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | sed 's/^/    input: /'
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed = 0 ]
