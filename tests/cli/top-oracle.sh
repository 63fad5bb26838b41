#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top's screen against real Slurm 22.05 (tests/oracle/): for every
# scenario with sprio captures, the queue prio-top draws at the clock of
# Slurm's last priority calculation, and for the Fair Tree ones the tree.
#
# Queue: every (JOBID, PARTITION) sprio -l listed is on screen once and
# nothing else is; its PRIORITY is sprio's, exactly, except under classic
# and DEPTH_OBLIVIOUS fairshare where sshare's integer RawUsage leaves the
# last digit open (the tolerance of calc-oracle.lib's calc_tolerances, as a
# fraction of the fairshare weight, plus 1 for rounding).  Each bar shows sprio's weighted terms: the bar's length is
# PRIORITY / the highest PRIORITY x its width, and each letter's count is
# the term's share of it (AGE A, ASSOC B, FAIRSHARE F, JOBSIZE J, PARTITION
# P, QOS Q, and T for TRES, what the others leave of PRIORITY as sprio cuts
# its TRES column), both within one cell: cells are whole, and sprio's
# columns are rounded.
#
# Tree: for each association sshare -a -l -P printed, Level FS on screen
# (three decimals) is sshare's within its rounding (0.0005) and what
# sshare's RawUsage truncated to an integer can move it by (usage is in
# [RawUsage, RawUsage + 1): Level FS = S / U moves by 2 / RawUsage of itself
# at most, the branch's own usage and its siblings' sum), and a user's rank
# r/N is sshare's FairShare (r/N to six decimals).
set -u
command -v prio-top >/dev/null 2>&1 || { echo "prio-top not built (no ncursesw): skipped"; exit 0; }
. tests/cli/calc-oracle.lib
calc_setup

for s in $CALC_SCENARIOS; do
	o=tests/oracle/$s
	calc_snapshot "$s" "$tmp/$s" || { echo "$s: cannot build the snapshot"; status=1; continue; }
	now=$(calc_last_calc "$s") || { echo "$s: no calculation in slurmctld.log"; status=1; continue; }
	tol=0
	case $(calc_tolerances "$s") in
	FAIRSHARE=*)
		frac=$(calc_tolerances "$s" | sed 's/^FAIRSHARE=//')
		w=$(calc_weights prio-calc --snapshot "$tmp/$s" --now "$now" | tr ',' '\n' | sed -n 's/^FAIRSHARE=//p')
		tol=$(awk -v w="$w" -v f="$frac" 'BEGIN { print f * w + 1 }') ;;
	esac
	rows=$(($(wc -l <"$o/sprio_l.txt") + 12))
	prio-top --snapshot "$tmp/$s" --now "$now" --once --size "200x$rows" \
		>"$tmp/queue" 2>"$tmp/err" || { echo "$s: prio-top failed"; cat "$tmp/err"; status=1; continue; }
	awk -v scen="$s" -v tol="$tol" '
	function abs(x) { return x < 0 ? -x : x }
	FNR == NR {
		if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = col[$i] ? col[$i] : i; next }
		key = $1 "/" $2
		prio[key] = $4
		# the weighted terms; TRES is what the others leave of PRIORITY
		# (sprio cuts its TRES column to 20 characters)
		t["A"] = $6; t["B"] = $7; t["F"] = $8; t["J"] = $9; t["P"] = $10; t["Q"] = $11
		t["T"] = $4 - ($5 + $6 + $7 + $8 + $9 + $10 + $11 - $12)
		if (t["T"] < 8) t["T"] = 0 # the other terms rounded
		for (l in t) term[key, l] = t[l]
		if ($4 > top) top = $4
		want++
		next
	}
	/^ RANK / { title = 1; bar0 = index($0, "FACTORS"); bar1 = index($0, "REASON"); next }
	!title || $1 !~ /^[0-9]+$/ { next }
	{
		key = $2 "/" $5
		if (!(key in prio)) { printf "%s: job %s is on screen, sprio did not list it\n", scen, key; bad = 1; next }
		if (key in seen) { printf "%s: %s twice\n", scen, key; bad = 1 }
		seen[key] = 1; got++
		if (abs($7 - prio[key]) > tol) {
			printf "%s: job %s priority %s, sprio %s\n", scen, key, $7, prio[key]; bad = 1
		}
		# the bar: letters between the FACTORS and REASON columns
		b = substr($0, bar0, bar1 - bar0); gsub(/ /, "", b)
		width = bar1 - bar0 - 1
		fill = length(b); want_fill = prio[key] / top * width
		if (abs(fill - want_fill) > 1 + tol / top * width) {
			printf "%s: job %s bar of %d cells, sprio says %.1f\n", scen, key, fill, want_fill; bad = 1
		}
		sum = 0
		for (l in t) sum += term[key, l] > 0 ? term[key, l] : 0
		for (l in t) {
			c = gsub(l, l, b)
			e = sum > 0 && term[key, l] > 0 ? term[key, l] / sum * fill : 0
			if (abs(c - e) > 1 + tol / top * width) {
				printf "%s: job %s bar has %d %s, sprio %s of %s says %.1f\n", scen, key, c, l, term[key, l], sum, e
				bad = 1
			}
		}
	}
	END {
		if (got != want) { printf "%s: %d queue lines, sprio listed %d\n", scen, got, want; bad = 1 }
		exit bad
	}' "$o/sprio_l.txt" "$tmp/queue" || { status=1; sed 's/^/    |/' "$tmp/queue" | head -30; }

	# the tree, for the Fair Tree scenarios
	grep -q LevelFS "$o/sshare_a_l_P.txt" || continue
	n=$(wc -l <"$o/sshare_a_l_P.txt")
	prio-top --snapshot "$tmp/$s" --now "$now" --once --size "200x$((n + 12))" \
		--view tree >"$tmp/tree" 2>"$tmp/err" || { echo "$s: prio-top --view tree failed"; status=1; continue; }
	awk -F'|' -v scen="$s" '
	function abs(x) { return x < 0 ? -x : x }
	function trim(x) { sub(/^ +/, "", x); sub(/ +$/, "", x); return x }
	FNR == NR {
		if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
		a = trim($c["Account"]); u = $c["User"]
		key = u == "" ? a : a "/" u
		lfs[key] = $c["LevelFS"]; fs[key] = $c["FairShare"]; raw[key] = $c["RawUsage"]
		want++
		next
	}
	/^ACCOUNT \/ USER/ {
		title = 1
		e_lfs = index($0, "LEVELFS") + 6
		next
	}
	!title || !/[a-z]/ { next }
	{
		line = $0
		if (match(line, /^[v>] /)) depth = 0
		else if (match(line, /^((\|   |    )*)[|`]-[-v>] /)) depth = RLENGTH / 4
		else next
		rest = substr(line, RLENGTH + 1); split(rest, w, " "); name = w[1]
		user = substr(line, RLENGTH - 1, 1) == "-" && depth > 0
		if (!user) acct[depth] = name
		key = user ? acct[depth - 1] "/" name : name
		got++
		if (!(key in lfs)) { printf "%s: %s is on screen, not in sshare\n", scen, key; bad = 1; next }
		mine = trim(substr(line, e_lfs - 6, 7)); theirs = lfs[key]
		if (theirs == "inf" || mine == "inf" || theirs == "" || mine == "") {
			if (mine != theirs) { printf "%s: %s Level FS %s, sshare %s\n", scen, key, mine, theirs; bad = 1 }
		} else if (abs(mine - theirs) > 0.0005 + 1e-6 + theirs * 2 / (raw[key] > 0 ? raw[key] : 1e300)) {
			printf "%s: %s Level FS %s, sshare %s\n", scen, key, mine, theirs; bad = 1
		}
		if (user) {
			if (!match(line " ", / [0-9]+\/[0-9]+ /)) { printf "%s: %s has no rank\n", scen, key; bad = 1; next }
			r = substr(line, RSTART + 1, RLENGTH - 2)
			split(r, rn, "/")
			if (abs(rn[1] / rn[2] - fs[key]) > 5e-7) {
				printf "%s: %s rank %s, sshare FairShare %s\n", scen, key, r, fs[key]; bad = 1
			}
		}
	}
	END {
		if (got != want) { printf "%s: %d tree lines, sshare printed %d\n", scen, got, want; bad = 1 }
		exit bad
	}' "$o/sshare_a_l_P.txt" "$tmp/tree" || { status=1; sed 's/^/    |/' "$tmp/tree" | head -30; }
done
exit $status
