fstree-show --snapshot samples/site -o Account,Nope
