#!/bin/sh
# SPDX-License-Identifier: MIT
# Fair Tree ranks tied sibling accounts in the controller's list order,
# which slurmdbd sets: by lft up to 23.02 (newest first, so by id
# descending), by lineage from 23.11 (by name, users first).  Live run 29
# (24.11): accb (id 4) and accc (id 7) tie at Level FS 1.290323, and
# slurmctld ranked accb's users first (its log and sshare agree).
set -u
d=$top_srcdir/tests/oracle/forecast-24.11-run29/snap
fail=0
grep -q '^ accb|||4|10|.*|1.290323|' "$d/sshare.txt" && grep -q '^ accc|||7|10|.*|1.290323|' "$d/sshare.txt" ||
	{ echo "run 29's sshare.txt is not the captured one"; exit 1; }

# every cell of the real sshare, as 24.11 ranks
fstree-show --snapshot "$d" --audit "$d/sshare.txt" >/dev/null 2>&1 ||
	{ echo "--audit of run 29 disagrees:"; fstree-show --snapshot "$d" --audit "$d/sshare.txt"; fail=1; }
# Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
ranks() {
	awk -F'|' -v users="$1" '$2 ~ users { a = $1; gsub(/ /, "", a); printf "%s/%s=%s ", a, $2, $7 }'
}
got=$(fstree-show --snapshot "$d" -P -a -n 2>/dev/null | ranks .)
want="root/root=1.000000 acca/pllive1=0.125000 acca/pllive2=0.250000 accb1/pllive3=0.625000 accb2/pllive4=0.875000 accb2/pllive5=0.875000 accc/pllive1=0.625000 accc/pllive6=0.375000 "
[ "$got" = "$want" ] || { echo "24.11 ranks: $got"; fail=1; }

# the same files read as 23.02: accc (the newer) first
got=$(fstree-show --snapshot "$d" --slurm-version 23.02 -P -a -n 2>/dev/null | ranks 'pllive[346]')
want="accb1/pllive3=0.375000 accb2/pllive4=0.750000 accc/pllive6=0.750000 "
[ "$got" = "$want" ] || { echo "23.02 ranks: $got"; fail=1; }
# names compared as MariaDB 10's general_ci does (upper-cased bytes): "AB/"
# before "A_B/", so ab's users rank first when the two accounts tie
printf 'Account|User|RawShares|RawUsage\nroot|||100\n root|root|1|0\n a_b||1|50\n  a_b|u1|1|30\n  a_b|u2|1|20\n ab||1|50\n  ab|u3|1|30\n  ab|u4|1|20\n' >"${TMPDIR:-/tmp}/lineage.$$"
got=$(fstree-show --assoc "${TMPDIR:-/tmp}/lineage.$$" --slurm-version 24.11 -P -a -n 2>/dev/null | ranks 'u[1-4]')
rm -f "${TMPDIR:-/tmp}/lineage.$$"
want="a_b/u1=0.200000 a_b/u2=0.600000 ab/u3=0.600000 ab/u4=0.800000 "
[ "$got" = "$want" ] || { echo "a_b and ab tied: $got"; fail=1; }
exit $fail
