# SPDX-License-Identifier: MIT
complete -c prio-snap -s M -l cluster -x -d 'cluster to capture'
complete -c prio-snap -l since -x -d 'sacct history start'
complete -c prio-snap -l no-sacct -d 'skip the accounting history'
complete -c prio-snap -l no-dump -d 'skip sacctmgr dump'
complete -c prio-snap -l no-squeue-json -d 'skip squeue --json (jobs.json)'
complete -c prio-snap -l help -d 'show help'
complete -c prio-snap -l version -d 'show version'
complete -c prio-snap -a '(__fish_complete_directories)'
