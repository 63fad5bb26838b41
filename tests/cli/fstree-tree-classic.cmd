fstree-show --snapshot samples/site --tree --algorithm classic --no-lag | head -9
