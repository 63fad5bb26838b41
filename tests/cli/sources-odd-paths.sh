#!/bin/sh
# SPDX-License-Identifier: MIT
# Odd paths are errors, never "absent" (issue 13): a folder that holds no
# snapshot file, a directory or a FIFO where the folder should hold a file,
# a folder or file we may not read.  Each: one line on stderr naming the
# path, nothing on stdout, exit 2, for every command that reads a folder.
set -u
tmp=$(mktemp -d) && trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
src=tests/cli/readers-data/slurm-24.11
fail=0

# expect TOOL EXPECTED-STDERR CMD...
expect() {
	tool=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(cat "$tmp/err")
	if [ "$rc" != 2 ] || [ "$got" != "$tool: $want" ] || [ -s "$tmp/out" ]; then
		echo "FAIL: $*"
		echo "  exit $rc, stderr: $got"
		echo "  expected exit 2, stderr: $tool: $want"
		fail=1
	fi
}

mkdir "$tmp/empty"
echo notes >"$tmp/empty/notes.txt"
for tool in prio-calc fstree-show tres-bill; do
	expect $tool "$tmp/empty: not a snapshot folder: no slurm.conf, config.txt, jobs.txt or other snapshot file in it" \
		$tool --snapshot "$tmp/empty"
	expect $tool "$tmp/empty/notes.txt: not a snapshot folder: not a directory" \
		$tool --snapshot "$tmp/empty/notes.txt"
done
expect preempt-plan "$tmp/empty: not a snapshot folder: no slurm.conf, config.txt, jobs.txt or other snapshot file in it" \
	preempt-plan --snapshot "$tmp/empty" --job 1

# a directory, then a FIFO, named like the folder's files
for f in jobs.txt sshare.txt qos.txt NOW; do
	rm -rf "$tmp/s" && cp -r "$src" "$tmp/s" && rm -f "$tmp/s/$f"
	mkdir "$tmp/s/$f"
	expect prio-calc "$tmp/s/$f: is a directory, expected a file" \
		prio-calc --snapshot "$tmp/s"
	rmdir "$tmp/s/$f" && mkfifo "$tmp/s/$f"
	expect prio-calc "$tmp/s/$f: is a FIFO, expected a file" \
		prio-calc --snapshot "$tmp/s"
done 2>/dev/null

# A FIFO named on the command line is read like a pipe, as before.
rm -rf "$tmp/s" && cp -r "$src" "$tmp/s"
mkfifo "$tmp/fifo"
timeout 20 sh -c 'cat "$1" >"$2"' - "$src/jobs.txt" "$tmp/fifo" &
n=$(prio-calc --snapshot "$tmp/s" --jobs "$tmp/fifo" -h | wc -l)
wait
[ "$n" -gt 0 ] || { echo "FAIL: --jobs FIFO read no rows"; fail=1; }

# Permissions: root reads everything, so drop to nobody when root.
run_as() {
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || return 1
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
if [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null; then
	chmod 755 "$tmp" "$tmp/s" && chmod a+r "$tmp/s"/*
	# the built tools must be reachable as nobody
	if run_as prio-calc --snapshot "$tmp/s" >/dev/null 2>&1; then
		chmod 311 "$tmp/s"
		expect prio-calc "$tmp/s: cannot read the snapshot folder: Permission denied" \
			run_as prio-calc --snapshot "$tmp/s"
		chmod 644 "$tmp/s"
		expect prio-calc "$tmp/s/slurm.conf: cannot open: Permission denied" \
			run_as prio-calc --snapshot "$tmp/s"
		chmod 755 "$tmp/s" && chmod 600 "$tmp/s/jobs.txt"
		expect prio-calc "$tmp/s/jobs.txt: cannot open: Permission denied" \
			run_as prio-calc --snapshot "$tmp/s"
	else
		echo "skipped the permission cases: the tools do not run as nobody here"
	fi
fi
exit $fail
