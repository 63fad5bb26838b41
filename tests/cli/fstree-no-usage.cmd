fstree-show --conf samples/site/slurm.conf --assoc samples/site/assoc.cfg -a
