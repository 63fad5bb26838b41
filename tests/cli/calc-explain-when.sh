#!/bin/sh
# SPDX-License-Identifier: MIT
# --explain's "When it would start" part (issue 15): Slurm's estimate is
# the job record's StartTime and SchedNodeList, as --start prints them from
# the same capture; ours is the --forecast row of the job (start, partition,
# nodes, which scheduler, the jobs whose ends free its nodes), whatever the
# rest of the list explained; a held job says so once; a running job has no
# such part; -P gives the times as Unix seconds.
set -u
s=samples/site
export COLUMNS=1000
fail=0
ep() { TZ=UTC date -d "$1" +%s; }

for j in 34 31; do
	prio-calc --snapshot "$s" --explain "$j" >"${TMPDIR:-/tmp}/when.$$" 2>/dev/null
	# Slurm's: --start's START_TIME and SCHEDNODES of the job
	set -- $(prio-calc --snapshot "$s" --start -j "$j" -o '%S %Y' -h)
	want="  Slurm's estimate: $1 on $2 (the backfill scheduler's plan at its last look, squeue --start)"
	grep -qxF "$want" "${TMPDIR:-/tmp}/when.$$" || { echo "job $j: no line: $want"; fail=1; }
	# ours: the forecast's row
	row=$(prio-calc --snapshot "$s" --forecast -j "$j" -P -h)
	start=$(echo "$row" | cut -d'|' -f4) part=$(echo "$row" | cut -d'|' -f2)
	nodes=$(echo "$row" | cut -d'|' -f6) by=$(echo "$row" | cut -d'|' -f7)
	grep -q "^  our forecast: $start (in [0-9:]*) in $part on $(printf '%s' "$nodes" | sed 's/[][]/\\&/g'), by the $by scheduler\$" \
		"${TMPDIR:-/tmp}/when.$$" || { echo "job $j: our forecast is not --forecast's $row"; sed -n '/^When/,$p' "${TMPDIR:-/tmp}/when.$$"; fail=1; }
	freed=$(echo "$row" | cut -d'|' -f10 | sed 's/,\([^,]*\)$/ and \1/; s/,/, /g')
	case $freed in *" and "*) w="jobs $freed" ;; *) w="job $freed" ;; esac
	grep -qxF "  it waits for the end of $w there" "${TMPDIR:-/tmp}/when.$$" ||
		{ echo "job $j: not waiting for $w"; fail=1; }
done
rm -f "${TMPDIR:-/tmp}/when.$$"
# job 34: backfill on ftn3 when job 22 ends, as Slurm planned it
prio-calc --snapshot "$s" --explain 34 | grep -qxF "  it waits for the end of job 22 there" || { echo "job 34: not job 22"; fail=1; }
# machine rows: the times as Unix seconds
got=$(prio-calc --snapshot "$s" --explain 34 -P 2>/dev/null | awk -F'|' '$2 == "when" && $4 == "slurm_start" { print $5 }')
[ "$got" = "$(ep 2026-11-22T05:43:21Z)" ] || { echo "job 34: slurm_start $got"; fail=1; }
got=$(prio-calc --snapshot "$s" --explain 31,34 -P 2>/dev/null | awk -F'|' '$2 == "when" && $4 == "start" { print $1 ":" $3 ":" $5 }' | tr '\n' ' ')
[ "$got" = "31:batch:$(ep 2026-11-22T15:43:21Z) 34:big:$(ep 2026-11-22T05:43:21Z) " ] || { echo "31,34 starts: $got"; fail=1; }
# held: one line saying so; running: no When part
n=$(prio-calc --snapshot "$s" --explain 41 | sed -n '/^When/,$p' | grep -c 'held (priority 0)')
[ "$n" = 1 ] || { echo "job 41: $n lines of its When part say held"; fail=1; }
prio-calc --snapshot "$s" --explain 13 | grep -q '^When' && { echo "job 13 (running) has a When part"; fail=1; }
exit $fail
