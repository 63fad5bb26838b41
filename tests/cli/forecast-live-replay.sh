#!/bin/sh
# SPDX-License-Identifier: MIT
# The forecast against what real Slurm then did (issue 15): each
# tests/oracle/forecast-* folder is a live forecast step kept whole (the
# snapshot, Slurm's estimates at NOW, and sacct's real starts once the
# queue drained; see their README.md).  Our forecast of the snapshot is
# judged by the live step's own judge (tests/live/forecast.sh), with the
# rule the folder's `expect` names: `verdict` the whole verdict, `error`
# our mean error no worse than Slurm's estimate (+5 s, as live), `mean N`
# the whole verdict and our mean error at most N seconds (a run kept for a
# rule of Slurm's that a worse forecast broke).
# (the judge's file is bash: it holds the live step too)
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../live/forecast.sh
. "$top_srcdir/tests/live/forecast.sh"
n=0 failed=0
for d in "$top_srcdir"/tests/oracle/forecast-*; do
	[ -f "$d/expect" ] || continue
	name=$(basename "$d")
	n=$((n + 1))
	mkdir -p "$tmp/$name"
	cp "$d/NOW" "$d/slurm_estimates.txt" "$d/sacct.txt" "$tmp/$name/"
	if ! prio-calc --snapshot "$d/snap" --forecast -P >"$tmp/$name/ours.txt" 2>"$tmp/$name/ours.err"; then
		echo "$name: prio-calc --forecast failed: $(head -1 "$tmp/$name/ours.err")"
		failed=$((failed + 1))
		continue
	fi
	forecast_replay_judge "$tmp/$name"
	rule=$(cat "$d/expect")
	case $rule in
	verdict | "mean "*)
		grep -q '^live: ok forecast: no worse than Slurm' "$tmp/$name/judge" ||
			{ echo "$name: the live verdict fails:"; cat "$tmp/$name/judge"; failed=$((failed + 1)); }
		[ "$rule" = verdict ] ||
			awk -v most="${rule#mean }" '/^live: forecast error \(s\) ours:/ { mean = $7; seen = 1 }
				END { exit !(seen && most ~ /^[0-9.]+$/ && mean + 0 <= most + 0) }' "$tmp/$name/judge" ||
			{ echo "$name: our mean error is over ${rule#mean } s:"; cat "$tmp/$name/judge"; failed=$((failed + 1)); }
		;;
	error)
		awk '/^live: forecast error \(s\) slurm:/ {
			slurm = $7; ours = $NF; sub(/\)$/, "", ours); seen = 1 }
			END { exit !(seen && ours + 0 <= slurm + 5) }' "$tmp/$name/judge" ||
			{ echo "$name: our mean error is worse than Slurm's estimate:"; cat "$tmp/$name/judge"; failed=$((failed + 1)); }
		;;
	*) echo "$name: expect: unknown rule \"$(cat "$d/expect")\""; failed=$((failed + 1)) ;;
	esac
	grep -E '^live: (forecast error|ok|FAIL)' "$tmp/$name/judge" | sed "s/^live: /$name: /"
done
[ "$n" -ge 6 ] || { echo "only $n scenarios found"; exit 1; }
[ "$failed" = 0 ]
