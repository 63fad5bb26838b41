d=$(mktemp -d) && . tests/cli/calc-oracle.lib && calc_snapshot classic "$d" && prio-top --snapshot "$d" --now "$(calc_last_calc classic)" --once --size 200x50 --view tree; s=$?; rm -rf "$d"; exit $s
