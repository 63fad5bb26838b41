fstree-show --snapshot tests/cli/privacy-data/visible -a --at 2026-11-22T05:00:00
