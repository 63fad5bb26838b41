#!/bin/sh
# SPDX-License-Identifier: MIT
# One key table (cmd/prio-top-keys.c) and everything that shows it agree:
# prio-top(1)'s KEYS list says exactly what --list-keys prints (keys, action,
# help, in order), the help screen lists every action with its keys, and
# the function bar shows the labelled actions in table order.
set -u
command -v prio-top >/dev/null 2>&1 || { echo "prio-top not built (no ncursesw): skipped"; exit 0; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0

prio-top --list-keys >"$tmp/keys" || exit 1
[ "$(wc -l <"$tmp/keys")" -ge 25 ] || { echo "--list-keys: too few keys"; status=1; }

# the man page's list: ".It Li KEYS Pq Cm ACTION" then the help line
awk '
	/^\.Sh KEYS/ { on = 1; next }
	/^\.Sh / { on = 0 }
	!on { next }
	/^\.It Li / {
		line = $0
		sub(/^\.It Li /, "", line)
		n = index(line, " Pq Cm ")
		keys = substr(line, 1, n - 1); name = substr(line, n + 7)
		gsub(/ , /, ", ", keys); gsub(/\\&/, "", keys); gsub(/\\e/, "\\", keys)
		getline help
		printf "%s\t%s\t%s\n", keys, name, help
	}' man/prio-top.1 >"$tmp/man"
if ! cmp -s "$tmp/keys" "$tmp/man"; then
	echo "man/prio-top.1 KEYS differs from prio-top --list-keys:"
	diff "$tmp/keys" "$tmp/man"
	status=1
fi

# the help screen: every action, with its keys as bound
prio-top --snapshot samples/site --once --size 160x60 --view help >"$tmp/help" || exit 1
while IFS='	' read -r keys name help; do
	grep -qF -- "$keys" "$tmp/help" && grep -q -- " $name " "$tmp/help" ||
		{ echo "help screen: no line for $name ($keys)"; status=1; }
done <"$tmp/keys"

# the function bar: labelled actions of the view, in table order
bar=$(prio-top --snapshot samples/site --once --size 160x30 | tail -n 1)
[ "$bar" = "F1Help F2Queue F3Search F4Filter F5Tree F6SortBy F7Detail F9What-if F10Quit" ] ||
	{ echo "queue function bar: $bar"; status=1; }
bar=$(prio-top --snapshot samples/site --once --size 160x30 --view help | tail -n 1)
[ "$bar" = "F1Help EscBack F2Queue F5Tree F10Quit" ] || { echo "help function bar: $bar"; status=1; }
# a rebinding shows in the bar and the help screen
printf 'top {\n keys {\n  quit = "x, F12"\n  search = "F3, s"\n }\n}\n' >"$tmp/conf"
PRIO_TOOLS_CONF="$tmp/conf" prio-top --list-keys >"$tmp/rebound"
grep -q '^x, F12	quit	' "$tmp/rebound" && grep -q '^F3, s	search	' "$tmp/rebound" ||
	{ echo "rebinding: not in --list-keys"; status=1; }
PRIO_TOOLS_CONF="$tmp/conf" prio-top --snapshot samples/site --once --size 160x30 | tail -n 1 | grep -q 'F12Quit$' ||
	{ echo "rebinding: not in the function bar"; status=1; }
exit $status
