#!/bin/sh
# SPDX-License-Identifier: MIT
# zsh and fish complete the names of the snapshot on the command line as
# bash does (completion-names.sh; the three read prio-tools-names.sh):
# --explain and -j the pending jobs Slurm's squeue listed, -u and --why the
# users sshare printed (never the machine's Unix users), -A the accounts,
# -p the partitions, a comma list its last item.  zsh runs its completion
# system on a pseudo-terminal (complete.zsh), fish its `complete -C`.
# samples/site is the capture of tests/oracle/fairtree-basic, whose squeue
# and sshare outputs give the expected names.  Skips (77) without zsh or
# fish, unless PRIO_REQUIRE_SHELLS is set (.ci/run): then it fails.
set -u
for sh in zsh fish; do
	if ! command -v $sh >/dev/null; then
		[ -n "${PRIO_REQUIRE_SHELLS:-}" ] && { echo "FAIL: $sh not installed"; exit 1; }
		echo "$sh not installed (Debian package $sh)"
		exit 77
	fi
done
s=samples/site
o=tests/oracle/fairtree-basic
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
awk 'NR > 1 && $5 == "PD" { sub(/_.*/, "", $1); print $1 }' "$o/squeue.txt" | sort -u >"$t/jobs"
awk -F'|' 'NR > 1 && $2 != "" { print $2 }' "$o/sshare_a_l_P.txt" | sort -u >"$t/users"
printf '%s\n' batch big short >"$t/partitions"
printf '%s\n' big short >"$t/partitions-after-batch"
[ "$(wc -l <"$t/jobs")" = 20 ] && grep -qx ivan "$t/users" ||
	{ echo "the oracle's names are not what this test knows"; exit 1; }
zsh_complete() { zsh -f tests/cli/complete.zsh "$1" | sort -u; }
fish_complete() {
	fish --no-config -c "source completions/fish/$1.fish; complete -C '$2'" |
		cut -f1 | sed "s/^$3//" | sort -u
}
check() { # WHAT WANT-FILE GOT-FILE
	if ! cmp -s "$2" "$3"; then
		echo "$1: got"; sed 's/^/  /' "$3" | head -25; echo "expected"; sed 's/^/  /' "$2" | head -25
		exit 1
	fi
}
for case in "prio-calc --snapshot $s --explain |jobs" \
	"prio-calc --snapshot $s -j |jobs" \
	"prio-calc --snapshot=$s -u |users" \
	"fstree-show --snapshot $s --why |users" \
	"prio-top --snapshot $s -p |partitions" \
	"prio-calc --snapshot $s -p batch,|partitions-after-batch"; do
	line=${case%|*} want=$t/${case##*|}
	zsh_complete "$line" >"$t/got"
	check "zsh: $line" "$want" "$t/got"
	fish_complete "${line%% *}" "$line" "${line##* }" >"$t/got"
	check "fish: $line" "$want" "$t/got"
done
# the accounts: sshare's account rows, not root
for sh in zsh fish; do
	line="fstree-show --snapshot $s -A "
	if [ $sh = zsh ]; then zsh_complete "$line"; else fish_complete fstree-show "$line" ""; fi >"$t/got"
	grep -qx bio "$t/got" && grep -qx genomics "$t/got" && ! grep -qx root "$t/got" ||
		{ echo "$sh: $line:"; cat "$t/got"; exit 1; }
done
# --explain=ID in one word (fish offers the whole word)
fish_complete prio-calc "prio-calc --snapshot $s --explain=4" "--explain=" >"$t/got"
grep '^4' "$t/jobs" >"$t/want"
check "fish: --explain=4" "$t/want" "$t/got"
