#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: generate the synthetic snapshots of DESIGN §5 (sizes from
# BENCH_SIZES, default "M"; add L for the 1M-job one) and time the tools on
# them, beside wc -l and an awk field scan of the same jobs file.
# Results are printed; they go in the issue notes, they are not asserted.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
out=${BENCH_DIR:-$top_builddir/bench-out}
sizes=${BENCH_SIZES:-M}
gen="$top_builddir/tests/bench/gen"
calc="$top_builddir/prio-calc"
[ -x "$gen" ] || { echo "bench: $gen not built"; exit 2; }
mkdir -p "$out"

# seconds and peak RSS (KiB) of a command, via GNU time when available
measure() {
	label=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %M" -o "$out/.time" "$@" >/dev/null 2>"$out/.stderr"
		rc=$?
		read -r secs rss <"$out/.time"
	else
		start=$(date +%s.%N)
		"$@" >/dev/null 2>"$out/.stderr"
		rc=$?
		secs=$(echo "$(date +%s.%N) - $start" | bc)
		rss="?"
	fi
	printf '  %-34s %8ss  %10s KiB  (exit %s)\n' "$label" "$secs" "$rss" "$rc"
}

for size in $sizes; do
	dir="$out/$size"
	if [ ! -f "$dir/NOW" ]; then
		echo "generating $size in $dir"
		start=$(date +%s)
		"$gen" "$size" "$dir" || { echo "bench: generation failed"; exit 2; }
		echo "  generated in $(( $(date +%s) - start )) s"
	fi
	jobs_mb=$(( $(stat -c %s "$dir/jobs.txt") / 1048576 ))
	sacct_mb=$(( $(stat -c %s "$dir/sacct.txt") / 1048576 ))
	echo "size $size: jobs.txt ${jobs_mb} MiB ($(wc -l <"$dir/jobs.txt") lines), sacct.txt ${sacct_mb} MiB"
	measure "wc -l jobs.txt" wc -l "$dir/jobs.txt"
	measure "awk Priority= field scan" awk -F'Priority=' '{ split($2, a, " "); s += a[1] } END { print s }' "$dir/jobs.txt"
	measure "prio-calc --jobs --check" "$calc" --jobs "$dir/jobs.txt" --check
	measure "prio-calc --sacct --check" "$calc" --sacct "$dir/sacct.txt" --check
	measure "prio-calc --snapshot --check" "$calc" --snapshot "$dir" --check
	# the sprio table (sacct.txt is left unread by prio-calc)
	jobs_bytes=$(stat -c %s "$dir/jobs.txt")
	for args in "-l" "-l -n" "-S -y"; do
		# shellcheck disable=SC2086
		measure "prio-calc $args" "$calc" --snapshot "$dir" $args
		awk -v b="$jobs_bytes" -v s="$secs" -v r="$rss" -v j="$(wc -l <"$dir/jobs.txt")" 'BEGIN {
			if (s > 0) printf "  %-34s %8.0f MB/s of jobs.txt, %.0f bytes/job of RSS over the input\n", "", b / s / 1e6, (r * 1024 - b) / j }'
	done
done
