"""Checks the monitoring files under deploy/monitoring with promtool (Debian's `prometheus`).

    python3 deploy/monitoring/check.py [--scrapes DIR]

- prometheus.yml and the rules it loads (alerts.yml): `promtool check config`;
- alerts-test.yml, the rules' unit tests: `promtool test rules`;
- every query of dashboard.json parses: each becomes a recording rule, `promtool check rules`;
- with --scrapes DIR (files of what the processes' /metrics answered; MonitoringTests writes
  them from a running suite): each passes `promtool check metrics`, and every metric the alerts
  and the dashboard name is among them, so no alert watches a series nothing exposes.

Exits 1 naming each problem.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

HERE = pathlib.Path(__file__).resolve().parent
METRIC = re.compile(r"\b((?:binario|grpc|gateway)_[a-z0-9_]+)\b")


def promtool(*arguments, stdin=None):
    """Runs promtool; returns (ok, what it printed)."""
    done = subprocess.run(["promtool", *arguments], input=stdin, capture_output=True, text=True, cwd=HERE)
    return done.returncode == 0, (done.stdout + done.stderr).strip()


def dashboard_queries():
    """Every query of the dashboard, its Grafana variables given values Prometheus parses."""
    dashboard = json.loads((HERE / "dashboard.json").read_text())
    panels = [panel for row in dashboard["panels"] for panel in [row, *row.get("panels", [])]]
    for panel in panels:
        for target in panel.get("targets", []):
            expression = target["expr"].replace("$__rate_interval", "5m").replace("$service", ".*")
            yield panel["title"], expression


def alert_queries():
    rules = yaml.safe_load((HERE / "alerts.yml").read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            yield rule["alert"], rule["expr"]


def exposed_metrics(scrapes):
    """The metric names in the scraped files: the samples' names (a histogram's _bucket, _sum, _count)."""
    names = set()
    for path in sorted(scrapes.iterdir()):
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                names.add(re.split(r"[{ ]", line, maxsplit=1)[0])
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scrapes", type=pathlib.Path, help="a folder of /metrics answers, one file each")
    arguments = parser.parse_args()
    problems = []

    ok, said = promtool("check", "config", "prometheus.yml")
    if not ok:
        problems.append(f"prometheus.yml or alerts.yml: {said}")
    ok, said = promtool("test", "rules", "alerts-test.yml")
    if not ok:
        problems.append(f"alerts-test.yml: {said}")

    queries = list(dashboard_queries())
    with tempfile.NamedTemporaryFile("w", suffix=".yml") as rules:
        recorded = [{"record": f"dashboard:query_{index}", "expr": expression} for index, (_, expression) in enumerate(queries)]
        yaml.safe_dump({"groups": [{"name": "dashboard", "rules": recorded}]}, rules)
        rules.flush()
        ok, said = promtool("check", "rules", rules.name)
        if not ok:
            problems.append(f"dashboard.json: a query does not parse: {said}")

    if arguments.scrapes:
        files = sorted(arguments.scrapes.iterdir())
        if not files:
            problems.append(f"{arguments.scrapes}: no scrapes")
        for path in files:
            ok, said = promtool("check", "metrics", stdin=path.read_text())
            if not ok:
                problems.append(f"{path.name}: promtool check metrics: {said}")
        exposed = exposed_metrics(arguments.scrapes)
        for where, expression in [*(("alert " + name, e) for name, e in alert_queries()), *(("dashboard panel " + t, e) for t, e in queries)]:
            for name in sorted(set(METRIC.findall(expression)) - exposed):
                problems.append(f"{where}: no process exposes {name}")
        print(f"checked against {len(files)} scrapes: {len(exposed)} metric names exposed")

    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"alerts.yml, alerts-test.yml, prometheus.yml and dashboard.json ({len(queries)} queries): promtool clean")


if __name__ == "__main__":
    main()
