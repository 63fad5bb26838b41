#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example of prio-calc(1) runs as written: in each .Bd -literal block,
# a line "$ command" is run from the source tree and must succeed, and the
# lines after it (up to the next "$ " or .Ed) are its expected output.
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
	/^\.Bd -literal/ { inblock = 1; next }
	/^\.Ed/ { inblock = 0; next }
	!inblock { next }
	/^\$ / { n++; sub(/^\$ /, ""); print > (dir "/cmd" n); printf "" > (dir "/want" n); next }
	n { print > (dir "/want" n) }
' man/prio-calc.1
status=0 count=0
for cmd in "$tmp"/cmd*; do
	[ -e "$cmd" ] || break
	k=${cmd##*/cmd}
	count=$((count + 1))
	if ! sh "$cmd" >"$tmp/got$k" 2>"$tmp/err$k"; then
		echo "example failed: $(cat "$cmd")"; sed 's/^/    /' "$tmp/err$k" | head -5; status=1; continue
	fi
	if [ -s "$tmp/want$k" ] && ! cmp -s "$tmp/want$k" "$tmp/got$k"; then
		echo "example output differs: $(cat "$cmd")"; diff "$tmp/want$k" "$tmp/got$k" | head -20; status=1
	fi
done
[ $count -ge 5 ] || { echo "only $count examples found"; status=1; }
exit $status
