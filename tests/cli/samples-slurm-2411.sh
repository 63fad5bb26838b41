#!/bin/sh
# SPDX-License-Identifier: MIT
# samples/slurm-24.11 (a prio-snap folder of a real 24.11.5 cluster, the
# slurm-24.11-multi-qos oracle scenario) does what samples/README.md says:
# prio-calc -l prints 24.11's sprio -l, from jobs.txt and from jobs.json,
# and fstree-show -a -l prints its sshare -a -l (from sshare.json).
set -u
s=samples/slurm-24.11 o=tests/oracle/slurm-24.11-multi-qos status=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
prio-calc --snapshot $s -l >"$tmp" && cmp -s "$tmp" $o/sprio_l.txt ||
	{ echo "prio-calc -l differs from sprio -l"; diff $o/sprio_l.txt "$tmp"; status=1; }
prio-calc --snapshot $s --jobs $s/jobs.json -l >"$tmp" && cmp -s "$tmp" $o/sprio_l.txt ||
	{ echo "prio-calc -l from jobs.json differs from sprio -l"; diff $o/sprio_l.txt "$tmp"; status=1; }
fstree-show --snapshot $s -a -l >"$tmp" && cmp -s "$tmp" $o/sshare_a_l.txt ||
	{ echo "fstree-show -a -l differs from sshare -a -l"; diff $o/sshare_a_l.txt "$tmp"; status=1; }
prio-calc --snapshot $s --check -P | grep -qx 'slurm|version||24.11 (from scontrol show config)' ||
	{ echo "the sample is not read as Slurm 24.11"; status=1; }
exit $status
