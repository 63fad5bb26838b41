#!/bin/sh
# SPDX-License-Identifier: MIT
# fstree-show against real sshare 22.05 output, for every oracle scenario
# with sshare captures.  Inputs: the scenario's slurm.conf and, from
# sshare_a_l_P.txt, only the raw columns Account,User,RawShares,RawUsage
# (cut here with awk); every derived value is ours.
#
# 1. Layout and exact columns, line by line, for `-a -l -P`, `-a -l` and `-a`
#    against sshare_a_l_P.txt, sshare_a_l.txt and sshare_a.txt: headers,
#    dash rows, row order, indentation, widths, blanks, "parent", "inf"
#    positions and every exact column (Account, User, RawShares,
#    NormShares, RawUsage, GrpTRESMins, and FairShare under Fair Tree) must
#    be byte-identical.  Usage-derived cells (NormUsage, EffectvUsage,
#    LevelFS, classic FairShare) are masked here, because sshare printed
#    RawUsage truncated to an integer and so our recomputation can differ
#    in the last digits; step 2 checks them.  TRESRunMins (a limits
#    counter of running jobs' remaining time, which depends on when
#    slurmctld last ran its cycle and is not fairshare) is masked too.
# 2. Usage-derived cells: `fstree-show --audit CAPTURE` recomputes every
#    value with interval arithmetic over RawUsage in [RawUsage, RawUsage+1)
#    and requires Slurm's printed value (+-5e-7 for its rounding) to lie in
#    that interval.  It must exit 0 under Fair Tree.
# 3. Classic and DEPTH_OBLIVIOUS: Slurm computes *account* rows'
#    NormUsage/EffectvUsage at the start of a cycle from the previous
#    cycle's raw usage (tests/oracle/README.md), and user rows' EffectvUsage
#    and every FairShare use the parent account's lagging EffectvUsage.  So
#    the audit may report exactly those cells -- never RawShares,
#    NormShares, RawUsage or a user's NormUsage -- and each must lie within
#    LAG of our interval, relative: one PriorityCalcPeriod (60 s) of these
#    scenarios' running jobs (ten 4-CPU blockers) against a 600 s
#    half-life moves usage ratios by a few percent (4.6% at most here);
#    LAG = 6% bounds one cycle of that change.  A second cycle's lag, a
#    wrong formula or a wrong tree exceed it.  (Step 4 then models the lag
#    from the running jobs and needs no tolerance.)
set -u
LAG=0.06
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
oracle=tests/oracle
status=0

fail() { echo "$*"; status=1; }

# cut FILE COLUMNS... : keep the named columns of a -P file
cut_cols() {
	file=$1; shift
	awk -F'|' -v want="$*" 'BEGIN { OFS = "|"; n = split(want, w, " ") }
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
		{ line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "|" : "") $(col[w[k]]); print line }' "$file"
}

# masked FILE MASKED-HEADERS : -P rows with the named columns replaced by #
# (blank or not: whether a derived cell is blank is the audit's check)
mask_parsable() {
	awk -F'|' -v mask="$2" 'BEGIN { OFS = "|"; n = split(mask, m, " "); for (k = 1; k <= n; k++) skip[m[k]] = 1 }
		NR == 1 { for (i = 1; i <= NF; i++) hide[i] = ($i in skip); print; next }
		{ for (i = 1; i <= NF; i++) if (hide[i]) $i = "#"; print }' "$1"
}

# masked FILE MASKED-HEADERS : plain text with the named columns filled
# with '#', column extents taken from the dash row
mask_text() {
	awk -v mask="$2" 'BEGIN { n = split(mask, m, " "); for (k = 1; k <= n; k++) skip[m[k]] = 1 }
		NR == 1 { header = $0; print; next }
		NR == 2 {
			pos = 1; nf = 0
			while (pos <= length($0)) {
				rest = substr($0, pos); len = index(rest, " ") - 1
				if (len < 0) len = length(rest)
				nf++; start[nf] = pos; width[nf] = len
				name = substr(header, pos, len); gsub(/ /, "", name)
				hide[nf] = (name in skip)
				pos += len + 1
			}
			print; next
		}
		{
			line = $0
			for (f = 1; f <= nf; f++) {
				if (!hide[f]) continue
				hashes = sprintf("%*s", width[f], ""); gsub(/ /, "#", hashes)
				line = substr(line, 1, start[f] - 1) hashes substr(line, start[f] + width[f])
			}
			print line
		}' "$1"
}

for scen in fairtree-basic fairtree-restart classic depth-oblivious seed-hierarchy \
	flags-favor-small flags-max-tres flags-no-normal-all; do
	dir=$oracle/$scen
	conf=$dir/slurm.conf
	case $scen in
	classic | depth-oblivious) fair_tree=0 derived="NormUsage EffectvUsage LevelFS FairShare" ;;
	*) fair_tree=1 derived="NormUsage EffectvUsage LevelFS" ;;
	esac
	cut_cols "$dir/sshare_a_l_P.txt" Account User RawShares RawUsage >"$tmp/in.txt"
	run() { fstree-show --conf "$conf" --assoc "$tmp/in.txt" "$@"; }

	# 1. layout and exact columns
	run -a -l -P >"$tmp/ours.P" || { fail "$scen: fstree-show -a -l -P failed"; continue; }
	mask_parsable "$tmp/ours.P" "$derived TRESRunMins" >"$tmp/a"
	mask_parsable "$dir/sshare_a_l_P.txt" "$derived TRESRunMins" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || { fail "$scen: -a -l -P differs:"; diff "$tmp/b" "$tmp/a" | head -10; }
	run -a -l >"$tmp/ours.l" || fail "$scen: fstree-show -a -l failed"
	mask_text "$tmp/ours.l" "$derived TRESRunMins" >"$tmp/a"
	mask_text "$dir/sshare_a_l.txt" "$derived TRESRunMins" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || { fail "$scen: -a -l differs:"; diff "$tmp/b" "$tmp/a" | head -10; }
	run -a >"$tmp/ours.a" || fail "$scen: fstree-show -a failed"
	mask_text "$tmp/ours.a" "$derived" >"$tmp/a"
	mask_text "$dir/sshare_a.txt" "$derived" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || { fail "$scen: -a differs:"; diff "$tmp/b" "$tmp/a" | head -10; }

	# 2. and 3. usage-derived values against the truncation interval
	for capture in sshare_a_l_P.txt sshare_a_l.txt sshare_a.txt; do
		run -P --audit "$dir/$capture" >"$tmp/audit" 2>"$tmp/err"
		rc=$?
		if [ $fair_tree = 1 ]; then
			[ $rc = 0 ] || { fail "$scen: --audit $capture exit $rc:"; head -5 "$tmp/audit" "$tmp/err"; }
			continue
		fi
		[ $rc = 0 ] || [ $rc = 1 ] || { fail "$scen: --audit $capture exit $rc"; cat "$tmp/err"; continue; }
		awk -F'|' -v lag=$LAG -v where="$scen $capture" 'NR > 1 {
			field = $4; user = $2; slurm = $6 + 0; lo = $7 + 0; hi = $8 + 0
			if (!(field == "EffectvUsage" || field == "FairShare" ||
			      (field == "NormUsage" && user == ""))) {
				print where ": " $1 "/" user " " field " is not a lagging column: " $0; bad = 1; next
			}
			d = slurm < lo ? lo - slurm : slurm - hi
			if (d > lag * hi) { print where ": " $1 "/" user " " field " beyond one cycle: " $0; bad = 1 }
		} END { exit bad }' "$tmp/audit" || status=1
	done
done

# 4. Classic and DEPTH_OBLIVIOUS with Slurm's lag modelled: given the running
#    jobs (scontrol_show_job_d.txt), the time of Slurm's last cycle
#    (slurmctld.log) and the association ids (the ID column of the same
#    moment's sshare_a_l_P_o_all.txt: the controller lists siblings by id,
#    newest first, which decides DEPTH_OBLIVIOUS's update order), fstree-show
#    reproduces the lagging rows and the audit exits 0 with no tolerance.
for scen in classic depth-oblivious; do
	dir=$oracle/$scen
	last=$(grep '_apply_new_usage' "$dir/slurmctld.log" | tail -1 | cut -c2-20)
	cut_cols "$dir/sshare_a_l_P.txt" Account User RawShares RawUsage >"$tmp/a"
	cut_cols "$dir/sshare_a_l_P_o_all.txt" ID >"$tmp/b"
	paste -d'|' "$tmp/a" "$tmp/b" >"$tmp/in.txt"
	for capture in sshare_a_l_P.txt sshare_a_l.txt sshare_a.txt; do
		fstree-show --conf "$dir/slurm.conf" --assoc "$tmp/in.txt" --now "$last" \
			--jobs "$dir/scontrol_show_job_d.txt" --qos "$dir/sacctmgr_show_qos.txt" \
			-P --audit "$dir/$capture" >"$tmp/audit" 2>&1 ||
			{ fail "$scen: lag-modelled --audit $capture:"; head -5 "$tmp/audit"; }
	done
done

# -o with every field (sshare_a_l_P_o_all.txt) and widths (sshare_a_o_all_wide.txt):
# identity columns come from the capture too, derived ones are ours.
dir=$oracle/fairtree-basic
cut_cols "$dir/sshare_a_l_P_o_all.txt" Account User Cluster Partition ID RawShares RawUsage >"$tmp/in.txt"
all=Account,User,Cluster,Partition,ID,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins,GrpTRESRaw,TRESRunMins
fstree-show --conf "$dir/slurm.conf" --assoc "$tmp/in.txt" -a -l -P -o $all >"$tmp/ours" ||
	fail "-o all failed"
mask_parsable "$tmp/ours" "NormUsage EffectvUsage LevelFS GrpTRESRaw TRESRunMins" >"$tmp/a"
mask_parsable "$dir/sshare_a_l_P_o_all.txt" "NormUsage EffectvUsage LevelFS GrpTRESRaw TRESRunMins" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { fail "-o all differs:"; diff "$tmp/b" "$tmp/a" | head -10; }
wide=Account%30,User%12,ID,RawShares,NormShares%14,RawUsage%14,NormUsage%14,EffectvUsage%14,FairShare%14,LevelFS%16,GrpTRESRaw%120,TRESRunMins%120
fstree-show --conf "$dir/slurm.conf" --assoc "$tmp/in.txt" -a -l -o $wide >"$tmp/ours" ||
	fail "-o wide failed"
mask_text "$tmp/ours" "NormUsage EffectvUsage LevelFS GrpTRESRaw TRESRunMins" >"$tmp/a"
mask_text "$dir/sshare_a_o_all_wide.txt" "NormUsage EffectvUsage LevelFS GrpTRESRaw TRESRunMins" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { fail "-o wide differs:"; diff "$tmp/b" "$tmp/a" | head -10; }
fstree-show --conf "$dir/slurm.conf" --assoc "$tmp/in.txt" -P --audit "$dir/sshare_a_o_all_wide.txt" \
	>"$tmp/audit" || { fail "--audit of the wide capture:"; head -5 "$tmp/audit"; }
exit $status
