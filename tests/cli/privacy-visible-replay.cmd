fstree-show --snapshot tests/cli/privacy-data/visible --assoc tests/cli/privacy-data/visible/assoc.cfg --jobs samples/site/jobs.txt --replay -a
