#!/bin/sh
# SPDX-License-Identifier: MIT
# The tools against real Slurm 24.11.5 (tests/oracle/slurm-24.11-*, captured
# by the live test in a Debian 13 chroot): each scenario's artefacts, as
# 24.11 prints them, make a snapshot folder (scontrol show config with
# SLURM_VERSION, partitions, drained nodes with their Reason= line, jobs
# with ReqTRES=/AllocTRES=, sacctmgr's QOS with 24.11's columns, sshare's
# raw columns and the dump).  At the clock of Slurm's last priority
# calculation (last_calc), which prio-calc finds by itself from the stored
# job priorities (no --now; calc-oracle-clock.sh checks the instant), but
# for classic from the truncated sshare -P (its fairshare cannot give
# Slurm's stored priorities: --now last_calc, and a tolerance):
#  - prio-calc -l, the default layout, -l -n, -w and a format with every
#    letter (23.02's %o ACCOUNT and %n QOSNAME included) equal sprio's
#    captures byte for byte (classic: FAIRSHARE within RawUsage's
#    truncation, calc-oracle.lib);
#  - the same from `scontrol show job -d -o` and from `squeue --json`;
#  - with `sshare --json` as the association source, sprio -l byte for
#    byte in every scenario, classic included (exact usage ratios);
#  - fstree-show --audit agrees with every cell of sshare -a -l -P;
#  - tres-bill --verify agrees with every billing= Slurm stored;
#  - multi-qos (jobs submitted with several QOS): a row per QOS as above,
#    the list refused as 23.11's, --explain, prio-top and a --set list.
set -u
. tests/cli/calc-oracle.lib
calc_setup

fail() { echo "FAIL $*"; status=1; }

# same_sprio OURS SLURM TOLS WEIGHTS: byte for byte, or within TOLS
same_sprio() {
	if [ -z "$3" ]; then
		cmp -s "$1" "$2" || { diff "$2" "$1" | head -20; return 1; }
	else
		calc_compare "$1" "$2" ws "$4" "$3"
	fi
}

# run WHAT COMMAND...: the command's output in $tmp/out, a FAIL line with
# its message when it fails
run() {
	what=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" && return 0
	fail "$what: exit $?: $(head -3 "$tmp/err")"
	return 1
}

for s in fairtree classic max-tres multi-qos; do
	o=tests/oracle/slurm-24.11-$s
	d=$tmp/$s
	mkdir -p "$d"
	cp "$o/scontrol_show_config.txt" "$d/config.txt"
	cp "$o/scontrol_show_partition.txt" "$d/partitions.txt"
	cp "$o/scontrol_show_node.txt" "$d/nodes.txt"
	cp "$o/sacctmgr_show_qos.txt" "$d/qos.txt"
	cp "$o/sacctmgr_dump.cfg" "$d/assoc.cfg"
	cp "$o/sacct_a_P_X.txt" "$d/sacct.txt"
	# raw columns only: Slurm's computed ones must not reach the engine
	cut -d'|' -f1,2,3,5 "$o/sshare_a_l_P.txt" >"$d/sshare.txt"
	cp "$o/scontrol_show_job_d.txt" "$d/jobs.txt"
	cp "$o/NOW" "$d/NOW"
	now=$(TZ=UTC date -d "$(cat "$o/last_calc")" +%s)
	tols=""
	pc="prio-calc --snapshot $d"
	case $(cat "$o/draw") in
	*NO_FAIR_TREE*)
		tols="FAIRSHARE=$(fs_truncation_tolerance "$o/sshare_a_l_P.txt")"
		pc="$pc --now $now"
		;;
	esac

	if run "$s: prio-calc --check" $pc --check -P; then
		grep -qx 'slurm|version||24.11 (from scontrol show config)' "$tmp/out" ||
			fail "$s: the release is not 24.11 from the config: $(grep '^slurm|' "$tmp/out")"
	fi
	weights=$(calc_weights $pc)
	for t in "sprio_l.txt:-l" "sprio.txt:" "sprio_l_n.txt:-l -n" "sprio_w.txt:-w"; do
		f=${t%%:*} args=${t#*:}
		# shellcheck disable=SC2086
		run "$s: prio-calc $args" $pc $args || continue
		same_sprio "$tmp/out" "$o/$f" "$tols" "$weights" ||
			fail "$s: prio-calc $args differs from 24.11's $f"
	done
	fmt='%.15i %9r %.8u %.10o %.10n %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T'
	if run "$s: prio-calc -o" $pc -o "$fmt"; then
		same_sprio "$tmp/out" "$o/sprio_o_account_qosname.txt" "$tols" "$weights" ||
			fail "$s: prio-calc -o (%o ACCOUNT, %n QOSNAME) differs from 24.11's sprio -o"
	fi

	# the same queue from the one-line form and from squeue --json
	$pc -l >"$tmp/ref" 2>/dev/null
	for j in "$o/scontrol_show_job_d_o.txt:scontrol show job -d -o" \
		"$o/squeue_json.txt:squeue --json (v0.0.42)"; do
		run "$s: prio-calc -l --jobs ${j#*:}" $pc -l --jobs "${j%%:*}" || continue
		cmp -s "$tmp/out" "$tmp/ref" ||
			{ fail "$s: ${j#*:} gives another sprio -l"; diff "$tmp/ref" "$tmp/out" | head; }
	done

	# sshare --json's usage ratios are exact (23.11+): with it in place of
	# the truncated -P text, classic fairshare needs no tolerance either
	mkdir -p "$d-json"
	cp "$d"/* "$d-json/"
	rm "$d-json/sshare.txt"
	cp "$o/sshare_a_json.txt" "$d-json/sshare.json"
	if run "$s: prio-calc -l from sshare --json" prio-calc --snapshot "$d-json" -l; then
		cmp -s "$tmp/out" "$o/sprio_l.txt" ||
			{ fail "$s: prio-calc -l from sshare --json is not 24.11's sprio -l"; diff "$o/sprio_l.txt" "$tmp/out" | head; }
	fi

	run "$s: fstree-show --audit of 24.11's sshare -a -l -P" \
		fstree-show --snapshot "$d" --now "$now" --no-lag -P --audit "$o/sshare_a_l_P.txt" ||
		head -10 "$tmp/out"
	run "$s: tres-bill --verify (every billing= of 24.11)" \
		tres-bill --snapshot "$d" --verify || head -10 "$tmp/out"

	[ "$s" = multi-qos ] || continue
	# jobs 22 (--qos low,high) and 23 (--qos mid,normal,low): before
	# 24.11 a job has one QOS, so the list is refused where it was read
	want="prio-calc: $d/jobs.txt:619: QOS: job 22: several QOS \"low,high\" (Slurm 23.11 has one QOS per job; several came with 24.11)"
	if $pc -l --slurm-version 23.11 >"$tmp/out" 2>"$tmp/err"; then
		fail "$s: a QOS list read as 23.11 is not refused"
	elif [ "$(cat "$tmp/err")" != "$want" ]; then
		fail "$s: 23.11 refusal: $(cat "$tmp/err")"
	fi
	# --explain and prio-top take the QOS of each entry
	if run "$s: prio-calc --explain 23" $pc --explain 23; then
		grep -q '^It has several QOS (mid, normal, low; ' "$tmp/out" ||
			fail "$s: --explain 23 does not name its QOS"
	fi
	if run "$s: prio-top --once" prio-top --snapshot "$d" --once; then
		got=$(awk '$2 == 23 { printf "%s/%s ", $6, $7 }' "$tmp/out")
		[ "$got" = "mid/5315 normal/5235 low/5217 " ] ||
			fail "$s: prio-top's entries of job 23: $got"
	fi
	# a what-if list: job 8 (QOS high) with low too keeps sprio's high row
	if run "$s: --set job:8.QOS=low,high" $pc -j 8 -o '%.5i %.10n %.10Y' \
		--set job:8.QOS=low,high; then
		awk 'NR == 2 && ($2 != "high" || $3 != 4921) { exit 1 }
			NR == 3 && $2 != "low" { exit 1 } END { if (NR != 3) exit 1 }' \
			"$tmp/out" || fail "$s: job 8 as high,low: $(cat "$tmp/out")"
	fi
done

exit $status
