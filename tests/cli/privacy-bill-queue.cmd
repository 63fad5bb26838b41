tres-bill --snapshot tests/cli/privacy-data/alice
