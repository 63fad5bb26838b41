prio-calc --snapshot tests/cli/readers-data/slurm-24.11 --check -P | grep -E '^(input|slurm|count|jobs|problem)\|'
