fstree-show --snapshot samples/site -a -P -A hep,ASTRO
