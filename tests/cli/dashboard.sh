#!/bin/sh
# SPDX-License-Identifier: MIT
# The example Grafana dashboard (contrib/grafana) is checked for valid
# queries: its structure imports (schemaVersion, panel ids, gridPos, refIds,
# the datasource and partition/account/user variables), every expression
# parses as PromQL for Prometheus's own promtool (the expressions as a
# recording-rules file, Grafana's variables at their defaults), and every
# metric name the expressions and variable queries use is in what
# prio-exporter exposes for the samples.  exporter-prometheus.sh runs the
# same expressions against a real Prometheus.  Skips (77) without python3
# or promtool (Debian's prometheus package), unless PRIO_REQUIRE_PROMETHEUS
# is set (.ci/run).
set -u
. tests/cli/exporter.lib
need_tools python3 promtool
dash=contrib/grafana/prio-tools-dashboard.json
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dash" || exit 1
for s in samples/site samples/slurm-24.11; do
	prio-exporter --snapshot "$s" --once >"$t/expo" || { echo "prio-exporter --once on $s failed"; exit 1; }
	python3 tests/cli/dashboard.py check "$dash" "$t/expo" >"$t/bad" ||
		{ echo "$dash against $s:"; cat "$t/bad"; exit 1; }
done
python3 tests/cli/dashboard.py rules "$dash" >"$t/rules.yml" || exit 1
n=$(python3 tests/cli/dashboard.py exprs "$dash" | wc -l)
[ "$n" -ge 20 ] || { echo "only $n expressions in $dash"; exit 1; }
promtool check rules "$t/rules.yml" >"$t/promtool" 2>&1 ||
	{ echo "promtool check rules:"; cat "$t/promtool"; exit 1; }
grep -q "SUCCESS: $n rules found" "$t/promtool" ||
	{ echo "promtool did not check the $n expressions:"; cat "$t/promtool"; exit 1; }
