#!/bin/sh
# SPDX-License-Identifier: MIT
# tres-bill takes its options after the report words too, as sreport does
# (issue 16): the same report whichever side -P and -t stand on.
set -u
s=samples/site
a=$(tres-bill --snapshot "$s" --slurm-version 24.11 -P -t hours cluster Utilization start=2026-11-21 end=2026-11-22) || exit 1
b=$(tres-bill --snapshot "$s" cluster Utilization start=2026-11-21 end=2026-11-22 -P -t hours --slurm-version 24.11) || exit 1
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "options after the report words give another report"; echo "$a" | head -5; echo "$b" | head -5; exit 1; }
# and they act: hours, parsable
echo "$b" | grep -q 'Usage reported in CPU Hours' || { echo "-t hours after the words ignored"; echo "$b" | head -5; exit 1; }
echo "$b" | grep -q '|' || { echo "-P after the words ignored"; exit 1; }
