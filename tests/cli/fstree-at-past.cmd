fstree-show --snapshot samples/site --at 2026-11-22T03:00:00 -u alice
