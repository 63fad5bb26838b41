fstree-show --snapshot samples/site -P -u alice -o Account,User,RawShares,NormShares,FairShare --set assoc:hep.Fairshare=100 --set PriorityDecayHalfLife=14-0
