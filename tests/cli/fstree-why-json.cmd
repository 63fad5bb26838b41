# --why as rows: each level of the Fair Tree walk, the user's and --vs's
fstree-show --snapshot samples/site --why oscar --vs astro/alice --json
