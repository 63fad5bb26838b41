fstree-show --snapshot samples/site -m -l -u dave
