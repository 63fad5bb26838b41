prio-calc --snapshot tests/cli/readers-data/slurm-24.11 --jobs - <&-
