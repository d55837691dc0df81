"""The battery's totals: printed after the run, and written as JSON to the file named by
$REGELWERK_BATTERY_REPORT (the figures of issue 10's closing note)."""

from __future__ import annotations

import json
import os

from .tally import COUNTS, FAILURES


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    if not COUNTS:
        return
    totals = {"inputs tried": COUNTS[("all", "inputs")]}
    for f in FAILURES:
        totals[f] = sum(n for (kind, outcome), n in COUNTS.items() if outcome == f)
    totals["late (the alarm rang, then it ended)"] = COUNTS[("all", "late")]
    by_kind: dict[str, dict[str, int]] = {}
    for (kind, outcome), n in sorted(COUNTS.items()):
        if kind != "all":
            by_kind.setdefault(kind, {})[outcome] = n
    terminalreporter.write_line("battery: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    path = os.environ.get("REGELWERK_BATTERY_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"totals": totals, "by_kind": by_kind}, fh, indent=1, sort_keys=True)
