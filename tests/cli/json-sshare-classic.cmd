fstree-show --snapshot tests/cli/json-data/slurm-24.11-classic -a -l
