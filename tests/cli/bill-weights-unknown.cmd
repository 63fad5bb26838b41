tres-bill --conf tests/cli/bill-data/weights-unknown.conf --tres cpu=1
