#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian packages in a fresh root of another Debian release, the
# way README's "Install from packages" says (apt-get build-dep ./, then
# dpkg-buildpackage -us -uc), and run that release's lintian on them.
# usage: tests/pkg/deb-build-root.sh SUITE OUTDIR  (as root; .ci/run: trixie)
# DEB_BUILD_OPTIONS passes through; with nocheck the test-only build
# dependencies (<!nocheck>) are not installed either.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
suite=$1
die() { echo "deb-$suite: $*"; exit 1; }
. "$top/tests/pkg/lib.sh"
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
rm -f "$out"/*.deb "$out"/*.changes "$out"/lintian.txt
root_open "$suite" build ca-certificates,build-essential,debhelper,lintian
tree_copy "$root/build/prio-tools"
prof=""
case " ${DEB_BUILD_OPTIONS:-} " in *" nocheck "*) prof="-P nocheck" ;; esac
in_root sh -c "cd /build/prio-tools && apt-get build-dep -y -q $prof ./" >"$out/build-dep.log" 2>&1 ||
	{ tail -20 "$out/build-dep.log"; die "apt-get build-dep failed"; }
in_root sh -c "cd /build/prio-tools && DEB_BUILD_OPTIONS='${DEB_BUILD_OPTIONS:-}' DEB_BUILD_PROFILES='${prof#-P }' dpkg-buildpackage -us -uc" \
	>"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; die "dpkg-buildpackage failed ($out/build.log)"; }
cp "$root"/build/*.deb "$root"/build/*.changes "$out"/ || exit 2
ls "$out"/*.deb | sed "s|.*/|deb-$suite: built |"
in_root sh -c 'dpkg-deb -c /build/prio-tools_*_*.deb' | awk '{print $6}' | grep -E 'systemd/system/|^\./usr/bin/' |
	sed "s|^|deb-$suite: |"
lintian_report "$(cd "$root/build" && ls ./*.changes | sed 's|^\./|/build/|')" "$out/lintian.txt" in_root
