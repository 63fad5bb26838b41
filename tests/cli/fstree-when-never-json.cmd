# never: reached false, the best value and when nothing changes; exit 1
fstree-show --snapshot samples/site --when oscar --fairshare 0.99 --json
