#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc prints the sprio of the snapshot's Slurm release (report_sprio's
# release table, from each release's src/sprio), shown on a real 22.05
# capture (tests/oracle/fairtree-basic) read as each release with
# --slurm-version:
#  - 22.05: -l, -w and the default layout are the capture itself; %o %n %s
#    are "Invalid job format specification" and -S o is refused;
#  - 23.02 to 26.05: -l has ACCOUNT after USER and QOSNAME before QOS (the
#    header is 24.11's own, tests/cli/writers-data/slurm-24.11-live), their
#    cells are each job's Account= and QOS= (cut to 8 and 10 characters as
#    %.8o and %.10n cut), and with those two columns taken out the rows are
#    22.05's sprio -l exactly; the default layout and -w did not change;
#    -S o and -S n sort; -j matching no job prints the header alone;
#  - 26.05: %s (SLUID) is a letter, refused because no input carries SLUIDs.
set -u
. tests/cli/calc-oracle.lib
calc_setup
s=fairtree-basic
o=tests/oracle/$s
calc_snapshot "$s" "$tmp/$s" || { echo "cannot build the snapshot"; exit 2; }
now=$(calc_last_calc "$s") || { echo "no priority calculation in the log"; exit 2; }
hdr2411=$(head -1 tests/cli/writers-data/slurm-24.11-live/sprio_l.txt)

# job id -> "account qos" from scontrol show job -d
awk '/^JobId=/ { split($1, a, "="); id = a[2] }
     / Account=/ { for (i = 1; i <= NF; i++) {
		if ($i ~ /^Account=/) acc = substr($i, 9)
		if ($i ~ /^QOS=/) q = substr($i, 5) }
	print id, acc, q }' "$o/scontrol_show_job_d.txt" >"$tmp/names"

fail() { echo "$r: $*"; status=1; }

for r in 22.05 23.02 23.11 24.05 24.11 25.05 25.11 26.05; do
	pc="prio-calc --snapshot $tmp/$s --now $now --slurm-version $r"
	$pc -l >"$tmp/l" 2>"$tmp/err" || { fail "-l: exit $?"; cat "$tmp/err"; continue; }
	$pc >"$tmp/d" 2>&1 || fail "default: exit $?"
	cmp -s "$tmp/d" "$o/sprio.txt" || fail "the default layout differs from sprio.txt"
	$pc -w >"$tmp/w" 2>&1 || fail "-w: exit $?"
	cmp -s "$tmp/w" "$o/sprio_w.txt" || fail "-w differs from sprio_w.txt"
	$pc -o '%.6i|%o|%n|%s|%.5Y' >"$tmp/o" 2>"$tmp/oerr"
	ostatus=$?
	$pc -S o >/dev/null 2>"$tmp/serr"
	sstatus=$?
	$pc -j 999999 >"$tmp/j" 2>&1
	jstatus=$?
	case $r in
	22.05)
		cmp -s "$tmp/l" "$o/sprio_l.txt" || fail "-l differs from sprio_l.txt"
		printf '%s\n' "prio-calc: error: Invalid job format specification: o" \
			"prio-calc: error: Invalid job format specification: n" \
			"prio-calc: error: Invalid job format specification: s" >"$tmp/want"
		cmp -s "$tmp/oerr" "$tmp/want" || { fail "%o %n %s not refused as sprio does"; cat "$tmp/oerr"; }
		[ "$(head -1 "$tmp/o")" = " JOBID|PRIOR" ] || fail "-o header: $(head -1 "$tmp/o")"
		[ $sstatus = 2 ] && grep -q 'Invalid sort specification: o' "$tmp/serr" ||
			fail "-S o accepted"
		[ "$(cat "$tmp/j")" = "Unable to find jobs matching user/id(s) specified" ] &&
			[ $jstatus = 1 ] || fail "-j 999999: $(cat "$tmp/j")"
		continue ;;
	26.05)
		[ $ostatus = 2 ] && grep -q '%s (SLUID): job SLUIDs are not read' "$tmp/oerr" ||
			fail "%s not refused (exit $ostatus)" ;;
	*)
		grep -q 'Invalid job format specification: s' "$tmp/oerr" ||
			fail "%s is not an invalid letter"
		# the table is printed as sprio prints it, the status says
		# part of the format was not done
		[ $ostatus = 2 ] || fail "-o: exit $ostatus" ;;
	esac
	[ $sstatus = 0 ] || fail "-S o: exit $sstatus"
	[ "$(wc -l <"$tmp/j")" = 1 ] && head -1 "$tmp/j" | grep -q '^ *JOBID PARTITION  *PRIORITY' &&
		[ $jstatus = 1 ] || fail "-j 999999: not the header alone: $(head -2 "$tmp/j")"
	[ "$(head -1 "$tmp/l")" = "$hdr2411" ] || fail "-l header: $(head -1 "$tmp/l")"
	# ACCOUNT is %.8o (columns 36-43, after "%.15i %9r %.8u "), QOSNAME
	# %.10n (columns 122-131, after seven 11-wide columns); both
	# right-justified and cut
	awk -v names="$tmp/names" '
		BEGIN { while ((getline l < names) > 0) { split(l, f, " "); acc[f[1]] = f[2]; q[f[1]] = f[3] } }
		NR == 1 { next }
		{
			id = $1 + 0
			a = substr($0, 36, 8); sub(/^ */, "", a)
			n = substr($0, 122, 10); sub(/^ */, "", n)
			if (a != substr(acc[id], 1, 8) || n != substr(q[id], 1, 10)) {
				printf "job %s: ACCOUNT \"%s\" QOSNAME \"%s\", jobs.txt says %s %s\n", id, a, n, acc[id], q[id]
				bad = 1
			}
		}
		END { exit bad }' "$tmp/l" || fail "ACCOUNT/QOSNAME cells"
	# without the two columns (9 and 11 characters with their space) the
	# rows are 22.05's
	awk '{ print substr($0, 1, 35) substr($0, 45, 77) substr($0, 133) }' "$tmp/l" | tail -n +2 >"$tmp/cut"
	tail -n +2 "$o/sprio_l.txt" | cmp -s - "$tmp/cut" || { fail "-l rows without ACCOUNT/QOSNAME differ from 22.05's"; diff "$tmp/cut" "$o/sprio_l.txt" | head -5; }
	# -o cells, untruncated
	tail -n +2 "$tmp/o" | awk -F'|' -v names="$tmp/names" '
		BEGIN { while ((getline l < names) > 0) { split(l, f, " "); acc[f[1]] = f[2]; q[f[1]] = f[3] } }
		{ id = $1 + 0; if ($2 != acc[id] || $3 != q[id]) { print "job " id ": -o " $2 " " $3; bad = 1 } }
		END { exit bad }' || fail "-o %o|%n cells"
done
exit $status
