#!/bin/sh
# SPDX-License-Identifier: MIT
# Every man page is mandoc -Tlint clean at warning level (style notes such
# as references to Slurm's own pages, absent here, are allowed).
set -u
command -v mandoc >/dev/null || { echo "mandoc not installed (Debian package mandoc)"; exit 1; }
status=0
for page in man/*.[0-9]; do
	out=$(mandoc -Tlint -W warning "$page" 2>&1) || true
	[ -z "$out" ] || { echo "$out"; status=1; }
done
exit $status
