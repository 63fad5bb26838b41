preempt-plan --snapshot samples/preempt-future --job 20 --queue -o '%.8i %Z'
