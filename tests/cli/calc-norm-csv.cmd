prio-calc --snapshot samples/site -n --csv -u alice,carol
