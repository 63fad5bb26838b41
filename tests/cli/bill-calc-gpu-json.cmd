tres-bill --conf tests/cli/bill-data/gpu.conf --tres cpu=16,mem=60G,node=1,gres/gpu=2,license/matlab=1 --json
