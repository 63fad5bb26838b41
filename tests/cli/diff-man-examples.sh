#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example of prio-diff(1) runs and prints what the page says:
# fstree-man-examples.sh's check (exact output, at least five examples),
# run on man/prio-diff.1.
set -u
sed 's|man/fstree-show\.1|man/prio-diff.1|' tests/cli/fstree-man-examples.sh | sh
