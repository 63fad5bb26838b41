tres-bill --conf tests/oracle/billing-max-tres/slurm.conf.default --jobs tests/oracle/billing-max-tres/scontrol_show_job_d_default_running.txt -P
