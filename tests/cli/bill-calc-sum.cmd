tres-bill --conf tests/oracle/billing-max-tres/slurm.conf.default -p sum --tres cpu=4,mem=1G,node=1
