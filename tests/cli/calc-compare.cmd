prio-calc --snapshot samples/site --compare --set qos:urgent.Priority=0 --set job:31.QOS=urgent --set job:35.Partition=short
