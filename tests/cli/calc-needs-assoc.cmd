prio-calc --conf samples/site/slurm.conf --qos samples/site/qos.txt --jobs samples/site/jobs.txt
