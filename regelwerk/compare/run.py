"""`regelwerk compare OLD NEW`: both versions play the same seeds with the same agents through
the simulation backend (processes or Dask), and the report says what the change did: the
scenarios whose verdict changed, the games that stayed identical move for move and where the
others part, and every measure with its test (measures.py, stats.py)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

from ..dsl import ast as A
from ..interpreter.engine.errors import EngineError
from ..interpreter.tools.scenario import run_scenarios
from ..interpreter.tools.simulate import PlaySettings, game_seed
from ..simulation import run_simulation
from ..simulation.progress import Progress
from ..simulation.report import settings_json
from .divergence import first_divergence, points_by_rule, replay
from .measures import measures, never_fired

REPORT_FORMAT = "regelwerk-compare"
REPORT_VERSION = 1


class CompareError(Exception):
    """The two versions cannot be compared (other players, a run cut short)."""


@dataclass
class Comparison:
    report: dict[str, Any]
    old_records: list[dict]
    new_records: list[dict]


def _side(ruleset: Any) -> dict[str, Any]:
    return {"ruleset": ruleset.title, "ruleset_hash": ruleset.hash, "file": ruleset.path}


def _scenarios(old: Any, new: Any) -> list[dict[str, Any]]:
    """The scenarios whose verdict differs between the versions (or that only one has)."""
    def verdicts(ruleset: Any) -> dict[str, dict]:
        return {r.name: {"passed": r.passed, "failure": r.failure} for r in run_scenarios(ruleset)}
    a, b = verdicts(old), verdicts(new)
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        va, vb = a.get(name), b.get(name)
        if va is None or vb is None or va["passed"] != vb["passed"]:
            out.append({"scenario": name, "old": None if va is None else ("passed" if va["passed"] else "failed"),
                        "new": None if vb is None else ("passed" if vb["passed"] else "failed"),
                        "failure": (vb or va or {}).get("failure")})
    return out


def _scoring_var(old: Any, new: Any) -> str | None:
    """The state variable both versions score by (`scoring points`), if it is one."""
    names = set()
    for r in (old, new):
        s = r.model.scoring
        if s is None or not isinstance(s.value, A.Name) or s.value.name not in r.model.vars:
            return None
        names.add(s.value.name)
    return names.pop() if len(names) == 1 else None


def _same_game(a: dict, b: dict) -> bool:
    return "failure" not in a and "failure" not in b and a.get("moves") == b.get("moves") and \
        a["winners"] == b["winners"] and a.get("scores") == b.get("scores")


def compare(old: Any, new: Any, games: int, settings: PlaySettings, *, jobs: int | None = None,
            dask: str | None = None, progress: Progress | None = None) -> Comparison:
    """Play games 0..games-1 on both versions and compare them (module docstring)."""
    started = time.perf_counter()
    count = settings.players or old.model.players.min_count
    names_old = list(old.new_game(players=settings.players, options=settings.options or None, start=False).players)
    names_new = list(new.new_game(players=settings.players, options=settings.options or None, start=False).players)
    if names_old != names_new:
        raise CompareError(f"the versions have other players for {count}: {', '.join(names_old)} "
                           f"against {', '.join(names_new)}")
    kept = dataclasses.replace(settings, keep_moves=True, firings=True)
    timing: dict[str, Any] = {}
    runs = []
    for label, ruleset in (("old", old), ("new", new)):
        t = time.perf_counter()
        run = run_simulation(ruleset, games, kept, jobs=jobs, dask=dask, progress=progress)
        if run.interrupted:
            raise KeyboardInterrupt
        timing[f"{label}_games_s"] = time.perf_counter() - t
        runs.append([run.records[i] for i in range(games)])
    old_recs, new_recs = runs
    t = time.perf_counter()
    identical = {i for i in range(games) if _same_game(old_recs[i], new_recs[i])}
    var = _scoring_var(old, new)
    parted = []
    for i in range(games):
        if "failure" in old_recs[i] or "failure" in new_recs[i]:
            continue
        seed = game_seed(settings.seed, i)
        try:  # each side's game again, traced: where they part, and who scored by which rule
            traces = [replay(r, settings.players, seed, settings.options, recs[i]["moves"])
                      for r, recs in ((old, old_recs), (new, new_recs))]
        except EngineError as err:  # a replay that fails is a finding, as in simulate
            parted.append({"game": i, "seed": seed, "error": err.message})
            continue
        if var is not None:
            old_recs[i]["points_by_rule"] = points_by_rule(traces[0], var)
            new_recs[i]["points_by_rule"] = points_by_rule(traces[1], var)
        if i not in identical:
            parted.append({"game": i, "seed": seed, **(first_divergence(*traces) or {"step": None})})
    timing["replay_s"] = time.perf_counter() - t
    t = time.perf_counter()
    scenarios = _scenarios(old, new)
    timing["scenarios_s"] = time.perf_counter() - t
    spec_of: dict[str, list[str]] = {}
    for ruleset in (old, new):
        for key, info in ruleset.program(True).rules.items():
            spec_of.setdefault(key, [])
            spec_of[key] = sorted(set(spec_of[key]) | set(info.get("spec") or ()))
    diffs = measures(old_recs, new_recs, names_old, spec_of, settings.seed)
    timing["total_s"] = time.perf_counter() - started
    report = {
        "format": REPORT_FORMAT, "version": REPORT_VERSION,
        "old": _side(old), "new": _side(new),
        "settings": settings_json(settings, names_old),
        "games": games,
        "failed": {"old": sum("failure" in r for r in old_recs), "new": sum("failure" in r for r in new_recs)},
        "identical_games": len(identical),
        "differences": diffs,
        "significant": [m["measure"] for m in diffs if m["significant"]],
        "firings": never_fired(old_recs, new_recs),
        "scenarios": scenarios,
        "first_divergence": parted,
        "timing": timing,
    }
    return Comparison(report, old_recs, new_recs)
