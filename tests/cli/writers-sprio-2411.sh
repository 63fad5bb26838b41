#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-calc -l on a real Slurm 24.11.5 capture equals that cluster's own
# `sprio -l`, byte for byte: 24.11's layout (ACCOUNT after USER, QOSNAME
# before QOS) and every cell, at Slurm's last priority calculation (the
# default clock).  The release comes from the capture's config.txt
# (SLURM_VERSION = 24.11.5).
#
# The capture is read as 24.11 printed it (ReqTRES=/AllocTRES=, a blank
# line before a drained node's Reason=).
set -u
d=tests/cli/writers-data/slurm-24.11-live
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

snap=$d/snap
prio-calc --snapshot "$snap" --check >"$tmp/check" 2>&1 || { cat "$tmp/check"; exit 1; }
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
