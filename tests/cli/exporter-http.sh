#!/bin/sh
# SPDX-License-Identifier: MIT
# prio-exporter over HTTP on a free port of 127.0.0.1: 200 with the
# OpenMetrics content type for a client that accepts it, the 0.0.4 text
# format otherwise (and promtool, when installed, finds that text valid),
# the same numbers as --once, basic authentication (401 without the
# password, 200 with), 404 elsewhere, a reload when a file of the folder
# changes, and the last good data (with prio_exporter_load_success 0) when
# a reload fails.
set -eu
command -v curl >/dev/null || { echo "curl not installed"; exit 1; }
. tests/cli/calc-oracle.lib
d=$(mktemp -d)
epid=""
. tests/cli/exporter.lib
cleanup() { exporter_stop "$epid"; rm -rf "$d"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/  server: /' "$d/err"; exit 1; }
calc_snapshot fairtree-basic "$d/s"
printf 'prom:s3cret pass\n' >"$d/auth"
exporter_start "$d/err" --snapshot "$d/s" --basic-auth-file "$d/auth"
port=$eport
url=http://127.0.0.1:$port/metrics
om='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'

code=$(curl -s -o /dev/null -w '%{http_code}' "$url")
[ "$code" = 401 ] || fail "no credentials: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -u 'prom:wrong' "$url")
[ "$code" = 401 ] || fail "wrong password: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -u 'prom:s3cret pass' "http://127.0.0.1:$port/nothing")
[ "$code" = 404 ] || fail "/nothing: HTTP $code"

curl -s -u 'prom:s3cret pass' -H "Accept: $om" -D "$d/h1" -o "$d/b1" "$url"
grep -q '^HTTP/1.1 200' "$d/h1" || fail "OpenMetrics: $(head -1 "$d/h1")"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$d/h1" ||
	fail "OpenMetrics content type: $(grep -i content-type "$d/h1")"
[ "$(tail -1 "$d/b1")" = "# EOF" ] || fail "no # EOF"
# the same families and values as --once (the load counters aside)
prio-exporter --snapshot "$d/s" --once >"$d/once"
grep -v '^prio_exporter_' "$d/once" >"$d/once.f"
grep -v '^prio_exporter_' "$d/b1" >"$d/b1.f"
cmp -s "$d/once.f" "$d/b1.f" || fail "HTTP and --once differ"
grep -q '^prio_job_priority{job_id="26",user="bob",account="astro",partition="short",qos="high"} 10458$' "$d/b1" ||
	fail "job 26 is not sprio's 10458"

curl -s -u 'prom:s3cret pass' -D "$d/h2" -o "$d/b2" "$url"
grep -q '^HTTP/1.1 200' "$d/h2" || fail "text: $(head -1 "$d/h2")"
grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$d/h2" ||
	fail "0.0.4 content type: $(grep -i content-type "$d/h2")"
! grep -q '^# EOF\|^# UNIT\| info$' "$d/b2" || fail "OpenMetrics syntax in 0.0.4"
grep -q '^# TYPE prio_withheld_info gauge$\|^# TYPE prio_exporter_loads_total counter$' "$d/b2" ||
	fail "0.0.4 family names"
if command -v promtool >/dev/null; then
	promtool check metrics <"$d/b2" >"$d/lint" 2>&1 || { cat "$d/lint"; fail "promtool check metrics"; }
	[ ! -s "$d/lint" ] || { cat "$d/lint"; fail "promtool has remarks"; }
fi

# a change of the folder is read before the next scrape
grep -q '^prio_exporter_loads_total 1$' "$d/b2" || fail "loads before the change"
sleep 0.01
sed -i 's/^PriorityWeightQOS=.*/PriorityWeightQOS=0/' "$d/s/slurm.conf"
curl -s -u 'prom:s3cret pass' -H "Accept: $om" -o "$d/b3" "$url"
grep -q '^prio_exporter_loads_total 2$' "$d/b3" || fail "no reload after the change"
grep -q 'factor="qos"} [1-9]' "$d/b3" && fail "PriorityWeightQOS=0 not read"
# a spoiled folder: the last good data stays, the failure is counted
echo 'PriorityWeightAge=lots' >>"$d/s/slurm.conf"
curl -s -u 'prom:s3cret pass' -H "Accept: $om" -o "$d/b4" "$url"
grep -q '^prio_exporter_load_success 0$' "$d/b4" || fail "load_success after a bad reload"
grep -q '^prio_exporter_load_errors_total 1$' "$d/b4" || fail "load_errors after a bad reload"
grep -v '^prio_exporter_' "$d/b3" >"$d/b3.f"
grep -v '^prio_exporter_' "$d/b4" >"$d/b4.f"
cmp -s "$d/b3.f" "$d/b4.f" || fail "the last good data is not served"
grep -q 'reload failed, serving the last good data: .*slurm.conf' "$d/err" || fail "no reload error on stderr"
exit 0
