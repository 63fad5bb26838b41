tres-bill --conf tests/cli/bill-data/weights-gres-empty.conf --tres cpu=1
