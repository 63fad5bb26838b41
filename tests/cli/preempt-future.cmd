# The "Future Ideas" example of Slurm's preemption document: Slurm suspends
# 17, 18 and 19 for job 20 on n[1-3]; n[3-5] suspends 19 only.
preempt-plan --snapshot samples/preempt-future --job 20
