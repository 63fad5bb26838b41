#!/bin/sh
# SPDX-License-Identifier: MIT
# bash completion offers the names of the snapshot on the command line
# (issue 16): --explain and -j the pending jobs squeue listed, -u and --why
# the users of the association tree sshare printed (never the machine's
# Unix users), -p the partitions, -q the QOS; a comma list completes its
# last item.
set -u
command -v bash >/dev/null || { echo "no bash"; exit 1; }
s=tests/oracle/fairtree-basic
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
# squeue's pending ids (an array's pending record is its job id)
awk 'NR > 1 && $5 == "PD" { sub(/_.*/, "", $1); print $1 }' "$s/squeue.txt" | sort -u >"$t/jobs"
# sshare's users, partitions from scontrol, QOS from sacctmgr
awk -F'|' 'NR > 1 && $2 != "" { print $2 }' "$s/sshare_a_l_P.txt" | sort -u >"$t/users"
printf '%s\n' batch big short >"$t/partitions"
complete() { # FILE WORD...: COMPREPLY of the last word, one a line, sorted
	f=$1; shift
	bash -c '
		compopt() { :; }
		. "completions/bash/$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		fn=_$(echo "$1" | tr - _)
		$fn
		printf "%s\n" "${COMPREPLY[@]}"' sh "$f" "$@" | sed '/^$/d' | sort
}
check() { # WHAT WANT-FILE GOT-FILE
	if ! cmp -s "$2" "$3"; then
		echo "$1: got"; sed 's/^/  /' "$3" | head -20; echo "expected"; sed 's/^/  /' "$2" | head -20
		exit 1
	fi
}
complete prio-calc prio-calc --snapshot "$s" --explain "" >"$t/got"
check "prio-calc --explain" "$t/jobs" "$t/got"
[ "$(wc -l <"$t/got")" = 20 ] || { echo "pending jobs: $(wc -l <"$t/got")"; exit 1; }
complete prio-calc prio-calc --snapshot "$s" -j "" >"$t/got"
check "prio-calc -j" "$t/jobs" "$t/got"
complete prio-calc prio-calc --snapshot="$s" -u "" >"$t/got"
check "prio-calc -u" "$t/users" "$t/got"
grep -qx daemon "$t/got" && { echo "prio-calc -u offers the machine's users"; exit 1; }
complete fstree-show fstree-show --snapshot "$s" --why "" >"$t/got"
check "fstree-show --why" "$t/users" "$t/got"
complete prio-calc prio-calc --snapshot "$s" -p "" >"$t/got"
check "prio-calc -p" "$t/partitions" "$t/got"
printf 'batch,big\nbatch,short\n' >"$t/want"
complete prio-calc prio-calc --snapshot "$s" -p "batch,"  >"$t/got"
check "prio-calc -p batch," "$t/want" "$t/got"
awk -F'|' 'NR > 1 { print $1 }' "$s/sacctmgr_show_qos.txt" | sort -u >"$t/want"
complete preempt-plan preempt-plan --snapshot "$s" -q "" >"$t/got"
check "preempt-plan -q" "$t/want" "$t/got"
grep -qx normal "$t/got" || { echo "no normal QOS"; exit 1; }
complete fstree-show fstree-show --snapshot "$s" -A "" >"$t/got"
grep -qx bio "$t/got" && grep -qx genomics "$t/got" && ! grep -qx root "$t/got" ||
	{ echo "fstree-show -A:"; cat "$t/got"; exit 1; }
complete prio-top prio-top --snapshot "$s" -u "" >"$t/got"
check "prio-top -u" "$t/users" "$t/got"
complete tres-bill tres-bill --snapshot "$s" -p "s" >"$t/got"
[ "$(cat "$t/got")" = short ] || { echo "tres-bill -p s: $(cat "$t/got")"; exit 1; }
# --history DIR: the names of the series' newest snapshot (latest, else
# the last folder by name; latest wins over a later empty folder)
mkdir -p "$t/h" && cp -r "$s" "$t/h/20261126T100000Z"
complete prio-calc prio-calc --history "$t/h" -j "" >"$t/got"
check "prio-calc --history -j" "$t/jobs" "$t/got"
mkdir "$t/h/20261126T110000Z" && ln -s 20261126T100000Z "$t/h/latest"
complete fstree-show fstree-show --history "$t/h" --user "" >"$t/got"
check "fstree-show --history --user" "$t/users" "$t/got"
