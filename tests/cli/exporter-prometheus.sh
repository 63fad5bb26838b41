#!/bin/sh
# SPDX-License-Identifier: MIT
# A real Prometheus (Debian's prometheus package) on 127.0.0.1 scrapes
# prio-exporter every second with basic authentication; once the target is
# up, the query API must give the values the tools print: a job's priority
# (prio-calc -P, and Slurm's own sprio of the capture), an association's
# FairShare (fstree-show -a -l -P), the pending count of a partition
# (Slurm's squeue); and every query of the example Grafana dashboard
# answers.  Skips (77) without prometheus or curl, unless
# PRIO_REQUIRE_PROMETHEUS is set (.ci/run): then their absence fails.
set -eu
. tests/cli/exporter.lib
need_tools prometheus curl
. tests/cli/calc-oracle.lib
o=tests/oracle/fairtree-basic
d=$(mktemp -d)
epid="" ppid_=""
cleanup() { exporter_stop "$ppid_"; exporter_stop "$epid"; rm -rf "$d"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
	echo "FAIL: $*"
	for f in exporter.err prometheus.log; do
		[ -f "$d/$f" ] && tail -15 "$d/$f" | sed "s/^/  $f: /"
	done
	exit 1
}
calc_snapshot fairtree-basic "$d/s"
printf 'prom:scrape-me\n' >"$d/auth"
exporter_start "$d/exporter.err" --snapshot "$d/s" --basic-auth-file "$d/auth"

cat >"$d/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: prio
    scrape_interval: 1s
    scrape_timeout: 1s
    basic_auth:
      username: prom
      password: scrape-me
    static_configs:
      - targets: ['127.0.0.1:$eport']
EOT
# a free port for Prometheus: try a few at random (it exits when the port
# is taken)
pport=""
for try in 1 2 3 4 5 6 7 8; do
	p=$(( (($$ + try * 7919) % 20000) + 30000 ))
	mkdir -p "$d/tsdb"
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/tsdb" \
		--web.listen-address="127.0.0.1:$p" >"$d/prometheus.log" 2>&1 &
	ppid_=$!
	for i in $(seq 100); do
		kill -0 "$ppid_" 2>/dev/null || break
		curl -sf "http://127.0.0.1:$p/-/ready" >/dev/null 2>&1 && { pport=$p; break; }
		sleep 0.2
	done
	[ -n "$pport" ] && break
	exporter_stop "$ppid_"; ppid_=""
done
[ -n "$pport" ] || fail "prometheus did not start"
api=http://127.0.0.1:$pport/api/v1

query() { # PROMQL -> the value of the one result (empty when none)
	curl -sf -G --data-urlencode "query=$1" "$api/query" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}
up=""
for i in $(seq 150); do
	up=$(query 'up{job="prio"}')
	[ "$up" = 1 ] && [ -n "$(query 'prio_job_priority{job_id="26"}')" ] && break
	sleep 0.2
done
[ "$up" = 1 ] || fail "target not up: $(curl -s "$api/targets" | grep -o '"lastError":"[^"]*"' | head -1)"

# job 26 in partition short: prio-calc -P and Slurm's sprio
want=$(prio-calc --snapshot "$d/s" -P 2>/dev/null | awk -F'|' '$1 == 26 && $2 == "short" { print $3 }')
[ "$want" = "$(awk '$1 == 26 && $2 == "short" { print $3 }' "$o/sprio.txt")" ] || fail "prio-calc is not sprio for job 26"
got=$(query 'prio_job_priority{job_id="26",partition="short"}')
[ "$got" = "$want" ] || fail "job 26 through Prometheus: $got, prio-calc $want"
# its fairshare term, rounded as sprio prints it
want=$(prio-calc --snapshot "$d/s" -P 2>/dev/null | awk -F'|' '$1 == 26 && $2 == "short" { print $7 }')
got=$(query 'prio_job_priority_term{job_id="26",partition="short",factor="fairshare"}')
[ "$(printf '%.0f' "$got")" = "$want" ] || fail "job 26's FAIRSHARE through Prometheus: $got, prio-calc $want"
# ivan's FairShare in genomics: fstree-show
want=$(fstree-show --snapshot "$d/s" -a -l -P | awk -F'|' '$2 == "ivan" { print $8 }')
got=$(query 'prio_assoc_fairshare{account="genomics",user="ivan"}')
[ -n "$want" ] && [ "$(printf '%.6f' "$got")" = "$want" ] || fail "ivan's FairShare through Prometheus: $got, fstree-show $want"
# pending jobs waiting on Priority in batch: Slurm's squeue of the capture
want=$(awk '$2 == "batch" && $5 == "PD" && /\(Priority\)/' "$o/squeue.txt" | wc -l)
got=$(query 'prio_jobs_pending{partition="batch",reason="Priority"}')
[ "$got" = "$want" ] || fail "pending on Priority in batch through Prometheus: $got, squeue $want"
# the info metric and the counters came through the OpenMetrics parser
got=$(query 'prio_exporter_loads_total')
[ "$got" = 1 ] || fail "prio_exporter_loads_total: $got"
# every expression of the example Grafana dashboard (dashboard.sh checks
# them offline), its variables at their defaults: Prometheus evaluates it
# without error, and one that is not a rate over a short history or the
# withheld series (none here) has samples
if command -v python3 >/dev/null || [ -n "${PRIO_REQUIRE_PROMETHEUS:-}" ]; then
	python3 tests/cli/dashboard.py exprs contrib/grafana/prio-tools-dashboard.json >"$d/exprs" ||
		fail "the dashboard's expressions"
	[ -s "$d/exprs" ] || fail "no expression in the dashboard"
	while IFS='	' read -r kind expr; do
		r=$(curl -s -G --data-urlencode "query=$expr" "$api/query")
		case $r in *'"status":"success"'*) ;; *) fail "dashboard: $expr: $r" ;; esac
		[ "$kind" = maybe ] && continue
		case $r in *'"result":[]'*) fail "dashboard: no samples for $expr" ;; esac
	done <"$d/exprs"
fi
exit 0
