#!/bin/sh
# SPDX-License-Identifier: MIT
# --explain's arithmetic adds up: for every job sprio lists in the
# fairtree-basic scenario (at Slurm's last calculation) and in the samples,
# the terms of each partition (factor × weight = points) sum to the printed
# sum within the rounding of the printed points, the printed priority is
# that sum truncated, and it is the PRIORITY Slurm's own sprio -l printed
# (fairtree-basic) or prio-calc -l prints (samples).
set -u
. tests/cli/calc-oracle.lib
calc_setup
calc_snapshot fairtree-basic "$tmp/ftb" || exit 2
now=$(calc_last_calc fairtree-basic) || exit 2

check() { # label, sprio -l output, prio-calc arguments...
	label=$1 table=$2; shift 2
	jobs=$(awk 'NR > 1 { print $1 }' "$table")
	[ -n "$jobs" ] || { echo "$label: no jobs"; return 1; }
	for j in $jobs; do
		prio-calc "$@" --explain "$j" -P >"$tmp/x" || { echo "$label: --explain $j failed"; return 1; }
		want=$(awk -v j="$j" 'NR > 1 && $1 == j { print $4 }' "$table")
		awk -F'|' -v j="$j" -v want="$want" -v label="$label" '
			$1 != j && NR > 1 { printf "%s: job %s: a row of job %s\n", label, j, $1; exit 1 }
			$2 == "term" { sum[$3] += $7; n[$3]++ }
			$2 == "sum" && $4 == "sum" { total[$3] = $7; split($8, w, "priority "); split(w[2], p, " "); prio[$3] = p[1] }
			END {
				bad = 0; seen = 0
				for (part in total) {
					seen++
					d = sum[part] - total[part]; if (d < 0) d = -d
					if (d > 0.005 * (n[part] + 1)) {
						printf "%s: job %s in %s: terms add to %.2f, sum printed %.2f\n", label, j, part, sum[part], total[part]; bad = 1
					}
					t = int(total[part]); if (t < 1) t = 1
					if (prio[part] != t) {
						printf "%s: job %s in %s: priority %s, sum %.2f\n", label, j, part, prio[part], total[part]; bad = 1
					}
					if (prio[part] != want) {
						printf "%s: job %s in %s: priority %s, sprio -l printed %s\n", label, j, part, prio[part], want; bad = 1
					}
				}
				if (!seen) { printf "%s: job %s: no sum\n", label, j; bad = 1 }
				exit bad
			}' "$tmp/x" || return 1
	done
}

check fairtree-basic tests/oracle/fairtree-basic/sprio_l.txt \
	--snapshot "$tmp/ftb" --now "$now" || status=1
prio-calc --snapshot samples/site -l >"$tmp/samples_l" || exit 1
check samples "$tmp/samples_l" --snapshot samples/site || status=1
exit $status
