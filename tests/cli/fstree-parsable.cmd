fstree-show --snapshot samples/site -p -n -u bob -o Acc,User,FairShare
