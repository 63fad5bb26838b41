#!/bin/sh
# SPDX-License-Identifier: MIT
# "make rpm" in a configured build tree (the RPMs of its dist tarball, by
# rpmbuild --nodeps on this Debian host), then what rpm -qlp and rpm -qRp
# say of them: each package holds its files (the commands, their man pages
# and completions, the units; the library under its soname; headers, link
# and libprio.pc) and requires the shared libraries it links.
# usage: tests/pkg/rpm-check.sh BUILDDIR
set -u
build=$(cd "$1" && pwd) || exit 2
command -v rpmbuild >/dev/null 2>&1 || { echo "rpm: rpmbuild not installed (Debian package rpm)"; exit 1; }
make -C "$build" rpm >"$build/rpm.log" 2>&1 || { tail -30 "$build/rpm.log"; echo "rpm: make rpm failed ($build/rpm.log)"; exit 1; }
ver=$(sed -n 's/^VERSION = //p' "$build/Makefile")
so=$(sed -n 's/^LIBPRIO_SOVERSION = //p' "$build/Makefile")
dir=$build/rpm/RPMS/$(rpm --eval '%{_arch}')
status=0
bad() { echo "rpm: $*"; status=1; }
for p in prio-tools libprio libprio-devel; do
	f=$(ls "$dir/$p-$ver"-*.rpm 2>/dev/null | head -1)
	[ -n "$f" ] || { bad "no $p-$ver RPM in $dir"; continue; }
	rpm -qlp "$f" >"$build/rpm/$p.files" 2>/dev/null || bad "rpm -qlp $f failed"
	rpm -qRp "$f" >"$build/rpm/$p.requires" 2>/dev/null || bad "rpm -qRp $f failed"
	echo "rpm: $(basename "$f"): $(wc -l <"$build/rpm/$p.files") files; requires: $(grep -v -e '^rpmlib(' -e '^libc\.so' -e '^libm\.so' -e '^rtld(' -e '^/bin/sh' "$build/rpm/$p.requires" | sed 's/(64bit)//g; s/\(\.so\.[0-9]*\)(.*)$/\1/' | sort -u | tr '\n' ' ')"
done
has() { grep -qx -- "$2" "$build/rpm/$1.files" || bad "$1: rpm -qlp lists no $2"; }
needs() { grep -q -- "$2" "$build/rpm/$1.requires" || bad "$1: rpm -qRp names no $2"; }
for c in prio-calc fstree-show tres-bill preempt-plan prio-top prio-snap prio-exporter; do
	has prio-tools "/usr/bin/$c"
	grep -q "^/usr/share/man/man1/$c\\.1" "$build/rpm/prio-tools.files" || bad "prio-tools: no man page $c.1"
	has prio-tools "/usr/share/bash-completion/completions/$c"
	has prio-tools "/usr/share/zsh/site-functions/_$c"
	has prio-tools "/usr/share/fish/vendor_completions.d/$c.fish"
done
grep -q '^/usr/share/man/man7/prio-tools\.7' "$build/rpm/prio-tools.files" || bad "prio-tools: no prio-tools.7"
grep -q '^/usr/share/man/man5/prio-tools\.conf\.5' "$build/rpm/prio-tools.files" || bad "prio-tools: no prio-tools.conf.5"
has prio-tools /usr/lib/systemd/system/prio-snap.service
has prio-tools /usr/lib/systemd/system/prio-snap.timer
has prio-tools /usr/lib/systemd/system/prio-exporter.service
has prio-tools /usr/share/prio-tools/grafana/prio-tools-dashboard.json
# the completions' shared name lister, beside each shell's files
for f in /usr/share/bash-completion/completions /usr/share/zsh/site-functions \
	/usr/share/fish/vendor_completions.d; do
	has prio-tools "$f/prio-tools-names.sh"
done
has prio-tools /usr/share/zsh/site-functions/_prio_tools_names
grep -q 'libprio\.so' "$build/rpm/prio-tools.files" && bad "prio-tools: holds the library"
libdir=$(rpm --eval '%{_libdir}')
has libprio "$libdir/libprio.so.$so"
grep -q "^/usr/include\\|\\.pc\$\\|libprio\\.so\$" "$build/rpm/libprio.files" && bad "libprio: holds development files"
has libprio-devel "$libdir/libprio.so"
has libprio-devel "$libdir/pkgconfig/libprio.pc"
has libprio-devel /usr/include/prio/prio.h
# what each links, as rpm's dependency generator found it
needs prio-tools "^libprio.so.$so()"
needs prio-tools "^libprio(.*) = $ver-"
needs prio-tools '^libconfuse\.so\.'
needs prio-tools '^libncursesw\.so\.'
needs prio-tools '^libmicrohttpd\.so\.'
needs libprio '^libjansson\.so\.'
needs libprio '^libcsv\.so\.'
needs libprio-devel "^libprio(.*) = $ver-"
needs libprio-devel '^pkgconfig(jansson)'
[ $status = 0 ] && echo "rpm: ok"
exit $status
