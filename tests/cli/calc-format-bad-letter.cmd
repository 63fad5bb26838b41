prio-calc --snapshot samples/site -o "[%.3i|%n|%o|%.5Y]" -j 25
