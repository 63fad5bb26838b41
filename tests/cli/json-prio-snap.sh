#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-snap captures squeue --json and, from Slurm 23.11, sshare --json (stub
# Slurm commands replaying the real 24.11.5 capture); the tools then read the
# JSON forms.  On 22.05 sshare --json is not asked for, and a failing squeue
# --json is a warning, not an error.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
d="$top_srcdir/tests/cli/json-data/slurm-24.11-fairtree"
# The stubs read the oracle's file names.
mkdir "$tmp/stub"
ln -s "$d/config.txt" "$tmp/stub/scontrol_show_config.txt"
# an empty queue, as scontrol prints it (zero bytes is a failed capture)
echo "No jobs in the system" >"$tmp/stub/scontrol_show_job_d.txt"
ln -s "$d/sshare.txt" "$tmp/stub/sshare_a_l_P_o_all.txt"
ln -s "$d/sshare.json" "$tmp/stub/sshare_a_json.txt"
ln -s "$d/jobs.json" "$tmp/stub/squeue_json.txt"
ln -s "$d/qos.txt" "$tmp/stub/sacctmgr_show_qos.txt"
# pending jobs need the partitions they name
ln -s "$d/scontrol_show_partition.txt" "$tmp/stub/scontrol_show_partition.txt"
ln -s "$d/assoc.cfg" "$tmp/stub/sacctmgr_dump.cfg"
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$tmp/stub" PRIO_STUB_VERSION="slurm 24.11.5"
export PATH PRIO_STUB_DIR PRIO_STUB_VERSION
prio-snap --no-sacct "$tmp/snap" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
cmp -s "$tmp/snap/sshare.json" "$d/sshare.json" || { echo "sshare.json not captured"; exit 1; }
cmp -s "$tmp/snap/jobs.json" "$d/jobs.json" || { echo "jobs.json not captured"; exit 1; }
[ -s "$tmp/snap/sshare.txt" ] || { echo "sshare.txt not kept"; exit 1; }
grep -q "^sshare.json	0	sshare -a --json" "$tmp/snap/MANIFEST" &&
	grep -q "^jobs.json	0	squeue -a --json" "$tmp/snap/MANIFEST" ||
	{ echo "MANIFEST:"; cat "$tmp/snap/MANIFEST"; exit 1; }
# The folder's sshare.json is read, not its sshare.txt.
prio-calc --snapshot "$tmp/snap" --jobs "$tmp/snap/jobs.json" --check -P >"$tmp/out" ||
	{ cat "$tmp/out"; exit 1; }
for want in "input|sshare --json|14|$tmp/snap/sshare.json" 'input|squeue --json|14|' \
	'slurm|version||24.11 (from scontrol show config)' 'count|user associations|8|'; do
	grep -qF "$want" "$tmp/out" || { echo "missing row: $want"; cat "$tmp/out"; exit 1; }
done
grep -qF 'sshare.txt' "$tmp/out" && { echo "sshare.txt read too"; exit 1; }
fstree-show --snapshot "$tmp/snap" -a -l | diff "$d/sshare_a_l.txt" - || exit 1

# --no-squeue-json (what --live passes): no jobs.json, sshare.json still.
prio-snap --no-sacct --no-squeue-json "$tmp/nosq" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/nosq/jobs.json" ] && [ -s "$tmp/nosq/sshare.json" ] || { ls "$tmp/nosq"; exit 1; }

# 22.05: no sshare --json; squeue --json failing is only a warning.
PRIO_STUB_VERSION="slurm 22.05.8" PRIO_STUB_FAIL_SQUEUE=1 \
	prio-snap --no-sacct "$tmp/old" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/old/sshare.json" ] && [ ! -e "$tmp/old/jobs.json" ] ||
	{ ls "$tmp/old"; exit 1; }
grep -q '^prio-snap: warning: squeue -a --json: exit 1: squeue: error: Invalid data_parser plugin' "$tmp/err" ||
	{ echo "unexpected message:"; cat "$tmp/err"; exit 1; }
grep -q 'sshare -a --json' "$tmp/old/MANIFEST" && { echo "sshare --json asked of 22.05"; exit 1; }
exit 0
