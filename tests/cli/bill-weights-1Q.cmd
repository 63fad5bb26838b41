tres-bill --conf tests/cli/bill-data/weights-1Q.conf --tres cpu=1
