prio-calc --snapshot tests/cli/privacy-data/alice --explain 25 --now 2026-11-22T03:55:13
