#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line transcript tests.  Each test is tests/cli/NAME.cmd (a shell
# command run from the source tree with the built tools first on PATH) with
# the expected NAME.out (stdout), optional NAME.err (stderr) and optional
# NAME.status (exit status, default 0).  Executable NAME.sh scripts are tests
# too: exit 0 passes, 77 is a skip (counted and said).  Prints one line per failure and "N passed, N failed".
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
export top_srcdir top_builddir
PATH="$top_builddir:$top_builddir/scripts:$PATH"
export PATH TZ=UTC LC_ALL=C PRIO_TOOLS_CONF=/dev/null
# prose folds to $COLUMNS (cmd_text_width): transcripts are unfolded
unset COLUMNS
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0 skipped=0

for cmd in "$top_srcdir"/tests/cli/*.cmd "$top_srcdir"/tests/cli/*.sh; do
	[ -e "$cmd" ] || continue
	case $cmd in */run.sh) continue ;; esac
	name=${cmd%.*}
	base=$(basename "$name")
	ok=1
	if [ "${cmd##*.}" = sh ]; then
		(cd "$top_srcdir" && sh "$cmd") >"$tmp/out" 2>&1
		status=$?
		if [ "$status" = 77 ]; then
			# what the test needs is not installed: said, not passed
			skipped=$((skipped + 1))
			echo "skip $base: $(tail -1 "$tmp/out")"
			continue
		elif [ "$status" != 0 ]; then
			ok=0
			sed 's/^/    /' "$tmp/out" | head -20
		fi
	else
		(cd "$top_srcdir" && sh "$cmd") >"$tmp/out" 2>"$tmp/err"
		status=$?
		want=0
		[ -f "$name.status" ] && want=$(cat "$name.status")
		if [ "$status" != "$want" ]; then
			ok=0
			echo "  $base: exit status $status, expected $want"
			head -5 "$tmp/err" | sed 's/^/    /'
		fi
		if [ -f "$name.out" ] && ! cmp -s "$tmp/out" "$name.out"; then
			ok=0
			echo "  $base: stdout differs"
			diff -u "$name.out" "$tmp/out" | head -30 | sed 's/^/    /'
		fi
		if [ -f "$name.err" ] && ! cmp -s "$tmp/err" "$name.err"; then
			ok=0
			echo "  $base: stderr differs"
			diff -u "$name.err" "$tmp/err" | head -10 | sed 's/^/    /'
		fi
	fi
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
		echo "ok $base"
	else
		failed=$((failed + 1))
		echo "FAIL $base"
	fi
done
echo "cli: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
