fstree-show --snapshot samples/site --why alice
