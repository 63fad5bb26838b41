# standard input: a pipe is read to its end and counts like the file; cut, it is refused alike
cat tests/cli/readers-data/slurm-24.11/jobs.txt | prio-calc --snapshot tests/cli/readers-data/slurm-24.11 --jobs - -h | wc -l
prio-calc --snapshot tests/cli/readers-data/slurm-24.11 -h | wc -l
head -c 5000 tests/cli/readers-data/slurm-24.11/jobs.txt | prio-calc --snapshot tests/cli/readers-data/slurm-24.11 --jobs -
