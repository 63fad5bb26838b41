#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian packages of this tree in a temporary copy (the tree
# itself stays as it was: no debian/tmp, no in-tree configure) and run
# lintian on them.  usage: tests/pkg/deb-build.sh OUTDIR
# OUTDIR receives the .debs, the source package (.dsc, .tar.xz),
# .buildinfo, .changes and lintian.txt.
# DEB_BUILD_OPTIONS passes through (.ci/run: "nocheck parallel=2", the
# tests having run already).  Exit 0 when the build succeeds and lintian
# reports no error; its warnings are listed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
rm -f "$out"/*.deb "$out"/*.dsc "$out"/*.tar.* "$out"/*.buildinfo "$out"/*.changes "$out"/lintian.txt
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/prio-tools"
# what git tracks (and what is new and not ignored), never build products
if [ -d "$top/.git" ] || [ -f "$top/.git" ]; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -xf - -C "$tmp/prio-tools" || exit 2
else
	cp -a "$top/." "$tmp/prio-tools" && (cd "$tmp/prio-tools" && { [ ! -f Makefile ] || make distclean; } >/dev/null 2>&1)
fi
(cd "$tmp/prio-tools" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log"; echo "deb: dpkg-buildpackage failed ($out/build.log)"; exit 1; }
cp "$tmp"/*.deb "$tmp"/*.dsc "$tmp"/*.tar.* "$tmp"/*.buildinfo "$tmp"/*.changes "$out"/ || exit 2
ls "$out"/*.deb | sed 's|.*/|deb: built |'
command -v lintian >/dev/null 2>&1 || { echo "deb: lintian not installed"; exit 1; }
lintian --fail-on error --display-info "$out"/*.changes >"$out/lintian.txt" 2>&1
rc=$?
sed 's/^/lintian: /' "$out/lintian.txt"
[ $rc = 0 ] || { echo "deb: lintian found errors"; exit 1; }
echo "deb: lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings, $(grep -c '^I:' "$out/lintian.txt") notes"
