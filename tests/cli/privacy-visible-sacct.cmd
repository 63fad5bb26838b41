tres-bill --snapshot tests/cli/privacy-data/visible --jobs samples/site/jobs.txt cluster Utilization
