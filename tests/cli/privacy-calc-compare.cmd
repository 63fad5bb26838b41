prio-calc --snapshot tests/cli/privacy-data/alice --compare --set PriorityWeightQOS=50000 --now 2026-11-22T03:55:13
