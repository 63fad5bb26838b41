prio-top --snapshot tests/cli/privacy-data/alice --once
