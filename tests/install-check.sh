#!/bin/sh
# SPDX-License-Identifier: MIT
# After "make install DESTDIR=DEST": the library exports prio_* only, the
# headers and libprio.pc let a program build against it, and that program
# loads a real slurm.conf.  usage: tests/install-check.sh DEST
set -eu
dest=$1
top=$(cd "$(dirname "$0")/.." && pwd)
pc=$(find "$dest" -name libprio.pc | head -1)
[ -n "$pc" ] || { echo "libprio.pc not installed"; exit 1; }
so=$(find "$dest" -name 'libprio.so.*' -type f | head -1)
[ -n "$so" ] || { echo "libprio.so not installed"; exit 1; }
bad=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^prio_/ && $3 !~ /^_/ { print $3 }')
[ -z "$bad" ] || { echo "symbols exported without the prio_ prefix:"; echo "$bad"; exit 1; }
for b in prio-calc prio-snap; do
	[ -x "$(find "$dest" -path "*/bin/$b" | head -1)" ] || { echo "$b not installed"; exit 1; }
done
for m in prio-calc.1 prio-snap.1 prio-tools.7 prio-tools.conf.5; do
	[ -n "$(find "$dest" -name "$m" | head -1)" ] || { echo "man page $m not installed"; exit 1; }
done
# Installed pages are dated the release (configure.ac's prio_release_date,
# Makefile.am's install-man-dates), whatever day their source was edited.
day=$(sed -n 's/^m4_define(\[prio_release_date\], \[\(.*\)\])$/\1/p' "$top/configure.ac")
# shellcheck disable=SC2046
set -- $(echo "$day" | tr - ' ')
want=".Dd $(echo January February March April May June July August September October November December | cut -d' ' -f"${2#0}") ${3#0}, $1"
undated=$(find "$dest" -path '*/man/man[1-8]/*' -type f -exec grep -L -x -F "$want" {} +)
[ -z "$undated" ] || { echo "man pages not dated $want:" $undated; exit 1; }
[ -n "$(find "$dest" -path '*bash-completion*' -name prio-calc | head -1)" ] ||
	{ echo "bash completion not installed"; exit 1; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/use.c" <<'C'
#include <stdio.h>
#include <prio/prio.h>
int main(int argc, char **argv)
{
	struct prio_snapshot snap;
	struct prio_error err;
	char msg[1024];
	(void)argc;
	if (prio_snapshot_init(&snap) < 0)
		return 1;
	if (prio_load_role(&snap, PRIO_ROLE_CONF, argv[1], &err) < 0 ||
	    prio_snapshot_finish(&snap, &err) < 0) {
		fprintf(stderr, "%s\n", prio_error_format(&err, msg, sizeof(msg)));
		return 1;
	}
	printf("%s %u\n", snap.conf.cluster_name, snap.partition_count);
	prio_snapshot_free(&snap);
	return 0;
}
C
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
# shellcheck disable=SC2046
cc -o "$tmp/use" "$tmp/use.c" $(pkg-config --cflags --libs libprio)
out=$(LD_LIBRARY_PATH=$(dirname "$so") "$tmp/use" "$top/samples/site/slurm.conf")
[ "$out" = "ft 3" ] || { echo "unexpected output: $out"; exit 1; }
echo "ok: $out"
