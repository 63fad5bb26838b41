TZ=America/New_York prio-calc --snapshot tests/cli/readers-data/slurm-24.11 -o '%.7i' && prio-calc --snapshot tests/cli/readers-data/slurm-24.11 --now 2026-11-26T10:01:41 -o '%.7i' | head -2
