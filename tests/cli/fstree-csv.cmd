fstree-show --snapshot samples/site --csv -u oscar -o Account,User,RawShares,LevelFS
