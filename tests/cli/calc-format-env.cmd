SPRIO_FORMAT="%i:%u:%Y" prio-calc --snapshot samples/site -p big
