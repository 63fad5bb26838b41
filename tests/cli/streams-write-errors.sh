#!/bin/sh
# SPDX-License-Identifier: MIT
# Output that cannot be written is an error, never a silent exit 0: every
# command and output path (tables, --tree, --why, --when, --verify, --check,
# --explain, --help, --version ...) writing to a full device prints one line
# "tool: standard output: No space left on device" and exits 2; a closed
# standard output gives "Bad file descriptor" the same way.
set -u
[ -w /dev/full ] || exit 0 # Linux's full device; elsewhere nothing to test
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
tmp_err=$tmp/err
S=samples/site
P=samples/preempt-future
status=0

while IFS= read -r line; do
	[ -n "$line" ] || continue
	tool=${line%% *}
	for to in full closed; do
		if [ $to = full ]; then
			eval "$line" >/dev/full 2>"$tmp_err" </dev/null
			rc=$?
			why="No space left on device"
		else
			eval "$line" >&- 2>"$tmp_err" </dev/null
			rc=$?
			why="Bad file descriptor"
		fi
		if [ $rc != 2 ] || [ "$(wc -l <"$tmp_err")" != 1 ] ||
			[ "$(cat "$tmp_err")" != "$tool: standard output: $why" ]; then
			echo "$line (stdout $to): exit $rc, stderr:"
			sed 's/^/    /' "$tmp_err" | head -5
			status=1
		fi
	done
done <<EOF
prio-calc --snapshot $S
prio-calc --snapshot $S -l --json
prio-calc --snapshot $S --explain 36
prio-calc --snapshot $S --compare --set qos:urgent.Priority=0
prio-calc --snapshot $S --rank
prio-calc --snapshot $S --check
prio-calc --help
prio-calc --usage
prio-calc --version
fstree-show --snapshot $S -a
fstree-show --snapshot $S -a --csv
fstree-show --snapshot $S --tree
fstree-show --snapshot $S --why carol
fstree-show --snapshot $S --when ivan --level-fs 0.6
fstree-show --snapshot $S --audit $S/sshare.txt
fstree-show --help
tres-bill --snapshot $S
tres-bill --conf $S/slurm.conf --tres cpu=1
tres-bill --conf $S/slurm.conf --sacct tests/cli/bill-data/reqtres-multi.txt --verify -P
tres-bill --snapshot $S --slurm-version 24.11 cluster utilization
tres-bill --help
preempt-plan --snapshot $P --job 20
preempt-plan --snapshot $P --job 20 --queue
preempt-plan --snapshot $P --job 20 --json
preempt-plan --help
prio-top --snapshot $S --once
prio-top --snapshot $S -b -n 2 -d 0.01
prio-top --list-keys
prio-top --help
prio-snap --help
prio-snap --version
EOF
exit $status
