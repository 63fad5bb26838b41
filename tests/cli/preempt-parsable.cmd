# preemption-b's hi job, from the snapshot before it: '|'-separated rows,
# Slurm's action then the minimal plan's, no header.
preempt-plan --conf tests/oracle/preemption-b-three-partitions/slurm.conf --jobs tests/oracle/preemption-b-three-partitions/scontrol_show_job_d_2_med_submitted.txt --now 1795319011 -p hi -N2 -t 5 -P -h
