fstree-show --snapshot samples/site --when alice --account hep --fairshare 0.7 --no-run
