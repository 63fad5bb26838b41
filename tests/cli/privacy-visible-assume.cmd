prio-calc --snapshot tests/cli/privacy-data/visible --assume-complete --rank --now 2026-11-22T03:55:13
