#!/bin/sh
# SPDX-License-Identifier: MIT
# One version, configure.ac's (prio_version, prio_release_date, libprio's
# -version-info): every command's --version, libprio.pc, the RPM spec that
# configure wrote, debian/changelog's newest entry (which dpkg reads before
# configure runs, so it is kept by hand) and the Debian package named after
# libprio's soname must all agree with it.
set -u
status=0
bad() { echo "$*"; status=1; }
ver=$(sed -n 's/^m4_define(\[prio_version\], \[\(.*\)\])$/\1/p' configure.ac)
day=$(sed -n 's/^m4_define(\[prio_release_date\], \[\(.*\)\])$/\1/p' configure.ac)
[ -n "$ver" ] && [ -n "$day" ] || { echo "configure.ac: no prio_version or prio_release_date"; exit 1; }

for tool in prio-calc prio-snap fstree-show tres-bill preempt-plan prio-top; do
	command -v "$tool" >/dev/null 2>&1 || [ "$tool" = prio-calc ] || continue
	out=$("$tool" --version)
	[ "$out" = "$tool (prio-tools) $ver" ] || bad "$tool --version says '$out'; configure.ac: $ver"
done
pcv=$(sed -n 's/^Version: //p' "$top_builddir/libprio/libprio.pc")
[ "$pcv" = "$ver" ] || bad "libprio.pc: Version $pcv; configure.ac: $ver"

# The RPM spec: the version, and the changelog entry of this release's day.
spec=$top_builddir/prio-tools.spec
sv=$(sed -n 's/^Version: *//p' "$spec")
[ "$sv" = "$ver" ] || bad "prio-tools.spec: Version $sv; configure.ac: $ver"
sed -n '/^%changelog/{n;p;}' "$spec" | grep -q " - $ver-1\$" ||
	bad "prio-tools.spec: the newest %changelog entry is not $ver-1"

# debian/changelog: "prio-tools (VERSION) ..." (a native package: debian/
# lives upstream, so "dpkg-buildpackage -us -uc" needs no .orig tarball) and
# its trailer " -- NAME <MAIL>  Thu, 26 Nov 2026 12:00:00 +0000" on the
# release's day.
dv=$(sed -n '1s/^prio-tools (\(.*\)) .*/\1/p' debian/changelog)
[ "$dv" = "$ver" ] || bad "debian/changelog: the newest entry is '$dv'; configure.ac: $ver (add an entry, dch -v $ver)"
trailer=$(sed -n '/^ -- /{s/.*>  //p;q;}' debian/changelog)
# shellcheck disable=SC2086
set -- $trailer
m=0
for name in Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec; do
	m=$((m + 1))
	[ "$name" = "${3:-}" ] && break
done
dday=$(printf '%s-%02d-%02d' "${4:-}" "$m" "${2#0}" 2>/dev/null)
[ "$dday" = "$day" ] || bad "debian/changelog: the newest entry is dated '$trailer'; configure.ac: $day"

# The soname libtool gave libprio (CURRENT-AGE) names the Debian package.
so=$(sed -n "s/^dlname='\\(.*\\)'/\\1/p" "$top_builddir/libprio/libprio.la")
case $so in
libprio.so.[0-9]*) n=${so#libprio.so.} ;;
*) bad "libprio.la: unexpected dlname '$so'"; exit 1 ;;
esac
grep -qx "Package: libprio$n" debian/control || bad "debian/control: no package libprio$n for $so"
grep -q "libprio$n (= \${binary:Version})" debian/control || bad "debian/control: libprio-dev does not depend on libprio$n"
grep -qx "usr/lib/\${DEB_HOST_MULTIARCH}/$so" "debian/libprio$n.install" 2>/dev/null ||
	bad "debian/libprio$n.install: does not install $so"
for f in debian/libprio[0-9]*; do
	case $f in "debian/libprio$n".*) ;; *) bad "$f: left from another soname ($so now)" ;; esac
done
exit $status
