# SPDX-License-Identifier: MIT
# The names a prio-tools option can take, for the bash, zsh and fish
# completions (each shell finds this file beside its own completion files
# and runs it with sh, so it needs no #! line nor the execute bit):
#   sh prio-tools-names.sh KIND [SNAPSHOT-DIR]
# KIND is jobs (pending jobs), users, accounts, partitions or qos; one name
# per line, sorted, no duplicates.  From the snapshot folder when one is
# given (the --snapshot of the line being completed), else from the
# cluster's own commands.  Never the machine's Unix users: a login node
# knows thousands that have no association, and a snapshot copied from a
# cluster knows users this machine does not.
kind=${1:-}
d=${2:-}
if [ -n "$d" ]; then
	case $kind in
	jobs)
		# scontrol show job: a record starts "JobId=N"; its state
		# follows on a later line (-d) or the same line (-o)
		for f in "$d"/jobs.txt "$d"/scontrol_show_job*.txt; do
			[ -r "$f" ] && awk '
				/^JobId=/ { if (id != "" && pd) print id; id = $1; sub(/^JobId=/, "", id); pd = 0 }
				/JobState=PENDING/ { pd = 1 }
				END { if (id != "" && pd) print id }' "$f"
		done ;;
	users | accounts)
		# sshare -P (Account|User|...) or a sacctmgr dump
		for f in "$d"/sshare.txt "$d"/sshare*.txt; do
			[ -r "$f" ] && awk -F'|' -v k="$kind" '
				NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				c["Account"] && c["User"] {
					a = $c["Account"]; sub(/^ */, "", a); u = $c["User"]
					if (k == "users" && u != "") print u
					if (k == "accounts" && u == "" && a != "root") print a }' "$f"
		done
		for f in "$d"/assoc.cfg "$d"/sacctmgr_dump*.cfg; do
			[ -r "$f" ] && sed -n "s/^[[:space:]]*$( [ "$kind" = users ] && echo User || echo Account) - '\([^']*\)'.*/\1/p" "$f"
		done ;;
	partitions)
		for f in "$d"/partitions.txt "$d"/scontrol_show_partition*.txt; do
			[ -r "$f" ] && sed -n 's/^PartitionName=\([^[:space:]]*\).*/\1/p' "$f"
		done ;;
	qos)
		for f in "$d"/qos.txt "$d"/sacctmgr_show_qos*.txt; do
			[ -r "$f" ] && awk -F'|' 'NR == 1 { ok = $1 == "Name" } NR > 1 && ok && $1 != "" { print $1 }' "$f"
		done ;;
	esac 2>/dev/null | sort -u
	exit 0
fi
# no snapshot: the cluster's view, briefly (a slow controller must not hang
# the shell)
case $kind in
jobs) timeout 3 squeue -h -t PD -o %i ;;
users) timeout 3 sacctmgr -nP show assoc format=User ;;
accounts) timeout 3 sacctmgr -nP show account format=Account ;;
partitions) timeout 3 sinfo -h -o %R ;;
qos) timeout 3 sacctmgr -nP show qos format=Name ;;
esac 2>/dev/null | sed '/^$/d' | sort -u
exit 0
