# --verify --json keeps the summary the text prints: one object, the
# counts, then the records whose billing= differs (none here)
tres-bill --snapshot samples/site --verify --json
