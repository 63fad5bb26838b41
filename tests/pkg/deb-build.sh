#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian packages of this tree in a temporary copy (the tree
# itself stays as it was: no debian/tmp, no in-tree configure) and run
# lintian on them.  usage: tests/pkg/deb-build.sh OUTDIR
# OUTDIR receives the .debs, the source package (.dsc, .tar.xz),
# .buildinfo, .changes and lintian.txt.  DEB_BUILD_OPTIONS passes through
# (.ci/run: "nocheck parallel=2", the tests having run already).  Exit 0
# when the build succeeds and lintian reports no error; its warnings are
# listed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "deb: $*"; exit 1; }
. "$top/tests/pkg/lib.sh"
out=$1
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
rm -f "$out"/*.deb "$out"/*.dsc "$out"/*.tar.* "$out"/*.buildinfo "$out"/*.changes "$out"/lintian.txt
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
tree_copy "$tmp/prio-tools"
(cd "$tmp/prio-tools" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log"; die "dpkg-buildpackage failed ($out/build.log)"; }
cp "$tmp"/*.deb "$tmp"/*.dsc "$tmp"/*.tar.* "$tmp"/*.buildinfo "$tmp"/*.changes "$out"/ || exit 2
ls "$out"/*.deb | sed 's|.*/|deb: built |'
command -v lintian >/dev/null 2>&1 || die "lintian not installed"
lintian_report "$out"/*.changes "$out/lintian.txt"
