d=$(mktemp -d) && cp -r tests/cli/readers-data/slurm-24.11 "$d/s" && printf 'zone\tEurope/Paris\t+0000\n' >>"$d/s/MANIFEST" && cd "$d" && prio-calc --snapshot s -o '%.7i'; s=$?; rm -rf "$d"; exit $s
