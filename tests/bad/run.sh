#!/bin/sh
# SPDX-License-Identifier: MIT
# The bad-input suite (issue 13): every case in tests/bad/cases spoils one
# source of a good snapshot and runs one command (or all five) on it.  The
# answer must be the one-line error "tool: file:line: field: why" with exit
# 2 and nothing on stdout, or, under --keep-going, the same as a counted
# warning with exit 0 that prio-calc --check lists.  Prints one line per
# failure, then "bad: N passed, N failed, N known failures".
#
# A line of tests/bad/cases is six fields separated by " ;; ":
#   BASE ;; MUTATION ;; TOOL ;; ARGS ;; STATUS ;; STDERR
# BASE      the good snapshot copied to ./s: 24 (tests/cli/readers-data/
#           slurm-24.11, a real 24.11 capture), site (samples/site: slurm.conf,
#           22.05's TRES=, sshare -P), json (samples/slurm-24.11: squeue
#           --json, sshare --json)
# MUTATION  shell run in the work folder to spoil ./s (helpers below)
# TOOL      prio-calc, fstree-show, tres-bill, preempt-plan, prio-top,
#           prio-exporter (no --once: ARGS say it), prio-diff (s is A,
#           ARGS name B), fstree-show-history and prio-calc-history (the
#           command without --snapshot: ARGS give --history and the series
#           the mutation made), all
#           (the five), or check (prio-calc --keep-going --check -P, STDERR
#           is then the "problem|" line expected on stdout)
# ARGS      more arguments (after --snapshot s)
# STATUS    the exit status; "xfail" before it marks a known failure (the
#           right answer, not today's): counted apart, listed with -v
# STDERR    the whole of stderr after "tool: " (empty: stderr is empty)
#
# BAD_VALGRIND=1 runs the commands under valgrind (its own errors exit 99),
# one command per case in turn (BAD_VALGRIND_ALL=1: every one).
# BAD_GEN=1 prints each case with today's answer instead of judging it (to
# write new cases: read every answer before keeping it).  BAD_ONLY=REGEX
# runs only the lines that match, BAD_SHARD=K/N only the lines whose number
# is K modulo N (N runs in parallel share the work).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PATH="$top_builddir:$PATH"
export PATH TZ=UTC LC_ALL=C PRIO_TOOLS_CONF=/dev/null
unset COLUMNS # prose folds to it (cmd_text_width)
cases=${BAD_CASES:-$top_srcdir/tests/bad/cases}
vg=""
if [ -n "${BAD_VALGRIND:-}" ]; then
	vg="valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite -q"
	# In a shared build the tools in the build tree are libtool's wrapper
	# scripts: valgrind would check the shell and let it exec the program
	# unchecked.  The programs themselves, and the library beside them.
	if [ -d "$top_builddir/.libs" ]; then
		PATH="$top_builddir/.libs:$PATH"
		LD_LIBRARY_PATH="$top_builddir/libprio/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		export LD_LIBRARY_PATH
	fi
fi
tmp=$(mktemp -d) || exit 99
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"

# Mutation helpers; each takes the file first.
cut() { truncate -s "-$2" "$1"; }             # drop the last N bytes
nonl() { truncate -s -1 "$1"; }               # drop the final newline
empty() { : >"$1"; }
dir() { rm -f "$1" && mkdir "$1"; }
fifo() { rm -f "$1" && mkfifo "$1"; }
gone() { rm -f "$1"; }
sub() { # sed script in place; a script that changes nothing is an error
	cp "$1" "$1.orig" && sed -i "$2" "$1" && ! cmp -s "$1" "$1.orig" &&
		rm -f "$1.orig"
}
app() { printf '%b\n' "$2" >>"$1"; }           # append a line
noread() { chmod 000 "$1"; asnobody=1; }      # root reads all: run as nobody
incl() { # move slurm.conf's PriorityWeight* lines to s/weights.conf, "Include $1"
	grep '^PriorityWeight' s/slurm.conf >s/weights.conf &&
		sed -i '/^PriorityWeight/d' s/slurm.conf && echo "Include $1" >>s/slurm.conf
}

run() { # TOOL ARGS -> $rc, $tmp/out, $tmp/err (in $tmp/w)
	t=$1 a=$2
	case $t in
	prio-calc | fstree-show | tres-bill) set -- "$t" --snapshot s ;;
	preempt-plan) set -- "$t" --snapshot s --job "$job" ;;
	prio-top) set -- "$t" --snapshot s --once --size 80x24 ;;
	prio-exporter) set -- "$t" --snapshot s ;;
	prio-diff) set -- "$t" s ;; # ARGS: the second folder
	check) set -- prio-calc --snapshot s --keep-going --check -P ;;
	# --history reads a series the mutation makes of s (ARGS name it)
	fstree-show-history | prio-calc-history) set -- "${t%-history}" ;;
	esac
	# valgrind runs the tool itself, inside setpriv (valgrind of setpriv
	# would check setpriv only)
	# shellcheck disable=SC2086
	[ -n "$vg" ] && set -- $vg "$@"
	if [ "$asnobody" = 1 ] && [ "$(id -u)" = 0 ]; then
		set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	fi
	(cd "$tmp/w" && eval "\"\$@\" $a" </dev/null >"$tmp/out" 2>"$tmp/err")
	rc=$?
}

passed=0 failed=0 known=0 skipped=0 n=0
while IFS= read -r line; do
	n=$((n + 1))
	case $line in '' | '#'*) [ -n "${BAD_GEN:-}" ] && printf '%s\n' "$line"; continue ;; esac
	[ -n "${BAD_ONLY:-}" ] && ! printf '%s\n' "$line" | grep -qE -- "$BAD_ONLY" && continue
	[ -n "${BAD_SHARD:-}" ] && [ $((n % ${BAD_SHARD#*/})) != "${BAD_SHARD%/*}" ] && continue
	rest=$line
	base=${rest%% ;; *}; rest=${rest#* ;; }
	mut=${rest%% ;; *}; rest=${rest#* ;; }
	tool=${rest%% ;; *}; rest=${rest#* ;; }
	args=${rest%% ;; *}; rest=${rest#* ;; }
	want_rc=${rest%% ;; *}; want_err=${rest#* ;; }
	[ "$want_err" = "$rest" ] && want_err=""
	case $base in
	24) src=$top_srcdir/tests/cli/readers-data/slurm-24.11 job=8 ;;
	site) src=$top_srcdir/samples/site job=36 ;;
	json) src=$top_srcdir/samples/slurm-24.11 job=9 ;;
	*) echo "  cases:$n: unknown base '$base'"; failed=$((failed + 1)); continue ;;
	esac
	xfail=0
	case $want_rc in xfail*) xfail=1 want_rc=${want_rc#xfail} want_rc=${want_rc# } ;; esac
	tools=$tool
	[ "$tool" = all ] && tools="prio-calc fstree-show tres-bill preempt-plan prio-top"
	if [ -n "$vg" ] && [ -z "${BAD_VALGRIND_ALL:-}" ]; then
		# valgrind costs 1-3 s a run: one command per case, turn by
		# turn, so that every command meets every source
		set -- $tools
		shift $((n % $#))
		tools=$1
	fi
	gen_out=""
	for t in $tools; do
		chmod -R u+rwx "$tmp/w" 2>/dev/null; rm -rf "$tmp/w"
		mkdir "$tmp/w" && cp -r "$src" "$tmp/w/s" || exit 99
		asnobody=0
		if [ "$mut" != - ]; then
			(cd "$tmp/w" && eval "$mut") || { echo "  cases:$n: mutation failed: $mut"; failed=$((failed + 1)); continue; }
			# the helpers set asnobody in the subshell: look again
			case $mut in *noread*) asnobody=1 ;; esac
		fi
		if [ "$asnobody" = 1 ] && [ "$(id -u)" = 0 ]; then
			# nobody must reach the built tools (a private home does not)
			if [ -z "${nobody_ok:-}" ]; then
				nobody_ok=no
				command -v setpriv >/dev/null &&
					setpriv --reuid=65534 --regid=65534 --clear-groups \
						prio-calc --version >/dev/null 2>&1 && nobody_ok=yes
			fi
			[ "$nobody_ok" = yes ] || { skipped=$((skipped + 1)); continue; }
		fi
		run "$t" "$args"
		# stderr (or check's problem lines) as one line: each line
		# without its "tool: ", joined by " // "
		if [ "$t" = check ]; then
			grep '^problem|' "$tmp/out" | sed 's/^problem|//' >"$tmp/got"
		else
			sed "s/^${t%-history}: //" "$tmp/err" >"$tmp/got"
		fi
		got_err=$(sed ':a;N;$!ba;s#\n# // #g' "$tmp/got")
		if [ -n "${BAD_GEN:-}" ]; then
			gen_out="$gen_out$t ;; $rc ;; $got_err
"
			continue
		fi
		ok=1
		[ "$rc" = "$want_rc" ] || ok=0
		[ "$got_err" = "$want_err" ] || ok=0
		if [ "$t" != check ]; then
			# a refusal is one line, with nothing on stdout
			if [ "$rc" = 2 ]; then
				[ "$(grep -vc "^${t%-history}: warning: " "$tmp/err")" -le 1 ] || ok=0
				[ ! -s "$tmp/out" ] || ok=0
			fi
		fi
		if [ $ok = 1 ] && [ $xfail = 0 ]; then
			passed=$((passed + 1))
		elif [ $xfail = 1 ] && [ $ok = 0 ]; then
			known=$((known + 1))
			[ -n "${BAD_VERBOSE:-}" ] && echo "  known failure cases:$n $t $args: exit $rc: $got_err"
		else
			failed=$((failed + 1))
			[ $xfail = 1 ] && echo "  cases:$n: $t: passes now: drop its xfail"
			[ $xfail = 0 ] && {
				echo "  cases:$n: $t $args ($mut): exit $rc, expected $want_rc"
				echo "    stderr:   $(head -3 "$tmp/err")"
				echo "    expected: $want_err"
				[ "$rc" = 2 ] && [ -s "$tmp/out" ] && echo "    and stdout is not empty"
			}
		fi
	done
	if [ -n "${BAD_GEN:-}" ]; then
		# one line when every tool said the same, else one per tool
		u=$(printf '%s' "$gen_out" | sed 's/^[^ ]* ;; //' | sort -u | wc -l)
		if [ "$u" = 1 ]; then
			printf '%s ;; %s ;; %s ;; %s ;; %s\n' "$base" "$mut" "$tool" "$args" \
				"$(printf '%s' "$gen_out" | head -1 | sed 's/^[^ ]* ;; //')"
		else
			printf '%s' "$gen_out" | while IFS= read -r g; do
				printf '%s ;; %s ;; %s ;; %s ;; %s\n' "$base" "$mut" \
					"${g%% ;; *}" "$args" "${g#* ;; }"
			done
		fi
	fi
done <"$cases"
[ -n "${BAD_GEN:-}" ] && exit 0
echo "bad: $passed passed, $failed failed, $known known failures${skipped:+}$( [ $skipped != 0 ] && echo ", $skipped skipped")"
[ "$failed" = 0 ]
