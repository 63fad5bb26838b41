#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill --verify recomputes every billing= Slurm stored (sacct AllocTRES
# and ReqTRES, scontrol TRES=) in the oracle scenarios, SUM and MAX_TRES:
#  - billing-max-tres: the 5 job shapes under each configuration, while
#    running (scontrol) and in sacct, all equal (6,6,6,11,6 summed;
#    4,3,4,10,4 with MAX_TRES);
#  - fairtree-basic and seed-hierarchy: every AllocTRES/ReqTRES billing= of
#    their sacct output (with steps) and every job's TRES=, all equal;
#  - a configuration other than the one that billed a job is caught: the
#    first 5 jobs billed summed are wrong under MAX_TRES (exit 1), and in
#    flags-max-tres (MAX_TRES set by reconfigure) exactly the two jobs
#    submitted after it (45, 46) disagree with the configuration before.
set -u
: "${top_srcdir:=.}"
O=$top_srcdir/tests/oracle
B=$O/billing-max-tres
status=0
fail() { echo "$*"; status=1; }

# $1 expected exit status, $2 expected "checked" count, rest: arguments
expect() {
	want=$1 checked=$2
	shift 2
	out=$(tres-bill "$@" --verify -P 2>&1)
	rc=$?
	[ "$rc" = "$want" ] || fail "exit $rc, expected $want: tres-bill $*: $out"
	printf '%s\n' "$out" | grep -q "^tres-bill: $checked billing values checked" ||
		fail "expected $checked values checked: tres-bill $*: $(printf '%s\n' "$out" | tail -1)"
	printf '%s\n' "$out"
}

expect 0 10 --conf "$B/slurm.conf.default" --sacct "$B/sacct_a_P_X_default_running.txt" \
	--jobs "$B/scontrol_show_job_d_default_running.txt" >/dev/null
out=$(expect 1 15 --conf "$B/slurm.conf.max_tres" --sacct "$B/sacct_a_P_X_maxtres_running.txt" \
	--jobs "$B/scontrol_show_job_d_maxtres_running.txt")
# the summed jobs 4000-4004 (still in sacct) differ, stored 6,6,6,11,6 vs 4,3,4,10,4
got=$(printf '%s\n' "$out" | awk -F'|' '$1 == "sacct" { print $3 ":" $6 ":" $7 }' | tr '\n' ' ')
[ "$got" = "4000:6:4 4001:6:3 4002:6:4 4003:11:10 4004:6:4 " ] || fail "max_tres differences: $got"
expect 1 20 --conf "$B/slurm.conf.default" --sacct "$B/sacct_a_P_X.txt" >/dev/null
for sc in fairtree-basic seed-hierarchy; do
	case $sc in fairtree-basic) n=108 ;; seed-hierarchy) n=79 ;; esac
	expect 0 $n --conf "$O/$sc/slurm.conf" --sacct "$O/$sc/sacct_a_P.txt" \
		--jobs "$O/$sc/scontrol_show_job_d.txt" >/dev/null
done
F=$O/flags-max-tres
out=$(expect 1 46 --conf "$O/fairtree-basic/slurm.conf" --jobs "$F/scontrol_show_job_d.txt")
got=$(printf '%s\n' "$out" | awk -F'|' '$1 == "scontrol" { print $3 }' | tr '\n' ' ')
[ "$got" = "45 46 " ] || fail "flags-max-tres under the summed configuration: $got"
out=$(expect 1 46 --conf "$F/slurm.conf" --jobs "$F/scontrol_show_job_d.txt")
printf '%s\n' "$out" | awk -F'|' '$1 == "scontrol" { print $3 }' | grep -qx -e 45 -e 46 &&
	fail "flags-max-tres: jobs 45/46 billed with MAX_TRES should agree"
exit $status
