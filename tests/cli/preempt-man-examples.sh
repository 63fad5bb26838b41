#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example of man/preempt-plan.1 runs and prints what the page shows:
# in EXAMPLES, each literal block starting "$ preempt-plan" is a command
# (lines ending in a backslash continue it) followed by its exact output.
set -u
page=man/preempt-plan.1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Split the blocks into tmp/N.cmd and tmp/N.want, mdoc escapes undone.
awk -v dir="$tmp" '
	/^\.Sh EXAMPLES/ { ex = 1; next }
	/^\.Sh / { ex = 0 }
	!ex { next }
	/^\.Bd -literal/ { inb = 1; n++; state = "first"; next }
	/^\.Ed/ { inb = 0; next }
	!inb { next }
	{
		line = $0
		gsub(/\\e/, "\\", line)
		gsub(/\\&/, "", line)
		gsub(/\\\(dq/, "\"", line)
		if (state == "first") {
			if (line !~ /^\$ preempt-plan/) { state = "skip"; next }
			sub(/^\$ /, "", line)
			state = "cmd"
		}
		if (state == "skip")
			next
		if (state == "cmd") {
			print line > (dir "/" n ".cmd")
			if (line !~ /\\$/)
				state = "out"
			next
		}
		print line > (dir "/" n ".want")
	}
' "$page"
status=0 count=0
for cmd in "$tmp"/*.cmd; do
	[ -e "$cmd" ] || continue
	n=${cmd%.cmd}
	count=$((count + 1))
	sh "$cmd" >"$n.got" 2>&1
	touch "$n.want"
	if ! cmp -s "$n.want" "$n.got"; then
		echo "example $(basename "$n") of $page differs:"
		sed 's/^/    /' "$cmd"
		diff "$n.want" "$n.got" | head -20 | sed 's/^/    /'
		status=1
	fi
done
[ "$count" -ge 6 ] || { echo "only $count examples found in $page"; status=1; }
exit $status
