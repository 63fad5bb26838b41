fstree-show --snapshot tests/cli/json-data/slurm-24.11-fairtree --audit tests/cli/json-data/slurm-24.11-fairtree/sshare.json
