#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the .debs into a clean Debian 12 root with apt (their dependencies
# come from Debian's archive, nothing from this machine) and check them
# there: the README's quick start run with the installed prio-calc prints
# what the build tree's prints, --version is configure.ac's, the man pages
# carry the release date, the systemd units pass systemd-analyze verify and
# the timer is not enabled, and the packages purge cleanly.
# usage: tests/pkg/deb-chroot.sh DEBDIR BUILDDIR  (as root; BUILDDIR holds
# a built prio-calc)
#
# The root (tests/pkg/lib.sh: made once with mmdebstrap, cached under
# /var/cache/prio-tools, a fresh copy each run) has apt, and systemd and
# man-db for systemd-analyze verify, which checks the units' Documentation=.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
debs=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
die() { echo "deb-chroot: $*"; exit 1; }
. "$top/tests/pkg/lib.sh"
root_open bookworm pkgtest ca-certificates,systemd,man-db
mkdir -p "$root/tmp/debs" "$root/srv/prio-tools"
for p in prio-tools libprio0 libprio-dev; do
	cp "$debs/${p}"_*.deb "$root/tmp/debs/" || die "no ${p} package in $debs"
done
cp -a "$top/samples" "$root/srv/prio-tools/" || die "cannot copy samples/"

in_root sh -c 'apt-get install -y -q --no-install-recommends /tmp/debs/*.deb' >"$tmp/apt.log" 2>&1 ||
	die "apt-get install: $(tail -5 "$tmp/apt.log")"
echo "deb-chroot: installed $(in_root dpkg-query -W -f='${Package} ${Version}, ' prio-tools libprio0 libprio-dev)"
echo "deb-chroot: from Debian: $(sed -n 's/^Unpacking \([^ ]*\) .*/\1/p' "$tmp/apt.log" | grep -v -e '^prio-tools$' -e '^libprio' | tr '\n' ' ')"

status=0
bad() { echo "deb-chroot: $*"; status=1; }
# The README's quick start, its last command, from the installed binaries
quick=$(sed -n 's/.*&& \.\/\(prio-calc --snapshot samples\/[^ ]* [^`]*\)$/\1/p' "$top/README.md" | head -1)
[ -n "$quick" ] || die "README.md: no quick-start prio-calc command found"
echo "deb-chroot: quick start: $quick"
# shellcheck disable=SC2086
in_root sh -c "cd /srv/prio-tools && TZ=UTC $quick" >"$tmp/installed.out" 2>"$tmp/installed.err" ||
	bad "installed $quick failed: $(cat "$tmp/installed.err")"
# shellcheck disable=SC2086
(cd "$top" && env -i PATH="$build:/usr/bin:/bin" HOME=/root TZ=UTC $quick) >"$tmp/build.out" 2>"$tmp/build.err" ||
	bad "build tree's $quick failed: $(cat "$tmp/build.err")"
if cmp -s "$tmp/installed.out" "$tmp/build.out" && [ -s "$tmp/build.out" ]; then
	echo "deb-chroot: quick start: installed output = build tree's ($(wc -l <"$tmp/build.out") lines)"
else
	bad "quick start: the installed output differs from the build tree's"
	diff "$tmp/build.out" "$tmp/installed.out" | head -20
fi
cmp -s "$tmp/installed.err" "$tmp/build.err" || bad "quick start: stderr differs: $(cat "$tmp/installed.err")"

ver=$(sed -n 's/^m4_define(\[prio_version\], \[\(.*\)\])$/\1/p' "$top/configure.ac")
for c in prio-calc fstree-show tres-bill preempt-plan prio-top prio-snap prio-exporter; do
	v=$(in_root "$c" --version 2>&1)
	[ "$v" = "$c (prio-tools) $ver" ] || bad "$c --version: $v"
done
# man pages dated the release (configure.ac), readable by man
mdoc=$(sed -n 's/^PRIO_RELEASE_MDOC = //p' "$build/Makefile")
for m in $(in_root dpkg -L prio-tools | grep '^/usr/share/man/.*\.gz$'); do
	d=$(in_root sh -c "zcat $m | sed -n 's/^\\.Dd //p'")
	[ "$d" = "$mdoc" ] || bad "$m: .Dd $d, expected $mdoc"
done
in_root man -P cat prio-snap >/dev/null 2>&1 || bad "man prio-snap fails"
# the example Grafana dashboard (prio-exporter(1))
in_root dpkg -L prio-tools | grep -qx /usr/share/prio-tools/grafana/prio-tools-dashboard.json ||
	bad "prio-tools: no /usr/share/prio-tools/grafana/prio-tools-dashboard.json"
# systemd units: verify clean, the timer shipped but not enabled
unitdir=$(in_root pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null)
unitdir=${unitdir:-/lib/systemd/system}
if in_root systemd-analyze verify "$unitdir/prio-snap.service" "$unitdir/prio-snap.timer" \
	"$unitdir/prio-exporter.service" >"$tmp/verify" 2>&1 &&
	[ ! -s "$tmp/verify" ]; then
	echo "deb-chroot: systemd-analyze verify prio-snap.service prio-snap.timer prio-exporter.service: clean"
else
	bad "systemd-analyze verify: $(cat "$tmp/verify")"
fi
# (and it does judge here: a unit whose program is missing fails)
printf '[Service]\nExecStart=/usr/bin/prio-no-such-program\n' >"$root/tmp/prio-bad.service"
in_root systemd-analyze verify /tmp/prio-bad.service >/dev/null 2>&1 &&
	bad "systemd-analyze verify passes a unit whose program is missing: it checks nothing here"
for u in prio-snap.timer prio-exporter.service; do
	en=$(in_root systemctl is-enabled $u 2>&1)
	[ "$en" = disabled ] || bad "$u is '$en' after install, expected disabled"
done
# the library package and the -dev link
in_root sh -c 'ls /usr/lib/*/libprio.so.0 /usr/lib/*/libprio.so /usr/lib/*/pkgconfig/libprio.pc' >/dev/null ||
	bad "libprio files missing"
# purge leaves nothing of ours
in_root apt-get purge -y -q prio-tools libprio-dev libprio0 >"$tmp/purge.log" 2>&1 || bad "purge failed: $(tail -3 "$tmp/purge.log")"
left=$(in_root sh -c 'ls -d /usr/bin/prio-* /usr/lib/*/libprio* /lib/systemd/system/prio-* /usr/lib/systemd/system/prio-* /etc/systemd/system/*/prio-* 2>/dev/null')
[ -z "$left" ] || bad "left after purge: $left"
[ $status = 0 ] && echo "deb-chroot: ok"
exit $status
