#!/bin/sh
# SPDX-License-Identifier: MIT
# Every long option a command shows in --help is in its man page and in its
# bash, zsh and fish completions, so that nothing drifts.
set -u
status=0
for tool in prio-calc prio-snap fstree-show tres-bill preempt-plan prio-top prio-exporter prio-diff; do
	# a command not built here (prio-top without ncursesw) has nothing to check
	command -v "$tool" >/dev/null 2>&1 || [ "$tool" = prio-calc ] || continue
	help=$("$tool" --help) || { echo "$tool --help failed"; status=1; continue; }
	opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$opts" ] || { echo "$tool: no options in --help"; status=1; }
	for opt in $opts; do
		name=${opt#--}
		grep -q -- "Fl -$name" "man/$tool.1" || { echo "$tool: $opt missing from man/$tool.1"; status=1; }
		grep -q -- "$opt" "completions/bash/$tool" || { echo "$tool: $opt missing from bash completion"; status=1; }
		grep -q -- "$opt" "completions/zsh/_$tool" || { echo "$tool: $opt missing from zsh completion"; status=1; }
		grep -q -- "-l $name" "completions/fish/$tool.fish" || { echo "$tool: $opt missing from fish completion"; status=1; }
	done
done
exit $status
