# SPDX-License-Identifier: MIT
# What the package tests share, sourced by tests/pkg/*.sh (sh; functions
# only; the caller defines die()).
#
# tree_copy DEST: the tree as git knows it (tracked files and new ones not
# ignored), never build products, so that a build there leaves this tree as
# it was.
# shellcheck disable=SC2154  # $top is the caller's
tree_copy() {
	mkdir -p "$1" || die "cannot create $1"
	if [ -e "$top/.git" ]; then
		(cd "$top" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - -cf -) | tar -xf - -C "$1" || die "cannot copy the tree"
	else
		cp -a "$top/." "$1" || die "cannot copy the tree"
		(cd "$1" && { [ ! -f Makefile ] || make distclean; } >/dev/null 2>&1)
	fi
}

# lintian_report CHANGES OUT [RUN...]: lintian of the .changes (through
# RUN, e.g. in_root, when given) into OUT, printed; fails on an error.
lintian_report() {
	_changes=$1 _out=$2
	shift 2
	"$@" lintian --fail-on error --display-info "$_changes" >"$_out" 2>&1
	_rc=$?
	sed 's/^/lintian: /' "$_out"
	[ $_rc = 0 ] || { echo "lintian found errors"; return 1; }
	echo "lintian: $(grep -c '^E:' "$_out") errors, $(grep -c '^W:' "$_out") warnings, $(grep -c '^I:' "$_out") notes"
}

# A fresh Debian root: the root of a suite is made once with
# mmdebstrap and cached as a tarball under $PRIO_PKG_CACHE (default
# /var/cache/prio-tools, beside tests/live/chroot.sh's root); each run
# unpacks a copy into a temporary folder, binds /proc and /dev into it, and
# on exit unmounts them and removes the copy, never while anything is still
# mounted inside.

# root_open SUITE NAME PACKAGES: sets $root (the unpacked copy) and $tmp
# (its folder, for logs), from the cached $cache/debian-SUITE-NAME.tar.
root_open() {
	_suite=$1 _name=$2 _pkgs=$3
	cache=${PRIO_PKG_CACHE:-/var/cache/prio-tools}
	_base=$cache/debian-$_suite-$_name.tar
	[ "$(id -u)" = 0 ] || die "needs root (chroot, mount)"
	if [ ! -f "$_base" ]; then
		command -v mmdebstrap >/dev/null 2>&1 || die "mmdebstrap not installed"
		mkdir -p "$cache" || die "cannot create $cache"
		echo "building $_base (once)"
		rm -f "$_base.new.tar"
		mmdebstrap --variant=apt --include="$_pkgs" "$_suite" "$_base.new.tar" \
			>"$cache/mmdebstrap-$_suite-$_name.log" 2>&1 ||
			die "mmdebstrap failed: $(tail -2 "$cache/mmdebstrap-$_suite-$_name.log")"
		mv "$_base.new.tar" "$_base" || die "cannot move $_base into place"
	fi
	tmp=$(mktemp -d /var/tmp/prio-pkg-root.XXXXXX) || die "mktemp failed"
	root=$tmp/root
	_mounts=""
	trap root_close EXIT
	trap 'exit 2' HUP INT TERM
	mkdir "$root" || die "cannot create $root"
	tar -xf "$_base" -C "$root" || die "cannot unpack $_base"
	for _d in /proc /dev; do
		mkdir -p "$root$_d" || die "cannot create $root$_d"
		mount --bind "$_d" "$root$_d" || die "mount --bind $_d failed"
		_mounts="$root$_d $_mounts"
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	in_root apt-get update -qq >"$tmp/apt-update.log" 2>&1 ||
		die "apt-get update: $(tail -3 "$tmp/apt-update.log")"
}

# shellcheck disable=SC2317  # called from the EXIT trap
root_close() {
	for _m in $_mounts; do
		umount "$_m" 2>/dev/null || umount -l "$_m"
	done
	_mounts=""
	# never remove a tree with the host's /dev or /proc still inside
	if grep -q " $root/" /proc/mounts; then
		echo "$root still has mounts: left in place"
	else
		rm -rf "$tmp"
	fi
}

# in_root COMMAND...: run in the root with a clean environment
in_root() {
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
