fstree-show --snapshot samples/site --when ivan --level-fs 0.6
