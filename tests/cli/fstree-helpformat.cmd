fstree-show -e
