#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top's START column and the detail view's "When" part (issue 15) say
# what prio-calc says of the same snapshot: every job shown starts when
# prio-calc --forecast starts it (the time of day on the snapshot's day, the
# word "after" beyond the horizon as --forecast-until prints it), and a
# job's When lines are prio-calc --explain's, line for line.  Then the
# layout: the column gives way in the order prio-top(1) states (ACCOUNT,
# QOS, REASON, START, USER, PART) as the screen narrows from 80 columns.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
snap=samples/site
fail=0
day=$(cut -c1-10 <"$snap/NOW" | xargs -I{} date -u -d @{} +%Y-%m-%d 2>/dev/null)
[ -n "$day" ] || day=2026-11-22

# START of each row shown (jobid start), from a --once frame
top_starts() {
	prio-top --snapshot "$snap" --once --size 160x40 "$@" >"$tmp/top" ||
		return 1
	# both columns are right-aligned under their titles (a blank MOVE
	# cell leaves no field): the word that ends where the title ends
	awk 'function cell(row, end,   n, w) {
		n = split(substr(row, 1, end), w, " "); return w[n] }
	     f == 0 && / RANK / { j = index($0 " ", " JOBID ") + 5
		s = index($0 " ", " START ") + 5; f = 1; next }
	     f == 1 && $1 ~ /^[0-9]+$/ { print cell($0, j), cell($0, s) }' \
		"$tmp/top"
}
# prio-calc --forecast's START as prio-top shows it
calc_starts() {
	prio-calc --snapshot "$snap" --forecast "$@" |
		awk -v day="$day" 'NR > 1 { s = $4
		if (substr(s, 1, 10) == day && substr(s, 11, 1) == "T")
			s = substr(s, 12)
		print $1, s }'
}
check_starts() {
	what=$1
	n=0
	while read -r job start; do
		want=$(awk -v j="$job" '$1 == j { print $2 }' "$tmp/calc")
		n=$((n + 1))
		if [ "$start" != "$want" ]; then
			echo "$what: job $job: prio-top START '$start', prio-calc --forecast '$want'"
			fail=1
		fi
	done <"$tmp/shown"
	if [ "$n" -lt 10 ]; then
		echo "$what: only $n rows read from the frame"
		fail=1
	fi
}

top_starts >"$tmp/shown" || { echo "prio-top failed"; exit 1; }
calc_starts >"$tmp/calc"
check_starts "bf_window"
# a horizon: 111 minutes after NOW 03:55:30, as --forecast-until there
top_starts --forecast-horizon 111 >"$tmp/shown"
calc_starts --forecast-until 2026-11-22T05:46:30 >"$tmp/calc"
check_starts "horizon"
grep -q "after" "$tmp/shown" ||
	{ echo "horizon: no job after the horizon (the test needs some)"; fail=1; }
# after a what-if: the forecast of the changed data, as prio-calc --set's
top_starts --change PriorityWeightFairshare=0 >"$tmp/shown"
calc_starts --set PriorityWeightFairshare=0 >"$tmp/calc"
check_starts "what-if"
# sorted by our start: the rows in the order of their starts
prio-top --snapshot "$snap" --once --size 160x40 --sort forecast >"$tmp/top"
awk '/ RANK / { s = index($0 " ", " START ") + 5; f = 1; next }
     f && $1 ~ /^[0-9]+$/ { n = split(substr($0, 1, s), w, " "); print w[n] }' \
	"$tmp/top" >"$tmp/sorted"
sort -c "$tmp/sorted" 2>/dev/null ||
	{ echo "--sort forecast: START not ascending"; cat "$tmp/sorted"; fail=1; }
# --no-forecast: no column
prio-top --snapshot "$snap" --once --size 160x40 --no-forecast >"$tmp/top"
if grep " RANK " "$tmp/top" | grep -qw START; then
	echo "--no-forecast: the START column is shown"
	fail=1
fi

# the detail view's When part, for every job of the queue
for job in $(awk '{ print $1 }' "$tmp/shown" | sort -u); do
	prio-top --snapshot "$snap" --once --size 400x120 --view detail \
		--select "$job" |
		sed -n '/^When it would start:/,$p' |
		sed -e 's/ *$//' -e '/^ *line [0-9]*\/[0-9]*$/,$d' |
		sed -e '/^$/d' >"$tmp/top.when"
	prio-calc --snapshot "$snap" --explain "$job" |
		sed -n '/^When it would start:/,$p' | sed -e '/^$/d' \
		>"$tmp/calc.when"
	if [ "$(wc -l <"$tmp/calc.when")" -lt 3 ]; then
		echo "job $job: prio-calc --explain has no When part"
		fail=1
	elif ! cmp -s "$tmp/top.when" "$tmp/calc.when"; then
		echo "job $job: the detail's When part differs from --explain's:"
		diff "$tmp/calc.when" "$tmp/top.when" | head -10
		fail=1
	fi
done
# --no-forecast: Slurm's estimate only
prio-top --snapshot "$snap" --once --size 400x120 --view detail --select 36 \
	--no-forecast >"$tmp/top"
grep -q "^  Slurm's estimate: 2026-11-22T08:26:00 on ftn4" "$tmp/top" &&
	! grep -q "our forecast" "$tmp/top" ||
	{ echo "--no-forecast detail: not Slurm's estimate alone"; fail=1; }

# the layout: which of the columns that give way are shown at a width
cols_at() {
	prio-top --snapshot "$snap" --once --size "$1x24" |
		awk '/ RANK / { print; exit }'
}
gone_at() { # the widest width (80 down to 30) without column $1
	for w in $(seq 80 -1 30); do
		if ! cols_at "$w" | grep -qw -- "$1"; then
			echo "$w"
			return
		fi
	done
	echo 0
}
h80=$(cols_at 80)
for c in START REASON QOS ACCOUNT USER PART; do
	echo "$h80" | grep -qw "$c" ||
		{ echo "80 columns: no $c column: $h80"; fail=1; }
done
# ACCOUNT shows as ACCT when narrowed, then goes
prev=81
for c in ACC QOS REASON START USER PART; do
	case $c in
	ACC) w=$(for x in $(seq 80 -1 30); do
		cols_at "$x" | grep -qwE 'ACCOUNT|ACCT' || { echo "$x"; break; }
	done) ;;
	*) w=$(gone_at "$c") ;;
	esac
	w=${w:-0}
	if [ "$w" -gt "$prev" ]; then
		echo "layout: $c goes at $w columns, before the column ahead of it in the order (at $prev)"
		fail=1
	fi
	prev=$w
done
[ "$(gone_at START)" -gt 0 ] || { echo "layout: START never gives way"; fail=1; }
exit $fail
