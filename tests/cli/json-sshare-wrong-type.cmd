sed 's/"usage": 2012/"usage": "2012"/' tests/cli/json-data/slurm-24.11-fairtree/sshare.json | fstree-show --conf tests/cli/json-data/slurm-24.11-fairtree/slurm.conf --assoc - -a
