#!/bin/sh
# SPDX-License-Identifier: MIT
# --set and --what-if change the snapshot before anything is computed; a
# named set comes from the config file, in order among the --set options.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/conf" <<'CONF'
what-if classic {
  set = {"PriorityFlags=NO_FAIR_TREE", "PriorityWeightAge=5000"}
}
CONF
out=$(PRIO_TOOLS_CONF=$tmp/conf prio-calc --snapshot samples/site --what-if classic --check -P) ||
	{ echo "what-if failed"; exit 1; }
echo "$out" | grep -qx 'config|priority flags||' || { echo "flags not applied:"; echo "$out"; exit 1; }
# a later --set overrides the named set's value
out=$(PRIO_TOOLS_CONF=$tmp/conf prio-calc --snapshot samples/site --what-if classic \
	--set PriorityFlags=DEPTH_OBLIVIOUS --check -P) || exit 1
echo "$out" | grep -qx 'config|priority flags||DEPTH_OBLIVIOUS' || { echo "order:"; echo "$out"; exit 1; }
# unknown set name, unknown record: exit 2 with one line
PRIO_TOOLS_CONF=$tmp/conf prio-calc --snapshot samples/site --what-if nope --check 2>"$tmp/err"
[ $? = 2 ] && grep -q "^prio-calc: --what-if nope: no what-if section of that name in $tmp/conf\$" "$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
prio-calc --snapshot samples/site --set partition:nosuch.PriorityTier=3 --check 2>"$tmp/err"
[ $? = 2 ] && grep -q '^prio-calc: --set: PriorityTier: no partition "nosuch"$' "$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
exit 0
