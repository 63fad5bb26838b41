prio-calc --snapshot samples/site -h -j 44,40 -o "%i %r %Y"
