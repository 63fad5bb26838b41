#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example of man/prio-diff.1 runs: in each .Bd -literal block, a
# line "$ command" is run from the source tree and must print exactly the
# lines that follow it (up to the next "$ " line or .Ed).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
	/^\.Bd -literal/ { inblock = 1; next }
	/^\.Ed/ { inblock = 0; next }
	!inblock { next }
	/^\$ / { n++; cmd = dir "/cmd" n; out = dir "/want" n
		print substr($0, 3) > cmd; close(cmd); printf "" > out; close(out); next }
	n { print >> (dir "/want" n); close(dir "/want" n) }
' man/prio-diff.1
status=0 count=0
for cmd in "$tmp"/cmd*; do
	[ -e "$cmd" ] || continue
	count=$((count + 1))
	want=$tmp/want${cmd##*/cmd}
	sh "$cmd" >"$tmp/got" 2>&1
	if ! cmp -s "$want" "$tmp/got"; then
		echo "example differs: $(cat "$cmd")"
		diff "$want" "$tmp/got" | head -10
		status=1
	fi
done
[ $count -ge 5 ] || { echo "only $count examples found"; status=1; }
exit $status
