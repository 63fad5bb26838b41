tres-bill --conf tests/oracle/billing-max-tres/slurm.conf.max_tres -p sum -N 2 -n 2 --mem 1G --rate 0.5 -P
