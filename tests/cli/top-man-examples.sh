#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example of prio-top(1) runs as written and prints what the page
# says: calc-man-examples.sh's check, run on man/prio-top.1.
set -u
command -v prio-top >/dev/null 2>&1 || { echo "prio-top not built (no ncursesw): skipped"; exit 0; }
sed 's|man/prio-calc\.1|man/prio-top.1|' tests/cli/calc-man-examples.sh | sh
