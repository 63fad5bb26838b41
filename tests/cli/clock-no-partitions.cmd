d=$(mktemp -d) && cp -r tests/cli/readers-data/slurm-24.11 "$d/s" && rm "$d/s/partitions.txt" && cd "$d" && prio-calc --snapshot s; s=$?; rm -rf "$d"; exit $s
