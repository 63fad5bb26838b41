#!/bin/sh
# SPDX-License-Identifier: MIT
# README's exit status table: 2 is a usage or input error with a one-line
# message on standard error.  Every command, given a bad option, an option
# without its value, a bad value or two output formats, prints exactly one
# line "tool: ... (try 'tool --help')" on stderr, nothing on stdout, and
# exits 2; --help still prints the whole usage on stdout with exit 0.
# No sources are named: the command line is refused before any is read.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
status=0

# one_line TOOL ARGS...: the refusal has the one-line shape
one_line() {
	tool=$1
	"$@" >out 2>err </dev/null
	rc=$?
	lines=$(wc -l <err)
	if [ $rc != 2 ] || [ -s out ] || [ "$lines" != 1 ] ||
		! grep -q "^$tool: .* (try '$tool --help')\$" err; then
		echo "$*: exit $rc, $(wc -c <out) bytes on stdout, $lines lines on stderr:"
		sed 's/^/    /' err | head -8
		status=1
	fi
}

# tool, then a missing value, a bad value of its own, a bad common value
while read -r tool missing bad common; do
	one_line $tool --bogus
	one_line $tool -Y
	one_line $tool $missing
	one_line $tool $bad
	one_line $tool $common
	one_line $tool unexpected extra
	"$tool" --help >out 2>err
	rc=$?
	{ [ $rc = 0 ] && [ -s out ] && [ ! -s err ] &&
		grep -qi "^usage: *$tool" out; } ||
		{ echo "$tool --help: exit $rc, stdout $(wc -l <out) lines, stderr $(wc -l <err) lines"; status=1; }
done <<EOF
prio-calc --now --at=yesterday --slurm-version=21.08
fstree-show --algorithm --algorithm=nope --now=xyz
tres-bill --tres -N0 --set=nokey
preempt-plan --job --strategy=best --jobs=
prio-top --size --view=graph --snapshot=
prio-snap --since --timeout=soon --timeout=-1
EOF

# Two output formats conflict (the last one would win silently).
for tool in prio-calc fstree-show tres-bill preempt-plan; do
	one_line $tool --json --csv
	one_line $tool -P --json
done
# Conflicting options of a command's own.
one_line prio-calc -l -o %i
one_line prio-calc --check --rank
one_line fstree-show --tree --why alice
one_line tres-bill --mem 4G --mem-per-cpu 1G -N 1
one_line prio-top --once -n 2
exit $status
