prio-calc --snapshot samples/site -S -F,i -o "%.5i %.6F %.6Q %.6Y"
