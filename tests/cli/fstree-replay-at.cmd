fstree-show --snapshot samples/site --replay --at 2026-11-22T03:45:00 -P -a -o Account,User,RawUsage,FairShare
