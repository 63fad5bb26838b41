fstree-show --conf tests/cli/json-data/slurm-24.11-fairtree/slurm.conf --assoc tests/cli/json-data/slurm-24.11-fairtree/sshare.json -a -l
