#!/bin/sh
# SPDX-License-Identifier: MIT
# preempt-plan without a NOW file and without --now plans at the wall clock:
# it says so, one warning line on stderr (prio-calc --check's wording), and
# still answers; with NOW or --now it says nothing.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
P=samples/preempt-future
status=0
mkdir "$tmp/snap"
cp "$P/slurm.conf" "$P/jobs.txt" "$tmp/snap/"
want="preempt-plan: warning: NOW: not given (no NOW file, no --now): the wall clock was used"

preempt-plan --snapshot "$tmp/snap" --job 20 -P -h >"$tmp/out" 2>"$tmp/err"
rc=$?
{ [ $rc = 0 ] || [ $rc = 1 ]; } && [ -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ] ||
	{ echo "no NOW: exit $rc, stderr:"; cat "$tmp/err"; status=1; }
preempt-plan --conf "$P/slurm.conf" --jobs "$P/jobs.txt" --job 20 -P -h >/dev/null 2>"$tmp/err"
[ "$(cat "$tmp/err")" = "$want" ] || { echo "--conf/--jobs, no NOW:"; cat "$tmp/err"; status=1; }
# The clock given: no warning, and the plan of the sample (17, 18, 19
# suspended by Slurm's plan, 19 alone by the minimal one).
preempt-plan --snapshot "$tmp/snap" --now "$(cat "$P/NOW")" --job 20 -P -h >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && [ "$(cut -d'|' -f1,2 "$tmp/out" | tr '\n' ' ')" = "17|suspend 18|suspend 19|suspend " ] ||
	{ echo "--now:"; cat "$tmp/err" "$tmp/out"; status=1; }
preempt-plan --snapshot "$P" --job 20 -P -h >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] || { echo "NOW file:"; cat "$tmp/err"; status=1; }
exit $status
