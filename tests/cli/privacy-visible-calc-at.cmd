prio-calc --snapshot tests/cli/privacy-data/visible -l --now 2026-11-22T03:55:13 --at 2026-11-22T05:00:00
