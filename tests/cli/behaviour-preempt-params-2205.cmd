tres-bill --conf tests/cli/behaviour-data/preempt-params-2205.conf --slurm-version 22.05 --tres cpu=1
