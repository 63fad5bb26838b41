fstree-show --snapshot tests/cli/privacy-data/alice -a -l
