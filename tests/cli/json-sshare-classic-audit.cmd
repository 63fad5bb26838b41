fstree-show --snapshot tests/cli/json-data/slurm-24.11-classic --audit tests/cli/json-data/slurm-24.11-classic/sshare.json
