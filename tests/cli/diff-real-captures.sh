#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-diff on three real captures of one Slurm 24.11.5 cluster (`live`),
# 09:58, 10:04 and 10:33 (tests/cli/diff-data/README.md): every
# association value it reports changed is the one each capture's own
# `sshare -a -l -P` printed, every value that differs between the two
# sshare outputs is reported, and the jobs submitted, started and ended
# are those the two `scontrol show job` outputs give (a job is the same
# job when id and submit time agree: the live test restarts the
# controller, which hands out ids 1, 2, ... again).
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# FILE -> "account|user|field|value" for the six fields prio-diff compares
sshare_values() {
	awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ a = $c["Account"]; sub(/^ */, "", a)
	  n = split("RawShares NormShares RawUsage EffectvUsage FairShare LevelFS", f, " ")
	  for (k = 1; k <= n; k++) if (f[k] in c) print a "|" $c["User"] "|" f[k] "|" $c[f[k]] }' "$1"
}
# FILE -> "id submit state" per job of scontrol show job
jobs_of() {
	awk '/^JobId=/ { if (id != "") print id, sub_, st; id = $1; sub(/^JobId=/, "", id) }
	{ if (match($0, /SubmitTime=[^ ]*/)) sub_ = substr($0, RSTART + 11, RLENGTH - 11)
	  if (match($0, /JobState=[^ ]*/)) st = substr($0, RSTART + 9, RLENGTH - 9) }
	END { if (id != "") print id, sub_, st }' "$1"
}

set -- tests/cli/diff-data/live-0958 tests/cli/readers-data/slurm-24.11 samples/slurm-24.11
while [ $# -ge 2 ]; do
	a=$1 b=$2
	shift
	prio-diff -P -h "$a" "$b" >"$tmp/p" 2>"$tmp/e"; rc=$?
	[ $rc = 1 ] || { fail "$a $b: exit $rc: $(cat "$tmp/e")"; continue; }
	[ ! -s "$tmp/e" ] || fail "$a $b: stderr: $(cat "$tmp/e")"

	# shares and usage against both sshare outputs
	sshare_values "$a/sshare.txt" | sort >"$tmp/sa"
	sshare_values "$b/sshare.txt" | sort >"$tmp/sb"
	# section|change|job_id|user|account|partition|qos|key|old_setting|new_setting|old|new|delta|...
	awk -F'|' '$1 == "assoc" { print $5 "|" $4 "|" $8 "|" $11 "|" $12 }' "$tmp/p" | sort >"$tmp/got"
	awk -F'|' '{ print $1 "/" $2 "/" $3 "|" $4 }' "$tmp/sa" | sort -t'|' -k1,1 >"$tmp/ka"
	awk -F'|' '{ print $1 "/" $2 "/" $3 "|" $4 }' "$tmp/sb" | sort -t'|' -k1,1 >"$tmp/kb"
	join -t'|' "$tmp/ka" "$tmp/kb" | awk -F'|' '$2 != $3 { print $1 "|" $2 "|" $3 }' | sort >"$tmp/want"
	awk -F'|' '{ print $1 "/" $2 "/" $3 "|" $4 "|" $5 }' "$tmp/got" | sort >"$tmp/have"
	[ -s "$tmp/want" ] || fail "$a $b: the two sshare outputs agree: nothing to check"
	diff "$tmp/want" "$tmp/have" >"$tmp/d" ||
		fail "$a $b: association values (< sshare, > prio-diff): $(head -10 "$tmp/d")"

	# jobs against both job lists
	jobs_of "$a/jobs.txt" | sort >"$tmp/ja"
	jobs_of "$b/jobs.txt" | sort >"$tmp/jb"
	awk 'function active(s) { return s == "PENDING" || s == "RUNNING" || s == "SUSPENDED" || s == "COMPLETING" || s == "CONFIGURING" }
	FNR == NR { sa[$1] = $2; st[$1] = $3; next }
	{ sb[$1] = $2; tb[$1] = $3 }
	END {
		for (j in sb) if (!(j in sa) || sa[j] != sb[j]) print j, "submitted"
		for (j in sa) {
			if (!active(st[j])) continue
			if (!(j in sb) || sa[j] != sb[j] || !active(tb[j])) print j, "ended"
			else if (st[j] == "PENDING" && tb[j] != "PENDING") print j, "started"
		}
	}' "$tmp/ja" "$tmp/jb" | sort >"$tmp/want"
	awk -F'|' '$1 == "jobs" { print $3, $2 }' "$tmp/p" | sort >"$tmp/have"
	[ -s "$tmp/want" ] || fail "$a $b: no job changed"
	diff "$tmp/want" "$tmp/have" >"$tmp/d" || fail "$a $b: jobs (< scontrol, > prio-diff): $(head -10 "$tmp/d")"
done
exit $status
