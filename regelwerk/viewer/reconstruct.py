"""The state before the first step, and each change's path resolved against the state it
changed. The page rebuilds every position from these; this module is also how the tests
check that the reconstruction matches a replayed game.
"""

from __future__ import annotations

import copy
from typing import Any

from ..api import Ruleset
from ..interpreter.engine.errors import EngineError
from ..interpreter.engine.game import Game
from ..interpreter.engine.values import jsonable
from .inputs import TraceFile, ViewerError
from .paths import PathError, apply, resolve, split_path


def start_game(ruleset: Ruleset, trace: TraceFile) -> Game:
    """A game with every state variable at its declared start value, before the flow runs."""
    head = trace.header
    try:
        return ruleset.new_game(players=len(head["players"]), seed=int(head["seed"]),
                                options=dict(head.get("options") or {}), start=False).prepare()
    except (EngineError, TypeError, ValueError) as err:
        raise ViewerError(f"{trace.path}:1: error: cannot start the game the header names: {err}") from None


def state_of(game: Game) -> dict[str, Any]:
    """The whole state as JSON values."""
    return {name: jsonable(value) for name, value in game.vars.items()}


def resolve_changes(start: dict[str, Any], trace: TraceFile) -> dict[str, Any]:
    """Apply every change in order to a copy of `start`, adding each change's JSON `keys`;
    returns the final state. A path that does not fit is reported at its trace line."""
    state = {k: _copy(v) for k, v in start.items()}
    for step, line in zip(trace.steps, trace.lines, strict=True):
        for change in step["changes"]:
            try:
                keys = resolve(state, split_path(change["path"]))
            except PathError as err:
                raise ViewerError(f"{trace.path}:{line}: error: change of {change['path']!r} does not fit "
                                  f"the ruleset's state ({err})") from None
            change["keys"] = keys
            apply(state, keys, change["new"])
    return state


def states(start: dict[str, Any], steps: list[dict]) -> list[dict[str, Any]]:
    """Every position: the start, then the state after each step (for tests; the page keeps
    only periodic snapshots)."""
    state = _copy(start)
    out = [_copy(state)]
    for step in steps:
        for change in step["changes"]:
            apply(state, change["keys"], change["new"])
        out.append(_copy(state))
    return out


def _copy(v: Any) -> Any:
    return copy.deepcopy(v)
