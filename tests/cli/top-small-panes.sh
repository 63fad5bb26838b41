#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top in small and wide panes (issue 16): the header takes at most a
# third of what the frame leaves, so job rows show at 40x10 and 100x8, five
# at 80x10 (the legend is left out first); at 80 columns the common reasons
# show whole; at 200 the bar gives way and the longest reason shows whole.
set -u
s=samples/site
rows() { grep -c '^ *[0-9][0-9]* *[0-9^v]' ; }
# job rows: at least twice the header's lines; five at 80x10
for size in 40x10 80x10 100x8 60x9; do
	n=$(prio-top --snapshot "$s" --once --size "$size" | rows)
	r=${size#*x}
	want=$(( (r - 3) - (r - 3) / 3 ))
	[ "$n" -ge "$want" ] || { echo "$size: $n job rows, expected at least $want"; prio-top --snapshot "$s" --once --size "$size"; exit 1; }
done
[ "$(prio-top --snapshot "$s" --once --size 80x10 | rows)" -ge 5 ] || { echo "80x10: fewer than five job rows"; exit 1; }
out=$(prio-top --snapshot "$s" --once --size 80x24)
echo "$out" | grep -q ' Resources$' || { echo "80x24: Resources cut"; echo "$out" | sed -n 5,8p; exit 1; }
echo "$out" | grep -q ' Priority$' || { echo "80x24: Priority cut"; exit 1; }
# at 200: the bar gives way, Slurm's longest reason shows whole
out=$(prio-top --snapshot "$s" --once --size 200x30)
echo "$out" | grep -q 'Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions$' ||
	{ echo "200x30: the long reason is cut"; echo "$out" | sed -n 5,8p; exit 1; }
w=$(echo "$out" | awk '/^ RANK/ { i = index($0, "FACTORS"); j = index($0, "REASON"); print j - i }')
[ "$w" -ge 10 ] || { echo "200x30: the bar column is $w wide"; exit 1; }
