tres-bill --conf tests/cli/behaviour-data/max-tres-gres.conf --slurm-version 24.11 --tres cpu=4,mem=8G,node=1,gres/gpu=2,license/foo=2
