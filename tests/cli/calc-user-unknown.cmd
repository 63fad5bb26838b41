prio-calc --snapshot samples/site -u nobody,1009 -o "%i %u"
