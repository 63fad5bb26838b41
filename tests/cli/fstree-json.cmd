fstree-show --snapshot samples/site --json -u oscar -l
