# SPDX-License-Identifier: MIT
# A newer Slurm for the live test, from a newer Debian in a chroot: the host
# keeps its own Slurm (22.05 on Debian 12) and the same run.sh runs inside
# a Debian 13 root where slurm-wlm is 24.11.  Source this file from bash; it
# defines functions only.
#
# The root is built once with mmdebstrap and kept under
# $PRIO_LIVE_CACHE (default /var/cache/prio-tools) for later runs on the
# same machine; a stamp file says it is complete, so an interrupted build
# is rebuilt, never half used.  Every bind mount made by live_chroot_enter
# is undone by live_chroot_leave (call it from an EXIT trap), newest first.
#
# slurmdbd 24.11 stops at start with Debian 13's MariaDB client library
# (its SQL self-check fails), so Debian 12's libmariadb3 is unpacked inside
# the root and slurmdbd alone runs with it (LIVE_DBD_LIBS, read by
# cluster.sh).

# suite -> the Slurm it ships (what a user of this test asks for)
live_chroot_suite() {
	case $1 in
	24.11) echo trixie ;;
	*) return 1 ;;
	esac
}

LIVE_CHROOT_PKGS="ca-certificates,slurmctld,slurmd,slurmdbd,slurm-client,munge,mariadb-server,libconfuse2,libcsv3,libjansson4,libncursesw6,procps,hostname,passwd,util-linux,gawk,diffutils"
LIVE_CHROOT_MOUNTS=""

# live_chroot_prepare VERSION: prints the root's path, building it if needed.
live_chroot_prepare() {
	local version=$1 suite cache root lib
	suite=$(live_chroot_suite "$version") || live_die "no chroot recipe for Slurm $version"
	cache=${PRIO_LIVE_CACHE:-/var/cache/prio-tools}
	root=$cache/slurm-$version-$suite
	if [ -f "$root/.prio-live-ready" ]; then
		echo "$root"
		return 0
	fi
	command -v mmdebstrap >/dev/null 2>&1 ||
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq mmdebstrap >/dev/null 2>&1 ||
		live_die "apt-get install mmdebstrap failed"
	mkdir -p "$cache" || live_die "cannot create $cache"
	# a root with something still mounted inside is never removed
	if grep -q " $root[./]" /proc/mounts; then
		live_die "$root is incomplete and has mounts inside: unmount them first"
	fi
	rm -rf "$root" "$root.new"
	live_log "building a Debian $suite root with Slurm $version in $root"
	mmdebstrap --variant=apt --include="$LIVE_CHROOT_PKGS" "$suite" "$root.new" \
		>"$cache/mmdebstrap-$suite.log" 2>&1 ||
		live_die "mmdebstrap $suite failed: $(tail -2 "$cache/mmdebstrap-$suite.log")"
	# Debian 12's MariaDB client library for slurmdbd (see above)
	lib=$(mktemp -d)
	(cd "$lib" && apt-get download -qq libmariadb3 >/dev/null 2>&1) ||
		{ rm -rf "$lib"; live_die "apt-get download libmariadb3 failed"; }
	mkdir -p "$root.new/opt/prio-live/mariadb"
	dpkg-deb -x "$lib"/libmariadb3_*.deb "$lib/x" || live_die "dpkg-deb -x libmariadb3 failed"
	cp -a "$lib"/x/usr/lib/*/libmariadb.so.3 "$root.new/opt/prio-live/mariadb/" ||
		live_die "libmariadb.so.3 not found in the package"
	rm -rf "$lib"
	touch "$root.new/.prio-live-ready"
	mv "$root.new" "$root" || live_die "cannot move $root.new into place"
	echo "$root"
}

# live_chroot_bind ROOT PATH [ro]: PATH at the same place inside ROOT.
live_chroot_bind() {
	local root=$1 path=$2
	mkdir -p "$root$path" || live_die "cannot create $root$path"
	mount --bind "$path" "$root$path" || live_die "mount --bind $path failed"
	LIVE_CHROOT_MOUNTS="$root$path $LIVE_CHROOT_MOUNTS"
	if [ "${3:-}" = ro ]; then
		mount -o remount,bind,ro "$root$path" ||
			live_die "cannot make $root$path read-only"
	fi
}

# live_chroot_enter ROOT DIR...: the kernel's file systems, then each DIR
# (the source and build trees) at its own path, so paths in the tools'
# libtool wrappers and in run.sh hold inside.
live_chroot_enter() {
	local root=$1 d
	shift
	for d in /proc /sys /dev /dev/pts /dev/shm; do
		live_chroot_bind "$root" "$d"
	done
	for d in "$@"; do
		live_chroot_bind "$root" "$d"
	done
	# the host's name must resolve (MariaDB's installer, munged, Slurm)
	cp /etc/hosts "$root/etc/hosts" || live_die "cannot copy /etc/hosts"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	hostname >"$root/etc/hostname"
}

live_chroot_leave() {
	local m
	for m in $LIVE_CHROOT_MOUNTS; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	LIVE_CHROOT_MOUNTS=""
}
