tres-bill --conf tests/cli/bill-data/gpu.conf -N 2 -n 8 -c 2 --mem-per-cpu 4G --gres gpu:a100:3 -P
