#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top's forecast on a terminal, where it runs in a thread
# (cmd/prio-top-forecast.c): the START column comes with prio-calc
# --forecast's starts, the detail view's When part comes with prio-calc
# --explain's forecast line, a what-if brings the forecast of the changed
# data, and a reload the forecast of the new snapshot (samples/site-later).
set -u
sock="prio-top-fc-$$"
# shellcheck source=top-tmux.lib
. tests/cli/top-tmux.lib
# the START prio-calc --forecast gives job $1 (time of day), with $2...
calc_start() {
	job=$1
	shift
	env TZ=UTC LC_ALL=C PRIO_TOOLS_CONF=/dev/null prio-calc \
		--snapshot "$tmp/snap" --forecast "$@" 2>/dev/null |
		awk -v j="$job" '$1 == j { print substr($4, 12) }'
}

tmux -L "$sock" -f /dev/null new-session -d -s main -x 120 -y 30 \
	"env LC_ALL=C TZ=UTC PRIO_TOOLS_CONF=/dev/null prio-top --snapshot '$tmp/snap' --speed 0 -d 0.5 --select 36 2>'$tmp/err'; echo EXIT=\$?; sleep 30" || exit 2

# 1. the column: job 28 and 36 start when prio-calc --forecast says
s28=$(calc_start 28)
s36=$(calc_start 36)
[ -n "$s28" ] && [ -n "$s36" ] || { echo "prio-calc --forecast gave no start"; exit 1; }
wait_for 1 " PRIO +START "
wait_for 1 " 28 dave .* $s28 "
wait_for 1 " 36 oscar .* $s36 "

# 2. the detail: the When part, with --explain's forecast line
want=$(env TZ=UTC LC_ALL=C PRIO_TOOLS_CONF=/dev/null prio-calc \
	--snapshot "$tmp/snap" --explain 36 2>/dev/null | grep '^  our forecast:')
[ -n "$want" ] || { echo "prio-calc --explain 36 has no forecast line"; exit 1; }
keys Enter
wait_for 2 "Why job 36 waits"
keys End
wait_text 2 "$want"
keys Escape
wait_for 2 " PRIO +START "

# 3. a what-if: the forecast of the changed data
keys w
wait_for 3 "What-if"
keys "PriorityWeightFairshare=0" Enter
w36=$(calc_start 36 --set PriorityWeightFairshare=0)
[ "$w36" != "$s36" ] || echo "note: the what-if does not move job 36's start"
wait_for 3 " 36 oscar .* $w36 "
keys W
wait_for 3 " 36 oscar .* $s36 "

# 4. a reload: the later snapshot in the folder, its forecast on screen
cp samples/site-later/* "$tmp/snap/"
l36=$(calc_start 36)
[ -n "$l36" ] && [ "$l36" != "$s36" ] ||
	{ echo "site-later: job 36's start does not move ($l36)"; status=1; }
wait_for 4 "snapshot 2026-11-22T04:05:30"
wait_for 4 " 36 oscar .* $l36 "

keys q
wait_for 5 "EXIT=0"
if [ -s "$tmp/err" ] && grep -v "warning" "$tmp/err" | grep -q .; then
	echo "stderr:"
	cat "$tmp/err"
	status=1
fi
exit $status
