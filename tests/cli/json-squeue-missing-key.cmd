sed '0,/"submit_time"/s//"submit_tim"/' tests/cli/json-data/slurm-24.11-fairtree/jobs.json | prio-calc --snapshot tests/cli/json-data/slurm-24.11-fairtree --jobs - -l
