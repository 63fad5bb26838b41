#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-exporter --once on the Fair Tree oracle: the exposition is well
# formed OpenMetrics, and the values are the ones a user checks against
# fstree-show -a -l -P (FairShare, Level FS, EffectvUsage), prio-calc -P
# (each job's PRIORITY and weighted terms), Slurm's own sprio and squeue of
# the capture, and the clock of Slurm's last calculation.  --max-jobs caps
# the per-job series at the highest priorities; PrivateData withholds
# per-user and per-job series unless --expose-private.
set -eu
. tests/cli/calc-oracle.lib
o=tests/oracle/fairtree-basic
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
calc_snapshot fairtree-basic "$d/s"
prio-exporter --snapshot "$d/s" --once >"$d/om"
fail() { echo "FAIL: $*"; exit 1; }

# -- format: families declared before their samples, # EOF last, label
# values quoted, one TYPE per family
[ "$(tail -1 "$d/om")" = "# EOF" ] || fail "last line is not # EOF"
[ "$(grep -c '^# EOF$' "$d/om")" = 1 ] || fail "# EOF more than once"
awk '
/^# TYPE / { if ($3 in typed) { print "family twice: " $3; bad = 1 }
	typed[$3] = $4; fam = $3; next }
/^# (HELP|UNIT) / { if ($3 != fam) { print "metadata out of its family: " $0; bad = 1 }; next }
/^# EOF$/ { next }
/^#/ { print "unknown comment: " $0; bad = 1; next }
{ name = $0; sub(/[{ ].*/, "", name)
  base = name; if (typed[fam] == "counter") sub(/_total$/, "", base)
  if (typed[fam] == "info") sub(/_info$/, "", base)
  if (base != fam) { print "sample outside its family: " $0; bad = 1 }
  if ($0 ~ /{/ && $0 !~ /^[a-z_]+{([a-z_]+="([^"\\]|\\.)*",?)+} [-+0-9.eE]+$|Inf$|NaN$/) {
	print "bad sample: " $0; bad = 1 } }
END { exit bad }' "$d/om" || fail "format"

val() { # METRIC LABELS -> the value of the one sample
	grep -F "$1{$2} " "$d/om" | awk '{ print $NF }'
}
# -- associations: fstree-show's columns (6 decimals, as sshare prints)
fstree-show --snapshot "$d/s" -a -l -P >"$d/fs"
n=0
while IFS='|' read -r acct user raw norm usage nusage eff fs lfs rest; do
	acct=$(echo "$acct" | sed 's/^ *//')
	[ -n "$user" ] || continue
	l="account=\"$acct\",user=\"$user\""
	got=$(val prio_assoc_fairshare "$l")
	[ "$(printf '%.6f' "$got")" = "$fs" ] || fail "FairShare $acct/$user: $got, fstree-show $fs"
	got=$(val prio_assoc_usage_effective "$l")
	[ "$(printf '%.6f' "$got")" = "$eff" ] || fail "EffectvUsage $acct/$user: $got, fstree-show $eff"
	[ "$(val prio_assoc_usage_raw "$l")" = "$usage" ] || fail "RawUsage $acct/$user"
	if [ -n "$lfs" ]; then
		got=$(val prio_assoc_level_fs "$l")
		case $lfs in inf) want=+Inf ;; *) want=$lfs; got=$(printf '%.6f' "$got") ;; esac
		[ "$got" = "$want" ] || fail "LevelFS $acct/$user: $got, fstree-show $lfs"
	fi
	n=$((n + 1))
done <<EOT
$(tail -n +2 "$d/fs")
EOT
[ "$n" -ge 15 ] || fail "only $n user associations compared"
# and Slurm's own sshare of the capture, for one: ivan's FairShare
grep -q '^ *genomics|ivan|.*|0.066667|' "$o/sshare_a_l_P.txt" || fail "oracle sshare changed"
[ "$(printf '%.6f' "$(val prio_assoc_fairshare 'account="genomics",user="ivan"')")" = 0.066667 ] ||
	fail "ivan's FairShare is not sshare's 0.066667"

# -- jobs: prio-calc -P, row by row (job, partition), every weighted term
prio-calc --snapshot "$d/s" -P >"$d/calc" 2>/dev/null
n=0
while IFS='|' read -r id part prio site age assoc fs js pt qos tres; do
	got=$(grep -F "prio_job_priority{job_id=\"$id\"," "$d/om" | grep -F "partition=\"$part\"" | awk '{ print $NF }')
	[ "$got" = "$prio" ] || fail "job $id/$part: priority $got, prio-calc $prio"
	for t in site:$site age:$age assoc:$assoc fairshare:$fs jobsize:$js partition:$pt qos:$qos; do
		got=$(grep -F "prio_job_priority_term{job_id=\"$id\"," "$d/om" | grep -F "partition=\"$part\"" |
			grep -F "factor=\"${t%%:*}\"" | awk '{ printf "%.0f", $NF }')
		[ "$got" = "${t#*:}" ] || fail "job $id/$part ${t%%:*}: $got, prio-calc ${t#*:}"
	done
	n=$((n + 1))
done <<EOT
$(tail -n +2 "$d/calc")
EOT
[ "$n" -ge 15 ] || fail "only $n job rows compared"
# Slurm's own sprio for job 26 in short
[ "$(awk '$1 == 26 && $2 == "short" { print $3 }' "$o/sprio.txt")" = 10458 ] || fail "oracle sprio changed"
[ "$(val prio_job_priority 'job_id="26",user="bob",account="astro",partition="short",qos="high"')" = 10458 ] ||
	fail "job 26's priority is not sprio's 10458"
# the clock: Slurm's last calculation, found from the stored priorities
[ "$(awk '$1 == "prio_calculation_timestamp_seconds" { print $2 }' "$d/om")" = "$(calc_last_calc fairtree-basic)" ] ||
	fail "calculation clock"
[ "$(awk '$1 == "prio_calculation_found" { print $2 }' "$d/om")" = 1 ] || fail "calculation not found"
# -- counts: Slurm's squeue of the capture
want=$(awk '$2 == "batch" && $5 == "R"' "$o/squeue.txt" | wc -l)
[ "$(val prio_jobs_running 'partition="batch"')" = "$want" ] || fail "running in batch: squeue says $want"
want=$(awk '$2 == "batch" && $5 == "PD" && /\(Priority\)/' "$o/squeue.txt" | wc -l)
[ "$(val prio_jobs_pending 'partition="batch",reason="Priority"')" = "$want" ] ||
	fail "pending (Priority) in batch: squeue says $want"

# -- --max-jobs 2: the two jobs of highest priority, the rest counted
prio-exporter --snapshot "$d/s" --once --max-jobs 2 >"$d/om2"
got=$(grep '^prio_job_priority{' "$d/om2" | sed 's/.*job_id="\([0-9]*\)".*/\1/' | sort -u | tr '\n' ' ')
want=$(tail -n +2 "$d/calc" | sort -t'|' -k3,3nr -k1,1n | awk -F'|' '!seen[$1]++ { print $1 }' | head -2 | sort | tr '\n' ' ')
[ "$got" = "$want" ] || fail "--max-jobs 2 kept $got, prio-calc's top two are $want"
jobs=$(tail -n +2 "$d/calc" | cut -d'|' -f1 | sort -u | wc -l)
[ "$(awk '$1 == "prio_jobs_omitted" { print $2 }' "$d/om2")" = $((jobs - 2)) ] || fail "prio_jobs_omitted"

# -- PrivateData=usage,jobs: user rows and jobs withheld, said in the info
# metric; --expose-private brings them back (--assume-complete: the
# capture is whole)
echo "PrivateData=usage,jobs" >>"$d/s/slurm.conf"
prio-exporter --snapshot "$d/s" --once --assume-complete >"$d/om3"
! grep -q 'user="' "$d/om3" || fail "user series despite PrivateData=usage"
! grep -q '^prio_job_priority' "$d/om3" || fail "job series despite PrivateData=jobs"
[ "$(grep -c '^prio_withheld_info{.*PrivateData=usage,jobs' "$d/om3")" = 2 ] || fail "withheld info"
grep -q '^prio_assoc_fairshare{account="root",user="root"}' "$d/om3" && fail "root's user row"
prio-exporter --snapshot "$d/s" --once --assume-complete --expose-private >"$d/om4"
grep -q '^prio_assoc_fairshare{account="genomics",user="ivan"} 0.0666' "$d/om4" || fail "--expose-private: user rows"
grep -q '^prio_job_priority{job_id="26",.*} 10458$' "$d/om4" || fail "--expose-private: job 26"
! grep -q '^prio_withheld_info' "$d/om4" || fail "--expose-private still withholds"
exit 0
