d=$(mktemp -d) && . tests/cli/calc-oracle.lib && calc_snapshot fairtree-basic "$d" && prio-top --snapshot "$d" --now "$(calc_last_calc fairtree-basic)" --once --size 80x24; s=$?; rm -rf "$d"; exit $s
