#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-snap --keep COUNT (the systemd timer's series): each capture is a
# folder named after its UTC time, latest points at the newest, only COUNT
# stay, and a failed capture leaves nothing and removes nothing.  The clock
# is a stub date(1) so that the captures get the names the test gives.
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
real_date=$(command -v date)
cat >"$tmp/bin/date" <<EOT
#!/bin/sh
if [ "\$*" = "-u +%Y%m%dT%H%M%SZ" ]; then cat "$tmp/stamp"; exit 0; fi
exec "$real_date" "\$@"
EOT
chmod +x "$tmp/bin/date"
PATH="$tmp/bin:$top_srcdir/tests/cli/stubs:$PATH"
PRIO_STUB_DIR="$top_srcdir/tests/oracle/fairtree-basic"
PRIO_SNAP_QUIET=1
export PATH PRIO_STUB_DIR PRIO_SNAP_QUIET
s=$tmp/series
fail() { echo "$*"; ls -la "$s"; exit 1; }
snap() { # STAMP, then prio-snap's arguments
	echo "$1" >"$tmp/stamp"
	shift
	prio-snap --no-sacct --no-squeue-json "$@" 2>"$tmp/err"
}
mkdir -p "$s" && echo notes >"$s/README"
mkdir "$s/.20261101T000000Z.partial"   # left by a killed capture
for t in 20261126T100000Z 20261126T110000Z 20261126T120000Z; do
	snap $t --keep 2 "$s" || fail "capture $t failed: $(cat "$tmp/err")"
done
[ "$(cd "$s" && echo *)" = "20261126T110000Z 20261126T120000Z README latest" ] ||
	fail "expected the two newest, README and latest"
[ "$(readlink "$s/latest")" = 20261126T120000Z ] || fail "latest does not point at the newest"
[ -e "$s/.20261101T000000Z.partial" ] && fail "a killed capture's leftover stayed"
# the newest is a whole snapshot the tools read (fairtree-basic's counts)
prio-calc --snapshot "$s/latest" --check -P >"$tmp/out" || { cat "$tmp/out"; exit 1; }
for want in 'count|jobs|44|' 'count|qos|7|' 'count|user associations|15|'; do
	grep -qF "$want" "$tmp/out" || fail "missing row $want: $(cat "$tmp/out")"
done
# A failed capture: exit 2 with the command's error, no folder, nothing
# removed, latest unchanged.
PRIO_STUB_FAIL_SSHARE=1 snap 20261126T130000Z --keep 1 "$s"
rc=$?
[ $rc = 2 ] || fail "failed capture: exit $rc"
grep -q '^prio-snap: sshare .*exit 1:' "$tmp/err" || fail "unexpected message: $(cat "$tmp/err")"
[ "$(cd "$s" && echo * .2*)" = "20261126T110000Z 20261126T120000Z README latest .2*" ] ||
	fail "a failed capture changed the series"
[ "$(readlink "$s/latest")" = 20261126T120000Z ] || fail "latest moved"
# Two captures in one second: refused, the first kept.
snap 20261126T120000Z --keep 2 "$s"
[ $? = 2 ] && grep -qx "prio-snap: $s/20261126T120000Z: already exists (two captures in one second)" "$tmp/err" ||
	fail "same second: $(cat "$tmp/err")"
# --keep 1 leaves one
snap 20261126T140000Z --keep=1 "$s" || fail "keep=1: $(cat "$tmp/err")"
[ "$(cd "$s" && echo *)" = "20261126T140000Z README latest" ] || fail "keep=1 left more than one"
# Bad counts are usage errors, one line.
for bad in 0 -1 x 05 ''; do
	prio-snap --keep "$bad" "$s" 2>"$tmp/err"
	[ $? = 2 ] && [ "$(cat "$tmp/err")" = "prio-snap: --keep: expected a count of 1 or more, got \"$bad\" (try 'prio-snap --help')" ] ||
		fail "--keep '$bad': $(cat "$tmp/err")"
done
exit 0
