#!/bin/sh
# SPDX-License-Identifier: MIT
# SchedulerParameters words that change what slurmctld's schedulers start,
# or when, and that the forecast does not model: every command that
# forecasts says so on stderr, once, naming them as written, and forecasts
# as if they were unset (the same table as without them).  Words it models
# (bf_interval) and words that do not change the schedule (sched_interval)
# are not named.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
cp -r "$top_srcdir/samples/site" "$tmp/plain"
cp -r "$top_srcdir/samples/site" "$tmp/words"
sed -i 's/^SchedulerParameters=bf_interval=5,sched_interval=5$/SchedulerParameters=bf_interval=5,bf_max_job_part=5,sched_interval=5,BF_MIN_PRIO_RESERVE=100,default_queue_depth/' \
	"$tmp/words/slurm.conf"
grep -q 'bf_max_job_part=5' "$tmp/words/slurm.conf" || { echo "sample's SchedulerParameters changed"; exit 1; }
want='prio-calc: warning: SchedulerParameters bf_max_job_part=5, BF_MIN_PRIO_RESERVE=100, default_queue_depth: not modelled; the forecast schedules as if unset'

prio-calc --snapshot "$tmp/plain" --forecast -P >"$tmp/plain.out" 2>"$tmp/plain.err" || { echo "plain: failed"; fail=1; }
grep -q 'SchedulerParameters' "$tmp/plain.err" && { echo "plain: warned:"; cat "$tmp/plain.err"; fail=1; }
prio-calc --snapshot "$tmp/words" --forecast -P >"$tmp/words.out" 2>"$tmp/words.err" || { echo "words: failed"; fail=1; }
[ "$(grep -c 'SchedulerParameters' "$tmp/words.err")" = 1 ] && grep -qxF "$want" "$tmp/words.err" ||
	{ echo "--forecast: expected the one warning:"; cat "$tmp/words.err"; fail=1; }
cmp -s "$tmp/plain.out" "$tmp/words.out" || { echo "--forecast: the table changed"; fail=1; }

# --explain of two jobs forecasts once and says it once; --brief
# forecasts too
prio-calc --snapshot "$tmp/words" --explain 30,34 >/dev/null 2>"$tmp/explain.err" || { echo "--explain: failed"; fail=1; }
[ "$(grep -cxF "$want" "$tmp/explain.err")" = 1 ] || { echo "--explain:"; cat "$tmp/explain.err"; fail=1; }
for opt in --brief; do
	prio-calc --snapshot "$tmp/words" $opt -u "$(awk '/^JobId=34 /{f=1} f && /UserId=/{sub(/.*UserId=/, ""); sub(/\(.*/, ""); print; exit}' "$tmp/words/jobs.txt")" \
		>/dev/null 2>"$tmp/o.err" || { echo "$opt: failed"; cat "$tmp/o.err"; fail=1; }
	[ "$(grep -cxF "$want" "$tmp/o.err")" = 1 ] || { echo "$opt:"; cat "$tmp/o.err"; fail=1; }
done
# prio-top (its START column is the forecast's), and not with --no-forecast
prio-top --snapshot "$tmp/words" --once >/dev/null 2>"$tmp/top.err" || { echo "prio-top: failed"; fail=1; }
grep -qxF "prio-top${want#prio-calc}" "$tmp/top.err" || { echo "prio-top:"; cat "$tmp/top.err"; fail=1; }
prio-top --snapshot "$tmp/words" --once --no-forecast >/dev/null 2>"$tmp/top2.err" || { echo "prio-top --no-forecast: failed"; fail=1; }
grep -q SchedulerParameters "$tmp/top2.err" && { echo "prio-top --no-forecast warned"; fail=1; }
# sprio's table does not forecast: no word of it
prio-calc --snapshot "$tmp/words" -l >/dev/null 2>"$tmp/l.err"
grep -q SchedulerParameters "$tmp/l.err" && { echo "-l warned"; fail=1; }
exit $fail
