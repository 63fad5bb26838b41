#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's quick start installs what the build needs: every library
# package (-dev) .ci/run installs is in its apt-get line, so that the
# first command works on a fresh Debian machine (libmicrohttpd-dev, which
# configure requires since prio-exporter, was once missing from it).
set -u
quick=$(grep -m1 'apt-get install' README.md)
[ -n "$quick" ] || { echo "README: no apt-get install line"; exit 1; }
deps=$(sed -n '/^deps="/,/"$/p' .ci/run | tr -d '"' | sed 's/^deps=//' | tr ' \t' '\n\n' | grep -- '^lib.*-dev$')
[ -n "$deps" ] || { echo ".ci/run: no -dev packages found"; exit 1; }
status=0
for p in $deps; do
	case " $quick " in *" $p "*) ;; *) echo "README's quick start lacks $p"; status=1 ;; esac
done
exit $status
