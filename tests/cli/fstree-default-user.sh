#!/bin/sh
# SPDX-License-Identifier: MIT
# sshare's default user filter: without -a or -u, every account row and the
# invoking user's user rows only; -u -1 means every user, like -a.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
me=$(id -un)
fstree-show --snapshot samples/site -P -o Account,User,FairShare >"$tmp/mine" || exit 1
fstree-show --snapshot samples/site -a -P -o Account,User,FairShare >"$tmp/all" || exit 1
awk -F'|' -v me="$me" 'NR == 1 || $2 == "" || $2 == me' "$tmp/all" >"$tmp/want"
cmp -s "$tmp/want" "$tmp/mine" || { echo "default filter for $me:"; diff "$tmp/want" "$tmp/mine"; exit 1; }
[ "$(grep -c '^ *[a-z_]*||' "$tmp/mine")" = 10 ] || { echo "account rows missing"; cat "$tmp/mine"; exit 1; }
fstree-show --snapshot samples/site -u -1 -P -o Account,User,FairShare >"$tmp/minus1" || exit 1
cmp -s "$tmp/all" "$tmp/minus1" || { echo "-u -1 is not -a"; exit 1; }
# -u matches names without regard to case and takes a comma list
fstree-show --snapshot samples/site -u ALICE,bob -U -P -n -o User >"$tmp/u" || exit 1
[ "$(tr '\n' ' ' <"$tmp/u")" = "alice bob alice " ] || { echo "-u ALICE,bob:"; cat "$tmp/u"; exit 1; }
exit 0
