prio-calc --snapshot samples/site --now 1795319713 -l | diff samples/site/sprio_l.expected - && echo identical to sprio -l
