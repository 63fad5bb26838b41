#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: generate the synthetic snapshots of DESIGN §5 and time the
# tools on them, each figure beside its baselines so that a regression
# shows at a glance:
#  - the same file through wc -l and through an awk scan of one field (the
#    floor and the "a script would do" mark of issue 17);
#  - the figure recorded for the previous release in tests/bench/baseline.txt
#    (same machine class: 2 cores), as a ratio; over 1.25 times slower is
#    marked "SLOWER".
# Figures are medians of BENCH_RUNS runs (RSS: the largest).  Nothing is
# asserted: they go in the issue notes.  Exit status 2 when a tool failed
# or a step could not run, 0 otherwise.
#
# Environment: BENCH_SIZES (default "M"; S is the smoke size .ci/run uses,
# L the 1M-job one, ~1.3 GiB), BENCH_RUNS (default 5), BENCH_DIR (where the
# sizes are generated; default top_builddir/bench-out), BENCH_BASELINE
# (default tests/bench/baseline.txt), BENCH_SAVE=FILE (write this run's
# figures in the baseline's format, to make a new baseline at a release).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
out=${BENCH_DIR:-$top_builddir/bench-out}
sizes=${BENCH_SIZES:-M}
runs=${BENCH_RUNS:-5}
baseline=${BENCH_BASELINE:-$top_srcdir/tests/bench/baseline.txt}
save=${BENCH_SAVE:-}
gen="$top_builddir/tests/bench/gen"
calc="$top_builddir/prio-calc"
bill="$top_builddir/tres-bill"
export TZ=UTC LC_ALL=C PRIO_TOOLS_CONF=/dev/null
[ -x "$gen" ] || { echo "bench: $gen not built (make check builds it)"; exit 2; }
case $runs in '' | *[!0-9]* | 0) echo "bench: BENCH_RUNS: expected a count, got \"$runs\""; exit 2 ;; esac
mkdir -p "$out" || exit 2
[ -z "$save" ] || : >"$save" || exit 2
base_file=$baseline
[ -f "$base_file" ] || { echo "bench: no baseline $baseline: figures alone"; base_file=/dev/null; }
status=0

# measure SIZE LABEL BYTES CMD...: the median seconds and the largest RSS
# of RUNS runs, printed with MB/s of BYTES (0: none), the ratio to the
# baseline figure of SIZE/LABEL, and kept in $secs $rss for the caller.
measure() {
	m_size=$1 m_label=$2 m_bytes=$3
	shift 3
	: >"$out/.runs"
	i=0
	while [ $i -lt "$runs" ]; do
		# the clock in nanoseconds (GNU time's is in hundredths); its
		# RSS when it is there
		t0=$(date +%s%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%M" -o "$out/.time" "$@" >/dev/null 2>"$out/.stderr"
			rc=$?
		else
			"$@" >/dev/null 2>"$out/.stderr"
			rc=$?
			echo 0 >"$out/.time"
		fi
		t1=$(date +%s%N)
		# (GNU time's "Command exited with non-zero status" line first)
		echo "$(((t1 - t0) / 1000000)) $(tail -1 "$out/.time")" >>"$out/.runs"
		[ $rc = 0 ] || break
		i=$((i + 1))
	done
	secs=$(cut -d' ' -f1 "$out/.runs" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1000 }')
	rss=$(cut -d' ' -f2 "$out/.runs" | sort -n | tail -1)
	if [ $rc != 0 ]; then
		printf '  %-40s FAILED (exit %s): %s\n' "$m_label" "$rc" "$(head -1 "$out/.stderr")"
		status=2
		return 1
	fi
	[ -z "$save" ] || printf '%s|%s|%s|%s\n' "$m_size" "$m_label" "$secs" "$rss" >>"$save"
	awk -v size="$m_size" -v label="$m_label" -v s="$secs" -v r="$rss" -v b="$m_bytes" \
		-v wc="${wc_secs:-}" -v awks="${awk_secs:-}" -F'|' '
		$1 == size && $2 == label { base = $3; have = 1 }
		END {
			line = sprintf("  %-40s %7.3fs %8.0f MiB", label, s, r / 1024)
			if (b > 0 && s > 0) line = line sprintf(" %6.0f MB/s", b / s / 1e6)
			if (b > 0 && wc != "" && wc > 0) line = line sprintf("  %4.1fx wc", s / wc)
			if (b > 0 && awks != "" && s > 0) line = line sprintf("  %4.1fx faster than awk", awks / s)
			if (have && base > 0) {
				line = line sprintf("  (baseline %.3fs: %.2fx", base, s / base)
				line = line (s > base * 1.25 && s - base > 0.02 ? " SLOWER)" : ")")
			}
			print line
		}' "$base_file" /dev/null
}

# to_multiline: scontrol show job -o lines as scontrol show job -d prints
# them: a few fields per line, indented, free text alone on its line,
# a blank line after each job
to_multiline() {
	awk '{
		n = split($0, w, " "); line = ""; k = 0
		for (i = 1; i <= n; i++) {
			if (w[i] !~ /^[A-Za-z_:\/]+=/ && line != "") { line = line " " w[i]; continue }
			free = w[i] ~ /^(Command|WorkDir|StdErr|StdIn|StdOut|Comment)=/
			if (line != "" && (k == 4 || free)) { print line; line = "   "; k = 0 }
			line = line (line == "" || line == "   " ? "" : " ") w[i]; k++
			if (free) { print line; line = "   "; k = 0 }
		}
		if (line != "" && line != "   ") print line
		print ""
	}'
}

for size in $sizes; do
	dir="$out/$size"
	if [ ! -f "$dir/NOW" ]; then
		echo "generating $size in $dir"
		t0=$(date +%s)
		"$gen" "$size" "$dir" || { echo "bench: generation of $size failed"; exit 2; }
		echo "  generated in $(($(date +%s) - t0)) s"
	fi
	jobs_bytes=$(stat -c %s "$dir/jobs.txt")
	sacct_bytes=$(stat -c %s "$dir/sacct.txt")
	now=$(cat "$dir/NOW")
	echo "size $size: jobs.txt $((jobs_bytes / 1048576)) MiB ($(wc -l <"$dir/jobs.txt") jobs), sacct.txt $((sacct_bytes / 1048576)) MiB ($(($(wc -l <"$dir/sacct.txt") - 1)) records); $runs runs each"

	echo " jobs, one line each (scontrol show job -o)"
	wc_secs="" awk_secs=""
	measure "$size" "wc -l jobs.txt" "$jobs_bytes" wc -l "$dir/jobs.txt" && wc_secs=$secs
	measure "$size" "awk Priority= scan" "$jobs_bytes" \
		awk -F'Priority=' '{ split($2, a, " "); s += a[1] } END { print s }' "$dir/jobs.txt" &&
		awk_secs=$secs
	measure "$size" "prio-calc --jobs --check" "$jobs_bytes" "$calc" --jobs "$dir/jobs.txt" --check
	measure "$size" "prio-calc --snapshot --check" "$jobs_bytes" "$calc" --snapshot "$dir" --check
	for args in "-l" "-l -n" "-S -y"; do
		# shellcheck disable=SC2086
		measure "$size" "prio-calc $args" "$jobs_bytes" "$calc" --snapshot "$dir" $args
	done
	measure "$size" "prio-calc -l --json" "$jobs_bytes" "$calc" --snapshot "$dir" -l --json
	"$calc" --snapshot "$dir" -l >"$out/$size-l.txt" 2>/dev/null

	# the same queue in the several-lines shape, in a folder that shares
	# the rest of the snapshot
	md="$out/$size-d"
	if [ ! -f "$md/jobs.txt" ] || [ "$md/jobs.txt" -ot "$dir/jobs.txt" ]; then
		mkdir -p "$md"
		for f in "$dir"/*; do
			[ "$(basename "$f")" = jobs.txt ] || ln -sf "$f" "$md/"
		done
		to_multiline <"$dir/jobs.txt" >"$md/jobs.txt"
	fi
	md_bytes=$(stat -c %s "$md/jobs.txt")
	echo " jobs, several lines each (scontrol show job -d): $((md_bytes / 1048576)) MiB"
	wc_secs="" awk_secs=""
	measure "$size" "wc -l jobs.txt (-d)" "$md_bytes" wc -l "$md/jobs.txt" && wc_secs=$secs
	measure "$size" "awk Priority= scan (-d)" "$md_bytes" \
		awk -F'Priority=' 'NF > 1 { split($2, a, " "); s += a[1] } END { print s }' "$md/jobs.txt" &&
		awk_secs=$secs
	measure "$size" "prio-calc -l (-d)" "$md_bytes" "$calc" --snapshot "$md" -l
	# both shapes are one queue: one table
	if ! "$calc" --snapshot "$md" -l 2>/dev/null | cmp -s - "$out/$size-l.txt"; then
		echo "  prio-calc -l: the several-lines shape gives another table than the one-line shape"
		status=2
	fi

	echo " accounting (sacct -P)"
	wc_secs="" awk_secs=""
	measure "$size" "wc -l sacct.txt" "$sacct_bytes" wc -l "$dir/sacct.txt" && wc_secs=$secs
	measure "$size" "prio-calc --sacct --check" "$sacct_bytes" "$calc" --sacct "$dir/sacct.txt" --check
	from=$(date -u -d "@$((now - 31 * 86400))" +%Y-%m-%dT%H:%M:%S)
	to=$(date -u -d "@$now" +%Y-%m-%dT%H:%M:%S)
	measure "$size" "tres-bill cluster AcctUtilByUser" "$sacct_bytes" \
		"$bill" --snapshot "$dir" cluster AccountUtilizationByUser start="$from" end="$to"
	measure "$size" "tres-bill user TopUsage --decayed" "$sacct_bytes" \
		"$bill" --snapshot "$dir" --decayed user TopUsage start="$from" end="$to"
	measure "$size" "tres-bill --verify" "$sacct_bytes" "$bill" --snapshot "$dir" --verify

	echo " fairshare and the forecast"
	wc_secs="" awk_secs=""
	if [ -x "$top_builddir/tests/bench/fstree-bench" ]; then
		"$top_builddir/tests/bench/fstree-bench" --assoc "$dir/sshare.txt" 2>&1 | sed 's/^/  fstree-bench: /'
	fi
	measure "$size" "fstree-show -l" 0 "$top_builddir/fstree-show" --snapshot "$dir" -l
	case $size in
	S | M)
		measure "$size" "prio-calc --forecast (1h)" 0 "$calc" --snapshot "$dir" --forecast \
			--forecast-until "$(date -u -d "@$((now + 3600))" +%Y-%m-%dT%H:%M:%SZ)"
		# the first job of the scheduling order (--rank; the forecast
		# stops once it starts), the second, and on S the median of the queue
		# (days of simulated time: on M that is minutes)
		"$calc" --snapshot "$dir" --rank -P -h 2>/dev/null | cut -d'|' -f5 >"$out/.order"
		first=$(awk 'NR == 1 { print $1 }' "$out/.order")
		[ -n "$first" ] && measure "$size" "prio-calc --explain (first in order)" 0 \
			"$calc" --snapshot "$dir" --explain "$first"
		# the second: a job ahead of it, so its explanation searches
		# over time (every calculation until nothing moves)
		second=$(awk 'NR == 2 { print $1 }' "$out/.order")
		[ -n "$second" ] && measure "$size" "prio-calc --explain (second in order)" 0 \
			"$calc" --snapshot "$dir" --explain "$second"
		mid=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$out/.order")
		[ "$size" = S ] && [ -n "$mid" ] && measure "$size" "prio-calc --explain (median job)" 0 \
			"$calc" --snapshot "$dir" --explain "$mid"
		;;
	esac
	if [ -x "$top_builddir/tests/bench/top-bench" ]; then
		"$top_builddir/tests/bench/top-bench" "$dir" 2>&1 | sed 's/^/  top-bench: /'
	fi
done
[ -z "$save" ] || echo "bench: figures written to $save"
exit $status
