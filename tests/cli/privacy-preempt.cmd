preempt-plan --snapshot tests/cli/privacy-data/alice --job 25
