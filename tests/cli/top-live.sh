#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-top --live against stub Slurm commands that replay an oracle capture
# (tests/cli/stubs, through the real prio-snap): the first capture shows the
# cluster; captures repeat every --refresh seconds but never more often
# than the config file's live min-interval; a capture that fails keeps the
# last good data on screen with the reason; no temporary folder is left.
set -u
command -v prio-top >/dev/null 2>&1 || { echo "prio-top not built (no ncursesw): skipped"; exit 0; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
PATH="$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
TMPDIR=$tmp/t
mkdir "$TMPDIR"
export PATH PRIO_STUB_DIR TMPDIR
status=0

prio-top --live --once >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^cluster ft ' "$tmp/out" && grep -q '^    1    28 dave ' "$tmp/out" ||
	{ echo "--live --once:"; cat "$tmp/out"; status=1; }

# sshare answers once, then the controller is gone; every call is counted
cat >"$tmp/sshare" <<STUB
#!/bin/sh
n=\$(cat "$tmp/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$tmp/count"
[ "\$n" -ge 1 ] && { echo "sshare: error: Unable to contact slurm controller (connect failure)" >&2; exit 1; }
exec "$top_srcdir/tests/cli/stubs/sshare" "\$@"
STUB
chmod +x "$tmp/sshare"
cat >"$tmp/conf" <<CONF
live {
  sshare = "$tmp/sshare"
  min-interval = 1
}
CONF
# frames at 0, 0.5 and 1 s; a capture asked for every 0.5 s comes at 0 and 1
PRIO_TOOLS_CONF=$tmp/conf prio-top --live -b -n 3 -d 0.5 --refresh 0.5 --size 400x30 \
	>"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; status=1; }
[ "$(cat "$tmp/count")" = 2 ] || { echo "captures: $(cat "$tmp/count"), expected 2 (min-interval 1 s)"; status=1; }
[ "$(grep -c '^    1    28 dave ' "$tmp/out")" = 3 ] || { echo "a frame lost the queue"; status=1; }
tail -n 2 "$tmp/out" | grep -q '^--live failed, still showing the data of .*Unable to contact slurm controller' ||
	{ echo "the last frame does not say the capture failed:"; tail -n 3 "$tmp/out"; status=1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "temporary snapshot left behind:"; ls -A "$TMPDIR"; status=1; }
exit $status
