d=$(mktemp -d) && . tests/cli/calc-oracle.lib && calc_snapshot seed-hierarchy "$d" && prio-calc --snapshot "$d" --now "$(calc_last_calc seed-hierarchy)" --explain 18; s=$?; rm -rf "$d"; exit $s
