tres-bill --conf samples/site/slurm.conf --sacct tests/cli/bill-data/reqtres-multi.txt --verify -P
