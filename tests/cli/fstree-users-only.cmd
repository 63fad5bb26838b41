fstree-show --snapshot samples/site -U -u alice,bob -o A,U,F%12,Raw%-8
