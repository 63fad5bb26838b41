sed "s|^PriorityType=.*|PriorityType=priority/basic|" samples/site/slurm.conf | prio-calc --snapshot samples/site --conf -
