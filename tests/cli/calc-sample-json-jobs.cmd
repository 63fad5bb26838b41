prio-calc --snapshot samples/site --jobs samples/site/jobs.json --now 1795319713 -l | diff samples/site/sprio_l.expected - && echo squeue --json gives the same table
