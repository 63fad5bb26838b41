# --verify --json with a difference: the summary's counts and the row, job_id
# the integer and job the text sacct prints; exit 1
tres-bill --conf samples/site/slurm.conf --sacct tests/cli/bill-data/reqtres-multi.txt --verify --json
