"""Run a file's scenarios from the editor (what `regelwerk test` does) and keep the outcomes for
the code lenses and the failure diagnostics shown inline."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..api import Ruleset
from ..dsl import ast as A
from ..interpreter.engine.errors import EngineError
from ..interpreter.tools.scenario import run_scenario
from .analysis import Analysis


class ScenarioError(Exception):
    """Why the scenarios cannot run (the ruleset has errors)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    passed: bool
    failure: str | None
    at: A.Span | None
    seconds: float


def ruleset_of(an: Analysis) -> Ruleset:
    """A runnable ruleset built from the editor's texts, as `regelwerk.load` would build it."""
    errors = [d for ds in an.diagnostics.values() for d in ds if d.severity == "error"]
    if errors or an.broken:
        raise ScenarioError(f"the ruleset has {len(errors)} error(s): fix them to run its scenarios")
    warnings = [d for ds in an.diagnostics.values() for d in ds if d.severity != "error"]
    ruleset = Ruleset(an.model, an.modules, dict(an.texts), warnings)
    ruleset.model.base_dir = os.path.dirname(an.root)
    ruleset.path = an.root
    return ruleset


def scenarios_in(an: Analysis, path: str) -> list[A.ScenarioDecl]:
    module = an.module(path)
    return [d for d in module.decls if isinstance(d, A.ScenarioDecl)] if module is not None else []


def run(an: Analysis, path: str, name: str | None = None) -> list[Outcome]:
    """Run the scenarios of one file (or the one called `name`); a crash is a failure, not an error."""
    ruleset = ruleset_of(an)
    out = []
    for sc in scenarios_in(an, path):
        if name is not None and sc.name != name:
            continue
        start = time.perf_counter()
        try:
            res = run_scenario(ruleset, sc)
            outcome = Outcome(sc.name, res.passed, res.failure, res.at, 0.0)
        except EngineError as err:
            outcome = Outcome(sc.name, False, f"error: {err.message}", sc.span, 0.0)
        except Exception as err:  # an engine bug must not take the server down
            outcome = Outcome(sc.name, False, f"internal error: {type(err).__name__}: {err}", sc.span, 0.0)
        out.append(Outcome(outcome.name, outcome.passed, outcome.failure, outcome.at,
                           time.perf_counter() - start))
    return out


def lens_title(outcome: Outcome | None) -> str:
    if outcome is None:
        return "▶ run scenario"
    if outcome.passed:
        return f"✓ passed ({outcome.seconds:.2f} s) — run again"
    first = (outcome.failure or "failed").splitlines()[0]
    return f"✗ failed: {first[:100]} — run again"
