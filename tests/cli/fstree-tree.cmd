fstree-show --snapshot samples/site --tree
