prio-top --snapshot samples/site --once --size 200x50 --view detail --select astro/bob
