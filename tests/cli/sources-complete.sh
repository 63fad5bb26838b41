#!/bin/sh
# SPDX-License-Identifier: MIT
# Complete sources (issue 13): every Slurm text output ends with a newline,
# so a file whose last line has none was cut; none prints zero bytes.  For
# each source of the real 24.11 capture: cut mid-line it is refused at that
# line, empty it is refused, one line on stderr, exit 2, nothing on stdout;
# under --keep-going the cut is a counted warning that --check lists.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d=tests/cli/readers-data/slurm-24.11
fail=0

check() { # WANT-STDERR CMD...
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != 2 ] || [ "$(cat "$tmp/err")" != "$want" ] || [ -s "$tmp/out" ]; then
		echo "FAIL: $*"
		echo "  exit $rc, stderr: $(cat "$tmp/err")"
		echo "  expected exit 2, stderr: $want"
		fail=1
	fi
}

for pair in jobs:jobs.txt:"scontrol show job output (an empty queue is \"No jobs in the system\")" \
	assoc:sshare.txt:"sshare output with a header line or a sacctmgr dump" \
	assoc:assoc.cfg:"sshare output with a header line or a sacctmgr dump" \
	qos:qos.txt:"sacctmgr show qos output" \
	sacct:sacct.txt:"sacct -P output with a header line" \
	nodes:nodes.txt:"scontrol show node output" \
	partitions:partitions.txt:"scontrol show partition output" \
	conf:config.txt:"slurm.conf or scontrol show config output"; do
	opt=${pair%%:*} rest=${pair#*:}
	file=${rest%%:*} what=${rest#*:}
	# cut 10 bytes into the line after the first 2/3 of the file
	size=$(wc -c <"$d/$file")
	head -c $((size * 2 / 3)) "$d/$file" >"$tmp/$file"
	tail -c +$((size * 2 / 3 + 1)) "$d/$file" | head -1 | head -c 10 >>"$tmp/$file"
	line=$(($(wc -l <"$tmp/$file") + 1))
	check "prio-calc: $tmp/$file:$line: the last record is cut (no final newline)" \
		prio-calc --snapshot "$d" --"$opt" "$tmp/$file"
	prio-calc --snapshot "$d" --"$opt" "$tmp/$file" --keep-going --check -P \
		>"$tmp/out" 2>"$tmp/err"
	grep -qF "problem|||$tmp/$file:$line: the last record is cut (no final newline)" "$tmp/out" ||
		{ echo "FAIL: --keep-going --check does not list the cut $file"; cat "$tmp/out" "$tmp/err"; fail=1; }
	: >"$tmp/$file"
	check "prio-calc: $tmp/$file:1: empty input: expected $what" \
		prio-calc --snapshot "$d" --"$opt" "$tmp/$file"
done

# The same rule through a snapshot folder, for every command that reads it.
cp -r "$d" "$tmp/snap"
: >"$tmp/snap/jobs.txt"
for tool in prio-calc tres-bill; do
	check "$tool: $tmp/snap/jobs.txt:1: empty input: expected scontrol show job output (an empty queue is \"No jobs in the system\")" \
		$tool --snapshot "$tmp/snap"
done
check "preempt-plan: $tmp/snap/jobs.txt:1: empty input: expected scontrol show job output (an empty queue is \"No jobs in the system\")" \
	preempt-plan --snapshot "$tmp/snap" --job 8
# What scontrol prints for an empty queue is an empty queue, exit 0.
echo "No jobs in the system" >"$tmp/snap/jobs.txt"
prio-calc --snapshot "$tmp/snap" -h >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/out" ] ||
	{ echo "FAIL: an empty queue"; cat "$tmp/out" "$tmp/err"; fail=1; }
exit $fail
