#!/bin/sh
# SPDX-License-Identifier: MIT
# Explanations fold to $COLUMNS (issue 16): with COLUMNS=60 no line of
# prio-calc --explain or fstree-show --why is wider than 60 characters and
# the words are the same, in the same order, as the unfolded text a pipe
# gets (no COLUMNS, not a terminal: a line stays a record for scripts).
set -u
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
check() { # name, command...
	name=$1; shift
	"$@" >"$t/plain" 2>/dev/null || { echo "$name: failed"; exit 1; }
	COLUMNS=60 "$@" >"$t/folded" 2>/dev/null || { echo "$name: failed with COLUMNS=60"; exit 1; }
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$t/plain")
	[ "$w" -gt 60 ] || { echo "$name: no line over 60 columns unfolded ($w): the test proves nothing"; exit 1; }
	w=$(LC_ALL=C.UTF-8 awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$t/folded")
	[ "$w" -le 60 ] || { echo "$name: a folded line of $w columns"; exit 1; }
	tr -s ' \n' '  ' <"$t/plain" >"$t/a"
	tr -s ' \n' '  ' <"$t/folded" >"$t/b"
	cmp -s "$t/a" "$t/b" || { echo "$name: folding changed the words"; exit 1; }
	[ "$(grep -c '^$' "$t/plain")" = "$(grep -c '^$' "$t/folded")" ] || { echo "$name: blank lines lost"; exit 1; }
}
check "prio-calc --explain 36" prio-calc --snapshot samples/site --explain 36
check "prio-calc --explain 13,36" prio-calc --snapshot samples/site --explain 13,36
check "fstree-show --why ivan" fstree-show --snapshot samples/site --why ivan
# machine modes never fold
[ "$(COLUMNS=60 prio-calc --snapshot samples/site --explain 36 -P | md5sum)" = "$(prio-calc --snapshot samples/site --explain 36 -P | md5sum)" ] ||
	{ echo "-P folded"; exit 1; }
