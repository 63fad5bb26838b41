#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top driven for real inside a private tmux server (tmux -L): keys go
# in with send-keys, the screen comes back with capture-pane -p, and each
# step checks what a user would see: start on a snapshot, sort, follow,
# mark and search, filter a user, open a detail, change a weight, touch a
# source file and see the reload (and a half-written one kept out),
# resize, fold the tree, quit; then colours, NO_COLOR and the mouse.
set -u
sock="prio-top-test-$$"
# shellcheck source=top-tmux.lib
. tests/cli/top-tmux.lib

# row STEP N PATTERN: the Nth line below the view's title line (the
# header's height depends on the width) matches PATTERN now; N = 0 is the
# title itself, N = -1 and -2 the bottom lines
row() {
	screen >"$tmp/screen"
	case $2 in
	-1) got=$(tail -n 1 "$tmp/screen") ;;
	-2) got=$(tail -n 2 "$tmp/screen" | head -n 1) ;;
	*)
		title=$(grep -nE '^ RANK |^ACCOUNT / USER|^ Why |^ prio-top ' "$tmp/screen" | head -n 1 | cut -d: -f1)
		got=$(sed -n "$((${title:-1} + $2))p" "$tmp/screen") ;;
	esac
	printf '%s\n' "$got" | grep -Eq -- "$3" && return 0
	echo "step $1: row $2 is not /$3/:"
	sed 's/^/    |/' "$tmp/screen"
	status=1
}

# The clock stands still (--speed 0) so that nothing but the keys and the
# files change the screen.
tmux -L "$sock" -f /dev/null new-session -d -s main -x 80 -y 24 \
	"env LC_ALL=C TZ=UTC PRIO_TOOLS_CONF=/dev/null prio-top --snapshot '$tmp/snap' --speed 0 -d 0.5 2>'$tmp/err'; echo EXIT=\$?; sleep 30" || exit 2

# Sessions for steps 10 and 11 start now, to be ready when their turn comes.
tmux -L "$sock" new-session -d -s color -x 80 -y 24 \
	"env LC_ALL=C TZ=UTC PRIO_TOOLS_CONF=/dev/null prio-top --snapshot samples/site --speed 0; sleep 30"
tmux -L "$sock" new-session -d -s mono -x 80 -y 24 \
	"env LC_ALL=C TZ=UTC NO_COLOR=1 PRIO_TOOLS_CONF=/dev/null prio-top --snapshot samples/site --speed 0; sleep 30"
tmux -L "$sock" new-session -d -s mouse -x 80 -y 24 \
	"env TERM=screen LC_ALL=C TZ=UTC PRIO_TOOLS_CONF=/dev/null prio-top --snapshot samples/site --speed 0 --mouse; sleep 30"

# 1. start: the header, the queue in scheduling order, the function bar
wait_for start 'F10Quit' &&
	row start 0 '^ RANK JOBID USER' &&
	row start 1 '^    1    28 dave ' &&
	row start -2 'sort rank  1/17$' &&
	grep -q '^cluster ft  snapshot 2026-11-22T03:55:30' "$tmp/screen" ||
	status=1

# 2. sort: > goes to the next column (job id), < back
keys '>'
wait_for sort 'sort jobid' && row sort 1 '^   13    25 alice '
keys '<'
wait_for sort-back 'sort rank ' && row sort-back 1 '^    1    28 dave '

# follow a job through a sort; mark it; search
keys j j F
wait_for follow 'sort rank  follow 30  3/17$'
keys '>'
wait_for follow-sort 'sort jobid  follow 30  6/17$' && row follow-sort 6 '^    3    30 frank '
keys '<' F
wait_for unfollow 'following no job +sort rank  3/17$'
keys Space
wait_for mark 'sort rank  4/17$' && row mark 3 '^\*   3    30 frank '
keys U
wait_gone unmark '^\*   3    30 frank ' && row unmark 3 '^    3    30 frank '
keys / heidi Enter
wait_for search 'sort rank  4/17$' && row search 4 '^    4    32 heidi '
keys g

# 3. filter a user: u offers the selected job's user; replace it
keys u
wait_for user-prompt '^User: dave_'
keys C-u frank Enter
wait_for user 'user=frank  1/2' &&
	row user 1 '^    3    30 frank ' && row user 2 '^    9    39 frank ' &&
	row user 3 '^ *$'

# 4. open a detail: Enter explains the job under the cursor; Esc returns
keys Enter
wait_for detail 'Why job 30 waits: prio-calc --explain 30' &&
	row detail 1 '^Job 30 \(user frank, account orgchem, QOS urgent\)'
keys Escape
wait_for detail-back 'user=frank  1/2'
keys u C-u Enter
wait_for all-users 'sort rank  1/17'

# 5. change a weight: the queue re-ranks and shows who moved
keys w
wait_for whatif-prompt '^What-if \(Key=Value, as --set\): _'
keys PriorityWeightFairshare=0 Enter
wait_for whatif 'what-if PriorityWeightFairshare=0 \(13 moved\)' &&
	row whatif 0 '^ RANK MOVE JOBID' &&
	row whatif 1 '^    1   \^1    34 ivan ' &&
	row whatif 5 '^    5   \^5    36 oscar '

# 6. touch a source: read again at once, the what-if kept
sed 's/^ClusterName=ft/ClusterName=touched/' samples/site/slurm.conf >"$tmp/snap/slurm.conf"
wait_for reload '^cluster touched ' &&
	grep -q 'what-if PriorityWeightFairshare=0 (13 moved)' "$tmp/screen" &&
	row reload 5 '^    5   \^5    36 oscar ' || status=1
# a file caught half written: the last good data stays, the status says so
head -c 3000 samples/site/jobs.txt >"$tmp/snap/jobs.txt"
wait_for half-written 'reload failed, still showing the data of 2026-11-22T03:55:30' &&
	row half-written 1 '^    1   \^1    34 ivan '
cp samples/site/jobs.txt "$tmp/snap/jobs.txt"
wait_gone repaired 'reload failed' && wait_for repaired 'sort rank  1/17'

# 7. resize: the frame follows the terminal
tmux -L "$sock" resize-window -t main: -x 120 -y 40
wait_for resize 'P partition 3000  Q qos 5000  T tres CPU=700,Mem=300$' &&
	grep -q '^F1Help F2Queue' "$tmp/screen" &&
	[ "$(wc -l <"$tmp/screen")" = 40 ] && row resize -2 'sort rank  1/17$' &&
	row resize 17 '^   17   v5    33 mallory chem ' || status=1

# 7b. small and wide panes (issue 16): job rows at 40x10, five at 80x10,
# Slurm's longest reason whole at 200x50; then back to 120x40
tmux -L "$sock" resize-window -t main: -x 40 -y 10
wait_for small40 '^ RANK ' && row small40 1 '^ +1 ' && row small40 4 '^ +4 ' || status=1
tmux -L "$sock" resize-window -t main: -x 80 -y 10
wait_for small80 '^ RANK .*REASON' && row small80 5 '^ +5 .*Priority$' || status=1
tmux -L "$sock" resize-window -t main: -x 200 -y 50
wait_for wide 'Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions$' || status=1
tmux -L "$sock" resize-window -t main: -x 120 -y 40
wait_for back 'P partition 3000  Q qos 5000  T tres CPU=700,Mem=300$' || status=1

# 8. the tree: fold the root, unfold it
keys t
wait_for tree '^ACCOUNT / USER' && row tree 1 '^v root' &&
	row tree 25 '^            `-- erin '
keys -
wait_for fold '^> root' && row fold 2 '^ *$' && row fold -2 ' 1/1$'
keys +
wait_for unfold '^\|-- root '

# 9. quit
keys q
wait_for quit '^EXIT=0'
# 10. colours: the bars' parts in their colours (fairshare black on green)
# where the terminal has them; NO_COLOR: none, the cursor in reverse video
esc=$(printf '\033')
for s in color mono; do
	i=0
	until tmux -L "$sock" capture-pane -p -t "$s:" | grep -q F10Quit || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	tmux -L "$sock" capture-pane -p -e -t "$s:" >"$tmp/$s"
done
grep "    2    34 ivan" "$tmp/color" | grep -q "${esc}\[42mF" ||
	{ echo "step color: no green fairshare part in the bars"; status=1; }
if grep -q "${esc}\[4[0-7]m" "$tmp/mono" || ! grep -q "${esc}\[7m" "$tmp/mono"; then
	echo "step mono: NO_COLOR still shows colours, or no reverse cursor"
	cat -v "$tmp/mono" | head -8
	status=1
fi

# 11. the mouse (--mouse; TERM=screen: X10 reports, ESC [ M b x y): a click
# on a title sorts, on a line selects, a double click opens the detail
# click X Y [TIMES]: button 1 at column X, line Y (from 1)
click() {
	c=$(printf "\\$(printf %o $((32 + $1)))")
	l=$(printf "\\$(printf %o $((32 + $2)))")
	one=$(printf '\033[M %s%s\033[M#%s%s' "$c" "$l" "$c" "$l")
	seq=$one
	[ "${3:-1}" = 2 ] && seq=$one$one
	tmux -L "$sock" send-keys -t mouse: -l "$seq"
}
i=0
until tmux -L "$sock" capture-pane -p -t mouse: | grep -q F10Quit || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mscreen() { tmux -L "$sock" capture-pane -p -t mouse: >"$tmp/screen"; }
mwait() { # STEP PATTERN
	i=0
	until mscreen && grep -Eq -- "$2" "$tmp/screen" || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	grep -Eq -- "$2" "$tmp/screen" || { echo "step $1: no /$2/:"; sed 's/^/    |/' "$tmp/screen"; status=1; }
}
click 14 5 # the USER title
mwait mouse-sort 'sort user  1/17$'
click 10 8 # the third line
mwait mouse-select 'sort user  3/17$'
click 10 8 2
mwait mouse-detail '^ Why job 26 waits'

if [ -s "$tmp/err" ]; then
	echo "prio-top wrote on stderr:"
	sed 's/^/    /' "$tmp/err" | head -20
	status=1
fi
exit $status
