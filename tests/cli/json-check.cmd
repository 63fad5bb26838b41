prio-calc --snapshot tests/cli/json-data/slurm-24.11-fairtree --check | grep -E '^(input|slurm) '
