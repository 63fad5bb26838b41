#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The example Grafana dashboard's queries, for the tests (dashboard.sh and
exporter-prometheus.sh).

dashboard.py check DASHBOARD EXPOSITION
    The dashboard's structure (what Grafana needs to import it: schemaVersion,
    unique panel ids, gridPos inside 24 columns, every target an expr and a
    refId unique in its panel, every variable an expression uses defined),
    and every metric name its expressions and variable queries use is one
    the exporter exposes (EXPOSITION: prio-exporter --once) or one Prometheus
    adds to every scrape.  Prints the problems; exit 1 when there are any.
dashboard.py rules DASHBOARD
    A Prometheus recording-rules file (JSON, which is YAML) holding every
    expression, the template variables replaced by values, for promtool.
dashboard.py exprs DASHBOARD
    One line per expression: KIND TAB EXPR, KIND "series" where Prometheus
    must return samples once it has scraped the exporter, "maybe" where an
    empty answer is right (a rate over a short history, series withheld
    only when PrivateData asks).
"""
import json
import re
import sys

# What a Grafana variable stands for when the query runs outside Grafana:
# the "All" of a multi-value variable is its allValue, ".*".
GRAFANA_BUILTIN = {"__rate_interval": "1m", "__interval": "1m",
                   "__range": "1h"}
# The series Prometheus itself writes for every target.
PROMETHEUS_SERIES = {"up", "scrape_duration_seconds", "scrape_samples_scraped",
                     "scrape_samples_post_metric_relabeling",
                     "scrape_series_added"}
PROMQL_WORDS = {"sum", "min", "max", "avg", "count", "topk", "bottomk",
                "by", "without", "on", "ignoring", "group_left",
                "group_right", "and", "or", "unless", "bool", "offset",
                "rate", "irate", "increase", "time", "sort", "sort_desc",
                "Inf", "NaN", "label_values", "quantile", "stddev"}
VAR = re.compile(r"\$(?:\{(\w+)(?::\w+)?\}|(\w+))")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def panels(dash):
    for p in dash.get("panels", []):
        yield p
        yield from p.get("panels", [])


def variables(dash):
    return {v["name"]: v for v in dash.get("templating", {}).get("list", [])}


def targets(dash):
    for p in panels(dash):
        for t in p.get("targets", []):
            yield p, t


def substitute(expr, dvars):
    """The expression as Prometheus gets it from Grafana with every variable
    at its default: All (.*) for multi-value ones, the current value
    otherwise."""
    def one(m):
        name = m.group(1) or m.group(2)
        if name in GRAFANA_BUILTIN:
            return GRAFANA_BUILTIN[name]
        v = dvars.get(name)
        if v is None:
            raise KeyError(name)
        if v.get("includeAll"):
            return v.get("allValue") or ".*"
        cur = v.get("current", {}).get("value")
        if isinstance(cur, list):
            cur = cur[0]
        return str(cur)
    return VAR.sub(one, expr)


def metric_names(expr):
    """The metric names of an expression: identifiers that are not label
    names (inside braces or a by/on list), strings, functions or keywords."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", "{}", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)",
               " ", e)
    e = re.sub(r"\[[^\]]*\]", "[]", e)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        word = m.group(0)
        rest = e[m.end():].lstrip()
        if word in PROMQL_WORDS or rest.startswith("("):
            continue
        names.add(word)
    return names


def exposed(path):
    """Names a scrape of the exposition gives: its samples' names, and for
    families without a sample now (withheld, say) the names their type
    gives them (_total of a counter, _info of an info)."""
    names = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"# TYPE (\S+) (\S+)", line)
            if m:
                suffix = {"counter": "_total", "info": "_info"}.get(m.group(2), "")
                names.add(m.group(1) + suffix)
            elif line.strip() and not line.startswith("#"):
                names.add(re.match(r"[A-Za-z_:][A-Za-z0-9_:]*", line).group(0))
    return names


def check(dash_path, expo_path):
    dash = load(dash_path)
    dvars = variables(dash)
    bad = []
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        bad.append("schemaVersion: %r, expected 36 or later" % dash.get("schemaVersion"))
    for key in ("uid", "title"):
        if not dash.get(key):
            bad.append("dashboard: no %s" % key)
    ds = dvars.get("datasource")
    if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        bad.append("templating: no Prometheus datasource variable")
    for name in ("partition", "account", "user"):
        if name not in dvars:
            bad.append("templating: no variable %s" % name)
    ids = set()
    for p in panels(dash):
        title = p.get("title", "?")
        if p.get("id") in ids or not isinstance(p.get("id"), int):
            bad.append("panel %s: id %r missing or repeated" % (title, p.get("id")))
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "hwxy") or g["x"] + g["w"] > 24:
            bad.append("panel %s: gridPos %r" % (title, g))
        if p.get("type") == "row":
            continue
        if p.get("datasource", {}).get("uid") != "${datasource}":
            bad.append("panel %s: datasource is not ${datasource}" % title)
        refs = [t.get("refId") for t in p.get("targets", [])]
        if not refs or None in refs or len(set(refs)) != len(refs):
            bad.append("panel %s: refIds %r" % (title, refs))
    have = exposed(expo_path) | PROMETHEUS_SERIES
    queries = [(p.get("title"), t.get("expr")) for p, t in targets(dash)]
    queries += [("variable " + n, re.sub(r"^label_values\((.*),\s*\w+\)$", r"\1",
                                         v.get("definition", "")))
                for n, v in dvars.items() if v.get("type") == "query"]
    for title, expr in queries:
        if not expr:
            bad.append("%s: no expr" % title)
            continue
        try:
            expr = substitute(expr, dvars)
        except KeyError as e:
            bad.append("%s: undefined variable %s in %s" % (title, e, expr))
            continue
        for name in sorted(metric_names(expr) - have):
            bad.append("%s: %s is not in the exporter's output" % (title, name))
    for line in bad:
        print(line)
    return 1 if bad else 0


def exprs(dash):
    dvars = variables(dash)
    for p, t in targets(dash):
        e = substitute(t["expr"], dvars)
        maybe = "[" in e or "_info" in e
        yield ("maybe" if maybe else "series"), p.get("title"), t["refId"], e


def main(argv):
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "rules":
        rules = [{"record": "dashboard:panel%d:%s" % (i, ref), "expr": e}
                 for i, (_, _, ref, e) in enumerate(exprs(load(argv[2])))]
        print(json.dumps({"groups": [{"name": "dashboard", "rules": rules}]},
                         indent=1))
        return 0
    if len(argv) == 3 and argv[1] == "exprs":
        for kind, _, _, e in exprs(load(argv[2])):
            print("%s\t%s" % (kind, e))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
