#!/bin/sh
# SPDX-License-Identifier: MIT
# --live against stub Slurm commands that replay an oracle capture: the
# same snapshot as prio-snap writes, loaded and then removed; a failing or
# missing command is one line naming it, exit 2.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
TMPDIR=$tmp/t
mkdir "$TMPDIR"
export PATH PRIO_STUB_DIR TMPDIR
prio-calc --live --check -P >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
for want in 'count|jobs|44|' 'count|partitions|3|' 'count|user associations|15|' \
	'config|cluster||ft' 'input|sacctmgr dump|25|'; do
	grep -qF "$want" "$tmp/out" || { echo "missing row: $want"; cat "$tmp/out"; exit 1; }
done
[ -z "$(ls -A "$TMPDIR")" ] || { echo "temporary snapshot left behind:"; ls -A "$TMPDIR"; exit 1; }
# --live with --snapshot is a usage error
prio-calc --live --snapshot samples/site --check 2>"$tmp/err"
[ $? = 2 ] && grep -q '^prio-calc: --live and --snapshot cannot be combined$' "$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
# a controller error: the command and its message, exit 2
PRIO_STUB_FAIL_SSHARE=1 prio-calc --live --check 2>"$tmp/err" >/dev/null
[ $? = 2 ] || { echo "expected exit 2"; exit 1; }
grep -q '^prio-calc: --live: sshare -a -l -P .*: exit 1: sshare: error: Problem talking to the database' "$tmp/err" ||
	{ echo "unexpected message:"; cat "$tmp/err"; exit 1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "temporary snapshot left behind after an error"; exit 1; }
# the live section of the config file names the commands
cat >"$tmp/conf" <<CONF
live {
  scontrol = "$tmp/no-such-scontrol"
}
CONF
PRIO_TOOLS_CONF=$tmp/conf prio-calc --live --check 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "^prio-calc: --live: $tmp/no-such-scontrol: command not found" "$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
exit 0
