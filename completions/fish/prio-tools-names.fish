# SPDX-License-Identifier: MIT
# Sourced by the prio-tools fish completions.  __prio_tools_names KIND: the
# jobs (pending), users, accounts, partitions or qos of the snapshot named
# on the line (--snapshot DIR), else of the cluster, as bash and zsh offer
# them: the names come from prio-tools-names.sh, beside this file once
# installed, one folder up in the source tree.  A comma-separated list
# completes its last item with a name not in it yet.
set -g __prio_tools_names_sh (status dirname)/prio-tools-names.sh
test -r $__prio_tools_names_sh; or set __prio_tools_names_sh (status dirname)/../prio-tools-names.sh

function __prio_tools_names --argument-names kind
    set -l dir
    set -l words (commandline -opc)
    for i in (seq 2 (count $words))
        switch $words[$i]
            case --snapshot
                set dir $words[(math $i + 1)]
            case '--snapshot=*'
                set dir (string replace -- --snapshot= '' $words[$i])
            case '*'
                continue
        end
        break
    end
    set dir (string replace -r -- '^~' $HOME "$dir")
    test -n "$dir" -a -d "$dir"; or set dir
    # the word being completed, without an --option= before the value
    set -l cur (commandline -ct)
    set cur (string replace -r -- '^--[^=]*=' '' "$cur")
    set -l head (string match -r -- '^.*,' "$cur")
    set -l have (string split -- , "$head")
    for n in (sh $__prio_tools_names_sh $kind $dir)
        contains -- $n $have; or echo "$head$n"
    end
end
