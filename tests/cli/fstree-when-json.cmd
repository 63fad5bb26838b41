# --when as a row (issue 16): the time a script needs, null where the
# sentence has no such part
fstree-show --snapshot samples/site --when oscar --fairshare 0.5 --json
