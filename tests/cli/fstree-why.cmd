fstree-show --snapshot samples/site --why carol
