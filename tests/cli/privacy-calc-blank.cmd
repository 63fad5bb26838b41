prio-calc --snapshot tests/cli/privacy-data/alice -l --now 2026-11-22T03:55:13
