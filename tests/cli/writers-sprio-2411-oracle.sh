#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc against real Slurm 24.11.5 (tests/oracle/slurm-24.11-*), at
# Slurm's last priority calculation (the capture's last_calc): sprio -l,
# the default, -w, -l -n and -o with %o and %n, in 24.11's layout.  Fair
# Tree and MAX_TRES byte for byte; classic column by column, FAIRSHARE
# within the one-cycle lag of calc-oracle-lag.sh (Slurm's account effective
# usage trails RawUsage by a calculation).
#
# The snapshot is the capture's config, nodes, partitions, QOS, dump, the
# raw sshare columns and jobs.  Until the 24.11 readers are in
# (helper/readers), jobs.txt and nodes.txt are given with 22.05's
# spellings (TRES= from AllocTRES=, else ReqTRES=; no blank line before a
# node's Reason=), which changes what is read, not what is printed; the
# release still comes from the config (24.11).
set -u
. tests/cli/calc-oracle.lib
calc_setup
O=${PRIO_ORACLE_DIR:-tests/oracle}
if [ ! -d "$O/slurm-24.11-fairtree" ]; then
	echo "skipped: $O/slurm-24.11-* not there (captured on main)"
	exit 0
fi
for s in fairtree max-tres classic; do
	o=$O/slurm-24.11-$s d=$tmp/$s
	mkdir -p "$d"
	cp "$o/scontrol_show_config.txt" "$d/config.txt"
	cp "$o/sacctmgr_dump.cfg" "$d/assoc.cfg"
	cut -d'|' -f1,2,3,5 "$o/sshare_a_l_P.txt" >"$d/sshare.txt"
	cp "$o/sacctmgr_show_qos.txt" "$d/qos.txt"
	cp "$o/scontrol_show_partition.txt" "$d/partitions.txt"
	cp "$o/scontrol_show_node.txt" "$d/nodes.txt"
	cp "$o/scontrol_show_job_d.txt" "$d/jobs.txt"
	if prio-calc --snapshot "$d" --check 2>&1 |
		grep -q 'record has no TRES=\|continuation line outside'; then
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		{
			req = ""; alloc = ""
			n = split($0, f, /[ \n]+/)
			for (i = 1; i <= n; i++) {
				if (f[i] ~ /^ReqTRES=/) req = substr(f[i], 9)
				if (f[i] ~ /^AllocTRES=/) alloc = substr(f[i], 11)
			}
			t = (alloc != "" && alloc != "(null)") ? alloc : req
			sub(/ReqTRES=[^ \n]*/, "TRES=" t)
			sub(/AllocTRES=[^ \n]*/, "")
			print
		}' "$o/scontrol_show_job_d.txt" >"$d/jobs.txt"
		awk '!/^   $/' "$o/scontrol_show_node.txt" >"$d/nodes.txt"
	fi
	pc="prio-calc --snapshot $d --now $(cat "$o/last_calc")"
	$pc --check 2>&1 | grep -q 'version *24\.11 ' ||
		{ echo "$s: does not read as Slurm 24.11"; status=1; continue; }
	weights=$(calc_weights $pc)
	tols=
	# classic: sshare -P truncates RawUsage (calc-oracle.lib)
	[ $s = classic ] && tols="FAIRSHARE=$(fs_truncation_tolerance "$o/sshare_a_l_P.txt")"
	for t in "sprio_l.txt:-l" "sprio.txt:" "sprio_w.txt:-w" "sprio_l_n.txt:-l -n" \
		"sprio_o_account_qosname.txt:-o" ; do
		f=${t%%:*} args=${t#*:}
		case $args in
		-o) $pc -o '%.15i %9r %.8u %.10o %.10n %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T' ;;
		*) $pc $args ;;
		esac >"$tmp/out" 2>"$tmp/err" || { echo "$s $args: exit $?"; cat "$tmp/err"; status=1; continue; }
		if [ -z "$tols" ]; then
			cmp -s "$tmp/out" "$o/$f" || { echo "$s: prio-calc $args differs from $f"; diff "$o/$f" "$tmp/out" | head -6; status=1; }
		else
			calc_compare "$tmp/out" "$o/$f" ws "$weights" "$tols" || { echo "$s: prio-calc $args vs $f"; status=1; }
		fi
	done
done
exit $status
