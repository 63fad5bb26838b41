#!/bin/sh
# SPDX-License-Identifier: MIT
# A closed standard input, output or error is not handed to the next file
# the command opens.  "--jobs -" with standard input closed is one line,
# exit 2 (and, where valgrind is installed and the build has no sanitizers,
# leaves nothing leaked: a sanitized build checks leaks on every run); with
# standard input closed, prio-top's inotify descriptor is not fd 0, so it
# is never read as standard input.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
S=samples/site
status=0

vg=""
if command -v valgrind >/dev/null 2>&1 &&
	! grep -q '^SAN_CFLAGS = .*-fsanitize' "$top_builddir/Makefile" 2>/dev/null; then
	vg="$top_builddir/libtool --mode=execute valgrind -q --error-exitcode=3
	    --leak-check=full --errors-for-leak-kinds=definite,indirect"
fi

for tool in prio-calc fstree-show tres-bill preempt-plan prio-top prio-exporter; do
	extra=""
	[ $tool = preempt-plan ] && extra="--job 20"
	[ $tool = prio-exporter ] && extra="--once"
	# shellcheck disable=SC2086
	$vg "$top_builddir/$tool" --snapshot $S --jobs - $extra <&- >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ] || [ -s "$tmp/out" ] ||
		[ "$(cat "$tmp/err")" != "$tool: (stdin): read error: Bad file descriptor" ]; then
		echo "$tool --jobs - <&-: exit $rc, stderr:"
		sed 's/^/    /' "$tmp/err" | head -20
		status=1
	fi
	# a closed stderr: the status still tells
	"$tool" --bogus 2>&-
	rc=$?
	[ $rc = 2 ] || { echo "$tool --bogus 2>&-: exit $rc"; status=1; }
done

# prio-top in batch mode with standard input closed: fd 0 is held on
# /dev/null, the inotify descriptor (it watches the sources) is another.
if [ -d /proc/self/fd ]; then
	prio-top --snapshot $S -b -n 100 -d 0.05 <&- >/dev/null 2>"$tmp/top.err" &
	pid=$!
	i=0 zero="" watch=""
	while [ $i -lt 100 ] && [ -z "$watch" ]; do
		watch=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c 'anon_inode:inotify')
		[ "$watch" = 0 ] && watch=""
		sleep 0.05
		i=$((i + 1))
	done
	# fd 0 once it watches: read before, it can be a shared library the
	# loader holds open for a moment (fd 0 is the lowest free one)
	zero=$(readlink "/proc/$pid/fd/0" 2>/dev/null)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$zero" != /dev/null ] || [ -z "$watch" ]; then
		echo "prio-top <&-: fd 0 is '$zero', inotify descriptors: ${watch:-none}"
		cat "$tmp/top.err"
		status=1
	fi
fi
exit $status
