d=$(mktemp -d) && . tests/cli/calc-oracle.lib && calc_snapshot fairtree-basic "$d" && prio-calc --snapshot "$d" --now "$(calc_last_calc fairtree-basic)" --explain 35; s=$?; rm -rf "$d"; exit $s
