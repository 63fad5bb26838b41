prio-calc --snapshot samples/site --conf tests/cli/whatif-data/typo.conf --check
